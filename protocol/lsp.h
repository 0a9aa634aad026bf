// Generic pieces of the LSP base protocol that are not JSON-RPC: lifecycle states, position
// encoding negotiation, trace values. Nothing here knows about any language.
#ifndef TVMLS_PROTOCOL_LSP_H_
#define TVMLS_PROTOCOL_LSP_H_

#include <optional>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tvmls::protocol {

/// The lifecycle of one session, as the Endpoint tracks it.
enum class LifecycleState {
  kUninitialized,  // Before `initialize`: requests get -32002, notifications are dropped.
  kInitializing,   // `initialize` received, not yet answered; treated like kUninitialized.
  kInitialized,    // `initialize` answered with a result: normal operation.
  kShutdown,       // `shutdown` received: requests get -32600, notifications other than exit
                   // are dropped.
  kExited,         // The session ended (exit, end of input, transport failure or Close()).
};
std::string_view ToString(LifecycleState state);

/// How Position.character counts: UTF-8 bytes, UTF-16 code units (the LSP default) or code points.
enum class PositionEncoding { kUtf8, kUtf16, kUtf32 };
/// "utf-8", "utf-16", "utf-32".
std::string_view ToString(PositionEncoding encoding);
std::optional<PositionEncoding> ParsePositionEncoding(std::string_view text);

/// Picks the position encoding from InitializeParams: the first entry of
/// `capabilities.general.positionEncodings` (the client lists them by preference) that is in
/// `supported`; "utf-16" when the list is absent, malformed, or has nothing in common with
/// `supported` (every client must support utf-16). The server must echo the choice as
/// `capabilities.positionEncoding` in its InitializeResult.
PositionEncoding NegotiatePositionEncoding(
    const nlohmann::json& initialize_params,
    const std::vector<PositionEncoding>& supported = {PositionEncoding::kUtf8, PositionEncoding::kUtf16,
                                                      PositionEncoding::kUtf32});

/// The `$/setTrace` / InitializeParams.trace value.
enum class TraceValue { kOff, kMessages, kVerbose };
std::string_view ToString(TraceValue value);
std::optional<TraceValue> ParseTraceValue(std::string_view text);

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_LSP_H_
