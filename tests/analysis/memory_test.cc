// What the analysis keeps per function, in sizes and counts (never RSS or timings: those belong
// to tests/stress/ and bench/).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "analysis.h"
#include "model/model.h"
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

}  // namespace
}  // namespace tvmls::analysis
