// The preview over LSP: a large opened file gets the diagnostics of its first statements first
// (analysis/preview.h), exactly as the whole file's publication then has them, with the
// session's severities; a small file, a client that pulls, and a file whose first statements
// depend on the rest get no preview.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lsp_session.h"

namespace tvmls::testing {
namespace {

const char* const kUri = "file:///work/large.py";

std::string PrimFunc(const std::string& name, const std::string& value) {
  return "@T.prim_func\ndef " + name + "(A: T.Buffer((4,), \"float32\")):\n    A[0] = " + value + "\n\n\n";
}

// Over 256 KB: an undefined name in the second function and in the last, clean ones between.
std::string LargeText(const std::string& late_binding = "") {
  std::string text = "from tvm.script import ir as I\nfrom tvm.script import tir as T\n\n\n";
  text += PrimFunc("first", "T.float32(0)");
  text += PrimFunc("early", "early_undefined");
  for (int i = 0; text.size() < 300 * 1024; ++i) text += PrimFunc("f" + std::to_string(i), "T.float32(1)");
  text += PrimFunc("late", "late_undefined");
  return text + late_binding;
}

std::vector<std::string> Messages(const json& publish) {
  std::vector<std::string> out;
  for (const json& d : publish["diagnostics"]) out.push_back(d["message"].get<std::string>());
  return out;
}

bool Mentions(const json& publish, const std::string& word) {
  for (const std::string& m : Messages(publish)) {
    if (m.find(word) != std::string::npos) return true;
  }
  return false;
}

TEST(PreviewLsp, ALargeFileGetsItsFirstStatementsDiagnosticsFirst) {
  LspSession s(json{{"debounceMs", 0}, {"severity", {{"undefined-name", "warning"}}}});
  s.Open(kUri, LargeText(), 3);
  std::optional<json> first = s.Diagnostics(kUri);
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["version"], 3);
  ASSERT_TRUE(Mentions(*first, "early_undefined")) << first->dump();
  EXPECT_FALSE(Mentions(*first, "late_undefined"));
  std::optional<json> whole = s.Diagnostics(kUri);
  ASSERT_TRUE(whole);
  EXPECT_EQ((*whole)["version"], 3);
  EXPECT_TRUE(Mentions(*whole, "late_undefined"));
  // The preview's diagnostics are the whole file's first ones, to the byte of their JSON.
  const json& early = (*first)["diagnostics"];
  ASSERT_LE(early.size(), (*whole)["diagnostics"].size());
  for (size_t i = 0; i < early.size(); ++i) EXPECT_EQ(early[i], (*whole)["diagnostics"][i]);
  EXPECT_EQ(early[0]["severity"], 2);  // the session's severity
  // Nothing more: the two publications were all.
  for (const json& m : s.Drain(kUri)) {
    EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics") << m.dump();
  }
}

TEST(PreviewLsp, ADumpOfOneModuleGetsItsFirstFunctionsDiagnosticsFirst) {
  // `mod.show()` prints one class: the preview cuts between its functions.
  std::string text = "# from tvm.script import ir as I\n# from tvm.script import tir as T\n\n@I.ir_module\nclass Module:\n";
  auto method = [](const std::string& name, const std::string& value) {
    return "    @T.prim_func(private=True)\n    def " + name + "(A: T.Buffer((4,), \"float32\")):\n        A[0] = " +
           value + "\n\n";
  };
  text += method("early", "early_undefined");
  for (int i = 0; text.size() < 300 * 1024; ++i) text += method("f" + std::to_string(i), "T.float32(1)");
  text += method("late", "late_undefined");
  LspSession s;
  s.Open(kUri, text);
  std::optional<json> first = s.Diagnostics(kUri);
  ASSERT_TRUE(first);
  EXPECT_TRUE(Mentions(*first, "early_undefined")) << first->dump();
  EXPECT_FALSE(Mentions(*first, "late_undefined"));
  std::optional<json> whole = s.Diagnostics(kUri);
  ASSERT_TRUE(whole);
  EXPECT_TRUE(Mentions(*whole, "late_undefined"));
  ASSERT_FALSE((*first)["diagnostics"].empty());
  EXPECT_EQ((*first)["diagnostics"][0], (*whole)["diagnostics"][0]);
}

TEST(PreviewLsp, NoPreviewWhenItCouldBeWrongOrIsNotNeeded) {
  {
    // `early_undefined` is bound at the end: the early function's diagnostics depend on it.
    LspSession s;
    s.Open(kUri, LargeText("early_undefined = 1.0\n"));
    // The preview stops before that function: its statement before has no diagnostic.
    std::optional<json> d = s.Diagnostics(kUri);
    ASSERT_TRUE(d);
    EXPECT_TRUE((*d)["diagnostics"].empty()) << d->dump();
    d = s.Diagnostics(kUri);
    ASSERT_TRUE(d);
    EXPECT_TRUE(Mentions(*d, "late_undefined"));
    EXPECT_FALSE(Mentions(*d, "early_undefined"));
  }
  {
    // A small file: one publication.
    LspSession s;
    std::string small = "from tvm.script import tir as T\n\n\n" + PrimFunc("early", "early_undefined");
    s.Open(kUri, small);
    std::optional<json> d = s.Diagnostics(kUri);
    ASSERT_TRUE(d);
    EXPECT_TRUE(Mentions(*d, "early_undefined"));
    for (const json& m : s.Drain(kUri)) EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics");
  }
  {
    // A client that pulls gets its report whole, and nothing pushed.
    LspSession s(json{{"debounceMs", 0}},
                 json{{"textDocument", {{"diagnostic", {{"dynamicRegistration", false}}}}}});
    s.Open(kUri, LargeText());
    std::optional<json> r = s.Request("textDocument/diagnostic", {{"textDocument", {{"uri", kUri}}}});
    ASSERT_TRUE(r);
    json report{{"diagnostics", (*r)["result"].value("items", json::array())}};
    EXPECT_TRUE(Mentions(report, "late_undefined")) << r->dump().substr(0, 400);
    for (const json& m : s.Drain(kUri)) EXPECT_NE(m.value("method", ""), "textDocument/publishDiagnostics");
  }
}

}  // namespace
}  // namespace tvmls::testing
