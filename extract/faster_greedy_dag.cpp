// extraction-gym's "faster-greedy-dag" extractor, re-implemented on the flat
// ExtractionProblem as the reference our greedy-dag must never lose to
// (docs/extraction.md "greedy-dag").
//
// The published algorithm: every class keeps a cost SET (class -> cost of the
// node chosen for it when the set was built) and the set's total. Leaves
// start the analysis; nodes are popped from a priority queue ordered by their
// own cost; a node whose children all have sets gets the union of its
// children's sets plus its own class, and replaces its class's set when the
// total is lower, which queues the class's parents again. Sets are snapshots,
// so the final choices can differ from what the totals assumed, and they can
// even form a cycle; callers check the result.
//
// Unlike the greedy pass of greedy_dag.cpp, classes may be updated many times
// and every set is materialised, so the work can grow quadratically on deep
// graphs: the run stops (and returns no choice) once the set entries it has
// copied exceed a budget proportional to the problem size.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "extract/extractor.hpp"
#include "extract/internal.hpp"
#include "base/diagnostics.hpp"

namespace eqfuse::extract_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct CostSet {
  std::vector<std::pair<ClassId, double>> entries;  // class -> cost, in insertion order
  double total = kInf;
  NodeId choice = kNoNode;
};

class FasterGreedyDag {
 public:
  FasterGreedyDag(const ExtractionProblem& p, std::size_t budget)
      : p_(p),
        budget_(budget),
        sets_(p.num_classes()),
        pos_(p.num_classes(), 0),
        stamp_(p.num_classes(), 0),
        queued_cost_(p.num_nodes(), kInf) {}

  // The choice per class (kNoNode where no set was found), or an empty
  // vector when the work budget ran out.
  std::vector<NodeId> run() {
    for (NodeId n = 0; n < p_.num_nodes(); ++n)
      if (p_.children(n).empty()) push(n);
    while (!queue_.empty()) {
      const NodeId n = queue_.top().second;
      queue_.pop();
      queued_cost_[n] = kInf;
      const ClassId c = p_.node_class(n);
      // The candidate set is built in scratch_ and copied only when it wins.
      const double total = candidate(n, sets_[c].total);
      if (work_ > budget_) return {};
      if (!(total < sets_[c].total)) continue;
      sets_[c].entries.assign(scratch_.begin(), scratch_.end());
      sets_[c].total = total;
      sets_[c].choice = n;
      for (NodeId parent : p_.parents(c))
        if (all_children_have_sets(parent)) push(parent);
    }
    std::vector<NodeId> choice(p_.num_classes(), kNoNode);
    for (ClassId c = 0; c < p_.num_classes(); ++c)
      if (std::isfinite(sets_[c].total)) choice[c] = sets_[c].choice;
    return choice;
  }

 private:
  // The queue skips a node already queued at a cost no higher.
  void push(NodeId n) {
    const double cost = p_.node_cost(n);
    if (queued_cost_[n] <= cost) return;
    queued_cost_[n] = cost;
    queue_.emplace(cost, n);
  }

  bool all_children_have_sets(NodeId n) const {
    for (ClassId d : p_.children(n))
      if (!std::isfinite(sets_[d].total)) return false;
    return true;
  }

  // The total of node n's cost set, left in scratch_; +inf for the
  // published algorithm's "junk" cases (a child is the node's own class, a
  // one-child node that cannot beat `best`, a set that already holds the
  // node's class).
  double candidate(NodeId n, double best) {
    const ClassId c = p_.node_class(n);
    scratch_.clear();
    if (p_.children(n).empty()) {
      scratch_.emplace_back(c, p_.node_cost(n));
      return p_.node_cost(n);
    }
    kids_.assign(p_.children(n).begin(), p_.children(n).end());
    std::sort(kids_.begin(), kids_.end());
    kids_.erase(std::unique(kids_.begin(), kids_.end()), kids_.end());
    if (std::binary_search(kids_.begin(), kids_.end(), c)) return kInf;
    if (kids_.size() == 1 && p_.node_cost(n) + sets_[kids_[0]].total > best) return kInf;
    // The biggest child set first, then the others in class order; a class
    // met again takes the later entry.
    const ClassId biggest = *std::max_element(
        kids_.begin(), kids_.end(),
        [&](ClassId a, ClassId b) { return sets_[a].entries.size() < sets_[b].entries.size(); });
    ++epoch_;
    auto insert = [&](ClassId key, double value) {
      ++work_;
      if (stamp_[key] == epoch_) {
        scratch_[pos_[key]].second = value;
        return;
      }
      stamp_[key] = epoch_;
      pos_[key] = static_cast<std::uint32_t>(scratch_.size());
      scratch_.emplace_back(key, value);
    };
    for (const auto& [key, value] : sets_[biggest].entries) insert(key, value);
    for (ClassId d : kids_)
      if (d != biggest)
        for (const auto& [key, value] : sets_[d].entries) insert(key, value);
    if (stamp_[c] == epoch_) return kInf;
    insert(c, p_.node_cost(n));
    double total = 0;
    for (const auto& e : scratch_) total += e.second;
    return total;
  }

  const ExtractionProblem& p_;
  std::size_t budget_;
  std::size_t work_ = 0;
  std::vector<CostSet> sets_;
  std::vector<std::pair<ClassId, double>> scratch_;
  std::vector<std::uint32_t> pos_, stamp_;
  std::uint32_t epoch_ = 0;
  std::vector<double> queued_cost_;
  std::vector<ClassId> kids_;
  using Entry = std::pair<double, NodeId>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue_;
};

}  // namespace

std::vector<NodeId> faster_greedy_dag_choice(const ExtractionProblem& p, double work_factor) {
  const double size = static_cast<double>(p.num_nodes() + p.num_classes());
  const auto budget = static_cast<std::size_t>(std::min(work_factor * size, 1e15));
  return FasterGreedyDag(p, budget).run();
}

}  // namespace eqfuse::extract_detail

namespace eqfuse {

Extraction extract_faster_greedy_dag(const ExtractionProblem& p, const ExtractOptions&) {
  // As a stand-alone extractor it runs without a budget (it is the
  // reference); an unfinished or cyclic run is an error, as in extraction-gym.
  auto choice = extract_detail::faster_greedy_dag_choice(p, 1e300);
  extract_detail::require_roots_chosen(p, choice);
  Extraction x = finish_extraction(p, std::move(choice));
  if (!std::isfinite(x.dag_cost))
    throw Error("faster-greedy-dag: the choice it made is cyclic or incomplete");
  return x;
}

}  // namespace eqfuse
