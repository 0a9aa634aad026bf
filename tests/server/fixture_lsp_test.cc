// The fixtures (tests/fixtures/**/*.py, expectations inline: tests/support/fixture.h) checked
// through the language server: each is opened over LSP and the published diagnostics, converted
// back from UTF-16 positions to code-point columns, must match the expectations exactly, as for
// the engine and `tvmls check` (tests/analysis/fixture_test.cc). The query markers (hover,
// definition, references, highlight, rename, annotate) are asked as LSP requests and must give
// what they state, as Fixture.Queries checks them on the analysis API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>

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

// Code counts of a publishDiagnostics.
std::map<std::string, int> CodeCounts(const json& published) {
  std::map<std::string, int> counts;
  for (const json& d : published["diagnostics"]) ++counts[d.value("code", "")];
  return counts;
}

TEST_P(LspFixture, QueryMarkersHoldThroughLsp) {
  std::string path = RelativePath(GetParam());
  std::string text = ReadFileOrDie(GetParam());
  std::vector<QueryExpectation> queries;
  try {
    queries = ParseQueries(text);
  } catch (const std::runtime_error& e) {
    FAIL() << path << ": malformed query: " << e.what();
  }
  if (queries.empty()) return;
  LspSession session;
  const std::string uri = "file://" + GetParam();
  session.Open(uri, text);
  std::optional<json> published = session.Diagnostics(uri);
  ASSERT_TRUE(published);
  analysis::LineIndex lines(text);
  // Marker lines and columns are code points; LSP's are UTF-16 units.
  auto utf16 = [&](uint32_t line, uint32_t column) {
    std::optional<uint32_t> offset =
        lines.ToOffset(text, {line, column}, analysis::Encoding::kUtf32);
    EXPECT_TRUE(offset.has_value());
    analysis::Position p = lines.ToPosition(text, offset.value_or(0), analysis::Encoding::kUtf16);
    return json{{"line", p.line}, {"character", p.column}};
  };
  auto code_points = [&](const json& position) {
    return lines.ToPosition(text, OffsetOf(text, position), analysis::Encoding::kUtf32);
  };
  int reopened = 0;
  // Opens `changed` as a new document: its diagnostics must not add any code.
  auto nothing_new = [&](const std::string& changed, const std::string& at) {
    std::string other = "file:///work/changed" + std::to_string(++reopened) + ".py";
    session.Open(other, changed);
    std::optional<json> after = session.Diagnostics(other);
    ASSERT_TRUE(after) << at;
    std::map<std::string, int> before_counts = CodeCounts(*published);
    for (const auto& [code, n] : CodeCounts(*after)) {
      EXPECT_LE(n, before_counts[code]) << at << "the edit introduces " << code;
    }
    session.Close(other);
  };
  for (const QueryExpectation& q : queries) {
    std::string at = path + ":" + std::to_string(q.expectation_line + 1) + ": ";
    json params = {{"textDocument", {{"uri", uri}}}, {"position", utf16(q.line, q.column)}};
    switch (q.kind) {
      case QueryExpectation::Kind::kHover:
      case QueryExpectation::Kind::kNoHover: {
        std::optional<json> r = session.Request("textDocument/hover", params);
        ASSERT_TRUE(r) << at;
        const json& result = (*r)["result"];
        if (q.kind == QueryExpectation::Kind::kNoHover) {
          EXPECT_TRUE(result.is_null()) << at << "unexpected hover " << result.dump();
        } else {
          ASSERT_TRUE(result.is_object()) << at << "no hover";
          std::string value = result["contents"]["value"];
          EXPECT_NE(value.find(q.text), std::string::npos) << at << "hover is " << value;
        }
        break;
      }
      case QueryExpectation::Kind::kDefinition: {
        std::optional<json> r = session.Request("textDocument/definition", params);
        ASSERT_TRUE(r) << at;
        const json& result = (*r)["result"];
        ASSERT_EQ(result.size(), 1u) << at << result.dump();
        analysis::Position p = code_points(result[0]["range"]["start"]);
        EXPECT_EQ(std::make_pair(p.line, p.column), std::make_pair(q.target_line, q.target_column))
            << at << result.dump();
        break;
      }
      case QueryExpectation::Kind::kReferences: {
        params["context"] = {{"includeDeclaration", true}};
        std::optional<json> r = session.Request("textDocument/references", params);
        ASSERT_TRUE(r) << at;
        EXPECT_EQ((*r)["result"].size(), q.count) << at << (*r)["result"].dump();
        break;
      }
      case QueryExpectation::Kind::kHighlight: {
        std::optional<json> r = session.Request("textDocument/documentHighlight", params);
        ASSERT_TRUE(r) << at;
        EXPECT_EQ((*r)["result"].size(), q.count) << at << (*r)["result"].dump();
        break;
      }
      case QueryExpectation::Kind::kRename: {
        params["newName"] = q.new_name;
        std::optional<json> r = session.Request("textDocument/rename", params);
        ASSERT_TRUE(r) << at;
        if (q.refused) {
          ASSERT_TRUE(r->contains("error")) << at << "rename accepted: " << r->dump();
          EXPECT_EQ((*r)["error"]["code"], -32803) << at;
          std::string message = (*r)["error"]["message"];
          EXPECT_NE(message.find(q.text), std::string::npos) << at << "the reason is " << message;
          break;
        }
        ASSERT_TRUE(r->contains("result")) << at << r->dump();
        const json& edits = (*r)["result"]["changes"][uri];
        EXPECT_EQ(edits.size(), q.count) << at << edits.dump();
        nothing_new(ApplyTextEdits(text, edits), at);
        break;
      }
      case QueryExpectation::Kind::kNoRename: {
        std::optional<json> r = session.Request("textDocument/prepareRename", params);
        ASSERT_TRUE(r) << at;
        ASSERT_TRUE(r->contains("error")) << at << "prepareRename accepted: " << r->dump();
        std::string message = (*r)["error"]["message"];
        EXPECT_NE(message.find(q.text), std::string::npos) << at << "the reason is " << message;
        break;
      }
      case QueryExpectation::Kind::kAnnotate:
      case QueryExpectation::Kind::kNoAnnotate: {
        json action_params = {{"textDocument", {{"uri", uri}}},
                              {"range", {{"start", params["position"]}, {"end", params["position"]}}},
                              {"context", {{"diagnostics", json::array()},
                                           {"only", {"refactor.rewrite"}}}}};
        std::optional<json> r = session.Request("textDocument/codeAction", action_params);
        ASSERT_TRUE(r) << at;
        const json& actions = (*r)["result"];
        if (q.kind == QueryExpectation::Kind::kNoAnnotate) {
          EXPECT_TRUE(actions.empty()) << at << actions.dump();
          break;
        }
        ASSERT_EQ(actions.size(), 1u) << at << actions.dump();
        const json& edits = actions[0]["edit"]["changes"][uri];
        ASSERT_EQ(edits.size(), 1u) << at;
        std::string inserted = edits[0]["newText"];
        EXPECT_NE(inserted.find(q.text), std::string::npos) << at << "inserts " << inserted;
        nothing_new(ApplyTextEdits(text, edits), at);
        break;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(All, LspFixture,
                         ::testing::ValuesIn(ListFilesRecursive("tests/fixtures", ".py")),
                         TestName);

}  // namespace
}  // namespace tvmls::testing
