// End to end: the real binary (`build/tvmls serve`) driven by the transcripts in
// tests/server/transcripts/*.json, each run twice: over stdio and over TCP
// (`tvmls serve --listen 127.0.0.1:0`; the port is read from `tvmls: listening on 127.0.0.1:PORT`
// on its stderr). The server runs with `--log-level info`; its stderr is captured, and on a failure
// the test prints the traffic and the end of that log.
//
// A TRANSCRIPT is a JSON array of steps, or an object
//   {"comment": "...", "transports": ["stdio", "tcp"], "unanswered": [ids], "steps": [...]}
// where "transports" (default both) restricts where it runs and "unanswered" lists request ids
// that legitimately get no response (e.g. still pending when the client vanished).
//
// STEPS (any step may carry a "comment"; {"comment": "..."} alone is a no-op):
//   {"send": message}        one frame with this message ("jsonrpc": "2.0" added unless present).
//                            A string "@file:PATH" anywhere in it becomes the text of that file
//                            of the source tree, "@file:PATH*N" that text N times over.
//   {"sendRaw": pieces}      exact bytes: a string, or an array of pieces, each a string, or
//                            {"bytes": [0-255...]} (e.g. invalid UTF-8), or
//                            {"repeat": "text", "times": N}, or {"frame": body, "header": "..."}
//                            (body: a string sent as is, or a JSON value serialized as is; header:
//                            default "Content-Length: {length}\r\n\r\n", "{length}" being the
//                            body's byte count). All pieces go out in one write. Requests in
//                            frame pieces are counted (see below); the ids of requests inside
//                            plain strings are listed in "requests": [ids] beside "sendRaw".
//   {"expect": pattern}      waits for a message from the server matching the pattern (below)
//                            and consumes it. Messages received before it that do not match stay
//                            for later steps. Waits are bounded: 10 s, or TVMLS_TRANSCRIPT_WAIT_MS
//                            (e.g. to check quickly that a broken transcript fails).
//   {"expectAnyOf": [p...]}  the same for the first message matching any of the patterns (for an
//                            outcome that is a genuine race; the transcript says why). Which one
//                            matched is recorded as the test property stepN_alternative.
//   {"expectNone": pattern, "forMs": N}
//                            no message (already received and not consumed, or arriving within N
//                            ms) matches the pattern. Keep N small.
//   {"replyTo": pattern, "result": value} / {"replyTo": pattern, "error": {...}}
//                            waits for a server-to-client request matching the pattern, consumes
//                            it and answers with the id it carried.
//   {"closeInput": true}     stdio: closes the server's stdin. TCP: shuts down the sending side
//                            of the connection (the server reads end of input).
//   {"vanish": true}         the client disappears: stops reading and closes everything (stdio:
//                            stdin and the read end of stdout, so the server's writes fail; TCP:
//                            closes the socket).
//   {"expectExit": N}        the session ends with exit code N (0 only when `shutdown` came
//                            first). stdio: the process exits with N and its stdout is at its end.
//                            TCP: the server closes the connection (unless the client vanished),
//                            logs `session 1: session ended (...), exit code N`, and the process
//                            keeps running: a new connection gets its `initialize` answered.
//   {"expectLog": "text"}    waits for a line of the server's stderr containing the text (after
//                            the previous expectLog's match).
//
// PATTERNS match a message as a subset: objects member by member (extra members are fine),
// arrays element by element with the same length, anything else by equality; except these
// strings: "@any" (any value, also null), "@absent" (as a member: the member must be missing),
// "@contains:TEXT" (a string containing TEXT).
//
// CHECKED AFTER EVERY TRANSCRIPT (which must end with expectExit; over TCP the listener then gets
// SIGTERM and must exit 0):
//   * exactly one response per request: a response id never answers more requests than were
//     sent with that id (by "send", a "frame" piece or "requests"), and every one was answered,
//     except (at most once) the ids listed in "unanswered";
//   * every response and every server-to-client request was consumed by a step (a transcript
//     states every answer it gets); unmatched notifications (diagnostics, logs) are fine;
//   * the server's stderr has no sanitizer report (ASan, LSan, UBSan builds).
//
// ORDER. A transcript relies only on orders the server guarantees: it reads messages in order, so
// a request sees the effect of every notification sent before it (and a reply to a server request
// is handled before what follows it); responses and notifications from the analysis worker may
// interleave, which is why an expect takes the first match and leaves the rest. Where a test needs
// a request to be pending (cancellation, ContentModified), it queues it behind an analysis of tens
// of milliseconds and sends what overtakes it in the same write (see cancellation.json).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "framing.h"
#include "jsonrpc.h"
#include "support/files.h"

