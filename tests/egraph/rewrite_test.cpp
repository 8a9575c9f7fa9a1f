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

}  // namespace
}  // namespace eqfuse
