// One JSON-RPC/LSP session: dispatch, replies, calls, cancellation, lifecycle.
#include "endpoint.h"

#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

namespace tvmls::protocol {

namespace detail {

// Locks: EndpointCore::mu and EndpointCore::write_mu are never held together, no callback or
// handler runs under either, and no shared_ptr<ReplyState> is released while either is held (its
// destructor may reply). The transport's write/close hooks run under write_mu.

struct ReplyState {
  std::weak_ptr<EndpointCore> core;
  json id;
  std::string key;  // IdKey(id).
  std::string method;
  bool is_initialize = false;
  bool is_shutdown = false;
  std::atomic<bool> replied{false};
  CancellationToken token;

  ~ReplyState();
};

struct EndpointCore : std::enable_shared_from_this<EndpointCore> {
  EndpointCore(Logger logger_in, FramingLimits limits) : logger(std::move(logger_in)), reader(limits) {}

  // Immutable after construction.
  const Logger logger;

  // Message-loop thread only.
  FrameReader reader;
  std::unordered_map<std::string, Endpoint::RequestHandler> requests;
  std::unordered_map<std::string, Endpoint::NotificationHandler> notifications;

  // Guarded by mu.
  struct Pending {
    std::weak_ptr<ReplyState> weak;
    const ReplyState* raw;  // Identity, comparable while the state is being destroyed.
  };
  mutable std::mutex mu;
  LifecycleState state = LifecycleState::kUninitialized;
  bool shutdown_received = false;
  bool ended = false;
  int exit_code = 1;
  TraceValue trace = TraceValue::kOff;
  std::unordered_map<std::string, Pending> incoming;
  std::unordered_map<std::string, Endpoint::CallCallback> outgoing;
  int64_t next_id = 1;
  // Replies taken out of `incoming` and not yet written, and the reply to `shutdown` held back
  // until both this count and `incoming` are down to zero (see Complete).
  int writing = 0;
  std::optional<std::string> held_shutdown_reply;  // serialized

  // Guarded by write_mu.
  std::mutex write_mu;
  Endpoint::TransportHooks hooks;

  bool IsEnded() const {
    std::lock_guard<std::mutex> lock(mu);
    return ended;
  }

  static std::string Brief(std::string_view text) {
    constexpr size_t kMax = 2000;
    if (text.size() <= kMax) return std::string(text);
    return std::string(text.substr(0, kMax)) + "... (" + std::to_string(text.size()) + " bytes)";
  }

  // Any thread. False when dropped (no transport: not attached yet, or the session ended).
  bool Write(const json& message) { return WriteBody(Serialize(message)); }

  // Any thread. `body` is one serialized message.
  bool WriteBody(std::string body) {
    if (logger.Enabled(LogLevel::kDebug)) logger.Debug("--> " + Brief(body));
    FrameInPlace(&body);
    std::lock_guard<std::mutex> lock(write_mu);
    if (!hooks.write) return false;
    hooks.write(std::move(body));
    return true;
  }

  void WriteError(const json& id, const ResponseError& error) { Write(MakeErrorResponse(id, error)); }

  // ---- Replies ----

  // `response`: the serialized response message.
  static bool SendReply(const std::shared_ptr<ReplyState>& s, std::string response, bool is_error, bool quiet) {
    if (s->replied.exchange(true, std::memory_order_acq_rel)) {
      if (auto core = s->core.lock()) {
        std::string text = "reply to request " + s->key + " (" + s->method + ") dropped: already answered";
        if (quiet || s->token.IsCancelled() || core->IsEnded()) {
          core->logger.Debug(text);
        } else {
          core->logger.Warn(text);
        }
      }
      return false;
    }
    std::shared_ptr<EndpointCore> core = s->core.lock();
    if (!core) return false;
    return core->Complete(*s, std::move(response), is_error);
  }

