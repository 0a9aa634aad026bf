// `tvmls check`: analysis diagnostics as text or JSON.
#include "check_command.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "check/codes.h"
#include "cli.h"
#include "input_files.h"
#include "project_config.h"
#include "text_diff.h"
#include "lsp_convert.h"
#include "text/line_index.h"

namespace tvmls::server {

namespace {

using analysis::Diagnostic;
using analysis::Document;
using analysis::Encoding;
using analysis::Position;
using analysis::Severity;
using analysis::TextRange;

// Byte length of the code point at text[i] (an invalid byte counts as one, as in LineIndex).
size_t CodePointBytes(const std::string& text, size_t i) {
  int n = analysis::Utf8SequenceLength(text, i);
  return n > 0 ? static_cast<size_t>(n) : 1;
}

// `path:line:col` of a byte offset, 1-based, columns in code points.
std::string Location(const std::string& path, const Document& doc, uint32_t offset) {
  Position p = doc.PositionOf(offset, Encoding::kUtf32);
  return path + ":" + std::to_string(p.line + 1) + ":" + std::to_string(p.column + 1);
}

// The source line holding `range.begin`, and under it `^~~~` marking the range clipped to that
// line. The caret line repeats the tabs of the source line before the range so carets align
// whatever the tab width; every other character becomes one space.
std::string SourceAndCarets(const Document& doc, TextRange range) {
  const std::string& text = doc.Text();
  const analysis::LineIndex& lines = doc.Lines();
  uint32_t line = lines.LineOf(range.begin);
  uint32_t start = lines.LineStart(line);
  uint32_t content_end = lines.LineContentEnd(text, line);
  uint32_t begin = std::clamp(range.begin, start, content_end);
  uint32_t end = std::clamp(range.end, begin, content_end);

  std::string result = text.substr(start, content_end - start) + "\n";
  size_t i = start;
  while (i < begin) {
    result += text[i] == '\t' ? '\t' : ' ';
    i += CodePointBytes(text, i);
  }
  result += '^';
  if (i < end) i += CodePointBytes(text, i);
  while (i < end) {
    result += '~';
    i += CodePointBytes(text, i);
  }
  result += "\n";
  return result;
}

// Ranges as LSP spells them, in UTF-16 code units (lsp_convert.h).
nlohmann::ordered_json JsonRange(const Document& doc, TextRange range) {
  return RangeJson<nlohmann::ordered_json>(doc, range, Encoding::kUtf16);
}

nlohmann::ordered_json JsonDiagnostic(const std::string& path, const Document& doc,
                                      const Diagnostic& d) {
  nlohmann::ordered_json related = nlohmann::ordered_json::array();
  for (const analysis::RelatedLocation& r : d.related) {
    related.push_back({{"file", path}, {"range", JsonRange(doc, r.range)}, {"message", r.message}});
  }
  nlohmann::ordered_json fixes = nlohmann::ordered_json::array();
  for (const analysis::Fix& fix : FixesOffered(doc, d)) {
    nlohmann::ordered_json edits = nlohmann::ordered_json::array();
    for (const analysis::TextEdit& e : fix.edits) {
      edits.push_back({{"range", JsonRange(doc, e.range)}, {"newText", e.new_text}});
    }
    fixes.push_back({{"title", fix.title}, {"isPreferred", fix.preferred}, {"edits", edits}});
  }
  return {{"file", path},
          {"range", JsonRange(doc, d.range)},
          {"severity", analysis::SeverityName(d.severity)},
          {"code", d.code},
          {"message", d.message},
          {"related", related},
          {"fixes", fixes}};
}

// "1 error", "2 warnings".
std::string Count(int n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace

namespace {

// `--name VALUE` or `--name=VALUE` at args[*i]; advances *i past the value.
bool OptionValue(const std::vector<std::string>& args, size_t* i, const std::string& name,
                 std::string* value, bool* matched, std::string* problem) {
  const std::string& arg = args[*i];
  *matched = false;
  if (arg == name) {
    *matched = true;
    if (*i + 1 >= args.size()) {
      *problem = name + " needs a value";
      return false;
    }
    *value = args[++*i];
    return true;
  }
  if (arg.rfind(name + "=", 0) == 0) {
    *matched = true;
    *value = arg.substr(name.size() + 1);
  }
  return true;
}

// `a,b , c` into codes, each checked against the codes table.
bool ParseCodes(const std::string& option, const std::string& value,
                std::vector<std::string>* codes, std::string* problem) {
  size_t at = 0;
  while (at <= value.size()) {
    size_t comma = value.find(',', at);
    if (comma == std::string::npos) comma = value.size();
    std::string code = value.substr(at, comma - at);
    code.erase(0, code.find_first_not_of(" \t"));
    code.erase(code.find_last_not_of(" \t") + 1);
    if (!code.empty()) {
      if (!analysis::FindCode(code)) {
        *problem = option + ": unknown diagnostic code '" + code + "'";
        return false;
      }
      codes->push_back(code);
    }
    at = comma + 1;
  }
  return true;
}

}  // namespace

bool ParseCheckArgs(const std::vector<std::string>& args, CheckOptions* options,
                    std::string* problem) {
  bool only_files = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_files) {
      options->files.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_files = true;
      continue;
    }
    if (arg == "--hints") {
      options->hints = true;
      continue;
    }
    if (arg == "--fix" || arg == "--diff") {
      (arg == "--fix" ? options->fix : options->diff) = true;
      continue;
    }
    std::string value;
    bool matched = false;
    if (!OptionValue(args, &i, "--format", &value, &matched, problem)) {
      *problem = "--format needs a value (text or json)";
      return false;
    }
    if (matched) {
      if (value == "text") {
        options->format = CheckFormat::kText;
      } else if (value == "json") {
        options->format = CheckFormat::kJson;
      } else {
        *problem = "unknown format '" + value + "' (expected text or json)";
        return false;
      }
      continue;
    }
    if (!OptionValue(args, &i, "--config", &value, &matched, problem)) return false;
    if (matched) {
      if (value.empty()) {
        *problem = "--config needs a file";
        return false;
      }
      options->config_path = value;
      continue;
    }
    if (!OptionValue(args, &i, "--select", &value, &matched, problem)) return false;
    if (matched) {
      if (!ParseCodes("--select", value, &options->select, problem)) return false;
      continue;
    }
    if (!OptionValue(args, &i, "--ignore", &value, &matched, problem)) return false;
    if (matched) {
      if (!ParseCodes("--ignore", value, &options->ignore, problem)) return false;
      continue;
    }
    bool jobs = false;
    if (arg == "-j" || arg == "--jobs") {
      if (i + 1 >= args.size()) {
        *problem = arg + " needs a number";
        return false;
      }
      value = args[++i];
      jobs = true;
    } else if (arg.rfind("-j", 0) == 0 && arg.size() > 2 && arg[2] != '-') {
      value = arg.substr(2);
      jobs = true;
    } else if (arg.rfind("--jobs=", 0) == 0) {
      value = arg.substr(7);
      jobs = true;
    }
    if (jobs) {
      char* end = nullptr;
      long n = value.empty() ? -1 : std::strtol(value.c_str(), &end, 10);
      if (n < 0 || n > 1024 || (end && *end != '\0')) {
        *problem = "-j: expected a number of jobs from 0 (one per core) to 1024, got '" + value + "'";
        return false;
      }
      options->jobs = static_cast<int>(n);
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-') {
      *problem = "unknown option '" + arg + "'";
      return false;
    }
    options->files.push_back(arg);
  }
  if (options->files.empty()) {
    *problem = "no input files";
    return false;
  }
  if (options->fix && options->diff) {
    *problem = "--fix and --diff do not go together (--fix prints the file, --diff the changes)";
    return false;
  }
  if (options->fix && options->files.size() != 1) {
    *problem = "--fix prints one fixed file: give exactly one (--diff takes many)";
    return false;
  }
  if ((options->fix || options->diff) && options->format == CheckFormat::kJson) {
    *problem = "--fix and --diff print text, not json";
    return false;
  }
  return true;
}

std::string FormatDiagnosticText(const std::string& path, const Document& doc,
                                 const Diagnostic& d) {
  std::string s = Location(path, doc, d.range.begin) + ": " + analysis::SeverityName(d.severity) +
                  ": " + d.message;
  if (!d.code.empty()) s += " [" + d.code + "]";
  s += "\n" + SourceAndCarets(doc, d.range);
  for (const analysis::RelatedLocation& r : d.related) {
    s += "  " + Location(path, doc, r.range.begin) + ": note: " + r.message + "\n";
  }
  // The diagnostic's own fixes (not the "suppress on this line" every diagnostic has).
  for (const analysis::Fix& fix : d.fixes) {
    s += "  fix" + std::string(fix.preferred ? " (preferred)" : "") + ": " + fix.title + "\n";
  }
  return s;
}

namespace {

// What checking one file produced, printed in file order once every earlier file is printed.
struct FileResult {
  bool done = false;
  bool read_error = false;
  bool checked = false;
  std::string text;                                            // text format
  nlohmann::ordered_json json = nlohmann::ordered_json::array();  // json format
  int counts[5] = {0, 0, 0, 0, 0};                             // indexed by Severity
  int fixes = 0;         // --fix / --diff: fixes applied
  bool changed = false;  // --fix / --diff: the fixed text differs
};

// The severity `d` is reported with under `config` and the command line, or nullopt to drop it.
std::optional<Severity> EffectiveSeverity(const Diagnostic& d, const ProjectConfig& config,
                                          const CheckOptions& options) {
  auto listed = [&](const std::vector<std::string>& codes) {
    return std::find(codes.begin(), codes.end(), d.code) != codes.end();
  };
  if (!options.select.empty() && !listed(options.select)) return std::nullopt;
  if (listed(options.ignore)) return std::nullopt;
  auto it = config.severity.find(d.code);
  return it == config.severity.end() ? std::optional<Severity>(d.severity) : it->second;
}

// Applies the preferred fix of every reported diagnostic of `text`, in rounds (a fix may remove
// or reveal others) until none applies or 8 rounds. Fixes whose edits overlap an earlier one's
// wait for the next round. Returns the number applied; `*errors` the errors left.
int ApplyPreferredFixes(std::string* text, const ProjectConfig& config, const CheckOptions& options,
                        int* errors) {
  bool hints = options.hints || config.hints.value_or(false);
  int applied = 0;
  for (int round = 0; round <= 8; ++round) {
    Document doc(*text);
    analysis::Analyzer analyzer(AnalysisOptionsOf(config));
    analyzer.Run(doc);
    analysis::Fix merged;
    *errors = 0;
    int this_round = 0;
    // A round fixes only the most severe diagnostics that have a preferred fix: a warning is
    // often the consequence of an error (a return annotation after a wrong binding annotation),
    // and fixing both at once could undo each other.
    int level = 5;
    for (const Diagnostic* d : analyzer.Diagnostics()) {
      std::optional<Severity> severity = EffectiveSeverity(*d, config, options);
      if (!severity || (*severity == Severity::kHint && !hints)) continue;
      for (const analysis::Fix& f : d->fixes) {
        if (f.preferred) level = std::min(level, static_cast<int>(*severity));
      }
    }
    for (const Diagnostic* d : analyzer.Diagnostics()) {
      std::optional<Severity> severity = EffectiveSeverity(*d, config, options);
      if (!severity || (*severity == Severity::kHint && !hints)) continue;
      if (*severity == Severity::kError) ++*errors;
      if (round == 8 || static_cast<int>(*severity) != level) continue;
      const analysis::Fix* preferred = nullptr;
      for (const analysis::Fix& f : d->fixes) {
        if (f.preferred) preferred = &f;
      }
      if (!preferred || preferred->edits.empty()) continue;
      bool overlaps = false;
      for (const analysis::TextEdit& e : preferred->edits) {
        for (const analysis::TextEdit& m : merged.edits) {
          if (e.range.begin < m.range.end && m.range.begin < e.range.end) overlaps = true;
          if (e.range.begin == m.range.begin) overlaps = true;  // two inserts at one place
        }
      }
      if (overlaps) continue;
      for (const analysis::TextEdit& e : preferred->edits) merged.edits.push_back(e);
      ++this_round;
    }
    if (this_round == 0 || !analysis::ApplyFix(merged, text)) break;
    applied += this_round;
  }
  return applied;
}

// `--fix` / `--diff` of one file whose text and configuration are read.
void FixOne(const std::string& path, const std::string& text, const CheckOptions& options,
            const ProjectConfig& config, FileResult* result) {
  std::string fixed = text;
  int errors = 0;
  int applied = ApplyPreferredFixes(&fixed, config, options, &errors);
  result->fixes = applied;
  result->counts[static_cast<int>(Severity::kError)] = errors;
  result->changed = fixed != text;
  result->text = options.fix ? fixed : UnifiedDiff(text, fixed, path, path);
}

// `threads`: for the analysis of one file (AnalysisOptions::threads), the cores the other files
// leave.
void CheckOne(const std::string& path, const CheckOptions& options, ConfigStore* configs,
              unsigned threads, FileResult* result) {
  std::string text, error;
  if (!ReadSourceFile(path, &text, &error)) {
    result->read_error = true;
    result->text = path + ": error: " + error + "\n";
    return;
  }
  result->checked = true;
  std::shared_ptr<const ProjectConfig> shared =
      configs->For(std::filesystem::path(path).parent_path().string());
  const ProjectConfig& config = *shared;
  if (options.fix || options.diff) {
    FixOne(path, text, options, config, result);
    return;
  }
  analysis::AnalysisOptions analysis_options = AnalysisOptionsOf(config);
  analysis_options.threads = threads;
  bool hints = options.hints || config.hints.value_or(false);
  Document doc(std::move(text));
  analysis::Analyzer analyzer(analysis_options);
  analyzer.Run(doc);
  if (!analyzer.HasTvmScript()) return;
  for (const Diagnostic* dp : analyzer.Diagnostics()) {
    std::optional<Severity> severity = EffectiveSeverity(*dp, config, options);
    if (!severity || (*severity == Severity::kHint && !hints)) continue;
    Diagnostic d = *dp;
    d.severity = *severity;
    ++result->counts[static_cast<int>(d.severity)];
    if (options.format == CheckFormat::kJson) {
      result->json.push_back(JsonDiagnostic(path, doc, d));
    } else {
      result->text += FormatDiagnosticText(path, doc, d);
    }
  }
}

// The problems of a configuration file as `invalid-config` diagnostics on that file.
void ReportConfigProblems(const ProjectConfig& config, const CheckOptions& options,
                          FileResult* result) {
  if (config.problems.empty()) return;
  std::string text;
  std::string error;
  ReadSourceFile(config.path, &text, &error);
  Document doc(text);
  for (const Diagnostic& d : ConfigDiagnostics(config, doc)) {
    ++result->counts[static_cast<int>(d.severity)];
    if (options.format == CheckFormat::kJson) {
      result->json.push_back(JsonDiagnostic(config.path, doc, d));
    } else {
      result->text += FormatDiagnosticText(config.path, doc, d);
    }
  }
}

}  // namespace

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  ConfigStore configs(options.config_path);
  std::vector<InputProblem> walk_problems;
  std::vector<std::string> files = ExpandInputs(options.files, &configs, &walk_problems);
  bool io_problem = !walk_problems.empty();
  for (const InputProblem& p : walk_problems) err << p.path << ": error: " << p.message << "\n";

