// Navigation queries on small inline sources: folding ranges and selection ranges as tables
// (source -> expected folds / selections), broken code that must not crash them, the outline's
// dataflow blocks, and rename / highlight / annotate details the fixture markers do not state
// (exact edit texts, write flags, refusals). The fixture markers in tests/fixtures/queries/ cover
// the rest of rename, highlight and annotate.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "analysis.h"
#include "model/model.h"
#include "query/navigation.h"
#include "query/queries.h"
#include "support/files.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

std::string Slice(const std::string& text, TextRange r) { return text.substr(r.begin, r.size()); }

// ---------------------------------------------------------------------------------------------
// Folding ranges

// A fold as lines: "K a-b" with K = r (region), c (comment), i (imports), a and b 0-based lines.
std::string Describe(const Document& doc, const FoldingRange& f) {
  const char* kind = f.kind == FoldingRange::Kind::kRegion    ? "r"
                     : f.kind == FoldingRange::Kind::kComment ? "c"
                                                              : "i";
  return std::string(kind) + " " + std::to_string(doc.Lines().LineOf(f.range.begin)) + "-" +
         std::to_string(doc.Lines().LineOf(f.range.end));
}

std::vector<std::string> Folds(const std::string& text) {
  Document doc(text);
  std::vector<std::string> out;
  for (const FoldingRange& f : FoldingRanges(doc)) out.push_back(Describe(doc, f));
  return out;
}

struct FoldCase {
  const char* name;
  const char* source;
  std::vector<std::string> folds;
};

const FoldCase kFoldCases[] = {
    {"one-line constructs do not fold", "def f(): return 1\nx = [1, 2]\nif x: y = 1\n", {}},
    {"a def folds from its header to the end of its body",
     "def f(x):\n    y = x\n    return y\n\nz = 1\n", {"r 0-2"}},
    {"a decorated def folds from the def line, not the decorator",
     "@dec\ndef f(x):\n    return x\n", {"r 1-2"}},
    {"if, elif and else fold separately: each ends with its own body",
     "if a:\n    x = 1\n    y = 2\nelif b:\n    x = 3\n    y = 4\nelse:\n    x = 5\n    y = 6\n",
     {"r 0-2", "r 3-5", "r 6-8"}},
    {"with, for and while bodies",
     "with a:\n    b\nfor i in c:\n    d\nwhile e:\n    f\n", {"r 0-1", "r 2-3", "r 4-5"}},
    {"a class and its methods", "class A:\n    def f(self):\n        return 1\n\n    x = 2\n",
     {"r 0-4", "r 1-2"}},
    {"a multi-line call folds at its argument list; the list inside it starts on the same line",
     "x = f(a, [\n    1,\n    2])\n", {"r 0-2"}},
    {"multi-line lists, tuples and dicts", "a = [\n  1,\n]\nb = (\n  1,\n)\nc = {\n  1: 2,\n}\n",
     {"r 0-2", "r 3-5", "r 6-8"}},
    {"a multi-line parameter list folds with its def", "def f(\n    a,\n    b,\n):\n    return a\n",
     {"r 0-4"}},
    {"runs of two or more comment lines", "# a\n# b\n# c\nx = 1\n# alone\ny = 2  # trailing\n# d\n# e\n",
     {"c 0-2", "c 6-7"}},
    {"comments after code on their line do not start a run", "x = 1  # a\n# b\ny = 2\n", {}},
    {"indented comment runs inside a body", "def f():\n    # a\n    # b\n    return 1\n",
     {"r 0-3", "c 1-2"}},
    {"import runs, blank lines and comments between imports allowed",
     "import a\nfrom b import c\n\n# note\nimport d\nx = 1\nimport e\n", {"i 0-4"}},
    {"a single multi-line import folds as imports", "from a import (\n    b,\n    c,\n)\n", {"i 0-3"}},
    {"TVMScript: module, functions, dataflow block, call_tir arguments",
     "@I.ir_module\n"
     "class Mod:\n"
     "    @R.function\n"
     "    def main(x: R.Tensor((4,), \"float32\")):\n"
     "        with R.dataflow():\n"
     "            gv = R.call_tir(\n"
     "                cls.f, (x,), out_sinfo=R.Tensor((4,), \"float32\")\n"
     "            )\n"
     "            R.output(gv)\n"
     "        return gv\n",
     {"r 1-9", "r 3-9", "r 4-8", "r 5-7"}},
};

