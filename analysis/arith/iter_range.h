// The values an index takes over a TIR iteration domain: exact extremes, guards, enumeration.
//
// An iteration space maps each loop variable to the values it takes: lo, lo + step, ..., hi
// (hi is the last value reached, not a bound). Variables of an expression that are not in the
// space are symbolic constants (function parameters, buffer shape variables). The loops are
// nested and independent (no extent mentions another loop's variable), so the space is the
// product of its domains; every domain is assumed non-empty (a loop that never runs makes every
// claim about its body vacuous).
//
// "Exact" here means attained: the minimum and maximum returned are values the expression takes
// at some point of the space, never mere bounds. Checks rely on that to say an index *reaches*
// a value; anything that cannot be computed exactly is nullopt.
#ifndef TVMLS_ANALYSIS_ARITH_ITER_RANGE_H_
#define TVMLS_ANALYSIS_ARITH_ITER_RANGE_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arith/expr.h"

namespace tvmls::arith {

/// lo, lo + step, ..., hi; step >= 1.
struct IterDomain {
  Expr lo;
  Expr hi;
  int64_t step = 1;
};
using IterSpace = std::map<std::string, IterDomain>;

struct Extremes {
  Expr min;
  Expr max;
};

/// Whether `e` contains an opaque atom (text tvmls does not interpret) or an overflow.
bool HasOpaque(const Expr& e);

/// The variables of `e` that are keys of `space`.
std::vector<std::string> IterVarsOf(const Expr& e, const IterSpace& space);

/// The attained minimum and maximum of `e` over `space`. Computed when every term that mentions
/// an iteration variable is a constant times one atom that is an iteration variable,
/// `floordiv(x, c)` (c > 0 constant, x computed recursively) or `floormod(x, c)` whose x stays in
/// one period of c, and no two such terms share an iteration variable. nullopt otherwise, and for
/// opaque expressions.
std::optional<Extremes> ExactExtremes(const Expr& e, const IterSpace& space);

/// How a guard `g >= 0` restricts the space.
enum class GuardEffect {
  kNone,      // g mentions no iteration variable (a fact about symbolic values, or a constant true)
  kNarrowed,  // g is `k*v + c` over one variable with constant domain: its domain was narrowed
  kEmpty,     // no point of the space satisfies g (constant false, or a narrowed domain is empty)
  kOther,     // g relates several variables, or is not linear with constant coefficients
};
/// Applies the guard `g >= 0` to `space` where it is a bound on one variable.
GuardEffect ApplyGuard(const Expr& g, IterSpace* space);

/// The value of `e` with every variable given in `values`; nullopt when a variable is missing,
/// an atom is opaque, a division is by zero or the arithmetic overflows.
std::optional<int64_t> Evaluate(const Expr& e, const std::map<std::string, int64_t>& values);

/// The attained minimum and maximum of `e` over the points of `space` that satisfy every
/// `g >= 0` of `guards`, by visiting them: the iteration variables of `e` and the guards must
/// have constant domains, at most `limit` points in all, and `e` must have no other variable.
/// `*empty` is set when no point satisfies the guards. nullopt when it cannot be done.
std::optional<Extremes> EnumeratedExtremes(const Expr& e, const std::vector<Expr>& guards,
                                           const IterSpace& space, int64_t limit, bool* empty);

}  // namespace tvmls::arith

#endif  // TVMLS_ANALYSIS_ARITH_ITER_RANGE_H_
