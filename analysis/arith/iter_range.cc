// Exact extremes over an iteration space (arith/iter_range.h).
#include "arith/iter_range.h"

#include <algorithm>
#include <cstdint>
#include <set>

namespace tvmls::arith {

namespace {

int64_t FloorDivInt(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

bool AtomHasOpaque(const Atom& a) {
  if (a.kind == Atom::Kind::kOpaque) return true;
  for (const Expr& o : a.operands) {
    if (HasOpaque(o)) return true;
  }
  return false;
}

std::set<std::string> VarSet(const Expr& e, const IterSpace& space) {
  std::vector<std::string> v = IterVarsOf(e, space);
  return {v.begin(), v.end()};
}

std::optional<int64_t> EvaluateAtom(const Atom& a, const std::map<std::string, int64_t>& values) {
  if (a.kind == Atom::Kind::kVar) {
    auto it = values.find(a.name);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  if (a.kind == Atom::Kind::kOpaque) return std::nullopt;
  std::optional<int64_t> x = Evaluate(a.operands[0], values), y = Evaluate(a.operands[1], values);
  if (!x || !y) return std::nullopt;
  switch (a.kind) {
    case Atom::Kind::kFloorDiv:
      if (*y == 0 || (*x == INT64_MIN && *y == -1)) return std::nullopt;
      return FloorDivInt(*x, *y);
    case Atom::Kind::kFloorMod:
      if (*y == 0 || (*x == INT64_MIN && *y == -1)) return std::nullopt;
      return *x - FloorDivInt(*x, *y) * *y;
    case Atom::Kind::kMin:
      return std::min(*x, *y);
    case Atom::Kind::kMax:
      return std::max(*x, *y);
    default:
      return std::nullopt;
  }
}

// Extremes of one atom that mentions iteration variables.
std::optional<Extremes> AtomExtremes(const Atom& a, const IterSpace& space) {
  switch (a.kind) {
    case Atom::Kind::kVar: {
      auto it = space.find(a.name);
      if (it == space.end()) return std::nullopt;
      return Extremes{it->second.lo, it->second.hi};
    }
    case Atom::Kind::kFloorDiv: {
      std::optional<int64_t> c = a.operands[1].AsConst();
      if (!c || *c <= 0) return std::nullopt;
      auto x = ExactExtremes(a.operands[0], space);
      if (!x) return std::nullopt;
      return Extremes{Expr::FloorDiv(x->min, *c), Expr::FloorDiv(x->max, *c)};
    }
    case Atom::Kind::kFloorMod: {
      std::optional<int64_t> c = a.operands[1].AsConst();
      if (!c || *c <= 0) return std::nullopt;
      auto x = ExactExtremes(a.operands[0], space);
      if (!x) return std::nullopt;
      std::optional<int64_t> lo = x->min.AsConst(), hi = x->max.AsConst();
      if (!lo || !hi || FloorDivInt(*lo, *c) != FloorDivInt(*hi, *c)) return std::nullopt;
      return Extremes{Expr::FloorMod(*lo, *c), Expr::FloorMod(*hi, *c)};
    }
    default:
      return std::nullopt;
  }
}

bool Linear1(const Expr& g, const IterSpace& space, std::string* var, int64_t* k, int64_t* c) {
  *c = 0;
  int vars = 0;
  for (const auto& t : g.Terms()) {
    if (t.atoms.empty()) {
      *c = t.coef;
    } else if (t.atoms.size() == 1 && t.atoms[0].kind == Atom::Kind::kVar && space.count(t.atoms[0].name) &&
               vars == 0) {
      *var = t.atoms[0].name;
      *k = t.coef;
      ++vars;
    } else {
      return false;
    }
  }
  return vars == 1;
}

// Visits the constant domains of `vars` in order, calling f at each point; false when f stops.
template <typename F>
bool ForEachPoint(const std::vector<std::string>& vars, const IterSpace& space, size_t at,
                  std::map<std::string, int64_t>* point, F&& f) {
  if (at == vars.size()) return f(*point);
  const IterDomain& d = space.at(vars[at]);
  int64_t lo = *d.lo.AsConst(), hi = *d.hi.AsConst();
  for (int64_t v = lo; v <= hi; v += d.step) {
    (*point)[vars[at]] = v;
    if (!ForEachPoint(vars, space, at + 1, point, f)) return false;
  }
  return true;
}

}  // namespace

bool HasOpaque(const Expr& e) {
  if (e.IsOverflow()) return true;
  for (const auto& t : e.Terms()) {
    for (const Atom& a : t.atoms) {
      if (AtomHasOpaque(a)) return true;
    }
  }
  return false;
}

std::vector<std::string> IterVarsOf(const Expr& e, const IterSpace& space) {
  std::set<std::string> vars;
  e.CollectVars(&vars);
  std::vector<std::string> out;
  for (const std::string& v : vars) {
    if (space.count(v)) out.push_back(v);
  }
  return out;
}

std::optional<Extremes> ExactExtremes(const Expr& e, const IterSpace& space) {
  if (HasOpaque(e)) return std::nullopt;
  Expr lo, hi;
  std::set<std::string> used;
  for (const auto& t : e.Terms()) {
    Expr term = t.coef;
    for (const Atom& a : t.atoms) term = term * Expr::OfAtom(a);
    std::set<std::string> vars = VarSet(term, space);
    if (vars.empty()) {  // a symbolic constant
      lo = lo + term;
      hi = hi + term;
      continue;
    }
    if (t.atoms.size() != 1) return std::nullopt;
    for (const std::string& v : vars) {
      if (!used.insert(v).second) return std::nullopt;  // shared with another term
    }
    std::optional<Extremes> x = AtomExtremes(t.atoms[0], space);
    if (!x) return std::nullopt;
    if (t.coef > 0) {
      lo = lo + x->min * t.coef;
      hi = hi + x->max * t.coef;
    } else {
      lo = lo + x->max * t.coef;
      hi = hi + x->min * t.coef;
    }
  }
  if (lo.IsOverflow() || hi.IsOverflow()) return std::nullopt;
  return Extremes{lo, hi};
}

GuardEffect ApplyGuard(const Expr& g, IterSpace* space) {
  if (HasOpaque(g)) return GuardEffect::kOther;
  if (std::optional<int64_t> c = g.AsConst()) return *c >= 0 ? GuardEffect::kNone : GuardEffect::kEmpty;
  if (IterVarsOf(g, *space).empty()) return GuardEffect::kNone;
  std::string var;
  int64_t k = 0, c = 0;
  if (!Linear1(g, *space, &var, &k, &c)) return GuardEffect::kOther;
  IterDomain& d = space->at(var);
  std::optional<int64_t> lo = d.lo.AsConst(), hi = d.hi.AsConst();
  if (!lo || !hi || k == 0 || k == INT64_MIN || c == INT64_MIN) return GuardEffect::kOther;
  // k*v + c >= 0: v >= ceil(-c / k) for k > 0, v <= floor(c / -k) for k < 0.
  if (k > 0) {
    int64_t bound = -FloorDivInt(c, k);
    if (bound > *lo) *lo += ((bound - *lo) + d.step - 1) / d.step * d.step;
  } else {
    int64_t bound = FloorDivInt(c, -k);
    if (bound < *hi) {
      if (bound < *lo) return GuardEffect::kEmpty;
      *hi = *lo + (bound - *lo) / d.step * d.step;
    }
  }
  if (*lo > *hi) return GuardEffect::kEmpty;
  d.lo = *lo;
  d.hi = *hi;
  return GuardEffect::kNarrowed;
}

std::optional<int64_t> Evaluate(const Expr& e, const std::map<std::string, int64_t>& values) {
  if (e.IsOverflow()) return std::nullopt;
  int64_t sum = 0;
  for (const auto& t : e.Terms()) {
    int64_t term = t.coef;
    for (const Atom& a : t.atoms) {
      std::optional<int64_t> v = EvaluateAtom(a, values);
      if (!v || __builtin_mul_overflow(term, *v, &term)) return std::nullopt;
    }
    if (__builtin_add_overflow(sum, term, &sum)) return std::nullopt;
  }
  return sum;
}

std::optional<Extremes> EnumeratedExtremes(const Expr& e, const std::vector<Expr>& guards,
                                           const IterSpace& space, int64_t limit, bool* empty) {
  *empty = false;
  std::set<std::string> names;
  e.CollectVars(&names);
  for (const Expr& g : guards) g.CollectVars(&names);
  std::vector<std::string> vars(names.begin(), names.end());
  int64_t points = 1;
  for (const std::string& v : vars) {
    auto it = space.find(v);
    if (it == space.end()) return std::nullopt;  // a symbolic value
    std::optional<int64_t> lo = it->second.lo.AsConst(), hi = it->second.hi.AsConst();
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    int64_t n = (*hi - *lo) / it->second.step + 1;
    if (n > limit || __builtin_mul_overflow(points, n, &points) || points > limit) return std::nullopt;
  }
  std::optional<int64_t> lo, hi;
  bool failed = false;
  std::map<std::string, int64_t> point;
  ForEachPoint(vars, space, 0, &point, [&](const std::map<std::string, int64_t>& p) {
    for (const Expr& g : guards) {
      std::optional<int64_t> v = Evaluate(g, p);
      if (!v) {
        failed = true;
        return false;
      }
      if (*v < 0) return true;
    }
    std::optional<int64_t> v = Evaluate(e, p);
    if (!v) {
      failed = true;
      return false;
    }
    lo = lo ? std::min(*lo, *v) : *v;
    hi = hi ? std::max(*hi, *v) : *v;
    return true;
  });
  if (failed) return std::nullopt;
  if (!lo) {
    *empty = true;
    return std::nullopt;
  }
  return Extremes{*lo, *hi};
}

}  // namespace tvmls::arith
