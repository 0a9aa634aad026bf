// The tvmls command line: subcommands, their flags, exit codes.
//
// Exit codes (every subcommand): 0 success, 1 the input has errors, 2 usage or I/O problems.
#ifndef TVMLS_SERVER_CLI_H_
#define TVMLS_SERVER_CLI_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tvmls::server {

/// What the process knows about where its output goes.
struct CliEnvironment {
  /// stderr is a terminal: long `tvmls check` runs show a progress line there.
  bool stderr_is_terminal = false;
};

/// Runs the command line `args` (without the program name), writing to `out` and `err`.
/// Returns the process exit code. Never throws.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
           const CliEnvironment& environment = {});

/// Exit codes shared by every subcommand.
constexpr int kExitOk = 0;
constexpr int kExitErrors = 1;
constexpr int kExitUsage = 2;

/// Largest file tvmls reads; larger ones are refused with a message. Parsing costs about 0.3 s
/// and 45 bytes of memory per byte of text, so 16 MiB is about 5 s and 700 MB (measured:
/// bench/README.md); a 50 MB file would take 15 s and 2.2 GB.
constexpr size_t kMaxFileBytes = 16u * 1024 * 1024;

/// Reads a whole file of at most kMaxFileBytes. On failure returns false and sets `error` to the
/// reason (strerror text, "not a regular file", the size limit), without the path.
bool ReadSourceFile(const std::string& path, std::string* text, std::string* error);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_CLI_H_