  // The first reply for `s`: bookkeeping, then the write. The reply to `shutdown` is written only
  // once every request received before it has been answered and its reply written, so that a
  // client that exits as soon as it sees that reply has had one reply to each of its requests.
  bool Complete(const ReplyState& s, std::string response, bool is_error) {
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = incoming.find(s.key);
      if (it != incoming.end() && it->second.raw == &s) incoming.erase(it);
      if (ended) return false;
      // Before the write: once the client sees the result it may send requests at once.
      if (s.is_initialize && state == LifecycleState::kInitializing) {
        state = is_error ? LifecycleState::kUninitialized : LifecycleState::kInitialized;
      }
      if (s.is_shutdown && (!incoming.empty() || writing > 0)) {
        held_shutdown_reply = std::move(response);
        return true;
      }
      ++writing;
    }
    bool written = WriteBody(std::move(response));
    std::optional<std::string> release;
    {
      std::lock_guard<std::mutex> lock(mu);
      --writing;
      if (writing == 0 && incoming.empty() && held_shutdown_reply) {
        release = std::move(held_shutdown_reply);
        held_shutdown_reply.reset();
      }
    }
    if (release) WriteBody(std::move(*release));
    return written;
  }

  // From ~ReplyState when no copy replied.
  void Unanswered(ReplyState& s) {
    s.replied.store(true, std::memory_order_release);
    if (IsEnded()) {
      std::lock_guard<std::mutex> lock(mu);
      auto it = incoming.find(s.key);
      if (it != incoming.end() && it->second.raw == &s) incoming.erase(it);
      return;
    }
    logger.Error("request " + s.key + " (" + s.method + ") was not answered by its handler; replying -32603");
    Complete(s,
             Serialize(MakeErrorResponse(s.id, ResponseError(ErrorCode::kInternalError, "internal error: the request '" +
                                                                                             s.method + "' was not answered"))),
             true);
  }

  static ResponseError ErrorFor(std::exception_ptr error, const std::string& method, const Logger& log) {
    try {
      std::rethrow_exception(std::move(error));
    } catch (const RpcError& e) {
      log.Debug("request '" + method + "' failed: " + e.what());
      return e.error();
    } catch (const std::exception& e) {
      log.Error("handler for '" + method + "' threw: " + e.what());
      return ResponseError(ErrorCode::kInternalError, std::string("internal error: ") + e.what());
    } catch (...) {
      log.Error("handler for '" + method + "' threw a non-exception");
      return ResponseError(ErrorCode::kInternalError, "internal error");
    }
  }

  // ---- Incoming ----

  void Feed(std::string_view bytes) {
    if (IsEnded()) return;
    reader.Feed(bytes);
    while (true) {
      Frame frame = reader.Next();
      if (frame.kind == Frame::Kind::kNeedMore) return;
      if (frame.kind == Frame::Kind::kError) {
        logger.Error("bad frame: " + frame.error);
        WriteError(nullptr, ResponseError(ErrorCode::kParseError, "bad frame: " + frame.error));
        if (frame.fatal) {
          EndSession("unrecoverable framing error", true);
          return;
        }
        continue;
      }
      HandleBody(frame.body);
      if (IsEnded()) return;
    }
  }

  void HandleBody(const std::string& body) {
    if (logger.Enabled(LogLevel::kDebug)) logger.Debug("<-- " + Brief(body));
    ParseResult parsed = ParseMessage(body);
    if (!parsed.message) {
      logger.Warn("rejected message (" + std::to_string(parsed.error->code) + "): " + parsed.error->message);
      WriteError(parsed.error_id, *parsed.error);
      return;
    }
    Message& message = *parsed.message;
    switch (message.kind) {
      case Message::Kind::kRequest: HandleRequest(message); break;
      case Message::Kind::kNotification: HandleNotification(message); break;
      case Message::Kind::kResponse: HandleResponse(message); break;
    }
  }

