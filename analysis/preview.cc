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

size_t Indentation(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// The start of the line before `at` (at a line start), or npos at the text's start.
size_t PreviousLine(std::string_view text, size_t at) {
  if (at == 0) return std::string_view::npos;
  size_t nl = at >= 2 ? text.rfind('\n', at - 2) : std::string_view::npos;
  return nl == std::string_view::npos ? 0 : nl + 1;
}

bool StartsStatement(std::string_view line) {
  unsigned char c = line.empty() ? 0 : static_cast<unsigned char>(line[0]);
  if (!(c == '@' || c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  std::string_view word = FirstWord(line);
  return word != "else" && word != "elif" && word != "except" && word != "finally";
}

// For the line starting at `at`: the indentation of the body of the class that the last line
// before it at column 0 starting a statement begins (after its decorators); 0 when that is no
// class.
size_t ClassBodyIndent(std::string_view text, size_t at) {
  size_t start = std::string_view::npos;
  for (size_t l = PreviousLine(text, at); l != std::string_view::npos; l = PreviousLine(text, l)) {
    if (StartsStatement(LineAt(text, l))) {
      start = l;
      break;
    }
    if (l == 0) break;
  }
  if (start == std::string_view::npos) return 0;
  size_t l = start;
  while (l < at && !LineAt(text, l).empty() && LineAt(text, l)[0] == '@') l += LineAt(text, l).size() + 1;
  if (l >= at || FirstWord(LineAt(text, l)) != "class") return 0;
  for (l += LineAt(text, l).size() + 1; l < at; l += LineAt(text, l).size() + 1) {
    std::string_view line = LineAt(text, l);
    if (IsBlankLine(line) || line[Indentation(line)] == '#') continue;
    return Indentation(line);
  }
  return 0;
}

// Whether the line at `at` (a line start) starts a definition in the body of a class at the top.
bool StartsClassDefinition(std::string_view text, size_t at) {
  std::string_view line = LineAt(text, at);
  size_t indent = Indentation(line);
  if (indent == 0 || indent >= line.size()) return false;
  std::string_view word = FirstWord(line.substr(indent));
  if (line[indent] != '@' && word != "def" && word != "async") return false;
  return ClassBodyIndent(text, at) == indent;
}

// A cut inside the class that holds prefix_bytes and runs past it (a `mod.show()` dump is one
// class): the first line at or after prefix_bytes, before `limit`, after a blank line, starting a
// definition at the indentation of the class's body.
std::optional<uint32_t> InClassCut(std::string_view text, uint32_t prefix_bytes, size_t limit) {
  size_t at = text.rfind('\n', prefix_bytes - 1);
  at = at == std::string_view::npos ? 0 : at + 1;
  size_t body = ClassBodyIndent(text, at);
  if (body == 0) return std::nullopt;
  bool after_blank = false;
  for (size_t k = at; k < limit; k += LineAt(text, k).size() + 1) {
    std::string_view line = LineAt(text, k);
    if (!IsBlankLine(line) && Indentation(line) == 0 && line[0] != '#') return std::nullopt;  // the class ended
    if (k >= prefix_bytes && after_blank && Indentation(line) == body && line.size() > body) {
      std::string_view word = FirstWord(line.substr(body));
      if (line[body] == '@' || word == "def" || word == "async") return static_cast<uint32_t>(k);
    }
    after_blank = IsBlankLine(line);
  }
  return std::nullopt;
}

// After an in-class cut: whether the rest of the class assigns a name in its body (what the
// module's functions see as its extern globals) or holds anything but definitions at the body's
// indentation (read conservatively: a string's line there counts too).
bool RestOfClassMayAssign(std::string_view rest, size_t body) {
  for (size_t at = 0; at < rest.size(); at += LineAt(rest, at).size() + 1) {
    std::string_view line = LineAt(rest, at);
    if (IsBlankLine(line)) continue;
    size_t indent = Indentation(line);
    if (indent == 0) {
      if (line[0] == '#') continue;  // a comment does not end the class
      return false;                  // the class ended
    }
    if (indent > body) continue;
    if (indent < body) return true;
    std::string_view word = FirstWord(line.substr(body));
    if (line[body] != '@' && line[body] != '#' && word != "def" && word != "async") return true;
  }
  return false;
}

// The prefix's one-line import statements at the top level (their aliases the file has), and in
// `*statements` how many statements it has that are not comments (Analyzer::Impl::FileAliases
// reads the printer's header among the first ones).
std::set<std::string_view> PrefixImports(const Document& prefix, int* statements) {
  std::set<std::string_view> imports;
  std::string_view text = prefix.Text();
  TSNode root = prefix.Root();
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode c = ts_node_named_child(root, i);
    std::string_view type = ts_node_type(c);
    if (type == "comment") continue;
    ++*statements;
    if ((type == "import_statement" || type == "import_from_statement") &&
        ts_node_start_point(c).row == ts_node_end_point(c).row) {
      imports.insert(text.substr(ts_node_start_byte(c), ts_node_end_byte(c) - ts_node_start_byte(c)));
    }
  }
  return imports;
}

// Where the diagnostics the prefix's analysis gives stop being final, the text cut at `at`:
// `statements` are the prefix's (Analyzer::StatementDependencies). Nullopt when no statement
// (or function of a class cut in two) is covered.
std::optional<uint32_t> CoveredEnd(std::string_view text, uint32_t at,
                                   const std::vector<Analyzer::Dependencies>& statements,
                                   const AnalysisOptions& options) {
  std::string_view rest = text.substr(at);
  // Whether a test expects a unit to fail may turn on the uses of its name in the rest, but only
  // where some test expects failure: by `raises` or `xfail` (check/expected_failure.h).
  static constexpr std::string_view kRaises = "raises", kXfail = "xfail";
  bool by_use = options.expected_failures &&
                (std::search(text.begin(), text.end(), kRaises.begin(), kRaises.end()) != text.end() ||
                 std::search(text.begin(), text.end(), kXfail.begin(), kXfail.end()) != text.end());
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
  auto bound = [&](const std::vector<std::string>& lookups) {
    return std::any_of(lookups.begin(), lookups.end(), [&](const std::string& n) { return in(words.bound, n); });
  };
  auto used = [&](const std::vector<std::string>& units) {
    return by_use && std::any_of(units.begin(), units.end(), [&](const std::string& n) { return in(words.occurring, n); });
  };
  // Cut inside a class (the cut line is indented): its statement is the prefix's last, and its
  // functions are covered one by one.
  bool in_class = text[at] == ' ';
  bool covers = false;  // a statement or a function
  for (size_t i = 0; i < statements.size(); ++i) {
    const Analyzer::Dependencies& s = statements[i];
    if (in_class && i + 1 == statements.size()) {
      if (s.module_functions.empty() || s.whole_module_checks || used(s.unit_names) ||
          RestOfClassMayAssign(rest, Indentation(LineAt(text, at)))) {
        return covers ? std::optional<uint32_t>(s.begin) : std::nullopt;
      }
      std::vector<std::string> names;
      for (const auto& f : s.module_functions) names.push_back(f.name);
      std::sort(names.begin(), names.end());
      for (const auto& f : s.module_functions) {
        bool outside = std::any_of(f.callees.begin(), f.callees.end(), [&](const std::string& c) { return !in(names, c); });
        if (outside || f.fixes_in_callees || bound(f.unbound_lookups)) {
          return covers ? std::optional<uint32_t>(f.begin) : std::nullopt;
        }
        covers = true;
      }
      break;
    }
    if (bound(s.unbound_lookups) || used(s.unit_names)) {
      return covers ? std::optional<uint32_t>(s.begin) : std::nullopt;
    }
    covers = true;
  }
  return covers ? std::optional<uint32_t>(at) : std::nullopt;
}

}  // namespace

std::optional<uint32_t> PreviewCut(std::string_view text, uint32_t prefix_bytes) {
  if (prefix_bytes == 0 || prefix_bytes >= text.size()) return std::nullopt;
  size_t limit = std::min<size_t>(text.size(), static_cast<size_t>(prefix_bytes) + kPreviewSearchBytes);
  bool after_blank = true;  // the text's start is a statement's
  int starts = 0;           // lines before that may start a statement
  for (size_t at = 0; at < limit;) {
    std::string_view line = LineAt(text, at);
    if (after_blank && StartsStatement(line)) {
      if (at >= prefix_bytes && starts >= kHeaderStatementsRead) return static_cast<uint32_t>(at);
      ++starts;
    }
    after_blank = IsBlankLine(line);
    at += line.size() + 1;
  }
  return InClassCut(text, prefix_bytes, limit);
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

bool IsPreviewCut(std::string_view text, uint32_t at) {
  if (at == 0 || at >= text.size() || text[at - 1] != '\n') return false;
  if (!IsBlankLine(LineAt(text, PreviousLine(text, at)))) return false;
  return StartsStatement(LineAt(text, at)) || StartsClassDefinition(text, at);
}

std::optional<Preview> PreviewFirstStatements(std::string_view text, const AnalysisOptions& options,
                                              uint32_t prefix_bytes) {
  std::optional<uint32_t> cut = PreviewCut(text, prefix_bytes);
  if (!cut) return std::nullopt;
  return PreviewAt(text, options, *cut);
}

std::optional<Preview> PreviewAt(std::string_view text, const AnalysisOptions& options, uint32_t at) {
  if (!IsPreviewCut(text, at)) return std::nullopt;
  std::string_view rest = text.substr(at);
  if (EstimateNesting(text).depth > kMaxNestingDepth) return std::nullopt;
  Preview preview;
  preview.prefix = std::make_unique<Document>(std::string(text.substr(0, at)));
  const Document& prefix = *preview.prefix;
  if (!prefix.Refusal().empty() || ts_node_has_error(prefix.Root())) return std::nullopt;
  int statements = 0;
  std::set<std::string_view> imports = PrefixImports(prefix, &statements);
  if (RestMayChangeFile(rest, imports, statements < kHeaderStatementsRead)) return std::nullopt;

  AnalysisOptions one = options;
  one.threads = 1;
  Analyzer analyzer(one);
  analyzer.Run(prefix);
  if (!analyzer.HasTvmScript()) return std::nullopt;
  std::optional<uint32_t> end = CoveredEnd(text, at, analyzer.StatementDependencies(), options);
  if (!end) return std::nullopt;
  preview.end = *end;
  for (const Diagnostic* d : analyzer.Diagnostics()) {
    if (d->range.begin < preview.end) preview.diagnostics.push_back(*d);
  }
  return preview;
}

}  // namespace tvmls::analysis