TEST(FoldingRanges, Table) {
  for (const FoldCase& c : kFoldCases) {
    EXPECT_EQ(Folds(c.source), c.folds) << c.name << "\n" << c.source;
  }
}

TEST(FoldingRanges, EndAtTheLastCharacterOfTheConstruct) {
  std::string text = "def f(x):\n    y = x\n    return y   \n\nz = 1\n";
  Document doc(text);
  std::vector<FoldingRange> folds = FoldingRanges(doc);
  ASSERT_EQ(folds.size(), 1u);
  EXPECT_EQ(folds[0].range.begin, 0u);
  EXPECT_EQ(Slice(text, folds[0].range), "def f(x):\n    y = x\n    return y");
}

// ---------------------------------------------------------------------------------------------
// Selection ranges

struct SelectionCase {
  const char* source;  // `|` marks the cursor (removed before parsing)
  std::vector<std::string> selections;  // innermost first; the last one is the whole text
};

const SelectionCase kSelectionCases[] = {
    {"y = f(a, b=c|)\n", {"c", "b=c", "(a, b=c)", "f(a, b=c)", "y = f(a, b=c)", "y = f(a, b=c)\n"}},
    {"y = f(|a, b)\n", {"a", "(a, b)", "f(a, b)", "y = f(a, b)", "y = f(a, b)\n"}},
    // Right after a name: the name.
    {"y = f(ab|, b)\n", {"ab", "(ab, b)", "f(ab, b)", "y = f(ab, b)", "y = f(ab, b)\n"}},
    {"def g():\n    return x|\n",
     {"x", "return x", "def g():\n    return x", "def g():\n    return x\n"}},
    {"class A:\n    def g(self):\n        pa|ss\n",
     {"pass", "def g(self):\n        pass", "class A:\n    def g(self):\n        pass",
      "class A:\n    def g(self):\n        pass\n"}},
};

std::vector<std::string> Selections(const std::string& marked) {
  size_t bar = marked.find('|');
  std::string text = marked.substr(0, bar) + marked.substr(bar + 1);
  Document doc(text);
  std::vector<std::string> out;
  for (TextRange r : SelectionRangesAt(doc, static_cast<uint32_t>(bar))) out.push_back(Slice(text, r));
  return out;
}

TEST(SelectionRanges, Table) {
  for (const SelectionCase& c : kSelectionCases) {
    EXPECT_EQ(Selections(c.source), c.selections) << c.source;
  }
}

// Every offset of a real file: innermost first, each strictly inside the next, the last the
// whole text, the first touching the offset.
void ExpectNestedSelections(const std::string& text) {
  Document doc(text);
  for (uint32_t offset = 0; offset <= text.size(); offset += (offset < 4000 ? 1 : 97)) {
    std::vector<TextRange> ranges = SelectionRangesAt(doc, offset);
    ASSERT_FALSE(ranges.empty() && !text.empty()) << offset;
    if (ranges.empty()) continue;
    EXPECT_TRUE(ranges[0].begin <= offset && offset <= ranges[0].end) << offset;
    for (size_t i = 1; i < ranges.size(); ++i) {
      EXPECT_TRUE(ranges[i].begin <= ranges[i - 1].begin && ranges[i - 1].end <= ranges[i].end &&
                  ranges[i].size() > ranges[i - 1].size())
          << "offset " << offset << ", range " << i;
    }
    EXPECT_EQ(ranges.back(), (TextRange{0, static_cast<uint32_t>(text.size())})) << offset;
  }
}

TEST(SelectionRanges, NestStrictlyEverywhereInAnExample) {
  ExpectNestedSelections(testing::ReadFileOrDie(testing::SourcePath("examples/transformer_block.py")));
}

// ---------------------------------------------------------------------------------------------
// Broken code

