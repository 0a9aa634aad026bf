// Completion and signature help, as data: a module with one line being typed (the cursor is `‸`,
// removed before analysis) and what must come back.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "analysis.h"
#include "ops/registry.h"
#include "query/completion.h"
#include "support/files.h"

namespace tvmls::analysis {
namespace {

constexpr const char* kCursor = "\u2038";  // ‸

// The modules a case types into: `@PRIM@` is a line inside a TIR block, `@RELAX@` a line inside a
// Relax dataflow block, `@CLASS@` a line of the class body; the slot a case does not use is left
// empty.
constexpr const char* kClassicSource = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Mod:
    @CLASS@
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
            gv = R.call_tir(cls.relu, (lv,), out_sinfo=R.Tensor((1, 64), dtype="float32"))
            R.output(gv)
        return gv
)";

constexpr const char* kCurrentSource = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Mod:
    @CLASS@
    @T.prim_func(private=True, s_tir=True)
    def relu(inp: T.Buffer((1, 64), "float32"), out: T.Buffer((1, 64), "float32")):
        for i, j in T.grid(1, 64):
            with T.sblock("relu"):
                vi, vj = T.axis.remap("SS", [i, j])
                @PRIM@
                out[vi, vj] = T.max(inp[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor((1, 64), "float32")) -> R.Tensor((1, 64), "float32"):
        cls = Mod
        with R.dataflow():
            lv = R.add(x, x)
            @RELAX@
            gv = R.call_tir(cls.relu, (lv,), out_ty=R.Tensor((1, 64), dtype="float32"))
            R.output(gv)
        return gv
)";

// Other aliases; no tir import and no T.block/T.sblock: both eras accepted.
constexpr const char* kAliasedSource = R"(from tvm.script import ir as ir_mod
from tvm.script import relax as rx


@ir_mod.ir_module
class Net:
    @CLASS@
    @rx.function
    def main(x: rx.Tensor((4,), "float32")) -> rx.Tensor((4,), "float32"):
        M = Net
        y = rx.add(x, x)
        @RELAX@
        return y
)";

enum class Base { kClassic, kCurrent, kAliased };

const char* SourceOf(Base base) {
  switch (base) {
    case Base::kClassic: return kClassicSource;
    case Base::kCurrent: return kCurrentSource;
    case Base::kAliased: return kAliasedSource;
  }
  return "";
}

enum class Slot { kRelax, kPrim, kClass };

// The base with `line` in its slot; `*cursor` is where `‸` was.
std::string Compose(Base base, Slot slot, const std::string& line, uint32_t* cursor) {
  std::string text = SourceOf(base);
  const char* names[] = {"@RELAX@", "@PRIM@", "@CLASS@"};
  for (int i = 0; i < 3; ++i) {
    size_t at = text.find(names[i]);
    if (at == std::string::npos) continue;
    text.replace(at, std::string(names[i]).size(), i == static_cast<int>(slot) ? line : "");
  }
  size_t at = text.find(kCursor);
  EXPECT_NE(at, std::string::npos) << "no cursor in " << line;
  if (at != std::string::npos) text.erase(at, std::string(kCursor).size());
  *cursor = static_cast<uint32_t>(at == std::string::npos ? 0 : at);
  return text;
}

struct Analysed {
  std::string text;
  uint32_t cursor = 0;
  std::unique_ptr<Document> doc;
  Analyzer analyzer;
  Analysed(Base base, Slot slot, const std::string& line) {
    text = Compose(base, slot, line, &cursor);
    doc = std::make_unique<Document>(text);
    analyzer.Run(*doc);
  }
  const FileModel& Model() const { return *analyzer.Model(); }
  std::string Slice(TextRange r) const { return text.substr(r.begin, r.size()); }
};

const CompletionItem* Find(const CompletionResult& r, const std::string& label) {
  for (const CompletionItem& item : r.items) {
    if (item.label == label) return &item;
  }
  return nullptr;
}

// ---------------------------------------------------------------- completion cases

