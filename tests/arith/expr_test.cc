// Expr: canonical forms and printing (driven by simplify.txt), plus the API around them.
#include "arith/expr.h"

#include <gtest/gtest.h>

#include "arith/table.h"

namespace tvmls::arith {
namespace {

using testing::ReadTable;

Expr P(std::string_view text) {
  std::optional<Expr> e = ParseExpr(text);
  EXPECT_TRUE(e) << "cannot parse: " << text;
  return e ? *e : Expr::Overflow();
}

TEST(ExprTable, Simplify) {
  auto rows = ReadTable("simplify.txt");
  ASSERT_GE(rows.size(), 100u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.cells.size(), 2u) << row.where;
    std::optional<Expr> e = ParseExpr(row.cells[0]);
    const std::string& want = row.cells[1];
    if (want == "<none>") {
      EXPECT_FALSE(e) << row.where << ": parsed as " << e->ToString();
      continue;
    }
    ASSERT_TRUE(e) << row.where << ": cannot parse " << row.cells[0];
    if (want == "<overflow>") {
      EXPECT_TRUE(e->IsOverflow()) << row.where << ": got " << e->ToString();
      continue;
    }
    EXPECT_FALSE(e->IsOverflow()) << row.where;
    EXPECT_EQ(e->ToString(), want) << row.where;
    // The printed form is TVMScript that reads back to the same canonical Expr.
    std::optional<Expr> again = ParseExpr(e->ToString());
    ASSERT_TRUE(again) << row.where << ": printed form does not parse: " << e->ToString();
    EXPECT_EQ(*again, *e) << row.where << ": round trip gives " << again->ToString();
  }
}

TEST(Expr, ConstantsAndVars) {
  EXPECT_EQ(Expr(), Expr(0));
  EXPECT_EQ(Expr().AsConst(), 0);
  EXPECT_EQ(Expr(7).AsConst(), 7);
  EXPECT_TRUE(Expr(-3).IsConst());
  EXPECT_FALSE(Expr::Var("n").IsConst());
  EXPECT_EQ(Expr::Var("n").AsVar(), "n");
  EXPECT_FALSE((Expr::Var("n") * 2).AsVar());
  EXPECT_FALSE(Expr(3).AsVar());
  EXPECT_EQ(Expr::Var("n") * 2, Expr::Var("n") + Expr::Var("n"));
  EXPECT_NE(Expr::Var("n"), Expr::Var("m"));
  EXPECT_NE(Expr::Var("n"), Expr::Opaque("n"));
}

TEST(Expr, Overflow) {
  Expr o = Expr::Overflow();
  EXPECT_TRUE(o.IsOverflow());
  EXPECT_EQ(o, Expr::Overflow());
  EXPECT_NE(o, Expr(0));
  EXPECT_FALSE(o.IsConst());
  EXPECT_TRUE((o - o).IsOverflow());
  EXPECT_TRUE((o * 0).IsOverflow());
  EXPECT_TRUE(Expr::FloorDiv(o, 4).IsOverflow());
  EXPECT_TRUE(Expr::Max(1, o).IsOverflow());
  EXPECT_TRUE((-Expr(INT64_MIN)).IsOverflow());
  EXPECT_TRUE(Expr::FloorDiv(INT64_MIN, -1).IsOverflow());
  EXPECT_EQ(Expr::FloorMod(INT64_MIN, -1), Expr(0));
  EXPECT_FALSE(o.HasVars());
}

TEST(Expr, TotalOrder) {
  std::vector<Expr> all;
  for (const char* text : {"0", "1", "-1", "n", "m", "n * 2", "n + 1", "n * m", "n // 4", "n % 4",
                           "T.min(n, 4)", "T.max(n, 4)", "n * n", "m + n"}) {
    all.push_back(P(text));
  }
  all.push_back(Expr::Opaque("x"));
  for (const Expr& a : all) {
    EXPECT_FALSE(a < a) << a.ToString();
    for (const Expr& b : all) {
      if (a == b) continue;
      EXPECT_NE(a < b, b < a) << a.ToString() << " vs " << b.ToString();
    }
  }
}

TEST(Expr, CollectVarsAndSubstitute) {
  Expr e = P("n * 4 + T.min(m, 8) // k + 1");
  std::set<std::string> vars;
  e.CollectVars(&vars);
  EXPECT_EQ(vars, (std::set<std::string>{"k", "m", "n"}));
  EXPECT_TRUE(e.HasVars());
  EXPECT_FALSE(P("3 * 4").HasVars());
  EXPECT_FALSE(Expr::Opaque("x.y").HasVars());

  EXPECT_EQ(e.Substitute({{"n", 2}, {"m", 20}, {"k", 4}}), Expr(11));
  EXPECT_EQ(e.Substitute({{"n", P("a - 1")}}).ToString(), "a * 4 + T.min(m, 8) // k - 3");
  EXPECT_EQ(P("n * 2").Substitute({{"n", P("m // 2")}}).ToString(), "m // 2 * 2");
  EXPECT_EQ(P("(n * 4 + 3) % 4").Substitute({{"n", 5}}), Expr(3));
  EXPECT_EQ(P("n // 4").Substitute({{"n", P("m * 4")}}), P("m"));
  EXPECT_EQ(P("n").Substitute({}), P("n"));
  EXPECT_TRUE(P("n * 2").Substitute({{"n", INT64_MAX}}).IsOverflow());
  EXPECT_EQ(Expr::Opaque("n").Substitute({{"n", 1}}), Expr::Opaque("n"));
}

TEST(Expr, Builders) {
  Expr n = Expr::Var("n");
  EXPECT_EQ(Expr::FloorDiv(n * 4 + 3, 4), n);
  EXPECT_EQ(Expr::FloorMod(n * 4 + 3, 4), Expr(3));
  EXPECT_EQ(Expr::Min(n, 4).ToString(), "T.min(n, 4)");
  EXPECT_EQ(Expr::Max(n, n + 2), n + 2);
  EXPECT_EQ(Expr::FloorDiv(n, 0).ToString(), "n // 0");
  EXPECT_EQ((n * 4).Terms().size(), 1u);
  EXPECT_EQ((n * 4 + 1).Terms().front().coef, 1);  // constant first internally
  EXPECT_TRUE((n * 4 + 1).Terms().front().atoms.empty());
}

TEST(Expr, ParseDepthLimit) {
  std::string deep(10000, '(');
  deep += "n";
  deep += std::string(10000, ')');
  EXPECT_FALSE(ParseExpr(deep));
  std::string minus(10000, '-');
  EXPECT_FALSE(ParseExpr(minus + "n"));
  EXPECT_TRUE(ParseExpr("((((n))))"));
}

TEST(Tri, Logic) {
  const Tri p = Tri::kProved, d = Tri::kDisproved, u = Tri::kUnknown;
  EXPECT_EQ(Not(p), d);
  EXPECT_EQ(Not(d), p);
  EXPECT_EQ(Not(u), u);
  EXPECT_EQ(And(p, p), p);
  EXPECT_EQ(And(p, u), u);
  EXPECT_EQ(And(u, d), d);
  EXPECT_EQ(Or(d, d), d);
  EXPECT_EQ(Or(u, p), p);
  EXPECT_EQ(Or(d, u), u);
  EXPECT_STREQ(ToString(p), "proved");
  EXPECT_STREQ(ToString(d), "disproved");
  EXPECT_STREQ(ToString(u), "unknown");
}

}  // namespace
}  // namespace tvmls::arith
