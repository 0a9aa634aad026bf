// One JSON-RPC/LSP session: dispatch of incoming messages to handlers, replies, server-to-client
// requests, cancellation, and the LSP lifecycle. Transport-agnostic: a transport (transport.h,
// loopback.h) feeds it bytes on its message-loop thread and gives it a function that writes frames.
//
// THREADING CONTRACT
//   * The message-loop thread: the one thread on which the transport calls Feed/EndSession. Every
//     handler registered with OnRequest/OnNotification and every Call callback runs on it, one at
//     a time, in the order the messages arrived. A handler that blocks stalls its session (reading
//     and the writing of replies), so long work belongs on other threads (take the Reply along).
//   * Registration (OnRequest/OnNotification) happens in the SessionFactory, before the first
//     message, or on the message-loop thread.
//   * Reply, CancellationToken, Notify, Call, Close, State, Ended, ExitCode: any thread.
//   * Writes are serialized by one mutex: whole frames, never interleaved, and the frames written
//     by one thread appear on the wire in the order that thread wrote them.
//
// REPLIES: exactly one per request.
//   * A request handler gets a Reply handle; copy it or move it to any thread. The first of
//     Result/Error/Cancelled/ContentModified/Fail is sent; later ones are dropped (logged as a
//     warning, or at debug level when the request had been cancelled).
//   * If the handler throws on the loop thread: RpcError -> its error, ParamError -> -32602 naming
//     the field, anything else -> -32603 (unless it replied before throwing).
//   * If every copy of a Reply is destroyed without replying: -32603 "... was not answered".
//   * `$/cancelRequest` for a request not yet answered sets its CancellationToken and replies
//     -32800 at once; the handler's later reply is then dropped. Handlers may poll the token and
//     stop (replying -32800 themselves is fine; it is dropped as well).
//   * When the session ends, the tokens of requests still pending are cancelled; from then on
//     replies and notifications are dropped silently, and Call callbacks get kConnectionClosed.
//   * Never block the loop thread waiting for a Call response: responses are dispatched on that
//     same thread. Continue in the callback instead.
//
// LIFECYCLE (generic LSP; see LifecycleState in lsp.h)
//   * Before `initialize` has been answered: requests other than `initialize` get -32002,
//     notifications are dropped except `exit`.
//   * `initialize`: the registered handler supplies the InitializeResult (without a handler:
//     {"capabilities":{}}). The session counts as initialized once a *result* was sent; an error
//     reply leaves it uninitialized. A second `initialize` gets -32600.
//   * `shutdown`: from the moment it arrives every further request gets -32600 and notifications
//     other than `exit` are dropped. The registered handler (if any) runs and must reply (null);
//     without one, null is replied. That reply is written only after every request received
//     before `shutdown` has been answered (a client may exit as soon as it sees it, and must have
//     had one reply to each request by then): handlers must not keep a Reply unanswered
//     indefinitely (polling the CancellationToken is fine: $/cancelRequest still works).
//   * `exit`: the registered handler (if any) runs, then the session ends.
//   * ExitCode(): 0 if `shutdown` arrived before the session ended, else 1 (LSP: exit without
//     shutdown, or the client vanished).
//   * Only incoming messages are policed: what the server sends before initialize completes (the
//     spec allows only window/showMessage, window/logMessage, telemetry/event and
//     window/showMessageRequest then) is the server layer's responsibility.
//   * `$/cancelRequest` is handled here (no handler is called). `$/setTrace` is recorded
//     (TraceValue()) and then passed to a handler if one is registered. Any other unhandled
//     `$/...` or unknown notification is ignored; unknown requests get -32601.
//
// BAD INPUT is answered and the session goes on: see ParseMessage (jsonrpc.h) for -32700/-32600.
// A frame whose header is complete but unusable (no or bad Content-Length, Content-Length over
// the limit, whose body is then skipped unread) gets -32700 with id null and reading goes on (after
// a header without a usable length, at the next "Content-Length:": see framing.h). A
// header that exceeds the header-size limit leaves no way to find the next frame: -32700 is sent,
// an error logged, and the session ends (exit code 1 unless shutdown came first).
//
// EXAMPLE (the server layer's per-session object; see SessionFactory below and transport.h):
//
//   class Server {
//    public:
//     explicit Server(protocol::Endpoint& ep) : ep_(ep) {
//       ep.OnRequest("initialize", [this](const json& params, protocol::Reply reply) {
//         encoding_ = protocol::NegotiatePositionEncoding(params);
//         reply.Result({{"capabilities", {{"positionEncoding", ToString(encoding_)},
//                                         {"hoverProvider", true}}}});
//       });
//       ep.OnNotification("textDocument/didOpen", [this](const json& params) {
//         protocol::ParamView p(params);
//         Open(p.Get<std::string>("textDocument.uri"), p.Get<std::string>("textDocument.text"));
//       });
//       ep.OnRequest("textDocument/hover", [this](const json& params, protocol::Reply reply) {
//         pool_.Post([this, params, reply] {            // Off the loop thread.
//           if (reply.IsCancelled()) return;            // Already answered -32800.
//           try { reply.Result(Hover(params)); } catch (...) { reply.Fail(std::current_exception()); }
//         });
//       });
//     }
//     ~Server() { pool_.Join(); }  // Before the Endpoint goes away.
//   };
#ifndef TVMLS_PROTOCOL_ENDPOINT_H_
#define TVMLS_PROTOCOL_ENDPOINT_H_

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "framing.h"
#include "jsonrpc.h"
#include "logger.h"
#include "lsp.h"