namespace tvmls::testing {
namespace {

using protocol::json;
using Clock = std::chrono::steady_clock;
// How long a step waits: 10 s, or TVMLS_TRANSCRIPT_WAIT_MS (e.g. to check quickly that broken
// transcripts fail).
const std::chrono::milliseconds kWait = [] {
  const char* ms = std::getenv("TVMLS_TRANSCRIPT_WAIT_MS");
  return std::chrono::milliseconds(ms != nullptr ? std::atoi(ms) : 10000);
}();

// ---- Patterns and expansions ----

bool Matches(const json& actual, const json& pattern) {
  if (pattern.is_string()) {
    const std::string& p = pattern.get_ref<const std::string&>();
    if (p == "@any") return true;
    if (p.rfind("@contains:", 0) == 0) {
      return actual.is_string() &&
             actual.get_ref<const std::string&>().find(p.substr(10)) != std::string::npos;
    }
  }
  if (pattern.is_object()) {
    if (!actual.is_object()) return false;
    for (const auto& [key, value] : pattern.items()) {
      auto it = actual.find(key);
      if (value.is_string() && value.get_ref<const std::string&>() == "@absent") {
        if (it != actual.end()) return false;
        continue;
      }
      if (it == actual.end() || !Matches(*it, value)) return false;
    }
    return true;
  }
  if (pattern.is_array()) {
    if (!actual.is_array() || actual.size() != pattern.size()) return false;
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (!Matches(actual[i], pattern[i])) return false;
    }
    return true;
  }
  return actual == pattern;
}

void ExpandFiles(json* value) {
  if (value->is_string()) {
    const std::string& s = value->get_ref<const std::string&>();
    if (s.rfind("@file:", 0) != 0) return;
    std::string path = s.substr(6);
    int times = 1;
    if (size_t star = path.rfind('*'); star != std::string::npos) {
      times = std::stoi(path.substr(star + 1));
      path = path.substr(0, star);
    }
    std::string text = ReadFileOrDie(SourcePath(path));
    std::string repeated;
    for (int i = 0; i < times; ++i) repeated += text;
    *value = repeated;
  } else if (value->is_structured()) {
    for (auto& element : *value) ExpandFiles(&element);
  }
}

bool IsRequest(const json& m) {
  return m.is_object() && m.contains("method") && m.contains("id") &&
         (m["id"].is_number_integer() || m["id"].is_string());
}
bool IsResponse(const json& m) {
  return m.is_object() && m.contains("id") && !m.contains("method");
}

std::string Brief(const std::string& text, size_t max = 400) {
  if (text.size() <= max) return text;
  return text.substr(0, max) + "... (" + std::to_string(text.size()) + " bytes)";
}

// ---- Sockets and processes ----

void WriteAll(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // The server went away: what it said is checked by the steps.
    done += static_cast<size_t>(n);
  }
}

int Connect(int port) {
  int sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int one = 1;  // Small frames go out at once, not after the peer's delayed ACK.
  setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    close(sock);
    return -1;
  }
  return sock;
}

// Accumulates what a descriptor yields on a thread, until end of input or Stop().
class Reader {
 public:
  using Sink = std::function<void(std::string_view)>;
  Reader(int fd, Sink sink, std::function<void()> on_end)
      : fd_(fd), thread_([this, sink, on_end] {
          char buffer[65536];
          while (!stop_) {
            pollfd p{fd_, POLLIN, 0};
            int r = poll(&p, 1, 5);
            if (r == 0 || (r < 0 && errno == EINTR)) continue;
            ssize_t n = read(fd_, buffer, sizeof buffer);
            if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
            if (n <= 0) break;
            sink(std::string_view(buffer, static_cast<size_t>(n)));
          }
          on_end();
        }) {}
  // Stops reading and joins; the descriptor is closed by the owner afterwards.
  void Stop() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  ~Reader() { Stop(); }

