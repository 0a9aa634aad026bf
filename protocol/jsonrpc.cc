// JSON-RPC 2.0 messages: validation, construction, params access.
#include "jsonrpc.h"

#include <climits>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace tvmls::protocol {

// ---- Errors ----

json ResponseError::ToJson() const {
  json out = {{"code", code}, {"message", message}};
  if (!data.is_null()) out["data"] = data;
  return out;
}

std::optional<ResponseError> ResponseError::FromJson(const json& value) {
  if (!value.is_object()) return std::nullopt;
  auto code = value.find("code");
  auto message = value.find("message");
  if (code == value.end() || !code->is_number_integer()) return std::nullopt;
  if (message == value.end() || !message->is_string()) return std::nullopt;
  // The parser stores every non-negative integer as unsigned: 0 and positive (application-defined)
  // codes are valid too.
  if (code->is_number_unsigned() && code->get<uint64_t>() > static_cast<uint64_t>(INT_MAX)) {
    return std::nullopt;
  }
  int64_t c = code->is_number_unsigned() ? static_cast<int64_t>(code->get<uint64_t>()) : code->get<int64_t>();
  if (c < INT_MIN || c > INT_MAX) return std::nullopt;
  ResponseError error(static_cast<int>(c), message->get<std::string>());
  if (auto data = value.find("data"); data != value.end()) error.data = *data;
  return error;
}

RpcError::RpcError(ResponseError error) : std::runtime_error(error.message), error_(std::move(error)) {}

namespace {

std::string ParamMessage(const std::string& path, const std::string& problem) {
  return "invalid params: " + (path.empty() ? std::string("params") : "'" + path + "'") + " " + problem;
}

}  // namespace

ParamError::ParamError(std::string path, const std::string& problem)
    : RpcError(ErrorCode::kInvalidParams, ParamMessage(path, problem), json{{"path", path}}),
      path_(std::move(path)) {}

// ---- Messages ----

bool IsValidRequestId(const json& id) { return id.is_string() || id.is_number_integer(); }

std::string IdKey(const json& id) { return id.dump(); }

namespace {

ParseResult Invalid(std::string message, json id = nullptr) {
  ParseResult result;
  result.error = ResponseError(ErrorCode::kInvalidRequest, "invalid request: " + std::move(message));
  result.error_id = std::move(id);
  return result;
}

}  // namespace

