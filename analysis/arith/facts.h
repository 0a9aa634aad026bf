// Facts about symbolic variables, and three-valued proofs over them.
//
// The facts that hold in a Relax function: shape variables are non-negative; attributes
// `tir_var_upper_bound` / `tir_non_negative_var` bound them; a dominating `R.assert_op(cond)`
// adds `cond`; an `R.match_cast` refines a value. The prover answers `a == b`, `a <= b`, `a < b`
// with kProved / kDisproved / kUnknown and never guesses: kProved means true for every assignment
// allowed by the facts, kDisproved false for every one.
//
// Method: d = b - a in canonical form; interval bounds of d from variable bounds (products of
// intervals per monomial, floordiv/floormod/min/max by their interval rules); then each recorded
// linear fact `f >= 0` is tried as `c*d - k*f` (c*d >= k*f >= 0) for c, k = 1 and for the
// ratios that cancel a monomial d and f share; a disproof tries the same on `a - b - 1`. Facts
// `x == e` from AddEqual are also tried as a substitution of the claim. A fact `k*v + c >= 0`
// over a single variable narrows the range of v. Sound, incomplete, O(terms * facts).
#ifndef TVMLS_ANALYSIS_ARITH_FACTS_H_
#define TVMLS_ANALYSIS_ARITH_FACTS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "arith/expr.h"

namespace tvmls::arith {

/// A closed interval; nullopt ends are unbounded.
struct Interval {
  std::optional<int64_t> lo;
  std::optional<int64_t> hi;
  bool IsEverything() const { return !lo && !hi; }
};

class Facts {
 public:
  /// `name >= 0`.
  void AddNonNegative(const std::string& name);
  /// `lo <= name <= hi` (intersected with what is known).
  void AddRange(const std::string& name, Interval range);
  /// `e >= 0` for an arbitrary expression (from `R.assert_op(a <= b)` as `b - a >= 0`).
  void AddNonNegative(const Expr& e);
  /// `a == b`, kept as two inequalities; when `a` is a variable also usable for substitution.
  void AddEqual(const Expr& a, const Expr& b);

  /// The known range of a variable (everything when nothing is known).
  Interval RangeOf(const std::string& name) const;
  /// Interval bound of an expression under the variable ranges (not using the linear facts).
  Interval Bound(const Expr& e) const;

  Tri ProveEqual(const Expr& a, const Expr& b) const;
  Tri ProveLessEqual(const Expr& a, const Expr& b) const;
  Tri ProveLess(const Expr& a, const Expr& b) const;
  /// `e >= 0`.
  Tri ProveNonNegative(const Expr& e) const;

 private:
  // One proof attempt on `e >= 0` without substitution.
  Tri ProveNonNegativeOnce(const Expr& e) const;
  Interval BoundAtom(const Atom& atom) const;

  std::map<std::string, Interval> ranges_;
  std::vector<Expr> non_negative_;  // each e with e >= 0
  std::map<std::string, Expr> equal_;  // var == expr from AddEqual, tried as a substitution
};

}  // namespace tvmls::arith

#endif  // TVMLS_ANALYSIS_ARITH_FACTS_H_