 private:
  int fd_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

enum class Transport { kStdio, kTcp };

// The server process and the client end of one session with it.
class Server {
 public:
  explicit Server(Transport transport) : transport_(transport) {
    signal(SIGPIPE, SIG_IGN);  // Writing to a server that went away must not kill the test.
    int err[2];
    int in[2] = {-1, -1};
    int out[2] = {-1, -1};
    if (pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    if (transport == Transport::kStdio &&
        (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0)) {
      throw std::runtime_error("pipe");
    }
    if (access(TVMLS_BINARY, X_OK) != 0) {
      throw std::runtime_error(std::string("no server binary at ") + TVMLS_BINARY);
    }
    pid_ = fork();
    if (pid_ == 0) {
      dup2(err[1], 2);
      if (transport == Transport::kStdio) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        execl(TVMLS_BINARY, "tvmls", "serve", "--log-level", "info", static_cast<char*>(nullptr));
      } else {
        execl(TVMLS_BINARY, "tvmls", "serve", "--listen", "127.0.0.1:0", "--log-level", "info",
              static_cast<char*>(nullptr));
      }
      _exit(127);
    }
    close(err[1]);
    err_fd_ = err[0];
    err_reader_ = std::make_unique<Reader>(
        err_fd_,
        [this](std::string_view bytes) {
          std::lock_guard<std::mutex> lock(mu_);
          log_.append(bytes);
          cv_.notify_all();
        },
        [this] {
          std::lock_guard<std::mutex> lock(mu_);
          log_ended_ = true;
          cv_.notify_all();
        });
    if (transport == Transport::kStdio) {
      close(in[0]);
      close(out[1]);
      to_server_ = in[1];
      from_server_ = out[0];
    } else {
      const std::string marker = "listening on 127.0.0.1:";
      std::string port_text;
      WaitUntil([&] {
        size_t at = log_.find(marker);
        if (at == std::string::npos || log_.find('\n', at) == std::string::npos) return false;
        port_text = log_.substr(at + marker.size());
        return true;
      });
      if (port_text.empty()) throw std::runtime_error("no `listening on` line: " + Log());
      port_ = std::stoi(port_text);
      to_server_ = from_server_ = Connect(port_);
      if (to_server_ < 0) throw std::runtime_error("cannot connect to port " + port_text);
    }
    frame_reader_ = std::make_unique<Reader>(
        from_server_, [this](std::string_view bytes) { OnBytes(bytes); },
        [this] {
          std::lock_guard<std::mutex> lock(mu_);
          eof_ = true;
          cv_.notify_all();
        });
  }

  ~Server() {
    if (frame_reader_) frame_reader_->Stop();
    CloseFds();
    if (!exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    err_reader_->Stop();
    close(err_fd_);
  }

  Transport transport() const { return transport_; }

  void Send(const std::string& bytes, const std::string& shown) {
    Record("--> " + Brief(shown));
    if (to_server_ >= 0) WriteAll(to_server_, bytes);
  }

  void CloseInput() {
    Record("--> (end of input)");
    if (transport_ == Transport::kStdio) {
      if (to_server_ >= 0) close(to_server_);
      to_server_ = -1;
    } else {
      shutdown(to_server_, SHUT_WR);
    }
  }

  void Vanish() {
    Record("--> (the client vanishes)");
    frame_reader_->Stop();
    CloseFds();
    vanished_ = true;
  }

  // The first message that `accept` takes, within the wait; removed from the inbox.
  std::optional<json> Take(const std::function<bool(const json&)>& accept) {
    std::optional<json> found;
    WaitUntil([&] {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (accept(*it)) {
          found = *it;
          inbox_.erase(it);
          return true;
        }
      }
      return eof_;
    });
    return found;
  }

