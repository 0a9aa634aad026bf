// Generic LSP base-protocol helpers.
#include "lsp.h"

#include <algorithm>

namespace tvmls::protocol {

std::string_view ToString(LifecycleState state) {
  switch (state) {
    case LifecycleState::kUninitialized: return "uninitialized";
    case LifecycleState::kInitializing: return "initializing";
    case LifecycleState::kInitialized: return "initialized";
    case LifecycleState::kShutdown: return "shutdown";
    case LifecycleState::kExited: return "exited";
  }
  return "?";
}

std::string_view ToString(PositionEncoding encoding) {
  switch (encoding) {
    case PositionEncoding::kUtf8: return "utf-8";
    case PositionEncoding::kUtf16: return "utf-16";
    case PositionEncoding::kUtf32: return "utf-32";
  }
  return "utf-16";
}

std::optional<PositionEncoding> ParsePositionEncoding(std::string_view text) {
  if (text == "utf-8") return PositionEncoding::kUtf8;
  if (text == "utf-16") return PositionEncoding::kUtf16;
  if (text == "utf-32") return PositionEncoding::kUtf32;
  return std::nullopt;
}

PositionEncoding NegotiatePositionEncoding(const nlohmann::json& initialize_params,
                                           const std::vector<PositionEncoding>& supported) {
  const nlohmann::json* node = &initialize_params;
  for (const char* key : {"capabilities", "general", "positionEncodings"}) {
    if (!node->is_object()) return PositionEncoding::kUtf16;
    auto it = node->find(key);
    if (it == node->end()) return PositionEncoding::kUtf16;
    node = &*it;
  }
  if (!node->is_array()) return PositionEncoding::kUtf16;
  for (const nlohmann::json& entry : *node) {
    if (!entry.is_string()) continue;
    std::optional<PositionEncoding> encoding = ParsePositionEncoding(entry.get<std::string>());
    if (encoding && std::find(supported.begin(), supported.end(), *encoding) != supported.end()) {
      return *encoding;
    }
  }
  return PositionEncoding::kUtf16;
}

std::string_view ToString(TraceValue value) {
  switch (value) {
    case TraceValue::kOff: return "off";
    case TraceValue::kMessages: return "messages";
    case TraceValue::kVerbose: return "verbose";
  }
  return "off";
}

std::optional<TraceValue> ParseTraceValue(std::string_view text) {
  if (text == "off") return TraceValue::kOff;
  if (text == "messages") return TraceValue::kMessages;
  if (text == "verbose") return TraceValue::kVerbose;
  return std::nullopt;
}

}  // namespace tvmls::protocol
