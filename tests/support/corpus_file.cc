// Reader for tree-sitter corpus test files.
#include "support/corpus_file.h"

#include <sstream>
#include <stdexcept>

namespace tvmls::testing {

namespace {

bool IsRule(const std::string& line, char c) {
  size_t n = 0;
  while (n < line.size() && line[n] == c) ++n;
  if (n < 3) return false;
  for (size_t i = n; i < line.size(); ++i) {
    if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r') return false;
  }
  return true;
}

std::string TrimTrailingNewlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

}  // namespace

std::string NormalizeSexp(const std::string& sexp) {
  std::string out;
  bool space = false;
  for (char c : sexp) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty() && out.back() != '(' && c != ')') out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<CorpusCase> ParseCorpusFile(const std::string& path, const std::string& text) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  std::vector<CorpusCase> cases;
  size_t i = 0;
  while (i < lines.size()) {
    if (!IsRule(lines[i], '=')) {
      ++i;
      continue;
    }
    if (i + 2 >= lines.size() || !IsRule(lines[i + 2], '=')) {
      throw std::runtime_error(path + ":" + std::to_string(i + 1) + ": malformed test header");
    }
    CorpusCase c;
    c.file = path;
    c.line = static_cast<int>(i + 1);
    c.name = lines[i + 1];
    size_t j = i + 3;
    std::string input;
    while (j < lines.size() && !IsRule(lines[j], '-')) input += lines[j++] + "\n";
    if (j >= lines.size()) {
      throw std::runtime_error(path + ":" + std::to_string(i + 1) + ": test '" + c.name +
                               "' has no `---` line");
    }
    ++j;
    std::string expected;
    while (j < lines.size() && !(IsRule(lines[j], '=') && j + 2 < lines.size() && IsRule(lines[j + 2], '='))) {
      expected += lines[j++] + "\n";
    }
    // The input ends at the blank line before `---`; leading blank lines are part of the format.
    size_t start = input.find_first_not_of('\n');
    input = start == std::string::npos ? "" : input.substr(start);
    c.input = TrimTrailingNewlines(input) + "\n";
    c.expected = NormalizeSexp(expected);
    cases.push_back(std::move(c));
    i = j;
  }
  return cases;
}

}  // namespace tvmls::testing
