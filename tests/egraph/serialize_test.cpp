// Export of e-graphs: egraph-serialize JSON (cross-checked with the
// extraction loader) and Graphviz DOT.
#include "egraph/serialize.hpp"

#include <map>
#include <set>

#include <gtest/gtest.h>

#include "egraph/runner.hpp"
#include "egraph/workloads.hpp"
#include "extract/problem.hpp"

namespace eqfuse {
namespace {

// An e-graph with merges, constants and a payload node.
void build_sample(EGraph& g, std::vector<Id>& roots) {
  Id t = g.add_expr("(+ (* x 2) (* y 2))");
  g.add(ENode(Symbol::intern("stream_op"), {g.add_expr("x")}, 7));
  g.rebuild();
  auto rules = math_rules();
  RunnerConfig cfg;
  cfg.limits.iterations = 3;
  Runner(g, cfg).run(rules);
  roots.push_back(t);
}

TEST(EGraphSerialize, RoundTripsThroughExtractionLoader) {
  EGraph g;
  std::vector<Id> roots;
  build_sample(g, roots);
  std::string json = to_egraph_serialize_json(g, roots);
  ExtractionProblem p = parse_egraph_serialize_json(json, "export");
  EXPECT_EQ(p.num_nodes(), g.num_nodes());
  EXPECT_EQ(p.num_classes(), g.num_classes());
  ASSERT_EQ(p.roots().size(), 1u);
  EXPECT_EQ(p.class_name(p.roots()[0]), std::to_string(g.find(roots[0])));

  // Every exported node has the same op label, class and child classes.
  size_t checked = 0;
  for (NodeId n = 0; n < p.num_nodes(); ++n) {
    Id id = static_cast<Id>(std::stoul(p.node_name(n).substr(1)));
    ASSERT_TRUE(g.node_alive(id));
    EXPECT_EQ(p.node_op(n), enode_label(g, id));
    EXPECT_EQ(p.class_name(p.node_class(n)), std::to_string(g.find(id)));
    auto want = g.node(id).children;
    auto got = p.children(n);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(p.class_name(got[i]), std::to_string(g.find(want[i])));
    }
    EXPECT_EQ(p.node_cost(n), 1.0);
    ++checked;
  }
  EXPECT_EQ(checked, g.num_nodes());
}

TEST(EGraphSerialize, UsesCostFunctionAndRejectsBadCosts) {
  EGraph g;
  Id root = g.add_expr("(f a (g b))");
  g.rebuild();
  std::vector<Id> roots{root};
  auto cost = [](const EGraph& eg, Id n) { return 1.0 + eg.node(n).children.size(); };
  nlohmann::json j = to_egraph_serialize(g, roots, cost);
  double total = 0;
  for (auto& [key, node] : j["nodes"].items()) total += node["cost"].get<double>();
  EXPECT_EQ(total, 1.0 + 1.0 + 2.0 + 3.0);  // leaves a, b; g has 1 child; f has 2
  auto negative = [](const EGraph&, Id) { return -1.0; };
  EXPECT_THROW(to_egraph_serialize(g, roots, negative), Error);
}

TEST(EGraphSerialize, ConstantsAndPayloadsHaveDistinctLabels) {
  EGraph g;
  Id a = g.add(ENode(Symbol::intern("op"), {}, 1));
  Id b = g.add(ENode(Symbol::intern("op"), {}, 2));
  Id c = g.add_constant(Constant::dtype(DType::Float16));
  g.rebuild();
  EXPECT_EQ(enode_label(g, a), "op@1");
  EXPECT_EQ(enode_label(g, b), "op@2");
  EXPECT_EQ(enode_label(g, c), "torch.float16");
}

TEST(EGraphSerialize, RequiresRebuild) {
  EGraph g;
  Id a = g.add_expr("a");
  Id b = g.add_expr("b");
  g.merge(a, b);
  std::vector<Id> roots{a};
  EXPECT_THROW(to_egraph_serialize(g, roots), Error);
  EXPECT_THROW(to_dot(g), Error);
}

TEST(EGraphSerialize, DotHasOneClusterPerClassAndOneBoxPerNode) {
  EGraph g;
  std::vector<Id> roots;
  build_sample(g, roots);
  std::string dot = to_dot(g);
  size_t clusters = 0, boxes = 0, edges = 0;
  for (size_t pos = 0; (pos = dot.find("subgraph cluster_", pos)) != std::string::npos; ++pos)
    ++clusters;
  for (size_t pos = 0; (pos = dot.find("[label=\"", pos)) != std::string::npos; ++pos) ++boxes;
  for (size_t pos = 0; (pos = dot.find(" -> ", pos)) != std::string::npos; ++pos) ++edges;
  size_t child_refs = 0;
  for (Id c : g.class_ids())
    for (Id n : g.class_nodes(c)) child_refs += g.node(n).children.size();
  EXPECT_EQ(clusters, g.num_classes());
  EXPECT_EQ(boxes, g.num_nodes() + child_refs);  // node boxes plus edge labels
  EXPECT_EQ(edges, child_refs);
  EXPECT_EQ(dot, to_dot(g));  // deterministic
}

}  // namespace
}  // namespace eqfuse
