// What one keystroke costs: typing a line into one function of a file of many must re-lower at
// most a given number of functions per keystroke, through every broken intermediate state (an
// open bracket, an open string, half a keyword), and undoing it must re-lower nothing. Each state
// is also compared with a fresh analysis of the same text, so cheapness never changes an answer.
// Tests as data: each case names the slot it types at, what it types (one keystroke per
// character, or per `edits` entry), and the most functions any keystroke may re-lower.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "analysis.h"
#include "model/model.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

constexpr int kModules = 8;  // 16 functions
constexpr int kTarget = 3;   // the module the slots are in

// One module; `@K@` is its number, `@RELAX@` / `@PRIM@` / `@HEAD@` are slots (in module
// kTarget only; elsewhere those lines are dropped).
constexpr const char* kModuleTemplate = R"(@I.ir_module
class Mod@K@:
    @T.prim_func(private=True)
    def add(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            with T.block("add"):
                vi, vj = T.axis.remap("SS", [i, j])
@PRIM@
                B[vi, vj] = A[vi, vj] + T.float32(1)

    @R.function
    def main(x: R.Tensor((4, 4), "float32")) -> R.Tensor((4, 4), "float32"):
@HEAD@
        cls = Mod@K@
        y = R.call_tir(cls.add, (x,), out_sinfo=R.Tensor((4, 4), "float32"))
@RELAX@
        return y


)";

constexpr const char* kHeader =
    "from tvm.script import ir as I\nfrom tvm.script import relax as R\nfrom tvm.script import tir as T\n\n\n";

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// The file, with `slot` in module kTarget kept as an empty line whose offset is returned in `at`
// (the other slots' lines are removed).
std::string MakeFile(const std::string& slot, uint32_t* at) {
  std::string out = kHeader;
  for (int k = 0; k < kModules; ++k) {
    std::string m = Replace(kModuleTemplate, "@K@", std::to_string(k));
    for (const char* s : {"@PRIM@", "@RELAX@", "@HEAD@"}) {
      if (k == kTarget && slot == s) continue;
      m = Replace(m, std::string(s) + "\n", "");
    }
    if (k == kTarget) {
      size_t pos = m.find(slot);
      *at = static_cast<uint32_t>(out.size() + pos);
      m = Replace(m, slot, "");
    }
    out += m;
  }
  return out;
}

std::string Render(const Analyzer& a) {
  std::ostringstream out;
  for (const Diagnostic* d : a.Diagnostics()) {
    out << d->range.begin << "-" << d->range.end << " " << static_cast<int>(d->severity) << " " << d->code << " "
        << d->message;
    for (const Fix& f : d->fixes) {
      out << " | fix " << f.title;
      for (const TextEdit& e : f.edits) out << " [" << e.range.begin << "-" << e.range.end << " " << e.new_text << "]";
    }
    out << "\n";
  }
  const FileModel& m = *a.Model();
  for (const ModuleModel& mod : m.modules) {
    for (const FunctionRef& f : mod.functions) out << mod.name << "." << f.fn->name << " @" << f.base << "\n";
  }
  return out.str();
}

struct EditCostCase {
  const char* name;
  const char* slot;
  /// Typed one character per keystroke at the slot, after the slot's indentation.
  const char* typed;
  const char* indent;
  /// The most functions one keystroke (and each undo step) may re-lower.
  int max_per_keystroke;
};

const EditCostCase kCases[] = {
    {"RelaxBindingWithAnnotation", "@RELAX@", "z: R.Tensor((4, 4), \"float32\") = R.add(y, y)\n", "        ", 1},
    {"RelaxCallUnclosedUntilTheEnd", "@RELAX@", "z = R.nn.softmax(R.add(y, y), axis=-1)\n", "        ", 1},
    {"TirStore", "@PRIM@", "B[vi, vj] = T.max(A[vi, vj], T.float32(0))\n", "                ", 1},
    {"TirLoopHeader", "@PRIM@", "for k in range(4):\n                    B[vi, k] = A[vi, vj]\n",
     "                ", 1},
    {"DocstringOpenedAndClosed", "@HEAD@", "\"\"\"Doc.\"\"\"\n", "        ", 1},
};

class EditCost : public ::testing::TestWithParam<EditCostCase> {};

TEST_P(EditCost, EveryKeystrokeRelowersAtMostTheBound) {
  const EditCostCase& c = GetParam();
  uint32_t at = 0;
  Document doc(MakeFile(c.slot, &at));
  Analyzer analyzer;
  analyzer.Run(doc);
  ASSERT_EQ(analyzer.Stats().functions, 2 * kModules);
  std::string before = Render(analyzer);
  std::vector<ByteEdit> undo;
  auto apply = [&](ByteEdit e, const std::string& what) {
    doc.ApplyEdits(std::vector<ByteEdit>{e});
    analyzer.Run(doc);
    EXPECT_LE(analyzer.Stats().functions_analyzed, c.max_per_keystroke)
        << what << ": the text is now\n" << doc.Text().substr(at > 200 ? at - 200 : 0, 400);
    Analyzer fresh;
    fresh.Run(doc);
    ASSERT_EQ(Render(analyzer), Render(fresh)) << what;
  };
  std::string typed = std::string(c.indent);
  apply(ByteEdit{at, at, c.indent}, "the indentation");
  uint32_t pos = at + static_cast<uint32_t>(typed.size());
  for (char ch : std::string(c.typed)) {
    apply(ByteEdit{pos, pos, std::string(1, ch)}, "typing '" + typed + "' + '" + std::string(1, ch) + "'");
    typed += ch;
    ++pos;
  }
  // Undo, one keystroke at a time: every state was seen before and costs nothing to re-lower
  // beyond the bound.
  while (pos > at) {
    --pos;
    apply(ByteEdit{pos, pos + 1, ""}, "deleting back to '" + typed.substr(0, pos - at) + "'");
  }
  EXPECT_EQ(Render(analyzer), before);
}

INSTANTIATE_TEST_SUITE_P(Typing, EditCost, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<EditCostCase>& p) { return p.param.name; });

}  // namespace
}  // namespace tvmls::analysis
