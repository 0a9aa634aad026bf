// Transports: descriptor-pair sessions (stdio-style, over pipes and a socketpair) and TCP. The
// test side speaks raw frames over file descriptors with poll() timeouts.
// Set TVMLS_TEST_LOG=debug to see the sessions' logs on stderr.
#include "transport.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tvmls::protocol {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kWait = 10s;

Logger TestLogger() {
  const char* level = std::getenv("TVMLS_TEST_LOG");
  if (level == nullptr) return Logger();
  return Logger::Stderr(ParseLogLevel(level).value_or(LogLevel::kDebug));
}

// The client side of a connection: frames over raw descriptors.
class Peer {
 public:
  Peer(int read_fd, int write_fd, bool owns) : read_fd_(read_fd), write_fd_(write_fd), owns_(owns) {}
  explicit Peer(int fd) : Peer(fd, fd, true) {}
  ~Peer() { Close(); }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  void Close() {
    if (owns_ && read_fd_ >= 0) {
      ::close(read_fd_);
      if (write_fd_ != read_fd_) ::close(write_fd_);
    }
    read_fd_ = write_fd_ = -1;
  }

  bool SendRaw(std::string_view bytes) {
    while (!bytes.empty()) {
      ssize_t n = ::write(write_fd_, bytes.data(), bytes.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      bytes.remove_prefix(static_cast<size_t>(n));
    }
    return true;
  }
  void Send(const json& message) { SendRaw(EncodeFrame(Serialize(message))); }
  json SendRequest(std::string_view method, json params = nullptr) {
    json id = next_id_++;
    Send(MakeRequest(id, method, std::move(params)));
    return id;
  }
  void SendNotification(std::string_view method, json params = nullptr) {
    Send(MakeNotification(method, std::move(params)));
  }

  std::optional<json> WaitForResponse(const json& id) {
    auto deadline = Clock::now() + kWait;
    while (true) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (!it->contains("method") && it->contains("id") && (*it)["id"] == id) {
          json m = std::move(*it);
          inbox_.erase(it);
          return m;
        }
      }
      if (!ReadSome(deadline)) return std::nullopt;
    }
  }
  std::optional<json> Request(std::string_view method, json params = nullptr) {
    return WaitForResponse(SendRequest(method, std::move(params)));
  }
  bool Initialize() {
    std::optional<json> response = Request("initialize", {{"capabilities", json::object()}});
    if (!response || !response->contains("result")) return false;
    SendNotification("initialized", json::object());
    return true;
  }
  // True once the other side closed the connection (read returns 0 or a reset).
  bool WaitForEof() {
    auto deadline = Clock::now() + kWait;
    while (ReadSome(deadline)) {
    }
    return eof_;
  }

 private:
  // Reads one chunk; false on timeout or end of stream.
  bool ReadSome(Clock::time_point deadline) {
    if (eof_) return false;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{read_fd_, POLLIN, 0};
    int ready = ::poll(&p, 1, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) return true;
    if (ready <= 0) return false;
    char buffer[65536];
    ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) return true;
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    reader_.Feed(std::string_view(buffer, static_cast<size_t>(n)));
    while (true) {
      Frame f = reader_.Next();
      if (f.kind == Frame::Kind::kNeedMore) break;
      if (f.kind == Frame::Kind::kMessage) inbox_.push_back(json::parse(f.body));
      else ADD_FAILURE() << "bad frame from the server: " << f.error;
    }
    return true;
  }

  int read_fd_;
  int write_fd_;
  bool owns_;
  bool eof_ = false;
  FrameReader reader_;
  std::deque<json> inbox_;
  int64_t next_id_ = 1;
};

// Shared by every session of one test: counts session objects and provides a latch.
struct Tracker {
  std::mutex mu;
  std::condition_variable cv;
  int started = 0;
  int ended = 0;
  bool released = false;

  void Change(int& counter) {
    {
      std::lock_guard<std::mutex> lock(mu);
      ++counter;
    }
    cv.notify_all();
  }
  bool WaitStarted(int n) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, kWait, [&] { return started >= n; });
  }
  bool WaitEnded(int n) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, kWait, [&] { return ended >= n; });
  }
};

// The per-session object of the test server.
struct Session {
  explicit Session(Tracker& t) : tracker(t) { tracker.Change(tracker.started); }
  ~Session() {
    for (std::thread& w : workers) w.join();
    tracker.Change(tracker.ended);
  }
  Tracker& tracker;
  int counter = 0;  // Loop thread only.
  std::vector<std::thread> workers;  // Loop thread only.
};

