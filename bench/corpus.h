// Benchmark inputs: TVMScript files of a requested size, built from the project's examples.
#ifndef TVMLS_BENCH_CORPUS_H_
#define TVMLS_BENCH_CORPUS_H_

#include <string>
#include <vector>

namespace tvmls::bench {

/// Concatenates the files in examples/ (found through TVMLS_SOURCE_DIR) until the text has at least
/// `lines` lines. Each copy renames its top-level classes and functions (`_c<k>` suffix) so the
/// result reads as one large, valid file of many modules. Deterministic.
std::string MakeCorpus(size_t lines);

/// Byte offsets of identifier characters inside function bodies (indented lines), spread evenly
/// through `text`: where the edit benchmarks type.
std::vector<size_t> EditSites(const std::string& text, size_t count);

/// The sample at rank `q` (0..1) of `samples`, rounded to the nearest rank; 0 when empty.
double Percentile(std::vector<double> samples, double q);

/// The bytes of the file at `path`; empty when it cannot be read.
std::string ReadFileText(const std::string& path);

}  // namespace tvmls::bench

#endif  // TVMLS_BENCH_CORPUS_H_
