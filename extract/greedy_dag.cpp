// Greedy DAG-cost extraction plus a local-improvement pass.
//
// Greedy pass (the "faster-greedy-dag" idea of extraction-gym): every class
// has the SET of classes its current extraction uses, and its cost is the sum
// of those classes' node costs, so shared sub-terms are paid once. Classes are
// settled in increasing set cost (a node's set contains its children's sets,
// so its cost is never below theirs, the same monotonicity bottom-up relies
// on). A node is evaluated once, when its last child class settles: its set
// is the union of its children's sets plus its own class. Settled choices
// never change again, so a settled class's set is exactly the sub-DAG its
// chosen node reaches: it is walked when needed instead of stored (one-child
// nodes need no walk at all), and the choice is acyclic by construction.
//
// Local improvement: reference counts over the chosen edges give the exact
// DAG cost change of re-choosing one class (classes that become unreachable
// are subtracted, newly reachable ones added), so single-class moves that
// lower the total are applied while a work budget lasts. A topological rank
// per class keeps the check that a move creates no cycle cheap.
#include <algorithm>
#include <limits>

#include "extract/components.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace extract_detail {
namespace {

double estimated_union_cost(const ExtractionProblem& p, NodeId n, const SettleState& st) {
  ClassId dearest = p.children(n)[0];
  for (ClassId d : p.children(n))
    if (st.best[d] > st.best[dearest]) dearest = d;
  double cost = st.best[dearest];
  const auto kids = p.children(n);
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (kids[i] != dearest &&
        std::find(kids.begin(), kids.begin() + i, kids[i]) == kids.begin() + i)
      cost += p.node_cost(st.choice[kids[i]]);
  return cost;
}

}  // namespace

std::vector<NodeId> greedy_dag_choice(const ExtractionProblem& p) {
  const std::size_t nc = p.num_classes();
  std::vector<std::uint32_t> stamp(nc, 0), set_stamp(nc, 0);
  std::uint32_t epoch = 0, set_epoch = 0;
  std::vector<std::vector<ClassId>> set_of(nc);  // materialised sets of settled classes
  std::vector<unsigned char> has_set(nc, 0), too_big(nc, 0);
  std::vector<ClassId> stack;
  // Sets of deep graphs grow with depth (a stack of layers: every layer's
  // set holds all layers below), so materialising them all is quadratic in
  // time and memory. Set entries made or copied are budgeted in total and
  // per set; a union that would need a set beyond the budget is estimated.
  const std::size_t total_budget = 64 * (p.num_nodes() + nc);
  constexpr std::size_t kMaxSetSize = 4096;
  std::size_t used = 0;

  // The set of a settled class is exactly what its chosen node reaches, so it
  // is only materialised when a node with several children needs it (chains
  // of one-child nodes never do), reusing the sets already materialised
  // below. Null when it is over the budget.
  auto class_set = [&](ClassId d,
                       const std::vector<NodeId>& choice) -> const std::vector<ClassId>* {
    if (has_set[d]) return &set_of[d];
    if (too_big[d]) return nullptr;
    ++set_epoch;
    auto& out = set_of[d];
    auto give_up = [&]() -> const std::vector<ClassId>* {
      std::vector<ClassId>().swap(out);
      too_big[d] = 1;
      return nullptr;
    };
    auto add = [&](ClassId z) {
      out.push_back(z);
      ++used;
      return out.size() <= kMaxSetSize && used <= total_budget;
    };
    stack.assign(1, d);
    set_stamp[d] = set_epoch;
    while (!stack.empty()) {
      const ClassId x = stack.back();
      stack.pop_back();
      if (!add(x)) return give_up();
      for (ClassId y : p.children(choice[x])) {
        if (set_stamp[y] == set_epoch) continue;
        set_stamp[y] = set_epoch;
        if (too_big[y]) return give_up();
        if (!has_set[y]) {
          stack.push_back(y);
          continue;
        }
        for (ClassId z : set_of[y])
          if (z == y || set_stamp[z] != set_epoch) {
            set_stamp[z] = set_epoch;
            if (!add(z)) return give_up();
          }
      }
    }
    has_set[d] = 1;
    return &out;
  };
  // The cost of the union of the children's sets. Over the budget it is
  // estimated as the dearest child's set plus the other children's own
  // nodes (as if everything below them were shared).
  auto union_cost = [&](NodeId n, const SettleState& st) {
    ++epoch;
    double cost = 0;
    for (ClassId d : p.children(n)) {
      if (stamp[d] == epoch) continue;
      const std::vector<ClassId>* set = class_set(d, st.choice);
      if (set == nullptr) return estimated_union_cost(p, n, st);
      for (ClassId x : *set)
        if (stamp[x] != epoch) {
          stamp[x] = epoch;
          cost += p.node_cost(st.choice[x]);
        }
    }
    return cost;
  };
  // Priced when all children are settled. The node's own class is not
  // settled yet, so it cannot be inside a child's set: no cycle is possible.
  constexpr double kSkip = std::numeric_limits<double>::infinity();
  return settle_bottom_up(p, [&](NodeId n, const SettleState& st) {
    const ClassId c = p.node_class(n);
    const auto kids = p.children(n);
    double lower = 0;  // the union costs at least as much as its dearest child set
    bool one_child = true;
    for (ClassId d : kids) {
      lower = std::max(lower, st.best[d]);
      one_child = one_child && d == kids[0];
    }
    if (!(p.node_cost(n) + lower < st.best[c])) return kSkip;  // cannot improve
    return p.node_cost(n) + (one_child ? lower : union_cost(n, st));
  });
}

