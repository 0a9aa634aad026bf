#include "project_config.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "check/codes.h"
#include "cli.h"
#include "lsp_convert.h"
#include "syntax/document.h"
#include "text/line_index.h"

namespace tvmls::server {

const std::vector<std::string> kDefaultInclude = {"*.py", "*.tvmscript", "*.relax", "*.tir"};

namespace {

namespace fs = std::filesystem;

ConfigProblem ProblemAt(const toml::source_region& where, std::string message) {
  ConfigProblem p;
  p.line = where.begin.line > 0 ? where.begin.line : 1;
  p.column = where.begin.column > 0 ? where.begin.column : 1;
  p.message = std::move(message);
  return p;
}

std::string TypeName(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::array: return "an array";
    case toml::node_type::table: return "a table";
    default: return "a date or time";
  }
}

// A list of glob strings; a wrong element is a problem and is left out.
std::vector<std::string> ReadGlobs(const std::string& key, const toml::node& node,
                                   std::vector<ConfigProblem>* problems) {
  std::vector<std::string> globs;
  const toml::array* array = node.as_array();
  if (!array) {
    problems->push_back(
        ProblemAt(node.source(), key + ": expected an array of glob strings, got " + TypeName(node)));
    return globs;
  }
  for (const toml::node& element : *array) {
    if (auto s = element.value<std::string>()) {
      globs.push_back(*s);
    } else {
      problems->push_back(ProblemAt(element.source(),
                                    key + ": expected a glob string, got " + TypeName(element)));
    }
  }
  return globs;
}

void ReadSeverity(const toml::node& node, ProjectConfig* config) {
  const toml::table* table = node.as_table();
  if (!table) {
    config->problems.push_back(ProblemAt(
        node.source(), "severity: expected a table of code = \"level\", got " + TypeName(node)));
    return;
  }
  for (auto&& [key, value] : *table) {
    std::string code(key.str());
    if (!analysis::FindCode(code)) {
      config->problems.push_back(ProblemAt(
          key.source(), "severity: unknown diagnostic code `" + code +
                            "` (the codes are listed in README.md, \"Diagnostic codes\")"));
      continue;
    }
    std::optional<std::string> level = value.value<std::string>();
    if (level && *level == "off") {
      config->severity[code] = std::nullopt;
    } else if (auto parsed = level ? ParseSeverity(*level) : std::nullopt) {
      config->severity[code] = parsed;
    } else {
      config->problems.push_back(ProblemAt(
          value.source(), "severity." + code +
                              ": expected \"error\", \"warning\", \"information\", \"hint\" or "
                              "\"off\""));
    }
  }
}

void ReadTable(const toml::table& table, ProjectConfig* config) {
  for (auto&& [key, node] : table) {
    std::string name(key.str());
    if (name == "severity") {
      ReadSeverity(node, config);
    } else if (name == "era") {
      std::optional<std::string> era = node.value<std::string>();
      if (era && *era == "auto") {
        config->era = analysis::Era::kAuto;
      } else if (era && *era == "classic") {
        config->era = analysis::Era::kClassic;
      } else if (era && *era == "current") {
        config->era = analysis::Era::kCurrent;
      } else {
        config->problems.push_back(
            ProblemAt(node.source(), "era: expected \"auto\", \"classic\" or \"current\""));
      }
    } else if (name == "assumed-upper-bound") {
      std::optional<int64_t> bound = node.is_integer() ? node.value<int64_t>() : std::nullopt;
      if (bound && *bound >= 0) {
        config->assumed_upper_bound = *bound;
      } else {
        config->problems.push_back(ProblemAt(
            node.source(), "assumed-upper-bound: expected a non-negative integer, got " +
                               (node.is_integer() ? std::string("a negative one") : TypeName(node))));
      }
    } else if (name == "hints" || name == "expected-failures") {
      if (!node.is_boolean()) {
        config->problems.push_back(
            ProblemAt(node.source(), name + ": expected true or false, got " + TypeName(node)));
      } else if (name == "hints") {
        config->hints = node.value<bool>();
      } else {
        config->expected_failures = node.value<bool>();
      }
    } else if (name == "include") {
      config->include = ReadGlobs(name, node, &config->problems);
    } else if (name == "exclude") {
      config->exclude = ReadGlobs(name, node, &config->problems);
    } else {
      config->problems.push_back(ProblemAt(
          key.source(), "unknown key `" + name +
                            "` (known: era, assumed-upper-bound, hints, include, exclude, "
                            "expected-failures, severity)"));
    }
  }
}

// The absolute folder of `path`, normalised.
std::string AbsoluteDir(const std::string& path) {
  std::error_code ec;
  fs::path abs = fs::absolute(path, ec);
  return (ec ? fs::path(path) : abs).lexically_normal().parent_path().string();
}

bool IsPyproject(const std::string& path) {
  return fs::path(path).filename() == "pyproject.toml";
}

bool ReadWhole(const std::string& path, std::string* text, std::string* error) {
  return ReadSourceFile(path, text, error);
}

}  // namespace

