// Fixture files: TVMScript sources whose expected diagnostics are written as comments under the
// code they refer to (tests/fixtures/README.md has the format and the range conventions).
//
//   y = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m]), R.dtype("float32"))
//   #                                                   ^^^^^^^^^^^^ warning[storage-may-overflow]
//
// An expectation line is a comment whose text after `#` is: spaces, one or more `^`, an optional
// `>` or `!`, a space, `severity[code]`, and optionally `: message substring`. The carets stand
// under the exact range on the nearest preceding line that is not itself an expectation line: a
// caret in column c of the comment line (counted in characters from the start of the line, the
// `#` and the indentation included) marks column c of the code line; one caret, one character.
// `>` means the range continues past the code line; then only its start is checked (and that it
// ends on a later line). `^!` marks an empty range at the caret's column (a missing token; the
// column may be just past the end of the code line). A file without expectation lines expects
// no diagnostics at all.
//
// Query markers use the same shape with one caret and a query instead of `severity[code]`; the
// caret marks a position (not a range) on the code line above:
//
//   lv = R.add(x, y)
//   #^ hover: R.Tensor((1, 64), dtype="float32")     hover text contains this
//   #^ definition: 12:9                               definition starts at line 12, column 9
//   #^ references: 3                                  occurrences, the definition included
//   #^ no-hover                                       nothing to say here
//   #^ highlight: 3                                   document highlights: 3 occurrences
//   #^ rename: x2 -> 3                                renaming to x2 gives 3 edits (and nothing
//                                                     new is reported after applying them)
//   #^ rename: y -> refused: already                  renaming to y is refused, saying "already"
//   #^ no-rename                                      prepareRename refuses (`no-rename: TEXT`:
//                                                     with a reason containing TEXT)
//   #^ annotate: R.Tensor((1, 64)                     the annotate action inserts text containing
//                                                     this (and nothing new is reported after)
//   #^ no-annotate                                    no annotate action here
//
// Lines and columns of queries are 1-based, in characters, as an editor shows them.
//
// This library knows nothing of the analysis engine: tests convert diagnostics to
// ActualDiagnostic (lines and columns in code points) and call Compare.
#ifndef TVMLS_TESTS_SUPPORT_FIXTURE_H_
#define TVMLS_TESTS_SUPPORT_FIXTURE_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tvmls::testing {

struct Expectation {
  uint32_t line = 0;          // 0-based line of the code line the carets point into
  uint32_t begin_column = 0;  // 0-based, in characters (code points)
  uint32_t end_column = 0;    // exclusive; meaningless when open_end
  bool open_end = false;      // `^>`: the range ends on a later line
  std::string severity;       // "error", "warning", "information", "hint"
  std::string code;
  std::string message_substring;  // empty: any message
  uint32_t expectation_line = 0;  // 0-based line of the comment itself
};

/// A query marker (hover, definition, references, highlight, rename, annotate) at a position.
struct QueryExpectation {
  enum class Kind {
    kHover, kNoHover, kDefinition, kReferences, kHighlight, kRename, kNoRename, kAnnotate,
    kNoAnnotate
  };
  Kind kind = Kind::kHover;
  uint32_t line = 0;    // 0-based code line
  uint32_t column = 0;  // 0-based, in characters
  /// hover, annotate: a substring of the hover text / inserted text; no-rename, refused rename:
  /// a substring of the reason (empty: any).
  std::string text;
  std::string new_name;                         // rename
  bool refused = false;                         // rename: `-> refused[: TEXT]` instead of a count
  uint32_t target_line = 0, target_column = 0;  // definition: 0-based
  uint32_t count = 0;                           // references, highlight, rename (edits)
  uint32_t expectation_line = 0;                // 0-based line of the comment itself
};

/// True when `line` is a query marker (`#`, spaces, one `^`, a space, a query keyword).
bool IsQueryLine(std::string_view line);

/// All query markers of a fixture text, in file order. Throws std::runtime_error naming the
/// 1-based line when one is malformed.
std::vector<QueryExpectation> ParseQueries(const std::string& text);

/// A diagnostic as the engine (or the CLI) produced it, in 0-based lines and code-point columns.
struct ActualDiagnostic {
  uint32_t line = 0;
  uint32_t begin_column = 0;
  uint32_t end_line = 0;
  uint32_t end_column = 0;
  std::string severity;
  std::string code;
  std::string message;
};

/// True when `line` (one line of a file, without its '\n') has the shape of an expectation line:
/// optional indentation, `#`, optional spaces, `^`.
bool IsExpectationLine(std::string_view line);

/// All expectations of a fixture text, in file order. Throws std::runtime_error naming the
/// 1-based line when an expectation line is malformed, points at no code line, or marks columns
/// past the end of its code line.
std::vector<Expectation> ParseExpectations(const std::string& text);

/// Matches expectations against actual diagnostics (each actual satisfies at most one
/// expectation) and describes every difference, one string each, prefixed with `path:line:`
/// (1-based). Columns in messages are 1-based and inclusive, as the carets show them. Empty when
/// everything matches.
std::vector<std::string> Compare(const std::string& path,
                                 const std::vector<Expectation>& expectations,
                                 const std::vector<ActualDiagnostic>& actual);

/// `col 5-9` / `col 5` (one character) / `col 5 (empty)` / `col 5 to line 12 col 3` (1-based).
std::string DescribeRange(uint32_t line, uint32_t begin_column, uint32_t end_line,
                          uint32_t end_column);

/// Number of code points of a UTF-8 string (every byte that is not a continuation byte).
uint32_t CountCodePoints(std::string_view text);

inline void PrintTo(const Expectation& e, std::ostream* os) {
  *os << "line " << e.line + 1 << " " << e.severity << "[" << e.code << "] "
      << e.begin_column << "-" << (e.open_end ? std::string(">") : std::to_string(e.end_column));
}

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_SUPPORT_FIXTURE_H_
