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
// Sets are persistent, so memory stays linear in what the run adds: a set is
// a Version, its base (the set of its biggest child, shared, never copied)
// plus the entries it appends or changes. A chain of n classes holds n
// one-entry versions instead of n(n+1)/2 copied entries (a 20k-class chain
// took 3 GB). Which set holds which value is answered by walking a class's
// entries newest first to the first one made by an ancestor version; an
// ancestor test is O(log n) with skew-binary jump pointers (Myers, "An
// applicative random-access stack", 1983), one per version. Totals are
// summed in the order the published algorithm sums its copied sets (base
// total first, then the appended entries; a changed value sums the whole set
// again), so every total, and so every choice, is bit for bit the one the
// copying algorithm makes.
//
// Classes may still be updated many times and a node with several children
// still visits every entry of all but its biggest child's set, so the work
// can grow quadratically on deep DAGs that share little: the run stops (and
// returns no choice) once that work exceeds a budget proportional to the
// problem size.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <utility>

#include "base/diagnostics.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse::extract_detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNone = static_cast<std::uint32_t>(-1);

// One cost set: its base's entries with `delta` applied (a changed value
// keeps its position, a new class goes at the end).
struct Version {
  std::uint32_t base = kNone;  // kNone: a set of its own (a leaf's)
  std::uint32_t jump = 0;      // an ancestor, for ancestor tests in O(log n)
  std::uint32_t depth = 0;
  std::uint32_t size = 0;  // entries of the whole set
  std::uint32_t delta_begin = 0, delta_end = 0;
  double total = kInf;
  NodeId choice = kNoNode;
};

struct Entry {
  ClassId key;
  std::uint32_t pos;      // its place in the set's order (the published copy order)
  double value;           // the class's cost when the set was built
  std::uint32_t version;  // the version whose delta holds it
  std::uint32_t older;    // the previous entry for the same class, or kNone
};

// A pending entry of the candidate set being built.
struct Pending {
  ClassId key;
  std::uint32_t pos;
  double value;
  bool changes_base;  // overrides a different value of the base
};

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

