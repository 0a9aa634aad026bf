// Transports on Asio: a session over a pair of file descriptors (stdio), and a TCP listener with
// one independent session per connection.
//
// Every session has its own message-loop thread running its own io_context: for
// RunStreamSession that is the calling thread, for TcpServer a thread per connection. Reads,
// dispatch (handlers) and the actual socket/pipe writes happen on that thread; Endpoint writes from
// other threads are queued and handed to it. A session ends on `exit`, end of input, a read or
// write error (the client vanished, even mid-frame), Endpoint::Close(), a fatal frame error, or
// TcpServer::Stop(); ending flushes what was queued (except on Stop) and closes the connection,
// then the SessionFactory's object is destroyed, then the Endpoint.
//
// Asio stays inside transport.cc: including this header does not pull in asio.hpp.
//
// Wiring in main():
//
//   protocol::Logger log = protocol::Logger::Stderr(*protocol::ParseLogLevel(level_flag));
//   protocol::SessionFactory factory = [&](protocol::Endpoint& ep) -> std::shared_ptr<void> {
//     return std::make_shared<LanguageServer>(ep, options);  // registers handlers on ep
//   };
//   if (stdio) return protocol::RunStdio(factory, log);   // 0 iff shutdown came before exit
//   protocol::TcpServer server({address, port, allow_remote}, factory, log);  // throws TransportError
//   log.Info("listening on port " + std::to_string(server.port()));
//   server.Run();                                           // until Stop() (e.g. from a signal thread)
//   return 0;
#ifndef TVMLS_PROTOCOL_TRANSPORT_H_
#define TVMLS_PROTOCOL_TRANSPORT_H_

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "endpoint.h"
#include "framing.h"
#include "logger.h"

namespace tvmls::protocol {

/// A transport could not be set up (refused or invalid address, bind/listen failure, bad fd).
class TransportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Runs one session reading `in_fd` and writing `out_fd` on the calling thread until it ends, and
/// returns Endpoint::ExitCode() (0 iff `shutdown` came before the end). End of input ends the
/// session. The descriptors may be pipes, sockets, ttys, regular files or /dev/null, and may be the
/// same descriptor. They stay owned by the caller: the session works on duplicates (made
/// non-blocking while it runs; the original file status flags are restored when it returns).
/// Ignores SIGPIPE process-wide, so that a vanished client surfaces as a write error instead of
/// killing the process. Throws TransportError for unusable descriptors; exceptions from the factory
/// propagate. Logs must not go to out_fd (with stdio: log to stderr, and do not point stderr at
/// stdout).
int RunStreamSession(int in_fd, int out_fd, const SessionFactory& factory, const Logger& logger,
                     FramingLimits limits = {});

/// RunStreamSession(0, 1, ...): the LSP stdio transport. Nothing but frames is written to stdout.
int RunStdio(const SessionFactory& factory, const Logger& logger, FramingLimits limits = {});

struct TcpOptions {
  /// An IP address (v4 or v6) or "localhost". Only loopback addresses unless allow_remote.
  std::string address = "127.0.0.1";
  /// 0: an ephemeral port, see TcpServer::port().
  uint16_t port = 0;
  /// Permits a non-loopback address (the protocol has no authentication: anyone who can connect
  /// can read and drive the server).
  bool allow_remote = false;
  FramingLimits limits;
};

/// Listens for TCP connections; each connection is one independent session (own Endpoint, own
/// SessionFactory object, own thread). A client vanishing ends only its session. The factory is
/// called on each new session's thread, so calls for different connections may run concurrently:
/// whatever it shares between sessions must be thread-safe.
class TcpServer {
 public:
  /// Binds and listens at once. Throws TransportError with a clear message for an invalid
  /// address, a non-loopback address without allow_remote, or a bind/listen failure.
  TcpServer(const TcpOptions& options, SessionFactory factory, Logger logger);
  /// Stops (as Stop()) and joins every session thread. Run() must have returned (or never run).
  ~TcpServer();
  TcpServer(const TcpServer&) = delete;
  TcpServer& operator=(const TcpServer&) = delete;

  /// The bound port (the actual one when options.port was 0). Any thread.
  uint16_t port() const;
  /// The bound address, e.g. "127.0.0.1". Any thread.
  std::string address() const;

  /// Accepts connections and runs sessions until Stop(); then ends every session and joins its
  /// thread before returning. Call once, from one thread.
  void Run();
  /// Any thread (not from a signal handler), idempotent: stops accepting and ends every session
  /// at once (queued output is dropped, exit code 1 unless shutdown came first). Run() returns
  /// once all sessions have finished.
  void Stop();
  /// Sessions currently running. Any thread.
  size_t ActiveSessions() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_TRANSPORT_H_
