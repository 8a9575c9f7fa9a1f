// "auto": exact extraction by independent components (extract/components.hpp).
//
// 1. An incumbent: greedy-dag (which also starts from ExtractOptions::initial,
//    the input graph in optimize, so the incumbent is never costlier).
// 2. The problem is split into components. Each is solved exactly on its own:
//    by branch and bound when it is small (most are: a fusion site is a
//    handful of classes), by the CBC model of ilp_cbc.cpp otherwise, within
//    what is left of the time limit. A component that cannot be solved
//    exactly keeps the incumbent's choices.
// 3. The component solutions are combined. If they close a cycle through
//    mandatory classes of several components, those components are merged
//    and solved again, until none is left; only a merged component that
//    cannot be solved exactly goes back to the incumbent's (acyclic) choices.
// The result is proven optimal when every component was solved exactly and
// nothing was reverted; otherwise the lower bound is the sum of the
// component bounds (exact optima, CBC's best bound, or the cheapest node of
// each mandatory class).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "extract/components.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace {

using extract_detail::Deadline;

constexpr double kInf = std::numeric_limits<double>::infinity();

// Branch and bound stops after this many search steps per component, and is
// not tried on components with more classes than this (its recursion depth).
constexpr std::size_t kBranchStepBudget = 200'000;
constexpr std::size_t kBranchMaxClasses = 400;
// The share of the time limit a component larger than
// ExtractOptions::auto_exact_max_nodes may spend in CBC.
constexpr double kLargeComponentShare = 0.2;

bool strictly_below(double a, double b) {
  return a < b - 1e-12 * std::max(1.0, std::abs(b));
}

// The component being solved, in local indices.
struct Component {
  std::vector<ClassId> classes;            // global ids, increasing
  std::vector<unsigned char> is_root;      // per local class: mandatory
  std::vector<std::vector<NodeId>> nodes;  // per local class: usable nodes, cheapest first
  std::vector<double> min_cost;            // per local class
};

struct ComponentResult {
  std::vector<NodeId> choice;  // per local class, kNoNode where not reached
  double cost = kInf;
  double lower_bound = 0;
  bool exact = false;
  bool timed_out = false;
};

class AutoExtractor {
 public:
  AutoExtractor(const ExtractionProblem& p, const ExtractOptions& opt)
      : p_(p), opt_(opt), deadline_(opt.time_limit_s), local_(p.num_classes(), -1) {}

  Extraction run() {
    Extraction incumbent = extract_greedy_dag(p_, opt_);  // throws if no extraction exists
    const double incumbent_cost = incumbent.dag_cost;
    dec_ = decompose(p_, extract_detail::derivable_choice(p_));
    std::vector<NodeId> choice(p_.num_classes(), kNoNode);
    results_.assign(dec_.members.size(), {});
    for (std::size_t k = 0; k < dec_.members.size(); ++k) solve_into(k, incumbent.choice, choice);
    for (ClassId c = 0; c < p_.num_classes(); ++c)
      if (dec_.free[c] != kNoNode) choice[c] = dec_.free[c];
    const std::size_t merges = merge_cycles(choice, incumbent.choice);
    bool all_exact = !reverted_;
    for (const ComponentResult& r : results_) all_exact = all_exact && r.exact;
    Extraction x = finish_extraction(p_, std::move(choice), all_exact);
    if (!std::isfinite(x.dag_cost) || strictly_below(incumbent.dag_cost, x.dag_cost))
      x = std::move(incumbent);  // cannot happen when the components are independent
    if (!x.optimal) {
      double bound = 0;
      for (const ComponentResult& r : results_) bound += r.lower_bound;
      x.lower_bound = std::min(bound, x.dag_cost);
    }
    for (const ComponentResult& r : results_)
      if (r.timed_out) x.stopped_by = "time limit";
    if (opt_.verbose) {
      std::size_t largest = 0, exact = 0, live = 0;
      for (const auto& m : dec_.members) largest = std::max(largest, m.size());
      for (std::size_t k = 0; k < results_.size(); ++k) {
        if (dec_.members[k].empty()) continue;
        ++live;
        exact += results_[k].exact ? 1 : 0;
      }
      std::fprintf(stderr,
                   "auto: %zu components (largest %zu classes), %zu solved exactly, %zu merged "
                   "for cycles%s, incumbent %.6g, result %.6g, bound %.6g\n",
                   live, largest, exact, merges, reverted_ ? " (some reverted)" : "",
                   incumbent_cost, x.dag_cost, x.lower_bound);
    }
    return x;
  }

