// `tvmls check`: runs the analysis engine on files and prints its diagnostics.
//
// Two output formats:
//   text  `path:line:col: severity: message [code]`, the source line, a caret line under the
//         range, one indented `path:line:col: note: message` per related location and one
//         `fix: title` (`fix (preferred): title`) per quick-fix. Lines and
//         columns are 1-based; columns count characters (code points). A summary goes to stderr.
//   json  one array on stdout; each element is an LSP-style diagnostic with its file: 0-based
//         lines, columns in UTF-16 code units, related locations and fixes with their edits.
// Hints are left out unless --hints. `--fix` / `--diff` apply the preferred fix of each reported
// diagnostic (rounds until none applies, at most 8) and print the fixed file / a unified diff,
// writing nothing; exit 1 when the fixed text still has errors (--fix) or when some file would
// change (--diff). Folders are walked (input_files.h), each file's settings
// come from its project configuration (project_config.h), files are checked in parallel and
// printed in a stable order: the arguments' order, each folder sorted. A configuration file with
// mistakes is reported as `invalid-config` errors at the place in that file.
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
  /// log would only be longer. The configuration's `hints = true` turns them on too.
  bool hints = false;
  /// Files and folders (walked: input_files.h).
  std::vector<std::string> files;
  /// `--config FILE`: the configuration for every file, instead of the nearest one (project_config.h).
  std::string config_path;
  /// `--select CODE,...`: report only these codes; `--ignore CODE,...`: never these.
  std::vector<std::string> select;
  std::vector<std::string> ignore;
  /// `-j N`: files checked at once (0: one per core).
  int jobs = 0;
  /// `--fix`: print the one file given with every preferred fix applied (instead of the
  /// diagnostics); `--diff`: print what those fixes would change as a unified diff. Nothing is
  /// written to any file.
  bool fix = false;
  bool diff = false;
  /// A `checking K/N` line on stderr, rewritten in place (the caller sets it when stderr is a
  /// terminal and there are many files).
  bool progress = false;
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
