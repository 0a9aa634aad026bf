// `tvmls check`: analysis diagnostics as text or JSON.
#include "check_command.h"

#include <algorithm>
#include <ostream>

#include <nlohmann/json.hpp>

#include "analysis.h"
#include "cli.h"
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
  for (const analysis::Fix& fix : d.fixes) {
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

bool ParseCheckArgs(const std::vector<std::string>& args, CheckOptions* options,
                    std::string* problem) {
  bool only_files = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    std::string format;
    if (!only_files && arg == "--") {
      only_files = true;
      continue;
    } else if (!only_files && arg == "--hints") {
      options->hints = true;
      continue;
    } else if (!only_files && arg == "--format") {
      if (i + 1 >= args.size()) {
        *problem = "--format needs a value (text or json)";
        return false;
      }
      format = args[++i];
    } else if (!only_files && arg.rfind("--format=", 0) == 0) {
      format = arg.substr(9);
    } else if (!only_files && arg.size() > 1 && arg[0] == '-') {
      *problem = "unknown option '" + arg + "'";
      return false;
    } else {
      options->files.push_back(arg);
      continue;
    }
    if (format == "text") {
      options->format = CheckFormat::kText;
    } else if (format == "json") {
      options->format = CheckFormat::kJson;
    } else {
      *problem = "unknown format '" + format + "' (expected text or json)";
      return false;
    }
  }
  if (options->files.empty()) {
    *problem = "no input files";
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
  return s;
}

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  bool io_problem = false;
  int files_checked = 0;
  int counts[5] = {0, 0, 0, 0, 0};  // indexed by Severity
  nlohmann::ordered_json array = nlohmann::ordered_json::array();
  for (const std::string& path : options.files) {
    std::string text, error;
    if (!ReadSourceFile(path, &text, &error)) {
      err << path << ": error: " << error << "\n";
      io_problem = true;
      continue;
    }
    ++files_checked;
    Document doc(std::move(text));
    analysis::Analyzer analyzer;
    analyzer.Run(doc);
    if (!analyzer.HasTvmScript()) continue;
    for (const Diagnostic* dp : analyzer.Diagnostics()) {
      const Diagnostic& d = *dp;
      if (d.severity == Severity::kHint && !options.hints) continue;
      ++counts[static_cast<int>(d.severity)];
      if (options.format == CheckFormat::kJson) {
        array.push_back(JsonDiagnostic(path, doc, d));
      } else {
        out << FormatDiagnosticText(path, doc, d);
      }
    }
  }
  int errors = counts[static_cast<int>(Severity::kError)];
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
