// `tvmls check`: exit codes, the text format (exact), the JSON format (shape, UTF-16 columns),
// unreadable files and mixes of good and bad files. Runs the command line in-process.
#include <gtest/gtest.h>

#include <filesystem>

#include <algorithm>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "check_command.h"
#include "cli.h"

namespace tvmls::server {
namespace {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun RunArgs(std::vector<std::string> args) {
  std::ostringstream out, err;
  int code = RunCli(args, out, err);
  return {code, out.str(), err.str()};
}

std::string TempFile(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// A small valid module: no diagnostics.
constexpr const char* kClean =
    "from tvm.script import relax as R\n"
    "\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x)\n"
    "    return y\n";

// The same with a missing `)` at the end of line 6 (1-based), column 19.
constexpr const char* kMissingParen =
    "from tvm.script import relax as R\n"
    "\n"
    "\n"
    "@R.function\n"
    "def main(x: R.Tensor((4,), \"float32\")) -> R.Tensor((4,), \"float32\"):\n"
    "    y = R.add(x, x\n"
    "    return y\n";

TEST(Check, CleanFileExitsZeroWithEmptyOutput) {
  std::string path = TempFile("check_clean.py", kClean);
  CliRun r = RunArgs({"check", path});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "0 errors, 0 warnings in 1 file\n");
}

TEST(Check, SyntaxErrorTextFormatIsExact) {
  std::string path = TempFile("check_paren.py", kMissingParen);
  CliRun r = RunArgs({"check", path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.out, path + ":6:19: error: missing `)` [syntax-error]\n"
                          "    y = R.add(x, x\n"
                          "                  ^\n");
  EXPECT_EQ(r.err, "1 error, 0 warnings in 1 file\n");
}

TEST(Check, FilesWithoutTvmScriptHaveNoDiagnostics) {
  // Plain Python, even broken, is not checked.
  std::string path = TempFile("check_plain.py", "def f(:\n    return (1,\n");
  CliRun r = RunArgs({"check", path});
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
  r = RunArgs({"check", "--format", "json", path});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(nlohmann::json::parse(r.out), nlohmann::json::array());
}

TEST(Check, JsonShape) {
  std::string path = TempFile("check_json.py", kMissingParen);
  CliRun r = RunArgs({"check", "--format", "json", path});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "");
  nlohmann::json array = nlohmann::json::parse(r.out);
  ASSERT_TRUE(array.is_array());
  ASSERT_EQ(array.size(), 1u) << r.out;
  const nlohmann::json& d = array[0];
  EXPECT_EQ(d.at("file"), path);
  EXPECT_EQ(d.at("range"),
            nlohmann::json::parse(R"({"start": {"line": 5, "character": 18},
                                      "end": {"line": 5, "character": 18}})"));
  EXPECT_EQ(d.at("severity"), "error");
  EXPECT_EQ(d.at("code"), "syntax-error");
  EXPECT_EQ(d.at("message"), "missing `)`");
  EXPECT_TRUE(d.at("related").is_array());
  EXPECT_TRUE(d.at("fixes").is_array());
  // --format=json spells the same.
  EXPECT_EQ(RunArgs({"check", "--format=json", path}).out, r.out);
}

TEST(Check, JsonColumnsAreUtf16AndTextColumnsAreCharacters) {
  // "é" is one UTF-16 unit and "😀" two, one character each: the unexpected `=` is character 20
  // (0-based) of its line, UTF-16 unit 21.
  std::string text =
      "from tvm.script import relax as R\n"
      "@R.function\n"
      "def main(x: R.Tensor((4,), \"float32\")):\n"
      "    y = R.add(\"\xC3\xA9\xF0\x9F\x98\x80\", = x)\n"
      "    return y\n";
  std::string path = TempFile("check_utf16.py", text);
  CliRun r = RunArgs({"check", "--format", "json", path});
  EXPECT_EQ(r.code, 1);
  nlohmann::json array = nlohmann::json::parse(r.out);
  auto syntax = std::find_if(array.begin(), array.end(), [](const nlohmann::json& d) {
    return d.at("code") == "syntax-error";
  });
  ASSERT_NE(syntax, array.end()) << r.out;
  EXPECT_EQ(syntax->at("range").at("start"),
            nlohmann::json::parse(R"({"line": 3, "character": 21})"));
  r = RunArgs({"check", path});
  EXPECT_NE(r.out.find(path + ":4:21: error: unexpected `=`"), std::string::npos) << r.out;
  // The caret sits under the `=`: one space per character before it.
  EXPECT_NE(r.out.find("\n" + std::string(20, ' ') + "^\n"), std::string::npos) << r.out;
}

TEST(Check, InvalidUtf8InMessagesStillGivesValidJson) {
  // The syntax error quotes the two invalid bytes; JSON output replaces them with U+FFFD.
  std::string path = TempFile("check_bytes.py",
                              "@R.function\ndef f(x: R.Tensor((4,), \"float32\")):\n"
                              "    y = R.add(x, \xFF\xFE x)\n    return y\n");
  CliRun r = RunArgs({"check", "--format", "json", path});
  EXPECT_EQ(r.code, 1);
  nlohmann::json array = nlohmann::json::parse(r.out);  // throws on invalid UTF-8
  ASSERT_FALSE(array.empty());
  EXPECT_NE(array[0].at("message").get<std::string>().find("\xEF\xBF\xBD"), std::string::npos)
      << r.out;
}

TEST(Check, UnreadableFileIsReportedAndTheOthersAreStillChecked) {
  std::string good = TempFile("check_good.py", kClean);
  std::string bad = TempFile("check_bad.py", kMissingParen);
  CliRun r = RunArgs({"check", good, "/nonexistent/x.py", bad});
  EXPECT_EQ(r.code, 2);  // I/O problems outrank errors
  EXPECT_NE(r.err.find("/nonexistent/x.py: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(bad + ":6:19: error: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(good), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("1 error, 0 warnings in 2 files"), std::string::npos) << r.err;
  // JSON: the array holds the diagnostics of the readable files.
  r = RunArgs({"check", "--format", "json", "/nonexistent/x.py", bad});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(nlohmann::json::parse(r.out).size(), 1u);
  // A folder is walked (tests/cli/projects has the cases); an empty one checks nothing.
  std::string empty = ::testing::TempDir() + "/check_empty_folder";
  std::filesystem::create_directories(empty);
  r = RunArgs({"check", empty});
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.err.find("0 errors, 0 warnings in 0 files"), std::string::npos) << r.err;
}

TEST(Check, MixOfGoodAndBadFiles) {
  std::string good = TempFile("check_good2.py", kClean);
  std::string bad = TempFile("check_bad2.py", kMissingParen);
  EXPECT_EQ(RunArgs({"check", good, good}).code, 0);
  CliRun r = RunArgs({"check", "--format", "json", good, bad, good});
  EXPECT_EQ(r.code, 1);
  nlohmann::json array = nlohmann::json::parse(r.out);
  ASSERT_EQ(array.size(), 1u);
  EXPECT_EQ(array[0].at("file"), bad);
}

TEST(Check, UsageErrorsExitTwo) {
  for (auto args : std::vector<std::vector<std::string>>{
           {"check"},
           {"check", "--format"},
           {"check", "--format", "xml", "x.py"},
           {"check", "--format=", "x.py"},
           {"check", "--bogus", "x.py"},
           {"check", "--format", "json"}}) {
    CliRun r = RunArgs(args);
    EXPECT_EQ(r.code, 2) << args.back();
    EXPECT_NE(r.err.find("usage: tvmls"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  EXPECT_NE(RunArgs({"help"}).out.find("check [--format text|json]"), std::string::npos);
  // After `--`, everything is a file.
  EXPECT_EQ(RunArgs({"check", "--", TempFile("check_dashes.py", kClean)}).code, 0);
}

// The text format, on hand-made diagnostics (independent of what the engine reports).
TEST(CheckFormat, HeaderSourceCaretsAndNotes) {
  analysis::Document doc(
      "def main():\n"
      "    storage = R.memory.alloc_storage(R.shape([16]))\n"
      "    y = R.memory.alloc_tensor(storage, 0, R.shape([m]))\n");
  analysis::Diagnostic d;
  d.range = {106, 118};  // R.shape([m]) on line 3
  d.severity = analysis::Severity::kWarning;
  d.code = "storage-may-overflow";
  d.message = "tensor needs 4*m bytes";
  d.related.push_back({{49, 62}, "storage allocated here"});
  ASSERT_EQ(doc.Text().substr(106, 12), "R.shape([m])");
  ASSERT_EQ(doc.Text().substr(49, 13), "R.shape([16])");
  EXPECT_EQ(FormatDiagnosticText("m.py", doc, d),
            "m.py:3:43: warning: tensor needs 4*m bytes [storage-may-overflow]\n"
            "    y = R.memory.alloc_tensor(storage, 0, R.shape([m]))\n"
            "                                          ^~~~~~~~~~~~\n"
            "  m.py:2:38: note: storage allocated here\n");
}

TEST(CheckFormat, TabsNonAsciiMultiLineAndEmptyRanges) {
  // Tabs before the range are repeated in the caret line; "é" is one character.
  analysis::Document doc("\tx = \"\xC3\xA9\" + yy(\n\t\t1)\n");
  analysis::Diagnostic d;
  d.range = {12, 14};  // yy
  d.code = "undefined-name";
  d.message = "`yy` is not defined";
  ASSERT_EQ(doc.Text().substr(12, 2), "yy");
  EXPECT_EQ(FormatDiagnosticText("t.py", doc, d),
            "t.py:1:12: error: `yy` is not defined [undefined-name]\n"
            "\tx = \"\xC3\xA9\" + yy(\n"
            "\t" + std::string(10, ' ') + "^~\n");
  // A range over two lines is clipped to the first.
  d.range = {12, 21};
  EXPECT_EQ(FormatDiagnosticText("t.py", doc, d),
            "t.py:1:12: error: `yy` is not defined [undefined-name]\n"
            "\tx = \"\xC3\xA9\" + yy(\n"
            "\t" + std::string(10, ' ') + "^~~\n");
  // An empty range gets one caret; no code, no brackets.
  d.range = {15, 15};
  d.code = "";
  d.severity = analysis::Severity::kHint;
  EXPECT_EQ(FormatDiagnosticText("t.py", doc, d),
            "t.py:1:15: hint: `yy` is not defined\n"
            "\tx = \"\xC3\xA9\" + yy(\n"
            "\t" + std::string(13, ' ') + "^\n");
}

}  // namespace
// On a terminal, a run of 20 files or more shows a `checking K/N files` line on stderr, cleared
// (carriage return, erase line) before the diagnostics and the summary; without a terminal
// nothing of it is printed.
TEST(Check, ProgressLineOnlyOnATerminal) {
  std::string dir = ::testing::TempDir() + "/check_progress";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  for (int i = 0; i < 25; ++i) TempFile("check_progress/f" + std::to_string(100 + i) + ".py", kClean);
  std::ostringstream out, err;
  CliEnvironment terminal;
  terminal.stderr_is_terminal = true;
  EXPECT_EQ(RunCli({"check", "-j", "2", dir}, out, err, terminal), 0);
  EXPECT_EQ(err.str().rfind("checking 0/25 files", 0), 0u) << err.str();
  EXPECT_NE(err.str().find("\r\033[K0 errors, 0 warnings in 25 files\n"), std::string::npos) << err.str();
  CliRun plain = RunArgs({"check", "-j", "2", dir});
  EXPECT_EQ(plain.err, "0 errors, 0 warnings in 25 files\n");
}

}  // namespace tvmls::server
