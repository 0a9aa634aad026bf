// Syntax-layer benchmarks: full parse throughput and single-character edit + incremental reparse
// latency, on generated files of about 2k, 20k and 100k lines (bench/README.md has the numbers).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "corpus.h"
#include "syntax/document.h"

namespace tvmls::bench {
namespace {

using analysis::ByteEdit;
using analysis::Document;

double Percentile(std::vector<double> samples, double p) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  size_t index = static_cast<size_t>(p * static_cast<double>(samples.size() - 1) + 0.5);
  return samples[index];
}

// Full parse from scratch.
void BM_FullParse(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    Document doc(text);
    benchmark::DoNotOptimize(doc.Root());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["lines"] = static_cast<double>(std::count(text.begin(), text.end(), '\n'));
}

// One keystroke: insert a character into an identifier inside a function body, reparse; the next
// iteration deletes it again. Sites rotate through the file. Reports p50/p95 in microseconds.
void BM_EditReparse(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  Document doc(text);
  std::vector<size_t> sites = EditSites(text, 64);
  std::vector<double> micros;
  size_t step = 0;
  for (auto _ : state) {
    size_t site = sites[(step / 2) % sites.size()];
    bool insert = step % 2 == 0;
    ByteEdit edit = insert ? ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site), "x"}
                           : ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site + 1), ""};
    auto start = std::chrono::steady_clock::now();
    auto result = doc.ApplyEdits(std::vector<ByteEdit>{edit});
    auto stop = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(result);
    micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    ++step;
  }
  state.counters["p50_us"] = Percentile(micros, 0.50);
  state.counters["p95_us"] = Percentile(micros, 0.95);
  state.counters["lines"] = static_cast<double>(std::count(text.begin(), text.end(), '\n'));
}

// The same keystroke, then the changed ranges (tree-sitter's comparison of old and new trees,
// united with the edited span). Reported separately because it is O(top-level nodes).
void BM_EditReparseChangedRanges(benchmark::State& state) {
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  Document doc(text);
  std::vector<size_t> sites = EditSites(text, 64);
  std::vector<double> micros;
  size_t step = 0;
  for (auto _ : state) {
    size_t site = sites[(step / 2) % sites.size()];
    bool insert = step % 2 == 0;
    ByteEdit edit = insert ? ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site), "x"}
                           : ByteEdit{static_cast<uint32_t>(site), static_cast<uint32_t>(site + 1), ""};
    auto start = std::chrono::steady_clock::now();
    doc.ApplyEdits(std::vector<ByteEdit>{edit});
    benchmark::DoNotOptimize(doc.ChangedRanges());
    auto stop = std::chrono::steady_clock::now();
    micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    ++step;
  }
  state.counters["p50_us"] = Percentile(micros, 0.50);
  state.counters["p95_us"] = Percentile(micros, 0.95);
}

BENCHMARK(BM_FullParse)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EditReparse)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EditReparseChangedRanges)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tvmls::bench

BENCHMARK_MAIN();
