// The Endpoint through the in-memory loopback: bad input, replies from any thread, cancellation,
// server-to-client requests, lifecycle. Waits are on condition variables with generous timeouts;
// "nothing else arrived" is checked with a ping round trip (the loop thread handles messages in
// order, so whatever an earlier message caused on it was written before the pong).
#include "endpoint.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "loopback.h"

namespace tvmls::protocol {
namespace {

using namespace std::chrono_literals;
constexpr std::chrono::milliseconds kWait = 10s;

// A thread-safe queue for handing values (typically Reply handles) from handlers to the test.
template <typename T>
class Mailbox {
 public:
  void Put(T value) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(std::move(value));
    cv_.notify_all();  // Under the lock: the taker may destroy the mailbox right after Take().
  }
  std::optional<T> Take() {
    std::unique_lock<std::mutex> lock(mu_);
    if (!cv_.wait_for(lock, kWait, [this] { return !items_.empty(); })) return std::nullopt;
    T value = std::move(items_.front());
    items_.pop_front();
    return value;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<T> items_;
};

// The session's owner object: worker threads started by handlers, joined when the session ends.
class Workers {
 public:
  void Spawn(std::function<void()> work) {
    std::lock_guard<std::mutex> lock(mu_);
    threads_.emplace_back(std::move(work));
  }
  ~Workers() {
    std::vector<std::thread> threads;
    {
      std::lock_guard<std::mutex> lock(mu_);
      threads.swap(threads_);
    }
    for (std::thread& t : threads) t.join();
  }

