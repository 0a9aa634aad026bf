// Document: edits update text, line index and tree together; incremental == from scratch.
#include "syntax/document.h"

#include <gtest/gtest.h>

#include <random>

#include "support/corpus_file.h"
#include "support/files.h"
#include "syntax/syntax_errors.h"

namespace tvmls::analysis {
namespace {

using testing::ListFiles;
using testing::ReadFileOrDie;

std::string Sexp(const Document& doc) { return ToSexp(doc.Root()); }

TEST(Document, RenameChangesTextButNotStructure) {
  Document doc("def f(x):\n    return x\n");
  std::string before = Sexp(doc);
  EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{4, 5, "gg"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(doc.Text(), "def gg(x):\n    return x\n");
  EXPECT_EQ(Sexp(doc), before);
  // Tree-sitter sees no structural change; the edited span still reports the new name.
  ASSERT_EQ(doc.ChangedRanges().size(), 1u);
  EXPECT_EQ(doc.ChangedRanges()[0], (TextRange{4, 6}));
  EXPECT_EQ(r.edited, (std::vector<TextRange>{{4, 6}}));
}

TEST(Document, OpeningAStringChangesTheRestOfTheFile) {
  std::string text = "a = 1\nb = 2\nc = 3\n";
  Document doc(text);
  EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{6, 6, "\"\"\""}});
  ASSERT_TRUE(r.ok);
  const auto& changed = doc.ChangedRanges();
  ASSERT_FALSE(changed.empty());
  EXPECT_LE(changed.front().begin, 6u);
  EXPECT_GE(changed.back().end, static_cast<uint32_t>(doc.Text().size()) - 1);
}

TEST(Document, PositionEditsInUtf16) {
  // "é" is one UTF-16 unit and two bytes; the edit replaces `y` after it.
  Document doc("x = \"\xC3\xA9\" + y\n");
  EditResult r = doc.ApplyEdits({PositionEdit{{0, 10}, {0, 11}, "zz"}}, Encoding::kUtf16);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(doc.Text(), "x = \"\xC3\xA9\" + zz\n");
}

TEST(Document, BatchOfPositionEditsAppliesInOrder) {
  Document doc("a\nb\nc\n");
  // The second edit's coordinates refer to the text after the first.
  EditResult r = doc.ApplyEdits({PositionEdit{{0, 0}, {0, 1}, "x\ny"}, PositionEdit{{3, 0}, {3, 1}, "Z"}},
                                Encoding::kUtf16);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(doc.Text(), "x\ny\nb\nZ\n");
  EXPECT_EQ(doc.Lines(), LineIndex(doc.Text()));
}

TEST(Document, RefusedEditsChangeNothing) {
  std::string text = "a = \"\xE4\xB8\xAD\"\n";
  Document doc(text);
  std::string sexp = Sexp(doc);
  struct Case {
    std::vector<ByteEdit> edits;
    const char* why;
  };
  const Case cases[] = {
      {{{3, 2, ""}}, "reversed"},
      {{{0, 100, ""}}, "past the end"},
      {{{6, 6, "x"}}, "inside a code point"},
      {{{0, 1, "b"}, {6, 7, ""}}, "second edit inside a code point"},
      {{{0, 1, "b"}, {0, 99, ""}}, "second edit past the end"},
  };
  for (const Case& c : cases) {
    EditResult r = doc.ApplyEdits(c.edits);
    EXPECT_FALSE(r.ok) << c.why;
    EXPECT_FALSE(r.error.empty()) << c.why;
    EXPECT_EQ(doc.Text(), text) << c.why;
    EXPECT_EQ(Sexp(doc), sexp) << c.why;
    EXPECT_EQ(doc.Lines(), LineIndex(text)) << c.why;
  }
  EXPECT_FALSE(doc.ApplyEdits({PositionEdit{{5, 0}, {5, 0}, "x"}}, Encoding::kUtf16).ok);
  EXPECT_FALSE(doc.ApplyEdits({PositionEdit{{0, 6}, {0, 6}, "x"}}, Encoding::kUtf8).ok);
  EXPECT_EQ(doc.Text(), text);
}

TEST(Document, ReplaceAll) {
  Document doc("x = 1\n");
  doc.ReplaceAll("def f():\n    pass\n");
  EXPECT_EQ(Sexp(doc), Sexp(Document("def f():\n    pass\n")));
  ASSERT_EQ(doc.ChangedRanges().size(), 1u);
  EXPECT_EQ(doc.ChangedRanges()[0], (TextRange{0, 18}));
}

// Fragments typed into real files: brackets, quotes, layout, keywords, non-ASCII.
const char* const kFragments[] = {
    "(", ")", "[", "]", "{", "}", "\"", "'", "\"\"\"", "#", "\n", "\r\n", "    ", "\t", ":",
    ",", "x", "lv", " = ", "R.add(", "def g():\n    ", "class C:\n", "with R.dataflow():\n",
    "\\\n", "f\"{", "\xC3\xA9", "\xF0\x9D\x9B\xBC", "@", "if x:\n", "else:\n", "return ", "",
};

// Picks a random code-point boundary in `text`.
uint32_t RandomBoundary(const std::string& text, std::mt19937& rng) {
  uint32_t at = static_cast<uint32_t>(rng() % (text.size() + 1));
  while (!IsCodePointBoundary(text, at)) --at;
  return at;
}

void CheckRandomEdits(const std::string& name, std::string text, uint32_t seed, int steps) {
  std::mt19937 rng(seed);
  Document doc(text);
  for (int step = 0; step < steps; ++step) {
    uint32_t a = RandomBoundary(doc.Text(), rng);
    uint32_t b = a;
    if (rng() % 2) {
      b = std::min<uint32_t>(static_cast<uint32_t>(doc.Text().size()), a + rng() % 12);
      while (!IsCodePointBoundary(doc.Text(), b)) ++b;
    }
    std::string insert = kFragments[rng() % std::size(kFragments)];
    std::string expected = doc.Text();
    expected.replace(a, b - a, insert);
    EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{a, b, insert}});
    ASSERT_TRUE(r.ok) << name << " step " << step << ": " << r.error;
    ASSERT_EQ(doc.Text(), expected) << name << " step " << step;
    ASSERT_EQ(doc.Lines(), LineIndex(expected)) << name << " step " << step;
    Document fresh(expected);
    ASSERT_EQ(Sexp(doc), Sexp(fresh)) << name << " step " << step << " edit [" << a << "," << b
                                      << ") <- '" << insert << "'\ntext:\n" << expected;
    // The changed ranges cover the edit.
    const auto& changed = doc.ChangedRanges();
    uint32_t new_end = a + static_cast<uint32_t>(insert.size());
    bool covered = false;
    for (const TextRange& range : changed) covered |= range.begin <= a && new_end <= range.end;
    ASSERT_TRUE(covered) << name << " step " << step;
  }
}

TEST(Document, RandomEditsOnExamplesEqualFromScratch) {
  auto files = ListFiles("examples", ".py");
  ASSERT_FALSE(files.empty());
  uint32_t seed = 1;
  for (const std::string& path : files) CheckRandomEdits(path, ReadFileOrDie(path), seed++, 250);
}

TEST(Document, RandomEditsOnCorpusInputsEqualFromScratch) {
  uint32_t seed = 100;
  for (const std::string& path : ListFiles("grammar/test/corpus", ".txt")) {
    for (const auto& c : testing::ParseCorpusFile(path, ReadFileOrDie(path))) {
      CheckRandomEdits(path + ":" + c.name, c.input, seed++, 15);
    }
  }
}

}  // namespace
}  // namespace tvmls::analysis
