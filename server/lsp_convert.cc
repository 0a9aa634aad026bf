#include "lsp_convert.h"

#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <string>
#include <vector>

#include "check/codes.h"
#include "check/suppressions.h"
#include "jsonrpc.h"

namespace tvmls::server {

using nlohmann::json;

analysis::Encoding ToAnalysisEncoding(protocol::PositionEncoding encoding) {
  switch (encoding) {
    case protocol::PositionEncoding::kUtf8: return analysis::Encoding::kUtf8;
    case protocol::PositionEncoding::kUtf16: return analysis::Encoding::kUtf16;
    case protocol::PositionEncoding::kUtf32: return analysis::Encoding::kUtf32;
  }
  return analysis::Encoding::kUtf16;
}

std::optional<analysis::Severity> ParseSeverity(std::string_view name) {
  if (name == "error") return analysis::Severity::kError;
  if (name == "warning") return analysis::Severity::kWarning;
  if (name == "information") return analysis::Severity::kInformation;
  if (name == "hint") return analysis::Severity::kHint;
  return std::nullopt;
}

json DiagnosticJson(const analysis::Document& doc, const analysis::Diagnostic& d,
                    const std::string& uri, analysis::Encoding encoding,
                    analysis::Severity severity, const std::string& docs_base) {
  // One writer of the shape (AppendDiagnosticJson); this tree form is for the few diagnostics a
  // code action carries.
  std::string text;
  AppendDiagnosticJson(&text, doc, d, uri, encoding, severity, docs_base);
  return json::parse(text);
}

json TextEditJson(const analysis::Document& doc, const analysis::TextEdit& edit,
                  analysis::Encoding encoding) {
  return {{"range", RangeJson<json>(doc, edit.range, encoding)}, {"newText", edit.new_text}};
}

namespace {

// Appends `value` in decimal; returns the number of digits.
uint32_t AppendNumber(std::string* out, uint32_t value) {
  char digits[16];
  auto result = std::to_chars(digits, digits + sizeof digits, value);
  out->append(digits, static_cast<size_t>(result.ptr - digits));
  return static_cast<uint32_t>(result.ptr - digits);
}

void AppendRange(std::string* out, const analysis::Document& doc, analysis::TextRange range,
                 analysis::Encoding encoding, uint32_t* line_hint,
                 std::vector<WrittenLine>* lines) {
  analysis::Position b = doc.PositionOf(range.begin, encoding, line_hint);
  uint32_t end_hint = b.line;  // the end is on or after the start's line
  analysis::Position e = range.end == range.begin ? b : doc.PositionOf(range.end, encoding, &end_hint);
  auto number = [out](uint32_t value) { AppendNumber(out, value); };
  auto line = [out, lines](uint32_t value) {
    size_t at = out->size();
    uint32_t digits = AppendNumber(out, value);
    if (lines != nullptr) lines->push_back({at, digits, value});
  };
  *out += R"({"start":{"line":)";
  line(b.line);
  *out += R"(,"character":)";
  number(b.column);
  *out += R"(},"end":{"line":)";
  line(e.line);
  *out += R"(,"character":)";
  number(e.column);
  *out += "}}";
}

}  // namespace

void AppendDiagnosticJson(std::string* out, const analysis::Document& doc,
                          const analysis::Diagnostic& d, const std::string& uri,
                          analysis::Encoding encoding, analysis::Severity severity,
                          const std::string& docs_base, uint32_t* line_hint,
                          std::vector<WrittenLine>* lines) {
  uint32_t no_hint = UINT32_MAX;  // a plain binary search
  if (line_hint == nullptr) line_hint = &no_hint;
  *out += R"({"range":)";
  AppendRange(out, doc, d.range, encoding, line_hint, lines);
  *out += R"(,"severity":)";
  *out += static_cast<char>('0' + static_cast<int>(severity));
  *out += R"(,"source":"tvmls","message":)";
  protocol::AppendJsonString(out, d.message);
  if (!d.code.empty()) {
    *out += R"(,"code":)";
    protocol::AppendJsonString(out, d.code);
    if (!docs_base.empty()) {
      *out += R"(,"codeDescription":{"href":)";
      // docs_base + "#" + code as one JSON string, without building it first.
      protocol::AppendJsonString(out, docs_base);
      out->back() = '#';  // the closing quote
      size_t quote = out->size();
      protocol::AppendJsonString(out, d.code);
      out->erase(quote, 1);  // the opening quote
      *out += '}';
    }
    if (const analysis::CodeInfo* info = analysis::FindCode(d.code)) {
      if (info->unnecessary || info->deprecated) {
        *out += R"(,"tags":[)";
        if (info->unnecessary) *out += info->deprecated ? "1,2" : "1";
        else *out += "2";
        *out += ']';
      }
    }
  }
  if (!d.related.empty()) {
    *out += R"(,"relatedInformation":[)";
    for (size_t i = 0; i < d.related.size(); ++i) {
      if (i > 0) *out += ',';
      *out += R"({"location":{"uri":)";
      protocol::AppendJsonString(out, uri);
      *out += R"(,"range":)";
      uint32_t related_hint = UINT32_MAX;  // anywhere in the file: a plain binary search
      AppendRange(out, doc, d.related[i].range, encoding, &related_hint, lines);
      *out += R"(},"message":)";
      protocol::AppendJsonString(out, d.related[i].message);
      *out += '}';
    }
    *out += ']';
  }
  *out += '}';
}

void AppendLinesMoved(std::string* out, std::string_view text,
                      const std::vector<WrittenLine>& lines, int64_t delta) {
  if (delta == 0) {
    out->append(text);
    return;
  }
  size_t from = 0;
  for (const WrittenLine& l : lines) {
    out->append(text.substr(from, l.offset - from));
    AppendNumber(out, static_cast<uint32_t>(static_cast<int64_t>(l.line) + delta));
    from = l.offset + l.digits;
  }
  out->append(text.substr(from));
}

std::string FileUri(const std::string& path) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path) {
    bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '/' || c == '-' || c == '.' || c == '_' || c == '~';
    if (plain) {
      uri += static_cast<char>(c);
    } else {
      uri += '%';
      uri += kHex[c >> 4];
      uri += kHex[c & 15];
    }
  }
  return uri;
}

