// Expectation comments of fixture files, and their comparison with actual diagnostics.
#include "support/fixture.h"

#include <stdexcept>

namespace tvmls::testing {

namespace {

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    std::string_view line = text.substr(start, nl == std::string_view::npos ? nl : nl - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

bool IsSeverity(std::string_view s) {
  return s == "error" || s == "warning" || s == "information" || s == "hint";
}

bool IsCodeChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

[[noreturn]] void Malformed(size_t line, const std::string& why) {
  throw std::runtime_error("line " + std::to_string(line + 1) + ": " + why);
}

std::string Describe(const Expectation& e) {
  std::string s = e.severity + "[" + e.code + "] at ";
  if (e.open_end) {
    s += "col " + std::to_string(e.begin_column + 1) + " to a later line";
  } else {
    s += DescribeRange(e.line, e.begin_column, e.line, e.end_column);
  }
  if (!e.message_substring.empty()) s += " with message containing \"" + e.message_substring + "\"";
  return s;
}

std::string Describe(const ActualDiagnostic& d) {
  return d.severity + "[" + d.code + "] at " +
         DescribeRange(d.line, d.begin_column, d.end_line, d.end_column) + ": " + d.message;
}

bool SameRange(const Expectation& e, const ActualDiagnostic& d) {
  if (d.line != e.line || d.begin_column != e.begin_column) return false;
  if (e.open_end) return d.end_line > e.line;
  return d.end_line == e.line && d.end_column == e.end_column;
}

bool Matches(const Expectation& e, const ActualDiagnostic& d) {
  return SameRange(e, d) && d.severity == e.severity && d.code == e.code &&
         d.message.find(e.message_substring) != std::string::npos;
}

}  // namespace

uint32_t CountCodePoints(std::string_view text) {
  uint32_t n = 0;
  for (char c : text) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

std::string DescribeRange(uint32_t line, uint32_t begin_column, uint32_t end_line,
                          uint32_t end_column) {
  std::string s = "col " + std::to_string(begin_column + 1);
  if (end_line != line) {
    return s + " to line " + std::to_string(end_line + 1) + " col " +
           std::to_string(end_column + 1);
  }
  if (end_column <= begin_column) return s + " (empty)";
  if (end_column == begin_column + 1) return s;
  return s + "-" + std::to_string(end_column);
}

bool IsExpectationLine(std::string_view line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || line[i] != '#') return false;
  i = line.find_first_not_of(' ', i + 1);
  return i != std::string_view::npos && line[i] == '^';
}

namespace {

using QueryKind = QueryExpectation::Kind;

// Query keywords (with `:` when they take an argument) and what they mean.
constexpr std::pair<std::string_view, QueryKind> kQueryKeywords[] = {
    {"hover:", QueryKind::kHover},         {"no-hover", QueryKind::kNoHover},
    {"definition:", QueryKind::kDefinition}, {"references:", QueryKind::kReferences},
    {"highlight:", QueryKind::kHighlight}, {"rename:", QueryKind::kRename},
    {"no-rename", QueryKind::kNoRename},   {"annotate:", QueryKind::kAnnotate},
    {"no-annotate", QueryKind::kNoAnnotate},
};

// The query text after `^ `, or npos when the line is not a query marker.
size_t QueryStart(std::string_view line) {
  if (!IsExpectationLine(line)) return std::string_view::npos;
  size_t caret = line.find('^');
  if (caret + 1 >= line.size() || line[caret + 1] != ' ') return std::string_view::npos;
  std::string_view rest = line.substr(caret + 2);
  for (const auto& [k, kind] : kQueryKeywords) {
    if (rest.substr(0, k.size()) == k) return caret + 2;
  }
  return std::string_view::npos;
}

bool ParseUint(std::string_view s, uint32_t* out) {
  if (s.empty() || s.size() > 9) return false;
  uint32_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<uint32_t>(c - '0');
  }
  *out = v;
  return true;
}

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

bool IsQueryLine(std::string_view line) { return QueryStart(line) != std::string_view::npos; }

std::vector<QueryExpectation> ParseQueries(const std::string& text) {
  std::vector<std::string_view> lines = SplitLines(text);
  std::vector<QueryExpectation> result;
  size_t code_line = std::string_view::npos;
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view line = lines[n];
    if (!IsExpectationLine(line)) {
      code_line = n;
      continue;
    }
    size_t start = QueryStart(line);
    if (start == std::string_view::npos) continue;  // a diagnostic expectation
    if (code_line == std::string_view::npos) Malformed(n, "query before any code line");
    QueryExpectation q;
    q.line = static_cast<uint32_t>(code_line);
    q.expectation_line = static_cast<uint32_t>(n);
    q.column = CountCodePoints(line.substr(0, line.find('^')));
    if (q.column >= CountCodePoints(lines[code_line])) {
      Malformed(n, "the query caret is past the end of line " + std::to_string(code_line + 1));
    }
    std::string_view rest = line.substr(start);
    // The longest keyword the marker starts with (`no-rename` before a shorter match).
    std::string_view keyword;
    for (const auto& [k, kind] : kQueryKeywords) {
      if (rest.substr(0, k.size()) == k && k.size() > keyword.size()) {
        keyword = k;
        q.kind = kind;
      }
    }
    std::string_view arg = TrimSpaces(rest.substr(keyword.size()));
    bool takes_argument = keyword.back() == ':';
    if (!takes_argument && !arg.empty()) {
      // `no-rename: reason` is the one keyword with an optional argument.
      if (q.kind != QueryKind::kNoRename || arg.front() != ':') {
        Malformed(n, "`" + std::string(keyword) + "` takes no argument");
      }
      q.text = std::string(TrimSpaces(arg.substr(1)));
      if (q.text.empty()) Malformed(n, "`no-rename:` needs the text the reason contains");
    }
    switch (q.kind) {
      case QueryKind::kHover:
      case QueryKind::kAnnotate:
        if (arg.empty()) Malformed(n, "`" + std::string(keyword) + "` needs the text it contains");
        q.text = std::string(arg);
        break;
      case QueryKind::kDefinition: {
        size_t c = arg.find(':');
        uint32_t l = 0, col = 0;
        if (c == std::string_view::npos || !ParseUint(arg.substr(0, c), &l) ||
            !ParseUint(arg.substr(c + 1), &col) || l == 0 || col == 0) {
          Malformed(n, "`definition:` needs LINE:COLUMN (1-based)");
        }
        q.target_line = l - 1;
        q.target_column = col - 1;
        break;
      }
      case QueryKind::kReferences:
      case QueryKind::kHighlight:
        if (!ParseUint(arg, &q.count)) Malformed(n, "`" + std::string(keyword) + "` needs a count");
        break;
      case QueryKind::kRename: {
        // rename: NEWNAME -> N   or   rename: NEWNAME -> refused[: TEXT]
        size_t arrow = arg.find("->");
        if (arrow == std::string_view::npos) Malformed(n, "`rename:` needs NEWNAME -> COUNT or NEWNAME -> refused");
        q.new_name = std::string(TrimSpaces(arg.substr(0, arrow)));
        std::string_view outcome = TrimSpaces(arg.substr(arrow + 2));
        if (q.new_name.empty()) Malformed(n, "`rename:` needs the new name");
        constexpr std::string_view kRefused = "refused";
        if (outcome.substr(0, kRefused.size()) == kRefused) {
          q.refused = true;
          std::string_view reason = TrimSpaces(outcome.substr(kRefused.size()));
          if (!reason.empty()) {
            if (reason.front() != ':' || TrimSpaces(reason.substr(1)).empty()) {
              Malformed(n, "expected `refused` or `refused: TEXT`");
            }
            q.text = std::string(TrimSpaces(reason.substr(1)));
          }
        } else if (!ParseUint(outcome, &q.count)) {
          Malformed(n, "`rename:` needs NEWNAME -> COUNT or NEWNAME -> refused");
        }
        break;
      }
      case QueryKind::kNoHover:
      case QueryKind::kNoRename:
      case QueryKind::kNoAnnotate:
        break;
    }
    result.push_back(std::move(q));
  }
  return result;
}

std::vector<Expectation> ParseExpectations(const std::string& text) {
  std::vector<std::string_view> lines = SplitLines(text);
  std::vector<Expectation> result;
  size_t code_line = std::string_view::npos;  // the last line that is not an expectation line
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string_view line = lines[n];
    if (!IsExpectationLine(line)) {
      code_line = n;
      continue;
    }
    if (IsQueryLine(line)) continue;  // ParseQueries reads those
    if (code_line == std::string_view::npos) Malformed(n, "expectation line before any code line");
    Expectation e;
    e.line = static_cast<uint32_t>(code_line);
    e.expectation_line = static_cast<uint32_t>(n);
    size_t i = line.find('^');
    e.begin_column = CountCodePoints(line.substr(0, i));
    size_t carets = line.find_first_not_of('^', i);
    if (carets == std::string_view::npos) Malformed(n, "carets without `severity[code]`");
    e.end_column = e.begin_column + static_cast<uint32_t>(carets - i);
    bool empty = false;
    if (line[carets] == '!') {
      if (carets - i != 1) Malformed(n, "`!` (an empty range) follows exactly one `^`");
      e.end_column = e.begin_column;
      empty = true;
    } else if (line[carets] == '>') {
      e.open_end = true;
    }
    i = carets + (empty || e.open_end ? 1 : 0);
    if (i >= line.size() || line[i] != ' ') {
      Malformed(n, "expected ` severity[code]` after the carets");
    }
    ++i;
    size_t bracket = line.find('[', i);
    if (bracket == std::string_view::npos) Malformed(n, "expected `severity[code]`");
    e.severity = std::string(line.substr(i, bracket - i));
    if (!IsSeverity(e.severity)) {
      Malformed(n, "unknown severity '" + e.severity + "' (error, warning, information, hint)");
    }
    size_t close = line.find(']', bracket);
    if (close == std::string_view::npos) Malformed(n, "missing `]` after the code");
    e.code = std::string(line.substr(bracket + 1, close - bracket - 1));
    if (e.code.empty()) Malformed(n, "empty code");
    for (char c : e.code) {
      if (!IsCodeChar(c)) Malformed(n, "code '" + e.code + "' is not kebab-case");
    }
    std::string_view rest = line.substr(close + 1);
    if (!rest.empty()) {
      if (rest.size() < 3 || rest.substr(0, 2) != ": ") {
        Malformed(n, "expected `: message substring` or the end of the line after `]`");
      }
      e.message_substring = std::string(rest.substr(2));
    }
    uint32_t code_length = CountCodePoints(lines[code_line]);
    bool too_far = e.open_end ? e.begin_column >= code_length
                   : empty    ? e.begin_column > code_length
                              : e.end_column > code_length;
    if (too_far) {
      Malformed(n, "carets reach past the end of line " + std::to_string(code_line + 1) +
                       " (" + std::to_string(code_length) + " characters)");
    }
    result.push_back(std::move(e));
  }
  return result;
}

