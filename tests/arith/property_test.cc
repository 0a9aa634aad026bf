// Properties checked on random expressions (fixed seeds, so deterministic): canonical forms
// evaluate like the expression they came from, print/parse round trips, and the prover and
// Bound are sound on sampled assignments that satisfy the facts.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "arith/facts.h"

namespace tvmls::arith {
namespace {

const char* const kVars[] = {"a", "b", "c"};
using Assignment = std::map<std::string, Expr>;

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// A random expression: its canonical Expr and a reference evaluator (nullopt on division by 0).
struct Sample {
  Expr expr;
  std::function<std::optional<int64_t>(const std::map<std::string, int64_t>&)> eval;
};

Sample Random(std::mt19937* rng, int depth) {
  std::uniform_int_distribution<int> pick(0, depth <= 0 ? 1 : 8);
  int op = pick(*rng);
  if (op == 0) {
    int64_t v = std::uniform_int_distribution<int>(-6, 6)(*rng);
    return {Expr(v), [v](const auto&) { return std::optional<int64_t>(v); }};
  }
  if (op == 1) {
    std::string name = kVars[std::uniform_int_distribution<int>(0, 2)(*rng)];
    return {Expr::Var(name),
            [name](const auto& env) { return std::optional<int64_t>(env.at(name)); }};
  }
  Sample a = Random(rng, depth - 1), b = Random(rng, depth - 1);
  // Divisors are mostly small positive constants, as in shapes.
  if ((op == 5 || op == 6) && std::uniform_int_distribution<int>(0, 3)(*rng) != 0) {
    int64_t c = std::uniform_int_distribution<int>(1, 8)(*rng);
    b = {Expr(c), [c](const auto&) { return std::optional<int64_t>(c); }};
  }
  auto ea = a.eval, eb = b.eval;
  auto lift = [ea, eb](auto f) {
    return [ea, eb, f](const std::map<std::string, int64_t>& env) -> std::optional<int64_t> {
      std::optional<int64_t> x = ea(env), y = eb(env);
      if (!x || !y) return std::nullopt;
      return f(*x, *y);
    };
  };
  switch (op) {
    case 2:
      return {a.expr + b.expr,
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> { return x + y; })};
    case 3:
      return {a.expr - b.expr,
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> { return x - y; })};
    case 4:
      return {a.expr * b.expr,
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> { return x * y; })};
    case 5:
      return {Expr::FloorDiv(a.expr, b.expr),
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> {
                if (y == 0) return std::nullopt;
                return FloorDiv(x, y);
              })};
    case 6:
      return {Expr::FloorMod(a.expr, b.expr),
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> {
                if (y == 0) return std::nullopt;
                return x - y * FloorDiv(x, y);
              })};
    case 7:
      return {Expr::Min(a.expr, b.expr),
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> { return std::min(x, y); })};
    default:
      return {Expr::Max(a.expr, b.expr),
              lift([](int64_t x, int64_t y) -> std::optional<int64_t> { return std::max(x, y); })};
  }
}

Assignment ToExprs(const std::map<std::string, int64_t>& env) {
  Assignment out;
  for (const auto& [k, v] : env) out.emplace(k, Expr(v));
  return out;
}

TEST(Property, CanonicalFormEvaluatesLikeTheSource) {
  std::mt19937 rng(20240601);
  int checked = 0;
  for (int i = 0; i < 3000; ++i) {
    Sample s = Random(&rng, 4);
    ASSERT_FALSE(s.expr.IsOverflow());
    std::optional<Expr> again = ParseExpr(s.expr.ToString());
    ASSERT_TRUE(again) << s.expr.ToString();
    EXPECT_EQ(*again, s.expr) << s.expr.ToString() << " reads back as " << again->ToString();
    for (int k = 0; k < 4; ++k) {
      std::map<std::string, int64_t> env;
      for (const char* v : kVars) env[v] = std::uniform_int_distribution<int>(-20, 20)(rng);
      std::optional<int64_t> want = s.eval(env);
      if (!want) continue;
      std::optional<int64_t> got = s.expr.Substitute(ToExprs(env)).AsConst();
      ASSERT_TRUE(got) << s.expr.ToString();
      EXPECT_EQ(*got, *want) << s.expr.ToString() << " at a=" << env["a"] << " b=" << env["b"]
                             << " c=" << env["c"];
      ++checked;
    }
  }
  EXPECT_GT(checked, 5000);
}

TEST(Property, BoundAndProverAreSound) {
  std::mt19937 rng(7);
  int proved = 0, disproved = 0;
  for (int i = 0; i < 1500; ++i) {
    // Facts: a range per variable (sometimes open) and sometimes one linear fact.
    Facts facts;
    std::map<std::string, std::pair<int64_t, int64_t>> sample_range;
    for (const char* v : kVars) {
      int64_t lo = std::uniform_int_distribution<int>(-10, 10)(rng);
      int64_t hi = lo + std::uniform_int_distribution<int>(0, 15)(rng);
      bool open_lo = std::uniform_int_distribution<int>(0, 4)(rng) == 0;
      bool open_hi = std::uniform_int_distribution<int>(0, 4)(rng) == 0;
      facts.AddRange(v, Interval{open_lo ? std::nullopt : std::optional<int64_t>(lo),
                                 open_hi ? std::nullopt : std::optional<int64_t>(hi)});
      sample_range[v] = {open_lo ? lo - 30 : lo, open_hi ? hi + 30 : hi};
    }
    std::optional<Sample> fact;
    if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
      fact = Random(&rng, 2);
      facts.AddNonNegative(fact->expr);
    }
    Sample x = Random(&rng, 3), y = Random(&rng, 3);
    Tri le = facts.ProveLessEqual(x.expr, y.expr);
    Tri eq = facts.ProveEqual(x.expr, y.expr);
    Interval bound = facts.Bound(x.expr);
    proved += le == Tri::kProved;
    disproved += le == Tri::kDisproved;
    for (int k = 0; k < 30; ++k) {
      std::map<std::string, int64_t> env;
      for (const char* v : kVars) {
        auto [lo, hi] = sample_range[v];
        env[v] = std::uniform_int_distribution<int64_t>(lo, hi)(rng);
      }
      if (fact) {
        std::optional<int64_t> f = fact->eval(env);
        if (!f || *f < 0) continue;  // the assignment violates the fact
      }
      std::optional<int64_t> vx = x.eval(env), vy = y.eval(env);
      if (!vx || !vy) continue;
      std::string where = x.expr.ToString() + " vs " + y.expr.ToString() +
                          (fact ? " given " + fact->expr.ToString() + " >= 0" : "");
      EXPECT_TRUE(le != Tri::kProved || *vx <= *vy) << "proved " << where;
      EXPECT_TRUE(le != Tri::kDisproved || *vx > *vy) << "disproved " << where;
      EXPECT_TRUE(eq != Tri::kProved || *vx == *vy) << "proved equal " << where;
      EXPECT_TRUE(eq != Tri::kDisproved || *vx != *vy) << "disproved equal " << where;
      EXPECT_TRUE(!bound.lo || *vx >= *bound.lo) << "bound of " << x.expr.ToString();
      EXPECT_TRUE(!bound.hi || *vx <= *bound.hi) << "bound of " << x.expr.ToString();
    }
  }
  // The generator must exercise both outcomes, or the test proves nothing.
  EXPECT_GT(proved, 50);
  EXPECT_GT(disproved, 50);
}

}  // namespace
}  // namespace tvmls::arith