void ExpectSaneFolds(const std::string& text) {
  Document doc(text);
  std::vector<FoldingRange> folds = FoldingRanges(doc);
  for (size_t i = 0; i < folds.size(); ++i) {
    const TextRange& r = folds[i].range;
    ASSERT_TRUE(r.begin <= r.end && r.end <= text.size()) << r.begin << "-" << r.end;
    EXPECT_LT(doc.Lines().LineOf(r.begin), doc.Lines().LineOf(r.end)) << r.begin << "-" << r.end;
    if (i > 0) {
      EXPECT_LE(folds[i - 1].range.begin, r.begin);
    }
  }
}

const char* const kBroken[] = {
    "x = f(a,\n    b\ny = 2\n",                                    // unclosed call
    "def f(x:\n    return [1,\n",                                  // unclosed parameters and list
    "def f():\n    x = 1\n        y = 2\n  z = 3\n",               // stray indentation
    "class A:\ndef f():\n  pass\n",                                // missing body
    "if x:\n    a\nelse\n    b\nelif:\n",                          // misplaced clauses
    ")))\n]]]\n(((\n# c\n# d\n",                                   // unmatched brackets
    ("@I.ir_module\nclass M:\n    @R.function\n    def main(x: R.Tensor((4,), \"float32\"):\n"
     "        with R.dataflow():\n            lv = R.add(x,\n        return lv\n"),  // half-typed
    "\"\"\"unterminated\n\nx = 1\n",                               // unterminated string
    "",
    "\n\n\n",
};

TEST(BrokenCode, FoldingAndSelectionDoNotCrash) {
  for (const char* source : kBroken) {
    std::string text = source;
    ExpectSaneFolds(text);
    ExpectNestedSelections(text);
  }
}

TEST(BrokenCode, EveryPrefixOfAnExample) {
  // Cutting a file anywhere leaves unclosed brackets, strings and blocks.
  std::string text = testing::ReadFileOrDie(testing::SourcePath("examples/seed_c_call_tir_shape.py"));
  for (size_t cut = 0; cut <= text.size(); cut += 37) {
    std::string prefix = text.substr(0, cut);
    ExpectSaneFolds(prefix);
    Document doc(prefix);
    for (uint32_t offset : {0u, static_cast<uint32_t>(cut / 2), static_cast<uint32_t>(cut)}) {
      std::vector<TextRange> ranges = SelectionRangesAt(doc, offset);
      for (size_t i = 1; i < ranges.size(); ++i) EXPECT_GT(ranges[i].size(), ranges[i - 1].size());
    }
  }
}

TEST(BrokenCode, SemanticQueriesOnBrokenFunctions) {
  std::string text =
      "from tvm.script import relax as R\n"
      "@R.function\n"
      "def main(x: R.Tensor((4,), \"float32\")):\n"
      "    lv = R.add(x,\n"
      "    return lv\n";
  Document doc(text);
  Analyzer analyzer;
  analyzer.Run(doc);
  const FileModel& model = *analyzer.Model();
  for (uint32_t offset = 0; offset <= text.size(); ++offset) {
    (void)HighlightsAt(model, offset);
    (void)AnnotateAt(model, offset);
    PrepareRenameResult p = PrepareRenameAt(doc, model, offset);
    RenameResult r = RenameAt(doc, model, offset, "renamed");
    EXPECT_FALSE(r.ok() && !r.edits.empty()) << "renamed inside a function with a syntax error at " << offset;
    (void)p;
  }
}

// ---------------------------------------------------------------------------------------------
// Semantic queries on one module