 private:
  // Solves component k and writes its choice into the combined one.
  void solve_into(std::size_t k, const std::vector<NodeId>& incumbent,
                  std::vector<NodeId>& choice) {
    const Component comp = make_component(dec_.members[k]);
    results_[k] = solve(comp, incumbent);
    for (std::size_t i = 0; i < comp.classes.size(); ++i)
      choice[comp.classes[i]] = results_[k].choice[i];
    for (ClassId c : comp.classes) local_[c] = -1;
  }

  // A cycle of the combined choice runs through several components (each is
  // acyclic on its own). Those components are merged into one and solved
  // again, which keeps the result exact; this repeats until no cycle is
  // left. Returns the number of merges. Should a merged component not be
  // solvable exactly, the components on the cycle go back to the
  // incumbent's (acyclic) choices instead and the result is not proven.
  std::size_t merge_cycles(std::vector<NodeId>& choice, const std::vector<NodeId>& incumbent) {
    std::size_t merges = 0;
    const std::size_t max_rounds = dec_.members.size() + 16;
    for (std::vector<ClassId> cycle = cycle_classes(choice); !cycle.empty();
         cycle = cycle_classes(choice)) {
      if (merges == max_rounds) {  // never seen; the incumbent is acyclic as a whole
        choice = incumbent;
        reverted_ = true;
        break;
      }
      std::vector<int> on_cycle;
      for (ClassId c : cycle)
        if (dec_.component[c] >= 0) on_cycle.push_back(dec_.component[c]);
      if (opt_.verbose) {
        std::fprintf(stderr, "auto: cycle through");
        for (ClassId c : cycle)
          std::fprintf(stderr, " %s[comp %d%s%s]", p_.class_name(c).c_str(), dec_.component[c],
                       dec_.mandatory[c] ? ",mandatory" : "",
                       dec_.free[c] != kNoNode ? ",free" : "");
        std::fprintf(stderr, "\n");
      }
      std::sort(on_cycle.begin(), on_cycle.end());
      on_cycle.erase(std::unique(on_cycle.begin(), on_cycle.end()), on_cycle.end());
      std::vector<ClassId> merged;
      for (int k : on_cycle) {
        merged.insert(merged.end(), dec_.members[k].begin(), dec_.members[k].end());
        dec_.members[k].clear();
        results_[k] = ComponentResult{.cost = 0, .lower_bound = 0, .exact = true};
      }
      std::sort(merged.begin(), merged.end());
      const auto k = dec_.members.size();
      for (ClassId c : merged) dec_.component[c] = static_cast<int>(k);
      dec_.members.push_back(std::move(merged));
      results_.emplace_back();
      ++merges;
      if (on_cycle.size() > 1) solve_into(k, incumbent, choice);
      // A cycle left through the merged component and others is merged in
      // the next round.
      if (on_cycle.size() <= 1 || !results_[k].exact) {
        for (ClassId m : dec_.members[k]) choice[m] = incumbent[m];
        results_[k].exact = false;
        reverted_ = true;
      }
    }
    return merges;
  }

  Component make_component(const std::vector<ClassId>& members) {
    Component comp;
    comp.classes = members;
    for (std::size_t i = 0; i < members.size(); ++i) local_[members[i]] = static_cast<int>(i);
    for (ClassId c : members) {
      comp.is_root.push_back(dec_.mandatory[c]);
      std::vector<NodeId> ns;
      for (NodeId n : p_.class_nodes(c))
        if (dec_.usable[n]) ns.push_back(n);
      std::stable_sort(ns.begin(), ns.end(),
                       [&](NodeId a, NodeId b) { return p_.node_cost(a) < p_.node_cost(b); });
      comp.min_cost.push_back(ns.empty() ? kInf : p_.node_cost(ns.front()));
      comp.nodes.push_back(std::move(ns));
    }
    return comp;
  }

  // The incumbent restricted to the component: every class of it the
  // incumbent reaches (a class of the component is only reached through
  // the component's own classes, or is mandatory).
  ComponentResult restriction(const Component& comp, const std::vector<NodeId>& global) const {
    ComponentResult r;
    r.cost = 0;
    for (ClassId c : comp.classes) {
      r.choice.push_back(global[c]);
      if (global[c] != kNoNode) r.cost += p_.node_cost(global[c]);
    }
    for (std::size_t i = 0; i < comp.classes.size(); ++i)
      if (comp.is_root[i]) r.lower_bound += comp.min_cost[i];
    r.lower_bound = std::min(r.lower_bound, r.cost);
    return r;
  }