namespace tvmls::protocol {

namespace detail {
struct EndpointCore;  // The shared state behind an Endpoint (endpoint.cc).
struct ReplyState;    // The shared state behind the copies of one Reply (endpoint.cc).
}  // namespace detail

/// Cancellation state of one incoming request. Cheap to copy; all copies share the state.
/// IsCancelled is thread-safe. A default-constructed token is never cancelled.
class CancellationToken {
 public:
  CancellationToken();
  bool IsCancelled() const noexcept { return flag_->load(std::memory_order_acquire); }

 private:
  friend struct detail::EndpointCore;
  void Cancel() const noexcept { flag_->store(true, std::memory_order_release); }
  std::shared_ptr<std::atomic<bool>> flag_;
};

/// The right (and duty) to answer one incoming request. Copyable; all copies share one state, and
/// the request is answered at most once across them (see REPLIES above). Usable from any thread;
/// safe to use after the session (or the Endpoint) is gone — it then does nothing.
class Reply {
 public:
  /// Each returns true if this call sent the response, false if it was dropped.
  bool Result(json result) const;
  /// Result with the result given as JSON text (one valid JSON value, e.g. written with
  /// AppendJsonString): large results without building and copying a json tree. The message is
  /// made around the text in place (no copy when the string has a few hundred bytes of room).
  bool ResultText(std::string result_json) const;
  bool Error(const ResponseError& error) const;
  bool Error(ErrorCode code, std::string message, json data = nullptr) const;
  bool Cancelled() const;        // -32800 RequestCancelled.
  bool ContentModified() const;  // -32801 ContentModified: a document change made the result stale.
  /// Replies as the endpoint does for an exception escaping a handler: RpcError (and ParamError)
  /// -> its error, anything else -> -32603. For handlers continuing on other threads:
  ///   try { ... } catch (...) { reply.Fail(std::current_exception()); }
  bool Fail(std::exception_ptr error) const;

  /// The cancellation token of this request (see $/cancelRequest).
  const CancellationToken& token() const;
  bool IsCancelled() const { return token().IsCancelled(); }
  /// True once a response was sent (or dropped because the session ended).
  bool Replied() const;
  const json& id() const;
  const std::string& method() const;

