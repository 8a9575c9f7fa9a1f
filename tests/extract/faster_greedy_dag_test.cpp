// ctest-label: property
// extraction-gym's faster-greedy-dag (extract/faster_greedy_dag.cpp) keeps
// its cost sets persistent (a version per set over its biggest child's set)
// so memory stays linear. It must make exactly the choices of the published
// copying algorithm: this file keeps that algorithm (the implementation
// before the change, copying every set) as the reference and compares the
// two on random cyclic e-graphs with fractional costs, where summation order
// shows. A long chain, whose copied sets took n^2/2 entries (3 GB at 20k
// classes), must now run.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "extract/extractor.hpp"
#include "extract/internal.hpp"
#include "tests/support/random_problems.hpp"

namespace eqfuse {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct CostSet {
  std::vector<std::pair<ClassId, double>> entries;  // class -> cost, in insertion order
  double total = kInf;
  NodeId choice = kNoNode;
};

// The copying algorithm, as extract/faster_greedy_dag.cpp had it.
class CopyingFasterGreedyDag {
 public:
  CopyingFasterGreedyDag(const ExtractionProblem& p, std::size_t budget)
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

std::vector<NodeId> copying_choice(const ExtractionProblem& p) {
  return CopyingFasterGreedyDag(p, static_cast<std::size_t>(-1)).run();
}

// Up to four children per node; costs in tenths, which binary doubles do not
// hold exactly (tests/support/random_problems.hpp).
ExtractionProblem random_problem(std::mt19937& rng, int classes) {
  return testing_support::random_problem(
      rng, classes,
      {.max_arity = 4, .max_cost = 40, .cost_divisor = 10.0, .maybe_second_root = false});
}

TEST(FasterGreedyDag, ChoosesExactlyWhatTheCopyingAlgorithmChooses) {
  std::mt19937 rng(20261128);
  int compared = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const ExtractionProblem p = random_problem(rng, 2 + trial % 60);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::vector<NodeId> want = copying_choice(p);
    const std::vector<NodeId> got = extract_detail::faster_greedy_dag_choice(p, 1e300);
    ASSERT_EQ(got, want);
    compared += std::count_if(want.begin(), want.end(), [](NodeId n) { return n != kNoNode; });
  }
  EXPECT_GT(compared, 10'000);  // the trials chose something
}

// A chain of 100k classes, each with a cheap and a dear node over the one
// before: every set is the whole chain below it.
TEST(FasterGreedyDag, ALongChainRunsInLinearMemory) {
  constexpr int kClasses = 100'000;
  ProblemBuilder b;
  for (int c = 0; c < kClasses; ++c) b.add_class(fmt::format("c{}", c));
  b.add_node("x", 0, 1.0, {});
  for (ClassId c = 1; c < kClasses; ++c) {
    const ClassId below[] = {c - 1};
    b.add_node("f", c, 2.0, below);
    b.add_node("g", c, 1.0 + (c % 3) / 2.0, below);
  }
  b.add_root(kClasses - 1);
  const ExtractionProblem p = std::move(b).build();
  const Extraction x = extract_faster_greedy_dag(p);
  double want = 1.0;
  for (int c = 1; c < kClasses; ++c) want += std::min(2.0, 1.0 + (c % 3) / 2.0);
  EXPECT_DOUBLE_EQ(x.dag_cost, want);
  // greedy-dag runs it within a work budget proportional to the size: it
  // must fit now (it gave up on chains before).
  EXPECT_FALSE(extract_detail::faster_greedy_dag_choice(p, 64.0).empty());
}

}  // namespace
}  // namespace eqfuse
