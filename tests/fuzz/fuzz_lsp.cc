// Fuzz target: sequences of LSP messages into the language server, in process (the server's real
// session over protocol::LoopbackClient, as tests/server/lsp_session.h drives it: the real
// framing, the message-loop thread, the scheduler's workers).
//
// Input: one JSON-RPC message body per line (JSON needs no raw line break), each framed and sent
// in order: didOpen/didChange/didClose, requests, $/cancelRequest, anything. Unless the first line
// is an `initialize` request, the session is initialized first (debounceMs 0, so every edit is
// analysed). Server-to-client requests (configuration, progress) are answered with null. At the
// end a `shutdown` request must be answered within 20 s (unless the input ended the session with
// `exit`), then `exit`: the server must neither crash nor stop serving nor hang.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_util.h"
#include "loopback.h"
#include "lsp_server.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tvmls::protocol::json;
  using tvmls::protocol::LoopbackClient;
  if (size > 65536) return -1;
  std::string_view input(reinterpret_cast<const char*>(data), size);

  LoopbackClient::Options options;
  options.timeout = std::chrono::milliseconds(20000);
  LoopbackClient client(tvmls::server::MakeSessionFactory(), options);
  client.AutoAnswer("workspace/configuration", [](const json&) { return json(nullptr); });
  client.AutoAnswer("window/workDoneProgress/create", [](const json&) { return json(nullptr); });
  client.AutoAnswer("client/registerCapability", [](const json&) { return json(nullptr); });
  if (input.substr(0, input.find('\n')).find("\"initialize\"") == std::string_view::npos) {
    std::optional<json> init = client.Initialize(
        {{"capabilities", json::object()}, {"initializationOptions", {{"debounceMs", 0}}}});
    FUZZ_CHECK(init.has_value());
  }
  while (!input.empty()) {
    size_t nl = input.find('\n');
    std::string_view line = input.substr(0, nl);
    input.remove_prefix(nl == std::string_view::npos ? input.size() : nl + 1);
    if (!line.empty()) client.SendBody(line);
  }
  if (!client.Ended()) {
    // The shutdown is answered after everything sent before it was handled (in order, on the
    // message loop); a session that an `exit` in the input ended answers nothing.
    // Its id is one the input's requests do not use (LoopbackClient numbers its own 1, 2, ...).
    const json id = "fuzz-shutdown";
    client.SendMessage({{"jsonrpc", "2.0"}, {"id", id}, {"method", "shutdown"}});
    std::optional<json> reply = client.WaitForResponse(id, std::chrono::milliseconds(20000));
    FUZZ_CHECK(reply.has_value() || client.Ended());
    client.SendNotification("exit");
    FUZZ_CHECK(client.WaitForEnd(std::chrono::milliseconds(20000)));
  }
  return 0;
}
