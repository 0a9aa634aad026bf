// Analysis benchmarks: from scratch, and re-analysis after a one-line edit inside a function body.
// Numbers in bench/README.md. Run: build/bench/tvmls_bench --benchmark_filter=Analy
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "analysis.h"
#include "corpus.h"
#include "syntax/document.h"

namespace tvmls::bench {
namespace {

using analysis::Analyzer;
using analysis::ByteEdit;
using analysis::Document;

double Lines(const std::string& text) { return static_cast<double>(std::count(text.begin(), text.end(), '\n')); }

// Semantic analysis of a parsed file with a fresh analyzer (no reuse). lines/s as a counter.
void BM_AnalyzeFromScratch(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  Document doc(text);
  size_t diagnostics = 0;
  for (auto _ : state) {
    Analyzer analyzer;
    analyzer.Run(doc);
    diagnostics = analyzer.Diagnostics().size();
    benchmark::DoNotOptimize(diagnostics);
  }
  state.counters["lines"] = Lines(text);
  state.counters["lines_per_s"] =
      benchmark::Counter(Lines(text) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["diagnostics"] = static_cast<double>(diagnostics);
}

// Parse + analysis from scratch: what `tvmls check` does per file.
void BM_ParseAndAnalyze(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    Document doc(text);
    Analyzer analyzer;
    analyzer.Run(doc);
    benchmark::DoNotOptimize(analyzer.Diagnostics().size());
  }
  state.counters["lines_per_s"] =
      benchmark::Counter(Lines(text) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// One keystroke inside a function body (insert a character, next iteration delete it), then
// Analyzer::Run. Reports p50/p95 of Run alone and of edit + reparse + Run, and how many functions
// each run re-analysed.
void BM_ReanalyzeAfterBodyEdit(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  Document doc(text);
  Analyzer analyzer;
  analyzer.Run(doc);
  std::vector<size_t> sites = EditSites(text, 64);
  std::vector<double> run_us, total_us;
  double analysed = 0, scanned = 0;
  size_t step = 0;
  for (auto _ : state) {
    size_t site = sites[(step / 2) % sites.size()];
    bool insert = step % 2 == 0;
    ByteEdit edit = insert ? ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site), "x"}
                           : ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site + 1), ""};
    auto start = std::chrono::steady_clock::now();
    doc.ApplyEdits(std::vector<ByteEdit>{edit});
    auto parsed = std::chrono::steady_clock::now();
    analyzer.Run(doc);
    auto stop = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(analyzer.Diagnostics().size());
    run_us.push_back(std::chrono::duration<double, std::micro>(stop - parsed).count());
    total_us.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    analysed += analyzer.Stats().functions_analyzed;
    scanned += analyzer.Stats().statements_scanned;
    ++step;
  }
  state.counters["run_p50_us"] = Percentile(run_us, 0.50);
  state.counters["run_p95_us"] = Percentile(run_us, 0.95);
  state.counters["total_p50_us"] = Percentile(total_us, 0.50);
  state.counters["total_p95_us"] = Percentile(total_us, 0.95);
  state.counters["functions"] = analyzer.Stats().functions;
  state.counters["reanalysed_per_run"] = analysed / static_cast<double>(std::max<size_t>(step, 1));
  state.counters["statements"] = analyzer.Stats().statements;
  state.counters["scanned_per_run"] = scanned / static_cast<double>(std::max<size_t>(step, 1));
  state.counters["lines"] = Lines(text);
}

BENCHMARK(BM_AnalyzeFromScratch)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseAndAnalyze)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
// 128 keystrokes (64 sites, insert + delete) whatever the file size, so the percentiles mean
// the same at every size.
BENCHMARK(BM_ReanalyzeAfterBodyEdit)->Arg(2000)->Arg(20000)->Arg(100000)->Iterations(128)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tvmls::bench
