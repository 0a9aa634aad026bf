#include "lsp_convert.h"

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
                    analysis::Severity severity) {
  json result = {{"range", RangeJson<json>(doc, d.range, encoding)},
                 {"severity", static_cast<int>(severity)},
                 {"source", "tvmls"},
                 {"message", d.message}};
  if (!d.code.empty()) result["code"] = d.code;
  if (!d.related.empty()) {
    json related = json::array();
    for (const analysis::RelatedLocation& r : d.related) {
      related.push_back({{"location", {{"uri", uri}, {"range", RangeJson<json>(doc, r.range, encoding)}}},
                         {"message", r.message}});
    }
    result["relatedInformation"] = std::move(related);
  }
  return result;
}

json TextEditJson(const analysis::Document& doc, const analysis::TextEdit& edit,
                  analysis::Encoding encoding) {
  return {{"range", RangeJson<json>(doc, edit.range, encoding)}, {"newText", edit.new_text}};
}

}  // namespace tvmls::server
