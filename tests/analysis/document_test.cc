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
using testing::ListFilesRecursive;
using testing::ReadFileOrDie;

std::string Sexp(const Document& doc) { return ToSexp(doc.Root()); }

// The node ids of the top-level statements: a subtree tree-sitter reuses keeps its id.
std::vector<const void*> TopLevelIds(const Document& doc) {
  std::vector<const void*> out;
  TSNode root = doc.Root();
  for (uint32_t i = 0; i < ts_node_named_child_count(root); ++i) out.push_back(ts_node_named_child(root, i).id);
  return out;
}

// Applies `edit` and counts the top-level statements from index `first` on that kept their node.
// The document must have `count` statements before and after, and parse as a fresh one does;
// -1 (with a failure) when it does not.
int ReusedAfterEdit(Document& doc, const ByteEdit& edit, size_t first, size_t count) {
  std::vector<const void*> before = TopLevelIds(doc);
  if (!doc.ApplyEdits(std::vector<ByteEdit>{edit}).ok) {
    ADD_FAILURE() << "edit refused";
    return -1;
  }
  std::vector<const void*> after = TopLevelIds(doc);
  EXPECT_EQ(Sexp(doc), Sexp(Document(doc.Text())));
  EXPECT_EQ(before.size(), count);
  EXPECT_EQ(after.size(), count);
  if (before.size() != count || after.size() != count) return -1;
  int reused = 0;
  for (size_t i = first; i < count; ++i) reused += after[i] == before[i] ? 1 : 0;
  return reused;
}

// `n` modules of one Relax function each, as TVM's tests write them.
std::string Modules(int n) {
  std::string text;
  for (int k = 0; k < n; ++k) {
    text += "@I.ir_module\nclass M" + std::to_string(k) +
            ":\n    @R.function\n    def main(x: R.Tensor((4,), \"float32\")):\n"
            "        with R.dataflow():\n            gv = R.add(x, x)\n            R.output(gv)\n"
            "        return gv\n\n\n";
  }
  return text;
}

TEST(Document, RenameChangesTextButNotStructure) {
  Document doc("def f(x):\n    return x\n");
  std::string before = Sexp(doc);
  EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{4, 5, "gg"}});
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(doc.Text(), "def gg(x):\n    return x\n");
  EXPECT_EQ(Sexp(doc), before);
  // Tree-sitter sees no structural change; the edited span still reports the new name.
  // tree-sitter's changed ranges cover the edit's reach (ReparseReach: the rest of `def f` and
  // the whitespace after it), a superset of the renamed name.
  ASSERT_EQ(doc.ChangedRanges().size(), 1u);
  EXPECT_EQ(doc.ChangedRanges()[0], (TextRange{4, 24}));
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

TEST(Document, WithoutTreeComparisonChangedRangesAreTheEditedSpans) {
  // The same edit as above: the tree changes to the end of the file, but without the tree
  // before the edit only the edited span is known.
  Document doc("a = 1\nb = 2\nc = 3\n");
  doc.SetTreeComparison(false);
  EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{6, 6, "\"\"\""}});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(doc.ChangedRanges(), (std::vector<TextRange>{{6, 9}}));
  // Turned on again, the next edit is compared with the tree before it.
  doc.SetTreeComparison(true);
  r = doc.ApplyEdits(std::vector<ByteEdit>{{6, 9, ""}});
  ASSERT_TRUE(r.ok);
  ASSERT_FALSE(doc.ChangedRanges().empty());
  EXPECT_GE(doc.ChangedRanges().back().end, static_cast<uint32_t>(doc.Text().size()) - 1);
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

// A random edit of `text`: a fragment inserted at a random place, replacing up to 11 bytes half
// of the time.
ByteEdit RandomEdit(const std::string& text, std::mt19937& rng) {
  uint32_t a = RandomBoundary(text, rng);
  uint32_t b = a;
  if (rng() % 2) {
    b = std::min<uint32_t>(static_cast<uint32_t>(text.size()), a + rng() % 12);
    while (!IsCodePointBoundary(text, b)) ++b;
  }
  return ByteEdit{a, b, kFragments[rng() % std::size(kFragments)]};
}

