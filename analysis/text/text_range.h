// Byte ranges: the only coordinate type inside the analysis layer.
//
// Everything in analysis/ speaks byte offsets into the UTF-8 document text. Lines, columns and
// encodings (UTF-16 for LSP) exist only at the edges, converted by LineIndex.
#ifndef TVMLS_ANALYSIS_TEXT_TEXT_RANGE_H_
#define TVMLS_ANALYSIS_TEXT_TEXT_RANGE_H_

#include <cstdint>
#include <vector>

namespace tvmls::analysis {

/// A half-open byte range [begin, end). Invariant: begin <= end.
struct TextRange {
  uint32_t begin = 0;
  uint32_t end = 0;

  uint32_t size() const { return end - begin; }
  bool empty() const { return begin == end; }
  bool Contains(uint32_t offset) const { return begin <= offset && offset < end; }
  /// Ranges touch or overlap (an empty range touching another counts).
  bool Touches(const TextRange& other) const {
    return begin <= other.end && other.begin <= end;
  }
  friend bool operator==(const TextRange& a, const TextRange& b) {
    return a.begin == b.begin && a.end == b.end;
  }
  friend bool operator!=(const TextRange& a, const TextRange& b) { return !(a == b); }
};

/// Sorts ranges and merges those that touch. Empty ranges survive unless merged.
std::vector<TextRange> NormalizeRanges(std::vector<TextRange> ranges);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_TEXT_TEXT_RANGE_H_
