// Transports on Asio: stdio-style descriptor pairs and TCP.
#include "transport.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <deque>
#include <list>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include <asio.hpp>

namespace tvmls::protocol {

namespace {

void IgnoreSigpipe() {
  static std::once_flag once;
  std::call_once(once, [] { ::signal(SIGPIPE, SIG_IGN); });
}

void CloseStream(asio::ip::tcp::socket& socket) {
  std::error_code ignored;
  if (!socket.is_open()) return;
  socket.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket.close(ignored);
}

void CloseStream(asio::posix::stream_descriptor& descriptor) {
  std::error_code ignored;
  if (descriptor.is_open()) descriptor.close(ignored);
}

// Drives one Endpoint over Asio streams. Everything except Enqueue runs on the one thread that
// runs `io`; the object must outlive io.run().
template <typename InStream, typename OutStream>
class StreamLoop {
 public:
  StreamLoop(asio::io_context& io, InStream& in, OutStream& out, Endpoint& endpoint, Logger logger)
      : io_(io), in_(in), out_(out), endpoint_(endpoint), logger_(std::move(logger)) {}

  // Attaches the endpoint to the streams and starts reading (the first read completes inside
  // io.run()).
  void Start() {
    Endpoint::TransportHooks hooks;
    hooks.write = [this](std::string frame) { Enqueue(std::move(frame)); };
    hooks.close = [this] {
      asio::post(io_, [this] {
        if (finishing_) return;
        endpoint_.EndSession("closed by the server");
        Finish();
      });
    };
    endpoint_.AttachTransport(std::move(hooks));
    Read();
  }

  // Ends the session at once, dropping queued output.
  void Abort(std::string_view reason) {
    endpoint_.EndSession(reason);
    finishing_ = true;
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      queue_.clear();
    }
    CloseStreams();
  }

 private:
  void Read() {
    in_.async_read_some(asio::buffer(buffer_), [this](const std::error_code& ec, size_t n) { OnRead(ec, n); });
  }

  void OnRead(const std::error_code& ec, size_t n) {
    if (finishing_) return;
    if (ec) {
      if (ec == asio::error::eof) {
        endpoint_.EndSession("end of input");
      } else {
        logger_.Warn("read failed: " + ec.message());
        endpoint_.EndSession("read error: " + ec.message());
      }
      Finish();
      return;
    }
    endpoint_.Feed(std::string_view(buffer_.data(), n));
    if (endpoint_.Ended()) {
      Finish();
      return;
    }
    Read();
  }

  // Any thread, serialized by the endpoint's write mutex; never after EndSession returned.
  void Enqueue(std::string frame) {
    std::lock_guard<std::mutex> lock(queue_mu_);
    queue_.push_back(std::move(frame));
    if (!write_scheduled_) {
      write_scheduled_ = true;
      asio::post(io_, [this] { WriteNext(); });
    }
  }

  void WriteNext() {
    // A frame of megabytes (a large file's diagnostics or semantic tokens) is written from its
    // own buffer, which goes with it: kept as `current_`'s capacity, it stayed for the session.
    if (current_.capacity() > kKeptWriteBuffer) {
      std::string().swap(current_);
    } else {
      current_.clear();
    }
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      while (!queue_.empty() && current_.size() < (1u << 20)) {
        if (current_.empty()) {
          current_ = std::move(queue_.front());
        } else {
          current_ += queue_.front();
        }
        queue_.pop_front();
      }
      if (current_.empty()) write_scheduled_ = false;
    }
    if (current_.empty()) {
      if (finishing_) CloseStreams();
      return;
    }
    asio::async_write(out_, asio::buffer(current_), [this](const std::error_code& ec, size_t) {
      if (ec) {
        if (!closed_) logger_.Warn("write failed: " + ec.message());
        {
          std::lock_guard<std::mutex> lock(queue_mu_);
          queue_.clear();
        }
        if (!finishing_) {
          endpoint_.EndSession("write error: " + ec.message());
          Finish();
        }
      }
      WriteNext();
    });
  }

  // The session has ended (so Enqueue is no longer called): flush, then close.
  void Finish() {
    if (finishing_) return;
    finishing_ = true;
    bool idle;
    {
      std::lock_guard<std::mutex> lock(queue_mu_);
      idle = !write_scheduled_;
    }
    if (idle) CloseStreams();  // Otherwise WriteNext closes after the last write.
  }

