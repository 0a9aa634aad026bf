// An in-process client for unit tests: connects to a session through in-memory byte queues (no
// sockets, no Asio), with the real framing and the real thread model — the session's message loop
// runs on its own thread, exactly as under RunStdio or TcpServer — so server-layer tests can send
// requests and wait for responses and notifications with timeouts.
//
//   LoopbackClient client([](Endpoint& ep) { return std::make_shared<MyServer>(ep); });
//   ASSERT_TRUE(client.Initialize());
//   std::optional<json> hover = client.Request("textDocument/hover", params);
//   ASSERT_TRUE(hover);
//   EXPECT_EQ((*hover)["result"]["contents"], ...);
//   std::optional<json> diags = client.WaitForNotification("textDocument/publishDiagnostics");
//
// Thread-safety: every member function may be called from any thread. Wait functions block the
// caller until a matching message arrives or the timeout expires; they take (remove) the message
// they return. Messages are whole JSON values as received: responses have "id" and
// "result"/"error", notifications and server-to-client requests have "method".
#ifndef TVMLS_PROTOCOL_LOOPBACK_H_
#define TVMLS_PROTOCOL_LOOPBACK_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "endpoint.h"
#include "framing.h"
#include "jsonrpc.h"
#include "logger.h"

namespace tvmls::protocol {

class LoopbackClient {
 public:
  using Duration = std::chrono::milliseconds;

  struct Options {
    Logger logger;  // The session's logger (default: discard).
    FramingLimits limits;
    Duration timeout{10000};  // Default for every wait.
  };

  /// Starts the session thread, runs `factory` on it and returns once the factory has run.
  /// If the factory throws, the session ends at once (Ended() is true).
  explicit LoopbackClient(SessionFactory factory);
  LoopbackClient(SessionFactory factory, Options options);
  /// Ends the session as a vanished client would (end of input) if it is still running, and joins
  /// the session thread (which destroys the factory's object, then the Endpoint).
  ~LoopbackClient();
  LoopbackClient(const LoopbackClient&) = delete;
  LoopbackClient& operator=(const LoopbackClient&) = delete;

  // ---- Sending: bytes reach the session in the order they were sent ----

  /// Sends a request with the next integer id (1, 2, ...) and returns that id.
  json SendRequest(std::string_view method, json params = nullptr);
  void SendNotification(std::string_view method, json params = nullptr);
  /// Frames and sends any JSON value as is.
  void SendMessage(const json& message);
  /// Frames and sends arbitrary text as a message body (for malformed-JSON tests).
  void SendBody(std::string_view body);
  /// Sends raw bytes, unframed (for framing tests).
  void SendRaw(std::string bytes);
  /// Answers a server-to-client request.
  void SendResponse(const json& id, json result);
  void SendErrorResponse(const json& id, const ResponseError& error);
  /// End of input: the session ends (exit code 1 unless shutdown came first).
  void CloseInput();

  // ---- Receiving ----

  /// SendRequest + WaitForResponse. The whole response message, or nullopt on timeout.
  std::optional<json> Request(std::string_view method, json params = nullptr);
  std::optional<json> Request(std::string_view method, json params, Duration timeout);
  std::optional<json> WaitForResponse(const json& id);
  std::optional<json> WaitForResponse(const json& id, Duration timeout);
  std::optional<json> WaitForNotification(std::string_view method);
  std::optional<json> WaitForNotification(std::string_view method, Duration timeout);
  /// A server-to-client request (has "id" and "method").
  std::optional<json> WaitForServerRequest(std::string_view method);
  std::optional<json> WaitForServerRequest(std::string_view method, Duration timeout);
  /// The first received message satisfying `predicate`.
  std::optional<json> WaitFor(const std::function<bool(const json&)>& predicate, Duration timeout);
  /// Takes every message received so far.
  std::vector<json> TakeAll();

  /// Answers every server-to-client request for `method` (received from now on) automatically
  /// with answer(params) as the result; such requests are not queued for WaitForServerRequest.
  /// `answer` runs on whichever thread the server writes from; it must not block.
  void AutoAnswer(std::string method, std::function<json(const json& params)> answer);

  /// Sends `initialize` with `params`, waits for the response, and when it is a result sends
  /// `initialized`. Returns the initialize response (nullopt on timeout).
  std::optional<json> Initialize(json params = json{{"capabilities", json::object()}});
  /// Sends `shutdown` (waiting for its response) then `exit`, and waits for the session to end.
  /// Returns the exit code, or nullopt on timeout.
  std::optional<int> ShutdownAndExit();

  /// Waits until the session ended (exit, end of input, Close(), fatal frame error).
  bool WaitForEnd();
  bool WaitForEnd(Duration timeout);
  bool Ended() const;
  /// The session's exit code; meaningful once Ended().
  int ExitCode() const;

  /// The session's endpoint, e.g. to Notify/Call from the server side in protocol tests. Valid as
  /// long as this client.
  Endpoint& endpoint() { return *endpoint_; }

 private:
  void LoopMain(const SessionFactory& factory);
  void OnServerFrame(std::string frame);  // Under the endpoint's write mutex.
  void PushInput(std::string bytes);

  Options options_;
  std::unique_ptr<Endpoint> endpoint_;

  // Client -> session.
  std::mutex in_mu_;
  std::condition_variable in_cv_;
  std::deque<std::string> input_;
  bool input_closed_ = false;
  bool close_requested_ = false;  // Endpoint::Close().

  // Session -> client.
  mutable std::mutex out_mu_;
  std::condition_variable out_cv_;
  FrameReader reader_;
  std::deque<json> inbox_;
  std::map<std::string, std::function<json(const json&)>, std::less<>> auto_answers_;
  bool started_ = false;
  bool ended_ = false;
  int exit_code_ = 1;

  std::mutex id_mu_;
  int64_t next_id_ = 1;

  std::thread loop_;
};

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_LOOPBACK_H_