struct CompletionCase {
  const char* name;
  Base base;
  Slot slot;
  const char* line;                    // the line being typed, with ‸
  const char* replace;                 // the text of the replace range
  std::vector<const char*> present;    // labels that must be offered
  std::vector<const char*> absent;     // labels that must not be ("*" : no items at all)
  const char* snippet_of = nullptr;    // a label whose snippet parameters are checked
  std::vector<const char*> snippet = {};
  const char* detail_contains = nullptr;  // ... and whose detail contains this
};

const CompletionCase kCompletionCases[] = {
    {"RelaxTopLevel", Base::kClassic, Slot::kRelax, "lv1 = R.‸", "",
     {"add", "matmul", "nn", "memory", "vm", "builtin", "ccl", "image", "Tensor", "Shape", "Tuple", "Object",
      "Prim", "Callable", "dataflow", "output", "match_cast", "func_attr", "call_tir", "const", "function"},
     {"conv2d", "alloc_tensor", "Any", "block", "grid"}, "add", {"x1", "x2"}, "R.add(x1, x2)"},
    {"RelaxPartialName", Base::kClassic, Slot::kRelax, "lv1 = R.ma‸", "ma", {"matmul", "match_cast", "maximum"}, {}},
    {"RelaxNnPrefix", Base::kClassic, Slot::kRelax, "lv1 = R.nn.con‸", "con",
     {"conv2d", "conv1d", "relu", "softmax", "layer_norm"}, {"add", "alloc_tensor", "nn"}, "conv2d", {"data", "weight"},
     "R.nn.conv2d(data, weight, strides=(1, 1)"},
    {"RelaxMemory", Base::kClassic, Slot::kRelax, "lv1 = R.memory.‸", "",
     {"alloc_storage", "alloc_tensor", "kill_storage", "kill_tensor"}, {"add", "conv2d", "alloc_storage_x"},
     "alloc_tensor", {"storage", "offset", "shape", "dtype"}},
    {"RelaxVm", Base::kClassic, Slot::kRelax, "R.vm.‸", "", {"alloc_storage", "alloc_tensor", "kill_object", "call_tir_dyn"},
     {"kill_tensor"}},
    {"RelaxCallTirClassicSpelling", Base::kClassic, Slot::kRelax, "lv1 = R.call_t‸", "call_t", {"call_tir"}, {},
     "call_tir", {"gvar", "args", "out_sinfo"}, "tir_vars=None"},
    {"RelaxCallTirCurrentSpelling", Base::kCurrent, Slot::kRelax, "lv1 = R.call_t‸", "call_t", {"call_tir"}, {},
     "call_tir", {"gvar", "args", "out_ty"}},
    {"RelaxAnyInCurrentFile", Base::kCurrent, Slot::kRelax, "lv1: R.‸", "", {"Any", "Tensor"}, {}},
    {"RelaxNoAnyInClassicFile", Base::kClassic, Slot::kRelax, "lv1: R.‸", "", {"Object"}, {"Any"}},
    {"UnderAnOperatorNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add.‸", "", {}, {"*"}},
    {"UnknownSubNamespaceNothing", Base::kClassic, Slot::kRelax, "lv1 = R.bogus.‸", "", {}, {"*"}},
    {"TirClassicHasBlock", Base::kClassic, Slot::kPrim, "T.‸", "",
     {"block", "grid", "serial", "Buffer", "handle", "axis", "reads", "writes", "init", "where", "alloc_buffer",
      "match_buffer", "float32", "int64", "exp", "if_then_else", "Cast", "call_extern", "max_value", "allocate",
      "block_attr", "prim_func"},
     {"sblock", "sblock_attr", "sblock_alloc_buffer", "add", "conv2d"}, "grid", {}, "T.grid(*extents)"},
    {"TirCurrentHasSblock", Base::kCurrent, Slot::kPrim, "T.‸", "",
     {"sblock", "sblock_attr", "sblock_alloc_buffer", "grid", "Buffer", "axis"},
     {"block", "block_attr", "allocate", "realize", "LetStmt"}, "axis", {}},
    {"TirBothErasOffersBoth", Base::kAliased, Slot::kRelax, "T.‸", "", {"block", "sblock", "block_attr", "sblock_attr"},
     {}},
    {"TirIntrinsicsClassic", Base::kClassic, Slot::kPrim, "T.‸", "",
     {"ptx_mma", "ptx_commit_group", "tvm_thread_allreduce", "call_pure_extern", "float32x4", "Select", "exp"},
     {"ptx", "alloc_shared", "cta_id"}, "exp", {"x"}, "T.exp(x)"},
    {"TirIntrinsicsCurrent", Base::kCurrent, Slot::kPrim, "T.‸", "",
     {"ptx", "cuda", "alloc_shared", "cta_id", "bf16", "tvm_thread_allreduce", "float8_e4m3fnx4", "exp"},
     {"ptx_mma", "block"}, "tvm_storage_sync", {"storage_scope"}, "T.tvm_storage_sync(storage_scope, is_load=False"},
    {"TirAxis", Base::kClassic, Slot::kPrim, "vk = T.axis.‸", "",
     {"spatial", "reduce", "remap", "S", "R", "scan", "opaque"}, {"grid", "axis"}, "remap", {"kinds", "bindings"}},
    {"TirPartialInPrim", Base::kClassic, Slot::kPrim, "out[vi, vj] = T.flo‸", "flo", {"floor", "floordiv", "floormod", "float32"},
     {}},
    {"TirDtypeSnippetless", Base::kClassic, Slot::kRelax, "n = T.‸", "", {"int64", "float16", "bool"}, {},
     "int64", {}, "T.int64(expr=None, *, is_size_var=False)"},
    {"IrNamespace", Base::kClassic, Slot::kClass, "I.‸", "",
     {"ir_module", "module_attrs", "module_global_infos", "vdevice"}, {"add", "grid"}, "module_attrs", {"attrs"}},
    {"ModuleFunctions", Base::kClassic, Slot::kRelax, "lv1 = cls.‸", "", {"relu", "main"}, {"add", "grid"},
     "relu", {"inp", "out"}, "cls.relu(inp: T.Buffer((1, 64), \"float32\"), out: T.Buffer((1, 64), \"float32\"))"},
    {"ModuleFunctionsByClassName", Base::kClassic, Slot::kRelax, "lv1 = Mod.re‸", "re", {"relu", "main"}, {}},
    {"ModuleFunctionsOfAnotherAlias", Base::kAliased, Slot::kRelax, "z = M.‸", "", {"main"}, {"add"}, "main", {"x"},
     "M.main(x: R.Tensor"},
    {"AliasRx", Base::kAliased, Slot::kRelax, "z = rx.nn.‸", "", {"conv2d", "relu", "softmax"}, {"add"}, "relu",
     {"data"}, "rx.nn.relu(data)"},
    {"AliasRxTopLevelBothEras", Base::kAliased, Slot::kRelax, "z = rx.‸", "", {"add", "Object", "Any", "nn"}, {}},
    {"AliasIr", Base::kAliased, Slot::kClass, "ir_mod.‸", "", {"ir_module", "module_attrs"}, {}},
    {"InsideCommentNothing", Base::kClassic, Slot::kRelax, "# lv1 = R.‸", "", {}, {"*"}},
    {"AfterCodeInCommentNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, x)  # R.nn.‸", "", {}, {"*"}},
    {"InsideStringNothing", Base::kClassic, Slot::kRelax, "lv1 = R.call_packed(\"R.‸\")", "", {}, {"*"}},
    {"InsideUnclosedStringNothing", Base::kClassic, Slot::kRelax, "lv1 = R.call_packed(\"R.nn.‸", "", {}, {"*"}},
    {"DtypeKeywordString", Base::kClassic, Slot::kRelax, "lv1: R.Tensor((1, 64), dtype=\"fl‸", "fl",
     {"float32", "float16", "int64", "bool"}, {"add"}},
    {"DtypePositionalString", Base::kClassic, Slot::kPrim, "A = T.alloc_buffer((4,), \"‸", "", {"float32", "int8"}, {}},
    {"ShapeStringIsNotADtype", Base::kClassic, Slot::kRelax, "lv1: R.Tensor((\"n‸", "", {}, {"*"}},
    {"BrokenLineAfterDot", Base::kClassic, Slot::kRelax, "lv1 = R.nn.‸", "", {"conv2d"}, {}},
    {"BrokenUnclosedCallBefore", Base::kClassic, Slot::kRelax, "lv1 = R.add(x,\n            lv2 = R.mem‸", "mem",
     {"memory", "mean"}, {}},
    {"InsideArgumentList", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, R.nn.re‸", "re", {"relu"}, {}},
    {"MethodOfAValueNothing", Base::kClassic, Slot::kRelax, "lv1 = lv.‸", "", {}, {"*"}},
    {"MethodOfACallNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, x).‸", "", {}, {"*"}},
    {"AttributeOfSubscriptNothing", Base::kClassic, Slot::kRelax, "lv1 = x[0].R.‸", "", {}, {"*"}},
    {"NumberNothing", Base::kClassic, Slot::kRelax, "lv1 = 1.‸", "", {}, {"*"}},
    {"BareNameOffersAliasesAndLocals", Base::kClassic, Slot::kRelax, "lv1 = R.add(l‸", "l", {"R", "T", "I", "lv", "x"},
     {"gv", "lv1"}},
    {"KeywordArguments", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x, strides=2, pa‸", "pa",
     {"padding=", "dilation=", "out_dtype=", "lv", "R"}, {"strides=", "data=", "weight="}},
    {"KeywordArgumentsClassicSpelling", Base::kClassic, Slot::kRelax, "lv1 = R.call_tir(cls.relu, (lv,), ‸", "",
     {"out_sinfo=", "tir_vars="}, {"out_ty="}},
    {"KeywordArgumentsCurrentSpelling", Base::kCurrent, Slot::kRelax, "lv1 = R.call_tir(cls.relu, (lv,), ‸", "",
     {"out_ty="}, {"out_sinfo=", "tir_vars="}},
    {"NoKeywordArgumentsInsideAValue", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x + ‸", "", {"x"},
     {"strides="}},
    {"NoKeywordArgumentsForModuleFunctions", Base::kClassic, Slot::kRelax, "lv1 = cls.relu(‸", "", {"x"}, {"inp="}},
    {"DefiningANameNothing", Base::kClassic, Slot::kClass, "def ma‸", "ma", {}, {"*"}},
};

void PrintTo(const CompletionCase& c, std::ostream* os) { *os << c.name; }

class CompletionCases : public ::testing::TestWithParam<CompletionCase> {};

TEST_P(CompletionCases, Match) {
  const CompletionCase& c = GetParam();
  Analysed a(c.base, c.slot, c.line);
  CompletionResult r = CompleteAt(*a.doc, a.Model(), a.cursor);
  EXPECT_EQ(r.replace.end, a.cursor);
  EXPECT_EQ(a.Slice(r.replace), c.replace);
  for (const char* label : c.present) EXPECT_NE(Find(r, label), nullptr) << "missing " << label;
  for (const char* label : c.absent) {
    if (std::string(label) == "*") {
      EXPECT_TRUE(r.items.empty()) << r.items.size() << " items, the first " << r.items.front().label;
    } else {
      EXPECT_EQ(Find(r, label), nullptr) << "offered " << label;
    }
  }
  if (c.snippet_of != nullptr) {
    const CompletionItem* item = Find(r, c.snippet_of);
    ASSERT_NE(item, nullptr) << c.snippet_of;
    std::vector<std::string> want(c.snippet.begin(), c.snippet.end());
    EXPECT_EQ(item->snippet_params, want) << c.snippet_of;
    if (c.detail_contains != nullptr) {
      EXPECT_NE(item->detail.find(c.detail_contains), std::string::npos) << item->detail;
    }
  }
  EXPECT_TRUE(std::is_sorted(r.items.begin(), r.items.end(),
                             [](const CompletionItem& x, const CompletionItem& y) { return x.label < y.label; }));
}

INSTANTIATE_TEST_SUITE_P(Completion, CompletionCases, ::testing::ValuesIn(kCompletionCases),
                         [](const ::testing::TestParamInfo<CompletionCase>& p) { return p.param.name; });

// ---------------------------------------------------------------- signature help cases

struct SignatureCase {
  const char* name;
  Base base;
  Slot slot;
  const char* line;
  const char* label_prefix;  // nullptr: no signature help expected
  const char* active;        // the active parameter's text in the label; nullptr: none (-1)
};

const SignatureCase kSignatureCases[] = {
    {"FirstArgument", Base::kClassic, Slot::kRelax, "lv1 = R.add(‸", "R.add(x1, x2)", "x1"},
    {"ByCommaCount", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, ‸", "R.add(x1, x2)", "x2"},
    {"TooManyArguments", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, x, ‸", "R.add(x1, x2)", nullptr},
    {"CommaInsideNestedTupleIgnored", Base::kClassic, Slot::kRelax, "lv1 = R.reshape(x, (1, 2, ‸",
     "R.reshape(x, shape)", "shape"},
    {"KeywordOutSinfoClassic", Base::kClassic, Slot::kRelax, "lv1 = R.call_tir(cls.relu, (lv,), out_sinfo=‸",
     "R.call_tir(gvar, args, out_sinfo", "out_sinfo"},
    {"KeywordOutTyCurrent", Base::kCurrent, Slot::kRelax, "lv1 = R.call_tir(cls.relu, (lv,), out_ty=‸",
     "R.call_tir(gvar, args, out_ty", "out_ty"},
    {"KeywordOtherEraSpellingMatches", Base::kClassic, Slot::kRelax, "lv1 = R.call_tir(cls.relu, (lv,), out_ty=‸",
     "R.call_tir(gvar, args, out_sinfo", "out_sinfo"},
    {"CurrentLabelHasNoTirVars", Base::kCurrent, Slot::kRelax, "lv1 = R.call_tir(‸", "R.call_tir(gvar, args, out_ty)", "gvar"},
    {"KeywordAfterKeywords", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x, strides=2, padding=‸",
     "R.nn.conv2d(data, weight", "padding=(0, 0)"},
    {"PartialKeywordName", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x, strides=2, dil‸",
     "R.nn.conv2d(data, weight", "dilation=(1, 1)"},
    {"PositionalAfterKeywordUnknown", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x, strides=2, ‸",
     "R.nn.conv2d(data, weight", nullptr},
    {"UnknownKeyword", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, x, bogus=‸", "R.nn.conv2d(data, weight", nullptr},
    {"NestedInnermost", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, R.add(x, ‸", "R.add(x1, x2)", "x2"},
    {"NestedBackOutside", Base::kClassic, Slot::kRelax, "lv1 = R.nn.conv2d(x, R.add(x, x), ‸",
     "R.nn.conv2d(data, weight", "strides=(1, 1)"},
    {"AnnotationInKeyword", Base::kClassic, Slot::kRelax,
     "lv1 = R.call_tir(cls.relu, (lv,), out_sinfo=R.Tensor((1, 64), dtype=‸", "R.Tensor(shape=None, dtype=None",
     "dtype=None"},
    {"UnclosedAcrossLines", Base::kClassic, Slot::kRelax, "lv1 = R.call_tir(\n                cls.relu,\n                (lv,),\n                ‸",
     "R.call_tir(gvar, args, out_sinfo", "out_sinfo"},
    {"AbandonedCallAbove", Base::kClassic, Slot::kRelax, "lv1 = R.add(x,\n            lv2 = R.nn.relu(‸",
     "R.nn.relu(data)", "data"},
    {"AbandonedCallIsNotTheCall", Base::kClassic, Slot::kRelax, "lv1 = R.add(x,\n            lv2 = ‸", nullptr, nullptr},
    {"ContinuationLineStaysInTheCall", Base::kClassic, Slot::kRelax, "lv1 = R.add(x,\n                ‸", "R.add(x1, x2)",
     "x2"},
    {"ModuleFunction", Base::kClassic, Slot::kRelax, "lv1 = cls.relu(lv, ‸",
     "cls.relu(inp: T.Buffer((1, 64), \"float32\"), out: T.Buffer", "out: T.Buffer((1, 64), \"float32\")"},
    {"ModuleRelaxFunction", Base::kAliased, Slot::kRelax, "z = M.main(‸", "M.main(x: R.Tensor((4,), dtype=\"float32\")) -> ",
     "x: R.Tensor((4,), dtype=\"float32\")"},
    {"AliasOp", Base::kAliased, Slot::kRelax, "z = rx.nn.softmax(y, ‸", "rx.nn.softmax(data, axis=-1)", "axis=-1"},
    {"TirBuiltin", Base::kClassic, Slot::kPrim, "out[vi, vj] = T.if_then_else(vi > 0, ‸", "T.if_then_else(cond, t, f, span=None)", "t"},
    {"TirBuiltinCurrent", Base::kCurrent, Slot::kPrim, "out[vi, vj] = T.if_then_else(vi > 0, x, ‸",
     "T.if_then_else(cond, t, f, span=None)", "f"},
    {"TirIntrinsicClassic", Base::kClassic, Slot::kPrim, "T.evaluate(T.ptx_wait_group(‸", "T.ptx_wait_group(num)", "num"},
    {"TirIntrinsicVariadic", Base::kClassic, Slot::kPrim, "T.evaluate(T.call_extern(\"int32\", \"f\", x, ‸",
     "T.call_extern(dtype, func_name, *args, span=None)", "*args"},
    {"TirAxisRemap", Base::kClassic, Slot::kPrim, "vk = T.axis.remap(\"R\", ‸", "T.axis.remap(kinds, bindings", "bindings"},
    {"TirVariadic", Base::kClassic, Slot::kPrim, "T.reads(inp[vi, vj], ‸", "T.reads(*buffer_slices)", "*buffer_slices"},
    {"TirKeywordOnly", Base::kClassic, Slot::kPrim, "for k in T.serial(0, 4, annotations=‸",
     "T.serial(start, stop=None, *, annotations=None, step=None)", "annotations=None"},
    {"IrBuilder", Base::kClassic, Slot::kClass, "I.module_attrs(‸", "I.module_attrs(attrs)", "attrs"},
    {"UnknownCalleeNothing", Base::kClassic, Slot::kRelax, "lv1 = foo(x, ‸", nullptr, nullptr},
    {"UnknownInnerCallNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, foo(‸", nullptr, nullptr},
    {"MethodOfAValueNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, f(x).g(‸", nullptr, nullptr},
    {"OutsideCallNothing", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, x)‸", nullptr, nullptr},
    {"InCommentNothing", Base::kClassic, Slot::kRelax, "# R.add(x, ‸", nullptr, nullptr},
    {"InDtypeString", Base::kClassic, Slot::kRelax, "lv1 = R.astype(x, \"fl‸", "R.astype(x, dtype)", "dtype"},
    {"ParenthesizedIsNotACall", Base::kClassic, Slot::kRelax, "lv1 = R.add(x, (‸", "R.add(x1, x2)", "x2"},
};

void PrintTo(const SignatureCase& c, std::ostream* os) { *os << c.name; }

class SignatureCases : public ::testing::TestWithParam<SignatureCase> {};

TEST_P(SignatureCases, Match) {
  const SignatureCase& c = GetParam();
  Analysed a(c.base, c.slot, c.line);
  std::optional<SignatureHelp> help = SignatureHelpAt(*a.doc, a.Model(), a.cursor);
  if (c.label_prefix == nullptr) {
    EXPECT_FALSE(help.has_value()) << help->label;
    return;
  }
  ASSERT_TRUE(help.has_value());
  EXPECT_EQ(help->label.substr(0, std::string(c.label_prefix).size()), c.label_prefix) << help->label;
  for (TextRange r : help->params) ASSERT_LE(r.end, help->label.size());
  if (c.active == nullptr) {
    EXPECT_EQ(help->active_param, -1) << help->label;
  } else {
    ASSERT_GE(help->active_param, 0) << help->label;
    ASSERT_LT(help->active_param, static_cast<int>(help->params.size()));
    TextRange r = help->params[help->active_param];
    EXPECT_EQ(help->label.substr(r.begin, r.size()), c.active);
  }
}

INSTANTIATE_TEST_SUITE_P(SignatureHelp, SignatureCases, ::testing::ValuesIn(kSignatureCases),
                         [](const ::testing::TestParamInfo<SignatureCase>& p) { return p.param.name; });

// ---------------------------------------------------------------- properties

// With the `R` alias, the signature label of every operator is the registry's own signature text.
TEST(SignatureHelp, OperatorLabelsAreTheRegistrySignatures) {
  for (const ops::OpInfo& op : ops::AllOps()) {
    if (op.script == nullptr) continue;
    Analysed a(Base::kClassic, Slot::kRelax, std::string("lv1 = R.") + op.script + "(‸");
    std::optional<SignatureHelp> help = SignatureHelpAt(*a.doc, a.Model(), a.cursor);
    ASSERT_TRUE(help.has_value()) << op.script;
    EXPECT_EQ(help->label, ops::Signature(op, /*current_era=*/false));
  }
}

// Completion and signature help at every offset of every example: no crash, and the replace range
// ends at the offset.
TEST(Completion, EveryOffsetOfTheExamples) {
  for (const std::string& path : testing::ExampleFiles()) {
    std::string text = testing::ReadFileOrDie(path);
    Document doc(text);
    Analyzer analyzer;
    analyzer.Run(doc);
    for (uint32_t offset = 0; offset <= text.size(); ++offset) {
      CompletionResult r = CompleteAt(doc, *analyzer.Model(), offset);
      ASSERT_EQ(r.replace.end, offset) << path;
      ASSERT_LE(r.replace.begin, offset) << path;
      std::optional<SignatureHelp> help = SignatureHelpAt(doc, *analyzer.Model(), offset);
      if (help) {
        ASSERT_LT(help->active_param, static_cast<int>(help->params.size())) << path;
      }
    }
  }
}

// The lists a server builds ahead (WarmNamespaceCompletions, on its own thread) are the ones
// completion gives, whether the warming runs before, during or after the completions.
TEST(Completion, NamespaceListsWarmedOnAnotherThreadAreTheSame) {
  const std::string text =
      "from tvm.script import relax as R\nfrom tvm.script import tir as T\n\nx = R.\ny = T.\n";
  Document doc(text);
  Analyzer analyzer;
  analyzer.Run(doc);
  auto labels = [&](uint32_t offset) {
    std::vector<std::string> out;
    for (const CompletionItem& item : CompleteAt(doc, *analyzer.Model(), offset).items) {
      out.push_back(item.label + " " + item.detail + " " + item.doc);
    }
    return out;
  };
  const uint32_t after_r = static_cast<uint32_t>(text.find("R.\n") + 2);
  const uint32_t after_t = static_cast<uint32_t>(text.find("T.\n") + 2);
  std::vector<std::string> r_before = labels(after_r), t_before = labels(after_t);
  ASSERT_GT(r_before.size(), 100u);
  ASSERT_GT(t_before.size(), 100u);
  std::thread warm(WarmNamespaceCompletions);
  std::vector<std::string> r_during = labels(after_r), t_during = labels(after_t);
  warm.join();
  WarmNamespaceCompletions();
  EXPECT_EQ(r_during, r_before);
  EXPECT_EQ(t_during, t_before);
  EXPECT_EQ(labels(after_r), r_before);
  EXPECT_EQ(labels(after_t), t_before);
}

}  // namespace
}  // namespace tvmls::analysis
