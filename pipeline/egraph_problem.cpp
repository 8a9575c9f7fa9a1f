// Freezing a clean e-graph into an ExtractionProblem (pipeline/egraph_problem.hpp).
//
// Two passes: first the classes reachable from the roots through nodes that
// can be chosen (finite cost) are collected, then they are numbered in
// increasing e-graph id and their nodes added in increasing node id, so the
// problem depends only on the e-graph, not on hash or visit order.
#include "pipeline/egraph_problem.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

// A live node with its price; nodes priced +inf are never listed.
struct PricedNode {
  Id node;
  double cost;
};

std::string class_label(Id cls) {
  return fmt::format("#{}", cls);
}

double checked_cost(const EGraph& g, Id node, const EnodeCostFn& cost) {
  const double c = cost(node);
  if (std::isnan(c) || c < 0)
    fail({}, "e-node #{} ({}) has an invalid cost {}: costs must be finite and non-negative", node,
         g.node_op(node).str(), c);
  return c;
}

// The choosable nodes of a class, in increasing node id.
std::vector<PricedNode> priced_nodes(const EGraph& g, Id cls, const EnodeCostFn& cost) {
  std::vector<Id> ids(g.class_nodes(cls).begin(), g.class_nodes(cls).end());
  std::sort(ids.begin(), ids.end());
  std::vector<PricedNode> out;
  for (Id n : ids) {
    const double c = checked_cost(g, n, cost);
    if (std::isfinite(c)) out.push_back({n, c});
  }
  if (out.empty())
    fail({}, "e-class {} ({}) has no node with a finite cost, so it cannot be extracted",
         class_label(cls), g.term_string(cls));
  return out;
}

}  // namespace

Id EGraphProblem::chosen_node(const Extraction& x, Id cls) const {
  auto it = problem_class.find(cls);
  if (it == problem_class.end() || it->second >= x.choice.size()) return kNoId;
  const NodeId n = x.choice[it->second];
  return n == kNoNode ? kNoId : enode_of[n];
}

EGraphProblem build_problem(const EGraph& g, std::span<const Id> roots, const EnodeCostFn& cost) {
  if (!g.clean()) fail({}, "build_problem needs a rebuilt e-graph (call EGraph::rebuild first)");
  // Reachability, pricing each class's nodes once.
  absl::flat_hash_map<Id, std::vector<PricedNode>> nodes_of;
  std::vector<Id> stack;
  for (Id r : roots) stack.push_back(g.find(r));
  while (!stack.empty()) {
    const Id cls = stack.back();
    stack.pop_back();
    if (nodes_of.contains(cls)) continue;
    auto& list = nodes_of[cls] = priced_nodes(g, cls, cost);
    for (const PricedNode& pn : list)
      for (Id child : g.node(pn.node).children)
        if (!nodes_of.contains(g.find(child))) stack.push_back(g.find(child));
  }

  EGraphProblem ep;
  ep.eclass_of.reserve(nodes_of.size());
  for (const auto& entry : nodes_of) ep.eclass_of.push_back(entry.first);
  std::sort(ep.eclass_of.begin(), ep.eclass_of.end());

  ProblemBuilder b;
  for (Id cls : ep.eclass_of) ep.problem_class[cls] = b.add_class(class_label(cls));
  std::vector<ClassId> children;
  for (Id cls : ep.eclass_of) {
    for (const PricedNode& pn : nodes_of[cls]) {
      children.clear();
      for (Id child : g.node(pn.node).children)
        children.push_back(ep.problem_class.at(g.find(child)));
      b.add_node(g.node_op(pn.node).str(), ep.problem_class.at(cls), pn.cost, children,
                 fmt::format("n{}", pn.node));
      ep.enode_of.push_back(pn.node);
    }
  }
  std::vector<ClassId> seen_roots;
  for (Id r : roots) {
    const ClassId pc = ep.problem_class.at(g.find(r));
    if (std::find(seen_roots.begin(), seen_roots.end(), pc) != seen_roots.end()) continue;
    seen_roots.push_back(pc);
    b.add_root(pc);
  }
  ep.problem = std::move(b).build();
  return ep;
}

}  // namespace eqfuse
