// TextRange helpers.
#include "text/text_range.h"

#include <algorithm>

namespace tvmls::analysis {

std::vector<TextRange> NormalizeRanges(std::vector<TextRange> ranges) {
  std::sort(ranges.begin(), ranges.end(), [](const TextRange& a, const TextRange& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::vector<TextRange> out;
  for (const TextRange& r : ranges) {
    if (!out.empty() && r.begin <= out.back().end) {
      out.back().end = std::max(out.back().end, r.end);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

}  // namespace tvmls::analysis
