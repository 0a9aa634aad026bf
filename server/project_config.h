// Project configuration: `tvmls.toml`, or the `[tool.tvmls]` table of `pyproject.toml`, found
// upward from a file's folder (the nearest folder that has either wins; in one folder tvmls.toml
// wins; a pyproject.toml without `[tool.tvmls]` is passed over), as ruff and pyright find theirs.
// `tvmls check` and the language server read the same file; the server's LSP settings override
// what it says.
//
//   [tool.tvmls]                      # in tvmls.toml: the same keys at the top level
//   era = "auto"                      # "auto" | "classic" | "current"
//   assumed-upper-bound = 4096        # bound for symbolic shape variables without one (0: none)
//   hints = false                     # `tvmls check` prints hints (unused-binding)
//   include = ["*.py", "*.tvmscript"] # files a folder walk checks (globs, path_match.h)
//   exclude = ["build/", "third_party/**"]
//   expected-failures = true          # code a test expects TVM to reject: information, not red
//   [tool.tvmls.severity]
//   storage-may-overflow = "off"      # per code: "error" | "warning" | "information" | "hint" | "off"
//
// A mistake in the file (bad TOML, an unknown key or code, a value of the wrong type) is a
// ConfigProblem with its line and column; the keys that are right still apply.
#ifndef TVMLS_SERVER_PROJECT_CONFIG_H_
#define TVMLS_SERVER_PROJECT_CONFIG_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis.h"
#include "check/diagnostic.h"

namespace tvmls::server {

struct ConfigProblem {
  uint32_t line = 1;  // 1-based
  uint32_t column = 1;  // 1-based, in characters
  std::string message;
};

struct ProjectConfig {
  std::string path;  // the file read; "" when there is none
  std::string dir;   // its folder, absolute: `include` and `exclude` are relative to it
  std::map<std::string, std::optional<analysis::Severity>> severity;  // nullopt: "off"
  std::optional<analysis::Era> era;
  std::optional<int64_t> assumed_upper_bound;
  std::optional<bool> hints;
  std::optional<bool> expected_failures;
  std::vector<std::string> include;  // empty: kDefaultInclude
  std::vector<std::string> exclude;
  std::vector<ConfigProblem> problems;
};

/// What a folder walk checks when `include` is not set.
extern const std::vector<std::string> kDefaultInclude;

/// The configuration file that governs files in `dir` (absolute or relative), or "" when no
/// folder from `dir` up to the file system root has one. `has_tvmls_table` answers whether a
/// pyproject.toml has a `[tool.tvmls]` table (default: read it; ConfigStore caches the answer).
std::string FindConfigFile(const std::string& dir,
                           const std::function<bool(const std::string&)>& has_tvmls_table = {});

/// Parses `text` as the configuration file `path` (its name decides between tvmls.toml and
/// pyproject.toml). Never throws.
ProjectConfig ParseConfig(const std::string& path, std::string_view text);

/// Reads and parses `path`; a file that cannot be read is one problem at 1:1.
ProjectConfig LoadConfig(const std::string& path);

/// The configuration of each folder, shared by threads. A lookup re-finds the governing file
/// (a few stat calls) and reloads it when its modification time or size changed, so an editor
/// session sees a tvmls.toml written, fixed or deleted meanwhile.
class ConfigStore {
 public:
  /// `forced`: a configuration file for every folder (`--config`); "" to find one per folder.
  explicit ConfigStore(std::string forced = "") : forced_(std::move(forced)) {}

  /// The configuration governing files in `dir` (an empty one without a file). Never null.
  std::shared_ptr<const ProjectConfig> For(const std::string& dir);

  /// Every configuration file loaded so far (its latest version), in the order first loaded.
  std::vector<std::shared_ptr<const ProjectConfig>> Loaded();

 private:
  /// Whether the pyproject.toml at `path` has a [tool.tvmls] table, read again only when its
  /// modification time or size changed (a lookup runs on every analysis in the server).
  bool PyprojectHasTvmlsCached(const std::string& path);
  struct Pyproject {
    int64_t mtime = 0;
    int64_t size = -1;
    bool has_tvmls = false;
  };
  std::map<std::string, Pyproject> pyprojects_;
  struct Entry {
    std::shared_ptr<const ProjectConfig> config;
    int64_t mtime = 0;
    int64_t size = -1;
  };
  std::string forced_;
  std::mutex mutex_;
  std::map<std::string, Entry> by_path_;
  std::vector<std::string> order_;
  std::shared_ptr<const ProjectConfig> none_ = std::make_shared<ProjectConfig>();
};

/// The analysis options a configuration sets (era, assumed upper bound, expected failures).
analysis::AnalysisOptions AnalysisOptionsOf(const ProjectConfig& config);

/// The problems of `config` as `invalid-config` error diagnostics on its own text `doc` (the
/// range: the word, key or value at the problem's place).
std::vector<analysis::Diagnostic> ConfigDiagnostics(const ProjectConfig& config,
                                                    const analysis::Document& doc);

/// True when `path` ends in pyproject.toml and its text has a `[tool.tvmls]` table (or a
/// `[tool.tvmls.*]` one): the cheap test FindConfigFile uses before parsing.
bool PyprojectHasTvmls(std::string_view text);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_PROJECT_CONFIG_H_
