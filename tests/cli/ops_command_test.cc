// `tvmls ops`: the list agrees with the registry it prints, and its JSON has the promised shape.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli.h"
#include "ops/registry.h"

namespace tvmls {
namespace {

std::string RunTvmls(const std::vector<std::string>& args, int* code) {
  std::ostringstream out, err;
  *code = server::RunCli(args, out, err);
  return out.str() + err.str();
}

TEST(OpsCommand, JsonListsEveryRowWithItsSpellingsAndInference) {
  int code = -1;
  nlohmann::json all = nlohmann::json::parse(RunTvmls({"ops", "--format", "json"}, &code));
  ASSERT_EQ(code, 0);
  ASSERT_EQ(all.size(), ops::AllOps().size());
  std::set<std::string> names;
  int inferred = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    const nlohmann::json& e = all[i];
    const ops::OpInfo& op = ops::AllOps()[i];
    EXPECT_EQ(e["name"], op.name);
    EXPECT_TRUE(names.insert(e["name"].get<std::string>()).second) << e["name"];
    EXPECT_EQ(e["pure"], op.pure);
    EXPECT_EQ(e["inference"], ops::HasInference(op));
    inferred += e["inference"].get<bool>() ? 1 : 0;
    for (const nlohmann::json& s : e["script"]) {
      std::string spelled = s.get<std::string>();
      ASSERT_EQ(spelled.rfind("R.", 0), 0u) << spelled;
      EXPECT_EQ(ops::FindOp(spelled.substr(2)), &op) << spelled;
    }
    ASSERT_EQ(e["params"].size(), op.params.size());
    for (size_t k = 0; k < op.params.size(); ++k) {
      EXPECT_EQ(e["params"][k]["name"], op.params[k].name);
      EXPECT_EQ(e["params"][k]["default"].is_null(), op.params[k].default_text == nullptr);
    }
  }
  // The ops without inference are the exception: a regression that dropped the inference of
  // many rows shows here.
  EXPECT_GT(inferred, static_cast<int>(all.size()) * 3 / 4);
  const ops::OpInfo* conv = ops::FindOp("nn.conv2d");
  ASSERT_NE(conv, nullptr);
  EXPECT_TRUE(ops::HasInference(*conv));
}

TEST(OpsCommand, TextEndsWithTheCounts) {
  int code = -1;
  std::string text = RunTvmls({"ops"}, &code);
  ASSERT_EQ(code, 0);
  size_t with = 0;
  for (const ops::OpInfo& op : ops::AllOps()) with += ops::HasInference(op) ? 1 : 0;
  EXPECT_NE(text.find(std::to_string(ops::AllOps().size()) + " operators, " + std::to_string(with) + " with inference"),
            std::string::npos)
      << text.substr(text.size() > 200 ? text.size() - 200 : 0);
  EXPECT_NE(text.find("relax.nn.conv2d"), std::string::npos);
}

TEST(OpsCommand, BadArgumentsAreUsageErrors) {
  int code = -1;
  RunTvmls({"ops", "--format", "yaml"}, &code);
  EXPECT_EQ(code, server::kExitUsage);
  RunTvmls({"ops", "file.py"}, &code);
  EXPECT_EQ(code, server::kExitUsage);
  RunTvmls({"infer"}, &code);
  EXPECT_EQ(code, server::kExitUsage);
  RunTvmls({"infer", "/nonexistent/file.py"}, &code);
  EXPECT_EQ(code, server::kExitUsage);
}

}  // namespace
}  // namespace tvmls
