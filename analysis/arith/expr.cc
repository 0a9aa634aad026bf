// Expr: canonical polynomials over atoms, overflow-checked arithmetic, printing and parsing.
#include "arith/expr.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <iterator>
#include <numeric>
#include <utility>

namespace tvmls::arith {

namespace {

using Monomial = std::vector<Atom>;

constexpr const char kOverflowSpelling[] = "<overflow>";
constexpr int kMaxParseDepth = 200;

int CompareExprs(const Expr& a, const Expr& b);

int CompareAtoms(const Atom& a, const Atom& b) {
  if (a.kind != b.kind) return a.kind < b.kind ? -1 : 1;
  if (int c = a.name.compare(b.name)) return c < 0 ? -1 : 1;
  size_t n = std::min(a.operands.size(), b.operands.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = CompareExprs(a.operands[i], b.operands[i])) return c;
  }
  if (a.operands.size() != b.operands.size()) return a.operands.size() < b.operands.size() ? -1 : 1;
  return 0;
}

int CompareMonomials(const Monomial& a, const Monomial& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = CompareAtoms(a[i], b[i])) return c;
  }
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return 0;
}

int CompareExprs(const Expr& a, const Expr& b) {
  const auto& ta = a.Terms();
  const auto& tb = b.Terms();
  size_t n = std::min(ta.size(), tb.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = CompareMonomials(ta[i].atoms, tb[i].atoms)) return c;
    if (ta[i].coef != tb[i].coef) return ta[i].coef < tb[i].coef ? -1 : 1;
  }
  if (ta.size() != tb.size()) return ta.size() < tb.size() ? -1 : 1;
  return 0;
}

struct MonomialLess {
  bool operator()(const Monomial& a, const Monomial& b) const { return CompareMonomials(a, b) < 0; }
};

Monomial MultiplyMonomials(const Monomial& a, const Monomial& b) {
  Monomial out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const Atom& x, const Atom& y) { return CompareAtoms(x, y) < 0; });
  return out;
}

