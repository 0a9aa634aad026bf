// Facts: variable ranges, linear facts, interval bounds and the three-valued prover.
#include "arith/facts.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <set>
#include <utility>

namespace tvmls::arith {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int kMaxSubstitutionRounds = 4;
constexpr size_t kMaxScaleCandidates = 8;

int64_t FloorDivInt(int64_t a, int64_t b) {  // b != 0, not (INT64_MIN, -1)
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// An interval end: a finite value or an infinity (inf = -1 or +1).
struct End {
  int inf = 0;
  int64_t v = 0;
};

int SignOf(End e) { return e.inf != 0 ? e.inf : (e.v > 0) - (e.v < 0); }
bool Less(End a, End b) {
  if (a.inf != b.inf) return a.inf < b.inf;
  return a.inf == 0 && a.v < b.v;
}
End LoEnd(const Interval& i) { return i.lo ? End{0, *i.lo} : End{-1, 0}; }
End HiEnd(const Interval& i) { return i.hi ? End{0, *i.hi} : End{1, 0}; }
// Interval ends from extended values. A lower end that overflowed upwards still bounds the value
// from below by INT64_MAX (and an upper end that overflowed downwards by INT64_MIN); any other
// infinity is a missing end.
std::optional<int64_t> LowerOf(End e) {
  if (e.inf == 0) return e.v;
  if (e.inf > 0) return kMax;
  return std::nullopt;
}
std::optional<int64_t> UpperOf(End e) {
  if (e.inf == 0) return e.v;
  if (e.inf < 0) return kMin;
  return std::nullopt;
}

End Mul(End a, End b) {
  int sign = SignOf(a) * SignOf(b);
  if (sign == 0) return End{0, 0};
  if (a.inf != 0 || b.inf != 0) return End{sign, 0};
  int64_t r;
  if (__builtin_mul_overflow(a.v, b.v, &r)) return End{sign, 0};
  return End{0, r};
}

// Sum of two ends of the same side; `lower` says which side, for saturation on overflow.
std::optional<int64_t> AddEnds(const std::optional<int64_t>& a, const std::optional<int64_t>& b,
                               bool lower) {
  if (!a || !b) return std::nullopt;
  int64_t r;
  if (!__builtin_add_overflow(*a, *b, &r)) return r;
  bool upwards = *a > 0;
  if (lower && upwards) return kMax;
  if (!lower && !upwards) return kMin;
  return std::nullopt;
}

Interval Add(const Interval& a, const Interval& b) {
  return {AddEnds(a.lo, b.lo, true), AddEnds(a.hi, b.hi, false)};
}

Interval Mul(const Interval& a, const Interval& b) {
  End c[4] = {Mul(LoEnd(a), LoEnd(b)), Mul(LoEnd(a), HiEnd(b)), Mul(HiEnd(a), LoEnd(b)),
              Mul(HiEnd(a), HiEnd(b))};
  End lo = *std::min_element(c, c + 4, Less);
  End hi = *std::max_element(c, c + 4, Less);
  return {LowerOf(lo), UpperOf(hi)};
}

Interval Point(int64_t v) { return {v, v}; }

Interval Pow(const Interval& x, size_t power) {
  Interval r = x;
  for (size_t i = 1; i < power; ++i) r = Mul(r, x);
  if (power % 2 == 0 && !(r.lo && *r.lo > 0)) r.lo = 0;
  return r;
}

std::optional<int64_t> MinOpt(const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
  return a && b ? std::optional<int64_t>(std::min(*a, *b)) : std::nullopt;
}
std::optional<int64_t> MaxOpt(const std::optional<int64_t>& a, const std::optional<int64_t>& b) {
  return a && b ? std::optional<int64_t>(std::max(*a, *b)) : std::nullopt;
}
// min/max where a missing value is the neutral infinity.
std::optional<int64_t> MinPresent(const std::optional<int64_t>& a,
                                  const std::optional<int64_t>& b) {
  return a && b ? std::min(*a, *b) : (a ? a : b);
}
std::optional<int64_t> MaxPresent(const std::optional<int64_t>& a,
                                  const std::optional<int64_t>& b) {
  return a && b ? std::max(*a, *b) : (a ? a : b);
}

Interval FloorDivBound(const Interval& x, const Interval& d) {
  if (d.lo && d.hi && *d.lo == *d.hi && *d.lo != 0) {
    int64_t c = *d.lo;
    if (c == -1) return Mul(x, Point(-1));
    auto div = [c](const std::optional<int64_t>& v) {
      return v ? std::optional<int64_t>(FloorDivInt(*v, c)) : std::nullopt;
    };
    return c > 0 ? Interval{div(x.lo), div(x.hi)} : Interval{div(x.hi), div(x.lo)};
  }
  if (!d.lo || *d.lo < 1) return {};
  Interval r;
  if (x.lo) {
    if (*x.lo >= 0) {
      r.lo = d.hi ? FloorDivInt(*x.lo, *d.hi) : 0;
    } else {
      r.lo = FloorDivInt(*x.lo, *d.lo);
    }
  }
  if (x.hi) {
    if (*x.hi >= 0) {
      r.hi = FloorDivInt(*x.hi, *d.lo);
    } else {
      r.hi = d.hi ? FloorDivInt(*x.hi, *d.hi) : -1;
    }
  }
  return r;
}

Interval FloorModBound(const Interval& x, const Interval& d) {
  if (d.lo && d.hi && *d.lo == *d.hi && *d.lo < 0) {
    if (*d.lo == kMin) return {};
    return {*d.lo + 1, 0};
  }
  if (!d.lo || *d.lo < 1) return {};
  Interval r{0, d.hi ? std::optional<int64_t>(*d.hi - 1) : std::nullopt};
  if (x.lo && *x.lo >= 0) {
    r.hi = MinPresent(r.hi, x.hi);
    // Entirely below the smallest divisor: the value itself.
    if (x.hi && *x.hi < *d.lo) r.lo = x.lo;
  }
  return r;
}

bool IsLinearInOneVar(const Expr& e, std::string* var, int64_t* coef, int64_t* constant) {
  *constant = 0;
  int vars = 0;
  for (const auto& t : e.Terms()) {
    if (t.atoms.empty()) {
      *constant = t.coef;
    } else if (t.atoms.size() == 1 && t.atoms[0].kind == Atom::Kind::kVar && vars == 0) {
      *var = t.atoms[0].name;
      *coef = t.coef;
      ++vars;
    } else {
      return false;
    }
  }
  return vars == 1;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Recording facts

void Facts::AddNonNegative(const std::string& name) { AddRange(name, Interval{0, std::nullopt}); }

void Facts::AddRange(const std::string& name, Interval range) {
  auto it = ranges_.find(name);
  if (it == ranges_.end()) {
    ranges_.emplace(name, range);
    return;
  }
  it->second.lo = MaxPresent(it->second.lo, range.lo);
  it->second.hi = MinPresent(it->second.hi, range.hi);
}

void Facts::AddNonNegative(const Expr& e) {
  if (e.IsOverflow() || e.IsConst()) return;
  std::string var;
  int64_t k = 0, c = 0;
  if (IsLinearInOneVar(e, &var, &k, &c)) {
    // k*v + c >= 0.
    if (k > 0 && c != kMin) {
      AddRange(var, Interval{-FloorDivInt(c, k), std::nullopt});
    } else if (k < 0 && k != kMin) {
      AddRange(var, Interval{std::nullopt, FloorDivInt(c, -k)});
    }
  }
  if (std::find(non_negative_.begin(), non_negative_.end(), e) == non_negative_.end()) {
    non_negative_.push_back(e);
  }
}

void Facts::AddEqual(const Expr& a, const Expr& b) {
  if (a.IsOverflow() || b.IsOverflow()) return;
  AddNonNegative(a - b);
  AddNonNegative(b - a);
  auto record = [this](const Expr& var_side, const Expr& value) {
    std::optional<std::string> var = var_side.AsVar();
    if (!var) return false;
    std::set<std::string> vars;
    value.CollectVars(&vars);
    if (vars.count(*var) != 0) return false;
    equal_.emplace(*var, value);
    return true;
  };
  if (!record(a, b)) record(b, a);
}

// ---------------------------------------------------------------------------------------------
// Bounds

Interval Facts::RangeOf(const std::string& name) const {
  auto it = ranges_.find(name);
  return it == ranges_.end() ? Interval{} : it->second;
}

Interval Facts::BoundAtom(const Atom& atom) const {
  switch (atom.kind) {
    case Atom::Kind::kVar:
      return RangeOf(atom.name);
    case Atom::Kind::kOpaque:
      return {};
    case Atom::Kind::kFloorDiv:
      return FloorDivBound(Bound(atom.operands[0]), Bound(atom.operands[1]));
    case Atom::Kind::kFloorMod:
      return FloorModBound(Bound(atom.operands[0]), Bound(atom.operands[1]));
    case Atom::Kind::kMin: {
      Interval a = Bound(atom.operands[0]), b = Bound(atom.operands[1]);
      return {MinOpt(a.lo, b.lo), MinPresent(a.hi, b.hi)};
    }
    case Atom::Kind::kMax: {
      Interval a = Bound(atom.operands[0]), b = Bound(atom.operands[1]);
      return {MaxPresent(a.lo, b.lo), MaxOpt(a.hi, b.hi)};
    }
  }
  return {};
}

Interval Facts::Bound(const Expr& e) const {
  if (e.IsOverflow()) return {};
  Interval sum = Point(0);
  for (const auto& t : e.Terms()) {
    Interval term = Point(t.coef);
    for (size_t i = 0; i < t.atoms.size();) {
      size_t j = i + 1;
      while (j < t.atoms.size() && t.atoms[j] == t.atoms[i]) ++j;
      term = Mul(term, Pow(BoundAtom(t.atoms[i]), j - i));
      i = j;
    }
    sum = Add(sum, term);
    if (sum.IsEverything()) break;
  }
  return sum;
}

// ---------------------------------------------------------------------------------------------
// Proofs

namespace {

// Does x >= 0 follow from f >= 0 and the ranges? Tries c*x - k*f >= 0 for c, k > 0: (1, 1) and,
// for each monomial both share with coefficients of the same sign, the pair that cancels it.
bool Dominates(const Facts& facts, const Expr& x, const Expr& f) {
  std::vector<std::pair<int64_t, int64_t>> scales = {{1, 1}};
  for (const auto& tx : x.Terms()) {
    if (tx.atoms.empty()) continue;
    for (const auto& tf : f.Terms()) {
      if (tf.atoms.size() != tx.atoms.size() || !(tf.atoms == tx.atoms)) continue;
      if ((tx.coef > 0) != (tf.coef > 0) || tx.coef == kMin || tf.coef == kMin) break;
      int64_t ax = std::abs(tx.coef), af = std::abs(tf.coef);
      int64_t g = std::gcd(ax, af);
      std::pair<int64_t, int64_t> s{af / g, ax / g};
      if (std::find(scales.begin(), scales.end(), s) == scales.end()) scales.push_back(s);
      break;
    }
    if (scales.size() >= kMaxScaleCandidates) break;
  }
  for (const auto& [c, k] : scales) {
    Expr t = x * c - f * k;
    if (t.IsOverflow()) continue;
    Interval b = facts.Bound(t);
    if (b.lo && *b.lo >= 0) return true;
  }
  return false;
}

// When every term of `e` has the variable factor v and v >= 0 is known, e == v * q: returns q.
// (`m * 80 - m * n * 4` gives `80 - n * 4`.) Tries the variables in atom order; nullopt when
// there is a constant term or no such variable.
std::optional<Expr> FactorNonNegativeVar(const Facts& facts, const Expr& e) {
  const auto& terms = e.Terms();
  if (terms.empty() || terms.front().atoms.empty()) return std::nullopt;
  for (const Atom& candidate : terms.front().atoms) {
    if (candidate.kind != Atom::Kind::kVar) continue;
    Interval range = facts.RangeOf(candidate.name);
    if (!range.lo || *range.lo < 0) continue;
    Expr quotient;
    bool in_every_term = true;
    for (const auto& t : terms) {
      auto it = std::find(t.atoms.begin(), t.atoms.end(), candidate);
      if (it == t.atoms.end()) {
        in_every_term = false;
        break;
      }
      Expr term(t.coef);
      for (auto a = t.atoms.begin(); a != t.atoms.end(); ++a) {
        if (a != it) term = term * Expr::OfAtom(*a);
      }
      quotient = quotient + term;
    }
    if (in_every_term && !quotient.IsOverflow()) return quotient;
  }
  return std::nullopt;
}

}  // namespace

Tri Facts::ProveNonNegativeOnce(const Expr& e) const {
  if (e.IsOverflow()) return Tri::kUnknown;
  if (std::optional<int64_t> c = e.AsConst()) return *c >= 0 ? Tri::kProved : Tri::kDisproved;
  Interval b = Bound(e);
  if (b.lo && *b.lo >= 0) return Tri::kProved;
  if (b.hi && *b.hi < 0) return Tri::kDisproved;
  Expr negated = -e - 1;  // e < 0  <=>  -e - 1 >= 0
  for (const Expr& f : non_negative_) {
    if (Dominates(*this, e, f)) return Tri::kProved;
    if (!negated.IsOverflow() && Dominates(*this, negated, f)) return Tri::kDisproved;
  }
  // v * q >= 0 when v >= 0 and q >= 0 (only a proof: v may be 0, so q < 0 disproves nothing).
  if (std::optional<Expr> q = FactorNonNegativeVar(*this, e)) {
    if (ProveNonNegativeOnce(*q) == Tri::kProved) return Tri::kProved;
  }
  return Tri::kUnknown;
}

Tri Facts::ProveNonNegative(const Expr& e) const {
  Tri t = ProveNonNegativeOnce(e);
  if (t != Tri::kUnknown || equal_.empty()) return t;
  Expr s = e;
  for (int round = 0; round < kMaxSubstitutionRounds; ++round) {
    Expr next = s.Substitute(equal_);
    if (next == s) break;
    s = std::move(next);
  }
  if (s == e) return t;
  return ProveNonNegativeOnce(s);
}

Tri Facts::ProveLessEqual(const Expr& a, const Expr& b) const {
  if (a.IsOverflow() || b.IsOverflow()) return Tri::kUnknown;
  return ProveNonNegative(b - a);
}

Tri Facts::ProveLess(const Expr& a, const Expr& b) const {
  if (a.IsOverflow() || b.IsOverflow()) return Tri::kUnknown;
  return ProveLessEqual(a + 1, b);
}

Tri Facts::ProveEqual(const Expr& a, const Expr& b) const {
  if (a.IsOverflow() || b.IsOverflow()) return Tri::kUnknown;
  Expr diff = a - b;
  if (diff.IsOverflow()) return Tri::kUnknown;
  if (std::optional<int64_t> c = diff.AsConst()) return *c == 0 ? Tri::kProved : Tri::kDisproved;
  Tri ge = ProveNonNegative(diff);
  if (ge == Tri::kDisproved) return Tri::kDisproved;
  Tri le = ProveNonNegative(-diff);
  if (le == Tri::kDisproved) return Tri::kDisproved;
  return ge == Tri::kProved && le == Tri::kProved ? Tri::kProved : Tri::kUnknown;
}

}  // namespace tvmls::arith