ParseResult ParseMessage(std::string_view text) {
  json value;
  // Values nested deeper than the limit are discarded as they are parsed (the parse stays linear
  // and builds no deep tree); the envelope survives, so the error can name the request's id.
  bool too_deep = false;
  json::parser_callback_t keep = [&too_deep](int depth, json::parse_event_t, json&) {
    if (depth < kMaxJsonDepth) return true;  // depth 0 is the message object: level 1
    too_deep = true;
    return false;
  };
  try {
    value = json::parse(text.begin(), text.end(), keep);
  } catch (const json::exception& e) {
    // Malformed JSON (parse_error), and well-formed JSON that has no value here: a number out of
    // the double range, `1e999` (out_of_range.406, which once ended the server: fuzz_lsp).
    ParseResult result;
    std::string what = e.what();  // "[json.exception.parse_error.101] parse error at ...".
    if (size_t bracket = what.find("] "); what.rfind("[json.exception", 0) == 0 && bracket != std::string::npos) {
      what.erase(0, bracket + 2);
    }
    result.error = ResponseError(ErrorCode::kParseError, std::move(what));
    return result;
  }
  if (too_deep) {
    json id = value.is_object() && value.contains("id") && IsValidRequestId(value["id"]) && value.contains("method")
                  ? value["id"]
                  : json(nullptr);
    return Invalid("JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels", std::move(id));
  }
  if (value.is_array()) return Invalid("batch messages are not supported");
  if (!value.is_object()) return Invalid(std::string("a message must be a JSON object, not ") + value.type_name());

  auto id = value.find("id");
  auto method = value.find("method");
  bool has_id = id != value.end();
  bool has_method = method != value.end();
  bool has_result = value.contains("result");
  bool has_error = value.contains("error");
  bool looks_like_response = !has_method && (has_result || has_error);
  // The id to echo in an error reply, when it is readable and the reply cannot be mistaken for
  // the answer to one of the client's requests.
  json echo_id = (has_id && IsValidRequestId(*id) && !looks_like_response) ? *id : json(nullptr);

  auto version = value.find("jsonrpc");
  if (version == value.end() || !version->is_string() || *version != "2.0") {
    return Invalid("\"jsonrpc\" must be \"2.0\"", echo_id);
  }

  Message message;
  if (has_method) {
    if (!method->is_string()) return Invalid("\"method\" must be a string", echo_id);
    if (has_result || has_error) return Invalid("a message cannot have both \"method\" and a result or error", echo_id);
    if (has_id && !IsValidRequestId(*id)) return Invalid("\"id\" must be an integer or a string");
    auto params = value.find("params");
    if (params != value.end() && !params->is_null() && !params->is_object() && !params->is_array()) {
      return Invalid("\"params\" must be an object or an array", echo_id);
    }
    message.kind = has_id ? Message::Kind::kRequest : Message::Kind::kNotification;
    if (has_id) message.id = *id;
    message.method = method->get<std::string>();
    if (params != value.end()) message.params = std::move(*params);
  } else if (looks_like_response) {
    if (has_result && has_error) return Invalid("a response cannot have both \"result\" and \"error\"");
    if (!has_id) return Invalid("a response needs an \"id\"");
    if (!IsValidRequestId(*id) && !id->is_null()) return Invalid("\"id\" must be an integer, a string or null");
    message.kind = Message::Kind::kResponse;
    message.id = *id;
    if (has_error) {
      message.error = ResponseError::FromJson(value["error"]);
      if (!message.error) return Invalid("\"error\" must be an object with an integer \"code\" and a string \"message\"");
    } else {
      message.result = std::move(value["result"]);
    }
  } else {
    return Invalid("a message needs a \"method\" (request, notification) or a \"result\" or \"error\" (response)",
                   echo_id);
  }
  ParseResult result;
  result.message = std::move(message);
  return result;
}

json MakeRequest(const json& id, std::string_view method, json params) {
  json out = {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}};
  if (!params.is_null()) out["params"] = std::move(params);
  return out;
}

json MakeNotification(std::string_view method, json params) {
  json out = {{"jsonrpc", "2.0"}, {"method", method}};
  if (!params.is_null()) out["params"] = std::move(params);
  return out;
}

json MakeResponse(const json& id, json result) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}};
}

json MakeErrorResponse(const json& id, const ResponseError& error) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"error", error.ToJson()}};
}

std::string Serialize(const json& message) {
  return message.dump(-1, ' ', false, json::error_handler_t::replace);
}

void AppendJsonString(std::string* out, std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  out->reserve(out->size() + text.size() + 2);
  out->push_back('"');
  size_t i = 0;
  size_t run = 0;  // start of the bytes copied as they are, appended in one piece
  auto flush = [&](size_t upto) {
    if (upto > run) out->append(text.data() + run, upto - run);
  };
  while (i < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c < 0x80) {
      flush(i);
      switch (c) {
        case '"': out->append("\\\""); break;
        case '\\': out->append("\\\\"); break;
        case '\b': out->append("\\b"); break;
        case '\f': out->append("\\f"); break;
        case '\n': out->append("\\n"); break;
        case '\r': out->append("\\r"); break;
        case '\t': out->append("\\t"); break;
        default:
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
      }
      run = ++i;
      continue;
    }
    // A multi-byte sequence: its length from the lead byte, continuation bytes checked, overlong
    // forms, surrogates and values past U+10FFFF refused (RFC 3629).
    size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    bool valid = len != 0 && i + len <= text.size();
    uint32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : (c & 0x07);
    for (size_t k = 1; valid && k < len; ++k) {
      unsigned char cc = static_cast<unsigned char>(text[i + k]);
      valid = (cc & 0xC0) == 0x80;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (valid) {
      valid = (len == 2 && cp >= 0x80) || (len == 3 && cp >= 0x800 && (cp < 0xD800 || cp > 0xDFFF)) ||
              (len == 4 && cp >= 0x10000 && cp <= 0x10FFFF);
    }
    if (valid) {
      i += len;  // part of the run
    } else {
      flush(i);
      out->append("\xEF\xBF\xBD");  // U+FFFD
      run = ++i;
    }
  }
  flush(i);
  out->push_back('"');
}