// Whether a reparsed tree must equal a fresh parse also when both trees have syntax errors. The
// tree-sitter runtime (0.20.7, and upstream as of 2026) does not guarantee it: when its error
// recovery meets subtrees reused from the old tree it can take another path than a fresh parse
// takes (grammar/README.md, "Incremental parsing and syntax errors", has minimal cases, one per
// mechanism, and one with a grammar that has no external scanner). Document does not compensate
// (see KnownRuntimeDivergencesOnBrokenText below for why).
constexpr bool kCompareTreesWithErrors = false;

bool HasError(const Document& doc) { return ts_node_has_error(doc.Root()); }

// Compares the reparsed tree of `doc` with a fresh parse of its text. They must be equal whenever
// either tree is free of syntax errors: that much the runtime does guarantee, so a difference there
// is a bug in the grammar or the scanner.
void ExpectSameAsFreshParse(const Document& doc, const std::string& where) {
  Document fresh(doc.Text());
  if (!kCompareTreesWithErrors && HasError(doc) && HasError(fresh)) return;
  ASSERT_EQ(Sexp(doc), Sexp(fresh)) << where << "\ntext:\n" << doc.Text();
}

void CheckRandomEdits(const std::string& name, std::string text, uint32_t seed, int steps) {
  std::mt19937 rng(seed);
  Document doc(text);
  for (int step = 0; step < steps; ++step) {
    ByteEdit edit = RandomEdit(doc.Text(), rng);
    uint32_t a = edit.begin;
    uint32_t b = edit.end;
    std::string insert = edit.new_text;
    std::string expected = doc.Text();
    expected.replace(a, b - a, insert);
    EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{{a, b, insert}});
    ASSERT_TRUE(r.ok) << name << " step " << step << ": " << r.error;
    ASSERT_EQ(doc.Text(), expected) << name << " step " << step;
    ASSERT_EQ(doc.Lines(), LineIndex(expected)) << name << " step " << step;
    ExpectSameAsFreshParse(doc, name + " step " + std::to_string(step) + " edit [" +
                                    std::to_string(a) + "," + std::to_string(b) + ") <- '" +
                                    insert + "'");
    if (::testing::Test::HasFatalFailure()) return;
    // The changed ranges cover the edit.
    const auto& changed = doc.ChangedRanges();
    uint32_t new_end = a + static_cast<uint32_t>(insert.size());
    bool covered = false;
    for (const TextRange& range : changed) covered |= range.begin <= a && new_end <= range.end;
    ASSERT_TRUE(covered) << name << " step " << step;
  }
}

// Issue 14: after an edit at the end of a block's last line, tree-sitter reuses the statements
// after the block (TrailingLayoutWidth). Counted by node identity: a reused subtree keeps its
// node id. Without the widened edit none of the later functions was reused (each edit reparsed
// the rest of the file).
TEST(Document, EditAtTheEndOfABlockReusesTheStatementsAfterIt) {
  std::string text;
  for (int k = 0; k < 60; ++k) {
    text += "@R.function\ndef f" + std::to_string(k) + "(x):\n    y = x\n    return y\n\n\n";
  }
  Document doc(text);
  for (const char* typed : {"x", ""}) {
    SCOPED_TRACE(typed);
    auto at = static_cast<uint32_t>(doc.Text().find("return y", doc.Text().find("def f20(")) + 8);
    auto end = static_cast<uint32_t>(doc.Text().find('\n', at));
    // f22..f59 (38): 28 keep their identity (measured); the rest are rebuilt with the chain
    // nodes around the edit's reach.
    EXPECT_GE(ReusedAfterEdit(doc, ByteEdit{at, end, typed}, 22, 60), 28);
  }
}

