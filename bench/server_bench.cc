// Server answers (the analysis query and its JSON text): completion after `R.` and `T.` (the
// biggest lists: every op and every T. name), hover; and a keystroke's server-side steps on any
// file (BM_KeystrokeOnFile). Numbers in bench/README.md.
// Run: build/bench/tvmls_bench --benchmark_filter=Answer
//      TVMLS_BENCH_FILE=real_100k.py build/bench/tvmls_bench --benchmark_filter=KeystrokeOnFile
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "analysis.h"
#include "corpus.h"
#include "diagnostics_json.h"
#include "lsp_convert.h"
#include "lsp_features.h"
#include "settings.h"
#include "syntax/document.h"

namespace tvmls::bench {
namespace {

using analysis::Analyzer;
using analysis::Document;

// A function body line of the corpus with `prefix` typed at its start: the completion position.
struct Site {
  std::string text;
  analysis::Position position;
};

Site CompletionSite(size_t lines, const std::string& prefix) {
  std::string text = MakeCorpus(lines);
  // The first `R.matmul` call's line: after its indentation, type `prefix` on a new line.
  size_t at = text.find("R.matmul(");
  size_t line_start = text.rfind('\n', at) + 1;
  size_t indent_end = text.find_first_not_of(' ', line_start);
  std::string indent = text.substr(line_start, indent_end - line_start);
  std::string line = indent + prefix + "\n";
  text.insert(line_start, line);
  uint32_t row = static_cast<uint32_t>(std::count(text.begin(), text.begin() + static_cast<long>(line_start), '\n'));
  return {text, {row, static_cast<uint32_t>(indent.size() + prefix.size())}};
}

void Complete(benchmark::State& state, const std::string& prefix) {
  Site site = CompletionSite(static_cast<size_t>(state.range(0)), prefix);
  Document doc(site.text);
  Analyzer analyzer;
  analyzer.Run(doc);
  server::Settings settings;
  server::ClientFeatures client;
  client.snippets = true;
  const std::string uri = "file:///bench.py", docs_base, language = "python";
  server::QueryContext ctx{doc, analyzer, uri, analysis::Encoding::kUtf16, settings, docs_base, language, client};
  size_t items = 0, bytes = 0;
  for (auto _ : state) {
    std::string out = server::CompletionAnswer(ctx, site.position);
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  items = nlohmann::json::parse(server::CompletionAnswer(ctx, site.position))["items"].size();
  state.counters["items"] = static_cast<double>(items);
  state.counters["bytes"] = static_cast<double>(bytes);
}

void BM_CompletionAnswerRelax(benchmark::State& state) { Complete(state, "R."); }
void BM_CompletionAnswerTir(benchmark::State& state) { Complete(state, "T."); }
void BM_CompletionAnswerBare(benchmark::State& state) { Complete(state, "l"); }

// One keystroke at a time (`x` typed inside a function body, then deleted) on the file named by
// $TVMLS_BENCH_FILE, split into the steps the server takes before it can answer a pull: the
// reparse (Document::ApplyEdits), the analysis (Analyzer::Run), the diagnostics written as
// JSON text (DiagnosticsWriter, as LspDocument::WriteDiagnostics), and the file's model that the first
// query after the edit asks for (Analyzer::Model). p50/p95 of each, in microseconds; and for
// comparison, the JSON of every diagnostic written again (json_whole), and how many statements'
// JSON an edit wrote on average.
void BM_KeystrokeOnFile(benchmark::State& state) {
  const char* path = std::getenv("TVMLS_BENCH_FILE");
  std::string text = path != nullptr ? ReadFileText(path) : "";
  if (text.empty()) {
    state.SkipWithError("set TVMLS_BENCH_FILE to a readable TVMScript file");
    return;
  }
  Document doc(text);
  Analyzer analyzer;
  analyzer.Run(doc);
  server::Settings settings;
  const std::string uri = "file:///bench.py", docs_base = "file:///README.md";
  std::vector<size_t> sites = EditSites(text, 64);
  server::DiagnosticsWriter writer(uri, docs_base);
  size_t unused = 0;
  writer.Write(analyzer, doc, settings, analysis::Encoding::kUtf16, &unused);  // as the open does
  std::vector<double> parse_us, run_us, json_us, model_us, whole_us;
  size_t afresh = 0;
  size_t bytes = 0, step = 0;
  for (auto _ : state) {
    size_t site = sites[(step / 2) % sites.size()];
    auto at = static_cast<uint32_t>(site);
    analysis::ByteEdit edit = step % 2 == 0 ? analysis::ByteEdit{at, at, "x"} : analysis::ByteEdit{at, at + 1, ""};
    auto t0 = std::chrono::steady_clock::now();
    doc.ApplyEdits(std::vector<analysis::ByteEdit>{edit});
    auto t1 = std::chrono::steady_clock::now();
    analyzer.Run(doc);
    auto t2 = std::chrono::steady_clock::now();
    size_t count = 0;
    std::string out = writer.Write(analyzer, doc, settings, analysis::Encoding::kUtf16, &count);
    auto t3 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(analyzer.Model());
    auto t4 = std::chrono::steady_clock::now();
    // For comparison, every diagnostic written again (a writer that keeps nothing yet).
    server::DiagnosticsWriter whole(uri, docs_base);
    std::string again = whole.Write(analyzer, doc, settings, analysis::Encoding::kUtf16, &count);
    auto t5 = std::chrono::steady_clock::now();
    if (again != out) state.SkipWithError("the kept JSON is not the JSON written again");
    afresh += writer.WrittenAfresh();
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
    auto us = [](auto a, auto b) { return std::chrono::duration<double, std::micro>(b - a).count(); };
    parse_us.push_back(us(t0, t1));
    run_us.push_back(us(t1, t2));
    json_us.push_back(us(t2, t3));
    model_us.push_back(us(t3, t4));
    whole_us.push_back(us(t4, t5));
    ++step;
  }
  state.counters["reparse_p50_us"] = Percentile(parse_us, 0.5);
  state.counters["reparse_p95_us"] = Percentile(parse_us, 0.95);
  state.counters["run_p50_us"] = Percentile(run_us, 0.5);
  state.counters["run_p95_us"] = Percentile(run_us, 0.95);
  state.counters["json_p50_us"] = Percentile(json_us, 0.5);
  state.counters["json_p95_us"] = Percentile(json_us, 0.95);
  state.counters["json_whole_p50_us"] = Percentile(whole_us, 0.5);
  state.counters["json_whole_p95_us"] = Percentile(whole_us, 0.95);
  state.counters["json_statements_written"] = static_cast<double>(afresh) / static_cast<double>(step);
  state.counters["model_p50_us"] = Percentile(model_us, 0.5);
  state.counters["model_p95_us"] = Percentile(model_us, 0.95);
  state.counters["diagnostics"] = static_cast<double>(analyzer.Diagnostics().size());
  state.counters["json_bytes"] = static_cast<double>(bytes);
  state.counters["statements"] = analyzer.Stats().statements;
}

BENCHMARK(BM_KeystrokeOnFile)->Iterations(128)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompletionAnswerRelax)->Arg(2000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompletionAnswerTir)->Arg(2000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompletionAnswerBare)->Arg(2000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tvmls::bench