int64_t FloorDivInt(int64_t a, int64_t b) {  // b != 0, not (INT64_MIN, -1)
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

int64_t FloorModInt(int64_t a, int64_t b) {  // b != 0
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

}  // namespace

// Accumulates coefficient * monomial pairs into a canonical Expr; any overflow poisons the result.
class ExprBuilder {
 public:
  void Add(const Monomial& m, int64_t coef) {
    if (coef == 0) return;
    auto [it, inserted] = terms_.emplace(m, coef);
    if (!inserted && __builtin_add_overflow(it->second, coef, &it->second)) overflow_ = true;
  }
  void AddScaled(const Expr& e, int64_t scale) {
    for (const auto& t : e.terms_) {
      int64_t c;
      if (__builtin_mul_overflow(t.coef, scale, &c)) {
        overflow_ = true;
        return;
      }
      Add(t.atoms, c);
    }
  }
  void SetOverflow() { overflow_ = true; }
  Expr Build() {
    if (overflow_) return Expr::Overflow();
    Expr out;
    for (auto& [m, c] : terms_) {
      if (c != 0) out.terms_.push_back(Expr::Term{m, c});
    }
    return out;
  }
  static Expr FromAtom(Atom atom) {
    Expr out;
    out.terms_.push_back(Expr::Term{{std::move(atom)}, 1});
    return out;
  }
  // e / g, for a g > 0 that divides every coefficient.
  static Expr DivideExact(const Expr& e, int64_t g) {
    Expr out = e;
    for (auto& t : out.terms_) t.coef /= g;
    return out;
  }
  // e = c * q + r with q, r integer polynomials: each non-constant coefficient k splits as
  // k = c * (k / c) + k % c (truncating, so small negative coefficients stay in r); the constant
  // stays in r. c > 1.
  static void Split(const Expr& e, int64_t c, Expr* q, Expr* r) {
    Expr qo, ro;
    for (const auto& t : e.terms_) {
      int64_t qk = t.atoms.empty() ? 0 : t.coef / c;
      int64_t rk = t.atoms.empty() ? t.coef : t.coef % c;
      if (qk != 0) qo.terms_.push_back(Expr::Term{t.atoms, qk});
      if (rk != 0) ro.terms_.push_back(Expr::Term{t.atoms, rk});
    }
    *q = std::move(qo);
    *r = std::move(ro);
  }

 private:
  std::map<Monomial, int64_t, MonomialLess> terms_;
  bool overflow_ = false;
};

// ---------------------------------------------------------------------------------------------
// Tri

Tri Not(Tri t) {
  if (t == Tri::kProved) return Tri::kDisproved;
  if (t == Tri::kDisproved) return Tri::kProved;
  return Tri::kUnknown;
}

Tri And(Tri a, Tri b) {
  if (a == Tri::kDisproved || b == Tri::kDisproved) return Tri::kDisproved;
  if (a == Tri::kProved && b == Tri::kProved) return Tri::kProved;
  return Tri::kUnknown;
}

Tri Or(Tri a, Tri b) {
  if (a == Tri::kProved || b == Tri::kProved) return Tri::kProved;
  if (a == Tri::kDisproved && b == Tri::kDisproved) return Tri::kDisproved;
  return Tri::kUnknown;
}

const char* ToString(Tri t) {
  switch (t) {
    case Tri::kProved:
      return "proved";
    case Tri::kDisproved:
      return "disproved";
    case Tri::kUnknown:
      return "unknown";
  }
  return "unknown";
}

// ---------------------------------------------------------------------------------------------
// Atom and Expr basics

bool operator<(const Atom& a, const Atom& b) { return CompareAtoms(a, b) < 0; }
bool operator==(const Atom& a, const Atom& b) { return CompareAtoms(a, b) == 0; }

Expr::Expr() = default;

Expr::Expr(int64_t value) {
  if (value != 0) terms_.push_back(Term{{}, value});
}

Expr Expr::Var(std::string name) {
  return ExprBuilder::FromAtom(Atom{Atom::Kind::kVar, std::move(name), {}});
}

Expr Expr::Opaque(std::string spelling) {
  return ExprBuilder::FromAtom(Atom{Atom::Kind::kOpaque, std::move(spelling), {}});
}

Expr Expr::OfAtom(const Atom& atom) {
  switch (atom.kind) {
    case Atom::Kind::kVar:
      return Var(atom.name);
    case Atom::Kind::kFloorDiv:
      return FloorDiv(atom.operands[0], atom.operands[1]);
    case Atom::Kind::kFloorMod:
      return FloorMod(atom.operands[0], atom.operands[1]);
    case Atom::Kind::kMin:
      return Min(atom.operands[0], atom.operands[1]);
    case Atom::Kind::kMax:
      return Max(atom.operands[0], atom.operands[1]);
    case Atom::Kind::kOpaque:
      break;
  }
  return Opaque(atom.name);
}

Expr Expr::Overflow() { return Opaque(kOverflowSpelling); }

bool Expr::IsOverflow() const {
  return terms_.size() == 1 && terms_[0].coef == 1 && terms_[0].atoms.size() == 1 &&
         terms_[0].atoms[0].kind == Atom::Kind::kOpaque &&
         terms_[0].atoms[0].name == kOverflowSpelling;
}

bool operator==(const Expr& a, const Expr& b) { return CompareExprs(a, b) == 0; }
bool operator<(const Expr& a, const Expr& b) { return CompareExprs(a, b) < 0; }

bool Expr::IsConst() const {
  return terms_.empty() || (terms_.size() == 1 && terms_[0].atoms.empty());
}

std::optional<int64_t> Expr::AsConst() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_[0].atoms.empty()) return terms_[0].coef;
  return std::nullopt;
}

