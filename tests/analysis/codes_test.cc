// The table of diagnostic codes (analysis/check/codes.h) against what the fixtures expect, what the
// analysis sources emit and what README.md documents.
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "check/codes.h"
#include "support/files.h"
#include "support/fixture.h"

namespace tvmls::testing {
namespace {

TEST(DiagnosticCodes, AreKebabCaseAndUnique) {
  std::set<std::string> seen;
  const std::regex kebab("[a-z]+(-[a-z]+)*");
  for (const analysis::CodeInfo& info : analysis::DiagnosticCodes()) {
    EXPECT_TRUE(std::regex_match(info.code, kebab)) << info.code;
    EXPECT_TRUE(seen.insert(info.code).second) << "twice: " << info.code;
    EXPECT_EQ(analysis::FindCode(info.code), &info);
  }
  EXPECT_EQ(analysis::FindCode("no-such-code"), nullptr);
}

TEST(DiagnosticCodes, EveryExpectedCodeIsInTheTable) {
  int checked = 0;
  for (const std::string& path : ListFilesRecursive("tests/fixtures", ".py")) {
    for (const Expectation& e : ParseExpectations(ReadFileOrDie(path))) {
      EXPECT_NE(analysis::FindCode(e.code), nullptr) << path << ": " << e.code;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100);
}

// Codes are string literals in the analysis sources (`d.code = "x-y"`): every row must occur in
// some source, a row nobody emits being dead documentation.
TEST(DiagnosticCodes, MatchWhatTheSourcesEmit) {
  std::set<std::string> in_sources;
  const std::regex literal("\"([a-z]+(-[a-z]+)+)\"");
  std::vector<std::string> sources = ListFilesRecursive("analysis", ".cc");
  for (const std::string& path : ListFilesRecursive("server", ".cc")) sources.push_back(path);
  for (const std::string& path : sources) {
    if (path.find("check/codes.cc") != std::string::npos) continue;
    std::string text = ReadFileOrDie(path);
    for (std::sregex_iterator it(text.begin(), text.end(), literal), end; it != end; ++it) {
      in_sources.insert((*it)[1].str());
    }
  }
  for (const analysis::CodeInfo& info : analysis::DiagnosticCodes()) {
    EXPECT_TRUE(in_sources.count(info.code)) << "no source emits " << info.code;
  }
}

// And the other way: every code an emit site spells (`d.code = "..."`, `Report(node,
// Severity::kX, "...", ...)`) is in the table, so a misspelled code fails here.
TEST(DiagnosticCodes, EveryEmittedCodeIsInTheTable) {
  const std::regex emit("(?:\\.code = |Severity::k[A-Za-z]+,\\s*)\"([a-z]+(?:-[a-z]+)*)\"");
  std::vector<std::string> sources = ListFilesRecursive("analysis", ".cc");
  for (const std::string& path : ListFilesRecursive("server", ".cc")) sources.push_back(path);
  int sites = 0;
  for (const std::string& path : sources) {
    std::string text = ReadFileOrDie(path);
    for (std::sregex_iterator it(text.begin(), text.end(), emit), end; it != end; ++it) {
      EXPECT_NE(analysis::FindCode((*it)[1].str()), nullptr)
          << path << " emits `" << (*it)[1].str() << "`, which the codes table does not have";
      ++sites;
    }
  }
  EXPECT_GT(sites, 30);
}

// Lowering builds the model and reports events; only the checks (analysis/check/) decide codes
// and severities (and the syntax layer its syntax errors). A severity in model/, query/, ops/,
// vocab/ or the analyzer would be a check hiding in the wrong layer.
TEST(DiagnosticCodes, OnlyChecksDecideSeverities) {
  const std::regex decides("Severity::k[A-Za-z]+|\\.code = \"");
  int files = 0;
  std::vector<std::string> paths;
  for (const char* dir : {"analysis/model", "analysis/query", "analysis/ops", "analysis/vocab"}) {
    for (const std::string& path : ListFilesRecursive(dir, ".cc")) paths.push_back(path);
  }
  paths.push_back(SourcePath("analysis/analysis.cc"));
  for (const std::string& path : paths) {
    ++files;
    std::string text = ReadFileOrDie(path);
    // The analyzer labels what the syntax layer found as syntax-error; nothing else.
    std::string without_syntax = std::regex_replace(text, std::regex("\\.code = \"syntax-error\""), "");
    EXPECT_FALSE(std::regex_search(without_syntax, decides)) << path << " decides a diagnostic's severity or code";
  }
  EXPECT_GT(files, 10);
}

TEST(DiagnosticCodes, ReadmeHasAnAnchorPerCode) {
  std::string readme = ReadFileOrDie(SourcePath("README.md"));
  for (const analysis::CodeInfo& info : analysis::DiagnosticCodes()) {
    std::string anchor = std::string("<a id=\"") + info.code + "\"></a>`" + info.code + "`";
    EXPECT_NE(readme.find(anchor), std::string::npos) << "README.md lacks " << anchor;
  }
}

}  // namespace
}  // namespace tvmls::testing
