// Reader for tree-sitter corpus test files (grammar/test/corpus/*.txt).
//
// Format: a header of `=` lines around the test name, the input, a line of `---`, and the expected
// S-expression. Whitespace in expected trees is not significant.
#ifndef TVMLS_TESTS_SUPPORT_CORPUS_FILE_H_
#define TVMLS_TESTS_SUPPORT_CORPUS_FILE_H_

#include <ostream>
#include <string>
#include <vector>

namespace tvmls::testing {

struct CorpusCase {
  std::string file;      // Path of the corpus file.
  std::string name;      // Test name from the header.
  int line = 0;          // 1-based line of the header, for messages.
  std::string input;     // Source text (the blank line before `---` is not part of it).
  std::string expected;  // Expected S-expression, whitespace-normalised.
};

/// For gtest messages: the test's place and name instead of a byte dump.
inline void PrintTo(const CorpusCase& c, std::ostream* os) { *os << c.file << ":" << c.line << " " << c.name; }

/// Parses one corpus file. Throws std::runtime_error on a malformed file.
std::vector<CorpusCase> ParseCorpusFile(const std::string& path, const std::string& text);

/// Collapses runs of whitespace to one space and removes spaces next to parentheses.
std::string NormalizeSexp(const std::string& sexp);

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_SUPPORT_CORPUS_FILE_H_