class FasterGreedyDag {
 public:
  FasterGreedyDag(const ExtractionProblem& p, std::size_t budget)
      : p_(p),
        budget_(budget),
        set_of_(p.num_classes(), kNone),
        newest_(p.num_classes(), kNone),
        pos_(p.num_classes(), 0),
        stamp_(p.num_classes(), 0),
        seen_(p.num_classes(), 0),
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
      // The candidate set is built in pending_ and kept only when it wins.
      const double total = candidate(n, total_of(c));
      if (work_ > budget_) return {};
      if (!(total < total_of(c))) continue;
      commit(c, n, total);
      for (NodeId parent : p_.parents(c))
        if (all_children_have_sets(parent)) push(parent);
    }
    std::vector<NodeId> choice(p_.num_classes(), kNoNode);
    for (ClassId c = 0; c < p_.num_classes(); ++c)
      if (std::isfinite(total_of(c))) choice[c] = versions_[set_of_[c]].choice;
    return choice;
  }

 private:
  double total_of(ClassId c) const {
    return set_of_[c] == kNone ? kInf : versions_[set_of_[c]].total;
  }
  std::uint32_t size_of(ClassId c) const {
    return set_of_[c] == kNone ? 0 : versions_[set_of_[c]].size;
  }

  // The queue skips a node already queued at a cost no higher.
  void push(NodeId n) {
    const double cost = p_.node_cost(n);
    if (queued_cost_[n] <= cost) return;
    queued_cost_[n] = cost;
    queue_.emplace(cost, n);
  }

  bool all_children_have_sets(NodeId n) const {
    for (ClassId d : p_.children(n))
      if (set_of_[d] == kNone) return false;
    return true;
  }

  // ---- persistent sets -------------------------------------------------------

  // The ancestor of `v` (or `v` itself) at depth `d` <= depth(v).
  std::uint32_t ancestor_at(std::uint32_t v, std::uint32_t d) {
    while (versions_[v].depth > d) {
      ++work_;
      const std::uint32_t j = versions_[v].jump;
      v = versions_[j].depth >= d ? j : versions_[v].base;
    }
    return v;
  }

  bool is_ancestor_or_self(std::uint32_t a, std::uint32_t v) {
    return versions_[a].depth <= versions_[v].depth && ancestor_at(v, versions_[a].depth) == a;
  }

  // The entry set `v` holds for class `key`, or null. Along a version's
  // ancestors ids grow with depth, so the newest ancestor entry is the one
  // in force.
  const Entry* lookup(std::uint32_t v, ClassId key) {
    for (std::uint32_t e = newest_[key]; e != kNone; e = entries_[e].older) {
      ++work_;
      if (entries_[e].version <= v && is_ancestor_or_self(entries_[e].version, v))
        return &entries_[e];
    }
    return nullptr;
  }

  // Every entry of set `v` in its order, into ordered_ (key, value).
  void enumerate(std::uint32_t v) {
    ordered_.assign(versions_[v].size, {0, 0.0});
    ++seen_epoch_;
    for (std::uint32_t u = v; u != kNone; u = versions_[u].base) {
      for (std::uint32_t e = versions_[u].delta_begin; e < versions_[u].delta_end; ++e) {
        ++work_;
        const Entry& x = entries_[e];
        if (seen_[x.key] == seen_epoch_) continue;  // a newer version changed it
        seen_[x.key] = seen_epoch_;
        ordered_[x.pos] = {x.key, x.value};
      }
    }
  }

  void commit(ClassId c, NodeId n, double total) {
    const auto id = static_cast<std::uint32_t>(versions_.size());
    Version v;
    v.base = base_;
    if (base_ != kNone) {
      const Version& b = versions_[base_];
      const Version& j = versions_[b.jump];
      v.depth = b.depth + 1;
      v.jump = b.depth - j.depth == j.depth - versions_[j.jump].depth ? j.jump : base_;
    } else {
      v.jump = id;
    }
    v.size = size_;
    v.delta_begin = static_cast<std::uint32_t>(entries_.size());
    for (const Pending& x : pending_) {
      entries_.push_back(Entry{x.key, x.pos, x.value, id, newest_[x.key]});
      newest_[x.key] = static_cast<std::uint32_t>(entries_.size() - 1);
    }
    v.delta_end = static_cast<std::uint32_t>(entries_.size());
    v.total = total;
    v.choice = n;
    versions_.push_back(v);
    set_of_[c] = id;
  }

  // ---- the candidate -------------------------------------------------------

  // Adds (key, value) to the candidate over base_: later entries for a class
  // win, as in the published algorithm's copy.
  void insert(ClassId key, double value) {
    ++work_;
    if (stamp_[key] == epoch_) {  // met again: the later value, in the same place
      pending_[pos_[key]].value = value;
      return;
    }
    if (base_ != kNone) {
      if (const Entry* e = lookup(base_, key)) {
        if (same_bits(e->value, value)) return;  // the base holds it already
        stamp_[key] = epoch_;
        pos_[key] = static_cast<std::uint32_t>(pending_.size());
        pending_.push_back({key, e->pos, value, true});
        return;
      }
    }
    stamp_[key] = epoch_;
    pos_[key] = static_cast<std::uint32_t>(pending_.size());
    pending_.push_back({key, size_++, value, false});
  }

  // The sum of the candidate's entries in their order, as the copying
  // algorithm sums: the base's total stands for its entries unless one of
  // them changed value.
  double candidate_total() {
    const bool changed = std::any_of(pending_.begin(), pending_.end(),
                                     [](const Pending& x) { return x.changes_base; });
    if (!changed) {
      double total = base_ == kNone ? 0.0 : versions_[base_].total;
      for (const Pending& x : pending_) total += x.value;  // appended, in position order
      return total;
    }
    if (base_ != kNone) enumerate(base_);
    ordered_.resize(size_);
    for (const Pending& x : pending_) ordered_[x.pos] = {x.key, x.value};
    double total = 0;
    for (const auto& e : ordered_) total += e.second;
    work_ += ordered_.size();
    return total;
  }

  // The total of node n's cost set, its entries left in pending_ over base_;
  // +inf for the published algorithm's "junk" cases (a child is the node's
  // own class, a one-child node that cannot beat `best`, a set that already
  // holds the node's class).
  double candidate(NodeId n, double best) {
    const ClassId c = p_.node_class(n);
    pending_.clear();
    base_ = kNone;
    size_ = 0;
    ++epoch_;
    if (p_.children(n).empty()) {
      insert(c, p_.node_cost(n));
      return p_.node_cost(n);
    }
    kids_.assign(p_.children(n).begin(), p_.children(n).end());
    std::sort(kids_.begin(), kids_.end());
    kids_.erase(std::unique(kids_.begin(), kids_.end()), kids_.end());
    if (std::binary_search(kids_.begin(), kids_.end(), c)) return kInf;
    if (kids_.size() == 1 && p_.node_cost(n) + total_of(kids_[0]) > best) return kInf;
    // The biggest child set first (shared as the base), then the others in
    // class order; a class met again takes the later entry.
    const ClassId biggest = *std::max_element(
        kids_.begin(), kids_.end(), [&](ClassId a, ClassId b) { return size_of(a) < size_of(b); });
    base_ = set_of_[biggest];
    size_ = versions_[base_].size;
    if (lookup(base_, c)) return kInf;
    for (ClassId d : kids_) {
      if (d == biggest) continue;
      enumerate(set_of_[d]);  // insert() never enumerates: ordered_ stays put
      for (const auto& [key, value] : ordered_) insert(key, value);
    }
    if (stamp_[c] == epoch_) return kInf;
    insert(c, p_.node_cost(n));
    return candidate_total();
  }

  const ExtractionProblem& p_;
  std::size_t budget_;
  std::size_t work_ = 0;
  std::vector<Version> versions_;
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> set_of_;  // class -> its version, kNone before it has one
  std::vector<std::uint32_t> newest_;  // class -> its newest entry, kNone if none
  // The candidate being built.
  std::uint32_t base_ = kNone, size_ = 0;
  std::vector<Pending> pending_;
  std::vector<std::uint32_t> pos_, stamp_;  // class -> index in pending_, when stamped
  std::uint32_t epoch_ = 0;
  std::vector<std::uint32_t> seen_;  // enumerate()'s marks
  std::uint32_t seen_epoch_ = 0;
  std::vector<std::pair<ClassId, double>> ordered_;
  std::vector<double> queued_cost_;
  std::vector<ClassId> kids_;
  using QueueEntry = std::pair<double, NodeId>;
  std::priority_queue<QueueEntry, std::vector<QueueEntry>, std::greater<>> queue_;
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
