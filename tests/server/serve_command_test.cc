// `tvmls serve`: argument parsing, and the TCP mode of the real binary (listen, one session,
// SIGTERM -> exit 0).
#include "serve_command.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "cli.h"
#include "framing.h"
#include "jsonrpc.h"

namespace tvmls::server {
namespace {

using protocol::json;

TEST(ServeArgs, DefaultsToStdio) {
  ServeOptions options;
  std::string problem;
  ASSERT_TRUE(ParseServeArgs({}, &options, &problem)) << problem;
  EXPECT_FALSE(options.tcp);
  EXPECT_EQ(options.log_level, protocol::LogLevel::kInfo);
  ASSERT_TRUE(ParseServeArgs({"--stdio", "--log-level", "debug"}, &options, &problem));
  EXPECT_EQ(options.log_level, protocol::LogLevel::kDebug);
}

TEST(ServeArgs, Listen) {
  ServeOptions options;
  std::string problem;
  ASSERT_TRUE(ParseServeArgs({"--listen", "127.0.0.1:2087", "--log-level=error"}, &options,
                             &problem))
      << problem;
  EXPECT_TRUE(options.tcp);
  EXPECT_EQ(options.address, "127.0.0.1");
  EXPECT_EQ(options.port, 2087);
  EXPECT_FALSE(options.allow_remote);
  EXPECT_EQ(options.log_level, protocol::LogLevel::kError);
  ServeOptions v6;
  ASSERT_TRUE(ParseServeArgs({"--listen=[::1]:0", "--allow-remote"}, &v6, &problem)) << problem;
  EXPECT_EQ(v6.address, "::1");
  EXPECT_EQ(v6.port, 0);
  EXPECT_TRUE(v6.allow_remote);
}

TEST(ServeArgs, MistakesAreUsageErrors) {
  for (std::vector<std::string> args : std::vector<std::vector<std::string>>{
           {"--listen"}, {"--listen", "2087"}, {"--listen", "host:99999"}, {"--listen", "h:x"},
           {"--log-level", "loud"}, {"--allow-remote"}, {"--bogus"}, {"file.py"}}) {
    ServeOptions options;
    std::string problem;
    EXPECT_FALSE(ParseServeArgs(args, &options, &problem)) << args[0];
    EXPECT_FALSE(problem.empty());
    std::vector<std::string> cli = {"serve"};
    cli.insert(cli.end(), args.begin(), args.end());
    std::ostringstream out, err;
    EXPECT_EQ(RunCli(cli, out, err), kExitUsage);
    EXPECT_NE(err.str().find("usage: tvmls"), std::string::npos);
  }
}

TEST(ServeArgs, UsageMentionsServe) {
  std::ostringstream out, err;
  EXPECT_EQ(RunCli({"help"}, out, err), kExitOk);
  EXPECT_NE(out.str().find("serve"), std::string::npos);
  EXPECT_NE(out.str().find("--listen HOST:PORT"), std::string::npos);
}

// Reads from `fd` until `done(buffer)` or the deadline.
template <typename Done>
bool ReadUntil(int fd, std::string* buffer, Done done) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  while (!done(*buffer)) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    char chunk[4096];
    ssize_t n = read(fd, chunk, sizeof chunk);
    if (n > 0) {
      buffer->append(chunk, static_cast<size_t>(n));
    } else if (n == 0) {
      return done(*buffer);
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  return true;
}

TEST(ServeTcp, OneSessionThenSigtermExitsZero) {
  int err_pipe[2];
  ASSERT_EQ(pipe2(err_pipe, O_CLOEXEC), 0);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(err_pipe[1], 2);
    execl(TVMLS_BINARY, "tvmls", "serve", "--listen", "127.0.0.1:0", "--log-level", "warn",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  close(err_pipe[1]);
  std::string err;
  const std::string marker = "listening on 127.0.0.1:";
  bool listening = ReadUntil(err_pipe[0], &err, [&](const std::string& s) {
    size_t at = s.find(marker);
    return at != std::string::npos && s.find('\n', at) != std::string::npos;
  });
  if (!listening) kill(pid, SIGKILL);
  ASSERT_TRUE(listening) << err;
  int port = std::stoi(err.substr(err.find(marker) + marker.size()));

  int sock = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(connect(sock, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  std::string frames;
  for (const json& m : {json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                             {"params", {{"capabilities", json::object()}}}},
                        json{{"jsonrpc", "2.0"}, {"id", 2}, {"method", "shutdown"}},
                        json{{"jsonrpc", "2.0"}, {"method", "exit"}}}) {
    frames += protocol::EncodeFrame(m.dump());
  }
  ASSERT_EQ(write(sock, frames.data(), frames.size()), static_cast<ssize_t>(frames.size()));
  std::string received;
  EXPECT_TRUE(ReadUntil(sock, &received, [](const std::string& s) {
    return s.find("\"id\":2") != std::string::npos;
  })) << received;
  EXPECT_NE(received.find("\"positionEncoding\":\"utf-16\""), std::string::npos) << received;
  close(sock);

  kill(pid, SIGTERM);
  int status = 0;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      FAIL() << "tvmls serve --listen did not stop on SIGTERM";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  close(err_pipe[0]);
}

}  // namespace
}  // namespace tvmls::server