constexpr const char* kModule = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Mod:
    @R.function
    def main(x: R.Tensor(("n", 4), "float32")) -> R.Tensor(("n * 2", 4), "float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 4), "float32") = R.add(x, x)
            gv = R.concat((lv, x), axis=0)
            R.output(gv)
        a, b = (gv, x)
        return a

    @R.function
    def helper(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Mod
        with R.dataflow():
            z = R.multiply(y, y)
            R.output(z)
        with R.dataflow():
            w = R.add(z, y)
            R.output(w)
        return w

    @T.prim_func
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            B[i] = A[i]
)";

struct Analysed {
  std::string text;
  Document doc;
  Analyzer analyzer;
  explicit Analysed(const std::string& t) : text(t), doc(t) { analyzer.Run(doc); }
  const FileModel& model() const { return *analyzer.Model(); }
  uint32_t At(const std::string& needle, size_t occurrence = 0) const {
    size_t pos = std::string::npos;
    for (size_t k = 0; k <= occurrence; ++k) pos = text.find(needle, pos == std::string::npos ? 0 : pos + 1);
    EXPECT_NE(pos, std::string::npos) << needle;
    return static_cast<uint32_t>(pos);
  }
};

TEST(Outline, RelaxFunctionsListTheirDataflowBlocks) {
  Analysed a(kModule);
  std::vector<OutlineItem> outline = Outline(a.model());
  ASSERT_EQ(outline.size(), 1u);
  ASSERT_EQ(outline[0].children.size(), 3u);
  const OutlineItem& main = outline[0].children[0];
  const OutlineItem& helper = outline[0].children[1];
  const OutlineItem& copy = outline[0].children[2];
  ASSERT_EQ(main.children.size(), 1u);
  ASSERT_EQ(helper.children.size(), 2u);
  EXPECT_TRUE(copy.children.empty());
  for (const OutlineItem* block : {&main.children[0], &helper.children[0], &helper.children[1]}) {
    EXPECT_EQ(block->kind, OutlineItem::Kind::kDataflowBlock);
    EXPECT_EQ(block->name, "R.dataflow");
    EXPECT_EQ(block->detail, "");
    EXPECT_EQ(Slice(a.text, block->selection), "with R.dataflow():");
    EXPECT_TRUE(block->children.empty());
  }
  std::string body = Slice(a.text, helper.children[1].range);
  EXPECT_EQ(body, "with R.dataflow():\n            w = R.add(z, y)\n            R.output(w)");
  EXPECT_EQ(helper.children[0].range.begin, a.At("with R.dataflow():", 1));
}

TEST(Highlights, DefinitionsAreWritesAndSymbolicVariablesAreExactInStrings) {
  Analysed a(kModule);
  std::vector<Highlight> h = HighlightsAt(a.model(), a.At("n = T.int64()"));
  std::vector<std::string> got;
  for (const Highlight& x : h) got.push_back(Slice(a.text, x.range) + (x.write ? "!" : ""));
  // "n" in the parameter (the definition), "n * 2" in the return type, `n = T.int64()`, the
  // annotation of lv.
  EXPECT_EQ(got, (std::vector<std::string>{"n!", "n", "n", "n"}));
  ASSERT_EQ(h.size(), 4u);
  EXPECT_EQ(h[0].range.begin, a.At("\"n\"") + 1);
  EXPECT_EQ(h[1].range.begin, a.At("\"n * 2\"") + 1);
  // A function: its name (a write) and every cls.f (none here).
  h = HighlightsAt(a.model(), a.At("helper"));
  ASSERT_EQ(h.size(), 1u);
  EXPECT_TRUE(h[0].write);
  // Nothing on an op, an alias or a keyword.
  EXPECT_TRUE(HighlightsAt(a.model(), a.At("R.add") + 2).empty());
  EXPECT_TRUE(HighlightsAt(a.model(), a.At("R.add")).empty());
  EXPECT_TRUE(HighlightsAt(a.model(), a.At("return a")).empty());
  // A buffer.
  h = HighlightsAt(a.model(), a.At("A[i]"));
  ASSERT_EQ(h.size(), 2u);
  EXPECT_TRUE(h[0].write);
  EXPECT_FALSE(h[1].write);
}

std::string Apply(const std::string& text, const std::vector<TextEdit>& edits) {
  std::string out = text;
  EXPECT_TRUE(ApplyFix(Fix{"", false, edits}, &out));
  return out;
}

TEST(Rename, SymbolicVariableEditsOnlyTheNameInsideStrings) {
  Analysed a(kModule);
  RenameResult r = RenameAt(a.doc, a.model(), a.At("\"n\"") + 1, "batch");
  ASSERT_TRUE(r.ok()) << r.error;
  std::string renamed = Apply(a.text, r.edits);
  EXPECT_NE(renamed.find("def main(x: R.Tensor((\"batch\", 4), \"float32\")) -> R.Tensor((\"batch * 2\", 4), \"float32\"):\n"
                         "        batch = T.int64()"),
            std::string::npos)
      << renamed;
  EXPECT_NE(renamed.find("lv: R.Tensor((batch, 4), \"float32\")"), std::string::npos) << renamed;
  EXPECT_EQ(AnalyzeText(renamed).size(), AnalyzeText(a.text).size());
}

TEST(Rename, AFunctionAtItsDefAndEveryClsReference) {
  std::string text = kModule;
  text.replace(text.find("        return w\n"), 0, "        v = cls.helper(w)\n        u = Mod.helper(v)\n");
  Analysed a(text);
  RenameResult r = RenameAt(a.doc, a.model(), a.At("cls.helper") + 4, "helper2");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.edits.size(), 3u);
  std::string renamed = Apply(a.text, r.edits);
  EXPECT_NE(renamed.find("def helper2(y"), std::string::npos);
  EXPECT_NE(renamed.find("cls.helper2(w)"), std::string::npos);
  EXPECT_NE(renamed.find("Mod.helper2(v)"), std::string::npos);
  // On `cls` itself: a Python name, not the function.
  PrepareRenameResult p = PrepareRenameAt(a.doc, a.model(), a.At("cls.helper"));
  EXPECT_FALSE(p.ok());
}

