// Server answers (the analysis query and its JSON text): completion after `R.` and `T.` (the
// biggest lists: every op and every T. name), hover. Numbers in bench/README.md.
// Run: build/bench/tvmls_bench --benchmark_filter=Answer
#include <algorithm>
#include <string>

#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include "analysis.h"
#include "corpus.h"
#include "lsp_features.h"
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

BENCHMARK(BM_CompletionAnswerRelax)->Arg(2000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompletionAnswerTir)->Arg(2000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_CompletionAnswerBare)->Arg(2000)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace tvmls::bench