 private:
  std::mutex mu_;
  std::vector<std::thread> threads_;
};

using Setup = std::function<void(Endpoint&, Workers&)>;

SessionFactory Server(Setup setup = {}) {
  return [setup](Endpoint& endpoint) -> std::shared_ptr<void> {
    auto workers = std::make_shared<Workers>();
    endpoint.OnRequest("ping", [](const json&, Reply reply) { reply.Result("pong"); });
    endpoint.OnRequest("echo", [](const json& params, Reply reply) { reply.Result(params); });
    if (setup) setup(endpoint, *workers);
    return workers;
  };
}

LoopbackClient::Options WithLimits(FramingLimits limits) {
  LoopbackClient::Options options;
  options.limits = limits;
  return options;
}

void ExpectError(const std::optional<json>& response, int code, const json& id) {
  ASSERT_TRUE(response.has_value()) << "no response";
  ASSERT_TRUE(response->contains("error")) << response->dump();
  EXPECT_EQ((*response)["error"]["code"], code) << response->dump();
  EXPECT_EQ((*response)["id"], id) << response->dump();
  EXPECT_TRUE((*response)["error"]["message"].is_string());
}

std::optional<json> WaitForNullIdError(LoopbackClient& client) {
  return client.WaitFor([](const json& m) { return m.contains("error") && m["id"].is_null(); }, kWait);
}

// A ping round trip, then nothing else may have arrived.
void ExpectNothingElse(LoopbackClient& client) {
  std::optional<json> pong = client.Request("ping");
  ASSERT_TRUE(pong.has_value());
  EXPECT_EQ((*pong)["result"], "pong") << pong->dump();
  std::vector<json> rest = client.TakeAll();
  EXPECT_TRUE(rest.empty()) << json(rest).dump();
}

void Initialize(LoopbackClient& client) {
  std::optional<json> response = client.Initialize();
  ASSERT_TRUE(response.has_value());
  ASSERT_TRUE(response->contains("result")) << response->dump();
}

int CountResponses(const std::vector<json>& messages, const json& id) {
  int n = 0;
  for (const json& m : messages) n += (!m.contains("method") && m.contains("id") && m["id"] == id) ? 1 : 0;
  return n;
}

// ---- Bad input: answered, and the session goes on ----

TEST(EndpointBadInput, InvalidJsonGetsParseErrorWithNullId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":1,"method":)");
  ExpectError(WaitForNullIdError(client), -32700, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, NonObjectGetsInvalidRequestWithNullId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody("42");
  ExpectError(WaitForNullIdError(client), -32600, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, BatchGetsInvalidRequestWithNullId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"([{"jsonrpc":"2.0","id":70,"method":"ping"}])");
  ExpectError(WaitForNullIdError(client), -32600, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, BadJsonrpcVersionEchoesTheId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"1.0","id":71,"method":"ping"})");
  ExpectError(client.WaitForResponse(71, kWait), -32600, 71);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, IdOfWrongTypeGetsNullId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":true,"method":"ping"})");
  ExpectError(WaitForNullIdError(client), -32600, nullptr);
  client.SendBody(R"({"jsonrpc":"2.0","id":2.5,"method":"ping"})");
  ExpectError(WaitForNullIdError(client), -32600, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, MethodNotAStringEchoesTheId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":"m-72","method":72})");
  ExpectError(client.WaitForResponse("m-72", kWait), -32600, "m-72");
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, UnstructuredParamsEchoTheId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":73,"method":"echo","params":5})");
  ExpectError(client.WaitForResponse(73, kWait), -32600, 73);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, NeitherRequestNorResponseEchoesTheId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":74})");
  ExpectError(client.WaitForResponse(74, kWait), -32600, 74);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, MalformedResponseGetsNullId) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendBody(R"({"jsonrpc":"2.0","id":75,"result":1,"error":{"code":1,"message":"x"}})");
  ExpectError(WaitForNullIdError(client), -32600, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, UnknownRequestGetsMethodNotFound) {
  LoopbackClient client(Server());
  Initialize(client);
  json id = client.SendRequest("no/such/method");
  ExpectError(client.WaitForResponse(id, kWait), -32601, id);
  id = client.SendRequest("$/no/such/request");
  ExpectError(client.WaitForResponse(id, kWait), -32601, id);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, UnknownNotificationsAreIgnoredSilently) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendNotification("no/such/notification", {{"a", 1}});
  client.SendNotification("$/progress", {{"token", 1}, {"value", {}}});
  client.SendNotification("$/cancelRequest", {{"id", 12345}});  // Nothing pending with that id.
  client.SendNotification("$/cancelRequest", {{"id", true}});   // Bad params: logged only.
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, BadParamsGetInvalidParamsNamingTheField) {
  LoopbackClient client(Server([](Endpoint& ep, Workers&) {
    ep.OnRequest("needsUri", [](const json& params, Reply reply) {
      reply.Result(ParamView(params).Get<std::string>("textDocument.uri"));
    });
  }));
  Initialize(client);
  json id = client.SendRequest("needsUri", {{"textDocument", json::object()}});
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ExpectError(response, -32602, id);
  EXPECT_NE((*response)["error"]["message"].get<std::string>().find("textDocument.uri"), std::string::npos);
  EXPECT_EQ((*response)["error"]["data"]["path"], "textDocument.uri");
  id = client.SendRequest("needsUri", {{"textDocument", {{"uri", 3}}}});
  ExpectError(client.WaitForResponse(id, kWait), -32602, id);
  std::optional<json> ok = client.Request("needsUri", {{"textDocument", {{"uri", "file:///x"}}}});
  ASSERT_TRUE(ok);
  EXPECT_EQ((*ok)["result"], "file:///x");
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, ThrowingHandlerGetsInternalError) {
  LoopbackClient client(Server([](Endpoint& ep, Workers&) {
    ep.OnRequest("throws", [](const json&, Reply) { throw std::runtime_error("boom"); });
    ep.OnRequest("fails", [](const json&, Reply) { throw RpcError(ErrorCode::kRequestFailed, "no can do"); });
  }));
  Initialize(client);
  json id = client.SendRequest("throws");
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ExpectError(response, -32603, id);
  EXPECT_NE((*response)["error"]["message"].get<std::string>().find("boom"), std::string::npos);
  id = client.SendRequest("fails");
  ExpectError(client.WaitForResponse(id, kWait), -32803, id);
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, DuplicatePendingIdIsRejected) {
  auto held = std::make_shared<Mailbox<Reply>>();
  LoopbackClient client(Server([held](Endpoint& ep, Workers&) {
    ep.OnRequest("hold", [held](const json&, Reply reply) { held->Put(reply); });
  }));
  Initialize(client);
  client.SendMessage(MakeRequest(50, "hold", nullptr));
  std::optional<Reply> first = held->Take();
  ASSERT_TRUE(first);
  client.SendMessage(MakeRequest(50, "ping", nullptr));
  ExpectError(client.WaitForResponse(50, kWait), -32600, 50);
  EXPECT_TRUE(first->Result("held"));
  std::optional<json> response = client.WaitForResponse(50, kWait);
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], "held");
  ExpectNothingElse(client);
}

TEST(EndpointBadInput, StringIdsAreEchoed) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendMessage(MakeRequest("abc", "ping", nullptr));
  std::optional<json> response = client.WaitForResponse("abc", kWait);
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], "pong");
}

// ---- Frames ----

TEST(EndpointFrames, HeaderWithoutContentLengthGetsParseErrorAndReadingGoesOn) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendRaw("Content-Type: application/vscode-jsonrpc\r\n\r\n");
  ExpectError(WaitForNullIdError(client), -32700, nullptr);
  client.SendRaw("Content-Length: 1x\r\n\r\n");
  ExpectError(WaitForNullIdError(client), -32700, nullptr);
  ExpectNothingElse(client);
}

