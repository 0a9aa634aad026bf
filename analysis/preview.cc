#include "preview.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <set>
#include <unordered_map>

#include <tree_sitter/api.h>

#include "syntax/module_bindings.h"
#include "syntax/nesting.h"

namespace tvmls::analysis {

namespace {

bool IsWordByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}
bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

// The line of `text` that starts at `at`, without its '\n'.
std::string_view LineAt(std::string_view text, size_t at) {
  size_t nl = text.find('\n', at);
  return text.substr(at, (nl == std::string_view::npos ? text.size() : nl) - at);
}

bool IsBlankLine(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return IsBlank(c) || c == '\r'; });
}

// The word `line` starts with (empty when it starts with something else).
std::string_view FirstWord(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && IsWordByte(static_cast<unsigned char>(line[n]))) ++n;
  return line.substr(0, n);
}

}  // namespace

std::optional<uint32_t> PreviewCut(std::string_view text, uint32_t prefix_bytes) {
  if (prefix_bytes == 0 || prefix_bytes >= text.size()) return std::nullopt;
  size_t limit = std::min<size_t>(text.size(), static_cast<size_t>(prefix_bytes) + kPreviewSearchBytes);
  bool after_blank = true;  // the text's start is a statement's
  int starts = 0;  // lines before that may start a statement
  for (size_t at = 0; at < limit;) {
    std::string_view line = LineAt(text, at);
    unsigned char c = line.empty() ? 0 : static_cast<unsigned char>(line[0]);
    bool letter = c == '@' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    std::string_view word = FirstWord(line);
    if (letter && after_blank && word != "else" && word != "elif" && word != "except" &&
        word != "finally") {
      if (at >= prefix_bytes && starts >= kHeaderStatementsRead) return static_cast<uint32_t>(at);
      ++starts;
    }
    after_blank = IsBlankLine(line);
    at += line.size() + 1;
  }
  return std::nullopt;
}

bool RestMayChangeFile(std::string_view rest, const std::set<std::string_view>& prefix_imports,
                       bool header_open) {
  static constexpr std::string_view kTool = "tvmls";
  if (std::search(rest.begin(), rest.end(), kTool.begin(), kTool.end()) != rest.end()) return true;
  for (size_t at = 0; at < rest.size();) {
    std::string_view line = LineAt(rest, at);
    at += line.size() + 1;
    size_t i = 0;
    while (i < line.size() && IsBlank(line[i])) ++i;
    bool comment = i < line.size() && line[i] == '#';
    while (i < line.size() && (IsBlank(line[i]) || line[i] == '#')) ++i;
    std::string_view word = FirstWord(line.substr(i));
    bool import = word == "import" || (word == "from" && line.find("import", i + 4) != std::string_view::npos);
    if (!import || (comment && !header_open)) continue;
    // Discovery takes aliases from imports of tvm's modules and star imports only (and the
    // printer's header, a comment of the same shape); a line continued by `\` is not read on.
    std::string_view statement = line.substr(i, line.find_last_not_of(" \t\r") + 1 - i);
    bool may = statement.find("tvm") != std::string_view::npos ||
               statement.find('*') != std::string_view::npos || statement.back() == '\\';
    if (may && (comment || prefix_imports.count(statement) == 0)) return true;
  }
  return false;
}

std::optional<Preview> PreviewFirstStatements(std::string_view text, const AnalysisOptions& options,
                                              uint32_t prefix_bytes) {
  std::optional<uint32_t> cut = PreviewCut(text, prefix_bytes);
  if (!cut) return std::nullopt;
  std::string_view rest = text.substr(*cut);
  if (EstimateNesting(text).depth > kMaxNestingDepth) return std::nullopt;

  Preview preview;
  preview.prefix = std::make_unique<Document>(std::string(text.substr(0, *cut)));
  const Document& prefix = *preview.prefix;
  if (!prefix.Refusal().empty() || ts_node_has_error(prefix.Root())) return std::nullopt;
  // The prefix's one-line imports at the top level, and whether the printer's header may still
  // be open (Analyzer::Impl::FileAliases reads the comments among the first statements).
  std::set<std::string_view> imports;
  int top_statements = 0;
  TSNode root = prefix.Root();
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode c = ts_node_named_child(root, i);
    std::string_view type = ts_node_type(c);
    if (type == "comment") continue;
    ++top_statements;
    if ((type == "import_statement" || type == "import_from_statement") &&
        ts_node_start_point(c).row == ts_node_end_point(c).row) {
      imports.insert(std::string_view(prefix.Text()).substr(ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c)));
    }
  }
  if (RestMayChangeFile(rest, imports, top_statements < kHeaderStatementsRead)) return std::nullopt;
  AnalysisOptions one = options;
  one.threads = 1;
  Analyzer analyzer(one);
  analyzer.Run(prefix);
  if (!analyzer.HasTvmScript()) return std::nullopt;

  // Whether a test expects a unit to fail may turn on the uses of its name in the rest, but only
  // where some test expects failure: by `raises` or `xfail` (check/expected_failure.h).
  static constexpr std::string_view kRaises = "raises", kXfail = "xfail";
  bool by_use = options.expected_failures &&
                (std::search(text.begin(), text.end(), kRaises.begin(), kRaises.end()) != text.end() ||
                 std::search(text.begin(), text.end(), kXfail.begin(), kXfail.end()) != text.end());
  std::vector<Analyzer::Dependencies> statements = analyzer.StatementDependencies();
  std::vector<std::string> asked;
  for (const Analyzer::Dependencies& s : statements) {
    asked.insert(asked.end(), s.unbound_lookups.begin(), s.unbound_lookups.end());
    if (by_use) asked.insert(asked.end(), s.unit_names.begin(), s.unit_names.end());
  }
  NamesInText words = FindModuleBindings(rest, asked);
  if (!words.balanced) return std::nullopt;
  auto in = [](const std::vector<std::string>& sorted, const std::string& name) {
    return std::binary_search(sorted.begin(), sorted.end(), name);
  };
  preview.end = *cut;
  bool covers = false;  // a statement
  for (const Analyzer::Dependencies& s : statements) {
    bool depends =
        std::any_of(s.unbound_lookups.begin(), s.unbound_lookups.end(),
                    [&](const std::string& n) { return in(words.bound, n); }) ||
        (by_use &&
         std::any_of(s.unit_names.begin(), s.unit_names.end(),
                     [&](const std::string& n) { return in(words.occurring, n); }));
    if (depends) {
      preview.end = s.begin;
      break;
    }
    covers = true;
  }
  if (!covers) return std::nullopt;
  for (const Diagnostic* d : analyzer.Diagnostics()) {
    if (d->range.begin < preview.end) preview.diagnostics.push_back(*d);
  }
  return preview;
}

}  // namespace tvmls::analysis