TEST(Rename, Refusals) {
  Analysed a(kModule);
  struct Case {
    uint32_t offset;
    const char* new_name;
    const char* reason;
  };
  const Case cases[] = {
      {a.At("lv:"), "gv", "`gv` is already a Relax variable in function `main`"},
      {a.At("lv:"), "n", "`n` is already a symbolic variable in function `main`"},
      {a.At("lv:"), "cls", ""},  // allowed: `cls` is used in another function only
      {a.At("lv:"), "T", "`T` is this file's alias of tvm.script.tir"},
      {a.At("lv:"), "while", "`while` is a Python keyword"},
      {a.At("lv:"), "a-b", "not a Python identifier"},
      {a.At("lv:"), "", "not a Python identifier"},
      {a.At("z = R"), "cls", "`cls` is already used in function `helper`"},
      {a.At("helper"), "copy", "module `Mod` already has a function `copy`"},
      {a.At("A[i]"), "i", "`i` is already used in function `copy`"},
      {a.At("A[i]"), "B", "`B` is already a buffer in function `copy`"},
  };
  for (const Case& c : cases) {
    RenameResult r = RenameAt(a.doc, a.model(), c.offset, c.new_name);
    if (*c.reason == '\0') {
      EXPECT_TRUE(r.ok()) << c.new_name << ": " << r.error;
    } else {
      EXPECT_NE(r.error.find(c.reason), std::string::npos) << c.new_name << ": `" << r.error << "`";
      EXPECT_TRUE(r.edits.empty());
    }
  }
  // Renaming to the same name changes nothing.
  RenameResult same = RenameAt(a.doc, a.model(), a.At("lv:"), "lv");
  EXPECT_TRUE(same.ok());
  EXPECT_TRUE(same.edits.empty());
}

