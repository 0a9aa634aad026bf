// PreviewFirstStatements: its diagnostics are exactly the whole analysis's before its end, on
// every example and fixture cut at several places (and on a folder of real code named by
// $TVMLS_PREVIEW_CORPUS, e.g. apache/tvm's tests/python); and each thing in the rest of a file
// that changes a first statement's diagnostics stops the preview before that statement or
// turns it down. The binding and `raises` cases also check that the whole analysis does differ
// there, so that a preview ignoring the rest would fail them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "analysis.h"
#include "preview.h"
#include "support/files.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

// The whole analysis's diagnostics that begin before `end`.
std::vector<Diagnostic> WholeBefore(const std::string& text, const AnalysisOptions& options, uint32_t end) {
  std::vector<Diagnostic> out;
  for (const Diagnostic& d : AnalyzeText(text, options)) {
    if (d.range.begin < end) out.push_back(d);
  }
  return out;
}

std::string Describe(const Diagnostic& d) {
  std::string s = std::to_string(d.range.begin) + "-" + std::to_string(d.range.end) + " " + d.code + " (" +
                  std::to_string(static_cast<int>(d.severity)) + ", " + std::to_string(d.related.size()) +
                  " related): " + d.message;
  return s;
}

void ExpectSame(const std::vector<Diagnostic>& want, const std::vector<Diagnostic>& got, const std::string& where) {
  std::string w, g;
  for (const Diagnostic& d : want) w += Describe(d) + "\n";
  for (const Diagnostic& d : got) g += Describe(d) + "\n";
  EXPECT_EQ(w, g) << where;
}

// Previews `path` at up to `max_cuts` of the places IsPreviewCut allows (spread over the file),
// and cut by PreviewFirstStatements at several sizes, with and without expected failures; returns
// how many previews there were (in-class ones counted in `*in_class`).
int CheckFile(const std::string& path, size_t max_cuts, int* in_class) {
  std::string text = testing::ReadFileOrDie(path);
  std::vector<uint32_t> cuts;
  for (uint32_t at = 1; at < text.size(); ++at) {
    if (text[at - 1] == '\n' && IsPreviewCut(text, at)) cuts.push_back(at);
  }
  if (cuts.size() > max_cuts) {
    std::vector<uint32_t> spread;
    for (size_t i = 0; i < max_cuts; ++i) spread.push_back(cuts[i * cuts.size() / max_cuts]);
    cuts = spread;
  }
  int previews = 0;
  for (bool expected_failures : {true, false}) {
    AnalysisOptions options;
    options.expected_failures = expected_failures;
    std::vector<Diagnostic> whole = AnalyzeText(text, options);
    auto check = [&](const std::optional<Preview>& p, const std::string& where) {
      if (!p) return;
      ++previews;
      EXPECT_GT(p->end, 0u);
      EXPECT_LE(p->end, p->prefix->Text().size());
      std::vector<Diagnostic> want;
      for (const Diagnostic& d : whole) {
        if (d.range.begin < p->end) want.push_back(d);
      }
      ExpectSame(want, p->diagnostics, path + where + (expected_failures ? "" : " without expected failures"));
    };
    for (uint32_t at : cuts) {
      std::optional<Preview> p = PreviewAt(text, options, at);
      if (p && (text[at] == ' ' || text[at] == '\t')) ++*in_class;
      check(p, " cut at byte " + std::to_string(at));
    }
    for (uint32_t bytes : {1u, 200u, 1000u, 4000u, 16000u}) {
      check(PreviewFirstStatements(text, options, bytes), " cut after " + std::to_string(bytes) + " bytes");
    }
  }
  return previews;
}

TEST(Preview, EqualsTheWholeAnalysisOnTheExamplesAndFixtures) {
  std::vector<std::string> files = testing::ExampleFiles();
  for (const std::string& f : testing::ListFilesRecursive("tests/fixtures", ".py")) files.push_back(f);
  int previews = 0, in_class = 0;
  for (const std::string& f : files) previews += CheckFile(f, 16, &in_class);
  EXPECT_GT(previews, 500);
  EXPECT_GT(in_class, 50);
}

TEST(Preview, EqualsTheWholeAnalysisOnACorpus) {
  const char* dir = std::getenv("TVMLS_PREVIEW_CORPUS");
  if (dir == nullptr) GTEST_SKIP() << "set TVMLS_PREVIEW_CORPUS to a folder of Python files";
  int previews = 0, in_class = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".py") previews += CheckFile(entry.path().string(), 24, &in_class);
  }
  EXPECT_GT(previews, 0);
  std::printf("%d previews, %d cut inside a class\n", previews, in_class);
}

// A file of statements separated by blank lines: the imports, `before`, then `rest`. With nine
// statements before, a cut with prefix_bytes 1 falls before the ninth (the imports' line and
// eight more are the nine lines it wants before it), so `rest` starts after the cut.
const char* const kImports =
    "from tvm.script import ir as I\nfrom tvm.script import relax as R\nfrom tvm.script import tir as T\n";