bool PyprojectHasTvmls(std::string_view text) {
  size_t at = 0;
  while ((at = text.find("tool.tvmls", at)) != std::string_view::npos) {
    // The header must open a line: `[tool.tvmls]` or `[tool.tvmls.severity]` (spaces allowed).
    size_t line_start = text.rfind('\n', at);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view head = text.substr(line_start, at - line_start);
    size_t first = head.find_first_not_of(" \t");
    bool opens = first != std::string_view::npos && head[first] == '[' &&
                 head.find_first_not_of(" \t[", first) == std::string_view::npos;
    char after = at + 10 < text.size() ? text[at + 10] : '\0';
    if (opens && (after == ']' || after == '.' || after == ' ')) return true;
    at += 10;
  }
  return false;
}

std::string FindConfigFile(const std::string& dir,
                           const std::function<bool(const std::string&)>& has_tvmls_table) {
  std::error_code ec;
  fs::path current = fs::absolute(dir.empty() ? "." : dir, ec);
  if (ec) return "";
  current = current.lexically_normal();
  while (true) {
    fs::path own = current / "tvmls.toml";
    if (fs::is_regular_file(own, ec)) return own.string();
    fs::path pyproject = current / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec)) {
      bool has = false;
      if (has_tvmls_table) {
        has = has_tvmls_table(pyproject.string());
      } else {
        std::string text, error;
        has = ReadWhole(pyproject.string(), &text, &error) && PyprojectHasTvmls(text);
      }
      if (has) return pyproject.string();
    }
    fs::path parent = current.parent_path();
    if (parent.empty() || parent == current) return "";
    current = parent;
  }
}

ProjectConfig ParseConfig(const std::string& path, std::string_view text) {
  ProjectConfig config;
  config.path = path;
  config.dir = AbsoluteDir(path);
  try {
    toml::table root = toml::parse(text, path);
    if (IsPyproject(path)) {
      const toml::node* tvmls = root.at_path("tool.tvmls").node();
      if (!tvmls) return config;
      if (const toml::table* table = tvmls->as_table()) {
        ReadTable(*table, &config);
      } else {
        config.problems.push_back(ProblemAt(tvmls->source(), "tool.tvmls: expected a table"));
      }
    } else {
      ReadTable(root, &config);
    }
    // The table is read in key order; report in file order.
    std::stable_sort(config.problems.begin(), config.problems.end(),
                     [](const ConfigProblem& a, const ConfigProblem& b) {
                       return a.line != b.line ? a.line < b.line : a.column < b.column;
                     });
  } catch (const toml::parse_error& e) {
    config.problems.push_back(
        ProblemAt(e.source(), "invalid TOML: " + std::string(e.description())));
  } catch (const std::exception& e) {
    config.problems.push_back(ConfigProblem{1, 1, std::string("cannot read: ") + e.what()});
  }
  return config;
}