TEST(Rename, PrepareRefusesWhatIsNotAName) {
  Analysed a(kModule);
  struct Case {
    uint32_t offset;
    const char* reason;
  };
  const Case cases[] = {
      {a.At("R.add") + 3, "`R.add` is a TVMScript operator or builtin"},
      {a.At("R.add"), "`R` is this file's alias of tvm.script.relax"},
      {a.At("return a"), "`return` is a Python keyword"},
      {a.At("axis=0"), "`axis` is the name of a keyword argument"},
      {a.At("cls = Mod"), "`cls` is a Python name"},
      {a.At("range(4)"), "`range` is a Python name"},
      {a.At("for i") + 4, "`i` is a Python name"},
      {a.At("\"float32\")) ->") + 2, "nothing to rename in this string"},
      {a.At("class Mod") + 6, "`Mod` is a Python name"},
      {a.At("(4,)") + 1, "nothing to rename here"},
      {static_cast<uint32_t>(a.text.size()), "nothing to rename here"},
  };
  for (const Case& c : cases) {
    PrepareRenameResult p = PrepareRenameAt(a.doc, a.model(), c.offset);
    EXPECT_FALSE(p.ok()) << c.reason;
    EXPECT_NE(p.error.find(c.reason), std::string::npos) << "`" << p.error << "` lacks `" << c.reason << "`";
  }
  // Right after a name counts as on it.
  PrepareRenameResult p = PrepareRenameAt(a.doc, a.model(), a.At("lv:") + 2);
  ASSERT_TRUE(p.ok()) << p.error;
  EXPECT_EQ(p.placeholder, "lv");
  EXPECT_EQ(Slice(a.text, p.range), "lv");
}

TEST(Rename, StandaloneFunctionsAndUntrackedUsesAreRefused) {
  std::string text =
      "from tvm.script import relax as R\n"
      "@R.function\n"
      "def main(x: R.Tensor((4,), \"float32\")):\n"
      "    @R.function\n"
      "    def inner(y: R.Tensor((4,), \"float32\")):\n"
      "        return R.add(x, y)\n"
      "    return x\n";
  Analysed a(text);
  PrepareRenameResult p = PrepareRenameAt(a.doc, a.model(), a.At("main"));
  EXPECT_NE(p.error.find("not in an `@I.ir_module` class"), std::string::npos) << p.error;
  // `x` is used inside the nested function, which the model does not analyse.
  RenameResult r = RenameAt(a.doc, a.model(), a.At("x:"), "x2");
  EXPECT_NE(r.error.find("`x` is also used where tvmls does not follow it (line 6"), std::string::npos) << r.error;
}

TEST(Rename, AStaleModelIsRefused) {
  Analysed a(kModule);
  // The document moves on; the model is the old one.
  ASSERT_TRUE(a.doc.ApplyEdits(std::vector<ByteEdit>{{0, 0, "# a new first line\n"}}).ok);
  RenameResult r = RenameAt(a.doc, a.model(), a.At("lv:"), "lv2");
  EXPECT_FALSE(r.ok());
}

TEST(Annotate, InsertsTheHintAfterTheName) {
  Analysed a(kModule);
  std::optional<Fix> fix = AnnotateAt(a.model(), a.At("gv = R.concat") + 2);  // right after `gv`
  ASSERT_TRUE(fix.has_value());
  EXPECT_EQ(fix->title, "Annotate `gv` with its inferred struct info");
  ASSERT_EQ(fix->edits.size(), 1u);
  EXPECT_EQ(fix->edits[0].range, (TextRange{a.At("gv = R.concat") + 2, a.At("gv = R.concat") + 2}));
  EXPECT_EQ(fix->edits[0].new_text, ": R.Tensor((n * 2, 4), dtype=\"float32\")");
  // Not for annotated targets, unpacking targets, parameters, uses.
  EXPECT_FALSE(AnnotateAt(a.model(), a.At("lv:")).has_value());
  EXPECT_FALSE(AnnotateAt(a.model(), a.At("a, b =")).has_value());
  EXPECT_FALSE(AnnotateAt(a.model(), a.At("b =")).has_value());
  EXPECT_FALSE(AnnotateAt(a.model(), a.At("x: R")).has_value());
  EXPECT_FALSE(AnnotateAt(a.model(), a.At("gv)")).has_value());
  // The model marks the unpacking targets' hints as not insertable.
  const FunctionModel& main = *a.model().modules[0].functions[0].fn;
  int insertable = 0, not_insertable = 0;
  for (const InlayHint& h : main.inlays) (h.insertable ? insertable : not_insertable)++;
  EXPECT_EQ(not_insertable, 2);
  EXPECT_GE(insertable, 1);
}

}  // namespace
}  // namespace tvmls::analysis
