// Test helpers for reading files of the source tree.
#include "support/files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace tvmls::testing {

std::string SourcePath(const std::string& relative) {
  return std::string(TVMLS_SOURCE_DIR) + "/" + relative;
}

std::string ReadFileOrDie(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

namespace {

bool EndsWith(const std::string& name, const std::string& suffix) {
  return name.size() >= suffix.size() &&
         name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
}

template <typename Iterator>
std::vector<std::string> List(const std::string& dir, const std::string& suffix) {
  std::vector<std::string> out;
  std::filesystem::path root = SourcePath(dir);
  // A test that loops over no files passes without testing anything: a missing folder or an
  // empty listing is an error (an exception fails the test, or the test binary at discovery).
  if (!std::filesystem::exists(root)) throw std::runtime_error("no folder " + root.string());
  for (const auto& entry : Iterator(root)) {
    std::string name = entry.path().string();
    if (entry.is_regular_file() && EndsWith(name, suffix)) out.push_back(name);
  }
  if (out.empty()) throw std::runtime_error("no *" + suffix + " file under " + root.string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::vector<std::string> ListFiles(const std::string& dir, const std::string& suffix) {
  return List<std::filesystem::directory_iterator>(dir, suffix);
}

std::vector<std::string> ListFilesRecursive(const std::string& dir, const std::string& suffix) {
  return List<std::filesystem::recursive_directory_iterator>(dir, suffix);
}

std::vector<std::string> ExampleFiles() {
  std::vector<std::string> files = ListFiles("examples", ".py");
  for (const std::string& f : ListFiles("examples", ".tvmscript")) files.push_back(f);
  return files;
}

}  // namespace tvmls::testing
