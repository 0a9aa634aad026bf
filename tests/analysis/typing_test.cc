// Typing a call character by character, as a person does without auto-pairs: at every
// intermediate state (the call unclosed, half a keyword typed, the line broken) signature help
// and keyword completion must answer what the line says so far. Tests as data: each case is the
// line typed and, under it, one character per typed character naming the parameter that must be
// active with the cursor AFTER that character (`.`: no signature help there; a letter: the
// legend's parameter; `?`: signature help with no active parameter).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis.h"
#include "query/completion.h"

namespace tvmls::analysis {
namespace {

constexpr const char* kModule = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Mod:
    @T.prim_func(private=True)
    def relu(inp: T.Buffer((1, 64), "float32"), out: T.Buffer((1, 64), "float32")):
        for i, j in T.grid(1, 64):
            with T.block("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                @PRIM@
                out[vi, vj] = T.max(inp[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor((1, 64), "float32")) -> R.Tensor((1, 64), "float32"):
        cls = Mod
        with R.dataflow():
            lv = R.add(x, x)
            @RELAX@
            R.output(lv)
        return lv

    @R.function
    def tail(x: R.Tensor((1, 64), "float32")):
        @TAIL@
)";

struct TypingCase {
  const char* name;
  const char* slot;  // "@RELAX@", "@PRIM@" or "@TAIL@" (the last line of the file)
  const char* typed;
  const char* active;  // one character per character of `typed`
  std::map<char, const char*> legend;
  /// Keyword completions that must be offered after the typed text at these cursor indexes
  /// (index = characters typed so far).
  std::map<size_t, const char*> keywords = {};
};

const TypingCase kCases[] = {
    {"Softmax", "@RELAX@",
     "lv1 = R.nn.softmax(lv, axis=-1)",
     "..................dddaaaaaaaaa.",
     {{'d', "data"}, {'a', "axis=-1"}},
     {{23, "axis="}}},
    {"SoftmaxOnTheLastLineOfTheFile", "@TAIL@",
     "return R.nn.softmax(x, axis=1)",
     "...................ddaaaaaaaa.",
     {{'d', "data"}, {'a', "axis=-1"}},
     {{22, "axis="}}},
    {"Conv2dKeywords", "@RELAX@",
     "y = R.nn.conv2d(lv, lv, strides=2, padding=1)",
     "...............dddwwwwsssssssssss??ppppppppp.",
     {{'d', "data"}, {'w', "weight"}, {'s', "strides=(1, 1)"}, {'p', "padding=(0, 0)"},
      {'?', "?"}},
     {{24, "strides="}, {35, "padding="}}},
    {"NestedCall", "@RELAX@",
     "y = R.add(R.multiply(x, x), lv)",
     ".........aaaaaaaaaaaaabbbabbbb.",
     {{'a', "x1"}, {'b', "x2"}},
     {}},
    {"CallTirAcrossLines", "@RELAX@",
     "gv = R.call_tir(cls.relu, (lv,),\n                out_sinfo=R.Tensor((1, 64), dtype=\"float32\"))",
     "...............gggggggggaaaaaaao\nooooooooooooooooooooooooooooooooooSSSSSSSSDDDDDDDDDDDDDDDDDo.",
     {{'g', "gvar"}, {'a', "args"}, {'o', "out_sinfo"}, {'S', "shape=None"}, {'D', "dtype=None"}},
     {}},
    {"TirIfThenElse", "@PRIM@",
     "out[vi, vj] = T.if_then_else(vi > 0, inp[vi, vj], 0.0)",
     "............................ccccccctttttttttttttfffff.",
     {{'c', "cond"}, {'t', "t"}, {'f', "f"}},
     {}},
};

// The module with the first `typed_chars` characters of the case in its slot (`pass` in the
// others); `*cursor` is the offset just after them.
std::string Compose(const TypingCase& c, size_t typed_chars, uint32_t* cursor) {
  std::string text = kModule;
  for (const char* slot : {"@RELAX@", "@PRIM@", "@TAIL@"}) {
    if (slot != std::string(c.slot)) text.replace(text.find(slot), std::string(slot).size(), "pass");
  }
  size_t at = text.find(c.slot);
  text.replace(at, std::string(c.slot).size(), std::string(c.typed, typed_chars));
  *cursor = static_cast<uint32_t>(at + typed_chars);
  return text;
}

class Typing : public ::testing::TestWithParam<TypingCase> {};

TEST_P(Typing, EveryIntermediateStateAnswers) {
  const TypingCase& c = GetParam();
  std::string typed = c.typed;
  ASSERT_EQ(std::string(c.active).size(), typed.size()) << "the answer line must match the typed line";
  for (size_t k = 1; k <= typed.size(); ++k) {
    uint32_t cursor = 0;
    std::string text = Compose(c, k, &cursor);
    Document doc(text);
    Analyzer analyzer;
    analyzer.Run(doc);
    ASSERT_NE(analyzer.Model(), nullptr);
    std::string where = std::string(c.name) + " after `" + typed.substr(0, k) + "`";
    char want = c.active[k - 1];
    if (want == '\n') continue;
    std::optional<SignatureHelp> help = SignatureHelpAt(doc, *analyzer.Model(), cursor);
    if (want == '.') {
      EXPECT_FALSE(help.has_value()) << where << ": got " << help->label;
    } else {
      if (!help) {
        ADD_FAILURE() << where << ": no signature help";
        continue;
      }
      auto legend = c.legend.find(want);
      ASSERT_NE(legend, c.legend.end()) << "legend lacks " << want;
      std::string expected = legend->second;
      if (expected == "?") {
        EXPECT_EQ(help->active_param, -1) << where << ": " << help->label;
      } else {
        ASSERT_GE(help->active_param, 0) << where << ": " << help->label << " has no active parameter";
        TextRange r = help->params[static_cast<size_t>(help->active_param)];
        EXPECT_EQ(help->label.substr(r.begin, r.size()), expected) << where << ": " << help->label;
      }
    }
    auto keyword = c.keywords.find(k);
    if (keyword != c.keywords.end()) {
      CompletionResult r = CompleteAt(doc, *analyzer.Model(), cursor);
      bool found = false;
      for (const CompletionItem& item : r.items) found = found || item.label == keyword->second;
      EXPECT_TRUE(found) << where << ": completion lacks " << keyword->second;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Calls, Typing, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<TypingCase>& p) { return p.param.name; });

}  // namespace
}  // namespace tvmls::analysis
