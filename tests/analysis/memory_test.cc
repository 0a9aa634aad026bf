// What the analysis keeps per function, in sizes and counts (never RSS or timings: those belong
// to tests/stress/ and bench/).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis.h"
#include "model/model.h"
#include "query/semantic_tokens.h"
#include "support/files.h"
#include "syntax/document.h"

namespace tvmls::analysis {
namespace {

// Every lowered model's vectors hold what they use and no more (model/lower.h, CompactModel):
// thousands of models live as long as their functions' text, and spare capacity from push_back
// was 3.7 MB of the 100k-line real file's analysis.
TEST(Memory, LoweredModelsKeepNoSpareCapacity) {
  std::string all;
  for (const std::string& f : testing::ExampleFiles()) all += testing::ReadFileOrDie(f) + "\n\n";
  Document doc(all);
  Analyzer analyzer;
  analyzer.Run(doc);
  const FileModel* model = analyzer.Model();
  ASSERT_NE(model, nullptr);
  int functions = 0;
  size_t hovers = 0, symbols = 0;
  auto check = [&](const FunctionRef& r) {
    const FunctionModel& fn = *r.fn;
    ++functions;
    hovers += fn.hovers.size();
    symbols += fn.symbols.size();
    EXPECT_EQ(fn.hovers.capacity(), fn.hovers.size()) << fn.name;
    EXPECT_EQ(fn.symbols.capacity(), fn.symbols.size()) << fn.name;
    for (const Symbol& s : fn.symbols) {
      EXPECT_EQ(s.references.capacity(), s.references.size()) << fn.name << " " << s.name;
    }
    EXPECT_EQ(fn.inlays.capacity(), fn.inlays.size()) << fn.name;
    EXPECT_EQ(fn.diagnostics.capacity(), fn.diagnostics.size()) << fn.name;
    EXPECT_EQ(fn.calls.capacity(), fn.calls.size()) << fn.name;
  };
  for (const ModuleModel& m : model->modules) {
    for (const FunctionRef& r : m.functions) check(r);
  }
  for (const FunctionRef& r : model->standalone) check(r);
  // The examples have functions with hovers and symbols, so the loop above checked something.
  EXPECT_GT(functions, 10);
  EXPECT_GT(hovers, 100u);
  EXPECT_GT(symbols, 100u);
}

// The semantic tokens tracker remembers the last model's functions to tell which are new, but
// does not keep them alive: after a round that re-lowered most of a 100k-line file (and limbo let
// the old results go), the old models (about 40 MB) stayed held by it until the next tokens
// request. And models freed and replaced are still seen as changed: the tokens after the update
// equal those computed afresh.
TEST(Memory, SemanticTokenTrackerKeepsNoModel) {
  const std::string text =
      "from tvm.script import relax as R\n\n"
      "@R.function\n"
      "def main(x: R.Tensor((2, 3), \"float32\")):\n"
      "    y = R.add(x, x)\n"
      "    return y\n";
  Document doc(text);
  SemanticTokenTracker tracker;
  std::weak_ptr<const FunctionModel> before;
  {
    Analyzer analyzer;
    analyzer.Run(doc);
    ASSERT_NE(analyzer.Model(), nullptr);
    ASSERT_EQ(analyzer.Model()->standalone.size(), 1u);
    tracker.Update(doc, *analyzer.Model());
    before = analyzer.Model()->standalone[0].fn;
  }
  EXPECT_TRUE(before.expired());
  // `y` renamed `z` in both places, and analysed by another analyzer: every model is new.
  size_t y = text.find("y = ");
  size_t ret = text.find("return y") + 7;
  ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{static_cast<uint32_t>(ret), static_cast<uint32_t>(ret + 1), "z"},
                                                  {static_cast<uint32_t>(y), static_cast<uint32_t>(y + 1), "z"}})
                  .ok);
  Analyzer analyzer;
  analyzer.Run(doc);
  ASSERT_NE(analyzer.Model(), nullptr);
  tracker.Update(doc, *analyzer.Model());
  std::vector<SemanticToken> fresh = SemanticTokens(doc, *analyzer.Model());
  ASSERT_GT(fresh.size(), 3u);
  ASSERT_EQ(tracker.Tokens().size(), fresh.size());
  for (size_t i = 0; i < fresh.size(); ++i) {
    EXPECT_EQ(tracker.Tokens()[i].range, fresh[i].range) << i;
    EXPECT_EQ(tracker.Tokens()[i].type, fresh[i].type) << i;
    EXPECT_EQ(tracker.Tokens()[i].modifiers, fresh[i].modifiers) << i;
  }
}

// The tracker's tokens live as long as the document's tokens state: they keep no spare room from
// being computed (Normalize) or from tokens inserted by an edit (a vector's doubling was 4 MB
// more at 100k lines).
TEST(Memory, SemanticTokensKeepLittleSpareCapacity) {
  std::string all;
  for (const std::string& f : testing::ExampleFiles()) all += testing::ReadFileOrDie(f) + "\n\n";
  Document doc(all);
  Analyzer analyzer;
  analyzer.Run(doc);
  ASSERT_NE(analyzer.Model(), nullptr);
  SemanticTokenTracker tracker;
  tracker.Update(doc, *analyzer.Model());
  size_t before = tracker.Tokens().size();
  ASSERT_GT(before, 1000u);
  EXPECT_EQ(tracker.Tokens().capacity(), before);
  // Words typed at the end of a function's line add tokens.
  size_t at = doc.Text().find("\n", doc.Text().find("return ")) ;
  ASSERT_NE(at, std::string::npos);
  ASSERT_TRUE(doc.ApplyEdits(std::vector<ByteEdit>{{static_cast<uint32_t>(at), static_cast<uint32_t>(at), " + T.int32(1) + T.int32(2)"}}).ok);
  analyzer.Run(doc);
  ASSERT_NE(analyzer.Model(), nullptr);
  tracker.Update(doc, *analyzer.Model());
  ASSERT_GT(tracker.Tokens().size(), before);
  EXPECT_LE(tracker.Tokens().capacity(), tracker.Tokens().size() + tracker.Tokens().size() / 32);
}

}  // namespace
}  // namespace tvmls::analysis