std::string FilePathOfUri(const std::string& uri) {
  if (uri.compare(0, 7, "file://") != 0) return "";
  size_t start = uri.find('/', 7);
  if (start == std::string::npos) return "";
  std::string path;
  for (size_t i = start; i < uri.size(); ++i) {
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      path += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else if (uri[i] == '?' || uri[i] == '#') {
      break;
    } else {
      path += uri[i];
    }
  }
  return path;
}

std::string DefaultDocsBase() {
  std::vector<char> buffer(4096);
  ssize_t n = readlink("/proc/self/exe", buffer.data(), buffer.size() - 1);
  if (n <= 0) return "";
  std::string exe(buffer.data(), static_cast<size_t>(n));
  std::string bin = exe.substr(0, exe.rfind('/'));
  std::string prefix = bin.substr(0, bin.rfind('/'));
  for (const std::string& candidate : {prefix + "/README.md", prefix + "/share/doc/tvmls/README.md"}) {
    if (access(candidate.c_str(), R_OK) == 0) return FileUri(candidate);
  }
  return "";
}

std::vector<analysis::Fix> FixesOffered(const analysis::Document& doc, const analysis::Diagnostic& d) {
  std::vector<analysis::Fix> fixes = d.fixes;
  if (std::optional<analysis::Fix> suppress = analysis::SuppressionFix(doc, d)) {
    fixes.push_back(std::move(*suppress));
  }
  return fixes;
}

}  // namespace tvmls::server