TEST(EndpointFrames, BadContentLengthWithABodyGetsOneParseErrorAndTheNextRequestAnAnswer) {
  // A header with an unusable length is always followed by its body in practice: the frames after
  // it must still be read (they used to be glued to that body, one bad header after another).
  LoopbackClient client(Server());
  Initialize(client);
  client.SendRaw("Content-Length: abc\r\n\r\n" + Serialize(MakeRequest(70, "ping", nullptr)));
  std::optional<json> error = WaitForNullIdError(client);
  ExpectError(error, -32700, nullptr);
  EXPECT_NE((*error)["error"]["message"].get<std::string>().find("Content-Length"), std::string::npos);
  ExpectNothingElse(client);
}

TEST(EndpointFrames, OverLimitContentLengthIsRefusedAndItsBodySkipped) {
  LoopbackClient client(Server(), WithLimits(FramingLimits{1024, 150}));
  Initialize(client);
  json big = MakeRequest(60, "echo", {{"text", std::string(300, 'x')}});
  std::string frame = EncodeFrame(Serialize(big));
  // Split so that the body arrives in several reads after the header was refused.
  client.SendRaw(frame.substr(0, 40));
  client.SendRaw(frame.substr(40, 100));
  client.SendRaw(frame.substr(140));
  std::optional<json> error = WaitForNullIdError(client);
  ExpectError(error, -32700, nullptr);
  EXPECT_NE((*error)["error"]["message"].get<std::string>().find("exceeds"), std::string::npos);
  ExpectNothingElse(client);  // In sync: the ping after the skipped body is answered.
}

TEST(EndpointFrames, OverlongHeaderEndsTheSession) {
  LoopbackClient client(Server(), WithLimits(FramingLimits{64, 1024}));
  Initialize(client);
  client.SendRaw("Content-Length: 2\r\nX-Padding: " + std::string(100, 'x'));
  ExpectError(WaitForNullIdError(client), -32700, nullptr);
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 1);
}

// ---- Lifecycle ----

TEST(EndpointLifecycle, RequestBeforeInitializeGetsServerNotInitialized) {
  LoopbackClient client(Server());
  EXPECT_EQ(client.endpoint().State(), LifecycleState::kUninitialized);
  json id = client.SendRequest("ping");
  ExpectError(client.WaitForResponse(id, kWait), -32002, id);
  id = client.SendRequest("shutdown");
  ExpectError(client.WaitForResponse(id, kWait), -32002, id);
  Initialize(client);
  ExpectNothingElse(client);
}

TEST(EndpointLifecycle, NotificationsBeforeInitializeAreDropped) {
  auto count = std::make_shared<std::atomic<int>>(0);
  LoopbackClient client(Server([count](Endpoint& ep, Workers&) {
    ep.OnNotification("note", [count](const json&) { ++*count; });
  }));
  client.SendNotification("note");
  Initialize(client);
  client.SendNotification("note");
  ExpectNothingElse(client);
  EXPECT_EQ(count->load(), 1);
}

TEST(EndpointLifecycle, InitializeResultComesFromTheServerLayer) {
  auto seen = std::make_shared<Mailbox<json>>();
  LoopbackClient client(Server([seen](Endpoint& ep, Workers&) {
    ep.OnRequest("initialize", [seen](const json& params, Reply reply) {
      seen->Put(params);
      PositionEncoding encoding = NegotiatePositionEncoding(params);
      reply.Result({{"capabilities", {{"hoverProvider", true}, {"positionEncoding", ToString(encoding)}}}});
    });
  }));
  json params = {{"capabilities", {{"general", {{"positionEncodings", {"utf-8", "utf-16"}}}}}}};
  std::optional<json> response = client.Initialize(params);
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"]["capabilities"]["hoverProvider"], true);
  EXPECT_EQ((*response)["result"]["capabilities"]["positionEncoding"], "utf-8");
  EXPECT_EQ(seen->Take().value(), params);
  EXPECT_EQ(client.endpoint().State(), LifecycleState::kInitialized);
}

TEST(EndpointLifecycle, InitializeWithoutHandlerGetsEmptyCapabilities) {
  LoopbackClient client(Server());
  std::optional<json> response = client.Initialize();
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], json({{"capabilities", json::object()}}));
}

TEST(EndpointLifecycle, SecondInitializeIsInvalid) {
  LoopbackClient client(Server());
  Initialize(client);
  json id = client.SendRequest("initialize", {{"capabilities", json::object()}});
  ExpectError(client.WaitForResponse(id, kWait), -32600, id);
  ExpectNothingElse(client);
}

TEST(EndpointLifecycle, FailedInitializeLeavesTheSessionUninitialized) {
  auto attempts = std::make_shared<std::atomic<int>>(0);
  LoopbackClient client(Server([attempts](Endpoint& ep, Workers&) {
    ep.OnRequest("initialize", [attempts](const json&, Reply reply) {
      if ((*attempts)++ == 0) {
        reply.Error(ErrorCode::kRequestFailed, "not yet");
      } else {
        reply.Result({{"capabilities", json::object()}});
      }
    });
  }));
  std::optional<json> first = client.Request("initialize", {{"capabilities", json::object()}});
  ASSERT_TRUE(first);
  EXPECT_EQ((*first)["error"]["code"], -32803);
  json id = client.SendRequest("ping");
  ExpectError(client.WaitForResponse(id, kWait), -32002, id);
  Initialize(client);
  ExpectNothingElse(client);
}

