// `tvmls serve`: the language server over stdio (the default) or TCP.
//
//   tvmls serve [--stdio] [--log-level error|warn|info|debug]
//   tvmls serve --listen HOST:PORT [--allow-remote] [--log-level LEVEL]
//
// stdio: stdout carries only LSP frames, logs go to stderr; the exit code is the session's (0 only
// when `shutdown` came before `exit` or the end of input). TCP: one session per connection until
// SIGINT/SIGTERM, then exit 0; only loopback addresses unless --allow-remote.
#ifndef TVMLS_SERVER_SERVE_COMMAND_H_
#define TVMLS_SERVER_SERVE_COMMAND_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "logger.h"

namespace tvmls::server {

struct ServeOptions {
  bool tcp = false;
  std::string address = "127.0.0.1";
  uint16_t port = 0;
  bool allow_remote = false;
  protocol::LogLevel log_level = protocol::LogLevel::kInfo;
};

/// Parses the arguments after `serve`. On a usage mistake returns false with the problem.
bool ParseServeArgs(const std::vector<std::string>& args, ServeOptions* options,
                    std::string* problem);

/// Runs the server until the session ends (stdio) or a signal stops it (TCP). Returns the exit
/// code.
int RunServe(const ServeOptions& options, std::ostream& err);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_SERVE_COMMAND_H_
