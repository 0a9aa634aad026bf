// Facts and the prover, driven by prove.txt (see the header of that file for its notation).
#include "arith/facts.h"

#include <gtest/gtest.h>

#include "arith/fact_syntax.h"
#include "arith/table.h"

namespace tvmls::arith {
namespace {

using testing::AddFacts;
using testing::Comparison;
using testing::ParseComparison;
using testing::ReadTable;
using testing::SplitTrim;

std::string EndString(const std::optional<int64_t>& v, const char* missing) {
  return v ? std::to_string(*v) : missing;
}

TEST(FactsTable, Prove) {
  auto rows = ReadTable("prove.txt");
  ASSERT_GE(rows.size(), 100u);
  for (const auto& row : rows) {
    ASSERT_EQ(row.cells.size(), 2u) << row.where;
    auto parts = SplitTrim(row.cells[0], ";");
    ASSERT_EQ(parts.size(), 2u) << row.where;
    Facts facts;
    ASSERT_TRUE(AddFacts(parts[0], &facts)) << row.where << ": bad facts";
    const std::string& claim = parts[1];
    const std::string& want = row.cells[1];
    if (claim.rfind("bound ", 0) == 0) {
      std::optional<Expr> e = ParseExpr(claim.substr(6));
      ASSERT_TRUE(e) << row.where;
      Interval b = facts.Bound(*e);
      EXPECT_EQ("[" + EndString(b.lo, "-inf") + ", " + EndString(b.hi, "inf") + "]", want)
          << row.where;
      continue;
    }
    std::optional<Comparison> c = ParseComparison(claim);
    ASSERT_TRUE(c) << row.where << ": bad claim " << claim;
    Tri got = Tri::kUnknown;
    if (c->op == "<=") got = facts.ProveLessEqual(c->lhs, c->rhs);
    if (c->op == ">=") got = facts.ProveLessEqual(c->rhs, c->lhs);
    if (c->op == "<") got = facts.ProveLess(c->lhs, c->rhs);
    if (c->op == ">") got = facts.ProveLess(c->rhs, c->lhs);
    if (c->op == "==") got = facts.ProveEqual(c->lhs, c->rhs);
    if (c->op == "!=") got = Not(facts.ProveEqual(c->lhs, c->rhs));
    EXPECT_EQ(ToString(got), want) << row.where << ": " << row.cells[0];
  }
}

TEST(Facts, Ranges) {
  Facts facts;
  EXPECT_TRUE(facts.RangeOf("n").IsEverything());
  facts.AddNonNegative("n");
  EXPECT_EQ(facts.RangeOf("n").lo, 0);
  EXPECT_FALSE(facts.RangeOf("n").hi);
  facts.AddRange("n", Interval{-5, 1024});
  EXPECT_EQ(facts.RangeOf("n").lo, 0);
  EXPECT_EQ(facts.RangeOf("n").hi, 1024);
  facts.AddRange("n", Interval{std::nullopt, 2048});
  EXPECT_EQ(facts.RangeOf("n").hi, 1024);
  facts.AddEqual(Expr::Var("m"), 7);
  EXPECT_EQ(facts.RangeOf("m").lo, 7);
  EXPECT_EQ(facts.RangeOf("m").hi, 7);
  EXPECT_EQ(facts.ProveNonNegative(Expr::Var("m") - 7), Tri::kProved);
  EXPECT_EQ(facts.ProveNonNegative(Expr::Var("m") - 8), Tri::kDisproved);
}

TEST(Facts, IgnoresOverflowAndConstants) {
  Facts facts;
  facts.AddNonNegative(Expr::Overflow());
  facts.AddNonNegative(Expr(-1));  // contradictory constants are dropped, not recorded
  facts.AddEqual(Expr::Overflow(), Expr::Var("n"));
  EXPECT_EQ(facts.ProveLessEqual(Expr::Var("n"), 4), Tri::kUnknown);
  EXPECT_EQ(facts.ProveEqual(Expr::Overflow(), Expr::Overflow()), Tri::kUnknown);
  EXPECT_TRUE(facts.Bound(Expr::Overflow()).IsEverything());
}

}  // namespace
}  // namespace tvmls::arith
