// Test helpers for reading files of the source tree.
#ifndef TVMLS_TESTS_SUPPORT_FILES_H_
#define TVMLS_TESTS_SUPPORT_FILES_H_

#include <string>
#include <vector>

namespace tvmls::testing {

/// Reads a whole file; fails the current test (and returns "") when it cannot.
std::string ReadFileOrDie(const std::string& path);

/// Files under `dir` (relative to the source tree) whose name ends with `suffix`, sorted. Throws
/// when the folder does not exist or holds no such file: a loop over nothing tests nothing.
std::vector<std::string> ListFiles(const std::string& dir, const std::string& suffix);

/// The same for every file in `dir` and its subdirectories, sorted by path.
std::vector<std::string> ListFilesRecursive(const std::string& dir, const std::string& suffix);

/// Every example: examples/*.py and examples/*.tvmscript (saved IR dumps), sorted per kind.
std::vector<std::string> ExampleFiles();

/// Absolute path of a file of the source tree.
std::string SourcePath(const std::string& relative);

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_SUPPORT_FILES_H_