  // A message matching `accept` now or within `ms` (not removed).
  std::optional<json> Within(const std::function<bool(const json&)>& accept, int ms) {
    std::optional<json> found;
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] {
      for (const json& m : inbox_) {
        if (accept(m)) {
          found = m;
          return true;
        }
      }
      return eof_;
    });
    return found;
  }

  // Waits for a log line containing `text` after the previous match.
  bool WaitForLog(const std::string& text) {
    return WaitUntil([&] {
      size_t at = log_.find(text, log_mark_);
      if (at == std::string::npos) return false;
      log_mark_ = at + text.size();
      return true;
    });
  }

  // stdio: the process exits (returns its code) and stdout ends.
  std::optional<int> WaitForProcessExit() {
    Clock::time_point deadline = Clock::now() + kWait;
    while (Clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        if (!vanished_) WaitUntil([&] { return eof_; });
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return std::nullopt;
  }

  // Once the process has exited: its whole stderr.
  std::optional<std::string> FinalLog() {
    if (!WaitUntil([&] { return log_ended_; })) return std::nullopt;
    return Log();
  }

  bool WaitForEof() {
    return WaitUntil([&] { return eof_; });
  }

  bool Running() { return !exited_ && waitpid(pid_, nullptr, WNOHANG) == 0; }

  // TCP: a fresh connection gets `initialize` answered.
  bool NewConnectionServed() {
    int sock = Connect(port_);
    if (sock < 0) return false;
    WriteAll(sock, protocol::EncodeFrame(R"({"jsonrpc":"2.0","id":1,"method":"initialize",)"
                                         R"("params":{"capabilities":{}}})"));
    std::string received;
    Clock::time_point deadline = Clock::now() + kWait;
    while (received.find("\"capabilities\"") == std::string::npos && Clock::now() < deadline) {
      pollfd p{sock, POLLIN, 0};
      if (poll(&p, 1, 50) <= 0) continue;
      char buffer[4096];
      ssize_t n = read(sock, buffer, sizeof buffer);
      if (n <= 0) break;
      received.append(buffer, static_cast<size_t>(n));
    }
    close(sock);
    return received.find("\"capabilities\"") != std::string::npos;
  }

  // TCP: SIGTERM; the exit status.
  std::optional<int> Terminate() {
    kill(pid_, SIGTERM);
    return WaitForProcessExit();
  }

  std::string Log() {
    std::lock_guard<std::mutex> lock(mu_);
    return log_;
  }
  std::string Traffic() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s;
    for (const std::string& line : traffic_) s += line + "\n";
    return s;
  }
  // What is left unconsumed.
  std::vector<json> Inbox() {
    std::lock_guard<std::mutex> lock(mu_);
    return {inbox_.begin(), inbox_.end()};
  }
  // Every response received (consumed or not), in order.
  std::vector<json> Responses() {
    std::lock_guard<std::mutex> lock(mu_);
    return responses_;
  }

 private:
  template <typename Done>
  bool WaitUntil(Done done) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, kWait, done);
  }

  void Record(std::string line) {
    std::lock_guard<std::mutex> lock(mu_);
    traffic_.push_back(std::move(line));
  }

  void OnBytes(std::string_view bytes) {
    frames_.Feed(bytes);
    for (protocol::Frame f = frames_.Next(); f.kind != protocol::Frame::Kind::kNeedMore;
         f = frames_.Next()) {
      json message;
      if (f.kind == protocol::Frame::Kind::kMessage) {
        message = json::parse(f.body, nullptr, false);
        if (message.is_discarded()) message = {{"@unparsable", f.body}};
      } else {
        message = {{"@badFrame", f.error}};
      }
      std::lock_guard<std::mutex> lock(mu_);
      traffic_.push_back("<-- " + Brief(message.dump()));
      if (IsResponse(message)) responses_.push_back(message);
      inbox_.push_back(std::move(message));
      cv_.notify_all();
    }
  }

  void CloseFds() {
    if (to_server_ >= 0) close(to_server_);
    if (from_server_ >= 0 && from_server_ != to_server_) close(from_server_);
    to_server_ = from_server_ = -1;
  }

  Transport transport_;
  pid_t pid_ = -1;
  int port_ = 0;
  int to_server_ = -1;
  int from_server_ = -1;
  int err_fd_ = -1;
  bool exited_ = false;
  bool vanished_ = false;
  protocol::FrameReader frames_;  // The frame reader thread's.

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<json> inbox_;
  std::vector<json> responses_;
  std::vector<std::string> traffic_;
  std::string log_;
  size_t log_mark_ = 0;
  bool eof_ = false;
  bool log_ended_ = false;

  // Last: they call into the members above.
  std::unique_ptr<Reader> err_reader_;
  std::unique_ptr<Reader> frame_reader_;
};

// ---- Steps ----

struct Param {
  std::string path;
  Transport transport;
};

void PrintTo(const Param& param, std::ostream* os) {
  *os << param.path << (param.transport == Transport::kStdio ? " over stdio" : " over TCP");
}