  ComponentResult solve(const Component& comp, const std::vector<NodeId>& incumbent) {
    ComponentResult best = restriction(comp, incumbent);
    if (trivially_optimal(comp, best)) return best;
    if (deadline_.passed()) {
      best.timed_out = true;
      return best;
    }
    if (comp.classes.size() <= kBranchMaxClasses && branch_and_bound(comp, best)) return best;
    solve_with_ilp(comp, best);
    return best;
  }

  // Every reached class already has its cheapest node and the mandatory
  // ones must be paid: nothing can be cheaper.
  bool trivially_optimal(const Component& comp, ComponentResult& r) const {
    double floor = 0;
    for (std::size_t i = 0; i < comp.classes.size(); ++i)
      if (comp.is_root[i]) floor += comp.min_cost[i];
    if (strictly_below(floor, r.cost)) return false;
    r.exact = true;
    r.lower_bound = r.cost;
    return true;
  }

  // Depth-first search over the reached, undecided classes ("frontier"),
  // cheapest node first, pruned by cost + the cheapest node of every frontier
  // class. True when the search finished (best is then optimal).
  bool branch_and_bound(const Component& comp, ComponentResult& best) {
    const std::size_t n = comp.classes.size();
    bb_choice_.assign(n, kNoNode);
    bb_reached_.assign(n, 0);
    bb_frontier_.clear();
    double frontier_lb = 0;
    for (std::size_t i = 0; i < n; ++i)
      if (comp.is_root[i]) {
        bb_reached_[i] = 1;
        bb_frontier_.push_back(static_cast<std::uint32_t>(i));
        frontier_lb += comp.min_cost[i];
      }
    bb_steps_ = 0;
    bb_best_ = &best;
    search(comp, 0.0, frontier_lb);
    if (bb_steps_ > kBranchStepBudget) return false;
    best.exact = true;
    best.lower_bound = best.cost;
    return true;
  }

  void search(const Component& comp, double cost, double frontier_lb) {
    if (++bb_steps_ > kBranchStepBudget) return;
    if (!strictly_below(cost + frontier_lb, bb_best_->cost)) return;
    if (bb_frontier_.empty()) {
      if (locally_acyclic(comp)) {
        bb_best_->cost = cost;
        bb_best_->choice = bb_choice_;
      }
      return;
    }
    const std::uint32_t c = bb_frontier_.back();
    bb_frontier_.pop_back();
    const double rest_lb = frontier_lb - comp.min_cost[c];
    for (NodeId node : comp.nodes[c]) {
      bb_choice_[c] = node;
      const std::size_t mark = bb_frontier_.size();
      double added_lb = 0;
      for (ClassId d : p_.children(node)) {
        const int ld = local_[d];
        if (ld < 0 || bb_reached_[ld]) continue;
        bb_reached_[ld] = 1;
        bb_frontier_.push_back(static_cast<std::uint32_t>(ld));
        added_lb += comp.min_cost[ld];
      }
      search(comp, cost + p_.node_cost(node), rest_lb + added_lb);
      while (bb_frontier_.size() > mark) {
        bb_reached_[bb_frontier_.back()] = 0;
        bb_frontier_.pop_back();
      }
      if (bb_steps_ > kBranchStepBudget) break;
    }
    bb_choice_[c] = kNoNode;
    bb_frontier_.push_back(c);
  }

  // No cycle among the component's chosen nodes (edges leaving the
  // component are checked on the combined choice).
  bool locally_acyclic(const Component& comp) {
    const std::size_t n = comp.classes.size();
    bb_mark_.assign(n, 0);  // 0 new, 1 on the path, 2 done
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stack;
    for (std::uint32_t s = 0; s < n; ++s) {
      if (bb_mark_[s] || bb_choice_[s] == kNoNode) continue;
      stack.emplace_back(s, 0);
      bb_mark_[s] = 1;
      while (!stack.empty()) {
        auto& [c, i] = stack.back();
        const auto kids = p_.children(bb_choice_[c]);
        if (i == kids.size()) {
          bb_mark_[c] = 2;
          stack.pop_back();
          continue;
        }
        const int d = local_[kids[i++]];
        if (d < 0 || bb_choice_[d] == kNoNode || bb_mark_[d] == 2) continue;
        if (bb_mark_[d] == 1) return false;
        bb_mark_[d] = 1;
        stack.emplace_back(static_cast<std::uint32_t>(d), 0);
      }
    }
    return true;
  }

