// Diagnostics and fixes, in the analysis layer's coordinates (byte offsets into the document).
//
// Codes are stable kebab-case strings (`storage-overflow`, `call-tir-mismatch`); editors and CI
// configurations key on them. Severity policy: an error means provably wrong; a warning says
// "may" (not provable either way, or legal but almost certainly unintended); unknown is silent.
#ifndef TVMLS_ANALYSIS_CHECK_DIAGNOSTIC_H_
#define TVMLS_ANALYSIS_CHECK_DIAGNOSTIC_H_

#include <string>
#include <vector>

#include "text/text_range.h"

namespace tvmls::analysis {

/// Numbered as LSP's DiagnosticSeverity.
enum class Severity { kError = 1, kWarning = 2, kInformation = 3, kHint = 4 };

const char* SeverityName(Severity severity);  // "error", "warning", "information", "hint"

/// Replace [range.begin, range.end) of the document text by new_text. The edits of one fix do
/// not overlap; they are all relative to the text the diagnostic was computed on.
struct TextEdit {
  TextRange range;
  std::string new_text;
};

struct Fix {
  std::string title;
  bool preferred = false;
  std::vector<TextEdit> edits;
};

/// A second place that explains the diagnostic: the allocation, the buffer declaration, the
/// callee's parameter.
struct RelatedLocation {
  TextRange range;
  std::string message;
};

struct Diagnostic {
  TextRange range;
  Severity severity = Severity::kError;
  std::string code;
  std::string message;
  std::vector<RelatedLocation> related;
  std::vector<Fix> fixes;
};

/// Applies a fix's edits to `text` (edits sorted from the end so offsets stay valid). Returns
/// false and leaves `text` unchanged when an edit is out of range or edits overlap.
bool ApplyFix(const Fix& fix, std::string* text);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_CHECK_DIAGNOSTIC_H_