// Typing after the last `return` of a class: the parser lexes to the end of the class, where the
// old tree has zero-width NEWLINE and DEDENT tokens. Chain boundaries sit at the start of the
// next statement (grammar/README.md), so reuse resumes at the next one. With them at the line end
// the reuse cursor passed the old layout tokens before the parser lexed its own, the scanner
// states differed at every later statement, and nothing after the edit was reused (measured: 0
// of 178 classes for the new line, `gv = R` and `x = (`; 163 with the boundaries where they are).
TEST(Document, TypingAtTheEndOfAClassReusesTheClassesAfterIt) {
  Document doc(Modules(200));
  auto at = static_cast<uint32_t>(doc.Text().find("return gv", doc.Text().find("class M20:")) + 9);
  for (std::string typed : {"\n", "\n        gv = R", "\n        x = ("}) {
    for (ByteEdit edit : {ByteEdit{at, at, typed}, ByteEdit{at, at + static_cast<uint32_t>(typed.size()), ""}}) {
      SCOPED_TRACE((edit.new_text.empty() ? "undo of " : "") + typed);
      EXPECT_GE(ReusedAfterEdit(doc, edit, 22, 200), 150) << "of 178";
    }
  }
}

// A quote or a comment typed into `with R.dataflow():` breaks the `with`; error recovery then
// closes the function's blocks without their DEDENTs, and the scanner's indentation stack kept
// the stale levels at the next class: its state differed from the old tree's at every later
// token, and nothing after the edit was reused (measured: 0 of 178 for `"`; the file also fell
// apart into 379 statements). The scanner now drops levels the parser does not expect to close
// at a statement start.
TEST(Document, ABrokenWithStatementReusesTheClassesAfterIt) {
  Document doc(Modules(200));
  auto at = static_cast<uint32_t>(doc.Text().find("with R.", doc.Text().find("class M20:")) + 7);
  for (std::string typed : {"\"", "#"}) {
    for (ByteEdit edit : {ByteEdit{at, at, typed}, ByteEdit{at, at + 1, ""}}) {
      SCOPED_TRACE((edit.new_text.empty() ? "undo of " : "") + typed);
      EXPECT_GE(ReusedAfterEdit(doc, edit, 22, 200), 150) << "of 178";
    }
  }
}

// A quote typed into a line opens a string that the line end leaves unclosed. The scanner drops
// its delimiter at the line end, so the scanner's state after that line is what it was before and
// tree-sitter reuses the functions after it (with the delimiter kept, the state differed at every
// later token and nothing after the edit was reused: the rest of a 100k-line file re-parsed, 1.3
// s). Undoing it reuses them too.
TEST(Document, AnUnclosedQuoteReusesTheStatementsAfterIt) {
  std::string text;
  for (int k = 0; k < 60; ++k) {
    text += "@R.function\ndef f" + std::to_string(k) + "(x):\n    y = R.add(x, x)\n    return y\n\n\n";
  }
  Document doc(text);
  uint32_t at = static_cast<uint32_t>(doc.Text().find("R.add(x, x)", doc.Text().find("def f20(")) + 9);
  for (ByteEdit edit : {ByteEdit{at, at, "\""}, ByteEdit{at, at + 1, ""}}) {
    SCOPED_TRACE(edit.new_text.empty() ? "undo" : "quote");
    EXPECT_GE(ReusedAfterEdit(doc, edit, 22, 60), 28) << "of 38";
  }
}

TEST(Document, RandomEditsOnExamplesEqualFromScratch) {
  auto files = testing::ExampleFiles();
  ASSERT_FALSE(files.empty());
  uint32_t seed = 1;
  for (const std::string& path : files) CheckRandomEdits(path, ReadFileOrDie(path), seed++, 250);
}

// Applies `edit` to `doc` and compares the result with a fresh parse.
void ApplyAndCompare(Document& doc, const ByteEdit& edit, const std::string& where) {
  std::string expected = doc.Text();
  expected.replace(edit.begin, edit.end - edit.begin, edit.new_text);
  EditResult r = doc.ApplyEdits(std::vector<ByteEdit>{edit});
  ASSERT_TRUE(r.ok) << where << ": " << r.error;
  ASSERT_EQ(doc.Text(), expected) << where;
  ExpectSameAsFreshParse(doc, where + " edit [" + std::to_string(edit.begin) + "," +
                                  std::to_string(edit.end) + ") <- '" + edit.new_text + "'");
}