std::string Filler(int i) {
  std::string n = std::to_string(i);
  return "@T.prim_func\ndef f" + n + "(A: T.Buffer((4,), \"float32\")):\n    A[0] = T.float32(" + n + ")\n";
}

// A PrimFunc that looks up `K`: an undefined name unless the file binds it.
const char* const kUsesK = "@T.prim_func\ndef uses_k(A: T.Buffer((4,), \"float32\")):\n    A[0] = K\n";

std::string File(const std::vector<std::string>& before, const std::string& rest) {
  std::string text = kImports;
  for (const std::string& s : before) text += "\n\n" + s;
  return text + "\n\n" + rest;
}

std::vector<std::string> NineWith(const std::string& at_four) {
  std::vector<std::string> out;
  for (int i = 0; i < 9; ++i) out.push_back(i == 4 ? at_four : Filler(i));
  return out;
}

bool HasCode(const std::vector<Diagnostic>& ds, const std::string& code) {
  for (const Diagnostic& d : ds) {
    if (d.code == code) return true;
  }
  return false;
}

TEST(Preview, CoversAnUndefinedNameTheRestDoesNotBind) {
  std::string text = File(NineWith(kUsesK), Filler(9) + "\n\nx = K\n\ndef g():\n    K = 1\n");
  std::optional<Preview> p = PreviewFirstStatements(text, {}, 1);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->end, text.find("@T.prim_func\ndef f8"));
  EXPECT_TRUE(HasCode(p->diagnostics, "undefined-name"));
  ExpectSame(WholeBefore(text, {}, p->end), p->diagnostics, "rest binds no K");
}

TEST(Preview, StopsBeforeAStatementLookingUpANameTheRestBinds) {
  for (const char* binding : {"K = 1.0\n", "if True:\n    K = 1.0\n", "def h():\n    global K\n",
                              "for K in range(3):\n    pass\n", "import numpy as K\n"}) {
    std::string text = File(NineWith(kUsesK), Filler(9) + "\n\n" + binding);
    std::optional<Preview> p = PreviewFirstStatements(text, {}, 1);
    ASSERT_TRUE(p) << binding;
    EXPECT_EQ(p->end, text.find(kUsesK)) << binding;
    ExpectSame(WholeBefore(text, {}, p->end), p->diagnostics, binding);
    // The statement left out does change: the whole file binds K.
    EXPECT_FALSE(HasCode(WholeBefore(text, {}, text.find("@T.prim_func\ndef f5")), "undefined-name")) << binding;
  }
}

TEST(Preview, StopsBeforeAUnitATestInTheRestExpectsToFail) {
  const std::string bad = "@T.prim_func\ndef bad(A: T.Buffer((4,), \"float32\")):\n    A[0] = K\n";
  std::string test = "def test_bad():\n    with pytest.raises(ValueError):\n        tvm.build(bad)\n";
  std::string text = std::string("import pytest\nimport tvm\n") + File(NineWith(bad), Filler(9) + "\n\n" + test);
  std::optional<Preview> p = PreviewFirstStatements(text, {}, 1);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->end, text.find(bad));
  ExpectSame(WholeBefore(text, {}, p->end), p->diagnostics, "a raises block in the rest");
  // The whole file lowers the unit's error to information; its prefix alone does not.
  auto severity_of_undefined = [](const std::vector<Diagnostic>& ds) {
    for (const Diagnostic& d : ds) {
      if (d.code == "undefined-name") return d.severity;
    }
    return Severity::kHint;
  };
  EXPECT_EQ(severity_of_undefined(AnalyzeText(text)), Severity::kInformation);
  EXPECT_EQ(severity_of_undefined(AnalyzeText(text.substr(0, text.find("@T.prim_func\ndef f8")))), Severity::kError);
  // Without expected failures the rest does not matter to it.
  AnalysisOptions plain;
  plain.expected_failures = false;
  std::optional<Preview> q = PreviewFirstStatements(text, plain, 1);
  ASSERT_TRUE(q);
  EXPECT_GT(q->end, text.find(bad));
  ExpectSame(WholeBefore(text, plain, q->end), q->diagnostics, "without expected failures");
}