TEST(EndpointLifecycle, InitializeAnsweredFromAWorkerOpensTheSessionBeforeTheResponseIsSent) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("initialize", [&workers](const json&, Reply reply) {
      workers.Spawn([reply] { reply.Result({{"capabilities", json::object()}}); });
    });
  }));
  Initialize(client);
  // Sent the moment the response arrived: must not be refused as "not initialized".
  ExpectNothingElse(client);
}

TEST(EndpointLifecycle, RequestsAfterShutdownAreInvalid) {
  auto count = std::make_shared<std::atomic<int>>(0);
  LoopbackClient client(Server([count](Endpoint& ep, Workers&) {
    ep.OnNotification("note", [count](const json&) { ++*count; });
  }));
  Initialize(client);
  std::optional<json> shutdown = client.Request("shutdown");
  ASSERT_TRUE(shutdown);
  EXPECT_TRUE((*shutdown)["result"].is_null()) << shutdown->dump();
  EXPECT_EQ(client.endpoint().State(), LifecycleState::kShutdown);
  client.SendNotification("note");
  json id = client.SendRequest("ping");
  ExpectError(client.WaitForResponse(id, kWait), -32600, id);
  id = client.SendRequest("shutdown");
  ExpectError(client.WaitForResponse(id, kWait), -32600, id);
  EXPECT_TRUE(client.TakeAll().empty());
  EXPECT_EQ(count->load(), 0);
}

TEST(EndpointLifecycle, ShutdownIsAnsweredAfterTheRequestsBeforeIt) {
  // A client may exit as soon as it sees the reply to shutdown: by then every request it sent
  // before must have had its reply (they used to be dropped by the exit).
  Mailbox<Reply> held;  // Outlives the client, whose loop thread fills it.
  LoopbackClient client(Server([&held](Endpoint& ep, Workers&) {
    ep.OnRequest("slow", [&held](const json&, Reply reply) { held.Put(reply); });
  }));
  Initialize(client);
  json slow1 = client.SendRequest("slow");
  json slow2 = client.SendRequest("slow");
  json shutdown = client.SendRequest("shutdown");
  std::optional<Reply> reply1 = held.Take();
  std::optional<Reply> reply2 = held.Take();
  ASSERT_TRUE(reply1 && reply2);
  // The loop has read shutdown once a request after it is answered (-32600).
  json after = client.SendRequest("ping");
  ExpectError(client.WaitForResponse(after, kWait), -32600, after);
  EXPECT_FALSE(client.WaitForResponse(shutdown, 100ms)) << "shutdown answered first";
  reply2->Result("second");
  EXPECT_FALSE(client.WaitForResponse(shutdown, 50ms)) << "shutdown answered first";
  std::thread worker([&] { reply1->Result("first"); });  // Replies from any thread count.
  worker.join();
  std::optional<json> r = client.WaitForResponse(shutdown, kWait);
  ASSERT_TRUE(r);
  EXPECT_TRUE((*r)["result"].is_null()) << r->dump();
  // In order on the wire: both replies came before the shutdown reply.
  std::optional<json> first = client.WaitForResponse(slow1, 0ms);
  std::optional<json> second = client.WaitForResponse(slow2, 0ms);
  ASSERT_TRUE(first && second);
  EXPECT_EQ((*first)["result"], "first");
  EXPECT_EQ((*second)["result"], "second");
  client.SendNotification("exit");
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 0);
}

TEST(EndpointLifecycle, ShutdownWithRequestsPendingIsNotAnsweredAfterTheEnd) {
  Mailbox<Reply> held;  // Outlives the client.
  LoopbackClient client(Server([&held](Endpoint& ep, Workers&) {
    ep.OnRequest("slow", [&held](const json&, Reply reply) { held.Put(reply); });
  }));
  Initialize(client);
  client.SendRequest("slow");
  json shutdown = client.SendRequest("shutdown");
  std::optional<Reply> reply = held.Take();
  ASSERT_TRUE(reply);
  client.CloseInput();  // The client gives up: the session ends, exit code 0 (shutdown came).
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 0);
  EXPECT_FALSE(reply->Result("late"));
  EXPECT_FALSE(client.WaitForResponse(shutdown, 50ms));
}