  void CloseStreams() {
    if (closed_) return;
    closed_ = true;
    CloseStream(in_);
    CloseStream(out_);  // A no-op when it is the same socket.
  }

  asio::io_context& io_;
  InStream& in_;
  OutStream& out_;
  Endpoint& endpoint_;
  Logger logger_;
  std::array<char, 64 * 1024> buffer_{};
  std::string current_;  // The bytes being written.
  bool finishing_ = false;
  bool closed_ = false;

  static constexpr size_t kKeptWriteBuffer = 1u << 20;
  std::mutex queue_mu_;
  std::deque<std::string> queue_;
  bool write_scheduled_ = false;  // A WriteNext is posted or a write is in flight.
};

// Runs `io` until it has no more work. An exception escaping a completion handler (not a request
// handler: the Endpoint catches those) aborts the session; the loop then drains.
template <typename Loop>
void RunGuarded(asio::io_context& io, Loop& loop, const Logger& logger) {
  while (true) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      logger.Error(std::string("session loop failed: ") + e.what());
    } catch (...) {
      logger.Error("session loop failed");
    }
    loop.Abort("internal error");
    io.restart();
  }
}

int DupOrThrow(int fd, const char* what) {
  int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) {
    throw TransportError(std::string("cannot use ") + what + " descriptor " + std::to_string(fd) + ": " +
                         std::strerror(errno));
  }
  return copy;
}

std::string Describe(const asio::ip::tcp::endpoint& endpoint) {
  std::string host = endpoint.address().to_string();
  if (endpoint.address().is_v6()) host = "[" + host + "]";
  return host + ":" + std::to_string(endpoint.port());
}

bool IsLoopback(const asio::ip::address& address) {
  if (address.is_v4()) return address.to_v4().is_loopback();
  asio::ip::address_v6 v6 = address.to_v6();
  if (v6.is_loopback()) return true;
  return v6.is_v4_mapped() && asio::ip::make_address_v4(asio::ip::v4_mapped, v6).is_loopback();
}

}  // namespace

// ---- Descriptor pairs ----

int RunStreamSession(int in_fd, int out_fd, const SessionFactory& factory, const Logger& logger,
                     FramingLimits limits) {
  IgnoreSigpipe();
  // Asio makes the descriptors non-blocking, which changes the file description shared with
  // whoever else holds it (e.g. a terminal); put the flags back afterwards.
  struct FlagRestorer {
    int fd;
    int flags;
    ~FlagRestorer() {
      if (flags >= 0) ::fcntl(fd, F_SETFL, flags);
    }
  };
  FlagRestorer restore_in{in_fd, ::fcntl(in_fd, F_GETFL)};
  FlagRestorer restore_out{out_fd, ::fcntl(out_fd, F_GETFL)};
  int in_copy = DupOrThrow(in_fd, "input");
  int out_copy;
  try {
    out_copy = DupOrThrow(out_fd, "output");
  } catch (...) {
    ::close(in_copy);
    throw;
  }
  asio::io_context io(1);
  asio::posix::stream_descriptor in(io);
  asio::posix::stream_descriptor out(io);
  std::error_code ec;
  in.assign(in_copy, ec);
  if (ec) {
    ::close(in_copy);
    ::close(out_copy);
    throw TransportError("cannot use input descriptor " + std::to_string(in_fd) + ": " + ec.message());
  }
  out.assign(out_copy, ec);
  if (ec) {
    ::close(out_copy);
    throw TransportError("cannot use output descriptor " + std::to_string(out_fd) + ": " + ec.message());
  }

  Endpoint endpoint(logger, limits);
  StreamLoop<asio::posix::stream_descriptor, asio::posix::stream_descriptor> loop(io, in, out, endpoint, logger);
  loop.Start();
  std::shared_ptr<void> owner;
  try {
    if (factory) owner = factory(endpoint);
  } catch (...) {
    loop.Abort("session factory failed");
    RunGuarded(io, loop, logger);
    throw;
  }
  RunGuarded(io, loop, logger);
  owner.reset();  // Before the Endpoint, on this thread.
  return endpoint.ExitCode();
}

