// Broken and hostile input: the syntax layer never crashes, hangs or overflows the stack.
#include <gtest/gtest.h>

#include "support/files.h"
#include "syntax/document.h"
#include "syntax/syntax_errors.h"

namespace tvmls::analysis {
namespace {

TEST(BadInput, NulBytes) {
  std::string text("x = 1\n\0\0y = \"a\0b\"\n def\0\n", 23);
  Document doc(text);
  auto errors = CollectSyntaxErrors(doc.Root(), doc.Text());
  EXPECT_FALSE(errors.empty());
  for (const auto& e : errors) EXPECT_EQ(e.message.find('\0'), std::string::npos);
  // Editing around NULs works too.
  EXPECT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{6, 8, ""}}).ok);
  EXPECT_EQ(ToSexp(doc.Root()), ToSexp(Document(doc.Text()).Root()));
}

TEST(BadInput, InvalidUtf8) {
  Document doc("x = \"\xFF\xFE\"\n\xC3\n\xE4\xB8 = 1\ny = 2\n");
  EXPECT_GT(ts_node_child_count(doc.Root()), 0u);
  (void)CollectSyntaxErrors(doc.Root(), doc.Text());
  Position p = doc.PositionOf(static_cast<uint32_t>(doc.Text().size()), Encoding::kUtf16);
  EXPECT_EQ(p.line, 4u);
}

TEST(BadInput, CrlfParsesLikeLf) {
  std::string lf = testing::ReadFileOrDie(testing::SourcePath("examples/transformer_block.py"));
  std::string crlf;
  for (char c : lf) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  Document a(lf), b(crlf);
  EXPECT_EQ(ToSexp(a.Root()), ToSexp(b.Root()));
  EXPECT_TRUE(CollectSyntaxErrors(b.Root(), b.Text()).empty());
}

TEST(BadInput, TabsAndMixedIndentation) {
  // A tab advances to the next multiple of 8, as in Python's tokenizer.
  Document tabs("def f():\n\tx = 1\n\tif x:\n\t\treturn x\n");
  EXPECT_TRUE(CollectSyntaxErrors(tabs.Root(), tabs.Text()).empty());
  Document mixed("def f():\n\tx = 1\n        y = 2\n    z = 3\n");
  (void)CollectSyntaxErrors(mixed.Root(), mixed.Text());  // Must not crash; errors allowed.
}

TEST(BadInput, NestingWithinTheLimitParses) {
  // 4,000 levels: far past Python's 200, still parsed.
  const size_t depth = 4000;
  std::string text = "x = " + std::string(depth, '[') + std::string(depth, ']') + "\n";
  Document doc(text);
  EXPECT_TRUE(doc.Refusal().empty());
  EXPECT_TRUE(CollectSyntaxErrors(doc.Root(), doc.Text()).empty());
  std::string sexp = ToSexp(doc.Root());  // Iterative: no stack overflow.
  EXPECT_GT(sexp.size(), depth);
}

// The tree-sitter 0.20 runtime corrupts memory on a syntax error under ~65k stack entries; such
// text is refused with a reason instead of parsed.
TEST(BadInput, HostileNestingIsRefusedNotParsed) {
  const size_t depth = 100000;
  for (std::string text : {"x = " + std::string(depth, '(') + "\n",
                           "x = " + std::string(depth, '[') + std::string(depth, ']') + "\n",
                           [] { std::string t = "x = "; for (int i = 0; i < 70000; ++i) t += "not "; return t; }(),
                           "x = " + std::string(70000, '-') + "\n"}) {
    Document doc(text);
    EXPECT_FALSE(doc.Refusal().empty());
    EXPECT_NE(doc.Refusal().find("nesting deeper than"), std::string::npos);
    EXPECT_EQ(ts_node_child_count(doc.Root()), 0u);
  }
}

TEST(BadInput, PastingHostileNestingIsRefusedAndRecovers) {
  Document doc("def f():\n    x = 1\n");
  std::string paste(70000, '(');
  ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{17, 18, paste}}).ok);
  EXPECT_FALSE(doc.Refusal().empty());
  // Deleting it again brings the tree back.
  ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{17, 17 + 70000, "1"}}).ok);
  EXPECT_TRUE(doc.Refusal().empty());
  EXPECT_EQ(ToSexp(doc.Root()), ToSexp(Document(doc.Text()).Root()));
}

TEST(BadInput, QuoteThatTurnsAStringIntoCodeIsNoticed) {
  // A string full of brackets becomes code when its opening quote is deleted.
  std::string text = "x = \"" + std::string(70000, '(') + "\"\ny = 1\n";
  Document doc(text);
  EXPECT_TRUE(doc.Refusal().empty());
  ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{4, 5, ""}}).ok);
  EXPECT_FALSE(doc.Refusal().empty());
}

// The scanner keeps 300 indentation levels (grammar/src/scanner.c, kMaxIndents: its state must
// fit tree-sitter's 1024-byte serialisation buffer; Python itself stops at 100). Up to that depth
// nested blocks parse cleanly; deeper text is reported as a syntax error, never a crash.
TEST(BadInput, DeepIndentation) {
  auto nested = [](int levels) {
    std::string text;
    for (int i = 0; i < levels; ++i) text += std::string(static_cast<size_t>(i), ' ') + "if x:\n";
    return text + std::string(static_cast<size_t>(levels), ' ') + "pass\n";
  };
  auto count_ifs = [](const std::string& sexp) {
    size_t n = 0;
    for (size_t at = 0; (at = sexp.find("(if_statement", at)) != std::string::npos; ++at) ++n;
    return n;
  };
  Document ok(nested(299));
  EXPECT_TRUE(CollectSyntaxErrors(ok.Root(), ok.Text()).empty());
  EXPECT_EQ(count_ifs(ToSexp(ok.Root())), 299u);
  Document deep(nested(400));
  EXPECT_FALSE(CollectSyntaxErrors(deep.Root(), deep.Text()).empty());
}

TEST(BadInput, UnterminatedConstructsAtEof) {
  for (const char* text : {"x = \"abc", "x = '''abc", "x = f\"{a", "def f(", "@", "class",
                           "x = (\n", "\\", "if x:", "x = 1 \\", "def f():\n\ndef g():\n    pass\n"}) {
    Document doc(text);
    EXPECT_FALSE(CollectSyntaxErrors(doc.Root(), doc.Text()).empty()) << text;
  }
}

}  // namespace
}  // namespace tvmls::analysis