TEST(EndpointLifecycle, ShutdownHandlerAnswersShutdown) {
  auto called = std::make_shared<std::atomic<bool>>(false);
  LoopbackClient client(Server([called](Endpoint& ep, Workers&) {
    ep.OnRequest("shutdown", [called](const json&, Reply reply) {
      *called = true;
      reply.Result(nullptr);
    });
  }));
  Initialize(client);
  EXPECT_EQ(client.ShutdownAndExit(), 0);
  EXPECT_TRUE(called->load());
}

TEST(EndpointLifecycle, ExitAfterShutdownExitsWithZero) {
  auto exited = std::make_shared<std::atomic<bool>>(false);
  LoopbackClient client(Server([exited](Endpoint& ep, Workers&) {
    ep.OnNotification("exit", [exited](const json&) { *exited = true; });
  }));
  Initialize(client);
  EXPECT_EQ(client.ShutdownAndExit(), 0);
  EXPECT_TRUE(client.Ended());
  EXPECT_TRUE(exited->load());
  EXPECT_EQ(client.endpoint().State(), LifecycleState::kExited);
}

TEST(EndpointLifecycle, ExitWithoutShutdownExitsWithOne) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendNotification("exit");
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 1);
}

TEST(EndpointLifecycle, ExitBeforeInitializeEndsTheSession) {
  LoopbackClient client(Server());
  client.SendNotification("exit");
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 1);
}

TEST(EndpointLifecycle, EndOfInputEndsTheSession) {
  LoopbackClient client(Server());
  Initialize(client);
  client.CloseInput();
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 1);
}

TEST(EndpointLifecycle, SetTraceIsRecordedAndPassedOn) {
  auto values = std::make_shared<Mailbox<json>>();
  LoopbackClient client(Server([values](Endpoint& ep, Workers&) {
    ep.OnNotification("$/setTrace", [values](const json& params) { values->Put(params["value"]); });
  }));
  Initialize(client);
  EXPECT_EQ(client.endpoint().Trace(), TraceValue::kOff);
  client.SendNotification("$/setTrace", {{"value", "verbose"}});
  ExpectNothingElse(client);
  EXPECT_EQ(client.endpoint().Trace(), TraceValue::kVerbose);
  EXPECT_EQ(values->Take().value(), "verbose");
}

TEST(EndpointLifecycle, CloseFromTheServerEndsTheSession) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("quit", [&ep, &workers](const json&, Reply reply) {
      reply.Result(nullptr);
      workers.Spawn([&ep] { ep.Close(); });
    });
  }));
  Initialize(client);
  std::optional<json> response = client.Request("quit");
  ASSERT_TRUE(response);
  ASSERT_TRUE(client.WaitForEnd(kWait));
  EXPECT_EQ(client.ExitCode(), 1);
}

// ---- Replies ----

TEST(EndpointReplies, AsyncReplyFromAnotherThread) {
  auto release = std::make_shared<std::promise<void>>();
  std::shared_future<void> released = release->get_future().share();
  LoopbackClient client(Server([released](Endpoint& ep, Workers& workers) {
    ep.OnRequest("slow", [released, &workers](const json& params, Reply reply) {
      workers.Spawn([released, reply, params] {
        if (released.wait_for(kWait) == std::future_status::ready) reply.Result(params);
      });
    });
  }));
  Initialize(client);
  json id = client.SendRequest("slow", {{"n", 1}});
  // The loop is free while the worker holds the reply.
  std::optional<json> pong = client.Request("ping");
  ASSERT_TRUE(pong);
  EXPECT_EQ((*pong)["result"], "pong");
  release->set_value();
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], json({{"n", 1}}));
  ExpectNothingElse(client);
}

TEST(EndpointReplies, SecondReplyIsDropped) {
  auto results = std::make_shared<Mailbox<std::vector<bool>>>();
  LoopbackClient client(Server([results](Endpoint& ep, Workers&) {
    ep.OnRequest("twice", [results](const json&, Reply reply) {
      bool a = reply.Result(1);
      bool b = reply.Result(2);
      bool c = reply.Error(ErrorCode::kRequestFailed, "late");
      results->Put({a, b, c, reply.Replied()});
    });
  }));
  Initialize(client);
  std::optional<json> response = client.Request("twice");
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], 1);
  EXPECT_EQ(results->Take(), (std::vector<bool>{true, false, false, true}));
  ExpectNothingElse(client);
}

