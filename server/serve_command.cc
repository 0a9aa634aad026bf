#include "serve_command.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <pthread.h>
#include <signal.h>

#include <ostream>
#include <thread>

#include "cli.h"
#include "lsp_server.h"
#include "query/completion.h"
#include "transport.h"

namespace tvmls::server {

namespace {

// "HOST:PORT" or "[v6]:PORT".
bool ParseListen(const std::string& value, ServeOptions* options, std::string* problem) {
  size_t colon = value.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == value.size()) {
    *problem = "--listen expects HOST:PORT, got '" + value + "'";
    return false;
  }
  std::string host = value.substr(0, colon);
  std::string port = value.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) > 65535) {
    *problem = "--listen: bad port '" + port + "'";
    return false;
  }
  options->tcp = true;
  options->address = host;
  options->port = static_cast<uint16_t>(std::stoul(port));
  return true;
}

}  // namespace

bool ParseServeArgs(const std::vector<std::string>& args, ServeOptions* options,
                    std::string* problem) {
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // `--flag value` or `--flag=value`.
    auto value_of = [&](const std::string& flag, std::string* value) {
      if (arg == flag) {
        if (i + 1 >= args.size()) {
          *problem = flag + " needs a value";
          return false;
        }
        *value = args[++i];
        return true;
      }
      if (arg.rfind(flag + "=", 0) == 0) {
        *value = arg.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    std::string value;
    if (arg == "--stdio") {
      options->tcp = false;
    } else if (arg == "--allow-remote") {
      options->allow_remote = true;
    } else if (value_of("--listen", &value)) {
      if (!ParseListen(value, options, problem)) return false;
    } else if (value_of("--log-level", &value)) {
      std::optional<protocol::LogLevel> level = protocol::ParseLogLevel(value);
      if (!level) {
        *problem = "unknown log level '" + value + "' (expected error, warn, info or debug)";
        return false;
      }
      options->log_level = *level;
    } else if (!problem->empty()) {
      return false;  // value_of reported a missing value
    } else {
      *problem = "unknown argument '" + arg + "'";
      return false;
    }
  }
  if (options->allow_remote && !options->tcp) {
    *problem = "--allow-remote needs --listen";
    return false;
  }
  return true;
}

int RunServe(const ServeOptions& options, std::ostream& err) {
#ifdef __GLIBC__
  // One malloc arena for every thread. With glibc's default (eight per core) each worker keeps
  // its own arena, and a tree built by one worker and freed by another stays mapped in the
  // first: over 2,000 keystrokes on a 100k-line file that doubled the server's RSS. Small
  // allocations still go through each thread's cache without taking the arena's lock; edit ->
  // diagnostics at 100k lines is unchanged (bench/lsp). (A fixed M_MMAP_THRESHOLD of 256 KiB,
  // tried too, made it three times slower: the megabyte strings of each publication were then
  // mapped and faulted in afresh on every edit.)
  mallopt(M_ARENA_MAX, 1);
#endif
  // SIGINT and SIGTERM: blocked in the threads that must not take them (below).
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigset_t old;
  // Completion's lists after `R.`, `T.`, `I.` are built once per process: built here, beside the
  // session's start, not on the first completion's path (at 100k lines the first `T.` of a
  // session answered in 2.2 ms, the next ones in 0.7 ms). The thread never takes SIGINT or
  // SIGTERM: their default action there would end the server before its own handling (TCP).
  struct Warmup {
    std::thread thread{analysis::WarmNamespaceCompletions};
    ~Warmup() { thread.join(); }
  };
  pthread_sigmask(SIG_BLOCK, &signals, &old);
  Warmup warmup;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  protocol::Logger log = protocol::Logger::Stderr(options.log_level);
  if (!options.tcp) {
    try {
      return protocol::RunStdio(MakeSessionFactory(), log);
    } catch (const protocol::TransportError& e) {
      err << "tvmls: serve: " << e.what() << "\n";
      return kExitErrors;
    }
  }
  // SIGINT/SIGTERM are blocked in every thread and taken by one that stops the server.
  pthread_sigmask(SIG_BLOCK, &signals, &old);
  int status = kExitOk;
  try {
    protocol::TcpServer server({options.address, options.port, options.allow_remote, {}},
                               MakeSessionFactory(), log);
    err << "tvmls: listening on " << server.address() << ":" << server.port() << std::endl;
    std::thread waiter([&] {
      int signal_number = 0;
      sigwait(&signals, &signal_number);
      log.Info("signal " + std::to_string(signal_number) + ": stopping");
      server.Stop();
    });
    server.Run();
    waiter.join();
  } catch (const protocol::TransportError& e) {
    err << "tvmls: serve: " << e.what() << "\n";
    status = kExitErrors;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return status;
}

}  // namespace tvmls::server
