// End to end: the real binary (`build/tvmls serve`, stdio) driven by the transcripts in
// tests/server/transcripts/*.json. A transcript is a JSON array of steps:
//   {"send": message}       written to the server's stdin ("jsonrpc": "2.0" is added). A string
//                           "@file:PATH" anywhere in it becomes the text of that source file.
//   {"expect": message}     waits (bounded) for a message from the server that contains this one
//                           as a subset: objects match member by member (extra members are
//                           fine), arrays element by element with the same length, the rest
//                           equal. Messages received before it that do not match are kept for
//                           later steps.
//   {"exitCode": N}         closes stdin and waits for the process to exit with N.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "framing.h"
#include "jsonrpc.h"
#include "support/files.h"

namespace tvmls::testing {
namespace {

using protocol::json;
using Clock = std::chrono::steady_clock;
constexpr std::chrono::seconds kWait(10);

bool Contains(const json& actual, const json& expected) {
  if (expected.is_object()) {
    if (!actual.is_object()) return false;
    for (const auto& [key, value] : expected.items()) {
      auto it = actual.find(key);
      if (it == actual.end() || !Contains(*it, value)) return false;
    }
    return true;
  }
  if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size()) return false;
    for (size_t i = 0; i < expected.size(); ++i) {
      if (!Contains(actual[i], expected[i])) return false;
    }
    return true;
  }
  return actual == expected;
}

void ExpandFiles(json* value) {
  if (value->is_string()) {
    const std::string& s = value->get_ref<const std::string&>();
    if (s.rfind("@file:", 0) == 0) *value = ReadFileOrDie(SourcePath(s.substr(6)));
  } else if (value->is_structured()) {
    for (auto& element : *value) ExpandFiles(&element);
  }
}

// The server process with its stdin/stdout on pipes; a thread reads and parses its frames.
class ServerProcess {
 public:
  ServerProcess() {
    int in[2], out[2];
    if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      execl(TVMLS_BINARY, "tvmls", "serve", "--log-level", "warn", static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_server_ = in[1];
    from_server_ = out[0];
    reader_ = std::thread([this] { ReadLoop(); });
  }
  ~ServerProcess() {
    CloseStdin();
    if (!exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    reader_.join();
    close(from_server_);
  }

  void Send(const json& message) {
    std::string frame = protocol::EncodeFrame(protocol::Serialize(message));
    size_t done = 0;
    while (done < frame.size()) {
      ssize_t n = write(to_server_, frame.data() + done, frame.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  }
  void CloseStdin() {
    if (to_server_ >= 0) close(to_server_);
    to_server_ = -1;
  }

  std::optional<json> WaitFor(const json& expected) {
    std::unique_lock<std::mutex> lock(mu_);
    std::optional<json> found;
    cv_.wait_for(lock, kWait, [&] {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (Contains(*it, expected)) {
          found = *it;
          inbox_.erase(it);
          return true;
        }
      }
      return eof_;
    });
    return found;
  }
  std::string Received() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string s;
    for (const json& m : inbox_) s += m.dump() + "\n";
    return s;
  }

  // The exit status, or nullopt if it has not exited within the wait.
  std::optional<int> WaitForExit() {
    Clock::time_point deadline = Clock::now() + kWait;
    while (Clock::now() < deadline) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return std::nullopt;
  }

 private:
  void ReadLoop() {
    protocol::FrameReader frames;
    char buffer[65536];
    while (true) {
      ssize_t n = read(from_server_, buffer, sizeof buffer);
      if (n <= 0) break;
      frames.Feed(std::string_view(buffer, static_cast<size_t>(n)));
      for (protocol::Frame f = frames.Next(); f.kind != protocol::Frame::Kind::kNeedMore;
           f = frames.Next()) {
        std::lock_guard<std::mutex> lock(mu_);
        if (f.kind == protocol::Frame::Kind::kMessage) {
          inbox_.push_back(json::parse(f.body, nullptr, false));
        } else {
          inbox_.push_back({{"frameError", f.error}});
        }
        cv_.notify_all();
      }
    }
    std::lock_guard<std::mutex> lock(mu_);
    eof_ = true;
    cv_.notify_all();
  }

  pid_t pid_ = -1;
  int to_server_ = -1;
  int from_server_ = -1;
  bool exited_ = false;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<json> inbox_;
  bool eof_ = false;
};

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.substr(info.param.rfind('/') + 1);
  name = name.substr(0, name.find('.'));
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class Transcript : public ::testing::TestWithParam<std::string> {};

TEST_P(Transcript, ServerAnswersAsRecorded) {
  json steps = json::parse(ReadFileOrDie(GetParam()));
  ASSERT_TRUE(steps.is_array());
  ServerProcess server;
  bool exited = false;
  for (size_t i = 0; i < steps.size(); ++i) {
    json step = steps[i];
    SCOPED_TRACE("step " + std::to_string(i) + ": " + step.dump().substr(0, 300));
    if (step.contains("send")) {
      json message = step["send"];
      ExpandFiles(&message);
      message["jsonrpc"] = "2.0";
      server.Send(message);
    } else if (step.contains("expect")) {
      std::optional<json> got = server.WaitFor(step["expect"]);
      ASSERT_TRUE(got) << "nothing matched; received and unmatched:\n" << server.Received();
    } else if (step.contains("exitCode")) {
      server.CloseStdin();
      std::optional<int> code = server.WaitForExit();
      ASSERT_TRUE(code) << "the server did not exit";
      EXPECT_EQ(*code, step["exitCode"].get<int>());
      exited = true;
    } else {
      FAIL() << "unknown step";
    }
  }
  EXPECT_TRUE(exited) << "a transcript ends with an exitCode step";
}

INSTANTIATE_TEST_SUITE_P(All, Transcript,
                         ::testing::ValuesIn(ListFiles("tests/server/transcripts", ".json")),
                         TestName);

}  // namespace
}  // namespace tvmls::testing
