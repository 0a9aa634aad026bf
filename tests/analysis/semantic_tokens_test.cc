// Semantic tokens: the token at given places of small modules of both eras (as data), and the
// invariants (sorted, non-overlapping, single-line, the range variant agreeing with the full one)
// on every fixture and example and on broken text.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analysis.h"
#include "query/semantic_tokens.h"
#include "support/files.h"

namespace tvmls::analysis {
namespace {

using Type = SemanticTokenType;

constexpr const char* kClassicModule = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Mod:
    @T.prim_func(private=True)
    def scale(a: T.handle, b: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n, 64), "float32")
        B = T.match_buffer(b, (n, 64), dtype="float32")
        for i, j in T.grid(n, 64):
            with T.block("s"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)

    @R.function
    def main(x: R.Tensor(("n", 64), "float32"), w: R.Tensor((64, 64), "float32")) -> R.Tensor(("n", 64), "float32"):
        n = T.int64()
        cls = Mod
        with R.dataflow():
            lv = R.matmul(x, w)  # R.add(x, w)
            lv1 = R.call_tir(cls.scale, (lv,), out_sinfo=R.Tensor((n, 64), dtype="float32"))
            lv2 = R.astype(lv1, "float16")
            s = R.str("float32")
            gv = R.nn.relu(lv1)
            R.output(gv)
        return gv
)";

constexpr const char* kCurrentModule = R"(from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tirx as T


@I.ir_module
class Mod:
    @T.prim_func(private=True, s_tir=True)
    def copy(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.sblock("copy"):
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi]
        for i in range(4):
            with T.block("old"):
                B[i] = A[i]

    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Mod
        storage: R.Any = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        old: R.Object = storage
        y = R.call_tir(cls.copy, (x,), out_ty=R.Tensor((4,), "float32"))
        return y
)";

struct TokenCase {
  const char* name;
  const char* source;
  const char* context;  // a unique text of the source with the token in [brackets]
  std::optional<Type> type;  // nullopt: no token may intersect the bracketed text
  uint32_t modifiers = 0;
};

constexpr uint32_t kDecl = kModDeclaration;
constexpr uint32_t kLib = kModDefaultLibrary;

