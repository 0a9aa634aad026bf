// LineIndex: byte offset <-> (line, column) in UTF-8, UTF-16 or UTF-32 code units.
//
// The single place where encodings are converted. Lines end at '\n'; a '\r' before it belongs to
// the line break, not to the line's columns (so CRLF files have the same columns as LF ones).
// A lone '\r' is not a line break, as for the parser (Python's tokenizer and tree-sitter's rows
// agree on that), and LSP clients do not send one in practice.
//
// Invalid UTF-8 is tolerated: each byte that does not start a well-formed sequence counts as one
// code point (U+FFFD) of one unit in every encoding.
#ifndef TVMLS_ANALYSIS_TEXT_LINE_INDEX_H_
#define TVMLS_ANALYSIS_TEXT_LINE_INDEX_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace tvmls::analysis {

enum class Encoding { kUtf8, kUtf16, kUtf32 };

/// A zero-based line and a column counted in code units of some Encoding.
struct Position {
  uint32_t line = 0;
  uint32_t column = 0;
  friend bool operator==(const Position& a, const Position& b) {
    return a.line == b.line && a.column == b.column;
  }
};

/// Length in bytes of the well-formed UTF-8 sequence starting at text[i], or 0 when the byte
/// there does not start one (a stray continuation byte, an overlong form, a surrogate, ...).
int Utf8SequenceLength(std::string_view text, size_t i);

/// True when `offset` is not inside a well-formed multi-byte UTF-8 sequence.
bool IsCodePointBoundary(std::string_view text, size_t offset);

/// Line starts of a text. Does not keep the text: every query that needs it takes it, so the
/// owner (Document) decides how text is stored. Thread-compatible (const methods are safe).
class LineIndex {
 public:
  LineIndex() : starts_{0} {}
  explicit LineIndex(std::string_view text);

  /// Number of lines; a text ending in '\n' has an empty last line. Never 0.
  uint32_t LineCount() const { return static_cast<uint32_t>(starts_.size()); }

  /// Byte offset where `line` starts. Precondition: line < LineCount().
  uint32_t LineStart(uint32_t line) const { return starts_[line]; }

  /// Byte offset of the end of `line`'s content (before "\n" or "\r\n").
  uint32_t LineContentEnd(std::string_view text, uint32_t line) const;

  /// The line holding byte `offset` (offsets past the end map to the last line).
  uint32_t LineOf(uint32_t offset) const;
  /// The same, searched forward from line `hint` (any value): O(log distance) when `offset` is
  /// at or after the hint's line, as for sorted offsets converted one after the other, where
  /// LineOf costs O(log lines); a plain LineOf when it is before.
  uint32_t LineOf(uint32_t offset, uint32_t hint) const;

  /// Converts a byte offset to a position. An offset inside a code point or a line break maps
  /// to the start of that code point / the end of the line's content. Offsets past the end of the
  /// text are clamped to the end.
  Position ToPosition(std::string_view text, uint32_t offset, Encoding encoding) const;
  /// The same, with `*line_hint` as LineOf's hint; sets it to the position's line.
  Position ToPosition(std::string_view text, uint32_t offset, Encoding encoding, uint32_t* line_hint) const;

  /// Converts a position to a byte offset. A column past the end of the line's content clamps to
  /// it (as LSP specifies). Returns nullopt when the line does not exist or the column falls
  /// inside a code point (the middle of a UTF-16 surrogate pair, or of a UTF-8 sequence).
  std::optional<uint32_t> ToOffset(std::string_view text, Position position,
                                   Encoding encoding) const;

  /// Updates the index after the text range [begin, old_end) was replaced by `inserted`.
  /// Cost: O(lines after the edit) for the shift plus O(inserted) for the scan, with no rescan
  /// of unchanged text.
  void ApplyEdit(uint32_t begin, uint32_t old_end, std::string_view inserted);

  friend bool operator==(const LineIndex& a, const LineIndex& b) { return a.starts_ == b.starts_; }

 private:
  std::vector<uint32_t> starts_;  // Invariant: starts_[0] == 0, strictly increasing.
};

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_TEXT_LINE_INDEX_H_