  // The component as a problem of its own: its classes, one free leaf class
  // standing for every class outside it, its mandatory classes as roots.
  void solve_with_ilp(const Component& comp, ComponentResult& best) {
    std::size_t nodes = 0;
    for (const auto& ns : comp.nodes) nodes += ns.size();
    // A component beyond auto_exact_max_nodes (e-graphs that do not
    // decompose) gets a share of the time limit only: the incumbent is
    // usually close, and optimize should stay fast on such inputs.
    const double share = nodes > opt_.auto_exact_max_nodes
                             ? std::max(1.0, kLargeComponentShare * opt_.time_limit_s)
                             : opt_.time_limit_s;
    ProblemBuilder b;
    for (ClassId c : comp.classes) b.add_class(p_.class_name(c));
    const ClassId outside = b.add_class("outside");
    b.add_node("outside", outside, 0.0, {});
    std::vector<NodeId> original;  // sub-problem node -> node of p
    std::vector<ClassId> kids;
    for (std::size_t i = 0; i < comp.classes.size(); ++i)
      for (NodeId n : comp.nodes[i]) {
        kids.clear();
        for (ClassId d : p_.children(n))
          kids.push_back(local_[d] >= 0 ? static_cast<ClassId>(local_[d]) : outside);
        b.add_node(p_.node_op(n), static_cast<ClassId>(i), p_.node_cost(n), kids);
        original.push_back(n);
      }
    for (std::size_t i = 0; i < comp.classes.size(); ++i)
      if (comp.is_root[i]) b.add_root(static_cast<ClassId>(i));
    const ExtractionProblem sub = std::move(b).build();
    // Sub-problem node ids follow the order of `original`, after the leaf.
    ExtractOptions so;
    so.verbose = opt_.verbose;
    so.time_limit_s = std::clamp(deadline_.remaining_s(), 0.0, share);
    so.initial.assign(sub.num_classes(), kNoNode);
    so.initial[outside] = 0;
    for (std::size_t i = 0; i < comp.classes.size(); ++i) {
      if (best.choice[i] == kNoNode) continue;
      for (NodeId s : sub.class_nodes(static_cast<ClassId>(i)))
        if (original[s - 1] == best.choice[i]) so.initial[i] = s;
    }
    const Extraction x = extract(sub, "ilp", so);
    best.timed_out = x.stopped_by == "time limit";
    best.lower_bound = std::max(best.lower_bound, std::min(x.lower_bound, x.dag_cost));
    if (x.optimal) {
      best.exact = true;
      best.lower_bound = x.dag_cost;
    }
    if (!strictly_below(x.dag_cost, best.cost)) return;
    best.cost = x.dag_cost;
    for (std::size_t i = 0; i < comp.classes.size(); ++i) {
      const NodeId s = x.choice[i];
      best.choice[i] = s == kNoNode ? kNoNode : original[s - 1];
    }
  }

  // The classes of one cycle among the chosen nodes reached from the roots,
  // or nothing.
  std::vector<ClassId> cycle_classes(const std::vector<NodeId>& choice) const {
    const auto cycles = extract_detail::find_cycles(p_, choice, /*roots_only=*/true, 1);
    std::vector<ClassId> classes;
    if (!cycles.empty())
      for (NodeId n : cycles.front()) classes.push_back(p_.node_class(n));
    return classes;
  }

  const ExtractionProblem& p_;
  const ExtractOptions& opt_;
  Deadline deadline_;
  Decomposition dec_;
  std::vector<int> local_;                // global class -> index in the current component, or -1
  std::vector<ComponentResult> results_;  // per component (merged ones emptied)
  bool reverted_ = false;                 // a component went back to the incumbent
  // Branch-and-bound state.
  std::vector<NodeId> bb_choice_;
  std::vector<unsigned char> bb_reached_, bb_mark_;
  std::vector<std::uint32_t> bb_frontier_;
  std::size_t bb_steps_ = 0;
  ComponentResult* bb_best_ = nullptr;
};

}  // namespace

Extraction extract_auto(const ExtractionProblem& p, const ExtractOptions& opt) {
  // The decomposition needs non-negative costs: with a negative cost, reaching
  // more classes can pay, so neither "free" classes nor the branch-and-bound
  // bound hold. Such problems (maxsat encodings) go to the CBC model whole.
  for (NodeId n = 0; n < p.num_nodes(); ++n)
    if (p.node_cost(n) < 0) return extract_ilp(p, opt);
  return AutoExtractor(p, opt).run();
}

}  // namespace eqfuse
