// `tvmls check`: runs the analysis engine on files and prints its diagnostics.
//
// Two output formats:
//   text  `path:line:col: severity: message [code]`, the source line, a caret line under the
//         range, and one indented `path:line:col: note: message` per related location. Lines and
//         columns are 1-based; columns count characters (code points). A summary goes to stderr.
//   json  one array on stdout; each element is an LSP-style diagnostic with its file: 0-based
//         lines, columns in UTF-16 code units, related locations and fixes with their edits.
// Hints are left out unless --hints.
// Exit code: 0 no error-severity diagnostic, 1 some error, 2 usage or I/O problem (an unreadable
// file is reported on stderr and the other files are still checked).
#ifndef TVMLS_SERVER_CHECK_COMMAND_H_
#define TVMLS_SERVER_CHECK_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "check/diagnostic.h"
#include "syntax/document.h"

namespace tvmls::server {

enum class CheckFormat { kText, kJson };

struct CheckOptions {
  CheckFormat format = CheckFormat::kText;
  /// Also report hint-severity diagnostics (`unused-binding`); an editor shows them faded, a CI
  /// log would only be longer.
  bool hints = false;
  std::vector<std::string> files;
};

/// Parses the arguments after `check`. On a usage mistake returns false with the problem (the
/// caller prints the usage text).
bool ParseCheckArgs(const std::vector<std::string>& args, CheckOptions* options,
                    std::string* problem);

/// Checks every file of `options` and prints the diagnostics. Returns the exit code.
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

/// One diagnostic in the text format (header, source line, caret line, related notes), each line
/// ending in '\n'. `doc` is the document the diagnostic's byte ranges refer to.
std::string FormatDiagnosticText(const std::string& path, const analysis::Document& doc,
                                 const analysis::Diagnostic& diagnostic);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_CHECK_COMMAND_H_