namespace {

// Reference-counted view of a global acyclic choice, supporting tentative
// single-class moves with exact DAG-cost deltas and undo.
class MoveEvaluator {
 public:
  MoveEvaluator(const ExtractionProblem& p, std::vector<NodeId> choice)
      : p_(p),
        choice_(std::move(choice)),
        ref_(p.num_classes(), 0),
        rank_(p.num_classes(), 0),
        scc_(strongly_connected_classes(p)) {
    for (ClassId r : p_.roots()) inc(r);
    undo_.clear();
    revived_.clear();
    recompute_ranks();
  }

  bool live(ClassId c) const { return ref_[c] > 0; }
  const std::vector<NodeId>& choice() const { return choice_; }
  std::size_t work() const { return work_; }

  // True if choosing node b for class c keeps the choice graph acyclic.
  bool acyclic_if(ClassId c, NodeId b) {
    if (ranks_dirty_) recompute_ranks();
    bool needs_search = false;
    for (ClassId d : p_.children(b)) {
      if (choice_[d] == kNoNode || d == c) return false;
      // Only a class of c's strongly connected component can lead back to c.
      if (scc_[d] == scc_[c] && rank_[d] >= rank_[c]) needs_search = true;
    }
    if (!needs_search) return true;
    // Ranks fall along chosen edges, so a path back to c only visits classes
    // ranked at or above c.
    ++epoch_;
    if (seen_.size() < p_.num_classes()) seen_.assign(p_.num_classes(), 0);
    std::vector<ClassId> stack;
    for (ClassId d : p_.children(b))
      if (scc_[d] == scc_[c] && rank_[d] >= rank_[c]) stack.push_back(d);
    while (!stack.empty()) {
      const ClassId x = stack.back();
      stack.pop_back();
      if (x == c) return false;
      if (seen_[x] == epoch_) continue;
      seen_[x] = epoch_;
      ++work_;
      for (ClassId y : p_.children(choice_[x]))
        if (scc_[y] == scc_[c] && rank_[y] >= rank_[c] && seen_[y] != epoch_) stack.push_back(y);
    }
    return true;
  }

  // Applies c := b (on top of earlier uncommitted moves) and returns the
  // change of the total DAG cost. Classes it makes reachable again are listed
  // in revived().
  double apply(ClassId c, NodeId b) {
    const NodeId old = choice_[c];
    moves_.push_back({c, old, undo_.size(), false});
    revived_.clear();
    delta_ = p_.node_cost(b) - p_.node_cost(old);
    choice_[c] = b;
    for (ClassId d : p_.children(b)) inc(d);
    for (ClassId d : p_.children(old)) dec(d);
    for (ClassId d : p_.children(b))
      if (scc_[d] == scc_[c] && rank_[d] >= rank_[c]) {
        ranks_dirty_ = true;  // recomputed lazily, before the next cycle check
        moves_.back().reranked = true;
        break;
      }
    return delta_;
  }
  const std::vector<ClassId>& revived() const { return revived_; }
  std::size_t pending_moves() const { return moves_.size(); }

