#include "diagnostics_json.h"

#include <string_view>
#include <utility>

namespace tvmls::server {

std::string DiagnosticsWriter::Write(const analysis::Analyzer& analyzer,
                                     const analysis::Document& text, const Settings& settings,
                                     analysis::Encoding encoding, size_t* count) {
  if (severity_ != settings.severity || encoding_ != encoding) {
    kept_.clear();
    severity_ = settings.severity;
    encoding_ = encoding;
  }
  afresh_ = 0;
  std::string out = "[";
  // The last text's size and some room: a text one byte longer doubled the capacity, and the
  // kept text then held twice its size (2.7 MB more at 100k lines).
  out.reserve(last_size_ + last_size_ / 16 + 256);
  *count = 0;
  std::unordered_map<uint64_t, Stretch> kept;
  if (analyzer.HasTvmScript()) {
    Run run{text, analyzer.Diagnostics(), settings, encoding};
    std::string_view whole = text.Text();
    uint32_t line_hint = 0;  // the diagnostics are in text order
    for (const analysis::Analyzer::Stretch& s : analyzer.DiagnosticStretches()) {
      // A statement's columns are its own only when it starts a line.
      if (s.stamp == 0 || (s.begin > 0 && whole[s.begin - 1] != '\n')) {
        Append(run, s.first, s.count, &out, count, &line_hint, nullptr);
        continue;
      }
      uint32_t line = text.Lines().LineOf(s.begin, line_hint);
      auto found = kept_.find(s.stamp);
      Stretch stretch;
      if (found != kept_.end()) {
        stretch = std::move(found->second);
        line_hint = line;
      } else {
        stretch.line = line;
        Append(run, s.first, s.count, &stretch.text, &stretch.count, &line_hint, &stretch.lines);
        ++afresh_;
      }
      if (stretch.count > 0) {
        if (*count > 0) out += ',';
        AppendLinesMoved(&out, stretch.text, stretch.lines,
                         static_cast<int64_t>(line) - static_cast<int64_t>(stretch.line));
        *count += stretch.count;
      }
      kept.emplace(s.stamp, std::move(stretch));
    }
  }
  kept_ = std::move(kept);  // the statements gone or analysed again are dropped
  out += ']';
  last_size_ = out.size();
  return out;
}

void DiagnosticsWriter::Append(const Run& run, size_t first, size_t n, std::string* out,
                               size_t* written, uint32_t* line_hint,
                               std::vector<WrittenLine>* lines) const {
  for (size_t i = first; i < first + n; ++i) {
    std::optional<analysis::Severity> severity = run.settings.SeverityOf(*run.all[i]);
    if (!severity) continue;
    if ((*written)++ > 0) *out += ',';
    AppendDiagnosticJson(out, run.text, *run.all[i], uri_, run.encoding, *severity, docs_base_,
                         line_hint, lines);
  }
}

}  // namespace tvmls::server