  void HandleRequest(Message& message) {
    const std::string key = IdKey(message.id);
    const bool is_initialize = message.method == "initialize";
    const bool is_shutdown = message.method == "shutdown";
    auto handler_it = requests.find(message.method);
    const bool has_handler = handler_it != requests.end();
    std::optional<ResponseError> reject;
    std::shared_ptr<ReplyState> s;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (incoming.count(key) != 0) {
        reject = ResponseError(ErrorCode::kInvalidRequest, "invalid request: id " + key + " is already in use");
      } else if (is_initialize) {
        if (state == LifecycleState::kUninitialized) {
          state = LifecycleState::kInitializing;
        } else if (state == LifecycleState::kShutdown) {
          reject = ResponseError(ErrorCode::kInvalidRequest, "invalid request: the server is shutting down");
        } else {
          reject = ResponseError(ErrorCode::kInvalidRequest, "invalid request: initialize was already received");
        }
      } else if (state == LifecycleState::kUninitialized || state == LifecycleState::kInitializing) {
        reject = ResponseError(ErrorCode::kServerNotInitialized,
                               "server not initialized: '" + message.method + "' before initialize");
      } else if (state == LifecycleState::kShutdown) {
        reject = ResponseError(ErrorCode::kInvalidRequest,
                               "invalid request: '" + message.method + "' after shutdown");
      } else if (is_shutdown) {
        state = LifecycleState::kShutdown;
        shutdown_received = true;
      } else if (!has_handler) {
        reject = ResponseError(ErrorCode::kMethodNotFound, "method not found: " + message.method);
      }
      if (!reject) {
        s = std::make_shared<ReplyState>();
        s->core = weak_from_this();
        s->id = message.id;
        s->key = key;
        s->method = message.method;
        s->is_initialize = is_initialize;
        s->is_shutdown = is_shutdown;
        incoming[key] = Pending{s, s.get()};
      }
    }
    if (reject) {
      logger.Warn("request " + key + " (" + message.method + ") rejected: " + reject->message);
      WriteError(message.id, *reject);
      return;
    }
    Reply reply(std::move(s));
    if (!has_handler) {
      // Built-in defaults: only initialize and shutdown get here.
      reply.Result(is_initialize ? json{{"capabilities", json::object()}} : json(nullptr));
      return;
    }
    Endpoint::RequestHandler handler = handler_it->second;  // A copy: it may re-register itself.
    try {
      handler(message.params, reply);
    } catch (...) {
      if (!reply.Replied()) {
        reply.Fail(std::current_exception());
      } else {
        logger.Warn("handler for '" + message.method + "' threw after replying:");
        (void)ErrorFor(std::current_exception(), message.method, logger);  // Logs it.
      }
    }
    // `reply` goes out of scope: if no copy survives and nobody replied, ~ReplyState answers -32603.
  }

  void HandleNotification(Message& message) {
    const std::string& method = message.method;
    if (method == "exit") {
      CallNotificationHandler(message);
      EndSession("exit notification", true);
      return;
    }
    LifecycleState current;
    {
      std::lock_guard<std::mutex> lock(mu);
      current = state;
    }
    if (current == LifecycleState::kUninitialized || current == LifecycleState::kInitializing) {
      logger.Debug("notification '" + method + "' before initialize dropped");
      return;
    }
    if (method == "$/cancelRequest") {  // Also after shutdown: requests before it may still run.
      const json* id = message.params.is_object() && message.params.contains("id") ? &message.params["id"] : nullptr;
      if (id == nullptr || !IsValidRequestId(*id)) {
        logger.Warn("$/cancelRequest without a valid id ignored");
        return;
      }
      Cancel(*id);
      return;
    }
    if (current == LifecycleState::kShutdown) {
      logger.Debug("notification '" + method + "' after shutdown dropped");
      return;
    }
    if (method == "$/setTrace") {
      const json* value = message.params.is_object() && message.params.contains("value") ? &message.params["value"] : nullptr;
      std::optional<TraceValue> trace_value =
          value != nullptr && value->is_string() ? ParseTraceValue(value->get<std::string>()) : std::nullopt;
      if (!trace_value) {
        logger.Warn("$/setTrace with a bad value ignored");
        return;
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        trace = *trace_value;
      }
    }
    if (!CallNotificationHandler(message)) {
      logger.Debug("notification '" + method + "' ignored (no handler)");
    }
  }

  bool CallNotificationHandler(const Message& message) {
    auto it = notifications.find(message.method);
    if (it == notifications.end()) return false;
    Endpoint::NotificationHandler handler = it->second;  // A copy: it may re-register itself.
    try {
      handler(message.params);
    } catch (const std::exception& e) {
      logger.Error("handler for notification '" + message.method + "' threw: " + e.what());
    } catch (...) {
      logger.Error("handler for notification '" + message.method + "' threw a non-exception");
    }
    return true;
  }