ProjectConfig LoadConfig(const std::string& path) {
  std::string text, error;
  if (!ReadWhole(path, &text, &error)) {
    ProjectConfig config;
    config.path = path;
    config.dir = AbsoluteDir(path);
    config.problems.push_back(ConfigProblem{1, 1, "cannot read the configuration: " + error});
    return config;
  }
  return ParseConfig(path, text);
}

namespace {

bool Stat(const std::string& path, int64_t* mtime, int64_t* size) {
  std::error_code ec;
  auto time = fs::last_write_time(path, ec);
  if (ec) return false;
  auto bytes = fs::file_size(path, ec);
  if (ec) return false;
  *mtime = static_cast<int64_t>(time.time_since_epoch().count());
  *size = static_cast<int64_t>(bytes);
  return true;
}

}  // namespace

bool ConfigStore::PyprojectHasTvmlsCached(const std::string& path) {
  int64_t mtime = 0, size = -1;
  if (!Stat(path, &mtime, &size)) return false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pyprojects_.find(path);
    if (it != pyprojects_.end() && it->second.mtime == mtime && it->second.size == size) {
      return it->second.has_tvmls;
    }
  }
  std::string text, error;
  bool has = ReadWhole(path, &text, &error) && PyprojectHasTvmls(text);
  std::lock_guard<std::mutex> lock(mutex_);
  pyprojects_[path] = {mtime, size, has};
  return has;
}

std::shared_ptr<const ProjectConfig> ConfigStore::For(const std::string& dir) {
  std::string path =
      forced_.empty()
          ? FindConfigFile(dir, [this](const std::string& p) { return PyprojectHasTvmlsCached(p); })
          : forced_;
  if (path.empty()) return none_;
  int64_t mtime = 0, size = -1;
  bool exists = Stat(path, &mtime, &size);
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_path_.find(path);
  if (it != by_path_.end() && it->second.mtime == mtime && it->second.size == size &&
      (exists || it->second.size < 0)) {
    return it->second.config;
  }
  if (it == by_path_.end()) {
    order_.push_back(path);
    it = by_path_.emplace(path, Entry{}).first;
  }
  it->second.config = std::make_shared<const ProjectConfig>(LoadConfig(path));
  it->second.mtime = mtime;
  it->second.size = exists ? size : -1;
  return it->second.config;
}

std::vector<std::shared_ptr<const ProjectConfig>> ConfigStore::Loaded() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<const ProjectConfig>> all;
  for (const std::string& path : order_) all.push_back(by_path_.at(path).config);
  return all;
}

std::vector<analysis::Diagnostic> ConfigDiagnostics(const ProjectConfig& config,
                                                    const analysis::Document& doc) {
  std::vector<analysis::Diagnostic> out;
  const analysis::LineIndex& lines = doc.Lines();
  const std::string& t = doc.Text();
  for (const ConfigProblem& p : config.problems) {
    analysis::Diagnostic d;
    d.code = "invalid-config";
    d.severity = analysis::Severity::kError;
    d.message = p.message;
    uint32_t line = std::min<uint32_t>(p.line - 1, lines.LineCount() - 1);
    analysis::Position pos{line, p.column - 1};
    d.range.begin = lines.ToOffset(t, pos, analysis::Encoding::kUtf32).value_or(lines.LineStart(line));
    // The token at fault: up to the end of the word, key or value there.
    uint32_t e = d.range.begin;
    while (e < t.size() && t[e] != '\n' && t[e] != '\r' && t[e] != ' ' && t[e] != '=' &&
           t[e] != ',') {
      ++e;
    }
    d.range.end = e;
    out.push_back(std::move(d));
  }
  return out;
}

analysis::AnalysisOptions AnalysisOptionsOf(const ProjectConfig& config) {
  analysis::AnalysisOptions o;
  if (config.era) o.era = *config.era;
  if (config.assumed_upper_bound) o.assumed_upper_bound = *config.assumed_upper_bound;
  if (config.expected_failures) o.expected_failures = *config.expected_failures;
  return o;
}

}  // namespace tvmls::server
