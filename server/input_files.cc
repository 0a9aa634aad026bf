#include "input_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "path_match.h"

namespace tvmls::server {

namespace {

namespace fs = std::filesystem;

// Folders a walk never enters: version control, caches, virtual environments.
bool SkippedFolder(const std::string& name) {
  static const std::set<std::string> kSkipped = {".git", ".hg", ".svn", "__pycache__",
                                                 "node_modules", ".venv", ".tox"};
  return kSkipped.count(name) > 0;
}

std::string Absolute(const fs::path& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  return (ec ? p : abs).lexically_normal().string();
}

std::string StripTrailingSlash(std::string s) {
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return s;
}

// The patterns of the .gitignore in `dir` (absolute), if it has one.
bool ReadGitignore(const std::string& dir, PatternSet* set) {
  std::ifstream in(dir + "/.gitignore");
  if (!in) return false;
  set->base = dir == "/" ? "" : dir;
  std::string line;
  while (std::getline(in, line)) {
    PathPattern p;
    if (ParsePathPattern(line, &p)) set->patterns.push_back(std::move(p));
  }
  return true;
}

PatternSet GlobSet(const std::string& base, const std::vector<std::string>& globs) {
  PatternSet set;
  set.base = StripTrailingSlash(base);
  for (const std::string& g : globs) {
    PathPattern p;
    if (ParsePathPattern(g, &p)) set.patterns.push_back(std::move(p));
  }
  return set;
}

class Walker {
 public:
  Walker(ConfigStore* configs, std::vector<std::string>* files,
         std::vector<InputProblem>* problems)
      : configs_(configs), files_(files), problems_(problems) {}

  void AddFile(const std::string& display) {
    if (seen_.insert(Absolute(display)).second) files_->push_back(display);
  }

  void WalkRoot(const std::string& display) {
    std::string abs = StripTrailingSlash(Absolute(display));
    ignores_.clear();
    PushAncestorGitignores(abs);
    Walk(abs, display);
  }

 private:
  // The .gitignore files above `dir`, from the repository root (the nearest folder with .git)
  // down; none when `dir` is not inside a repository.
  void PushAncestorGitignores(const std::string& dir) {
    std::vector<std::string> chain;
    std::error_code ec;
    for (fs::path p = fs::path(dir).parent_path(); !p.empty(); p = p.parent_path()) {
      chain.push_back(p.string());
      if (fs::exists(p / ".git", ec)) break;
      if (p == p.parent_path()) {
        chain.clear();  // not in a repository
        break;
      }
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      PatternSet set;
      if (ReadGitignore(*it, &set)) ignores_.push_back(std::move(set));
    }
  }

  void Walk(const std::string& dir, const std::string& display) {
    std::error_code ec;
    std::vector<fs::directory_entry> entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      entries.push_back(*it);
    }
    if (ec) {
      problems_->push_back({display, "cannot list the folder: " + ec.message()});
      return;
    }
    std::sort(entries.begin(), entries.end(),
              [](const fs::directory_entry& a, const fs::directory_entry& b) {
                return a.path().filename().string() < b.path().filename().string();
              });
    PatternSet own;
    bool has_gitignore = ReadGitignore(dir, &own);
    if (has_gitignore) ignores_.push_back(std::move(own));

    std::shared_ptr<const ProjectConfig> shared = configs_->For(dir);
    const ProjectConfig& config = *shared;
    std::vector<PatternSet> ignores = ignores_;
    if (!config.exclude.empty()) ignores.push_back(GlobSet(config.dir, config.exclude));
    std::vector<PatternSet> include = {
        GlobSet(config.dir, config.include.empty() ? kDefaultInclude : config.include)};

    for (const fs::directory_entry& entry : entries) {
      std::string name = entry.path().filename().string();
      std::string abs = dir + (dir == "/" ? "" : "/") + name;
      std::string shown = (fs::path(display) / name).lexically_normal().string();
      bool is_link = entry.is_symlink(ec);
      bool is_dir = entry.is_directory(ec);
      if (is_dir && (is_link || SkippedFolder(name))) continue;
      if (MatchPatterns(ignores, abs, is_dir) > 0) continue;
      if (is_dir) {
        Walk(abs, shown);
      } else if (entry.is_regular_file(ec) && MatchPatterns(include, abs, false) > 0) {
        AddFile(shown);
      }
    }
    if (has_gitignore) ignores_.pop_back();
  }

  ConfigStore* configs_;
  std::vector<std::string>* files_;
  std::vector<InputProblem>* problems_;
  std::vector<PatternSet> ignores_;
  std::set<std::string> seen_;
};

}  // namespace

std::vector<std::string> ExpandInputs(const std::vector<std::string>& args, ConfigStore* configs,
                                      std::vector<InputProblem>* problems) {
  std::vector<std::string> files;
  Walker walker(configs, &files, problems);
  for (const std::string& arg : args) {
    std::error_code ec;
    fs::file_status status = fs::status(arg, ec);
    if (fs::is_directory(status)) {
      walker.WalkRoot(arg);
    } else {
      // Files are checked as named; one that cannot be read is reported when it is read.
      walker.AddFile(arg);
    }
  }
  return files;
}

}  // namespace tvmls::server