  void HandleResponse(Message& message) {
    Endpoint::CallCallback callback;
    bool found = false;
    if (!message.id.is_null()) {
      std::lock_guard<std::mutex> lock(mu);
      auto it = outgoing.find(IdKey(message.id));
      if (it != outgoing.end()) {
        callback = std::move(it->second);
        outgoing.erase(it);
        found = true;
      }
    }
    if (!found) {
      logger.Warn("response with unknown id " + IdKey(message.id) + " ignored" +
                  (message.error ? ": " + message.error->message : std::string()));
      return;
    }
    CallResponse response;
    response.result = std::move(message.result);
    response.error = std::move(message.error);
    InvokeCallback(callback, std::move(response));
  }

  void InvokeCallback(const Endpoint::CallCallback& callback, CallResponse response) {
    if (!callback) return;
    try {
      callback(std::move(response));
    } catch (const std::exception& e) {
      logger.Error(std::string("response callback threw: ") + e.what());
    } catch (...) {
      logger.Error("response callback threw a non-exception");
    }
  }

  void Cancel(const json& id) {
    std::shared_ptr<ReplyState> s;  // Released after the lock (its destructor may reply).
    {
      std::lock_guard<std::mutex> lock(mu);
      auto it = incoming.find(IdKey(id));
      if (it != incoming.end()) s = it->second.weak.lock();
    }
    if (!s) {
      logger.Debug("$/cancelRequest for " + IdKey(id) + ": no such pending request");
      return;
    }
    s->token.Cancel();
    if (SendReply(s, Serialize(MakeErrorResponse(s->id, ResponseError(ErrorCode::kRequestCancelled, "request cancelled"))),
                  true, true)) {
      logger.Debug("request " + s->key + " (" + s->method + ") cancelled");
    }
  }

  // ---- Outgoing ----

  json Call(std::string_view method, json params, Endpoint::CallCallback callback) {
    json id;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (!ended) {
        id = next_id++;
        outgoing[IdKey(id)] = std::move(callback);
      }
    }
    if (id.is_null()) {
      InvokeCallback(callback, CallResponse{nullptr, ResponseError(ErrorCode::kConnectionClosed, "the session has ended")});
      return nullptr;
    }
    Write(MakeRequest(id, method, std::move(params)));
    return id;
  }

  // ---- End ----

  void EndSession(std::string_view reason, bool invoke_callbacks) {
    std::unordered_map<std::string, Endpoint::CallCallback> calls;
    std::vector<std::weak_ptr<ReplyState>> pending;
    int code;
    {
      std::lock_guard<std::mutex> lock(mu);
      if (ended) return;
      ended = true;
      exit_code = code = shutdown_received ? 0 : 1;
      state = LifecycleState::kExited;
      calls.swap(outgoing);
      for (auto& entry : incoming) pending.push_back(entry.second.weak);
      incoming.clear();
      held_shutdown_reply.reset();  // Dropped like every reply after the end.
    }
    logger.Info("session ended (" + std::string(reason) + "), exit code " + std::to_string(code));
    Endpoint::TransportHooks detached;
    {
      std::lock_guard<std::mutex> lock(write_mu);
      std::swap(detached, hooks);
    }
    detached = {};
    for (const std::weak_ptr<ReplyState>& weak : pending) {
      if (std::shared_ptr<ReplyState> s = weak.lock()) {
        s->token.Cancel();
        s->replied.store(true, std::memory_order_release);
      }
    }
    if (invoke_callbacks) {
      for (auto& entry : calls) {
        InvokeCallback(entry.second,
                       CallResponse{nullptr, ResponseError(ErrorCode::kConnectionClosed, "the session has ended")});
      }
    }
  }
};

ReplyState::~ReplyState() {
  if (replied.load(std::memory_order_acquire)) return;
  if (std::shared_ptr<EndpointCore> c = core.lock()) {
    try {
      c->Unanswered(*this);
    } catch (...) {
      // Nothing sensible to do in a destructor.
    }
  }
}

}  // namespace detail

// ---- CancellationToken ----

CancellationToken::CancellationToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}

// ---- Reply ----

bool Reply::Send(const json& response, bool is_error, bool quiet_if_replied) const {
  if (state_->replied.load(std::memory_order_acquire)) {  // Not worth serializing: dropped.
    return detail::EndpointCore::SendReply(state_, std::string(), is_error, quiet_if_replied);
  }
  return detail::EndpointCore::SendReply(state_, Serialize(response), is_error, quiet_if_replied);
}

