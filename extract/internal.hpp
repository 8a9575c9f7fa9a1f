// Internal helpers shared by the extractor implementations (not part of the
// public extraction API; include extract/extractor.hpp instead).
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse::extract_detail {

// What a pricing function of settle_bottom_up may read: the best known cost
// and node per class. Entries of settled classes are final.
struct SettleState {
  std::vector<NodeId> choice;
  std::vector<double> best;
};

// The cheapest-first settle loop behind bottom-up and greedy-dag (Knuth's
// generalisation of Dijkstra): a node is priced once, when its last child
// class settles, by `price(node, state)`; the class keeps its cheapest
// candidate, and classes settle in increasing cost (ties by class id, so the
// result is deterministic). `price` must never return less than the cost of
// any child class (superior function); returning +inf skips the node.
// Returns the choice for every class that settled (kNoNode elsewhere), which
// is acyclic because a class only uses classes settled before it.
template <class Price>
std::vector<NodeId> settle_bottom_up(const ExtractionProblem& p, Price&& price) {
  const std::size_t nc = p.num_classes();
  const std::size_t nn = p.num_nodes();
  SettleState st{std::vector<NodeId>(nc, kNoNode),
                 std::vector<double>(nc, std::numeric_limits<double>::infinity())};
  std::vector<std::uint32_t> pending(nn);  // child occurrences not yet settled
  std::vector<unsigned char> settled(nc, 0);
  using Entry = std::pair<double, ClassId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;

  auto offer = [&](NodeId n) {
    const ClassId c = p.node_class(n);
    if (settled[c]) return;
    const double cost = price(n, static_cast<const SettleState&>(st));
    if (!(cost < st.best[c])) return;
    st.best[c] = cost;
    st.choice[c] = n;
    heap.emplace(cost, c);
  };
  for (NodeId n = 0; n < nn; ++n) {
    pending[n] = static_cast<std::uint32_t>(p.children(n).size());
    if (pending[n] == 0) offer(n);
  }
  while (!heap.empty()) {
    const auto [cost, c] = heap.top();
    heap.pop();
    if (settled[c] || cost != st.best[c]) continue;
    settled[c] = 1;
    for (NodeId parent : p.parents(c))
      if (--pending[parent] == 0) offer(parent);
  }
  // Classes whose best cost overflowed to +inf (or that sit on cycles only)
  // never settled.
  for (ClassId c = 0; c < nc; ++c)
    if (!settled[c]) st.choice[c] = kNoNode;
  return std::move(st.choice);
}

// Tree-cost-optimal choice for EVERY class that has an acyclic finite
// derivation (kNoNode for the others); classes whose tree cost overflows
// take their least-depth derivation. Acyclic over all classes, not only
// the reachable ones: each class's node uses only classes settled before it.
std::vector<NodeId> bottom_up_choice(const ExtractionProblem& p);

// A choice for EVERY class that has an acyclic derivation at all (least
// depth; unlike bottom_up_choice it never loses a class to a cost that
// overflows), kNoNode for the others. Acyclic like bottom_up_choice.
std::vector<NodeId> derivable_choice(const ExtractionProblem& p);

// Greedy DAG-cost choice for every derivable class (same acyclicity
// guarantee as bottom_up_choice).
std::vector<NodeId> greedy_dag_choice(const ExtractionProblem& p);

// extraction-gym's faster-greedy-dag (extract/faster_greedy_dag.cpp): the
// choice it makes, possibly cyclic, or an empty vector when it would copy
// more than work_factor * (nodes + classes) set entries.
std::vector<NodeId> faster_greedy_dag_choice(const ExtractionProblem& p, double work_factor);

// Cycles among the chosen nodes, one per back edge of a depth-first walk,
// each as the chosen nodes along it: the walk starts at the roots, then (unless
// roots_only) at every other chosen class. At most `max_cycles` are returned.
std::vector<std::vector<NodeId>> find_cycles(const ExtractionProblem& p,
                                             const std::vector<NodeId>& choice, bool roots_only,
                                             std::size_t max_cycles = static_cast<std::size_t>(-1));

// Throws eqfuse::Error naming the first root without a choice.
void require_roots_chosen(const ExtractionProblem& p, const std::vector<NodeId>& choice);

class Deadline {
 public:
  // Limits beyond ~30 years mean "none"; NaN or negative ones are already
  // passed. Clamping keeps the clock arithmetic from overflowing.
  explicit Deadline(double seconds)
      : end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(clamp_seconds(seconds)))) {}
  bool passed() const { return std::chrono::steady_clock::now() >= end_; }
  double remaining_s() const {
    return std::chrono::duration<double>(end_ - std::chrono::steady_clock::now()).count();
  }

 private:
  static double clamp_seconds(double s) { return s > 0 ? std::min(s, 1e9) : 0.0; }
  std::chrono::steady_clock::time_point end_;
};

}  // namespace eqfuse::extract_detail