  // Reverts the most recent uncommitted move.
  void undo() {
    const Move m = moves_.back();
    moves_.pop_back();
    work_ += undo_.size() - m.undo_start;
    for (std::size_t i = undo_.size(); i > m.undo_start; --i)
      ref_[undo_[i - 1].first] = undo_[i - 1].second;
    undo_.resize(m.undo_start);
    choice_[m.eclass] = m.old_node;
    if (m.reranked) ranks_dirty_ = true;
  }

  // Keeps every uncommitted move.
  void commit() {
    moves_.clear();
    undo_.clear();
  }

 private:
  void touch(ClassId d) { undo_.emplace_back(d, ref_[d]); }

  // Adds one reference to `start`; a class that comes back to life is
  // recorded, costs its node again and references its children.
  void inc(ClassId start) {
    propagate(start, [this](ClassId d) {
      if (ref_[d]++ > 0) return false;
      revived_.push_back(d);
      delta_ += p_.node_cost(choice_[d]);
      return true;
    });
  }

  // Drops one reference from `start`; a class left unreferenced stops
  // costing and releases its children.
  void dec(ClassId start) {
    propagate(start, [this](ClassId d) {
      if (--ref_[d] > 0) return false;
      delta_ -= p_.node_cost(choice_[d]);
      return true;
    });
  }

  // The walk inc and dec share: `update(d)` changes d's count (undoably,
  // via touch) and says whether the change reaches d's chosen children.
  template <class Update>
  void propagate(ClassId start, Update update) {
    stack_.assign(1, start);
    while (!stack_.empty()) {
      const ClassId d = stack_.back();
      stack_.pop_back();
      ++work_;
      touch(d);
      if (!update(d)) continue;
      for (ClassId e : p_.children(choice_[d])) stack_.push_back(e);
    }
  }

  // Ranks over every class with a choice: the height above the leaves
  // (1 + the highest child), so children rank lower. Heights, unlike a DFS
  // numbering, rank a class nobody uses yet (a fused kernel) below the
  // classes that could switch to it, so such a move keeps the ranks valid.
  void recompute_ranks() {
    const std::size_t nc = p_.num_classes();
    std::vector<unsigned char> done(nc, 0);
    std::vector<std::pair<ClassId, std::uint32_t>> stack;
    for (ClassId s = 0; s < nc; ++s) {
      if (done[s] || choice_[s] == kNoNode) continue;
      stack.emplace_back(s, 0);
      done[s] = 1;
      while (!stack.empty()) {
        auto& [c, i] = stack.back();
        const auto kids = p_.children(choice_[c]);
        if (i == kids.size()) {
          std::uint32_t height = 0;
          for (ClassId d : kids) height = std::max(height, rank_[d] + 1);
          rank_[c] = height;
          stack.pop_back();
          continue;
        }
        const ClassId d = kids[i++];
        if (!done[d]) {
          done[d] = 1;
          stack.emplace_back(d, 0);
        }
      }
    }
    work_ += nc;
    ranks_dirty_ = false;
  }

  const ExtractionProblem& p_;
  std::vector<NodeId> choice_;
  std::vector<std::uint32_t> ref_;
  std::vector<std::uint32_t> rank_;
  std::vector<std::uint32_t> scc_;  // strongly connected component of each class
  std::vector<std::pair<ClassId, std::uint32_t>> undo_;
  std::vector<ClassId> stack_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t epoch_ = 0;
  std::size_t work_ = 0;
  struct Move {
    ClassId eclass;
    NodeId old_node;
    std::size_t undo_start;
    bool reranked;
  };
  std::vector<Move> moves_;
  std::vector<ClassId> revived_;
  bool ranks_dirty_ = false;
  double delta_ = 0;
};

}  // namespace
}  // namespace extract_detail

