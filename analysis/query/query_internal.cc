#include "query/query_internal.h"

#include "model/syntax_util.h"

namespace tvmls::analysis::query_internal {

bool IsPythonKeyword(std::string_view word) {
  static const char* const kKeywords[] = {
      "and",   "as",    "assert",   "async",  "await", "break",  "class",  "continue", "def",
      "del",   "elif",  "else",     "except", "finally", "for",  "from",   "global",   "if",
      "import", "in",   "is",       "lambda", "nonlocal", "not", "or",     "pass",     "raise",
      "return", "try",  "while",    "with",   "yield", "None",   "True",   "False"};
  for (const char* k : kKeywords) {
    if (word == k) return true;
  }
  return false;
}

uint32_t ScanStart(std::string_view text, uint32_t offset) {
  constexpr int kMaxLinesBack = 4000;
  auto starts_with = [](std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
  };
  uint32_t line = LineStart(text, offset);
  for (int n = 0; n < kMaxLinesBack && line > 0; ++n) {
    uint32_t first = line;
    while (first < text.size() && (text[first] == ' ' || text[first] == '\t')) ++first;
    std::string_view rest = text.substr(first);
    if (starts_with(rest, "def ") || starts_with(rest, "class ") || starts_with(rest, "@") ||
        starts_with(rest, "async def ")) {
      return line;
    }
    line = LineStart(text, line - 1);
  }
  return line;
}

}  // namespace tvmls::analysis::query_internal
