// Freezing an e-graph into an ExtractionProblem (pipeline/egraph_problem.hpp):
// reachability, deterministic numbering, +inf nodes, errors, and mapping an
// extraction back to e-graph nodes.
#include "pipeline/egraph_problem.hpp"

#include <limits>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "extract/checker.hpp"

namespace eqfuse {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double unit_cost(Id) {
  return 1.0;
}

// (+ a b) with a second form (* a 2) for the same class, and an unrelated z.
struct Small {
  EGraph g;
  Id a, b, sum, twice, z;
  Small() {
    a = g.add_expr("a");
    b = g.add_expr("b");
    sum = g.add_expr("(+ a b)");
    twice = g.add_expr("(* a 2)");
    z = g.add_expr("(neg z)");
    g.merge(sum, twice);
    g.rebuild();
  }
};

TEST(EGraphProblem, OnlyClassesReachableFromTheRootsInIdOrder) {
  Small s;
  const Id root = s.g.find(s.sum);
  EGraphProblem ep = build_problem(s.g, std::vector<Id>{root}, unit_cost);
  // a, b, 2 and the merged class; not z nor (neg z).
  ASSERT_EQ(ep.problem.num_classes(), 4u);
  EXPECT_EQ(ep.problem.num_nodes(), 5u);
  for (size_t c = 1; c < ep.eclass_of.size(); ++c) EXPECT_LT(ep.eclass_of[c - 1], ep.eclass_of[c]);
  for (size_t c = 0; c < ep.eclass_of.size(); ++c) {
    EXPECT_EQ(ep.problem_class.at(ep.eclass_of[c]), c);
    EXPECT_EQ(ep.problem.class_name(static_cast<ClassId>(c)), fmt::format("#{}", ep.eclass_of[c]));
  }
  EXPECT_FALSE(ep.problem_class.contains(s.g.find(s.z)));
  ASSERT_EQ(ep.problem.roots().size(), 1u);
  EXPECT_EQ(ep.eclass_of[ep.problem.roots()[0]], root);
  // Nodes of the merged class in increasing e-graph id, children mapped.
  const auto nodes = ep.problem.class_nodes(ep.problem_class.at(root));
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(ep.enode_of[nodes[0]], s.sum);
  EXPECT_EQ(ep.enode_of[nodes[1]], s.twice);
  EXPECT_EQ(ep.problem.node_op(nodes[0]), "+");
  const auto kids = ep.problem.children(nodes[0]);
  ASSERT_EQ(kids.size(), 2u);
  EXPECT_EQ(ep.eclass_of[kids[0]], s.g.find(s.a));
  EXPECT_EQ(ep.eclass_of[kids[1]], s.g.find(s.b));
}

TEST(EGraphProblem, RootsAreCanonicalisedAndDeduplicated) {
  Small s;
  // `twice` is no longer canonical after the merge (or is the root itself).
  EGraphProblem ep = build_problem(s.g, std::vector<Id>{s.twice, s.sum, s.a}, unit_cost);
  ASSERT_EQ(ep.problem.roots().size(), 2u);
  EXPECT_EQ(ep.eclass_of[ep.problem.roots()[0]], s.g.find(s.sum));
  EXPECT_EQ(ep.eclass_of[ep.problem.roots()[1]], s.g.find(s.a));
}

TEST(EGraphProblem, InfiniteCostNodesAreLeftOut) {
  Small s;
  auto no_products = [&](Id n) { return s.g.node_op(n).str() == "*" ? kInf : 1.0; };
  EGraphProblem ep = build_problem(s.g, std::vector<Id>{s.sum}, no_products);
  EXPECT_EQ(ep.problem.num_nodes(), 3u);  // a, b, +
  // The constant 2 is only reachable through the product: not included.
  EXPECT_EQ(ep.problem.num_classes(), 3u);
  EXPECT_EQ(ep.problem.class_nodes(ep.problem_class.at(s.g.find(s.sum))).size(), 1u);
}

TEST(EGraphProblem, ChosenNodeMapsAnExtractionBack) {
  Small s;
  auto cheap_product = [&](Id n) { return s.g.node_op(n).str() == "*" ? 0.5 : 1.0; };
  EGraphProblem ep = build_problem(s.g, std::vector<Id>{s.sum}, cheap_product);
  const Extraction x = extract(ep.problem, "bottom-up");
  ASSERT_TRUE(check_extraction(ep.problem, x.choice).valid);
  EXPECT_DOUBLE_EQ(x.dag_cost, 0.5 + 1.0 + 1.0);  // (* a 2): product, a, 2
  EXPECT_EQ(ep.chosen_node(x, s.g.find(s.sum)), s.twice);
  EXPECT_EQ(ep.chosen_node(x, s.g.find(s.a)), s.a);
  EXPECT_EQ(ep.chosen_node(x, s.g.find(s.b)), kNoId);  // not used by the choice
  EXPECT_EQ(ep.chosen_node(x, s.g.find(s.z)), kNoId);  // not in the problem
}

TEST(EGraphProblem, ClassWithoutFiniteNodeIsAnErrorNamingIt) {
  Small s;
  auto no_b = [&](Id n) { return s.g.node_op(n).str() == "b" ? kInf : 1.0; };
  // Through (* a 2) the class is still extractable, but b itself is
  // reachable through (+ a b) and has no node left.
  try {
    build_problem(s.g, std::vector<Id>{s.sum}, no_b);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("e-class #{}", s.g.find(s.b))),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("no node with a finite cost"), std::string::npos);
  }
}

TEST(EGraphProblem, NegativeOrNanCostIsAnError) {
  Small s;
  EXPECT_THROW(build_problem(s.g, std::vector<Id>{s.sum}, [](Id) { return -1.0; }), Error);
  EXPECT_THROW(build_problem(s.g, std::vector<Id>{s.sum},
                             [](Id) { return std::numeric_limits<double>::quiet_NaN(); }),
               Error);
}

TEST(EGraphProblem, NeedsARebuiltEGraph) {
  Small s;
  s.g.merge(s.a, s.b);
  EXPECT_THROW(build_problem(s.g, std::vector<Id>{s.sum}, unit_cost), Error);
}

TEST(EGraphProblem, SameEGraphGivesTheSameProblem) {
  Small s;
  EGraphProblem p1 = build_problem(s.g, std::vector<Id>{s.sum, s.z}, unit_cost);
  EGraphProblem p2 = build_problem(s.g, std::vector<Id>{s.sum, s.z}, unit_cost);
  EXPECT_EQ(p1.enode_of, p2.enode_of);
  EXPECT_EQ(p1.eclass_of, p2.eclass_of);
  for (NodeId n = 0; n < p1.problem.num_nodes(); ++n)
    EXPECT_EQ(p1.problem.node_name(n), p2.problem.node_name(n));
}

}  // namespace
}  // namespace eqfuse
