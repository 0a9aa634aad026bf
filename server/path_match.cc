#include "path_match.h"

namespace tvmls::server {

namespace {

// Matches a bracket class starting at pattern[0] == '[' against c. Sets *length to the class's
// length in the pattern; returns false with *length 0 when the class is not closed (then '[' is
// an ordinary character).
bool MatchClass(std::string_view pattern, char c, size_t* length) {
  size_t i = 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool matched = false;
  bool first = true;
  for (; i < pattern.size(); ++i) {
    char lo = pattern[i];
    if (lo == ']' && !first) {
      *length = i + 1;
      return matched != negate && c != '/';
    }
    first = false;
    if (lo == '\\' && i + 1 < pattern.size()) lo = pattern[++i];
    char hi = lo;
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hi = pattern[i + 2];
      i += 2;
    }
    if (lo <= c && c <= hi) matched = true;
  }
  *length = 0;
  return false;
}

}  // namespace

bool GlobMatch(std::string_view p, std::string_view t) {
  while (!p.empty()) {
    if (p.size() >= 2 && p[0] == '*' && p[1] == '*') {
      std::string_view rest = p.substr(2);
      while (rest.size() >= 2 && rest[0] == '*' && rest[1] == '*') rest = rest.substr(2);
      // `a/**/b` matches `a/b`: the '/' after `**` may match nothing.
      if (!rest.empty() && rest[0] == '/' && GlobMatch(rest.substr(1), t)) return true;
      for (size_t i = 0; i <= t.size(); ++i) {
        if (GlobMatch(rest, t.substr(i))) return true;
      }
      return false;
    }
    char c = p[0];
    if (c == '*') {
      for (size_t i = 0; i <= t.size(); ++i) {
        if (GlobMatch(p.substr(1), t.substr(i))) return true;
        if (i < t.size() && t[i] == '/') break;
      }
      return false;
    }
    if (t.empty()) return false;
    if (c == '?') {
      if (t[0] == '/') return false;
      p.remove_prefix(1);
    } else if (c == '[') {
      size_t length = 0;
      bool matched = MatchClass(p, t[0], &length);
      if (length == 0) {
        if (t[0] != '[') return false;
        p.remove_prefix(1);
      } else {
        if (!matched) return false;
        p.remove_prefix(length);
      }
    } else {
      if (c == '\\' && p.size() > 1) {
        c = p[1];
        p.remove_prefix(1);
      }
      if (t[0] != c) return false;
      p.remove_prefix(1);
    }
    t.remove_prefix(1);
  }
  return t.empty();
}

bool ParsePathPattern(std::string_view line, PathPattern* pattern) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
    if (line.size() >= 2 && line.back() == ' ' && line[line.size() - 2] == '\\') break;
    line.remove_suffix(1);
  }
  if (line.empty() || line[0] == '#') return false;
  PathPattern result;
  if (line[0] == '!') {
    result.negated = true;
    line.remove_prefix(1);
  }
  if (!line.empty() && line.back() == '/') {
    result.directory_only = true;
    line.remove_suffix(1);
  }
  if (!line.empty() && line[0] == '/') {
    result.anchored = true;
    line.remove_prefix(1);
  }
  if (line.find('/') != std::string_view::npos) result.anchored = true;
  if (line.empty()) return false;
  result.glob = std::string(line);
  *pattern = std::move(result);
  return true;
}

int MatchPatterns(const std::vector<PatternSet>& sets, const std::string& path,
                  bool is_directory) {
  int verdict = 0;
  for (const PatternSet& set : sets) {
    std::string_view rel = path;
    if (!set.base.empty()) {
      if (rel.size() <= set.base.size() || rel.compare(0, set.base.size(), set.base) != 0 ||
          rel[set.base.size()] != '/') {
        continue;
      }
      rel.remove_prefix(set.base.size() + 1);
    }
    size_t slash = rel.rfind('/');
    std::string_view name = slash == std::string_view::npos ? rel : rel.substr(slash + 1);
    for (const PathPattern& p : set.patterns) {
      if (p.directory_only && !is_directory) continue;
      if (GlobMatch(p.glob, p.anchored ? rel : name)) verdict = p.negated ? -1 : 1;
    }
  }
  return verdict;
}

}  // namespace tvmls::server
