#include "check/diagnostic.h"

#include <algorithm>

namespace tvmls::analysis {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kInformation: return "information";
    case Severity::kHint: return "hint";
  }
  return "error";
}

bool ApplyFix(const Fix& fix, std::string* text) {
  std::vector<TextEdit> edits = fix.edits;
  std::sort(edits.begin(), edits.end(), [](const TextEdit& a, const TextEdit& b) {
    return a.range.begin != b.range.begin ? a.range.begin > b.range.begin
                                          : a.range.end > b.range.end;
  });
  uint32_t limit = static_cast<uint32_t>(text->size());
  for (const TextEdit& e : edits) {
    if (e.range.begin > e.range.end || e.range.end > limit) return false;
    limit = e.range.begin;
  }
  for (const TextEdit& e : edits) text->replace(e.range.begin, e.range.size(), e.new_text);
  return true;
}

}  // namespace tvmls::analysis
