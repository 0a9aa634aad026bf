// JSON-RPC 2.0 messages as LSP uses them: classification and validation of incoming messages,
// construction of outgoing ones, error codes, and typed access to params by JSON path.
//
// Everything here is a pure function or a value type: no I/O, no threads, no global state.
#ifndef TVMLS_PROTOCOL_JSONRPC_H_
#define TVMLS_PROTOCOL_JSONRPC_H_

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace tvmls::protocol {

using json = nlohmann::json;

/// Error codes of JSON-RPC 2.0 and the LSP specification.
enum class ErrorCode : int {
  kParseError = -32700,      // The text is not JSON (also: a frame with an unusable header).
  kInvalidRequest = -32600,  // JSON, but not a valid message; or a request after `shutdown`.
  kMethodNotFound = -32601,  // Unknown request method (unknown notifications are ignored).
  kInvalidParams = -32602,   // params do not have the shape the method needs.
  kInternalError = -32603,   // A handler threw, or never replied.
  kServerNotInitialized = -32002,  // A request before `initialize` was answered.
  kUnknownErrorCode = -32001,
  kRequestFailed = -32803,     // Well-formed and understood, but failed (LSP 3.17).
  kServerCancelled = -32802,   // The server cancelled the request (LSP 3.17).
  kContentModified = -32801,   // The document changed; the result would be stale.
  kRequestCancelled = -32800,  // The client cancelled the request ($/cancelRequest).
  // Local only, never sent: given to Endpoint::Call callbacks whose session ended before the
  // client answered.
  kConnectionClosed = -32099,
};

/// The `error` member of a response.
struct ResponseError {
  int code = static_cast<int>(ErrorCode::kInternalError);
  std::string message;
  json data;  // null: absent.

  ResponseError() = default;
  ResponseError(int code_in, std::string message_in, json data_in = nullptr)
      : code(code_in), message(std::move(message_in)), data(std::move(data_in)) {}
  ResponseError(ErrorCode code_in, std::string message_in, json data_in = nullptr)
      : ResponseError(static_cast<int>(code_in), std::move(message_in), std::move(data_in)) {}

  json ToJson() const;
  /// nullopt unless `value` is an object with an integer `code` and a string `message`.
  static std::optional<ResponseError> FromJson(const json& value);
};

/// Thrown by a request handler to reply with a specific error (the endpoint catches it on the
/// message-loop thread; code that replies from another thread catches it itself, see
/// Reply::Fail).
class RpcError : public std::runtime_error {
 public:
  explicit RpcError(ResponseError error);
  RpcError(ErrorCode code, std::string message, json data = nullptr)
      : RpcError(ResponseError(code, std::move(message), std::move(data))) {}
  const ResponseError& error() const { return error_; }

 private:
  ResponseError error_;
};

/// A params field is missing or has the wrong type: replied as -32602 (InvalidParams) with a
/// message naming the field by its full path, e.g. `textDocument.uri` or
/// `contentChanges[2].range.start.line`.
class ParamError : public RpcError {
 public:
  ParamError(std::string path, const std::string& problem);
  /// The JSON path of the offending field ("" for params itself).
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// One incoming message after validation.
struct Message {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kNotification;
  json id;             // kRequest: integer or string. kResponse: integer, string or null.
  std::string method;  // kRequest, kNotification.
  json params;         // kRequest, kNotification: object, array, or null when absent.
  json result;         // kResponse without error.
  std::optional<ResponseError> error;  // kResponse: set for an error response.
};

/// Outcome of ParseMessage: either a message, or the error response to send back (and then go on).
struct ParseResult {
  std::optional<Message> message;
  /// Set when `message` is not: -32700 for text that is not JSON, -32600 for JSON that is not a
  /// valid message (not an object, a batch array, "jsonrpc" other than "2.0", an id that is not an
  /// integer or string, a method that is not a string, params that are neither object nor array,
  /// a response with both or neither of result and error, ...).
  std::optional<ResponseError> error;
  /// The id for the error response: the message's id when it could be read and is a valid id of
  /// something that claims to be a request (has "method") or is neither request nor response;
  /// null otherwise — in particular always null for malformed responses, so that the client never
  /// mistakes our complaint for the answer to one of its own requests.
  json error_id;
};

/// Deepest nesting of arrays and objects a message may have. LSP messages nest a few levels
/// (a workspace edit's changes: about 8); 64 leaves room for any client while a hostile body of
/// millions of nested brackets is refused without building a tree of millions of nodes (and
/// tearing it down recursively).
constexpr int kMaxJsonDepth = 64;

/// Validates one message body (the JSON text of one frame). Nesting deeper than kMaxJsonDepth is
/// an invalid request (-32600), with the request's id when the envelope has one; the deep values
/// are discarded as they are parsed.
ParseResult ParseMessage(std::string_view text);

/// True for a valid request id: an integer or a string.
bool IsValidRequestId(const json& id);
/// A stable map key and log spelling for an id: 7 -> "7", "7" -> "\"7\"".
std::string IdKey(const json& id);

/// Outgoing messages. A null `params` is omitted.
json MakeRequest(const json& id, std::string_view method, json params);
json MakeNotification(std::string_view method, json params);
json MakeResponse(const json& id, json result);
json MakeErrorResponse(const json& id, const ResponseError& error);

/// Serializes a message for the wire; invalid UTF-8 in strings is replaced (U+FFFD), never thrown.
std::string Serialize(const json& message);

/// Appends `text` as a JSON string literal (quotes included), as Serialize spells strings:
/// UTF-8 kept as is, `"` `\\` and control characters escaped, each byte that does not start a
/// valid UTF-8 sequence replaced by U+FFFD. For writers that build large messages as text
/// (publishDiagnostics at 100k lines) instead of as a json tree.
void AppendJsonString(std::string* out, std::string_view text);

/// Typed, path-addressed, read-only access to params. A view refers to a json value it does not
/// own (the value must outlive the view) and remembers the path by which it was reached, so that
/// errors name the field in full.
///
/// Paths: dot-separated member names with optional [index] suffixes, e.g. "textDocument.uri",
/// "contentChanges[0].range.start.line"; "" means the viewed value itself. A malformed path (e.g.
/// "a[x]") is a programming error: std::invalid_argument.
///
///   ParamView p(params);
///   std::string uri = p.Get<std::string>("textDocument.uri");        // required
///   auto version = p.Find<int64_t>("textDocument.version");          // optional
///   for (ParamView change : p.Array("contentChanges").Elements()) {
///     std::string text = change.Get<std::string>("text");  // error names contentChanges[i].text
///   }
///
/// Get<T> throws ParamError when the field is missing, null, or of the wrong type; Find<T> returns
/// nullopt when missing or null and throws when present with the wrong type.
/// T is one of: bool, int (32-bit), int64_t, uint32_t (non-negative, for LSP uinteger), double,
/// std::string, json (any non-null value), std::vector<std::string>.
class ParamView {
 public:
  explicit ParamView(const json& value, std::string path = {});

  const json& value() const { return *value_; }
  const std::string& path() const { return path_; }

  /// True when the field exists and is not null.
  bool Has(std::string_view path) const;

  template <typename T>
  T Get(std::string_view path = {}) const;
  template <typename T>
  std::optional<T> Find(std::string_view path = {}) const;

  /// A required object / array field as a view (throws ParamError otherwise).
  ParamView Object(std::string_view path) const;
  ParamView Array(std::string_view path) const;
  /// An optional field of any type (nullopt when missing or null).
  std::optional<ParamView> FindView(std::string_view path) const;
  /// The elements of this view, which must be an array (throws ParamError otherwise), each with
  /// path "<path>[i]".
  std::vector<ParamView> Elements() const;

 private:
  // nullptr when missing; throws ParamError when an intermediate value has the wrong type.
  const json* Lookup(std::string_view path, std::string* full_path) const;

  const json* value_;
  std::string path_;
};

}  // namespace tvmls::protocol

#endif  // TVMLS_PROTOCOL_JSONRPC_H_