// ---- ParamView ----

namespace {

std::string JoinPath(std::string_view base, std::string_view rel) {
  if (rel.empty()) return std::string(base);
  if (base.empty()) return std::string(rel);
  std::string out(base);
  if (rel.front() != '[') out += '.';
  out += rel;
  return out;
}

std::string Got(const json& value) { return std::string("(got ") + value.type_name() + ")"; }

template <typename T>
T Convert(const json& value, const std::string& path);

template <>
bool Convert<bool>(const json& value, const std::string& path) {
  if (!value.is_boolean()) throw ParamError(path, "must be a boolean " + Got(value));
  return value.get<bool>();
}

template <>
int64_t Convert<int64_t>(const json& value, const std::string& path) {
  if (!value.is_number_integer()) throw ParamError(path, "must be an integer " + Got(value));
  if (value.is_number_unsigned() && value.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) {
    throw ParamError(path, "is out of range");
  }
  return value.get<int64_t>();
}

template <>
int Convert<int>(const json& value, const std::string& path) {
  int64_t v = Convert<int64_t>(value, path);
  if (v < INT_MIN || v > INT_MAX) throw ParamError(path, "is out of range");
  return static_cast<int>(v);
}

template <>
uint32_t Convert<uint32_t>(const json& value, const std::string& path) {
  int64_t v = Convert<int64_t>(value, path);
  if (v < 0) throw ParamError(path, "must not be negative");
  if (v > static_cast<int64_t>(UINT32_MAX)) throw ParamError(path, "is out of range");
  return static_cast<uint32_t>(v);
}

template <>
double Convert<double>(const json& value, const std::string& path) {
  if (!value.is_number()) throw ParamError(path, "must be a number " + Got(value));
  return value.get<double>();
}

template <>
std::string Convert<std::string>(const json& value, const std::string& path) {
  if (!value.is_string()) throw ParamError(path, "must be a string " + Got(value));
  return value.get<std::string>();
}

template <>
json Convert<json>(const json& value, const std::string&) {
  return value;
}

template <>
std::vector<std::string> Convert<std::vector<std::string>>(const json& value, const std::string& path) {
  if (!value.is_array()) throw ParamError(path, "must be an array " + Got(value));
  std::vector<std::string> out;
  out.reserve(value.size());
  for (size_t i = 0; i < value.size(); ++i) {
    out.push_back(Convert<std::string>(value[i], path + "[" + std::to_string(i) + "]"));
  }
  return out;
}

}  // namespace

ParamView::ParamView(const json& value, std::string path) : value_(&value), path_(std::move(path)) {}

