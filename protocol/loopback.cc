// In-process test client over in-memory byte queues.
#include "loopback.h"

#include <utility>

namespace tvmls::protocol {

namespace {

bool IsResponse(const json& m) { return m.is_object() && !m.contains("method") && m.contains("id"); }
bool IsNotification(const json& m) { return m.is_object() && m.contains("method") && !m.contains("id"); }
bool IsServerRequest(const json& m) { return m.is_object() && m.contains("method") && m.contains("id"); }

}  // namespace

LoopbackClient::LoopbackClient(SessionFactory factory) : LoopbackClient(std::move(factory), Options{}) {}

LoopbackClient::LoopbackClient(SessionFactory factory, Options options)
    : options_(std::move(options)), endpoint_(std::make_unique<Endpoint>(options_.logger, options_.limits)) {
  loop_ = std::thread([this, factory = std::move(factory)] { LoopMain(factory); });
  std::unique_lock<std::mutex> lock(out_mu_);
  out_cv_.wait(lock, [this] { return started_; });
}

LoopbackClient::~LoopbackClient() {
  CloseInput();
  if (loop_.joinable()) loop_.join();
  endpoint_.reset();
}

void LoopbackClient::LoopMain(const SessionFactory& factory) {
  Endpoint::TransportHooks hooks;
  hooks.write = [this](std::string frame) { OnServerFrame(std::move(frame)); };
  hooks.close = [this] {
    std::lock_guard<std::mutex> lock(in_mu_);
    close_requested_ = true;
    in_cv_.notify_all();
  };
  endpoint_->AttachTransport(std::move(hooks));
  std::shared_ptr<void> owner;
  bool ok = true;
  try {
    if (factory) owner = factory(*endpoint_);
  } catch (const std::exception& e) {
    options_.logger.Error(std::string("session factory failed: ") + e.what());
    ok = false;
  } catch (...) {
    options_.logger.Error("session factory failed");
    ok = false;
  }
  if (!ok) {
    endpoint_->EndSession("session factory failed");
    std::lock_guard<std::mutex> lock(out_mu_);
    started_ = ended_ = true;  // Ended() is true when the constructor returns.
    exit_code_ = endpoint_->ExitCode();
  } else {
    std::lock_guard<std::mutex> lock(out_mu_);
    started_ = true;
  }
  out_cv_.notify_all();
  if (!ok) return;

  while (!endpoint_->Ended()) {
    std::string chunk;
    bool close = false;
    {
      std::unique_lock<std::mutex> lock(in_mu_);
      in_cv_.wait(lock, [this] { return !input_.empty() || input_closed_ || close_requested_; });
      if (!input_.empty()) {
        chunk = std::move(input_.front());
        input_.pop_front();
      } else {
        close = close_requested_;
      }
    }
    if (!chunk.empty()) {
      endpoint_->Feed(chunk);
    } else {
      endpoint_->EndSession(close ? "closed by the server" : "end of input");
    }
  }
  owner.reset();  // Before the Endpoint, on this thread.
  {
    std::lock_guard<std::mutex> lock(out_mu_);
    ended_ = true;
    exit_code_ = endpoint_->ExitCode();
  }
  out_cv_.notify_all();
}

void LoopbackClient::OnServerFrame(std::string frame) {
  std::vector<std::string> answers;
  {
    std::lock_guard<std::mutex> lock(out_mu_);
    reader_.Feed(frame);
    while (true) {
      Frame f = reader_.Next();
      if (f.kind == Frame::Kind::kNeedMore) break;
      if (f.kind == Frame::Kind::kError) {
        inbox_.push_back(json{{"loopback_frame_error", f.error}});
        continue;
      }
      json message = json::parse(f.body, nullptr, false);
      if (message.is_discarded()) {
        inbox_.push_back(json{{"loopback_bad_json", f.body}});
        continue;
      }
      if (IsServerRequest(message) && message["method"].is_string()) {
        auto it = auto_answers_.find(message["method"].get<std::string>());
        if (it != auto_answers_.end()) {
          json response;
          try {
            response = MakeResponse(message["id"], it->second(message.value("params", json())));
          } catch (const std::exception& e) {
            response = MakeErrorResponse(message["id"], ResponseError(ErrorCode::kInternalError, e.what()));
          }
          answers.push_back(EncodeFrame(Serialize(response)));
          continue;
        }
      }
      inbox_.push_back(std::move(message));
    }
  }
  out_cv_.notify_all();
  for (std::string& answer : answers) PushInput(std::move(answer));
}

void LoopbackClient::PushInput(std::string bytes) {
  if (bytes.empty()) return;
  {
    std::lock_guard<std::mutex> lock(in_mu_);
    input_.push_back(std::move(bytes));
  }
  in_cv_.notify_all();
}

json LoopbackClient::SendRequest(std::string_view method, json params) {
  json id;
  {
    std::lock_guard<std::mutex> lock(id_mu_);
    id = next_id_++;
  }
  SendMessage(MakeRequest(id, method, std::move(params)));
  return id;
}

void LoopbackClient::SendNotification(std::string_view method, json params) {
  SendMessage(MakeNotification(method, std::move(params)));
}

void LoopbackClient::SendMessage(const json& message) { PushInput(EncodeFrame(Serialize(message))); }

void LoopbackClient::SendBody(std::string_view body) { PushInput(EncodeFrame(body)); }

void LoopbackClient::SendRaw(std::string bytes) { PushInput(std::move(bytes)); }

void LoopbackClient::SendResponse(const json& id, json result) { SendMessage(MakeResponse(id, std::move(result))); }

void LoopbackClient::SendErrorResponse(const json& id, const ResponseError& error) {
  SendMessage(MakeErrorResponse(id, error));
}

void LoopbackClient::CloseInput() {
  {
    std::lock_guard<std::mutex> lock(in_mu_);
    input_closed_ = true;
  }
  in_cv_.notify_all();
}

std::optional<json> LoopbackClient::Request(std::string_view method, json params) {
  return Request(method, std::move(params), options_.timeout);
}

std::optional<json> LoopbackClient::Request(std::string_view method, json params, Duration timeout) {
  json id = SendRequest(method, std::move(params));
  return WaitForResponse(id, timeout);
}

std::optional<json> LoopbackClient::WaitForResponse(const json& id) { return WaitForResponse(id, options_.timeout); }

std::optional<json> LoopbackClient::WaitForResponse(const json& id, Duration timeout) {
  return WaitFor([&id](const json& m) { return IsResponse(m) && m["id"] == id; }, timeout);
}

std::optional<json> LoopbackClient::WaitForNotification(std::string_view method) {
  return WaitForNotification(method, options_.timeout);
}

std::optional<json> LoopbackClient::WaitForNotification(std::string_view method, Duration timeout) {
  return WaitFor([method](const json& m) { return IsNotification(m) && m["method"] == method; }, timeout);
}

std::optional<json> LoopbackClient::WaitForServerRequest(std::string_view method) {
  return WaitForServerRequest(method, options_.timeout);
}

std::optional<json> LoopbackClient::WaitForServerRequest(std::string_view method, Duration timeout) {
  return WaitFor([method](const json& m) { return IsServerRequest(m) && m["method"] == method; }, timeout);
}

std::optional<json> LoopbackClient::WaitFor(const std::function<bool(const json&)>& predicate, Duration timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  std::unique_lock<std::mutex> lock(out_mu_);
  while (true) {
    for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
      if (predicate(*it)) {
        json message = std::move(*it);
        inbox_.erase(it);
        return message;
      }
    }
    // Everything the session wrote arrived before it was marked ended: nothing more will come.
    if (ended_) return std::nullopt;
    if (out_cv_.wait_until(lock, deadline) == std::cv_status::timeout &&
        std::chrono::steady_clock::now() >= deadline) {
      for (auto it = inbox_.begin(); it != inbox_.end(); ++it) {
        if (predicate(*it)) {
          json message = std::move(*it);
          inbox_.erase(it);
          return message;
        }
      }
      return std::nullopt;
    }
  }
}