const TokenCase kTokenCases[] = {
    // Aliases and imports.
    {"ImportAlias", kClassicModule, "import relax as [R]", Type::kNamespace, kDecl},
    {"ImportedModuleNameIsNot", kClassicModule, "import [relax] as", std::nullopt},
    {"AliasUse", kClassicModule, "def main(x: [R].Tensor", Type::kNamespace, 0},
    {"DecoratorIr", kClassicModule, "@I.[ir_module]", Type::kDecorator, kLib},
    {"DecoratorPrimFunc", kClassicModule, "@T.[prim_func](", Type::kDecorator, kLib},
    {"DecoratorRelax", kCurrentModule, "@R.[function](pure", Type::kDecorator, kLib},
    {"ModuleClass", kClassicModule, "class [Mod]:", Type::kClass, kDecl},
    // TIR.
    {"PrimFuncName", kClassicModule, "def [scale](", Type::kFunction, kDecl},
    {"HandleType", kClassicModule, "a: T.[handle]", Type::kType, kLib},
    {"BufferType", kCurrentModule, "A: T.[Buffer]((4,)", Type::kType, kLib},
    {"BufferDeclaration", kClassicModule, "[A] = T.match_buffer", Type::kBuffer, kDecl},
    {"BufferParamDeclaration", kCurrentModule, "def copy([A]: T.Buffer", Type::kBuffer, kDecl},
    {"BufferReference", kClassicModule, "= [A][vi, vj] *", Type::kBuffer, 0},
    {"Builder", kClassicModule, "T.[match_buffer](a,", Type::kFunction, kLib},
    {"DtypePositional", kClassicModule, "(n, 64), [\"float32\"])\n        B", Type::kDtype, 0},
    {"DtypeKeyword", kClassicModule, "dtype=[\"float32\"])\n        for", Type::kDtype, 0},
    {"DtypeInBufferAnnotation", kCurrentModule, "T.Buffer((4,), [\"float32\"]), B", Type::kDtype, 0},
    {"DtypeName", kClassicModule, "n = T.[int64]()\n        A", Type::kDtype, kLib},
    {"DtypeNameCall", kClassicModule, "T.[float32](2)", Type::kDtype, kLib},
    {"Grid", kClassicModule, "T.[grid](n, 64)", Type::kFunction, kLib},
    {"BlockClassic", kClassicModule, "T.[block](\"s\")", Type::kFunction, kLib},
    {"BlockNameIsNotADtype", kClassicModule, "T.block([\"s\"])", std::nullopt},
    {"SblockCurrent", kCurrentModule, "T.[sblock](\"copy\")", Type::kFunction, kLib},
    {"BlockInCurrentFileUnknown", kCurrentModule, "T.[block](\"old\")", std::nullopt},
    {"AxisNamespace", kClassicModule, "T.[axis].remap", Type::kNamespace, kLib},
    {"AxisFunction", kClassicModule, "T.axis.[remap](", Type::kFunction, kLib},
    // Relax.
    {"RelaxFunctionName", kClassicModule, "def [main](", Type::kFunction, kDecl},
    {"TensorType", kClassicModule, "def main(x: R.[Tensor]", Type::kType, kLib},
    {"ParamDeclaration", kClassicModule, "def main([x]: R.Tensor", Type::kParameter, kDecl},
    {"ParamReference", kClassicModule, "R.matmul([x], w)", Type::kParameter, 0},
    {"SymbolicVarInString", kClassicModule, "def main(x: R.Tensor((\"[n]\", 64)", Type::kSymbolicVar, kDecl | kModReadonly},
    {"SymbolicVarReference", kClassicModule, "R.Tensor(([n], 64), dtype", Type::kSymbolicVar, kModReadonly},
    {"DtypeOfTensorAnnotation", kClassicModule, "def main(x: R.Tensor((\"n\", 64), [\"float32\"])", Type::kDtype, 0},
    {"Operator", kClassicModule, "R.[matmul](x, w)", Type::kFunction, kLib},
    {"SubNamespace", kClassicModule, "R.[nn].relu", Type::kNamespace, kLib},
    {"SubNamespaceOperator", kClassicModule, "R.nn.[relu](", Type::kFunction, kLib},
    {"MemoryNamespace", kCurrentModule, "R.[memory].alloc_storage", Type::kNamespace, kLib},
    {"MemoryOperator", kCurrentModule, "R.memory.[alloc_storage](", Type::kFunction, kLib},
    {"DtypeOfRDtype", kCurrentModule, "R.dtype([\"uint8\"])", Type::kDtype, 0},
    {"StrIsNotADtype", kClassicModule, "R.str([\"float32\"])", std::nullopt},
    {"StrOfAScopeIsNot", kCurrentModule, "R.str([\"global\"])", std::nullopt},
    {"DtypeOfAstype", kClassicModule, "R.astype(lv1, [\"float16\"])", Type::kDtype, 0},
    {"VariableDeclaration", kClassicModule, "[lv1] = R.call_tir", Type::kVariable, kDecl},
    {"VariableReference", kClassicModule, "R.nn.relu([lv1])", Type::kVariable, 0},
    {"ModuleFunctionReference", kClassicModule, "cls.[scale], (lv,)", Type::kFunction, 0},
    {"ModuleAliasItselfNot", kClassicModule, "[cls].scale", std::nullopt},
    {"Dataflow", kClassicModule, "R.[dataflow]()", Type::kFunction, kLib},
    {"Output", kClassicModule, "R.[output](gv)", Type::kFunction, kLib},
    {"AnyCurrent", kCurrentModule, "storage: R.[Any]", Type::kType, kLib},
    {"ObjectDeprecatedInCurrent", kCurrentModule, "old: R.[Object]", Type::kType, kLib | kModDeprecated},
    {"ObjectInClassicNotDeprecated", kClassicModule, "x: R.[Tensor]", Type::kType, kLib},
    {"CommentHasNone", kClassicModule, "# R.[add](x, w)", std::nullopt},
};

void PrintTo(const TokenCase& c, std::ostream* os) { *os << c.name; }

struct Analysed {
  std::string text;
  std::unique_ptr<Document> doc;
  Analyzer analyzer;
  explicit Analysed(std::string t) : text(std::move(t)), doc(std::make_unique<Document>(text)) { analyzer.Run(*doc); }
};

// Sorted, non-overlapping, non-empty, inside the text, one line each.
void ExpectWellFormed(const std::string& text, const std::vector<SemanticToken>& tokens, const std::string& what) {
  uint32_t covered = 0;
  for (const SemanticToken& t : tokens) {
    ASSERT_LT(t.range.begin, t.range.end) << what;
    ASSERT_LE(t.range.end, text.size()) << what;
    ASSERT_GE(t.range.begin, covered) << what << ": overlap or disorder at " << t.range.begin;
    ASSERT_EQ(text.substr(t.range.begin, t.range.size()).find('\n'), std::string::npos) << what;
    ASSERT_LT(static_cast<int>(t.type), kSemanticTokenTypeCount) << what;
    ASSERT_LT(t.modifiers, 1u << kSemanticTokenModifierCount) << what;
    covered = t.range.end;
  }
}

class TokenCases : public ::testing::TestWithParam<TokenCase> {};