TEST(EndpointReplies, ConcurrentRepliesSendExactlyOne) {
  constexpr int kThreads = 4;
  auto sent = std::make_shared<Mailbox<bool>>();
  LoopbackClient client(Server([sent](Endpoint& ep, Workers& workers) {
    ep.OnRequest("race", [sent, &workers](const json&, Reply reply) {
      for (int i = 0; i < kThreads; ++i) {
        workers.Spawn([sent, reply, i] { sent->Put(reply.Result(i)); });
      }
    });
  }));
  Initialize(client);
  for (int round = 0; round < 20; ++round) {
    json id = client.SendRequest("race");
    int winners = 0;
    for (int i = 0; i < kThreads; ++i) {
      std::optional<bool> s = sent->Take();
      ASSERT_TRUE(s);
      winners += *s ? 1 : 0;
    }
    EXPECT_EQ(winners, 1);
    // Every worker has tried; the response (exactly one) is then already queued before the pong.
    std::optional<json> pong = client.Request("ping");
    ASSERT_TRUE(pong);
    std::vector<json> all = client.TakeAll();
    EXPECT_EQ(CountResponses(all, id), 1) << json(all).dump();
  }
}

TEST(EndpointReplies, ForgottenReplyGetsInternalError) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("forget", [](const json&, Reply) {});
    ep.OnRequest("forgetOnWorker", [&workers](const json&, Reply reply) {
      workers.Spawn([reply] { (void)reply.id(); });  // Dropped without replying.
    });
  }));
  Initialize(client);
  json id = client.SendRequest("forget");
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ExpectError(response, -32603, id);
  EXPECT_NE((*response)["error"]["message"].get<std::string>().find("not answered"), std::string::npos);
  id = client.SendRequest("forgetOnWorker");
  ExpectError(client.WaitForResponse(id, kWait), -32603, id);
  ExpectNothingElse(client);
}

TEST(EndpointReplies, ThrowAfterReplyKeepsTheReply) {
  LoopbackClient client(Server([](Endpoint& ep, Workers&) {
    ep.OnRequest("replyThenThrow", [](const json&, Reply reply) {
      reply.Result("first");
      throw std::runtime_error("after");
    });
  }));
  Initialize(client);
  std::optional<json> response = client.Request("replyThenThrow");
  ASSERT_TRUE(response);
  EXPECT_EQ((*response)["result"], "first");
  ExpectNothingElse(client);
}

TEST(EndpointReplies, ContentModified) {
  LoopbackClient client(Server([](Endpoint& ep, Workers&) {
    ep.OnRequest("stale", [](const json&, Reply reply) { reply.ContentModified(); });
  }));
  Initialize(client);
  json id = client.SendRequest("stale");
  ExpectError(client.WaitForResponse(id, kWait), -32801, id);
}

TEST(EndpointReplies, FailMapsExceptionsOnWorkers) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("workerParams", [&workers](const json& params, Reply reply) {
      workers.Spawn([reply, params] {
        try {
          reply.Result(ParamView(params).Get<int>("position.line"));
        } catch (...) {
          reply.Fail(std::current_exception());
        }
      });
    });
  }));
  Initialize(client);
  json id = client.SendRequest("workerParams", {{"position", {{"line", "x"}}}});
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ExpectError(response, -32602, id);
  EXPECT_NE((*response)["error"]["message"].get<std::string>().find("position.line"), std::string::npos);
}

TEST(EndpointReplies, RepliesAfterTheSessionEndedAreNoOps) {
  auto held = std::make_shared<Mailbox<Reply>>();
  std::optional<Reply> reply;
  {
    LoopbackClient client(Server([held](Endpoint& ep, Workers&) {
      ep.OnRequest("hold", [held](const json&, Reply r) { held->Put(r); });
    }));
    Initialize(client);
    client.SendRequest("hold");
    reply = held->Take();
    ASSERT_TRUE(reply);
    client.CloseInput();
    ASSERT_TRUE(client.WaitForEnd(kWait));
    EXPECT_TRUE(reply->IsCancelled());  // Pending requests are cancelled when the session ends.
    EXPECT_FALSE(reply->Result(1));
  }
  // The client and its Endpoint are gone; the handle still works (and does nothing).
  EXPECT_FALSE(reply->Result(2));
  EXPECT_FALSE(reply->ContentModified());
}

// ---- Cancellation ----

TEST(EndpointCancel, CancelBeforeReplyGetsRequestCancelled) {
  auto held = std::make_shared<Mailbox<Reply>>();
  LoopbackClient client(Server([held](Endpoint& ep, Workers&) {
    ep.OnRequest("hold", [held](const json&, Reply reply) { held->Put(reply); });
  }));
  Initialize(client);
  json id = client.SendRequest("hold");
  std::optional<Reply> reply = held->Take();
  ASSERT_TRUE(reply);
  EXPECT_FALSE(reply->IsCancelled());
  client.SendNotification("$/cancelRequest", {{"id", id}});
  ExpectError(client.WaitForResponse(id, kWait), -32800, id);
  EXPECT_TRUE(reply->IsCancelled());
  EXPECT_FALSE(reply->Result("too late"));
  EXPECT_FALSE(reply->Cancelled());
  ExpectNothingElse(client);
}