std::string TestName(const ::testing::TestParamInfo<Param>& info) {
  std::string name = info.param.path.substr(info.param.path.rfind('/') + 1);
  name = name.substr(0, name.find('.'));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + (info.param.transport == Transport::kStdio ? "_stdio" : "_tcp");
}

// The bytes of a sendRaw value; counts the requests in its frame pieces.
std::string RawBytes(const json& pieces, std::vector<json>* requests) {
  if (pieces.is_string()) return pieces.get<std::string>();
  std::string bytes;
  for (const json& piece : pieces) {
    if (piece.is_string()) {
      bytes += piece.get<std::string>();
    } else if (piece.contains("bytes")) {
      for (const json& b : piece["bytes"]) bytes += static_cast<char>(b.get<int>());
    } else if (piece.contains("repeat")) {
      for (int i = 0; i < piece["times"].get<int>(); ++i) {
        bytes += piece["repeat"].get<std::string>();
      }
    } else if (piece.contains("frame")) {
      json body = piece["frame"];
      ExpandFiles(&body);
      std::string text = body.is_string() ? body.get<std::string>() : body.dump();
      if (IsRequest(body)) requests->push_back(body["id"]);
      std::string header = piece.value("header", "Content-Length: {length}\r\n\r\n");
      if (size_t at = header.find("{length}"); at != std::string::npos) {
        header.replace(at, 8, std::to_string(text.size()));
      }
      bytes += header + text;
    } else {
      throw std::runtime_error("unknown sendRaw piece " + piece.dump());
    }
  }
  return bytes;
}

class Transcript : public ::testing::TestWithParam<Param> {};