SessionFactory TestServer(Tracker& tracker) {
  return [&tracker](Endpoint& ep) -> std::shared_ptr<void> {
    auto session = std::make_shared<Session>(tracker);
    Session* s = session.get();  // Owned by the session, which outlives the handlers' use.
    ep.OnRequest("ping", [](const json&, Reply reply) { reply.Result("pong"); });
    ep.OnRequest("count", [s](const json&, Reply reply) { reply.Result(++s->counter); });
    // Blocks this session's loop thread until another session calls "release".
    ep.OnRequest("block", [s](const json&, Reply reply) {
      std::unique_lock<std::mutex> lock(s->tracker.mu);
      bool released = s->tracker.cv.wait_for(lock, kWait, [s] { return s->tracker.released; });
      reply.Result(released ? "released" : "timeout");
    });
    ep.OnRequest("release", [s](const json&, Reply reply) {
      {
        std::lock_guard<std::mutex> lock(s->tracker.mu);
        s->tracker.released = true;
      }
      s->tracker.cv.notify_all();
      reply.Result(nullptr);
    });
    ep.OnRequest("later", [s](const json&, Reply reply) {
      s->workers.emplace_back([reply] { reply.Result("later"); });
    });
    return session;
  };
}

// ---- Descriptor pairs (stdio) ----

// A session on pipes, run on a thread. The destructor ends it (end of input) if still running.
class PipeSession {
 public:
  explicit PipeSession(SessionFactory factory) {
    EXPECT_EQ(::pipe(to_server_), 0);
    EXPECT_EQ(::pipe(from_server_), 0);
    result_ = std::async(std::launch::async, [this, factory] {
      return RunStreamSession(to_server_[0], from_server_[1], factory, TestLogger());
    });
    peer_ = std::make_unique<Peer>(from_server_[0], to_server_[1], false);
  }
  ~PipeSession() {
    CloseInput();
    if (result_.valid()) result_.wait();
    for (int fd : {to_server_[0], from_server_[1], from_server_[0]}) ::close(fd);
  }
  Peer& peer() { return *peer_; }
  void CloseInput() {
    if (to_server_[1] >= 0) ::close(to_server_[1]);
    to_server_[1] = -1;
  }
  void CloseOutputReader() {
    ::close(from_server_[0]);
    from_server_[0] = -1;
  }
  std::optional<int> ExitCode() {
    if (!exit_code_) {
      if (result_.wait_for(kWait) != std::future_status::ready) return std::nullopt;
      exit_code_ = result_.get();
    }
    return exit_code_;
  }

 private:
  int to_server_[2] = {-1, -1};
  int from_server_[2] = {-1, -1};
  std::future<int> result_;
  std::optional<int> exit_code_;
  std::unique_ptr<Peer> peer_;
};

TEST(StreamTransport, SessionOverPipesExitsWithZeroAfterShutdown) {
  Tracker tracker;
  PipeSession session(TestServer(tracker));
  Peer& peer = session.peer();
  ASSERT_TRUE(peer.Initialize());
  std::optional<json> pong = peer.Request("ping");
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["result"], "pong");
  std::optional<json> later = peer.Request("later");  // Answered from a worker thread.
  ASSERT_TRUE(later);
  EXPECT_EQ((*later)["result"], "later");
  ASSERT_TRUE(peer.Request("shutdown"));
  peer.SendNotification("exit");
  EXPECT_EQ(session.ExitCode(), 0);
  EXPECT_TRUE(tracker.WaitEnded(1));
}

TEST(StreamTransport, EndOfInputEndsTheSessionWithOne) {
  Tracker tracker;
  PipeSession session(TestServer(tracker));
  ASSERT_TRUE(session.peer().Initialize());
  session.peer().SendRaw("Content-Length: 40\r\n\r\n{\"jsonrpc\"");  // Then the input ends mid-frame.
  session.CloseInput();
  EXPECT_EQ(session.ExitCode(), 1);
}

TEST(StreamTransport, VanishedReaderIsAWriteErrorNotSigpipe) {
  Tracker tracker;
  PipeSession session(TestServer(tracker));
  ASSERT_TRUE(session.peer().Initialize());
  session.CloseOutputReader();
  session.peer().SendRequest("ping");  // Its answer cannot be written: EPIPE ends the session.
  EXPECT_EQ(session.ExitCode(), 1);
}

TEST(StreamTransport, OneSocketForInputAndOutput) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  Tracker tracker;
  std::future<int> result = std::async(std::launch::async, [&] {
    return RunStreamSession(fds[0], fds[0], TestServer(tracker), TestLogger());
  });
  {
    Peer peer(fds[1]);
    EXPECT_TRUE(peer.Initialize());
    EXPECT_TRUE(peer.Request("shutdown"));
    peer.SendNotification("exit");
    EXPECT_EQ(result.wait_for(kWait), std::future_status::ready);
  }  // Closes fds[1]: ends the session if an expectation failed.
  EXPECT_EQ(result.get(), 0);
  ::close(fds[0]);
}

