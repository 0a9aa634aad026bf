// Editor queries over the model: hover, definition, references, outline, on one module; each
// case places the cursor by searching the source for a token.
#include <gtest/gtest.h>

#include "analysis.h"
#include "query/queries.h"

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
                out[vi, vj] = T.max(inp[vi, vj], T.float32(0))

    @R.function
    def main(x: R.Tensor((1, 64), "float32")) -> R.Tensor((1, 64), "float32"):
        cls = Mod
        with R.dataflow():
            lv = R.add(x, x)
            gv = R.call_tir(cls.relu, (lv,), out_sinfo=R.Tensor((1, 64), dtype="float32"))
            R.output(gv)
        return gv
)";

struct Analysed {
  std::string text;
  std::unique_ptr<Document> doc;
  Analyzer analyzer;
  explicit Analysed(const std::string& t) : text(t), doc(std::make_unique<Document>(t)) { analyzer.Run(*doc); }
  uint32_t At(const std::string& needle, size_t occurrence = 0) const {
    size_t pos = 0;
    for (size_t k = 0;; ++k) {
      pos = text.find(needle, k == 0 ? 0 : pos + 1);
      EXPECT_NE(pos, std::string::npos) << needle;
      if (pos == std::string::npos || k == occurrence) break;
    }
    return static_cast<uint32_t>(pos);
  }
  std::string Slice(TextRange r) const { return text.substr(r.begin, r.size()); }
};

TEST(Query, HoverShowsInferredStructInfoOfAVariable) {
  Analysed a(kModule);
  auto h = HoverAt(*a.analyzer.Model(), a.At("lv,)"));
  ASSERT_TRUE(h.has_value());
  EXPECT_EQ(h->text, "lv: R.Tensor((1, 64), dtype=\"float32\")");
  EXPECT_EQ(a.Slice(h->range), "lv");
}

TEST(Query, HoverOnCalleeShowsThePrimFuncSignature) {
  Analysed a(kModule);
  auto h = HoverAt(*a.analyzer.Model(), a.At("cls.relu") + 5);
  ASSERT_TRUE(h.has_value());
  EXPECT_NE(h->text.find("inp: T.Buffer((1, 64), \"float32\")"), std::string::npos) << h->text;
}

TEST(Query, DefinitionOfModuleFunctionReferenceIsItsName) {
  Analysed a(kModule);
  auto defs = DefinitionAt(*a.analyzer.Model(), a.At("cls.relu") + 5);
  ASSERT_EQ(defs.size(), 1u);
  EXPECT_EQ(defs[0].begin, a.At("relu(inp"));
}

TEST(Query, ReferencesOfAVariableStartWithItsDefinition) {
  Analysed a(kModule);
  auto refs = ReferencesAt(*a.analyzer.Model(), a.At("gv", 1), /*include_definition=*/true);
  ASSERT_EQ(refs.size(), 3u);  // the binding, R.output(gv), return gv
  EXPECT_EQ(refs[0].begin, a.At("gv ="));
  for (TextRange r : refs) EXPECT_EQ(a.Slice(r), "gv");
}

TEST(Query, OutlineListsModuleThenFunctions) {
  Analysed a(kModule);
  auto outline = Outline(*a.analyzer.Model());
  ASSERT_EQ(outline.size(), 1u);
  EXPECT_EQ(outline[0].name, "Mod");
  ASSERT_EQ(outline[0].children.size(), 2u);
  EXPECT_EQ(outline[0].children[0].name, "relu");
  EXPECT_EQ(outline[0].children[1].name, "main");
  EXPECT_EQ(a.Slice(outline[0].children[1].selection), "main");
}

}  // namespace
}  // namespace tvmls::analysis
