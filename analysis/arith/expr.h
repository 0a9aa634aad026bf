// Symbolic integer arithmetic for shape expressions.
//
// An Expr is kept in one canonical form: a sum of terms, each an integer coefficient times a
// monomial (a product of atoms raised to positive powers). Atoms are named symbolic variables
// (`n`, `m`) or non-linear terms whose operands are themselves canonical: floordiv, floormod, min,
// max, and opaque values (text tvmls does not interpret, compared by spelling). Two Exprs that are
// equal as polynomials over their atoms are structurally equal (operator==), so `n * 2 == n + n`
// and `(n + 1) - 1 == n` hold without a prover.
//
// Arithmetic never throws and never overflows silently: a result that does not fit in int64 turns
// into an opaque atom (Expr::Overflow()), which compares equal only to itself and bounds to
// nothing, so every question about it is answered kUnknown.
#ifndef TVMLS_ANALYSIS_ARITH_EXPR_H_
#define TVMLS_ANALYSIS_ARITH_EXPR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace tvmls::arith {

/// Three-valued answer of every proof: the claim holds for all values allowed by the facts
/// (kProved), fails for all of them (kDisproved), or neither could be shown (kUnknown).
enum class Tri { kProved, kDisproved, kUnknown };

Tri Not(Tri t);
Tri And(Tri a, Tri b);
Tri Or(Tri a, Tri b);
const char* ToString(Tri t);

class Expr;

/// A non-linear or uninterpreted factor of a monomial.
struct Atom {
  enum class Kind { kVar, kFloorDiv, kFloorMod, kMin, kMax, kOpaque };
  Kind kind = Kind::kVar;
  /// kVar: the variable name; kOpaque: the spelling.
  std::string name;
  /// Operands of kFloorDiv/kFloorMod/kMin/kMax (two, canonical).
  std::vector<Expr> operands;

  /// Total order used for canonical sorting (kind, then name, then operands).
  friend bool operator<(const Atom& a, const Atom& b);
  friend bool operator==(const Atom& a, const Atom& b);
};

/// An integer expression in canonical polynomial form. Value type; cheap to copy for the small
/// shape expressions it holds.
class Expr {
 public:
  /// The constant 0.
  Expr();
  /// Implicit from an integer constant, so `Expr e = 4;` and `n * 4` read naturally.
  Expr(int64_t value);  // NOLINT(google-explicit-constructor)
  Expr(int value) : Expr(static_cast<int64_t>(value)) {}  // NOLINT

  static Expr Var(std::string name);
  /// A value tvmls does not interpret, identified by its spelling.
  static Expr Opaque(std::string spelling);
  /// The expression one atom of a term stands for (a variable, floordiv, floormod, min, max or
  /// opaque value).
  static Expr OfAtom(const Atom& atom);
  /// The result of an int64 overflow: unequal to everything but itself, unbounded. It is the opaque
  /// atom spelled `<overflow>`, and it poisons: any operation with an overflow operand (sums,
  /// products, floordiv, min, ..., even `o - o`) gives Overflow() again.
  static Expr Overflow();

  /// floordiv/floormod as in TVM (round toward negative infinity). Folded when both are constants
  /// (division by a constant 0 gives an opaque value spelled `a // 0` / `a % 0`), and
  /// `floordiv(c*q + r, c)` splits into `q + floordiv(r, c)` when c is a positive constant; r
  /// constant folds completely. Normalization for a constant divisor c:
  ///  * c == 1: `a` / `0`; c < 0: `floordiv(a, c) == floordiv(-a, -c)`,
  ///    `floormod(a, c) == -floormod(-a, -c)`;
  ///  * a common factor g of c and every coefficient is cancelled: `floordiv(n*4, 8) == n // 2`,
  ///    `floormod(n*4, 8) == n % 2 * 4`;
  ///  * each non-constant coefficient k splits by truncation, k = c*(k/c) + k%c, so
  ///    `(n*5) // 4 == n + n // 4` while `-n // 4` stays as written;
  ///  * the constant stays inside the floordiv atom (`(n - 1) // 2 + 1`, as TVM prints conv/pool
  ///    shapes) unless it folds or c divides it (`(n - 2) // 2 == n // 2 - 1`, as TVM's
  ///    SeparateDivisibleParts); inside a floormod atom it is reduced modulo c
  ///    (`(n + 5) % 4 == (n + 1) % 4`).
  /// A non-constant divisor that is one term dividing every term of the dividend divides exactly
  /// (`a * b * c // (b * c) == a`, `a * b % b == 0`, true for every nonzero divisor); any other
  /// non-constant divisor gives an atom.
  static Expr FloorDiv(const Expr& a, const Expr& b);
  static Expr FloorMod(const Expr& a, const Expr& b);
  /// min/max; folded for constants, for equal operands and when the operands differ by a constant
  /// (`T.min(n, n + 1) == n`). Otherwise an atom with a constant operand last (`T.min(n, 4)`),
  /// else the operands in Expr order.
  static Expr Min(const Expr& a, const Expr& b);
  static Expr Max(const Expr& a, const Expr& b);