std::vector<json> LoopbackClient::TakeAll() {
  std::lock_guard<std::mutex> lock(out_mu_);
  std::vector<json> out(std::make_move_iterator(inbox_.begin()), std::make_move_iterator(inbox_.end()));
  inbox_.clear();
  return out;
}

void LoopbackClient::AutoAnswer(std::string method, std::function<json(const json& params)> answer) {
  std::lock_guard<std::mutex> lock(out_mu_);
  auto_answers_[std::move(method)] = std::move(answer);
}

std::optional<json> LoopbackClient::Initialize(json params) {
  std::optional<json> response = Request("initialize", std::move(params));
  if (response && response->contains("result")) SendNotification("initialized", json::object());
  return response;
}

std::optional<int> LoopbackClient::ShutdownAndExit() {
  std::optional<json> response = Request("shutdown");
  if (!response) return std::nullopt;
  SendNotification("exit");
  if (!WaitForEnd()) return std::nullopt;
  return ExitCode();
}

bool LoopbackClient::WaitForEnd() { return WaitForEnd(options_.timeout); }

bool LoopbackClient::WaitForEnd(Duration timeout) {
  std::unique_lock<std::mutex> lock(out_mu_);
  return out_cv_.wait_for(lock, timeout, [this] { return ended_; });
}

bool LoopbackClient::Ended() const {
  std::lock_guard<std::mutex> lock(out_mu_);
  return ended_;
}

int LoopbackClient::ExitCode() const {
  std::lock_guard<std::mutex> lock(out_mu_);
  return exit_code_;
}

}  // namespace tvmls::protocol
