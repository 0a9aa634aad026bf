// LineIndex: line starts and conversions between byte offsets and encoded columns.
#include "text/line_index.h"

#include <algorithm>

namespace tvmls::analysis {

namespace {

inline uint8_t Byte(std::string_view text, size_t i) { return static_cast<uint8_t>(text[i]); }

// Code units the code point starting at text[i] takes in `encoding`, and its byte length.
struct CodePoint {
  uint32_t bytes;
  uint32_t units;
};

CodePoint Measure(std::string_view text, size_t i, Encoding encoding) {
  int length = Utf8SequenceLength(text, i);
  if (length == 0) return {1, 1};  // Invalid byte: one replacement character.
  uint32_t bytes = static_cast<uint32_t>(length);
  switch (encoding) {
    case Encoding::kUtf8:
      return {bytes, bytes};
    case Encoding::kUtf16:
      return {bytes, bytes == 4 ? 2u : 1u};
    case Encoding::kUtf32:
      return {bytes, 1};
  }
  return {bytes, 1};
}

}  // namespace

int Utf8SequenceLength(std::string_view text, size_t i) {
  if (i >= text.size()) return 0;
  uint8_t b0 = Byte(text, i);
  if (b0 < 0x80) return 1;
  int length;
  uint8_t lo = 0x80, hi = 0xBF;  // Allowed range of the second byte.
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    length = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    length = 3;
    if (b0 == 0xE0) lo = 0xA0;       // No overlong forms.
    if (b0 == 0xED) hi = 0x9F;       // No surrogates.
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    length = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;       // Nothing above U+10FFFF.
  } else {
    return 0;
  }
  if (i + static_cast<size_t>(length) > text.size()) return 0;
  uint8_t b1 = Byte(text, i + 1);
  if (b1 < lo || b1 > hi) return 0;
  for (int k = 2; k < length; ++k) {
    uint8_t b = Byte(text, i + static_cast<size_t>(k));
    if (b < 0x80 || b > 0xBF) return 0;
  }
  return length;
}

bool IsCodePointBoundary(std::string_view text, size_t offset) {
  if (offset == 0 || offset >= text.size()) return true;
  // A boundary unless a well-formed sequence starting up to 3 bytes back covers `offset`.
  for (size_t back = 1; back <= 3 && back <= offset; ++back) {
    size_t start = offset - back;
    int length = Utf8SequenceLength(text, start);
    if (length > 1 && static_cast<size_t>(length) > back) return false;
    if ((Byte(text, start) & 0xC0) != 0x80) break;  // A lead byte or ASCII: stop looking.
  }
  return true;
}

LineIndex::LineIndex(std::string_view text) : starts_{0} {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

uint32_t LineIndex::LineContentEnd(std::string_view text, uint32_t line) const {
  uint32_t end = line + 1 < LineCount() ? starts_[line + 1] - 1 : static_cast<uint32_t>(text.size());
  if (line + 1 < LineCount() && end > starts_[line] && text[end - 1] == '\r') --end;
  return end;
}

uint32_t LineIndex::LineOf(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  return static_cast<uint32_t>(it - starts_.begin()) - 1;
}

uint32_t LineIndex::LineOf(uint32_t offset, uint32_t hint) const {
  const size_t n = starts_.size();
  if (hint >= n || starts_[hint] > offset) return LineOf(offset);
  // Gallop forward from the hint: [lo, hi) holds the last start <= offset.
  size_t lo = hint, hi = hint + 1, step = 1;
  while (hi < n && starts_[hi] <= offset) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  hi = std::min(hi, n);
  auto it = std::upper_bound(starts_.begin() + static_cast<long>(lo), starts_.begin() + static_cast<long>(hi), offset);
  return static_cast<uint32_t>(it - starts_.begin()) - 1;
}

Position LineIndex::ToPosition(std::string_view text, uint32_t offset, Encoding encoding) const {
  uint32_t hint = UINT32_MAX;
  return ToPosition(text, offset, encoding, &hint);
}

Position LineIndex::ToPosition(std::string_view text, uint32_t offset, Encoding encoding, uint32_t* line_hint) const {
  if (offset > text.size()) offset = static_cast<uint32_t>(text.size());
  uint32_t line = LineOf(offset, *line_hint);
  *line_hint = line;
  uint32_t end = std::min(offset, LineContentEnd(text, line));
  // ASCII, as most lines of code are, counts one unit per byte in every encoding.
  bool ascii = true;
  for (size_t i = starts_[line]; i < end; ++i) ascii &= Byte(text, i) < 0x80;
  if (ascii) return {line, end - starts_[line]};
  uint32_t column = 0;
  for (size_t i = starts_[line]; i < end;) {
    CodePoint cp = Measure(text, i, encoding);
    if (i + cp.bytes > end) {
      // `offset` is inside this code point; UTF-8 columns can still say exactly where.
      if (encoding == Encoding::kUtf8) column += static_cast<uint32_t>(end - i);
      break;
    }
    i += cp.bytes;
    column += cp.units;
  }
  return {line, column};
}

std::optional<uint32_t> LineIndex::ToOffset(std::string_view text, Position position,
                                            Encoding encoding) const {
  if (position.line >= LineCount()) return std::nullopt;
  uint32_t end = LineContentEnd(text, position.line);
  uint32_t column = 0;
  size_t i = starts_[position.line];
  while (i < end && column < position.column) {
    CodePoint cp = Measure(text, i, encoding);
    if (column + cp.units > position.column) return std::nullopt;  // Inside a code point.
    column += cp.units;
    i += cp.bytes;
  }
  return static_cast<uint32_t>(std::min<size_t>(i, end));
}

void LineIndex::ApplyEdit(uint32_t begin, uint32_t old_end, std::string_view inserted) {
  const int64_t delta = static_cast<int64_t>(inserted.size()) - (static_cast<int64_t>(old_end) - begin);
  // Line starts in (begin, old_end] were produced by removed '\n's; those after shift.
  auto first_removed = std::upper_bound(starts_.begin(), starts_.end(), begin);
  auto first_kept = std::upper_bound(first_removed, starts_.end(), old_end);
  std::vector<uint32_t> added;
  for (size_t i = 0; i < inserted.size(); ++i) {
    if (inserted[i] == '\n') added.push_back(static_cast<uint32_t>(begin + i + 1));
  }
  for (auto it = first_kept; it != starts_.end(); ++it) {
    *it = static_cast<uint32_t>(static_cast<int64_t>(*it) + delta);
  }
  auto pos = starts_.erase(first_removed, first_kept);
  starts_.insert(pos, added.begin(), added.end());
}

}  // namespace tvmls::analysis