  friend Expr operator+(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a, const Expr& b);
  friend Expr operator*(const Expr& a, const Expr& b);
  friend Expr operator-(const Expr& a);

  /// Structural equality of canonical forms.
  friend bool operator==(const Expr& a, const Expr& b);
  friend bool operator!=(const Expr& a, const Expr& b) { return !(a == b); }
  /// A total order (for use as a map key).
  friend bool operator<(const Expr& a, const Expr& b);

  bool IsConst() const;
  std::optional<int64_t> AsConst() const;
  /// The variable name when the expression is exactly one variable.
  std::optional<std::string> AsVar() const;
  bool IsOverflow() const;

  /// Every variable name that occurs (also inside floordiv/min/... operands).
  void CollectVars(std::set<std::string>* out) const;
  bool HasVars() const;
  /// Replaces variables by expressions, re-canonicalizing.
  Expr Substitute(const std::map<std::string, Expr>& values) const;

  /// TVMScript spelling as TVM's printer writes shape dims: `4`, `n`, `n * 4`, `m + n + 1`,
  /// `m * n`, `n - 1`, `n // 4`, `n % 4`, `T.min(a, b)`, `T.max(a, b)`. Deterministic, in the order
  /// of TVM's canonical form (canonical_simplify.cc, SumExprNode: terms by descending scale, the
  /// positive ones first, then a positive constant, then the negative terms as subtractions, then
  /// a negative constant): `iw + 1 - kw`, `n * 2 + m`, `16 - n * 4`, `m + n - 1`. Terms of equal
  /// coefficient go by higher degree first, then atom order (variables by name). With no positive
  /// term or constant the text starts with
  /// a unary minus (`-n`, `-n * 4 - 1`, `-(n // 4)`). Coefficients follow the monomial
  /// (`m * n * 2`); powers repeat the factor (`n * n`). A floordiv/floormod factor after the
  /// first is parenthesized (`m * (n // 4)`), as are divisors that are not a single name or
  /// non-negative constant (`n // (m * 2)`) and compound dividends (`(n + 1) // 4`); opaque
  /// spellings that are not plain names are parenthesized unless they are the whole expression.
  /// The text parses back (ParseExpr) to the same Expr.
  std::string ToString() const;

  /// One term: coefficient times the product of atoms (with multiplicity, sorted).
  struct Term {
    std::vector<Atom> atoms;
    int64_t coef = 0;
  };
  const std::vector<Term>& Terms() const { return terms_; }

 private:
  // Sorted by atoms, no zero coefficients; the constant term (empty atoms) first.
  std::vector<Term> terms_;
  friend class ExprBuilder;
};

/// Parses the expression syntax used in shape strings and printer output:
/// integers, identifiers, `+ - * // %`, unary minus, parentheses, `T.int64(5)`-style casts (the
/// value), `T.min(a, b)`, `T.max(a, b)`, `T.floordiv(a, b)`, `T.floormod(a, b)`. Returns nullopt
/// for anything else (`/`, `**`, other calls, attributes, strings, literals beyond int64, nesting
/// deeper than 200). Python precedence: unary minus binds tighter than `* // %`, so `-n // 2` is
/// `floordiv(-n, 2)`. Casts are `T.int8/16/32/64` and `T.uint8/16/32/64`. Used for
/// `R.Tensor(("n * 2",), ...)` and by tests.
std::optional<Expr> ParseExpr(std::string_view text);

}  // namespace tvmls::arith

#endif  // TVMLS_ANALYSIS_ARITH_EXPR_H_