TEST_P(Transcript, ServerAnswersAsRecorded) {
  json transcript = json::parse(ReadFileOrDie(GetParam().path));
  json steps = transcript.is_array() ? transcript : transcript.value("steps", json::array());
  json unanswered = transcript.is_object() ? transcript.value("unanswered", json::array())
                                           : json::array();
  Transport transport = GetParam().transport;
  if (transcript.is_object() && transcript.contains("transports")) {
    std::string name = transport == Transport::kStdio ? "stdio" : "tcp";
    bool wanted = false;
    for (const json& t : transcript["transports"]) wanted = wanted || t == name;
    if (!wanted) GTEST_SKIP() << "not run over " << name;
  }
  ASSERT_TRUE(steps.is_array() && !steps.empty());

  Server server(transport);
  std::vector<json> requests;  // ids of the requests sent, one entry per request
  bool ended = false;
  // On failure: what went over the wire and what the server logged.
  auto context = [&] {
    std::string log = server.Log();
    if (log.size() > 4000) log = "..." + log.substr(log.size() - 4000);
    return "traffic:\n" + server.Traffic() + "server log:\n" + log;
  };

  for (size_t i = 0; i < steps.size(); ++i) {
    const json& step = steps[i];
    SCOPED_TRACE("step " + std::to_string(i) + ": " + Brief(step.dump(), 300));
    if (step.contains("send")) {
      json message = step["send"];
      ExpandFiles(&message);
      if (message.is_object() && !message.contains("jsonrpc")) message["jsonrpc"] = "2.0";
      if (IsRequest(message)) requests.push_back(message["id"]);
      std::string body = protocol::Serialize(message);
      server.Send(protocol::EncodeFrame(body), body);
    } else if (step.contains("sendRaw")) {
      std::string bytes = RawBytes(step["sendRaw"], &requests);
      for (const json& id : step.value("requests", json::array())) requests.push_back(id);
      server.Send(bytes, json(bytes).dump(-1, ' ', false, json::error_handler_t::replace));
    } else if (step.contains("expect")) {
      const json& pattern = step["expect"];
      std::optional<json> got = server.Take([&](const json& m) { return Matches(m, pattern); });
      ASSERT_TRUE(got) << "nothing matched\n" << context();
    } else if (step.contains("expectAnyOf")) {
      const json& patterns = step["expectAnyOf"];
      size_t which = 0;
      std::optional<json> got = server.Take([&](const json& m) {
        for (size_t k = 0; k < patterns.size(); ++k) {
          if (Matches(m, patterns[k])) {
            which = k;
            return true;
          }
        }
        return false;
      });
      ASSERT_TRUE(got) << "nothing matched\n" << context();
      RecordProperty("step" + std::to_string(i) + "_alternative", static_cast<int>(which));
    } else if (step.contains("expectNone")) {
      const json& pattern = step["expectNone"];
      std::optional<json> got = server.Within([&](const json& m) { return Matches(m, pattern); },
                                              step["forMs"].get<int>());
      ASSERT_FALSE(got) << "unexpected: " << got->dump() << "\n" << context();
    } else if (step.contains("replyTo")) {
      const json& pattern = step["replyTo"];
      std::optional<json> call = server.Take([&](const json& m) {
        return IsRequest(m) && Matches(m, pattern);
      });
      ASSERT_TRUE(call) << "no such request from the server\n" << context();
      json response = {{"jsonrpc", "2.0"}, {"id", (*call)["id"]}};
      if (step.contains("error")) {
        response["error"] = step["error"];
      } else {
        response["result"] = step.value("result", json());
      }
      std::string body = protocol::Serialize(response);
      server.Send(protocol::EncodeFrame(body), body);
    } else if (step.contains("closeInput")) {
      server.CloseInput();
    } else if (step.contains("vanish")) {
      server.Vanish();
    } else if (step.contains("expectExit")) {
      int code = step["expectExit"].get<int>();
      if (transport == Transport::kStdio) {
        std::optional<int> status = server.WaitForProcessExit();
        ASSERT_TRUE(status) << "the server did not exit\n" << context();
        EXPECT_EQ(*status, code) << context();
      } else {
        ASSERT_TRUE(server.WaitForLog("session 1: session ended (")) << context();
        EXPECT_TRUE(server.WaitForLog("exit code " + std::to_string(code) + "\n")) << context();
        EXPECT_TRUE(server.WaitForEof()) << "the connection stays open\n" << context();
        EXPECT_TRUE(server.Running()) << "the listener exited\n" << context();
        EXPECT_TRUE(server.NewConnectionServed()) << "the listener is not serving\n" << context();
      }
      ended = true;
    } else if (step.contains("expectLog")) {
      ASSERT_TRUE(server.WaitForLog(step["expectLog"].get<std::string>())) << context();
    } else if (step.contains("comment")) {
      // Nothing to do.
    } else {
      FAIL() << "unknown step";
    }
  }
  ASSERT_TRUE(ended) << "a transcript ends with an expectExit step";

  // Exactly one response per request (those listed as unanswered: at most one).
  std::map<std::string, int> sent, answered, excused;
  for (const json& id : requests) ++sent[id.dump()];
  for (const json& id : unanswered) ++excused[id.dump()];
  for (const json& r : server.Responses()) {
    if (!r["id"].is_null()) ++answered[r["id"].dump()];
  }
  for (const auto& [id, count] : answered) {
    EXPECT_LE(count, sent[id]) << "id " << id << " answered " << count << " times, sent "
                               << sent[id] << " times\n" << context();
  }
  for (const auto& [id, count] : sent) {
    EXPECT_GE(answered[id], count - excused[id]) << "request " << id << " not answered\n"
                                                 << context();
  }
  // Every response and server request was stated by a step.
  for (const json& m : server.Inbox()) {
    EXPECT_FALSE(IsResponse(m) || IsRequest(m) || m.contains("@unparsable") ||
                 m.contains("@badFrame"))
        << "not consumed by any step: " << m.dump() << "\n"
        << context();
  }
  if (transport == Transport::kTcp) {
    std::optional<int> status = server.Terminate();
    ASSERT_TRUE(status) << "the listener did not stop on SIGTERM\n" << context();
    EXPECT_EQ(*status, 0) << context();
  }
  // In sanitizer builds: no report from the server (an exit code alone may not tell).
  std::optional<std::string> log = server.FinalLog();
  ASSERT_TRUE(log) << "the server's stderr did not end\n" << context();
  for (const char* report : {"Sanitizer", "runtime error:"}) {
    EXPECT_EQ(log->find(report), std::string::npos) << "the server reported:\n" << *log;
  }
}

std::vector<Param> AllTranscripts() {
  std::vector<Param> params;
  for (const std::string& path : ListFiles("tests/server/transcripts", ".json")) {
    params.push_back({path, Transport::kStdio});
    params.push_back({path, Transport::kTcp});
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(All, Transcript, ::testing::ValuesIn(AllTranscripts()), TestName);

}  // namespace
}  // namespace tvmls::testing
