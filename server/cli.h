// The tvmls command line: subcommands, their flags, exit codes.
//
// Exit codes (every subcommand): 0 success, 1 the input has errors, 2 usage or I/O problems.
#ifndef TVMLS_SERVER_CLI_H_
#define TVMLS_SERVER_CLI_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tvmls::server {

/// Runs the command line `args` (without the program name), writing to `out` and `err`.
/// Returns the process exit code. Never throws.
int RunCli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

/// Largest file tvmls reads; larger ones are refused with a message (bounded memory).
constexpr size_t kMaxFileBytes = 64u * 1024 * 1024;

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_CLI_H_