TEST(Preview, TurnsDownWhatMayChangeTheWholeFile) {
  std::vector<std::string> nine = NineWith(Filler(4));
  // Each of these in the rest changes the file's aliases or suppressions, or the parse.
  for (const char* rest : {"from tvm.script import tirx as T\n", "import tvm.script.tir as T\n",
                           "from somewhere import *\n", "# tvmls: disable=undefined-name\n",
                           "x = (\n", "s = '''\n"}) {
    EXPECT_FALSE(PreviewFirstStatements(File(nine, Filler(9) + "\n\n" + rest), {}, 1)) << rest;
  }
  // An import the prefix has already, or one that is not tvm's, changes nothing.
  for (const char* rest : {"from tvm.script import tir as T\n", "import numpy as np\n",
                           "def t():\n    from tvm.script import relax as R\n"}) {
    EXPECT_TRUE(PreviewFirstStatements(File(nine, Filler(9) + "\n\n" + rest), {}, 1)) << rest;
  }
  // The printer's header comment is read among the first nine statements only: in the rest of
  // a prefix of fewer (the lines inside the string look like statements to the cut), it counts.
  std::string header = "# from tvm.script import tirx as T\n";
  EXPECT_TRUE(PreviewFirstStatements(File(nine, Filler(9) + "\n\n" + header), {}, 1));
  std::string words = "s = \"\"\"";
  for (int i = 1; i < 7; ++i) words += "\n\nw" + std::to_string(i);
  words += "\n\"\"\"\n";
  std::string few = File({Filler(0), words}, Filler(1) + "\n\n" + Filler(2));
  std::optional<Preview> short_prefix = PreviewFirstStatements(few, {}, 1);
  ASSERT_TRUE(short_prefix);
  EXPECT_EQ(short_prefix->end, few.find("@T.prim_func\ndef f1"));
  EXPECT_FALSE(PreviewFirstStatements(few + "\n\n" + header, {}, 1));
  // A prefix with a syntax error, or a text no longer than the prefix.
  EXPECT_FALSE(PreviewFirstStatements(File(NineWith("def broken(:\n    pass\n"), Filler(9)), {}, 1));
  EXPECT_FALSE(PreviewFirstStatements(File(nine, Filler(9)), {}, 1u << 20));
}

// A `mod.show()` dump is one class: the preview cuts between its functions and covers them up to
// the first one that references a function after the cut.
std::string Dump(int functions) {
  std::string text = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n\n@I.ir_module\nclass Module:\n";
  for (int i = 0; i < functions; ++i) {
    std::string n = std::to_string(i);
    text += "    @T.prim_func(private=True)\n    def f" + n + "(A: T.Buffer((4,), \"float32\")):\n";
    text += "        A[0] = T.float32(" + n + ") + undefined_" + n + "\n";
    text += "\n";
  }
  return text;
}

TEST(Preview, CutsBetweenTheFunctionsOfAClass) {
  std::string text = Dump(40);
  uint32_t bytes = static_cast<uint32_t>(text.find("def f10"));
  std::optional<uint32_t> cut = PreviewCut(text, bytes);
  ASSERT_TRUE(cut);
  EXPECT_EQ(*cut, text.find("    @T.prim_func(private=True)\n    def f11"));
  std::optional<Preview> p = PreviewFirstStatements(text, {}, bytes);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->end, *cut);
  EXPECT_EQ(p->diagnostics.size(), 11u);  // undefined_0 ... undefined_10
  ExpectSame(WholeBefore(text, {}, p->end), p->diagnostics, "a dump cut between functions");
  // The rest of the class assigns a name in its body: the module's functions may see it.
  std::string assigns = text + "    undefined_3 = 1\n";
  std::optional<Preview> q = PreviewFirstStatements(assigns, {}, bytes);
  EXPECT_FALSE(q && q->end > text.find("class Module"));
}

TEST(Preview, StopsBeforeAFunctionReferencingOneAfterTheCut) {
  // A Relax function's `cls.f` is a dependency on f's signature: covered when f comes before
  // the cut, not when it comes after.
  for (int callee : {2, 39}) {
    std::string text = "# from tvm.script import relax as R\n" + Dump(40);
    std::string relax = "    @R.function\n    def g(x: R.Tensor((4,), \"float32\")):\n        cls = Module\n"
                        "        y = R.call_tir(cls.f" + std::to_string(callee) +
                        ", (x,), out_sinfo=R.Tensor((4,), \"float32\"))\n        return y\n\n";
    text.insert(text.find("    @T.prim_func(private=True)\n    def f5"), relax);
    uint32_t bytes = static_cast<uint32_t>(text.find("def f10"));
    std::optional<Preview> p = PreviewFirstStatements(text, {}, bytes);
    ASSERT_TRUE(p) << callee;
    size_t stop = callee == 39 ? text.find("@R.function") : text.find("    @T.prim_func(private=True)\n    def f11");
    EXPECT_EQ(p->end, stop) << callee;
    ExpectSame(WholeBefore(text, {}, p->end), p->diagnostics, "cls.f" + std::to_string(callee));
  }
}

TEST(Preview, CutsAtAStatementStart) {
  std::string text = "a = 1\n\nb = (\n\nc)\n\nif x:\n    pass\n\nelse:\n    pass\n\nd = 2\n";
  // Lines after a blank line at column 0, not continuing a compound statement; the nine
  // before the cut are counted the same way.
  EXPECT_EQ(PreviewCut(text, 1), std::nullopt);
  std::string many;
  for (int i = 0; i < 10; ++i) many += "x" + std::to_string(i) + " = 1\n\nelse:\n\n";
  EXPECT_EQ(PreviewCut(many, 1), many.find("x9"));
  EXPECT_EQ(PreviewCut(many, static_cast<uint32_t>(many.find("x9") + 1)), std::nullopt);
}

}  // namespace
}  // namespace tvmls::analysis
