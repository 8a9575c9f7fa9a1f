// Bottom-up tree-cost extraction (egg's default extractor).
//
// Instead of iterating egg's fixpoint, this settles classes in increasing
// tree cost (Knuth's generalisation of Dijkstra to superior functions: a
// node's tree cost is its own cost plus its children's, never below any
// child's). A node becomes a candidate once all its child classes are
// settled, so each node is evaluated exactly once, the result is the least
// fixpoint of the tree costs, and the choice is acyclic by construction.
#include <limits>
#include <queue>

#include "extract/extractor.hpp"
#include "extract/internal.hpp"
#include "graph/diagnostics.hpp"

namespace eqfuse {
namespace extract_detail {

void require_roots_chosen(const ExtractionProblem& p, const std::vector<NodeId>& choice) {
  for (ClassId r : p.roots())
    if (choice[r] == kNoNode)
      fail({}, "no acyclic extraction exists: root class '{}' has no finite derivation",
           p.class_name(r));
}

std::vector<NodeId> bottom_up_choice(const ExtractionProblem& p) {
  const std::size_t nc = p.num_classes();
  const std::size_t nn = p.num_nodes();
  std::vector<NodeId> choice(nc, kNoNode);
  std::vector<double> best(nc, std::numeric_limits<double>::infinity());
  std::vector<std::uint32_t> pending(nn);  // child occurrences not yet settled
  std::vector<unsigned char> settled(nc, 0);
  using Entry = std::pair<double, ClassId>;  // ties broken by class id: deterministic
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;

  auto offer = [&](NodeId n) {
    double cost = p.node_cost(n);
    for (ClassId d : p.children(n)) cost += best[d];
    const ClassId c = p.node_class(n);
    if (settled[c] || !(cost < best[c])) return;
    best[c] = cost;
    choice[c] = n;
    heap.emplace(cost, c);
  };
  for (NodeId n = 0; n < nn; ++n) {
    pending[n] = static_cast<std::uint32_t>(p.children(n).size());
    if (pending[n] == 0) offer(n);
  }
  while (!heap.empty()) {
    const auto [cost, c] = heap.top();
    heap.pop();
    if (settled[c] || cost != best[c]) continue;
    settled[c] = 1;
    for (NodeId parent : p.parents(c))
      if (--pending[parent] == 0) offer(parent);
  }
  // Classes whose best tree cost overflowed to +inf were never settled.
  for (ClassId c = 0; c < nc; ++c)
    if (!settled[c]) choice[c] = kNoNode;
  return choice;
}

}  // namespace extract_detail

Extraction extract_bottom_up(const ExtractionProblem& p, const ExtractOptions&) {
  auto choice = extract_detail::bottom_up_choice(p);
  extract_detail::require_roots_chosen(p, choice);
  return finish_extraction(p, std::move(choice));
}

}  // namespace eqfuse
