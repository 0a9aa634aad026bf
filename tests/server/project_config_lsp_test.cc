// The language server reads the project configuration (tvmls.toml / pyproject.toml [tool.tvmls])
// of each document's folder, lets the client's settings override it, reports a broken file on
// that file, and re-reads it when the client says it changed (workspace/didChangeWatchedFiles)
// or at the next edit.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "lsp_convert.h"
#include "lsp_session.h"

namespace tvmls::testing {
namespace {

namespace fs = std::filesystem;

constexpr const char* kModule = R"(from tvm.script import ir as I
from tvm.script import relax as R


@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((8,), dtype="float32") = R.add(x, x)
        return y
)";

// A project folder with `module.py`, and its file:// URI.
struct Project {
  fs::path root;
  std::string uri;
  explicit Project(const std::string& name) {
    root = fs::path(::testing::TempDir()) / ("tvmls-lsp-config-" + name);
    fs::remove_all(root);
    fs::create_directories(root);
    std::ofstream(root / "module.py") << kModule;
    uri = server::FileUri((root / "module.py").string());
  }
  ~Project() { fs::remove_all(root); }
  void Write(const std::string& name, const std::string& text) const {
    std::ofstream(root / name, std::ios::trunc) << text;
  }
};

std::vector<std::string> Severities(const json& params) {
  std::vector<std::string> out;
  for (const json& d : params["diagnostics"]) {
    out.push_back(d["code"].get<std::string>() + "=" + std::to_string(d["severity"].get<int>()));
  }
  return out;
}

TEST(ProjectConfigLsp, SeveritiesComeFromTheNearestConfiguration) {
  Project p("nearest");
  LspSession plain;
  plain.Open(p.uri, kModule);
  std::optional<json> d = plain.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=1", "return-annotation-mismatch=3"}));

  p.Write("pyproject.toml",
          "[tool.tvmls.severity]\nshape-mismatch = \"information\"\n"
          "return-annotation-mismatch = \"warning\"\n");
  LspSession configured;
  configured.Open(p.uri, kModule);
  d = configured.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=3", "return-annotation-mismatch=2"}));
}

TEST(ProjectConfigLsp, ClientSettingsOverrideTheConfiguration) {
  Project p("override");
  p.Write("tvmls.toml", "[severity]\nshape-mismatch = \"off\"\nreturn-annotation-mismatch = \"off\"\n");
  LspSession s(json{{"debounceMs", 0},
                    {"severity", {{"shape-mismatch", "hint"}, {"return-annotation-mismatch", "hint"}}}});
  s.Open(p.uri, kModule);
  std::optional<json> d = s.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=4", "return-annotation-mismatch=4"}));
}

TEST(ProjectConfigLsp, BrokenConfigurationIsReportedOnItsFileAndClearedWhenFixed) {
  Project p("broken");
  p.Write("tvmls.toml",
          "era = \"modern\"\n[severity]\nshape-mismatch = \"off\"\nreturn-annotation-mismatch = \"off\"\n");
  std::string config_uri = server::FileUri((p.root / "tvmls.toml").string());
  LspSession s;
  s.Open(p.uri, kModule);
  std::optional<json> config = s.Diagnostics(config_uri);
  ASSERT_TRUE(config);
  ASSERT_EQ((*config)["diagnostics"].size(), 1u) << config->dump();
  const json& problem = (*config)["diagnostics"][0];
  EXPECT_EQ(problem["code"], "invalid-config");
  EXPECT_EQ(problem["range"]["start"], (json{{"line", 0}, {"character", 6}}));
  EXPECT_NE(problem["message"].get<std::string>().find("era"), std::string::npos);
  // The right keys still apply: both codes are off.
  std::optional<json> d = s.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_TRUE((*d)["diagnostics"].empty()) << d->dump();

  // Fixed on disk and announced: the file's diagnostics are cleared, the module re-analysed.
  p.Write("tvmls.toml",
          "era = \"classic\"\n[severity]\nshape-mismatch = \"warning\"\n"
          "return-annotation-mismatch = \"warning\"\n");
  s.client().SendNotification(
      "workspace/didChangeWatchedFiles",
      {{"changes", json::array({{{"uri", config_uri}, {"type", 2}}})}});
  config = s.Diagnostics(config_uri);
  ASSERT_TRUE(config);
  EXPECT_TRUE((*config)["diagnostics"].empty()) << config->dump();
  d = s.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=2", "return-annotation-mismatch=2"}));
}

TEST(ProjectConfigLsp, AnEditPicksUpAChangedConfigurationWithoutANotification) {
  Project p("edit");
  LspSession s;
  s.Open(p.uri, kModule);
  std::optional<json> d = s.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=1", "return-annotation-mismatch=3"}));
  p.Write("tvmls.toml", "[severity]\nshape-mismatch = \"hint\"\nreturn-annotation-mismatch = \"hint\"\n");
  s.Change(p.uri, 2, json::array({{{"text", std::string(kModule) + "\n"}}}));
  d = s.Diagnostics(p.uri);
  ASSERT_TRUE(d);
  EXPECT_EQ(Severities(*d),
            (std::vector<std::string>{"shape-mismatch=4", "return-annotation-mismatch=4"}));
}

TEST(ProjectConfigLsp, UrisOfOtherSchemesHaveNoConfiguration) {
  EXPECT_EQ(server::FilePathOfUri("untitled:Untitled-1"), "");
  EXPECT_EQ(server::FilePathOfUri("file:///a%20b/c.py"), "/a b/c.py");
  EXPECT_EQ(server::FilePathOfUri("file://host/x.py"), "/x.py");
  EXPECT_EQ(server::FilePathOfUri(server::FileUri("/w/ü #1.py")), "/w/ü #1.py");
}

}  // namespace
}  // namespace tvmls::testing
