// Conversions between the analysis layer's values (byte offsets, Diagnostic, queries) and their
// LSP JSON shapes. Shared by `tvmls check --format json` and the language server, so that both
// spell a diagnostic the same way.
#ifndef TVMLS_SERVER_LSP_CONVERT_H_
#define TVMLS_SERVER_LSP_CONVERT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "check/diagnostic.h"
#include "lsp.h"
#include "syntax/document.h"
#include "text/line_index.h"
#include "text/text_range.h"

namespace tvmls::server {

analysis::Encoding ToAnalysisEncoding(protocol::PositionEncoding encoding);

/// LSP Position {line, character} of a byte offset of `doc`.
template <typename Json>
Json PositionJson(const analysis::Document& doc, uint32_t offset, analysis::Encoding encoding) {
  analysis::Position p = doc.PositionOf(offset, encoding);
  Json result = Json::object();
  result["line"] = p.line;
  result["character"] = p.column;
  return result;
}

/// LSP Range {start, end} of a byte range of `doc`.
template <typename Json>
Json RangeJson(const analysis::Document& doc, analysis::TextRange range,
               analysis::Encoding encoding) {
  Json result = Json::object();
  result["start"] = PositionJson<Json>(doc, range.begin, encoding);
  result["end"] = PositionJson<Json>(doc, range.end, encoding);
  return result;
}

/// "error" / "warning" / "information" / "hint" -> Severity.
std::optional<analysis::Severity> ParseSeverity(std::string_view name);

/// The fixes offered for `d` (code actions, `tvmls check --format json`): its own, then
/// "suppress on this line" (check/suppressions.h) when the code can be suppressed there.
std::vector<analysis::Fix> FixesOffered(const analysis::Document& doc, const analysis::Diagnostic& d);

/// An LSP Diagnostic: range, severity (a number), code, source "tvmls", message,
/// relatedInformation (locations in `uri`) and tags (analysis/check/codes.h: Unnecessary,
/// Deprecated). `severity` overrides the diagnostic's own (settings). With a non-empty
/// `docs_base`, codeDescription.href is `docs_base + "#" + code`.
nlohmann::json DiagnosticJson(const analysis::Document& doc, const analysis::Diagnostic& d,
                              const std::string& uri, analysis::Encoding encoding,
                              analysis::Severity severity, const std::string& docs_base = "");

/// The same diagnostic written as JSON text onto `out`, without a json tree: publishDiagnostics
/// of thousands of diagnostics at every edit. The one writer of the shape (DiagnosticJson parses
/// its output). `line_hint`, when given, carries the line of the last diagnostic written from one
/// call to the next (start it at 0; null: no hint): diagnostics written in order then find their
/// lines in a few steps instead of a binary search over every line of the file. `lines`, when
/// given, gets where each line number was written in `out` (AppendLinesMoved rewrites them).
struct WrittenLine {
  size_t offset = 0;  // of the number's first digit in the text
  uint32_t digits = 0;
  uint32_t line = 0;
};
void AppendDiagnosticJson(std::string* out, const analysis::Document& doc,
                          const analysis::Diagnostic& d, const std::string& uri,
                          analysis::Encoding encoding, analysis::Severity severity,
                          const std::string& docs_base = "", uint32_t* line_hint = nullptr,
                          std::vector<WrittenLine>* lines = nullptr);

/// Appends `text` (written with `lines` recorded, offsets relative to `text`) onto `out` with
/// every recorded line number moved by `delta` lines (the text of a statement that moved).
void AppendLinesMoved(std::string* out, std::string_view text,
                      const std::vector<WrittenLine>& lines, int64_t delta);

/// Where the codes are documented: a file:// URI of README.md (its "Diagnostic codes" section has
/// an anchor per code), looked for beside the running binary: `<bin>/../README.md` (the build
/// tree) and `<bin>/../share/doc/tvmls/README.md` (installed). "" when neither exists.
std::string DefaultDocsBase();

/// `path` (absolute) as a file:// URI, percent-encoding what RFC 3986 does not allow in a path.
std::string FileUri(const std::string& path);

/// The path of a file:// URI (percent-decoded; `file://host/...` keeps only the path), or ""
/// for other schemes (untitled:, vscode-notebook-cell:, ...).
std::string FilePathOfUri(const std::string& uri);

/// An LSP TextEdit.
nlohmann::json TextEditJson(const analysis::Document& doc, const analysis::TextEdit& edit,
                            analysis::Encoding encoding);

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_LSP_CONVERT_H_