bool Reply::Result(json result) const { return Send(MakeResponse(state_->id, std::move(result)), false, false); }

bool Reply::ResultText(std::string result_json) const {
  result_json.insert(0, R"({"jsonrpc":"2.0","id":)" + Serialize(state_->id) + R"(,"result":)");
  result_json += '}';
  return detail::EndpointCore::SendReply(state_, std::move(result_json), false, false);
}

bool Reply::Error(const ResponseError& error) const { return Send(MakeErrorResponse(state_->id, error), true, false); }

bool Reply::Error(ErrorCode code, std::string message, json data) const {
  return Error(ResponseError(code, std::move(message), std::move(data)));
}

bool Reply::Cancelled() const {
  return Send(MakeErrorResponse(state_->id, ResponseError(ErrorCode::kRequestCancelled, "request cancelled")), true,
              true);
}

bool Reply::ContentModified() const {
  return Error(ErrorCode::kContentModified, "content modified: the result would be stale");
}

bool Reply::Fail(std::exception_ptr error) const {
  Logger log;
  if (auto core = state_->core.lock()) log = core->logger;
  return Error(detail::EndpointCore::ErrorFor(std::move(error), state_->method, log));
}

const CancellationToken& Reply::token() const { return state_->token; }
bool Reply::Replied() const { return state_->replied.load(std::memory_order_acquire); }
const json& Reply::id() const { return state_->id; }
const std::string& Reply::method() const { return state_->method; }

// ---- Endpoint ----

Endpoint::Endpoint(Logger logger, FramingLimits limits)
    : core_(std::make_shared<detail::EndpointCore>(std::move(logger), limits)) {}

Endpoint::~Endpoint() {
  // Normally the transport ended the session already. If not, detach the hooks now (they point
  // into a transport that is going away) without running callbacks that may refer to objects
  // destroyed before us.
  core_->EndSession("endpoint destroyed", false);
  core_->requests.clear();
  core_->notifications.clear();
}

void Endpoint::OnRequest(std::string method, RequestHandler handler) {
  if (method == "$/cancelRequest") throw std::invalid_argument("$/cancelRequest is handled by the Endpoint");
  core_->requests[std::move(method)] = std::move(handler);
}

void Endpoint::OnNotification(std::string method, NotificationHandler handler) {
  if (method == "$/cancelRequest") throw std::invalid_argument("$/cancelRequest is handled by the Endpoint");
  core_->notifications[std::move(method)] = std::move(handler);
}

void Endpoint::Notify(std::string_view method, json params) {
  core_->Write(MakeNotification(method, std::move(params)));
}

void Endpoint::NotifyText(std::string_view method, std::string params_json) {
  std::string head = R"({"jsonrpc":"2.0","method":)";
  AppendJsonString(&head, method);
  head += R"(,"params":)";
  params_json.insert(0, head);
  params_json += '}';
  core_->WriteBody(std::move(params_json));
}

json Endpoint::Call(std::string_view method, json params, CallCallback callback) {
  return core_->Call(method, std::move(params), std::move(callback));
}

void Endpoint::Close() {
  std::lock_guard<std::mutex> lock(core_->write_mu);
  if (core_->hooks.close) core_->hooks.close();
}

LifecycleState Endpoint::State() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->state;
}

bool Endpoint::Ended() const { return core_->IsEnded(); }

int Endpoint::ExitCode() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->ended ? core_->exit_code : (core_->shutdown_received ? 0 : 1);
}

TraceValue Endpoint::Trace() const {
  std::lock_guard<std::mutex> lock(core_->mu);
  return core_->trace;
}

const Logger& Endpoint::logger() const { return core_->logger; }

void Endpoint::AttachTransport(TransportHooks hooks) {
  // EndSession runs on this same thread, so the session cannot end between the check and the set.
  if (core_->IsEnded()) return;
  std::lock_guard<std::mutex> lock(core_->write_mu);
  core_->hooks = std::move(hooks);
}

void Endpoint::Feed(std::string_view bytes) { core_->Feed(bytes); }

void Endpoint::EndSession(std::string_view reason) { core_->EndSession(reason, true); }

}  // namespace tvmls::protocol