int RunStdio(const SessionFactory& factory, const Logger& logger, FramingLimits limits) {
  return RunStreamSession(STDIN_FILENO, STDOUT_FILENO, factory, logger, limits);
}

// ---- TCP ----

struct TcpServer::Impl {
  // One connection's session thread.
  struct Slot {
    std::mutex mu;                 // Guards abort and abort_requested.
    std::function<void()> abort;   // Posts Abort to the session loop; set while its io runs.
    bool abort_requested = false;  // Stop() came before the loop was ready.
    std::thread thread;            // Guarded by Impl::mu.
    bool done = false;             // Guarded by Impl::mu.
  };

  Impl(const TcpOptions& options, SessionFactory factory_in, Logger logger_in)
      : factory(std::move(factory_in)), logger(std::move(logger_in)), limits(options.limits) {
    std::string text = options.address == "localhost" ? "127.0.0.1" : options.address;
    std::error_code ec;
    asio::ip::address address = asio::ip::make_address(text, ec);
    if (ec) throw TransportError("invalid listen address '" + options.address + "': " + ec.message());
    if (!IsLoopback(address) && !options.allow_remote) {
      throw TransportError("refusing to listen on non-loopback address " + options.address +
                           ": the protocol has no authentication, so remote connections must be allowed "
                           "explicitly");
    }
    asio::ip::tcp::endpoint wanted(address, options.port);
    auto fail = [&](const char* step) {
      return TransportError("cannot listen on " + Describe(wanted) + " (" + step + "): " + ec.message());
    };
    acceptor.open(wanted.protocol(), ec);
    if (ec) throw fail("open");
    acceptor.set_option(asio::ip::tcp::acceptor::reuse_address(true), ec);
    if (ec) throw fail("SO_REUSEADDR");
    acceptor.bind(wanted, ec);
    if (ec) throw fail("bind");
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) throw fail("listen");
    bound = acceptor.local_endpoint(ec);
    if (ec) throw fail("local address");
  }

  ~Impl() {
    Stop();
    JoinAll();
  }

  void Run() {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (stopping) return;
    }
    logger.Info("listening on " + Describe(bound));
    Accept();
    while (true) {
      try {
        io.run();
        break;
      } catch (const std::exception& e) {
        logger.Error(std::string("accept loop failed: ") + e.what());
        io.restart();
      }
    }
    JoinAll();
  }

  void Stop() {
    std::vector<std::shared_ptr<Slot>> running;
    {
      std::lock_guard<std::mutex> lock(mu);
      stopping = true;
      running.assign(slots.begin(), slots.end());
    }
    asio::post(io, [this] {
      std::error_code ignored;
      acceptor.close(ignored);
      retry_timer.cancel();
    });
    for (const std::shared_ptr<Slot>& slot : running) {
      std::lock_guard<std::mutex> lock(slot->mu);
      if (slot->abort) {
        slot->abort();
      } else {
        slot->abort_requested = true;
      }
    }
  }

  void Accept() {
    acceptor.async_accept([this](const std::error_code& ec, asio::ip::tcp::socket socket) {
      if (ec == asio::error::operation_aborted) return;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (stopping) return;
      }
      Reap();
      if (!ec) {
        StartSession(std::move(socket));
        Accept();
        return;
      }
      logger.Warn("accept failed: " + ec.message());
      // E.g. out of descriptors: retry soon rather than spin.
      retry_timer.expires_after(std::chrono::milliseconds(100));
      retry_timer.async_wait([this](const std::error_code& wait_ec) {
        if (!wait_ec) Accept();
      });
    });
  }

  void StartSession(asio::ip::tcp::socket socket) {
    std::error_code ec;
    socket.set_option(asio::ip::tcp::no_delay(true), ec);
    asio::ip::tcp::endpoint peer = socket.remote_endpoint(ec);
    std::string peer_text = ec ? std::string("unknown peer") : Describe(peer);
    asio::ip::tcp protocol = bound.protocol();
    int fd = socket.release(ec);  // The session thread adopts it into its own io_context.
    if (ec) {
      logger.Warn("cannot take over connection from " + peer_text + ": " + ec.message());
      return;
    }
    auto slot = std::make_shared<Slot>();
    std::lock_guard<std::mutex> lock(mu);
    uint64_t number = next_session++;
    slots.push_back(slot);
    try {
      slot->thread = std::thread([this, slot, fd, protocol, number, peer_text] {
        SessionMain(slot, fd, protocol, number, peer_text);
      });
    } catch (const std::system_error& e) {
      logger.Error(std::string("cannot start a session thread: ") + e.what());
      ::close(fd);
      slots.pop_back();
    }
  }

  void SessionMain(const std::shared_ptr<Slot>& slot, int fd, asio::ip::tcp protocol, uint64_t number,
                   const std::string& peer) {
    Logger log = logger.WithPrefix("session " + std::to_string(number) + ": ");
    log.Info("connection from " + peer);
    {
      asio::io_context session_io(1);
      asio::ip::tcp::socket socket(session_io);
      std::error_code ec;
      socket.assign(protocol, fd, ec);
      if (ec) {
        ::close(fd);
        log.Error("cannot adopt the connection: " + ec.message());
      } else {
        Endpoint endpoint(log, limits);
        StreamLoop<asio::ip::tcp::socket, asio::ip::tcp::socket> loop(session_io, socket, socket, endpoint, log);
        loop.Start();
        std::shared_ptr<void> owner;
        try {
          if (factory) owner = factory(endpoint);
        } catch (const std::exception& e) {
          log.Error(std::string("session factory failed: ") + e.what());
          loop.Abort("session factory failed");
        } catch (...) {
          log.Error("session factory failed");
          loop.Abort("session factory failed");
        }
        {
          std::lock_guard<std::mutex> lock(slot->mu);
          slot->abort = [&session_io, &loop] {
            asio::post(session_io, [&loop] { loop.Abort("server stopping"); });
          };
          if (slot->abort_requested) slot->abort();
        }
        RunGuarded(session_io, loop, log);
        {
          std::lock_guard<std::mutex> lock(slot->mu);
          slot->abort = nullptr;
        }
        owner.reset();  // Before the Endpoint, on this thread.
        log.Info("connection closed");
      }
    }
    {
      std::lock_guard<std::mutex> lock(mu);
      slot->done = true;
    }
    asio::post(io, [this] { Reap(); });
  }

  // Joins the threads of finished sessions.
  void Reap() {
    std::vector<std::thread> finished;
    {
      std::lock_guard<std::mutex> lock(mu);
      for (auto it = slots.begin(); it != slots.end();) {
        if ((*it)->done) {
          finished.push_back(std::move((*it)->thread));
          it = slots.erase(it);
        } else {
          ++it;
        }
      }
    }
    for (std::thread& thread : finished) thread.join();
  }

  // After Stop(): joins every session thread.
  void JoinAll() {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu);
      for (const std::shared_ptr<Slot>& slot : slots) {
        if (slot->thread.joinable()) threads.push_back(std::move(slot->thread));
      }
      slots.clear();
    }
    for (std::thread& thread : threads) thread.join();
  }

  // Immutable after construction; read by every session thread.
  const SessionFactory factory;
  const Logger logger;
  const FramingLimits limits;
  asio::ip::tcp::endpoint bound;

  asio::io_context io{1};  // The accept loop; runs on Run()'s thread.
  asio::ip::tcp::acceptor acceptor{io};
  asio::steady_timer retry_timer{io};

  mutable std::mutex mu;
  std::list<std::shared_ptr<Slot>> slots;
  bool stopping = false;
  uint64_t next_session = 1;
};

TcpServer::TcpServer(const TcpOptions& options, SessionFactory factory, Logger logger)
    : impl_(std::make_unique<Impl>(options, std::move(factory), std::move(logger))) {
  IgnoreSigpipe();
}

TcpServer::~TcpServer() = default;

uint16_t TcpServer::port() const { return impl_->bound.port(); }

std::string TcpServer::address() const { return impl_->bound.address().to_string(); }

void TcpServer::Run() { impl_->Run(); }

void TcpServer::Stop() { impl_->Stop(); }

size_t TcpServer::ActiveSessions() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  size_t count = 0;
  for (const auto& slot : impl_->slots) count += slot->done ? 0 : 1;
  return count;
}

}  // namespace tvmls::protocol