TEST(EndpointCancel, CancelAfterReplyIsIgnored) {
  LoopbackClient client(Server());
  Initialize(client);
  json id = client.SendRequest("echo", {{"a", 1}});
  std::optional<json> response = client.WaitForResponse(id, kWait);
  ASSERT_TRUE(response);
  EXPECT_TRUE(response->contains("result"));
  client.SendNotification("$/cancelRequest", {{"id", id}});
  ExpectNothingElse(client);
}

TEST(EndpointCancel, HandlerOnAWorkerSeesTheToken) {
  auto observed = std::make_shared<Mailbox<bool>>();
  LoopbackClient client(Server([observed](Endpoint& ep, Workers& workers) {
    ep.OnRequest("long", [observed, &workers](const json&, Reply reply) {
      workers.Spawn([observed, reply] {
        auto deadline = std::chrono::steady_clock::now() + kWait;
        while (!reply.IsCancelled() && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(1ms);
        }
        bool cancelled = reply.IsCancelled();
        bool sent = reply.Cancelled();  // The endpoint has answered already: dropped.
        observed->Put(cancelled && !sent);
      });
    });
  }));
  Initialize(client);
  json id = client.SendRequest("long");
  client.SendMessage(MakeNotification("$/cancelRequest", {{"id", id}}));
  ExpectError(client.WaitForResponse(id, kWait), -32800, id);
  EXPECT_EQ(observed->Take(), true);
  ExpectNothingElse(client);
}

TEST(EndpointCancel, CancellationRacingLateRepliesStillAnswersOnce) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("quick", [&workers](const json&, Reply reply) {
      workers.Spawn([reply] { reply.Result("done"); });
    });
  }));
  Initialize(client);
  std::vector<json> ids;
  for (int i = 0; i < 100; ++i) {
    json id = client.SendRequest("quick");
    client.SendNotification("$/cancelRequest", {{"id", id}});
    ids.push_back(id);
  }
  for (const json& id : ids) {
    std::optional<json> response = client.WaitForResponse(id, kWait);
    ASSERT_TRUE(response);
    if (response->contains("error")) {
      EXPECT_EQ((*response)["error"]["code"], -32800);
    } else {
      EXPECT_EQ((*response)["result"], "done");
    }
  }
  // Every id was answered once; let the workers finish (the session end joins them), then no
  // second answer may have been written.
  client.CloseInput();
  ASSERT_TRUE(client.WaitForEnd(kWait));
  for (const json& m : client.TakeAll()) {
    EXPECT_FALSE(m.contains("id") && !m.contains("method")) << "second answer: " << m.dump();
  }
}

// ---- Server-to-client requests ----

TEST(EndpointCalls, ResultsAndErrorsReachTheirCallbacks) {
  Mailbox<CallResponse> answers;  // Outlives the client, whose loop thread fills it.
  LoopbackClient client(Server());
  Initialize(client);
  json first = client.endpoint().Call("workspace/configuration", {{"items", json::array()}},
                                      [&answers](CallResponse r) { answers.Put(std::move(r)); });
  json second = client.endpoint().Call("window/workDoneProgress/create", {{"token", "t"}},
                                       [&answers](CallResponse r) { answers.Put(std::move(r)); });
  EXPECT_NE(first, second);
  std::optional<json> request1 = client.WaitForServerRequest("workspace/configuration", kWait);
  std::optional<json> request2 = client.WaitForServerRequest("window/workDoneProgress/create", kWait);
  ASSERT_TRUE(request1 && request2);
  EXPECT_EQ((*request1)["id"], first);
  EXPECT_EQ((*request1)["params"]["items"], json::array());
  // Answered in reverse order.
  client.SendErrorResponse((*request2)["id"], ResponseError(ErrorCode::kRequestFailed, "no progress"));
  client.SendResponse((*request1)["id"], json::array({json{{"tabSize", 4}}}));
  std::optional<CallResponse> a = answers.Take();
  std::optional<CallResponse> b = answers.Take();
  ASSERT_TRUE(a && b);
  EXPECT_FALSE(a->ok());
  EXPECT_EQ(a->error->code, -32803);
  EXPECT_TRUE(b->ok());
  EXPECT_EQ(b->result, json::array({json{{"tabSize", 4}}}));
  ExpectNothingElse(client);
}

TEST(EndpointCalls, ErrorWithAPositiveCodeReachesItsCallback) {
  // Application-defined codes may be positive (or 0); such a reply used to be refused as an
  // invalid message (-32600 to the client), leaving the call pending.
  Mailbox<CallResponse> answers;  // Outlives the client, whose loop thread fills it.
  LoopbackClient client(Server());
  Initialize(client);
  client.endpoint().Call("workspace/applyEdit", {{"edit", json::object()}},
                         [&answers](CallResponse r) { answers.Put(std::move(r)); });
  std::optional<json> request = client.WaitForServerRequest("workspace/applyEdit", kWait);
  ASSERT_TRUE(request);
  client.SendErrorResponse((*request)["id"], ResponseError(7, "the editor refused"));
  std::optional<CallResponse> a = answers.Take();
  ASSERT_TRUE(a);
  ASSERT_FALSE(a->ok());
  EXPECT_EQ(a->error->code, 7);
  EXPECT_EQ(a->error->message, "the editor refused");
  ExpectNothingElse(client);
}

