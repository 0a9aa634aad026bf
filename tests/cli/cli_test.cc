// The command line: exit codes, error lines, usage.
#include "cli.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "support/files.h"

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

TEST(Cli, Version) {
  CliRun r = RunArgs({"--version"});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("tvmls ", 0), 0u);
}

TEST(Cli, UsageErrorsExitTwo) {
  for (auto args : std::vector<std::vector<std::string>>{
           {}, {"frobnicate"}, {"--frobnicate"}, {"parse"}, {"parse", "--bogus", "x.py"}}) {
    CliRun r = RunArgs(args);
    EXPECT_EQ(r.code, 2) << (args.empty() ? "" : args[0]);
    EXPECT_NE(r.err.find("usage: tvmls"), std::string::npos);
  }
  EXPECT_EQ(RunArgs({"help"}).code, 0);
}

TEST(Cli, ParseCleanFileExitsZero) {
  std::string path = TempFile("clean.py", "@R.function\ndef f(x: R.Tensor((2,), \"float32\")):\n    return x\n");
  CliRun r = RunArgs({"parse", path});
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "");
}

TEST(Cli, ParseReportsSyntaxErrorsWithLineAndColumn) {
  std::string path = TempFile("broken.py", "def f():\n    x = (1,\n\ndef g():\n    return 2\n");
  CliRun r = RunArgs({"parse", path});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(path + ":"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(": syntax error: "), std::string::npos) << r.out;
}

TEST(Cli, ColumnsCountCharacters) {
  // The missing `)` is after `1`, 11 characters into the line but 12 bytes ("é" is 2 bytes):
  // column 12, 1-based.
  std::string path = TempFile("utf8.py", "x = (\"\xC3\xA9\", 1\nreturn 2\n");
  CliRun r = RunArgs({"parse", path});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find(":1:12: syntax error: missing `)`"), std::string::npos) << r.out;
}

TEST(Cli, SexpPrintsTheTree) {
  std::string path = TempFile("sexp.py", "x = 1\n");
  CliRun r = RunArgs({"parse", "--sexp", path});
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "(module (assignment left: (identifier) right: (integer)))\n");
}

TEST(Cli, UnreadableAndOversizedFilesExitTwo) {
  CliRun missing = RunArgs({"parse", "/nonexistent/x.py"});
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/x.py: error:"), std::string::npos);
  // A 17 MiB file is refused with the reason, not parsed.
  std::string big(kMaxFileBytes + 1024 * 1024, 'x');
  std::string path = TempFile("big.py", big);
  CliRun r = RunArgs({"parse", path});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("MiB"), std::string::npos) << r.err;
  std::remove(path.c_str());
  // A directory is not a file.
  EXPECT_EQ(RunArgs({"parse", ::testing::TempDir()}).code, 2);
}

TEST(Cli, ErrorsInOneFileDoNotStopTheOthers) {
  std::string good = TempFile("good.py", "x = 1\n");
  std::string bad = TempFile("bad.py", "x = = 1\n");
  CliRun r = RunArgs({"parse", bad, "/nonexistent.py", good});
  EXPECT_EQ(r.code, 2);  // I/O problems outrank syntax errors.
  EXPECT_NE(r.out.find(bad), std::string::npos);
}

}  // namespace
}  // namespace tvmls::server
