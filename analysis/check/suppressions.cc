#include "check/suppressions.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>

#include <tree_sitter/api.h>

#include "check/codes.h"

namespace tvmls::analysis {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t'; }
bool IsCodeChar(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

bool Unsuppressible(const std::string& code) {
  return code == "syntax-error" || code == "unused-suppression";
}

// Reads the codes of `a, b ,c` from text[*i] up to `stop` (']' for ignore[...], the end of the
// line for disable=). Leaves *i after the last code read.
void ReadCodes(const std::string& text, size_t* i, size_t line_end, char stop,
               std::vector<SuppressedCode>* codes, size_t* last_end) {
  size_t at = *i;
  while (at < line_end) {
    while (at < line_end && (IsBlank(text[at]) || text[at] == ',')) ++at;
    if (at >= line_end || text[at] == stop || !IsCodeChar(text[at])) break;
    size_t begin = at;
    while (at < line_end && IsCodeChar(text[at])) ++at;
    codes->push_back({text.substr(begin, at - begin),
                      TextRange{static_cast<uint32_t>(begin), static_cast<uint32_t>(at)}});
    *last_end = at;
  }
  *i = at;
}

// The directive of a comment whose '#' is at `hash`, if it is a `tvmls:` one (not checking that
// the '#' starts a comment).
std::optional<Suppression> ParseDirective(const std::string& text, size_t hash, size_t line_end) {
  size_t i = hash + 1;
  while (i < line_end && IsBlank(text[i])) ++i;
  if (text.compare(i, 6, "tvmls:") != 0) return std::nullopt;
  i += 6;
  while (i < line_end && IsBlank(text[i])) ++i;
  Suppression s;
  size_t end;
  if (text.compare(i, 6, "ignore") == 0 && (i + 6 >= line_end || !IsCodeChar(text[i + 6]))) {
    i += 6;
    end = i;
    if (i < line_end && text[i] == '[') {
      ++i;
      ReadCodes(text, &i, line_end, ']', &s.codes, &end);
      while (i < line_end && IsBlank(text[i])) ++i;
      // `ignore[...]` in prose is not a directive: the list must hold codes and be closed.
      if (i >= line_end || text[i] != ']' || s.codes.empty()) return std::nullopt;
      end = i + 1;
    } else {
      s.all_codes = true;
    }
  } else if (text.compare(i, 7, "disable") == 0 &&
             (i + 7 >= line_end || !IsCodeChar(text[i + 7]))) {
    s.file_level = true;
    i += 7;
    end = i;
    while (i < line_end && IsBlank(text[i])) ++i;
    if (i < line_end && text[i] == '=') {
      ++i;
      ReadCodes(text, &i, line_end, '#', &s.codes, &end);
      if (s.codes.empty()) return std::nullopt;  // `disable=...` in prose
    }
    s.all_codes = s.codes.empty();
  } else {
    return std::nullopt;
  }
  s.directive = {static_cast<uint32_t>(hash), static_cast<uint32_t>(end)};
  return s;
}

bool IsCommentAt(const Document& doc, uint32_t offset) {
  TSNode node = ts_node_descendant_for_byte_range(doc.Root(), offset, offset + 1);
  return !ts_node_is_null(node) && std::strcmp(ts_node_type(node), "comment") == 0;
}

size_t LineEnd(const std::string& text, size_t from) {
  const void* nl = std::memchr(text.data() + from, '\n', text.size() - from);
  size_t end = nl ? static_cast<const char*>(nl) - text.data() : text.size();
  if (end > from && text[end - 1] == '\r') --end;
  return end;
}

// The edit that removes a whole suppression: the directive and the blanks before it; the whole
// line when the directive is alone on it.
TextEdit RemoveDirective(const Document& doc, const Suppression& s) {
  const std::string& text = doc.Text();
  uint32_t line_start = doc.Lines().LineStart(s.line);
  uint32_t begin = s.directive.begin;
  while (begin > line_start && IsBlank(text[begin - 1])) --begin;
  uint32_t end = s.directive.end;
  size_t line_end = LineEnd(text, s.directive.begin);
  uint32_t after = end;
  while (after < line_end && IsBlank(text[after])) ++after;
  if (begin == line_start && after == line_end) {
    // Alone on its line: the line goes, with its line break.
    uint32_t next = static_cast<uint32_t>(line_end);
    if (next < text.size() && text[next] == '\r') ++next;
    if (next < text.size() && text[next] == '\n') ++next;
    return {{line_start, next}, ""};
  }
  if (after == line_end) end = after;
  return {{begin, end}, ""};
}

// The edit that removes one code from a list of several: the code and the separator before it
// (or after it, for the first).
TextEdit RemoveCode(const Document& doc, const Suppression& s, size_t index) {
  const std::string& text = doc.Text();
  TextRange r = s.codes[index].range;
  uint32_t begin = r.begin, end = r.end;
  if (index > 0) {
    begin = s.codes[index - 1].range.end;
  } else {
    end = s.codes[1].range.begin;
  }
  (void)text;
  return {{begin, end}, ""};
}

Diagnostic UnusedHint(TextRange range, std::string message, Fix fix) {
  Diagnostic d;
  d.range = range;
  d.severity = Severity::kHint;
  d.code = "unused-suppression";
  d.message = std::move(message);
  d.fixes.push_back(std::move(fix));
  return d;
}

std::string Spelling(const Document& doc, TextRange r) {
  return doc.Text().substr(r.begin, r.end - r.begin);
}

}  // namespace

std::vector<Suppression> FindDirectives(const Document& doc, uint32_t begin, uint32_t end) {
  std::vector<Suppression> found;
  const std::string& text = doc.Text();
  end = std::min<uint32_t>(end, static_cast<uint32_t>(text.size()));
  size_t at = doc.Lines().LineStart(doc.Lines().LineOf(std::min<uint32_t>(begin, end)));
  size_t stop = end < text.size() ? LineEnd(text, end) : text.size();
  while (at < stop) {
    const void* hit = std::memchr(text.data() + at, '#', stop - at);
    if (!hit) break;
    size_t hash = static_cast<const char*>(hit) - text.data();
    std::optional<Suppression> s = ParseDirective(text, hash, LineEnd(text, hash));
    if (s) {
      s->line = doc.Lines().LineOf(static_cast<uint32_t>(hash));
      found.push_back(std::move(*s));
    }
    at = hash + 1;  // the '#' may be in a string: a later one on the line may be the comment
  }
  return found;
}

std::vector<Suppression> InComments(const Document& doc, const std::vector<Suppression>& directives) {
  std::vector<Suppression> kept;
  const std::string& text = doc.Text();
  size_t comment_end = 0;  // the end of the line of the last comment kept
  for (const Suppression& s : directives) {
    // A '#' after a comment's start is inside that comment: its directive is the comment's text.
    if (!kept.empty() && s.directive.begin < comment_end) continue;
    if (!IsCommentAt(doc, s.directive.begin)) continue;
    kept.push_back(s);
    comment_end = LineEnd(text, s.directive.begin);
  }
  return kept;
}

std::vector<Suppression> FindSuppressions(const Document& doc, uint32_t begin, uint32_t end) {
  return InComments(doc, FindDirectives(doc, begin, end));
}

std::vector<Suppression> FindSuppressions(const Document& doc) {
  return FindSuppressions(doc, 0, static_cast<uint32_t>(doc.Text().size()));
}

namespace {

// Moves `suppressions` through one edit that replaced [begin, old_end) by text ending at
// new_end: those before it stay, those after it shift, those it touches are dropped.
void ShiftSuppressions(std::vector<Suppression>* suppressions, uint32_t begin, uint32_t old_end,
                       uint32_t new_end) {
  int64_t delta = static_cast<int64_t>(new_end) - old_end;
  auto shift = [delta](TextRange* r) {
    r->begin = static_cast<uint32_t>(r->begin + delta);
    r->end = static_cast<uint32_t>(r->end + delta);
  };
  std::vector<Suppression> kept;
  kept.reserve(suppressions->size());
  for (Suppression& s : *suppressions) {
    if (s.directive.end < begin) {
      kept.push_back(std::move(s));
    } else if (s.directive.begin > old_end) {
      shift(&s.directive);
      for (SuppressedCode& c : s.codes) shift(&c.range);
      kept.push_back(std::move(s));
    }
  }
  suppressions->swap(kept);
}

}  // namespace

void UpdateDirectives(const Document& doc, const std::vector<EditSpan>& edits,
                      std::vector<Suppression>* suppressions) {
  const std::string& text = doc.Text();
  uint32_t lo = 0, hi = 0;  // the touched bytes, in the current text
  bool any = false;
  for (const EditSpan& e : edits) {
    ShiftSuppressions(suppressions, e.begin, e.old_end, e.new_end);
    int64_t delta = static_cast<int64_t>(e.new_end) - e.old_end;
    if (any && lo > e.old_end) {
      lo = static_cast<uint32_t>(lo + delta);
      hi = static_cast<uint32_t>(hi + delta);
    } else if (any && hi >= e.begin) {
      hi = static_cast<uint32_t>(std::max<int64_t>(static_cast<int64_t>(hi) + delta, e.new_end));
    }
    lo = any ? std::min(lo, e.begin) : e.begin;
    hi = any ? std::max(hi, e.new_end) : e.new_end;
    any = true;
  }
  if (any) {
    // The touched lines are read whole: drop what was kept on them, then read them again.
    const LineIndex& lines = doc.Lines();
    uint32_t size = static_cast<uint32_t>(text.size());
    uint32_t from = lines.LineStart(lines.LineOf(std::min(lo, size)));
    uint32_t to = std::min(hi, size);
    uint32_t to_line_end = lines.LineContentEnd(text, lines.LineOf(to));
    std::vector<Suppression> merged;
    for (Suppression& s : *suppressions) {
      if (s.directive.begin < from || s.directive.begin > to_line_end) merged.push_back(std::move(s));
    }
    for (Suppression& s : FindDirectives(doc, from, to)) merged.push_back(std::move(s));
    std::sort(merged.begin(), merged.end(), [](const Suppression& a, const Suppression& b) {
      return a.directive.begin < b.directive.begin;
    });
    suppressions->swap(merged);
  }
  for (Suppression& s : *suppressions) s.line = doc.Lines().LineOf(s.directive.begin);
}

std::vector<const Diagnostic*> ApplySuppressions(const Document& doc,
                                                 const std::vector<Suppression>& suppressions,
                                                 const std::vector<const Diagnostic*>& diagnostics,
                                                 std::vector<Diagnostic>* unused) {
  if (suppressions.empty()) return diagnostics;
  // used[i][0]: suppression i suppressed something as a whole (bare); used[i][1 + k]: code k.
  std::vector<std::vector<bool>> used(suppressions.size());
  for (size_t i = 0; i < suppressions.size(); ++i) {
    used[i].assign(1 + suppressions[i].codes.size(), false);
  }
  auto covers = [&](size_t i, const Diagnostic& d) {
    const Suppression& s = suppressions[i];
    if (s.all_codes) {
      used[i][0] = true;
      return true;
    }
    for (size_t k = 0; k < s.codes.size(); ++k) {
      if (s.codes[k].code == d.code) {
        used[i][1 + k] = true;
        return true;
      }
    }
    return false;
  };
  std::vector<const Diagnostic*> kept;
  kept.reserve(diagnostics.size());
  for (const Diagnostic* d : diagnostics) {
    if (Unsuppressible(d->code)) {
      kept.push_back(d);
      continue;
    }
    uint32_t line = doc.Lines().LineOf(d->range.begin);
    bool suppressed = false;
    for (size_t i = 0; i < suppressions.size() && !suppressed; ++i) {
      const Suppression& s = suppressions[i];
      if ((s.file_level || s.line == line) && covers(i, *d)) suppressed = true;
    }
    if (!suppressed) kept.push_back(d);
  }

  unused->clear();
  for (size_t i = 0; i < suppressions.size(); ++i) {
    const Suppression& s = suppressions[i];
    std::string spelled = Spelling(doc, s.directive);
    std::string where = s.file_level ? "in this file" : "on this line";
    if (s.all_codes) {
      if (!used[i][0]) {
        unused->push_back(UnusedHint(s.directive, "`" + spelled + "` suppresses nothing " + where,
                                     Fix{"Remove the unused suppression", true,
                                         {RemoveDirective(doc, s)}}));
      }
      continue;
    }
    size_t unused_codes = 0;
    for (size_t k = 0; k < s.codes.size(); ++k) unused_codes += used[i][1 + k] ? 0 : 1;
    if (unused_codes == 0) continue;
    if (unused_codes == s.codes.size()) {
      unused->push_back(UnusedHint(s.directive, "`" + spelled + "` suppresses nothing " + where,
                                   Fix{"Remove the unused suppression", true,
                                       {RemoveDirective(doc, s)}}));
      continue;
    }
    for (size_t k = 0; k < s.codes.size(); ++k) {
      if (used[i][1 + k]) continue;
      const SuppressedCode& c = s.codes[k];
      std::string message = FindCode(c.code) == nullptr
                                 ? "`" + c.code + "` is not a tvmls diagnostic code"
                                 : "no `" + c.code + "` diagnostic " + where + " to suppress";
      unused->push_back(UnusedHint(c.range, message,
                                   Fix{"Remove `" + c.code + "` from the suppression", true,
                                       {RemoveCode(doc, s, k)}}));
    }
  }
  if (unused->empty()) return kept;
  std::vector<const Diagnostic*> merged;
  merged.reserve(kept.size() + unused->size());
  size_t u = 0;
  for (const Diagnostic* d : kept) {
    while (u < unused->size() && (*unused)[u].range.begin < d->range.begin) {
      merged.push_back(&(*unused)[u++]);
    }
    merged.push_back(d);
  }
  for (; u < unused->size(); ++u) merged.push_back(&(*unused)[u]);
  return merged;
}

std::optional<Fix> SuppressionFix(const Document& doc, const Diagnostic& d) {
  if (Unsuppressible(d.code) || d.code.empty()) return std::nullopt;
  const std::string& text = doc.Text();
  uint32_t line = doc.Lines().LineOf(d.range.begin);
  uint32_t line_start = doc.Lines().LineStart(line);
  size_t line_end = LineEnd(text, line_start);
  Fix fix;
  fix.title = "Suppress `" + d.code + "` on this line (# tvmls: ignore)";
  fix.preferred = false;
  // An existing line suppression gets the code added to its list.
  for (size_t at = line_start; at < line_end; ++at) {
    if (text[at] != '#') continue;
    std::optional<Suppression> s = ParseDirective(text, at, line_end);
    if (!s || !IsCommentAt(doc, static_cast<uint32_t>(at))) continue;
    if (s->file_level) continue;
    if (s->all_codes) return std::nullopt;  // already covers every code
    uint32_t insert = s->codes.back().range.end;
    fix.edits.push_back({{insert, insert}, ", " + d.code});
    return fix;
  }
  // Appending a comment is only safe where the line ends in code or a comment: not inside a
  // string that goes on, not after a backslash continuation.
  uint32_t end = static_cast<uint32_t>(line_end);
  uint32_t last = end;
  while (last > line_start && IsBlank(text[last - 1])) --last;
  if (last == line_start || text[last - 1] == '\\') return std::nullopt;
  TSNode node = ts_node_descendant_for_byte_range(doc.Root(), last - 1, last);
  for (TSNode n = node; !ts_node_is_null(n); n = ts_node_parent(n)) {
    const char* type = ts_node_type(n);
    if ((std::strcmp(type, "string") == 0 || std::strcmp(type, "string_content") == 0) &&
        ts_node_end_byte(n) > end) {
      return std::nullopt;
    }
  }
  fix.edits.push_back({{last, last}, "  # tvmls: ignore[" + d.code + "]"});
  return fix;
}

}  // namespace tvmls::analysis