const json* ParamView::Lookup(std::string_view path, std::string* full_path) const {
  if (full_path) *full_path = JoinPath(path_, path);
  const json* current = value_;
  std::string current_path = path_;
  size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') {
      ++i;
      continue;
    }
    if (path[i] == '[') {
      size_t close = path.find(']', i);
      std::string_view digits = path.substr(i + 1, close == std::string_view::npos ? std::string_view::npos : close - i - 1);
      if (digits.empty() || digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string_view::npos) {
        throw std::invalid_argument("ParamView: bad index in path '" + std::string(path) + "'");
      }
      size_t index = 0;
      for (char c : digits) index = index * 10 + static_cast<size_t>(c - '0');
      i = close == std::string_view::npos ? path.size() : close + 1;
      if (current->is_null()) return nullptr;
      if (!current->is_array()) throw ParamError(current_path, "must be an array " + Got(*current));
      current_path += "[" + std::to_string(index) + "]";
      if (index >= current->size()) return nullptr;
      current = &(*current)[index];
      continue;
    }
    size_t end = path.find_first_of(".[", i);
    if (end == std::string_view::npos) end = path.size();
    std::string_view name = path.substr(i, end - i);
    i = end;
    if (current->is_null()) return nullptr;
    if (!current->is_object()) throw ParamError(current_path, "must be an object " + Got(*current));
    current_path = JoinPath(current_path, name);
    auto it = current->find(name);
    if (it == current->end()) return nullptr;
    current = &*it;
  }
  return current;
}

bool ParamView::Has(std::string_view path) const {
  const json* found = Lookup(path, nullptr);
  return found != nullptr && !found->is_null();
}

template <typename T>
T ParamView::Get(std::string_view path) const {
  std::string full;
  const json* found = Lookup(path, &full);
  if (found == nullptr || found->is_null()) throw ParamError(full, "is missing");
  return Convert<T>(*found, full);
}

template <typename T>
std::optional<T> ParamView::Find(std::string_view path) const {
  std::string full;
  const json* found = Lookup(path, &full);
  if (found == nullptr || found->is_null()) return std::nullopt;
  return Convert<T>(*found, full);
}

template bool ParamView::Get<bool>(std::string_view) const;
template int ParamView::Get<int>(std::string_view) const;
template int64_t ParamView::Get<int64_t>(std::string_view) const;
template uint32_t ParamView::Get<uint32_t>(std::string_view) const;
template double ParamView::Get<double>(std::string_view) const;
template std::string ParamView::Get<std::string>(std::string_view) const;
template json ParamView::Get<json>(std::string_view) const;
template std::vector<std::string> ParamView::Get<std::vector<std::string>>(std::string_view) const;
template std::optional<bool> ParamView::Find<bool>(std::string_view) const;
template std::optional<int> ParamView::Find<int>(std::string_view) const;
template std::optional<int64_t> ParamView::Find<int64_t>(std::string_view) const;
template std::optional<uint32_t> ParamView::Find<uint32_t>(std::string_view) const;
template std::optional<double> ParamView::Find<double>(std::string_view) const;
template std::optional<std::string> ParamView::Find<std::string>(std::string_view) const;
template std::optional<json> ParamView::Find<json>(std::string_view) const;
template std::optional<std::vector<std::string>> ParamView::Find<std::vector<std::string>>(std::string_view) const;

ParamView ParamView::Object(std::string_view path) const {
  std::string full;
  const json* found = Lookup(path, &full);
  if (found == nullptr || found->is_null()) throw ParamError(full, "is missing");
  if (!found->is_object()) throw ParamError(full, "must be an object " + Got(*found));
  return ParamView(*found, full);
}

ParamView ParamView::Array(std::string_view path) const {
  std::string full;
  const json* found = Lookup(path, &full);
  if (found == nullptr || found->is_null()) throw ParamError(full, "is missing");
  if (!found->is_array()) throw ParamError(full, "must be an array " + Got(*found));
  return ParamView(*found, full);
}

std::optional<ParamView> ParamView::FindView(std::string_view path) const {
  std::string full;
  const json* found = Lookup(path, &full);
  if (found == nullptr || found->is_null()) return std::nullopt;
  return ParamView(*found, full);
}

std::vector<ParamView> ParamView::Elements() const {
  if (!value_->is_array()) throw ParamError(path_, "must be an array " + Got(*value_));
  std::vector<ParamView> out;
  out.reserve(value_->size());
  for (size_t i = 0; i < value_->size(); ++i) {
    out.emplace_back((*value_)[i], path_ + "[" + std::to_string(i) + "]");
  }
  return out;
}

}  // namespace tvmls::protocol
