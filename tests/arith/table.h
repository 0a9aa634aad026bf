// Reads the text tables that drive the arith tests: one case per line, cells separated by `|`,
// blank lines and lines starting with `#` skipped. Each row keeps its 1-based line number so a
// failing case can be reported as `simplify.txt:42`.
#ifndef TVMLS_TESTS_ARITH_TABLE_H_
#define TVMLS_TESTS_ARITH_TABLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "support/files.h"

namespace tvmls::testing {

struct TableRow {
  std::string where;  // "file.txt:line"
  std::vector<std::string> cells;
};

inline std::string Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return std::string(s.substr(b, e - b + 1));
}

inline std::vector<std::string> SplitTrim(std::string_view s, std::string_view sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    size_t at = s.find(sep, start);
    out.push_back(
        Trim(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start)));
    if (at == std::string_view::npos) break;
    start = at + sep.size();
  }
  return out;
}

/// Rows of tests/arith/<name>.
inline std::vector<TableRow> ReadTable(const std::string& name) {
  std::string text = ReadFileOrDie(SourcePath("tests/arith/" + name));
  std::vector<TableRow> rows;
  size_t start = 0;
  for (int line = 1; start <= text.size(); ++line) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string content = Trim(std::string_view(text).substr(start, end - start));
    start = end + 1;
    if (content.empty() || content[0] == '#') continue;
    rows.push_back({name + ":" + std::to_string(line), SplitTrim(content, "|")});
  }
  return rows;
}

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_ARITH_TABLE_H_
