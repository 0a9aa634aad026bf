// Typing a call one character at a time through the server, as an editor sends it: one
// incremental didChange per character, then signatureHelp and completion at the cursor. Every
// intermediate answer is checked (tests/analysis/typing_test.cc has the same at the analysis
// layer, for more calls).
#include <gtest/gtest.h>

#include <string>

#include "lsp_session.h"

namespace tvmls::testing {
namespace {

constexpr const char* kUri = "file:///typing/module.py";

constexpr const char* kModule = R"(from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Mod:
    @R.function
    def main(x: R.Tensor((1, 64), "float32")) -> R.Tensor((1, 64), "float32"):
        with R.dataflow():
            lv = R.add(x, x)
            
            R.output(lv)
        return lv
)";

TEST(LspTyping, SignatureHelpAtEveryCharacterOfAnUnclosedCall) {
  // Typed on line 10 (0-based), after the indentation; one answer character per typed character
  // (`.`: no signature help; `d`/`a`: the active parameter `data` / `axis=-1`).
  const std::string typed = "lv1 = R.nn.softmax(lv, axis=-1)";
  const std::string answer = "..................dddaaaaaaaaa.";
  ASSERT_EQ(typed.size(), answer.size());
  LspSession s;
  s.Open(kUri, kModule);
  ASSERT_TRUE(s.Diagnostics(kUri));
  const uint32_t line = 10, indent = 12;
  for (size_t k = 0; k < typed.size(); ++k) {
    uint32_t col = indent + static_cast<uint32_t>(k);
    json range = {{"start", {{"line", line}, {"character", col}}},
                  {"end", {{"line", line}, {"character", col}}}};
    s.Change(kUri, static_cast<int64_t>(k + 2),
             json::array({{{"range", range}, {"text", std::string(1, typed[k])}}}));
    std::string where = "after `" + typed.substr(0, k + 1) + "`";
    std::optional<json> r = s.Request("textDocument/signatureHelp", LspSession::At(kUri, line, col + 1));
    ASSERT_TRUE(r.has_value()) << where;
    ASSERT_TRUE(r->contains("result")) << where << ": " << r->dump();
    const json& help = (*r)["result"];
    if (answer[k] == '.') {
      EXPECT_TRUE(help.is_null()) << where << ": " << help.dump();
      continue;
    }
    ASSERT_TRUE(help.is_object()) << where << ": no signature help";
    const json& sig = help["signatures"][0];
    EXPECT_EQ(sig["label"], "R.nn.softmax(data, axis=-1)") << where;
    ASSERT_TRUE(help.contains("activeParameter")) << where;
    int active = help["activeParameter"].get<int>();
    EXPECT_EQ(active, answer[k] == 'd' ? 0 : 1) << where;
    // Right after `, `: the keyword arguments not given yet are offered.
    if (typed.substr(0, k + 1) == "lv1 = R.nn.softmax(lv, ") {
      std::optional<json> c = s.Request("textDocument/completion", LspSession::At(kUri, line, col + 1));
      ASSERT_TRUE(c.has_value());
      bool offered = false;
      const json& result = (*c)["result"];
      const json& items = result.is_object() ? result["items"] : result;
      for (const json& item : items) offered = offered || item["label"] == "axis=";
      EXPECT_TRUE(offered) << where << ": completion lacks axis=";
    }
  }
}

}  // namespace
}  // namespace tvmls::testing
