// Syntax-layer benchmarks: full parse throughput and single-character edit + incremental reparse
// latency, on generated files of about 2k, 20k and 100k lines (bench/README.md has the numbers).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <dlfcn.h>

#include "corpus.h"
#include "syntax/document.h"
#include "tvmls/grammar.h"

namespace tvmls::bench {
namespace {

using analysis::ByteEdit;
using analysis::Document;

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
// With `changed_ranges`, each keystroke also asks for Document::ChangedRanges().
void EditLoop(benchmark::State& state, bool changed_ranges) {
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
    if (changed_ranges) benchmark::DoNotOptimize(doc.ChangedRanges());
    auto stop = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(result);
    micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    ++step;
  }
  state.counters["p50_us"] = Percentile(micros, 0.50);
  state.counters["p95_us"] = Percentile(micros, 0.95);
  state.counters["lines"] = static_cast<double>(std::count(text.begin(), text.end(), '\n'));
}

void BM_EditReparse(benchmark::State& state) { EditLoop(state, false); }

// Changed ranges are reported separately because they are O(top-level nodes).
void BM_EditReparseChangedRanges(benchmark::State& state) { EditLoop(state, true); }

// Full parse of every .py file under $TVMLS_BENCH_CORPUS_DIR (e.g. apache/tvm's tests/python),
// each file on its own; skipped when the variable is unset.
void BM_ParseCorpusDirectory(benchmark::State& state) {
  const char* dir = std::getenv("TVMLS_BENCH_CORPUS_DIR");
  if (dir == nullptr) {
    state.SkipWithError("set TVMLS_BENCH_CORPUS_DIR to a directory of Python files");
    return;
  }
  std::vector<std::string> texts;
  size_t bytes = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    texts.push_back(ReadFileText(entry.path().string()));
    bytes += texts.back().size();
  }
  for (auto _ : state) {
    for (const std::string& text : texts) {
      Document doc(text);
      benchmark::DoNotOptimize(doc.Root());
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
  state.counters["files"] = static_cast<double>(texts.size());
}

// The same keystrokes through the bare tree-sitter API (text splice, ts_tree_edit, reparse), for
// any grammar: ours, or a peer's shared library named by $TVMLS_BENCH_PEER=path.so:symbol (for
// example a locally built tree-sitter-python), so that both are measured on the same files and
// edits in the same run.
const TSLanguage* PeerLanguage() {
  static const TSLanguage* language = [] () -> const TSLanguage* {
    const char* spec = std::getenv("TVMLS_BENCH_PEER");
    if (spec == nullptr) return nullptr;
    std::string s(spec);
    size_t colon = s.rfind(':');
    if (colon == std::string::npos) return nullptr;
    void* handle = dlopen(s.substr(0, colon).c_str(), RTLD_NOW);
    if (handle == nullptr) return nullptr;
    using Fn = const TSLanguage* (*)();
    auto fn = reinterpret_cast<Fn>(dlsym(handle, s.substr(colon + 1).c_str()));
    return fn != nullptr ? fn() : nullptr;
  }();
  return language;
}

TSPoint PointOf(const std::string& text, size_t offset) {
  size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  size_t line_start = newline == std::string::npos ? 0 : newline + 1;
  auto row = std::count(text.begin(), text.begin() + static_cast<long>(line_start), '\n');
  return TSPoint{static_cast<uint32_t>(row), static_cast<uint32_t>(offset - line_start)};
}

// A parser for `language`, or null (and the benchmark skipped) when no peer was given.
TSParser* RawParser(benchmark::State& state, const TSLanguage* language) {
  if (language == nullptr) {
    state.SkipWithError("set TVMLS_BENCH_PEER=path/to/grammar.so:tree_sitter_<name>");
    return nullptr;
  }
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, language);
  return parser;
}

// `typed` is inserted at a site and deleted again on the next iteration: "x" is a keystroke in a
// name; an unclosed call leaves a syntax error to recover from, as while a line is being typed.
void RawEditReparse(benchmark::State& state, const TSLanguage* language, const std::string& typed = "x") {
  TSParser* parser = RawParser(state, language);
  if (parser == nullptr) return;
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
  std::vector<size_t> sites = EditSites(text, 64);
  // Points are computed outside the timed region (an editor knows them).
  std::vector<TSPoint> points;
  for (size_t site : sites) points.push_back(PointOf(text, site));
  std::vector<double> micros;
  size_t step = 0;
  for (auto _ : state) {
    size_t k = (step / 2) % sites.size();
    uint32_t site = static_cast<uint32_t>(sites[k]);
    bool insert = step % 2 == 0;
    TSPoint p = points[k];
    const uint32_t n = static_cast<uint32_t>(typed.size());
    TSPoint after{p.row, p.column + n};
    TSInputEdit edit{site, insert ? site : site + n, insert ? site + n : site, p, insert ? p : after, insert ? after : p};
    auto start = std::chrono::steady_clock::now();
    if (insert) text.insert(site, typed); else text.erase(site, n);
    ts_tree_edit(tree, &edit);
    TSTree* fresh = ts_parser_parse_string(parser, tree, text.data(), static_cast<uint32_t>(text.size()));
    auto stop = std::chrono::steady_clock::now();
    ts_tree_delete(tree);
    tree = fresh;
    micros.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
    ++step;
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  state.counters["p50_us"] = Percentile(micros, 0.50);
  state.counters["p95_us"] = Percentile(micros, 0.95);
}

void RawFullParse(benchmark::State& state, const TSLanguage* language) {
  TSParser* parser = RawParser(state, language);
  if (parser == nullptr) return;
  std::string text = MakeCorpus(static_cast<size_t>(state.range(0)));
  for (auto _ : state) {
    TSTree* tree = ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size()));
    benchmark::DoNotOptimize(tree);
    ts_tree_delete(tree);
  }
  ts_parser_delete(parser);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}

void BM_RawEditReparseOurs(benchmark::State& state) { RawEditReparse(state, tvmls_language()); }
void BM_RawEditReparsePeer(benchmark::State& state) { RawEditReparse(state, PeerLanguage()); }
void BM_RawFullParseOurs(benchmark::State& state) { RawFullParse(state, tvmls_language()); }
// An unclosed call typed and deleted, with the language tvmls parses with (every parse-table row
// dense, grammar/src/dense_language.c) and with the generated one (most rows searched).
const std::string kUnclosedCall = "R.add(x, ";
void BM_RawEditReparseBrokenDense(benchmark::State& state) { RawEditReparse(state, tvmls_language(), kUnclosedCall); }
void BM_RawEditReparseBrokenGenerated(benchmark::State& state) {
  RawEditReparse(state, tree_sitter_tvmscript(), kUnclosedCall);
}
void BM_RawFullParsePeer(benchmark::State& state) { RawFullParse(state, PeerLanguage()); }

BENCHMARK(BM_FullParse)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_EditReparse)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_EditReparseChangedRanges)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ParseCorpusDirectory)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_RawFullParseOurs)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawFullParsePeer)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RawEditReparseOurs)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RawEditReparsePeer)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RawEditReparseBrokenDense)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_RawEditReparseBrokenGenerated)->Arg(2000)->Arg(20000)->Arg(100000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tvmls::bench

BENCHMARK_MAIN();