TEST_P(TokenCases, Match) {
  const TokenCase& c = GetParam();
  std::string context = c.context;
  size_t open = context.find('[');
  size_t close = context.find(']', open);
  ASSERT_TRUE(open != std::string::npos && close != std::string::npos) << context;
  std::string plain = context.substr(0, open) + context.substr(open + 1, close - open - 1) + context.substr(close + 1);
  Analysed a(c.source);
  size_t at = a.text.find(plain);
  ASSERT_NE(at, std::string::npos) << plain;
  ASSERT_EQ(a.text.find(plain, at + 1), std::string::npos) << "not unique: " << plain;
  TextRange want{static_cast<uint32_t>(at + open), static_cast<uint32_t>(at + close - 1)};
  std::vector<SemanticToken> tokens = SemanticTokens(*a.doc, *a.analyzer.Model());
  ExpectWellFormed(a.text, tokens, c.name);
  const SemanticToken* found = nullptr;
  for (const SemanticToken& t : tokens) {
    if (t.range.begin < want.end && want.begin < t.range.end) found = &t;
  }
  if (!c.type) {
    EXPECT_EQ(found, nullptr) << "a token of type " << SemanticTokenLegend()[static_cast<int>(found->type)].name;
    return;
  }
  ASSERT_NE(found, nullptr) << "no token on " << a.text.substr(want.begin, want.size());
  EXPECT_EQ(found->range, want) << a.text.substr(found->range.begin, found->range.size());
  EXPECT_STREQ(SemanticTokenLegend()[static_cast<int>(found->type)].name,
               SemanticTokenLegend()[static_cast<int>(*c.type)].name);
  EXPECT_EQ(found->modifiers, c.modifiers);
}

INSTANTIATE_TEST_SUITE_P(SemanticTokens, TokenCases, ::testing::ValuesIn(kTokenCases),
                         [](const ::testing::TestParamInfo<TokenCase>& p) { return p.param.name; });

TEST(SemanticTokens, LegendNamesAreDistinctAndFallBackToStandardTypes) {
  static const std::set<std::string> kStandard = {"namespace", "class", "type", "function", "decorator",
                                                  "parameter", "variable", "typeParameter"};
  std::set<std::string> names;
  for (int i = 0; i < kSemanticTokenTypeCount; ++i) {
    EXPECT_TRUE(names.insert(SemanticTokenLegend()[i].name).second) << SemanticTokenLegend()[i].name;
    EXPECT_TRUE(kStandard.count(SemanticTokenLegend()[i].standard)) << SemanticTokenLegend()[i].standard;
  }
  EXPECT_STREQ(SemanticTokenLegend()[static_cast<int>(Type::kDtype)].name, "dtype");
  EXPECT_STREQ(SemanticTokenLegend()[static_cast<int>(Type::kDtype)].standard, "type");
  EXPECT_STREQ(SemanticTokenModifierNames()[2], "defaultLibrary");
}

std::vector<std::string> AllFiles() {
  std::vector<std::string> files = testing::ListFilesRecursive("tests/fixtures", ".py");
  for (const std::string& f : testing::ExampleFiles()) files.push_back(f);
  return files;
}

// On every fixture and example: well formed, and the range variant returns exactly the tokens of
// the full pass that intersect the range.
TEST(SemanticTokens, WellFormedOnEveryFileAndRangesAgree) {
  std::vector<std::string> files = AllFiles();
  ASSERT_GT(files.size(), 10u);
  for (const std::string& path : files) {
    Analysed a(testing::ReadFileOrDie(path));
    std::vector<SemanticToken> all = SemanticTokens(*a.doc, *a.analyzer.Model());
    ExpectWellFormed(a.text, all, path);
    const uint32_t size = static_cast<uint32_t>(a.text.size());
    for (uint32_t k = 0; k < 7; ++k) {
      TextRange range{size * k / 7, size * (k + 2) / 7 + 3};
      std::vector<SemanticToken> part = SemanticTokensInRange(*a.doc, *a.analyzer.Model(), range);
      std::vector<SemanticToken> want;
      for (const SemanticToken& t : all) {
        if (t.range.begin < range.end && range.begin < t.range.end) want.push_back(t);
      }
      ASSERT_EQ(part.size(), want.size()) << path << " range " << range.begin << "-" << range.end;
      for (size_t i = 0; i < part.size(); ++i) {
        EXPECT_EQ(part[i].range, want[i].range) << path;
        EXPECT_EQ(part[i].type, want[i].type) << path;
        EXPECT_EQ(part[i].modifiers, want[i].modifiers) << path;
      }
    }
  }
}

// Broken text: every example cut short at many places, and with half-typed lines inserted. No
// crash, and still well formed.
TEST(SemanticTokens, BrokenInput) {
  const char* const kInserts[] = {"R.nn.(", "\"unclosed", "'''", "T.axis.", "(((", ")]}", "cls.", "#", "\\"};
  for (const std::string& path : testing::ExampleFiles()) {
    std::string text = testing::ReadFileOrDie(path);
    for (size_t k = 1; k <= 24; ++k) {
      size_t cut = text.size() * k / 25;
      Analysed truncated(text.substr(0, cut));
      ExpectWellFormed(truncated.text, SemanticTokens(*truncated.doc, *truncated.analyzer.Model()), path);
      std::string broken = text;
      broken.insert(cut, kInserts[k % (sizeof(kInserts) / sizeof(kInserts[0]))]);
      Analysed b(broken);
      ExpectWellFormed(b.text, SemanticTokens(*b.doc, *b.analyzer.Model()), path);
    }
  }
}

}  // namespace
}  // namespace tvmls::analysis