TEST(StreamTransport, RegularFilesAsInputAndOutput) {
  // A recorded session replayed from a file (epoll refuses regular files; Asio reads them directly).
  char in_path[] = "/tmp/tvmls-stdio-in-XXXXXX";
  char out_path[] = "/tmp/tvmls-stdio-out-XXXXXX";
  int in_fd = ::mkstemp(in_path);
  int out_fd = ::mkstemp(out_path);
  ASSERT_GE(in_fd, 0);
  ASSERT_GE(out_fd, 0);
  ::unlink(in_path);
  ::unlink(out_path);
  std::string script = EncodeFrame(Serialize(MakeRequest(1, "initialize", {{"capabilities", json::object()}}))) +
                       EncodeFrame(Serialize(MakeNotification("initialized", json::object()))) +
                       EncodeFrame(Serialize(MakeRequest(2, "ping", nullptr))) +
                       EncodeFrame(Serialize(MakeRequest(3, "shutdown", nullptr))) +
                       EncodeFrame(Serialize(MakeNotification("exit", nullptr)));
  ASSERT_EQ(::write(in_fd, script.data(), script.size()), static_cast<ssize_t>(script.size()));
  ASSERT_EQ(::lseek(in_fd, 0, SEEK_SET), 0);
  int flags_before = ::fcntl(in_fd, F_GETFL);
  Tracker tracker;
  EXPECT_EQ(RunStreamSession(in_fd, out_fd, TestServer(tracker), TestLogger()), 0);
  EXPECT_EQ(::fcntl(in_fd, F_GETFL), flags_before);  // Non-blocking mode was undone.
  ASSERT_EQ(::lseek(out_fd, 0, SEEK_SET), 0);
  Peer reader(out_fd, -1, false);
  for (int id : {1, 2, 3}) {
    std::optional<json> response = reader.WaitForResponse(id);
    ASSERT_TRUE(response) << id;
    EXPECT_TRUE(response->contains("result")) << response->dump();
  }
  ::close(in_fd);
  ::close(out_fd);
}

TEST(StreamTransport, DevNullInputIsEndOfInput) {
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  ASSERT_GE(null_fd, 0);
  Tracker tracker;
  EXPECT_EQ(RunStreamSession(null_fd, null_fd, TestServer(tracker), TestLogger()), 1);
  EXPECT_EQ(tracker.ended, 1);
  ::close(null_fd);
}

TEST(StreamTransport, BadDescriptorIsATransportError) {
  EXPECT_THROW(RunStreamSession(-1, 1, nullptr, Logger()), TransportError);
}

// ---- TCP ----

int ConnectTo(uint16_t port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    ADD_FAILURE() << "connect: " << std::strerror(errno);
  }
  return fd;
}

// A TcpServer whose Run() is on its own thread; stopped and joined at the end of the scope.
class RunningServer {
 public:
  RunningServer(const TcpOptions& options, SessionFactory factory)
      : server_(options, std::move(factory), TestLogger()) {
    done_ = std::async(std::launch::async, [this] { server_.Run(); });
  }
  ~RunningServer() {
    server_.Stop();
    done_.wait();
  }
  TcpServer& server() { return server_; }
  bool WaitStopped() { return done_.wait_for(kWait) == std::future_status::ready; }
  bool WaitIdle() {  // Until no session runs (sessions are reaped just after they end).
    auto deadline = Clock::now() + kWait;
    while (server_.ActiveSessions() != 0) {
      if (Clock::now() > deadline) return false;
      std::this_thread::sleep_for(1ms);
    }
    return true;
  }

 private:
  TcpServer server_;
  std::future<void> done_;
};

TEST(TcpTransport, TwoConcurrentSessionsOnAnEphemeralPort) {
  Tracker tracker;
  RunningServer running(TcpOptions{}, TestServer(tracker));
  uint16_t port = running.server().port();
  ASSERT_NE(port, 0);
  EXPECT_EQ(running.server().address(), "127.0.0.1");
  Peer a(ConnectTo(port));
  Peer b(ConnectTo(port));
  ASSERT_TRUE(a.Initialize());
  ASSERT_TRUE(b.Initialize());
  // Independent state.
  EXPECT_EQ(a.Request("count").value()["result"], 1);
  EXPECT_EQ(a.Request("count").value()["result"], 2);
  EXPECT_EQ(b.Request("count").value()["result"], 1);
  // Independent threads: a's loop blocks until b's loop handles "release".
  json blocked = a.SendRequest("block");
  std::optional<json> release = b.Request("release");
  ASSERT_TRUE(release);
  std::optional<json> unblocked = a.WaitForResponse(blocked);
  ASSERT_TRUE(unblocked);
  EXPECT_EQ((*unblocked)["result"], "released");
  EXPECT_EQ(running.server().ActiveSessions(), 2u);
  for (Peer* p : {&a, &b}) {
    ASSERT_TRUE(p->Request("shutdown"));
    p->SendNotification("exit");
    EXPECT_TRUE(p->WaitForEof());  // The server closes the connection after exit.
  }
  EXPECT_TRUE(tracker.WaitEnded(2));
  EXPECT_TRUE(running.WaitIdle());
}

