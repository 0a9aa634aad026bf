// The fact and comparison notation shared by prove.txt and struct_info.txt.
//   nonneg n m k         Facts::AddNonNegative(name) for each name
//   range n [lo, hi]     Facts::AddRange (`inf` / `-inf` for an open end)
//   a <= b, a >= b, a < b, a > b   AddNonNegative of the difference (strict: minus 1)
//   a == b               Facts::AddEqual(a, b)
// Several facts are separated by `&&`.
#ifndef TVMLS_TESTS_ARITH_FACT_SYNTAX_H_
#define TVMLS_TESTS_ARITH_FACT_SYNTAX_H_

#include <optional>
#include <string>

#include "arith/facts.h"
#include "arith/table.h"

namespace tvmls::testing {

/// `lhs op rhs`; the operator is the first of `<=`, `>=`, `==`, `!=`, `<`, `>` found.
struct Comparison {
  arith::Expr lhs, rhs;
  std::string op;
};

inline std::optional<Comparison> ParseComparison(const std::string& text) {
  for (std::string op : {"<=", ">=", "==", "!=", "<", ">"}) {
    size_t at = text.find(op);
    if (at == std::string::npos) continue;
    std::optional<arith::Expr> lhs = arith::ParseExpr(text.substr(0, at));
    std::optional<arith::Expr> rhs = arith::ParseExpr(text.substr(at + op.size()));
    if (!lhs || !rhs) return std::nullopt;
    return Comparison{*lhs, *rhs, op};
  }
  return std::nullopt;
}

inline std::optional<int64_t> ParseEnd(const std::string& text) {
  if (text == "inf" || text == "-inf") return std::nullopt;
  return std::stoll(text);
}

/// Applies one fact item; false when it is malformed.
inline bool AddFact(const std::string& item, arith::Facts* facts) {
  if (item.rfind("nonneg ", 0) == 0) {
    for (const auto& name : SplitTrim(item.substr(7), " ")) {
      if (!name.empty()) facts->AddNonNegative(name);
    }
    return true;
  }
  if (item.rfind("range ", 0) == 0) {
    size_t open = item.find('['), close = item.find(']');
    if (open == std::string::npos || close == std::string::npos) return false;
    std::string name = Trim(item.substr(6, open - 6));
    auto ends = SplitTrim(item.substr(open + 1, close - open - 1), ",");
    if (ends.size() != 2) return false;
    facts->AddRange(name, arith::Interval{ParseEnd(ends[0]), ParseEnd(ends[1])});
    return true;
  }
  std::optional<Comparison> c = ParseComparison(item);
  if (!c) return false;
  if (c->op == "<=") {
    facts->AddNonNegative(c->rhs - c->lhs);
  } else if (c->op == ">=") {
    facts->AddNonNegative(c->lhs - c->rhs);
  } else if (c->op == "<") {
    facts->AddNonNegative(c->rhs - c->lhs - 1);
  } else if (c->op == ">") {
    facts->AddNonNegative(c->lhs - c->rhs - 1);
  } else if (c->op == "==") {
    facts->AddEqual(c->lhs, c->rhs);
  } else {
    return false;
  }
  return true;
}

/// Facts from an `&&`-separated list (empty text: no facts); false when an item is malformed.
inline bool AddFacts(const std::string& text, arith::Facts* facts) {
  if (text.empty()) return true;
  for (const auto& item : SplitTrim(text, "&&")) {
    if (!AddFact(item, facts)) return false;
  }
  return true;
}

}  // namespace tvmls::testing

#endif  // TVMLS_TESTS_ARITH_FACT_SYNTAX_H_
