// Test helpers for the language server: an in-process session over protocol::LoopbackClient with
// initializationOptions {"debounceMs": 0}, and conversions of LSP ranges back to byte offsets.
#ifndef TVMLS_TESTS_SERVER_LSP_SESSION_H_
#define TVMLS_TESTS_SERVER_LSP_SESSION_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "loopback.h"
#include "lsp_server.h"
#include "text/line_index.h"

namespace tvmls::testing {

using protocol::json;

class LspSession {
 public:
  explicit LspSession(json initialization_options = {{"debounceMs", 0}},
                      json capabilities = json::object())
      : client_(server::MakeSessionFactory()) {
    initialize_response_ = client_.Initialize(
        {{"capabilities", capabilities}, {"initializationOptions", initialization_options}});
  }

  protocol::LoopbackClient& client() { return client_; }
  const std::optional<json>& initialize_response() const { return initialize_response_; }

  void Open(const std::string& uri, const std::string& text, int64_t version = 1,
            const std::string& language = "python") {
    client_.SendNotification(
        "textDocument/didOpen",
        {{"textDocument",
          {{"uri", uri}, {"languageId", language}, {"version", version}, {"text", text}}}});
  }
  void Change(const std::string& uri, int64_t version, json changes) {
    client_.SendNotification("textDocument/didChange",
                             {{"textDocument", {{"uri", uri}, {"version", version}}},
                              {"contentChanges", std::move(changes)}});
  }
  void Close(const std::string& uri) {
    client_.SendNotification("textDocument/didClose", {{"textDocument", {{"uri", uri}}}});
  }

  /// The params of the next publishDiagnostics for `uri` (nullopt on timeout).
  std::optional<json> Diagnostics(const std::string& uri) {
    std::optional<json> m = client_.WaitFor(
        [&](const json& message) {
          return message.value("method", "") == "textDocument/publishDiagnostics" &&
                 message["params"].value("uri", "") == uri;
        },
        std::chrono::milliseconds(10000));
    if (!m) return std::nullopt;
    return (*m)["params"];
  }

  /// The whole response of a request on `uri`.
  std::optional<json> Request(const std::string& method, json params) {
    return client_.Request(method, std::move(params));
  }
  static json At(const std::string& uri, uint32_t line, uint32_t character) {
    return {{"textDocument", {{"uri", uri}}},
            {"position", {{"line", line}, {"character", character}}}};
  }

  /// Sends a ping-like request whose answer proves every earlier message was handled (the loop
  /// thread handles messages in order) and returns every message received before it.
  std::vector<json> Drain(const std::string& uri) {
    // A documentSymbol request goes through the worker after everything queued for `uri`.
    std::optional<json> r = Request("textDocument/documentSymbol", {{"textDocument", {{"uri", uri}}}});
    EXPECT_TRUE(r.has_value());
    return client_.TakeAll();
  }

 private:
  protocol::LoopbackClient client_;
  std::optional<json> initialize_response_;
};

/// Byte offset of an LSP position (UTF-16) in `text`.
inline uint32_t OffsetOf(const std::string& text, const json& position) {
  analysis::LineIndex lines(text);
  std::optional<uint32_t> offset = lines.ToOffset(
      text, {position.at("line").get<uint32_t>(), position.at("character").get<uint32_t>()},
      analysis::Encoding::kUtf16);
  EXPECT_TRUE(offset.has_value()) << position.dump();
  return offset.value_or(0);
}

/// Applies LSP TextEdits (UTF-16 ranges, all relative to `text`) to `text`.
inline std::string ApplyTextEdits(const std::string& text, const json& edits) {
  std::vector<std::pair<std::pair<uint32_t, uint32_t>, std::string>> byte_edits;
  for (const json& e : edits) {
    byte_edits.push_back({{OffsetOf(text, e["range"]["start"]), OffsetOf(text, e["range"]["end"])},
                          e["newText"].get<std::string>()});
  }
  std::sort(byte_edits.begin(), byte_edits.end(),
            [](const auto& a, const auto& b) { return a.first.first > b.first.first; });
  std::string result = text;
  for (const auto& [range, new_text] : byte_edits) {
    result.replace(range.first, range.second - range.first, new_text);
  }
  return result;
}

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_SERVER_LSP_SESSION_H_