std::vector<std::string> Compare(const std::string& path,
                                 const std::vector<Expectation>& expectations,
                                 const std::vector<ActualDiagnostic>& actual) {
  std::vector<bool> used(actual.size(), false);
  std::vector<const Expectation*> unmatched;
  for (const Expectation& e : expectations) {
    bool found = false;
    for (size_t i = 0; i < actual.size() && !found; ++i) {
      if (!used[i] && Matches(e, actual[i])) used[i] = found = true;
    }
    if (!found) unmatched.push_back(&e);
  }
  std::vector<std::string> problems;
  for (const Expectation* e : unmatched) {
    std::string where = path + ":" + std::to_string(e->line + 1) + ": ";
    // A near miss (same code on the same line) is reported together with the expectation.
    size_t near = actual.size();
    for (size_t i = 0; i < actual.size() && near == actual.size(); ++i) {
      if (!used[i] && actual[i].line == e->line && actual[i].code == e->code) near = i;
    }
    if (near < actual.size()) {
      used[near] = true;
      problems.push_back(where + "expected " + Describe(*e) + ", got " + Describe(actual[near]));
    } else {
      problems.push_back(where + "expected " + Describe(*e) + ", got nothing");
    }
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (used[i]) continue;
    problems.push_back(path + ":" + std::to_string(actual[i].line + 1) + ": unexpected " +
                       Describe(actual[i]));
  }
  return problems;
}

}  // namespace tvmls::testing
