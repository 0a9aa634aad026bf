// The JSON text of a document's diagnostics (publishDiagnostics' array, a pull report's items),
// written after every analysis. At 100k lines a file has thousands of diagnostics; an edit
// changes those of one statement or a few, so the JSON of each statement's diagnostics is kept
// between analyses (analysis::Analyzer::Stretch with a stamp) and only its line numbers are
// moved: an edit writes the JSON of the statements it changed.
#ifndef TVMLS_SERVER_DIAGNOSTICS_JSON_H_
#define TVMLS_SERVER_DIAGNOSTICS_JSON_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis.h"
#include "lsp_convert.h"
#include "settings.h"
#include "syntax/document.h"

namespace tvmls::server {

class DiagnosticsWriter {
 public:
  /// For one document: `uri` for related locations, `docs_base` for codeDescription links.
  DiagnosticsWriter(std::string uri, std::string docs_base)
      : uri_(std::move(uri)), docs_base_(std::move(docs_base)) {}

  /// The JSON array of the diagnostics of `analyzer`'s last run on `text`, with the severities
  /// `settings` gives them (Settings::SeverityOf; "off" left out); sets `*count` to how many it
  /// holds.
  /// The same text as writing each diagnostic with AppendDiagnosticJson.
  std::string Write(const analysis::Analyzer& analyzer, const analysis::Document& text,
                    const Settings& settings, analysis::Encoding encoding, size_t* count);

  /// For benchmarks: how many statements' JSON the last Write wrote afresh (not kept).
  size_t WrittenAfresh() const { return afresh_; }

 private:
  struct Stretch {
    std::string text;  // comma-separated diagnostic objects
    std::vector<WrittenLine> lines;
    uint32_t line = 0;  // of the stretch's start when written
    size_t count = 0;   // diagnostics written (the severity "off" ones are not)
  };
  struct Run {
    const analysis::Document& text;
    const std::vector<const analysis::Diagnostic*>& all;
    const Settings& settings;
    analysis::Encoding encoding;
  };
  // Appends the JSON of `run.all[first, first + n)`, each after a comma unless it is the first of
  // `*written` (counts them).
  void Append(const Run& run, size_t first, size_t n, std::string* out, size_t* written,
              uint32_t* line_hint, std::vector<WrittenLine>* lines) const;

  const std::string uri_;
  const std::string docs_base_;
  // What the kept JSON was written with.
  std::map<std::string, std::optional<analysis::Severity>> severity_;
  analysis::Encoding encoding_ = analysis::Encoding::kUtf16;
  std::unordered_map<uint64_t, Stretch> kept_;  // by stamp
  size_t last_size_ = 0;
  size_t afresh_ = 0;
};

}  // namespace tvmls::server

#endif  // TVMLS_SERVER_DIAGNOSTICS_JSON_H_
