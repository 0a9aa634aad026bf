// `tvmls check` over small projects: folder walks, .gitignore, project configuration, --config,
// --select/--ignore. Tests as data: each folder of tests/cli/projects/ is a project with
//   args.txt      the command line, one argument per line (`#` lines are comments); `{root}` is
//                 the project's copy in a temporary folder
//   expected.txt  `exit: N`, then `--- stdout` and `--- stderr` sections, with `{root}` for the
//                 copy's path
//   examples.txt  (optional) files of examples/ to copy into the project, one per line
// The project is copied first, with `dot-gitignore` renamed `.gitignore` and `dot-git` renamed
// `.git` (so the repository's own git does not read them). TVMLS_UPDATE_EXPECTED=1 rewrites
// expected.txt from what tvmls prints (review the diff before committing it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli.h"
#include "support/files.h"

namespace tvmls::server {
namespace {

namespace fs = std::filesystem;

std::string Replace(std::string s, const std::string& from, const std::string& to) {
  for (size_t at = 0; (at = s.find(from, at)) != std::string::npos; at += to.size()) {
    s.replace(at, from.size(), to);
  }
  return s;
}

// Copies `from` to `to`, renaming dot-* entries to .*.
void CopyProject(const fs::path& from, const fs::path& to) {
  fs::create_directories(to);
  for (const fs::directory_entry& e : fs::directory_iterator(from)) {
    std::string name = e.path().filename().string();
    if (name == "expected.txt" || name == "args.txt" || name == "examples.txt") continue;
    if (name.rfind("dot-", 0) == 0) name = "." + name.substr(4);
    if (e.is_directory()) {
      CopyProject(e.path(), to / name);
    } else {
      fs::copy_file(e.path(), to / name, fs::copy_options::overwrite_existing);
    }
  }
}

std::vector<std::string> ProjectNames() {
  std::vector<std::string> names;
  for (const fs::directory_entry& e :
       fs::directory_iterator(testing::SourcePath("tests/cli/projects"))) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

class Project : public ::testing::TestWithParam<std::string> {};

TEST_P(Project, CheckPrintsWhatIsExpected) {
  fs::path source = testing::SourcePath("tests/cli/projects/" + GetParam());
  fs::path root = fs::path(::testing::TempDir()) / ("tvmls-project-" + GetParam());
  fs::remove_all(root);
  CopyProject(source, root);
  if (fs::exists(source / "examples.txt")) {
    std::istringstream names(testing::ReadFileOrDie((source / "examples.txt").string()));
    for (std::string name; std::getline(names, name);) {
      if (name.empty() || name[0] == '#') continue;
      fs::copy_file(testing::SourcePath("examples/" + name), root / name);
    }
  }

  std::vector<std::string> args;
  std::istringstream lines(testing::ReadFileOrDie((source / "args.txt").string()));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    args.push_back(Replace(line, "{root}", root.string()));
  }
  ASSERT_FALSE(args.empty()) << "args.txt is empty";

  std::ostringstream out, err;
  int code = RunCli(args, out, err);
  std::string actual = "exit: " + std::to_string(code) + "\n--- stdout\n" +
                       Replace(out.str(), root.string(), "{root}") + "--- stderr\n" +
                       Replace(err.str(), root.string(), "{root}");
  fs::path expected_path = source / "expected.txt";
  if (std::getenv("TVMLS_UPDATE_EXPECTED")) {
    std::ofstream(expected_path, std::ios::binary) << actual;
  }
  EXPECT_EQ(actual, testing::ReadFileOrDie(expected_path.string()));
  fs::remove_all(root);
}

INSTANTIATE_TEST_SUITE_P(Projects, Project, ::testing::ValuesIn(ProjectNames()),
                         [](const auto& param_info) { return param_info.param; });

TEST(Projects, ThereAreProjects) { EXPECT_GE(ProjectNames().size(), 8u); }

}  // namespace
}  // namespace tvmls::server
