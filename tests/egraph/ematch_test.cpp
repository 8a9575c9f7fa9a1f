// E-matching (egraph/ematch.hpp): multi-patterns sharing variables,
// constants and repeated variables.
#include <gtest/gtest.h>

#include <fmt/format.h>

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

// A guard prunes as soon as its variables are bound: the same matches as
// filtering afterwards, and the program checks it right after the Bind that
// binds ?w1 (before the second part is scanned at all).
TEST(Matching, GuardsPruneAsSoonAsTheirVariablesAreBound) {
  EGraph g;
  g.add_expr("(mm a w1)");
  g.add_expr("(mm a w2)");
  g.add_expr("(mm a w3)");
  const Id w2 = g.add_expr("w2");  // the existing leaf
  g.rebuild();
  Matcher plain(MultiPattern::parse("?m1 = (mm ?x ?w1), ?m2 = (mm ?x ?w2)"));
  Matcher guarded = plain;
  size_t calls = 0;
  guarded.add_guard({*guarded.pattern().var_index("w1")},
                    [&](const EGraph& eg, std::span<const Id> ids) {
                      ++calls;
                      return eg.find(ids[0]) == w2;
                    });
  std::vector<Id> all, kept;
  EXPECT_EQ(plain.search(g, all), 9u);
  EXPECT_EQ(guarded.search(g, kept), 3u);  // ?w1 = w2, any ?w2
  EXPECT_EQ(calls, 3u);                    // once per first-part binding, not per match
  const size_t w1_slot = 1 + *plain.pattern().var_index("w1");
  size_t expected = 0;
  for (size_t off = 0; off < all.size(); off += plain.stride())
    expected += g.find(all[off + w1_slot]) == w2;
  EXPECT_EQ(expected, 3u);
  const std::string program = guarded.program_string();
  EXPECT_LT(program.find("guard g0"), program.rfind("scan"));
  // Two guards on one variable set both hold.
  guarded.add_guard(
      {*guarded.pattern().var_index("w1"), *guarded.pattern().var_index("w2")},
      [](const EGraph& eg, std::span<const Id> ids) { return eg.find(ids[0]) < eg.find(ids[1]); });
  kept.clear();
  EXPECT_EQ(guarded.search(g, kept), 1u);  // w2 with the one class after it
}

// A later part whose root has a variable the first part bound is a join: its classes are
// the parents of that variable's class (scan-parents), not every class with the op. It
// finds the same matches, in the same order, as a cross product filtered on ?x, also
// after unions merged two ?x classes and their parent lists.
TEST(Matching, ALaterPartJoinsOnTheParentsOfABoundVariable) {
  EGraph g;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 3; ++j) g.add_expr(fmt::format("(mm x{} w{}_{})", i, i, j));
  g.add_expr("(relu x0)");
  g.rebuild();
  Matcher m(MultiPattern::parse("?m1 = (mm ?x ?w1), ?m2 = (mm ?x ?w2)"));
  EXPECT_NE(m.program_string().find("scan-parents"), std::string::npos) << m.program_string();
  // The cross product by hand: pairs of mm classes with the same first child.
  auto expected = [&] {
    std::vector<std::pair<Id, Id>> pairs;
    const Symbol mm = Symbol::intern("mm");
    for (Id a : g.classes_with_op(mm))
      for (Id b : g.classes_with_op(mm))
        if (g.find(g.node(g.class_nodes_with_op(a, mm)[0]).children[0]) ==
            g.find(g.node(g.class_nodes_with_op(b, mm)[0]).children[0]))
          pairs.emplace_back(a, b);
    return pairs;
  };
  auto found = [&] {
    std::vector<Id> out;
    m.search(g, out);
    std::vector<std::pair<Id, Id>> pairs;
    const size_t m2 = 1 + *m.pattern().var_index("m2");
    for (size_t off = 0; off < out.size(); off += m.stride())
      pairs.emplace_back(g.find(out[off]), g.find(out[off + m2]));
    return pairs;
  };
  EXPECT_EQ(found(), expected());
  EXPECT_EQ(found().size(), 6u * 3 * 3);
  // x0 = x1: six mm share one ?x now.
  g.merge(g.add_expr("x0"), g.add_expr("x1"));
  g.rebuild();
  EXPECT_EQ(found(), expected());
  EXPECT_EQ(found().size(), 6u * 6 + 4 * 3 * 3);
}

}  // namespace
}  // namespace eqfuse