TEST(TcpTransport, ClientVanishingMidFrameEndsOnlyItsSession) {
  Tracker tracker;
  RunningServer running(TcpOptions{"127.0.0.1", 0, false, {}}, TestServer(tracker));
  Peer a(ConnectTo(running.server().port()));
  ASSERT_TRUE(a.Initialize());
  {
    Peer b(ConnectTo(running.server().port()));
    ASSERT_TRUE(b.Initialize());
    b.SendRaw("Content-Length: 100\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":");
  }  // b vanishes mid-frame.
  EXPECT_TRUE(tracker.WaitEnded(1));
  std::optional<json> pong = a.Request("ping");
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["result"], "pong");
  Peer c(ConnectTo(running.server().port()));
  ASSERT_TRUE(c.Initialize());
  EXPECT_EQ(c.Request("count").value()["result"], 1);
  EXPECT_EQ(a.Request("count").value()["result"], 1);
}

TEST(TcpTransport, ClientVanishingMidHeaderAndRightAfterConnecting) {
  Tracker tracker;
  RunningServer running(TcpOptions{}, TestServer(tracker));
  { Peer quiet(ConnectTo(running.server().port())); }
  {
    Peer partial(ConnectTo(running.server().port()));
    partial.SendRaw("Content-Len");
  }
  EXPECT_TRUE(tracker.WaitEnded(2));
  EXPECT_TRUE(running.WaitIdle());
}

TEST(TcpTransport, StopEndsConnectedSessions) {
  Tracker tracker;
  RunningServer running(TcpOptions{}, TestServer(tracker));
  Peer a(ConnectTo(running.server().port()));
  ASSERT_TRUE(a.Initialize());
  Peer idle(ConnectTo(running.server().port()));  // Connected, never says anything.
  ASSERT_TRUE(tracker.WaitStarted(2));
  running.server().Stop();
  EXPECT_TRUE(running.WaitStopped());
  EXPECT_TRUE(a.WaitForEof());
  EXPECT_TRUE(idle.WaitForEof());
  EXPECT_TRUE(tracker.WaitEnded(2));
  EXPECT_EQ(running.server().ActiveSessions(), 0u);
}

TEST(TcpTransport, RefusesNonLoopbackAddressesWithoutTheFlag) {
  for (const char* address : {"0.0.0.0", "192.0.2.1", "::", "2001:db8::1"}) {
    SCOPED_TRACE(address);
    try {
      TcpServer server(TcpOptions{address, 0, false, {}}, nullptr, Logger());
      ADD_FAILURE() << "listening on " << address << " was not refused";
    } catch (const TransportError& e) {
      EXPECT_NE(std::string(e.what()).find("non-loopback"), std::string::npos) << e.what();
    }
  }
}

TEST(TcpTransport, AllowRemoteFlagPermitsAnyAddress) {
  TcpServer server(TcpOptions{"0.0.0.0", 0, true, {}}, nullptr, Logger());
  EXPECT_NE(server.port(), 0);
  EXPECT_EQ(server.address(), "0.0.0.0");
}

TEST(TcpTransport, LocalhostMeansLoopback) {
  TcpServer server(TcpOptions{"localhost", 0, false, {}}, nullptr, Logger());
  EXPECT_EQ(server.address(), "127.0.0.1");
}

TEST(TcpTransport, InvalidAddressAndBusyPortAreClearErrors) {
  try {
    TcpServer server(TcpOptions{"not-an-address", 0, false, {}}, nullptr, Logger());
    ADD_FAILURE() << "no error";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid listen address"), std::string::npos) << e.what();
  }
  TcpServer first(TcpOptions{}, nullptr, Logger());
  try {
    TcpServer second(TcpOptions{"127.0.0.1", first.port(), false, {}}, nullptr, Logger());
    ADD_FAILURE() << "no error";
  } catch (const TransportError& e) {
    EXPECT_NE(std::string(e.what()).find("bind"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tvmls::protocol