std::optional<std::string> Expr::AsVar() const {
  if (terms_.size() == 1 && terms_[0].coef == 1 && terms_[0].atoms.size() == 1 &&
      terms_[0].atoms[0].kind == Atom::Kind::kVar) {
    return terms_[0].atoms[0].name;
  }
  return std::nullopt;
}

void Expr::CollectVars(std::set<std::string>* out) const {
  for (const auto& t : terms_) {
    for (const auto& a : t.atoms) {
      if (a.kind == Atom::Kind::kVar) out->insert(a.name);
      for (const auto& op : a.operands) op.CollectVars(out);
    }
  }
}

bool Expr::HasVars() const {
  std::set<std::string> vars;
  CollectVars(&vars);
  return !vars.empty();
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

Expr operator+(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Expr::Overflow();
  ExprBuilder builder;
  builder.AddScaled(a, 1);
  builder.AddScaled(b, 1);
  return builder.Build();
}

Expr operator-(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Expr::Overflow();
  ExprBuilder builder;
  builder.AddScaled(a, 1);
  builder.AddScaled(b, -1);
  return builder.Build();
}

Expr operator-(const Expr& a) { return Expr(0) - a; }

Expr operator*(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Expr::Overflow();
  ExprBuilder builder;
  for (const auto& ta : a.Terms()) {
    for (const auto& tb : b.Terms()) {
      int64_t c;
      if (__builtin_mul_overflow(ta.coef, tb.coef, &c)) return Expr::Overflow();
      builder.Add(MultiplyMonomials(ta.atoms, tb.atoms), c);
    }
  }
  return builder.Build();
}

namespace {

// gcd of every coefficient of `e` and of `c` (c > 0).
int64_t CoefGcd(const Expr& e, int64_t c) {
  uint64_t g = static_cast<uint64_t>(c);
  for (const auto& t : e.Terms()) g = std::gcd(g, Magnitude(t.coef));
  return static_cast<int64_t>(g);
}

Expr BinaryAtom(Atom::Kind kind, const Expr& a, const Expr& b) {
  return ExprBuilder::FromAtom(Atom{kind, "", {a, b}});
}

std::string DivModSpelling(const Expr& a, const char* op, const Expr& b);

// Canonical operand order of min/max: a constant last (`T.min(n, 4)`), otherwise Expr order.
bool OperandsSwapped(const Expr& a, const Expr& b) {
  if (a.IsConst() != b.IsConst()) return a.IsConst();
  return b < a;
}

// a / b when b is one term (a monomial times a nonzero constant) that divides every term of a
// exactly, as `a * b * c // (b * c) == a`; nullopt otherwise. Exact, so it holds for any
// nonzero value of b, whatever its sign.
std::optional<Expr> DivideByMonomial(const Expr& a, const Expr& b) {
  const auto& divisor = b.Terms();
  if (divisor.size() != 1 || divisor[0].atoms.empty()) return std::nullopt;
  const Expr::Term& d = divisor[0];
  auto less = [](const Atom& x, const Atom& y) { return CompareAtoms(x, y) < 0; };
  ExprBuilder builder;
  for (const auto& t : a.Terms()) {
    if (d.coef == -1 && t.coef == std::numeric_limits<int64_t>::min()) return std::nullopt;
    if (t.coef % d.coef != 0) return std::nullopt;
    if (!std::includes(t.atoms.begin(), t.atoms.end(), d.atoms.begin(), d.atoms.end(), less)) {
      return std::nullopt;
    }
    Monomial rest;
    std::set_difference(t.atoms.begin(), t.atoms.end(), d.atoms.begin(), d.atoms.end(),
                        std::back_inserter(rest), less);
    builder.Add(rest, t.coef / d.coef);
  }
  return builder.Build();
}

}  // namespace

Expr Expr::FloorDiv(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Overflow();
  std::optional<int64_t> c = b.AsConst();
  if (!c) {
    if (std::optional<Expr> q = DivideByMonomial(a, b)) return *q;
    return BinaryAtom(Atom::Kind::kFloorDiv, a, b);
  }
  if (*c == 0) return Opaque(DivModSpelling(a, "//", b));
  if (std::optional<int64_t> ac = a.AsConst()) {
    if (*ac == std::numeric_limits<int64_t>::min() && *c == -1) return Overflow();
    return FloorDivInt(*ac, *c);
  }
  if (*c == 1) return a;
  if (*c < 0) {
    // floor(a / -k) == floor(-a / k).
    if (*c == std::numeric_limits<int64_t>::min()) return BinaryAtom(Atom::Kind::kFloorDiv, a, b);
    return FloorDiv(-a, -*c);
  }
  int64_t g = CoefGcd(a, *c);
  if (g > 1) return FloorDiv(ExprBuilder::DivideExact(a, g), *c / g);
  Expr q, r;
  ExprBuilder::Split(a, *c, &q, &r);
  if (std::optional<int64_t> rc = r.AsConst()) return q + FloorDivInt(*rc, *c);
  // A constant that c divides leaves the floordiv, as TVM's SeparateDivisibleParts does:
  // `(n - 2) // 2 == n // 2 - 1`, while `(n - 1) // 2` keeps its constant.
  const Term& first = r.Terms().front();
  if (first.atoms.empty() && first.coef % *c == 0) {
    int64_t k = first.coef;
    q = q + k / *c;
    r = r - k;
  }
  if (q == Expr()) return BinaryAtom(Atom::Kind::kFloorDiv, r, *c);
  return q + FloorDiv(r, *c);
}

Expr Expr::FloorMod(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Overflow();
  std::optional<int64_t> c = b.AsConst();
  if (!c) {
    if (DivideByMonomial(a, b)) return 0;
    return BinaryAtom(Atom::Kind::kFloorMod, a, b);
  }
  if (*c == 0) return Opaque(DivModSpelling(a, "%", b));
  if (std::optional<int64_t> ac = a.AsConst()) return FloorModInt(*ac, *c);
  if (*c == 1 || *c == -1) return 0;
  if (*c < 0) {
    // a mod -k == -((-a) mod k).
    if (*c == std::numeric_limits<int64_t>::min()) return BinaryAtom(Atom::Kind::kFloorMod, a, b);
    return -FloorMod(-a, -*c);
  }
  int64_t g = CoefGcd(a, *c);
  if (g > 1) return FloorMod(ExprBuilder::DivideExact(a, g), *c / g) * g;
  Expr q, r;
  ExprBuilder::Split(a, *c, &q, &r);
  if (std::optional<int64_t> rc = r.AsConst()) return FloorModInt(*rc, *c);
  // The constant of the remainder only matters modulo c.
  int64_t constant = r.Terms().front().atoms.empty() ? r.Terms().front().coef : 0;
  r = r - constant + FloorModInt(constant, *c);
  return BinaryAtom(Atom::Kind::kFloorMod, r, *c);
}

Expr Expr::Min(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Overflow();
  if (a == b) return a;
  if (std::optional<int64_t> d = (b - a).AsConst()) return *d >= 0 ? a : b;
  return OperandsSwapped(a, b) ? BinaryAtom(Atom::Kind::kMin, b, a)
                               : BinaryAtom(Atom::Kind::kMin, a, b);
}

Expr Expr::Max(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return Overflow();
  if (a == b) return a;
  if (std::optional<int64_t> d = (b - a).AsConst()) return *d >= 0 ? b : a;
  return OperandsSwapped(a, b) ? BinaryAtom(Atom::Kind::kMax, b, a)
                               : BinaryAtom(Atom::Kind::kMax, a, b);
}

// ---------------------------------------------------------------------------------------------
// Substitution

namespace {

Expr SubstituteAtom(const Atom& atom, const std::map<std::string, Expr>& values) {
  switch (atom.kind) {
    case Atom::Kind::kVar: {
      auto it = values.find(atom.name);
      return it != values.end() ? it->second : Expr::Var(atom.name);
    }
    case Atom::Kind::kOpaque:
      return Expr::Opaque(atom.name);
    case Atom::Kind::kFloorDiv:
      return Expr::FloorDiv(atom.operands[0].Substitute(values),
                            atom.operands[1].Substitute(values));
    case Atom::Kind::kFloorMod:
      return Expr::FloorMod(atom.operands[0].Substitute(values),
                            atom.operands[1].Substitute(values));
    case Atom::Kind::kMin:
      return Expr::Min(atom.operands[0].Substitute(values), atom.operands[1].Substitute(values));
    case Atom::Kind::kMax:
      return Expr::Max(atom.operands[0].Substitute(values), atom.operands[1].Substitute(values));
  }
  return Expr::Overflow();
}

}  // namespace

Expr Expr::Substitute(const std::map<std::string, Expr>& values) const {
  if (values.empty() || IsOverflow()) return *this;
  Expr out;
  for (const auto& t : terms_) {
    Expr term = t.coef;
    for (const auto& a : t.atoms) term = term * SubstituteAtom(a, values);
    out = out + term;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Printing
//
// Terms print in the order of TVM's canonical form (src/arith/canonical_simplify.cc): positive
// terms by decreasing coefficient, a positive constant, negative terms as subtractions, a negative
// constant: `iw + 1 - kw`, `16 - n * 4`, `n * 2 + m - 4`. When nothing is positive the expression
// starts with a unary minus: `-n`, `-n * 4 - 1`. Coefficients follow the monomial (`n * m * 2`),
// powers repeat the factor (`n * n`).

namespace {

bool IsDivMod(const Atom& a) {
  return a.kind == Atom::Kind::kFloorDiv || a.kind == Atom::Kind::kFloorMod;
}

// An opaque spelling that is more than a name (`n // 0`) is parenthesized wherever it is not the
// whole expression, so the printed text keeps its grouping.
bool IsCompoundOpaque(const Atom& a) {
  if (a.kind != Atom::Kind::kOpaque) return false;
  return a.name.empty() || !std::all_of(a.name.begin(), a.name.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
         });
}

// The expression is exactly one atom (coefficient 1).
const Atom* SingleAtom(const Expr& e) {
  const auto& terms = e.Terms();
  if (terms.size() != 1 || terms[0].coef != 1 || terms[0].atoms.size() != 1) return nullptr;
  return &terms[0].atoms[0];
}

std::string AtomString(const Atom& a);

// The monomial times |coef|; `paren_first` wraps a leading floordiv/floormod factor (needed after
// a unary minus: `-(n // 4)`).
std::string TermString(const Expr::Term& t, bool paren_first) {
  std::string out;
  for (size_t i = 0; i < t.atoms.size(); ++i) {
    if (i > 0) out += " * ";
    bool paren = (IsDivMod(t.atoms[i]) && (i > 0 || paren_first)) || IsCompoundOpaque(t.atoms[i]);
    out += paren ? "(" + AtomString(t.atoms[i]) + ")" : AtomString(t.atoms[i]);
  }
  uint64_t mag = Magnitude(t.coef);
  if (t.atoms.empty()) return std::to_string(mag);
  if (mag != 1) out += " * " + std::to_string(mag);
  return out;
}

// A divisor prints bare only when it is a non-negative constant or a single var/call atom.
bool IsSimpleOperand(const Expr& e) {
  if (std::optional<int64_t> c = e.AsConst()) return *c >= 0;
  const Atom* atom = SingleAtom(e);
  return atom != nullptr && !IsDivMod(*atom) && !IsCompoundOpaque(*atom);
}

std::string DivModSpelling(const Expr& a, const char* op, const Expr& b) {
  std::string lhs = a.ToString();
  const Atom* atom = SingleAtom(a);
  if (a.Terms().size() > 1 || (atom != nullptr && IsCompoundOpaque(*atom))) lhs = "(" + lhs + ")";
  std::string rhs = b.ToString();
  if (!IsSimpleOperand(b)) rhs = "(" + rhs + ")";
  return lhs + " " + op + " " + rhs;
}

std::string AtomString(const Atom& a) {
  switch (a.kind) {
    case Atom::Kind::kVar:
    case Atom::Kind::kOpaque:
      return a.name;
    case Atom::Kind::kFloorDiv:
      return DivModSpelling(a.operands[0], "//", a.operands[1]);
    case Atom::Kind::kFloorMod:
      return DivModSpelling(a.operands[0], "%", a.operands[1]);
    case Atom::Kind::kMin:
      return "T.min(" + a.operands[0].ToString() + ", " + a.operands[1].ToString() + ")";
    case Atom::Kind::kMax:
      return "T.max(" + a.operands[0].ToString() + ", " + a.operands[1].ToString() + ")";
  }
  return a.name;
}

}  // namespace

namespace {

// The order TVM's canonical simplifier prints a sum in (SumExprNode::SimplifySplitExprs sorts by
// descending scale, Normalize_ emits the positive terms, then a positive constant, then the
// negative terms as subtractions, then a negative constant): here ties of equal coefficient go
// by decreasing degree, then atom order.
bool PrintsBefore(const Expr::Term* x, const Expr::Term* y) {
  if (x->coef != y->coef) return x->coef > y->coef;
  return x->atoms.size() > y->atoms.size();
}

}  // namespace

std::string Expr::ToString() const {
  if (terms_.empty()) return "0";
  if (const Atom* atom = SingleAtom(*this)) return AtomString(*atom);
  std::vector<const Term*> positive, negative;
  const Term* constant = nullptr;
  for (const auto& t : terms_) {
    if (t.atoms.empty()) {
      constant = &t;
    } else {
      (t.coef > 0 ? positive : negative).push_back(&t);
    }
  }
  std::stable_sort(positive.begin(), positive.end(), PrintsBefore);
  std::stable_sort(negative.begin(), negative.end(), PrintsBefore);
  std::vector<const Term*> order = positive;
  if (constant != nullptr && constant->coef > 0) order.push_back(constant);
  order.insert(order.end(), negative.begin(), negative.end());
  if (constant != nullptr && constant->coef < 0) order.push_back(constant);
  std::string out;
  for (size_t i = 0; i < order.size(); ++i) {
    bool minus = order[i]->coef < 0;
    if (i == 0) {
      if (minus) out += "-";
      out += TermString(*order[i], minus);
    } else {
      out += minus ? " - " : " + ";
      out += TermString(*order[i], false);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Parsing: Python precedence (`+ -` < `* // %` < unary minus), left associative.

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::optional<Expr> ParseAll() {
    std::optional<Expr> e = ParseSum(0);
    SkipSpace();
    if (!e || pos_ != text_.size()) return std::nullopt;
    return e;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Eat(std::string_view token) {
    SkipSpace();
    if (text_.substr(pos_, token.size()) != token) return false;
    pos_ += token.size();
    return true;
  }
  bool PeekIs(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  std::optional<Expr> ParseSum(int depth) {
    if (depth > kMaxParseDepth) return std::nullopt;
    std::optional<Expr> lhs = ParseProduct(depth);
    while (lhs) {
      if (Eat("+")) {
        std::optional<Expr> rhs = ParseProduct(depth);
        if (!rhs) return std::nullopt;
        lhs = *lhs + *rhs;
      } else if (Eat("-")) {
        std::optional<Expr> rhs = ParseProduct(depth);
        if (!rhs) return std::nullopt;
        lhs = *lhs - *rhs;
      } else {
        break;
      }
    }
    return lhs;
  }

  std::optional<Expr> ParseProduct(int depth) {
    std::optional<Expr> lhs = ParseUnary(depth);
    while (lhs) {
      enum { kMul, kDiv, kMod } op;
      if (Eat("//")) {
        op = kDiv;
      } else if (Eat("*")) {
        op = kMul;
        if (PeekIs('*')) return std::nullopt;  // `**`
      } else if (Eat("%")) {
        op = kMod;
      } else {
        if (PeekIs('/')) return std::nullopt;  // true division
        break;
      }
      std::optional<Expr> rhs = ParseUnary(depth);
      if (!rhs) return std::nullopt;
      lhs = op == kMul   ? *lhs * *rhs
            : op == kDiv ? Expr::FloorDiv(*lhs, *rhs)
                         : Expr::FloorMod(*lhs, *rhs);
    }
    return lhs;
  }

  std::optional<Expr> ParseUnary(int depth) {
    if (depth > kMaxParseDepth) return std::nullopt;
    if (Eat("-")) {
      std::optional<Expr> e = ParseUnary(depth + 1);
      if (!e) return std::nullopt;
      return -*e;
    }
    if (Eat("+")) return ParseUnary(depth + 1);
    return ParsePrimary(depth);
  }

  std::optional<Expr> ParsePrimary(int depth) {
    SkipSpace();
    if (pos_ >= text_.size()) return std::nullopt;
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      std::optional<Expr> e = ParseSum(depth + 1);
      if (!e || !Eat(")")) return std::nullopt;
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return ParseInt();
    if (!IsIdentStart(c)) return std::nullopt;
    std::string name = ParseIdent();
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '.') {
      if (name != "T") return std::nullopt;
      ++pos_;
      SkipSpace();
      if (pos_ >= text_.size() || !IsIdentStart(text_[pos_])) return std::nullopt;
      return ParseCall(ParseIdent(), depth);
    }
    if (PeekIs('(')) return std::nullopt;  // calls other than T.* are not shape arithmetic
    return Expr::Var(std::move(name));
  }

  std::optional<Expr> ParseCall(const std::string& fn, int depth) {
    static constexpr const char* kCasts[] = {"int8",  "int16",  "int32",  "int64",
                                             "uint8", "uint16", "uint32", "uint64"};
    if (!Eat("(")) return std::nullopt;
    std::vector<Expr> args;
    if (!Eat(")")) {
      while (true) {
        std::optional<Expr> e = ParseSum(depth + 1);
        if (!e) return std::nullopt;
        args.push_back(std::move(*e));
        if (Eat(")")) break;
        if (!Eat(",")) return std::nullopt;
      }
    }
    bool is_cast = std::find(std::begin(kCasts), std::end(kCasts), fn) != std::end(kCasts);
    if (is_cast) {
      if (args.size() != 1) return std::nullopt;
      return args[0];
    }
    if (args.size() != 2) return std::nullopt;
    if (fn == "min") return Expr::Min(args[0], args[1]);
    if (fn == "max") return Expr::Max(args[0], args[1]);
    if (fn == "floordiv") return Expr::FloorDiv(args[0], args[1]);
    if (fn == "floormod") return Expr::FloorMod(args[0], args[1]);
    return std::nullopt;
  }

  std::optional<Expr> ParseInt() {
    int64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      if (__builtin_mul_overflow(value, 10, &value) ||
          __builtin_add_overflow(value, text_[pos_] - '0', &value)) {
        return std::nullopt;
      }
      ++pos_;
    }
    if (pos_ < text_.size() && (IsIdentStart(text_[pos_]) || text_[pos_] == '.'))
      return std::nullopt;
    return Expr(value);
  }

  static bool IsIdentStart(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  }
  std::string ParseIdent() {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
      ++pos_;
    }
    return std::string(text_.substr(start, pos_ - start));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

std::optional<Expr> ParseExpr(std::string_view text) { return Parser(text).ParseAll(); }

}  // namespace tvmls::arith
