// Scanning short Python texts with string literals and brackets in mind: one scanner for every
// place that splits or searches a piece of Python source by hand (op parameter defaults in
// ops/registry.cc, the parameter lists of the name table in vocab/script_names.cc, comments after
// a missing bracket in syntax/syntax_errors.cc, the test rows of tests/ops).
//
// The model is deliberately small, as the texts are: a string literal is '...' or "..." on one
// piece of text, a backslash inside it escapes the next character; no triple quotes, no string
// prefixes, no comments. Brackets are (), [] and {}, counted as one kind.
#ifndef TVMLS_ANALYSIS_VOCAB_TEXT_SCAN_H_
#define TVMLS_ANALYSIS_VOCAB_TEXT_SCAN_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace tvmls::vocab {

/// How a scan ended.
struct ScanEnd {
  /// Where the scan stopped: the index `visit` returned false at, or text.size().
  size_t stopped_at = 0;
  /// Brackets still open there (negative after more closers than openers).
  int depth = 0;
  /// A string literal is still open there.
  bool in_string = false;
  /// Some closing bracket had no opener (depth went below zero at some point).
  bool underflow = false;
};

/// Walks `text` left to right and calls `visit(i, depth)` for every character outside string
/// literals (the quotes themselves and everything between them are skipped). `depth` is the
/// number of brackets open before text[i]: an opening bracket is visited at the depth outside
/// it, its closing bracket at the depth inside it. `visit` returns true to go on, false to stop
/// at i. Never reads past the end, whatever the text.
template <typename Visit>
ScanEnd ScanCode(std::string_view text, Visit&& visit) {
  ScanEnd end;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (c == quote) {
        quote = 0;
      }
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (!visit(i, end.depth)) {
      end.stopped_at = i;
      return end;
    }
    if (c == '(' || c == '[' || c == '{') {
      ++end.depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--end.depth < 0) end.underflow = true;
    }
  }
  end.stopped_at = text.size();
  end.in_string = quote != 0;
  return end;
}

/// `text` cut at every `separator` outside string literals and brackets.
struct TopLevelSplit {
  /// The pieces between separators, untrimmed, in order: at least one (an empty text gives one
  /// empty piece; `a,` gives "a" and "").
  std::vector<std::string_view> pieces;
  /// Every bracket closes an earlier opener, none is left open and no string literal is.
  bool balanced = true;
};
TopLevelSplit SplitTopLevel(std::string_view text, char separator = ',');

/// The index of the bracket that closes the one at text[0] (brackets inside string literals do
/// not count), or npos when text[0] is not an opening bracket or nothing closes it.
size_t MatchingClose(std::string_view text);

/// The index of the first `c` outside string literals ('#' starts a comment), or npos.
size_t FindOutsideStrings(std::string_view text, char c);

/// A whole Python string literal, triple quotes included, for the scans of a whole file
/// (syntax/nesting.cc, syntax/module_bindings.cc), unlike ScanCode's small model.
struct StringLiteral {
  /// After its closing quote(s). A one-quote literal left open ends at its line end (the index
  /// of the '\n'), as the grammar's scanner ends it; one left open at the end of the text ends
  /// there (at most text.size()).
  size_t end = 0;
  bool triple = false;
  bool closed = false;  // its closing quote(s) were found
};
/// The literal whose opening quote (' or ", one or three) is text[quote]; a backslash inside
/// escapes the next character.
StringLiteral StringLiteralAt(std::string_view text, size_t quote);

}  // namespace tvmls::vocab

#endif  // TVMLS_ANALYSIS_VOCAB_TEXT_SCAN_H_
