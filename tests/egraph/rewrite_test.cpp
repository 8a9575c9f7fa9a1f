// Rewrites (egraph/rewrite.hpp): checking variables, `<=>` rules, and one
// match that asserts several equalities.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"

namespace eqfuse {
namespace {

TEST(Rewrites, UnboundRightSideVariableIsRejected) {
  try {
    Rewrite::parse("bad", "(+ ?a ?b)", "(+ ?a ?c)");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("?c"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("bad"), std::string::npos);
  }
  Condition cond{"pos", {"z"}, [](const EGraph&, std::span<const Id>) { return true; }};
  EXPECT_THROW(Rewrite::parse("bad-cond", "(+ ?a ?b)", "?a", {cond}), Error);
  // <=> checks both directions: ?b is unbound going right-to-left.
  EXPECT_THROW(parse_rules("bad-bi", "(f ?a ?b) <=> (g ?a)"), Error);
}

TEST(Rewrites, BidirectionalBuildsRev) {
  auto rules = parse_rules("comm", "(+ ?a ?b) <=> (+ ?b ?a)");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[0].name(), "comm");
  EXPECT_EQ(rules[1].name(), "comm-rev");
}

TEST(Rewrites, OneMatchSeveralEqualities) {
  EGraph g;
  Id fused_in = g.add_expr("(pair (norm x) (quant (norm x)))");
  (void)fused_in;
  Id norm = g.add_expr("(norm x)");
  Id quant = g.add_expr("(quant (norm x))");
  Rewrite rw = Rewrite::parse("fuse", "?n = (norm ?x), ?q = (quant ?n)",
                              "?n = (get0 (fused ?x)), ?q = (get1 (fused ?x))");
  g.rebuild();
  std::vector<Id> ms;
  ASSERT_EQ(rw.searcher().search(g, ms), 1u);
  uint32_t rid = g.register_rule(rw.name(), rw.vars());
  EXPECT_EQ(rw.apply_match(g, ms, rid), 2u);
  g.rebuild();
  EXPECT_EQ(g.find(norm), g.find(g.add_expr("(get0 (fused x))")));
  EXPECT_EQ(g.find(quant), g.find(g.add_expr("(get1 (fused x))")));
  g.check_invariants();
}

// A right side may use a variable computed from the match: (/ ?x ?c) => (* ?x ?r) with
// ?r = 1 / c added as a constant. The substitution recorded for the union holds ?r too.
TEST(Rewrites, ComputedVariableIsAddedAndRecorded) {
  EGraph g;
  Id div = g.add_expr("(/ a 4.0)");
  ComputedVar reciprocal{"r", {"c"}, [](EGraph& eg, std::span<const Id> c) -> std::optional<Id> {
                           std::optional<Constant> k = eg.constant_of(c[0]);
                           if (!k || k->kind != ConstKind::Float) return std::nullopt;
                           return eg.add_constant(Constant::floating(1.0 / k->as_float()));
                         }};
  Rewrite rw("div-as-mul", MultiPattern::parse("(/ ?x ?c)"), {reciprocal},
             {{"", Pattern::parse("(* ?x ?r)"), std::nullopt}});
  EXPECT_EQ(rw.subst_vars(), (std::vector<std::string>{"x", "c", "r"}));
  EXPECT_EQ(rw.subst_index("r"), 2u);
  g.rebuild();
  std::vector<Id> ms;
  ASSERT_EQ(rw.searcher().search(g, ms), 1u);
  uint32_t rid = g.register_rule(rw.name(), rw.subst_vars());
  EXPECT_EQ(rw.apply_match(g, ms, rid), 1u);
  g.rebuild();
  EXPECT_EQ(g.find(div), g.find(g.add_expr("(* a 0.25)")));
  EXPECT_EQ(g.union_log().back().subst_size, 3u);
  // A computed variable that declines skips the match; one reading an unbound variable,
  // or shadowing a bound one, is refused when the rewrite is built.
  EGraph h;
  h.add_expr("(/ a b)");
  h.rebuild();
  ms.clear();
  ASSERT_EQ(rw.searcher().search(h, ms), 1u);
  EXPECT_EQ(rw.apply_match(h, ms, h.register_rule(rw.name(), rw.subst_vars())), 0u);
  ComputedVar unbound{"r", {"z"}, reciprocal.compute};
  EXPECT_THROW(Rewrite("bad", MultiPattern::parse("(/ ?x ?c)"), {unbound},
                       {{"", Pattern::parse("(* ?x ?r)"), std::nullopt}}),
               Error);
  ComputedVar shadow{"x", {"c"}, reciprocal.compute};
  EXPECT_THROW(Rewrite("bad", MultiPattern::parse("(/ ?x ?c)"), {shadow},
                       {{"", Pattern::parse("(* ?x ?x)"), std::nullopt}}),
               Error);
}

}  // namespace
}  // namespace eqfuse