TEST(EndpointCalls, ResponseWithUnknownIdIsIgnored) {
  LoopbackClient client(Server());
  Initialize(client);
  client.SendResponse(999, "who asked?");
  client.SendErrorResponse("nope", ResponseError(ErrorCode::kInternalError, "x"));
  client.SendErrorResponse(998, ResponseError(1, "positive code"));
  ExpectNothingElse(client);
}

TEST(EndpointCalls, PendingCallsFailWhenTheSessionEnds) {
  Mailbox<CallResponse> answers;  // Outlives the client, whose loop thread fills it.
  LoopbackClient client(Server());
  Initialize(client);
  client.endpoint().Call("workspace/applyEdit", {{"edit", json::object()}},
                         [&answers](CallResponse r) { answers.Put(std::move(r)); });
  ASSERT_TRUE(client.WaitForServerRequest("workspace/applyEdit", kWait));
  client.CloseInput();
  std::optional<CallResponse> answer = answers.Take();
  ASSERT_TRUE(answer);
  ASSERT_FALSE(answer->ok());
  EXPECT_EQ(answer->error->code, static_cast<int>(ErrorCode::kConnectionClosed));
  ASSERT_TRUE(client.WaitForEnd(kWait));
  // After the end: the callback runs at once, on this thread.
  bool called = false;
  client.endpoint().Call("x", nullptr, [&called](CallResponse r) { called = !r.ok(); });
  EXPECT_TRUE(called);
}

TEST(EndpointCalls, CallbacksRunOnTheLoopThread) {
  Mailbox<std::thread::id> callback_thread;  // Outlives the client.
  auto loop_thread = std::make_shared<Mailbox<std::thread::id>>();
  LoopbackClient client(Server([loop_thread](Endpoint& ep, Workers&) {
    ep.OnRequest("where", [loop_thread](const json&, Reply reply) {
      loop_thread->Put(std::this_thread::get_id());
      reply.Result(nullptr);
    });
  }));
  Initialize(client);
  ASSERT_TRUE(client.Request("where"));
  std::optional<std::thread::id> loop_id = loop_thread->Take();
  client.endpoint().Call("workspace/configuration", nullptr,
                         [&callback_thread](CallResponse) { callback_thread.Put(std::this_thread::get_id()); });
  std::optional<json> request = client.WaitForServerRequest("workspace/configuration", kWait);
  ASSERT_TRUE(request);
  client.SendResponse((*request)["id"], nullptr);
  EXPECT_EQ(callback_thread.Take(), loop_id);
}

TEST(EndpointCalls, NotificationsFromWorkerThreadsArriveWhole) {
  LoopbackClient client(Server([](Endpoint& ep, Workers& workers) {
    ep.OnRequest("chatter", [&ep, &workers](const json&, Reply reply) {
      for (int t = 0; t < 4; ++t) {
        workers.Spawn([&ep, t] {
          for (int i = 0; i < 50; ++i) ep.Notify("window/logMessage", {{"type", 4}, {"message", std::to_string(t)}});
        });
      }
      reply.Result(nullptr);
    });
  }));
  Initialize(client);
  ASSERT_TRUE(client.Request("chatter"));
  for (int i = 0; i < 200; ++i) {
    std::optional<json> note = client.WaitForNotification("window/logMessage", kWait);
    ASSERT_TRUE(note) << i;
    EXPECT_EQ((*note)["params"]["type"], 4);
  }
  for (const json& m : client.TakeAll()) EXPECT_FALSE(m.contains("loopback_frame_error")) << m.dump();
}

TEST(Loopback, AutoAnswerRepliesToServerRequests) {
  Mailbox<CallResponse> answers;  // Outlives the client, whose loop thread fills it.
  LoopbackClient client(Server());
  client.AutoAnswer("workspace/configuration", [](const json& params) { return json::array({params["n"]}); });
  Initialize(client);
  client.endpoint().Call("workspace/configuration", {{"n", 7}}, [&answers](CallResponse r) { answers.Put(r); });
  std::optional<CallResponse> answer = answers.Take();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->result, json::array({7}));
}

TEST(Loopback, FactoryFailureEndsTheSession) {
  LoopbackClient client([](Endpoint&) -> std::shared_ptr<void> { throw std::runtime_error("no"); });
  EXPECT_TRUE(client.Ended());
  EXPECT_FALSE(client.Request("ping", nullptr, 100ms));
}

}  // namespace
}  // namespace tvmls::protocol