 private:
  friend struct detail::EndpointCore;
  explicit Reply(std::shared_ptr<detail::ReplyState> state) : state_(std::move(state)) {}
  bool Send(const json& response, bool is_error, bool quiet_if_replied) const;
  std::shared_ptr<detail::ReplyState> state_;
};

/// The answer to a server-to-client request (Endpoint::Call).
struct CallResponse {
  json result;                         // When !error.
  std::optional<ResponseError> error;  // The client's error, or kConnectionClosed.
  bool ok() const { return !error.has_value(); }
};

class Endpoint {
 public:
  /// params: the request's params (null when absent). Runs on the message-loop thread.
  using RequestHandler = std::function<void(const json& params, Reply reply)>;
  using NotificationHandler = std::function<void(const json& params)>;
  /// Runs on the message-loop thread, or on the caller's thread when Call is made after the
  /// session ended.
  using CallCallback = std::function<void(CallResponse response)>;

  explicit Endpoint(Logger logger = {}, FramingLimits limits = {});
  /// Destroy on the message-loop thread after the loop stopped (transports do this). Outstanding
  /// Reply handles stay valid and become no-ops.
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // ---- Server layer: registration (in the SessionFactory, or on the message-loop thread) ----

  /// Replaces any previous handler for `method`. `$/cancelRequest` cannot be registered.
  void OnRequest(std::string method, RequestHandler handler);
  void OnNotification(std::string method, NotificationHandler handler);

  // ---- Server layer: any thread ----

  /// Sends a notification (dropped once the session ended).
  void Notify(std::string_view method, json params = nullptr);
  /// The same with the params given as JSON text (one valid JSON value, e.g. written with
  /// AppendJsonString): large notifications without building and copying a json tree, the
  /// message made around the text in place (no copy when the string has some room).
  void NotifyText(std::string_view method, std::string params_json);
  /// Sends a request to the client with a fresh integer id and returns the id. `callback` gets
  /// the client's result or error; a response whose id matches no pending call is logged and
  /// ignored. Pending calls get kConnectionClosed when the session ends.
  json Call(std::string_view method, json params, CallCallback callback);
  /// Asks the transport to end the session after writing what is queued (e.g. on a fatal server
  /// error). The session then ends on the message-loop thread; exit code as for any other end.
  void Close();

  LifecycleState State() const;
  bool Ended() const;
  /// 0 if `shutdown` arrived before the session ended, else 1. Final once Ended().
  int ExitCode() const;
  TraceValue Trace() const;
  const Logger& logger() const;

  // ---- Transport: the message loop ----

  struct TransportHooks {
    /// Writes one whole frame (or queues it for writing). Called from any thread but never
    /// concurrently (under the endpoint's write mutex), so it must not call back into the
    /// Endpoint, and should not block for long.
    std::function<void(std::string frame)> write;
    /// Close() was called: the loop should call EndSession soon, then flush and close. Called from
    /// any thread under the same mutex, so it must only post that work to the loop, never call
    /// EndSession itself.
    std::function<void()> close;
  };
  /// Loop thread, before the first Feed. Hooks stay in use until EndSession.
  void AttachTransport(TransportHooks hooks);
  /// Loop thread. Feeds bytes read from the client; dispatches every complete message (handlers
  /// run inside this call). Bytes fed after the session ended are ignored: check Ended() after
  /// each call and stop reading once it is true.
  void Feed(std::string_view bytes);
  /// Loop thread; idempotent. Ends the session: pending calls get kConnectionClosed, pending
  /// requests are marked cancelled (their replies will be dropped), and the hooks are detached —
  /// when this returns no hook is running or will run again, so the transport may tear down.
  /// Frames already passed to `write` should still be flushed by the transport.
  void EndSession(std::string_view reason);

 private:
  std::shared_ptr<detail::EndpointCore> core_;
};

/// Creates the server layer's per-session state. Called once per session on that session's
/// message-loop thread, after the transport is attached and before the first message: register
/// handlers on `endpoint` here. The returned object (may be null) is owned by the session and
/// destroyed on the loop thread after the session ended and before the Endpoint is destroyed; its
/// destructor must stop and join any threads that use the Endpoint (Reply handles are exempt:
/// they may outlive everything). Exceptions thrown here end the session before it starts.
using SessionFactory = std::function<std::shared_ptr<void>(Endpoint& endpoint)>;

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_ENDPOINT_H_
