// Splitting and searching on top of ScanCode.
#include "vocab/text_scan.h"

#include <algorithm>

namespace tvmls::vocab {

TopLevelSplit SplitTopLevel(std::string_view text, char separator) {
  TopLevelSplit out;
  size_t start = 0;
  ScanEnd end = ScanCode(text, [&](size_t i, int depth) {
    if (depth == 0 && text[i] == separator) {
      out.pieces.push_back(text.substr(start, i - start));
      start = i + 1;
    }
    return true;
  });
  out.pieces.push_back(text.substr(start));
  out.balanced = !end.underflow && end.depth == 0 && !end.in_string;
  return out;
}

size_t MatchingClose(std::string_view text) {
  if (text.empty() || (text[0] != '(' && text[0] != '[' && text[0] != '{')) {
    return std::string_view::npos;
  }
  ScanEnd end = ScanCode(text, [&](size_t i, int depth) {
    char c = text[i];
    return !(i > 0 && depth == 1 && (c == ')' || c == ']' || c == '}'));
  });
  return end.stopped_at < text.size() ? end.stopped_at : std::string_view::npos;
}

size_t FindOutsideStrings(std::string_view text, char c) {
  ScanEnd end = ScanCode(text, [&](size_t i, int) { return text[i] != c; });
  return end.stopped_at < text.size() ? end.stopped_at : std::string_view::npos;
}

StringLiteral StringLiteralAt(std::string_view text, size_t quote) {
  const size_t size = text.size();
  const char q = text[quote];
  StringLiteral out;
  out.triple = quote + 2 < size && text[quote + 1] == q && text[quote + 2] == q;
  size_t i = quote + (out.triple ? 3 : 1);
  while (i < size) {
    char d = text[i];
    if (d == '\\') {
      i += 2;
    } else if (d == q && (!out.triple || (i + 2 < size && text[i + 1] == q && text[i + 2] == q))) {
      out.end = i + (out.triple ? 3 : 1);
      out.closed = true;
      return out;
    } else if (d == '\n' && !out.triple) {
      break;
    } else {
      ++i;
    }
  }
  out.end = std::min(i, size);
  return out;
}

}  // namespace tvmls::vocab