namespace {

constexpr double kGain = -1e-9;  // a move must lower the cost by more than this

// A move that costs more because it makes classes reachable again (their
// cost is then shared) can pay off once other classes switch to nodes using
// them: tries that group move (the "kick" plus every improving follow-up
// among the revived classes' parents) and keeps it if the total drops.
bool try_group_move(const ExtractionProblem& p, extract_detail::MoveEvaluator& ev, double delta,
                    std::size_t budget) {
  const std::vector<ClassId> revived = ev.revived();
  double total = delta;
  // A follow-up can pay off only after another one (a multi-output kernel
  // replaces two kernels once all their users have switched), so the
  // candidates are tried again while a pass accepts something.
  constexpr int kPasses = 4;
  bool accepted = true;
  for (int pass = 0; pass < kPasses && accepted; ++pass) {
    accepted = false;
    for (ClassId r : revived)
      for (NodeId m : p.parents(r)) {
        if (ev.work() >= budget) break;
        const ClassId cm = p.node_class(m);
        if (!ev.live(cm) || ev.choice()[cm] == m || !ev.acyclic_if(cm, m)) continue;
        const double d = ev.apply(cm, m);
        if (d < kGain) {
          total += d;
          accepted = true;
        } else {
          ev.undo();
        }
      }
  }
  if (total < kGain) {
    ev.commit();
    return true;
  }
  while (ev.pending_moves() > 0) ev.undo();
  return false;
}

}  // namespace

std::vector<NodeId> improve_dag_cost(const ExtractionProblem& p, std::vector<NodeId> choice,
                                     double work_factor) {
  // Deterministic budget: a multiple of the problem size in elementary steps.
  const std::size_t budget =
      static_cast<std::size_t>(work_factor * static_cast<double>(p.num_nodes() + p.num_classes()));
  extract_detail::MoveEvaluator ev(p, std::move(choice));
  bool improved = true;
  while (improved && ev.work() < budget) {
    improved = false;
    for (ClassId c = 0; c < p.num_classes() && ev.work() < budget; ++c) {
      if (!ev.live(c) || p.class_nodes(c).size() < 2) continue;
      for (NodeId b : p.class_nodes(c)) {
        if (ev.work() >= budget) break;
        if (b == ev.choice()[c] || !ev.acyclic_if(c, b)) continue;
        const double delta = ev.apply(c, b);
        if (delta < kGain) {
          ev.commit();
          improved = true;
        } else if (!ev.revived().empty() && try_group_move(p, ev, delta, budget)) {
          improved = true;
        } else {
          while (ev.pending_moves() > 0) ev.undo();
        }
      }
    }
  }
  return ev.choice();
}

Extraction extract_greedy_dag(const ExtractionProblem& p, const ExtractOptions& opt) {
  auto start = extract_detail::greedy_dag_choice(p);
  extract_detail::require_roots_chosen(p, start);
  double start_cost = dag_cost(p, start);
  // The greedy pass can lose to other starts: the tree-optimal choice,
  // extraction-gym's faster-greedy-dag (within a work budget: its sets can
  // grow quadratically) and the caller's initial extraction. The cheapest
  // start is improved, so greedy-dag is never worse than any of them.
  auto consider = [&](std::vector<NodeId> candidate) {
    if (candidate.size() != p.num_classes()) return;
    const double cost = dag_cost(p, candidate);  // +inf when cyclic or incomplete
    if (cost < start_cost) {
      start = std::move(candidate);
      start_cost = cost;
    }
  };
  const std::vector<NodeId> greedy = start;
  consider(extract_detail::bottom_up_choice(p));
  consider(extract_detail::faster_greedy_dag_choice(p, opt.reference_greedy_work));
  if (opt.initial.size() == p.num_classes()) {
    // The initial choice covers only what it reaches; the local search needs
    // a node for every class it may switch to. Filling the rest with the
    // greedy choice keeps it acyclic: an initial class never points to a
    // class the initial choice leaves out.
    std::vector<NodeId> completed = opt.initial;
    for (ClassId c = 0; c < p.num_classes(); ++c)
      if (completed[c] == kNoNode) completed[c] = greedy[c];
    consider(std::move(completed));
  }
  if (opt.local_improvement) start = improve_dag_cost(p, std::move(start), opt.improve_work);
  return finish_extraction(p, std::move(start));
}

}  // namespace eqfuse