// Edit/undo cycles: one to three random edits, then their inverses in reverse order, so that the
// text keeps coming back to `text` and about half of the steps have an error-free tree to compare
// (a random walk breaks the text for good after a few steps). Tree-sitter restores the external
// scanner from the serialized state of the last external token before every scan, in a fresh
// parse as in a reparse, so a difference here means that the scanner's output depends on
// something else: state kept in the scanner object from an earlier call, or input it reads that
// tree-sitter does not see as lookahead (column, end of input).
void CheckEditUndoCycles(const std::string& name, const std::string& text, uint32_t seed,
                         int cycles) {
  std::mt19937 rng(seed);
  Document doc(text);
  for (int cycle = 0; cycle < cycles; ++cycle) {
    std::vector<ByteEdit> undo;
    int edits = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < edits; ++i) {
      ByteEdit edit = RandomEdit(doc.Text(), rng);
      undo.push_back({edit.begin, edit.begin + static_cast<uint32_t>(edit.new_text.size()),
                      doc.Text().substr(edit.begin, edit.end - edit.begin)});
      ApplyAndCompare(doc, edit, name + " cycle " + std::to_string(cycle) + " edit " +
                                     std::to_string(i));
      if (::testing::Test::HasFatalFailure()) return;
    }
    for (int i = edits - 1; i >= 0; --i) {
      ApplyAndCompare(doc, undo[static_cast<size_t>(i)],
                      name + " cycle " + std::to_string(cycle) + " undo " + std::to_string(i));
      if (::testing::Test::HasFatalFailure()) return;
    }
    ASSERT_EQ(doc.Text(), text) << name << " cycle " << cycle;
  }
}

std::vector<std::string> ExamplesAndFixtures() {
  std::vector<std::string> files = testing::ExampleFiles();
  for (const std::string& path : ListFilesRecursive("tests/fixtures", ".py")) files.push_back(path);
  return files;
}

TEST(Document, EditUndoCyclesOnExamplesAndFixturesEqualFromScratch) {
  auto files = ExamplesAndFixtures();
  ASSERT_GT(files.size(), 20u);
  uint32_t seed = 1000;
  for (const std::string& path : files) {
    CheckEditUndoCycles(path, ReadFileOrDie(path), seed++, 6);
    if (HasFatalFailure()) return;
  }
}

// Minimal texts where tree-sitter 0.20.7's reparse differs from a fresh parse, one per runtime
// mechanism (grammar/README.md). Both trees have syntax errors in each case. The first is the
// failure seen at step 94 of RandomEditsOnExamplesEqualFromScratch when examples/seed_c was
// replaced by its annotated copy (tests/fixtures/seeds/example_seed_c_call_tir_shape.py without
// its first line): `else:` typed into already broken text, minimised.
//
// Document deliberately does not compensate: that would mean a fresh parse after every edit that
// leaves a syntax error (about 1 s at 100k lines). Both trees are valid readings of broken text;
// the analysis reports what the tree it has says. This test pins the runtime's behaviour: when it
// fails, the runtime has changed and kCompareTreesWithErrors can become true.
TEST(Document, KnownRuntimeDivergencesOnBrokenText) {
  struct Case {
    const char* text;
    ByteEdit edit;
    const char* mechanism;
  };
  const Case cases[] = {
      {"(r[r4[,]\n", {9, 9, "["}, "reused subtree holds a MISSING token"},
      {" in'\ns =()\nreturn", {0, 0, "x"}, "node reused while two stack versions are alive"},
      // Was `r(, "f32"){[s/p/\nclass\n(`, which stopped diverging when the scanner began to
      // close an open bracket before a statement line even where the parser cannot take the closer
      // (scanner.c end_open_brackets); this one was found by a random search of short texts with
      // the same characters. Its mechanism was not traced again.
      {"{\"\nclass\n{l)f,s/p[", {1, 1, ""}, "reused node broken down during recovery"},
      {"if x:\n    pass\n  # odd comment\nelse:\n    pass\n", {0, 5, "with R.dataflow():\n"},
       "reused subtree starts with a keyword that a fresh parse turns into a name"},
  };
  for (const Case& c : cases) {
    Document doc(c.text);
    ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{c.edit}).ok);
    Document fresh(doc.Text());
    EXPECT_TRUE(HasError(doc) && HasError(fresh)) << c.mechanism;
    EXPECT_NE(Sexp(doc), Sexp(fresh)) << c.mechanism << ": the runtime no longer diverges here";
  }
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
