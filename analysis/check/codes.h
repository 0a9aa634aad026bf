// The diagnostic codes tvmls reports: one row per code, the single list that documentation,
// settings and the server's LSP tags are checked against (tests/analysis/codes_test.cc checks that
// every code the fixtures expect is here and that README.md documents every row).
#ifndef TVMLS_ANALYSIS_CHECK_CODES_H_
#define TVMLS_ANALYSIS_CHECK_CODES_H_

#include <string_view>
#include <vector>

namespace tvmls::analysis {

struct CodeInfo {
  const char* code;     // stable kebab-case, as in Diagnostic::code
  const char* summary;  // one line: what it means
  /// The diagnostic marks code that can be removed without changing the program (LSP's
  /// DiagnosticTag.Unnecessary: editors fade it out).
  bool unnecessary = false;
  /// The diagnostic marks a spelling kept only for compatibility (DiagnosticTag.Deprecated).
  bool deprecated = false;
};

/// Every code, in documentation order.
const std::vector<CodeInfo>& DiagnosticCodes();

/// The row of `code`, or null for a code not in the table.
const CodeInfo* FindCode(std::string_view code);

}  // namespace tvmls::analysis

#endif  // TVMLS_ANALYSIS_CHECK_CODES_H_
