// Bottom-up tree-cost extraction (egg's default extractor).
//
// Instead of iterating egg's fixpoint, this settles classes in increasing
// tree cost (Knuth's generalisation of Dijkstra to superior functions: a
// node's tree cost is its own cost plus its children's, never below any
// child's). A node becomes a candidate once all its child classes are
// settled, so each node is evaluated exactly once, the result is the least
// fixpoint of the tree costs, and the choice is acyclic by construction.
#include <algorithm>

#include "base/diagnostics.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace extract_detail {

void require_roots_chosen(const ExtractionProblem& p, const std::vector<NodeId>& choice) {
  for (ClassId r : p.roots())
    if (choice[r] == kNoNode)
      fail({}, "no acyclic extraction exists: root class '{}' has no finite derivation",
           p.class_name(r));
}

std::vector<NodeId> bottom_up_choice(const ExtractionProblem& p) {
  // Tree cost: the node's own cost plus each child's, shared children paid per use.
  std::vector<NodeId> choice = settle_bottom_up(p, [&p](NodeId n, const SettleState& st) {
    double cost = p.node_cost(n);
    for (ClassId d : p.children(n)) cost += st.best[d];
    return cost;
  });
  // Deep sharing overflows tree costs to +inf (they double per layer of a
  // stack); such classes take the least-depth derivation. Settled classes
  // only use settled ones, so the mix stays acyclic.
  std::vector<NodeId> fallback;
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    if (choice[c] != kNoNode) continue;
    if (fallback.empty()) fallback = derivable_choice(p);
    choice[c] = fallback[c];
  }
  return choice;
}

std::vector<NodeId> derivable_choice(const ExtractionProblem& p) {
  // Depth instead of cost: it cannot overflow, unlike tree costs on deep
  // sharing (a stack of 1000 layers doubles its tree cost per layer).
  return settle_bottom_up(p, [&p](NodeId n, const SettleState& st) {
    double depth = 0;
    for (ClassId d : p.children(n)) depth = std::max(depth, st.best[d]);
    return depth + 1;
  });
}

}  // namespace extract_detail

Extraction extract_bottom_up(const ExtractionProblem& p, const ExtractOptions&) {
  auto choice = extract_detail::bottom_up_choice(p);
  extract_detail::require_roots_chosen(p, choice);
  return finish_extraction(p, std::move(choice));
}

}  // namespace eqfuse