  std::vector<FileResult> results(files.size());
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<size_t> next{0};
  size_t jobs = options.jobs > 0 ? static_cast<size_t>(options.jobs)
                                 : std::max(1u, std::thread::hardware_concurrency());
  jobs = std::min(jobs, std::max<size_t>(files.size(), 1));
  unsigned threads_per_file =
      std::max(1u, std::max(1u, std::thread::hardware_concurrency()) / static_cast<unsigned>(jobs));
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      FileResult result;
      CheckOne(files[i], options, &configs, threads_per_file, &result);
      std::lock_guard<std::mutex> lock(mutex);
      results[i] = std::move(result);
      results[i].done = true;
      changed.notify_all();
    }
  };
  // `jobs` workers check; this thread prints, in file order, as results arrive.
  std::vector<std::thread> workers;
  for (size_t j = 0; j < jobs; ++j) workers.emplace_back(work);

  int counts[5] = {0, 0, 0, 0, 0};
  int files_checked = 0;
  int fixes_applied = 0;
  int files_changed = 0;
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  auto take = [&](FileResult& r) {
    if (r.read_error) {
      err << r.text;
      io_problem = true;
      return;
    }
    if (r.checked) ++files_checked;
    fixes_applied += r.fixes;
    files_changed += r.changed ? 1 : 0;
    for (int s = 0; s < 5; ++s) counts[s] += r.counts[s];
    if (options.format == CheckFormat::kJson) {
      for (auto& d : r.json) array.push_back(std::move(d));
    } else {
      out << r.text;
    }
    r = FileResult();
  };
  // A progress line on a terminal for runs of 20 files or more, rewritten while waiting and
  // cleared before any output.
  bool progress = options.progress && files.size() >= 20;
  bool progress_shown = false;
  if (progress) {
    err << "checking 0/" << files.size() << " files" << std::flush;
    progress_shown = true;
  }
  for (size_t i = 0; i < files.size(); ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    if (!results[i].done && progress) {
      err << "\rchecking " << i << "/" << files.size() << " files" << std::flush;
      progress_shown = true;
    }
    changed.wait(lock, [&] { return results[i].done; });
    FileResult r = std::move(results[i]);
    lock.unlock();
    if (progress_shown && (!r.text.empty() || r.read_error)) {
      err << "\r\033[K" << std::flush;
    }
    take(r);
  }
  for (std::thread& t : workers) t.join();
  if (progress_shown) err << "\r\033[K" << std::flush;

  for (const std::shared_ptr<const ProjectConfig>& config : configs.Loaded()) {
    FileResult r;
    ReportConfigProblems(*config, options, &r);
    take(r);
  }

  int errors = counts[static_cast<int>(Severity::kError)];
  if (options.fix || options.diff) {
    err << Count(fixes_applied, "fix", "fixes") << " in " << Count(files_changed, "file", "files")
        << (options.fix ? " applied" : " would apply") << "; "
        << Count(errors, "error", "errors") << " left in " << Count(files_checked, "file", "files")
        << " (nothing was written)\n";
    if (io_problem) return kExitUsage;
    if (options.diff) return files_changed > 0 ? kExitErrors : kExitOk;
    return errors > 0 ? kExitErrors : kExitOk;
  }
  if (options.format == CheckFormat::kJson) {
    // Messages quote source text, which may be invalid UTF-8: replace rather than throw.
    out << array.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
  } else {
    int warnings = counts[static_cast<int>(Severity::kWarning)];
    std::string summary =
        Count(errors, "error", "errors") + ", " + Count(warnings, "warning", "warnings");
    if (int n = counts[static_cast<int>(Severity::kInformation)]; n > 0) {
      summary += ", " + Count(n, "information message", "information messages");
    }
    if (int n = counts[static_cast<int>(Severity::kHint)]; n > 0) {
      summary += ", " + Count(n, "hint", "hints");
    }
    err << summary << " in " << Count(files_checked, "file", "files") << "\n";
  }
  if (io_problem) return kExitUsage;
  return errors > 0 ? kExitErrors : kExitOk;
}

}  // namespace tvmls::server
