// E-matching (egraph/ematch.hpp): multi-patterns sharing variables,
// constants and repeated variables.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/ematch.hpp"
#include "egraph/pattern.hpp"

namespace eqfuse {
namespace {

TEST(Matching, MultiPatternSharesVariables) {
  EGraph g;
  g.add_expr("(mm a w1)");
  g.add_expr("(mm a w2)");
  g.add_expr("(mm b w3)");
  g.rebuild();
  Matcher m(MultiPattern::parse("?m1 = (mm ?x ?w1), ?m2 = (mm ?x ?w2)"));
  std::vector<Id> out;
  // Pairs sharing ?x: (a,w1)x(a,w1), (a,w1)x(a,w2), (a,w2)x(a,w1), (a,w2)x(a,w2), (b,w3)x(b,w3).
  EXPECT_EQ(m.search(g, out), 5u);
  EXPECT_EQ(out.size(), 5 * m.stride());
}

TEST(Matching, ConstantsAndRepeatedVariables) {
  EGraph g;
  Id e = g.add_expr("(+ (- y y) (* y 0))");
  (void)e;
  g.rebuild();
  std::vector<Id> out;
  EXPECT_EQ(Matcher(Pattern::parse("(- ?a ?a)")).search(g, out), 1u);
  EXPECT_EQ(Matcher(Pattern::parse("(* ?a 0)")).search(g, out), 1u);
  EXPECT_EQ(Matcher(Pattern::parse("(* ?a 1)")).search(g, out), 0u);
  EXPECT_EQ(Matcher(Pattern::parse("(- ?a ?b)")).search(g, out), 1u);
}

}  // namespace
}  // namespace eqfuse
