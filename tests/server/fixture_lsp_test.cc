// The fixtures (tests/fixtures/**/*.py, expectations inline: tests/support/fixture.h) checked
// through the language server: each is opened over LSP and the published diagnostics, converted
// back from UTF-16 positions to code-point columns, must match the expectations exactly, as for
// the engine and `tvmls check` (tests/analysis/fixture_test.cc).
#include <gtest/gtest.h>

#include <cctype>

#include "lsp_session.h"
#include "support/files.h"
#include "support/fixture.h"

namespace tvmls::testing {
namespace {

std::string RelativePath(const std::string& absolute) {
  std::string root = SourcePath("");
  return absolute.rfind(root, 0) == 0 ? absolute.substr(root.size()) : absolute;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = RelativePath(info.param);
  const std::string prefix = "tests/fixtures/";
  if (name.rfind(prefix, 0) == 0) name = name.substr(prefix.size());
  if (name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0) name.resize(name.size() - 3);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

const char* SeverityName(int severity) {
  switch (severity) {
    case 1: return "error";
    case 2: return "warning";
    case 3: return "information";
    case 4: return "hint";
  }
  return "?";
}

class LspFixture : public ::testing::TestWithParam<std::string> {};

TEST_P(LspFixture, PublishedDiagnosticsMatchTheExpectations) {
  std::string path = RelativePath(GetParam());
  std::string text = ReadFileOrDie(GetParam());
  std::vector<Expectation> expectations;
  try {
    expectations = ParseExpectations(text);
  } catch (const std::runtime_error& e) {
    FAIL() << path << ": malformed expectation: " << e.what();
  }
  LspSession session;
  const std::string uri = "file://" + GetParam();
  session.Open(uri, text, 3);
  std::optional<json> published = session.Diagnostics(uri);
  ASSERT_TRUE(published) << "no publishDiagnostics for " << path;
  EXPECT_EQ((*published)["version"], 3);

  analysis::LineIndex lines(text);
  auto position = [&](const json& p) {
    return lines.ToPosition(text, OffsetOf(text, p), analysis::Encoding::kUtf32);
  };
  std::vector<ActualDiagnostic> actual;
  for (const json& d : (*published)["diagnostics"]) {
    analysis::Position b = position(d["range"]["start"]);
    analysis::Position e = position(d["range"]["end"]);
    actual.push_back({b.line, b.column, e.line, e.column, SeverityName(d["severity"].get<int>()),
                      d.value("code", ""), d["message"].get<std::string>()});
    EXPECT_EQ(d["source"], "tvmls");
    for (const json& r : d.value("relatedInformation", json::array())) {
      EXPECT_EQ(r["location"]["uri"], uri);
      OffsetOf(text, r["location"]["range"]["start"]);
      OffsetOf(text, r["location"]["range"]["end"]);
    }
  }
  for (const std::string& problem : Compare(path, expectations, actual)) ADD_FAILURE() << problem;
}

INSTANTIATE_TEST_SUITE_P(All, LspFixture,
                         ::testing::ValuesIn(ListFilesRecursive("tests/fixtures", ".py")),
                         TestName);

}  // namespace
}  // namespace tvmls::testing
