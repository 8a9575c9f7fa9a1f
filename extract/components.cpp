// Mandatory classes and independent components (extract/components.hpp).
#include "extract/components.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <span>

#include "extract/internal.hpp"

namespace eqfuse {
namespace {

std::vector<unsigned char> usable_nodes(const ExtractionProblem& p,
                                        const std::vector<NodeId>& derivable) {
  std::vector<unsigned char> usable(p.num_nodes(), 0);
  for (NodeId n = 0; n < p.num_nodes(); ++n) {
    const ClassId c = p.node_class(n);
    bool ok = derivable[c] != kNoNode;
    for (ClassId d : p.children(n)) ok = ok && d != c && derivable[d] != kNoNode;
    usable[n] = ok ? 1 : 0;
  }
  return usable;
}

// Classes every choice for `c` reaches within `depth` steps (c included),
// sorted: {c} plus the intersection, over c's usable nodes, of what each
// node's children reach within depth - 1. Memoized per (class, depth): the
// same class is reached from many parents.
class MustReach {
 public:
  MustReach(const ExtractionProblem& p, const std::vector<unsigned char>& usable, int max_depth)
      : p_(p),
        usable_(usable),
        arena_(static_cast<size_t>(max_depth) + 1),
        where_(static_cast<size_t>(max_depth) + 1),
        scratch_(static_cast<size_t>(max_depth) + 1) {
    for (auto& w : where_) w.assign(p.num_classes(), Span{kNotComputed, 0});
  }

  // The sorted set for (c, depth). Valid until the next call: the arenas grow.
  std::span<const ClassId> operator()(ClassId c, int depth) {
    const auto d = static_cast<size_t>(depth);
    if (where_[d][c].offset == kNotComputed) where_[d][c] = compute(c, depth);
    const Span s = where_[d][c];
    return {arena_[d].data() + s.offset, s.size};
  }

 private:
  struct Span {
    uint32_t offset;
    uint32_t size;
  };
  static constexpr uint32_t kNotComputed = ~uint32_t{0};
  // Reused buffers of one recursion level: a level calls only deeper ones.
  struct Scratch {
    std::vector<ClassId> common, via_node, merged;
  };

  Span compute(ClassId c, int depth) {
    const auto d = static_cast<size_t>(depth);
    std::vector<ClassId>& out = arena_[d];
    if (depth == 0) return append(out, {&c, 1});
    Scratch& s = scratch_[d];
    bool first = true;
    s.common.clear();
    for (NodeId n : p_.class_nodes(c)) {
      if (!usable_[n]) continue;
      s.via_node.clear();
      for (ClassId k : p_.children(n)) {
        std::span<const ClassId> sub = (*this)(k, depth - 1);
        s.via_node.insert(s.via_node.end(), sub.begin(), sub.end());
      }
      std::sort(s.via_node.begin(), s.via_node.end());
      s.via_node.erase(std::unique(s.via_node.begin(), s.via_node.end()), s.via_node.end());
      if (first) {
        s.common.swap(s.via_node);
        first = false;
      } else {
        s.merged.clear();
        std::set_intersection(s.common.begin(), s.common.end(), s.via_node.begin(),
                              s.via_node.end(), std::back_inserter(s.merged));
        s.common.swap(s.merged);
      }
      if (s.common.empty()) break;
    }
    // {c} joined with the (sorted) common set.
    auto at = std::lower_bound(s.common.begin(), s.common.end(), c);
    if (at == s.common.end() || *at != c) s.common.insert(at, c);
    return append(out, s.common);
  }

  static Span append(std::vector<ClassId>& arena, std::span<const ClassId> set) {
    const auto offset = static_cast<uint32_t>(arena.size());
    arena.insert(arena.end(), set.begin(), set.end());
    return {offset, static_cast<uint32_t>(set.size())};
  }

  const ExtractionProblem& p_;
  const std::vector<unsigned char>& usable_;
  std::vector<std::vector<ClassId>> arena_;  // per depth: the sets, back to back
  std::vector<std::vector<Span>> where_;     // per depth and class: its set in arena_
  std::vector<Scratch> scratch_;             // per depth
};

std::vector<unsigned char> mandatory_classes(const ExtractionProblem& p,
                                             const std::vector<unsigned char>& usable) {
  // How far every choice is followed. Two steps reach a multi-output kernel's inputs
  // through its getitem; six reach what every form of a fused region reads (an attention
  // mask both the fused kernel's pse and the unfused add read is four to six steps down),
  // which keeps two layers sharing it in separate components.
  constexpr int kDepth = 6;
  MustReach must_reach(p, usable, kDepth);
  std::vector<unsigned char> mandatory(p.num_classes(), 0);
  std::vector<ClassId> work;
  for (ClassId r : p.roots())
    if (!mandatory[r]) {
      mandatory[r] = 1;
      work.push_back(r);
    }
  while (!work.empty()) {
    const ClassId c = work.back();
    work.pop_back();
    for (ClassId d : must_reach(c, kDepth))  // read before the next call
      if (!mandatory[d]) {
        mandatory[d] = 1;
        work.push_back(d);
      }
  }
  return mandatory;
}

// The bottom-up (tree-cost optimal) node of every class whose tree cost is
// 0, kNoNode elsewhere. `tree` is acyclic, so the walk terminates.
std::vector<NodeId> free_choices(const ExtractionProblem& p, const std::vector<NodeId>& tree) {
  enum : unsigned char { kUnknown, kVisiting, kFree, kPaid };
  std::vector<unsigned char> state(p.num_classes(), kUnknown);
  std::vector<std::pair<ClassId, std::uint32_t>> stack;
  for (ClassId s = 0; s < p.num_classes(); ++s) {
    if (state[s] != kUnknown || tree[s] == kNoNode) continue;
    stack.emplace_back(s, 0);
    state[s] = kVisiting;
    while (!stack.empty()) {
      auto& [c, i] = stack.back();
      const NodeId n = tree[c];
      const auto kids = p.children(n);
      if (i < kids.size()) {
        const ClassId k = kids[i++];
        if (state[k] == kUnknown) {
          state[k] = kVisiting;
          stack.emplace_back(k, 0);
        }
        continue;
      }
      bool free = p.node_cost(n) == 0;
      for (ClassId k : kids) free = free && state[k] == kFree;
      state[c] = free ? kFree : kPaid;
      stack.pop_back();
    }
  }
  std::vector<NodeId> out(p.num_classes(), kNoNode);
  for (ClassId c = 0; c < p.num_classes(); ++c)
    if (state[c] == kFree) out[c] = tree[c];
  return out;
}

ClassId find_root(std::vector<ClassId>& parent, ClassId x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

std::vector<unsigned char> reachable_classes(const ExtractionProblem& p,
                                             const std::vector<unsigned char>& usable) {
  std::vector<unsigned char> seen(p.num_classes(), 0);
  std::vector<ClassId> stack;
  for (ClassId r : p.roots())
    if (!seen[r]) {
      seen[r] = 1;
      stack.push_back(r);
    }
  while (!stack.empty()) {
    const ClassId c = stack.back();
    stack.pop_back();
    for (NodeId n : p.class_nodes(c)) {
      if (!usable[n]) continue;
      for (ClassId d : p.children(n))
        if (!seen[d]) {
          seen[d] = 1;
          stack.push_back(d);
        }
    }
  }
  return seen;
}

std::vector<std::uint32_t> strongly_connected_classes(const ExtractionProblem& p,
                                                      const std::vector<unsigned char>* usable) {
  // Iterative Tarjan; a frame walks the children of every node of its class.
  const std::size_t nc = p.num_classes();
  constexpr std::uint32_t kUnvisited = static_cast<std::uint32_t>(-1);
  std::vector<std::uint32_t> index(nc, kUnvisited), low(nc, 0), comp(nc, kUnvisited);
  std::vector<ClassId> tarjan;
  struct Frame {
    ClassId c;
    std::size_t node, child;
  };
  std::vector<Frame> dfs;
  std::uint32_t counter = 0, next_comp = 0;
  for (ClassId s = 0; s < nc; ++s) {
    if (index[s] != kUnvisited) continue;
    index[s] = low[s] = counter++;
    tarjan.push_back(s);
    dfs.push_back({s, 0, 0});
    while (!dfs.empty()) {
      Frame& f = dfs.back();
      const auto nodes = p.class_nodes(f.c);
      bool descended = false;
      // `descended` first: the push_back below invalidates `f`.
      while (!descended && f.node < nodes.size()) {
        const auto kids = p.children(nodes[f.node]);
        if (f.child >= kids.size() || (usable != nullptr && !(*usable)[nodes[f.node]])) {
          ++f.node;
          f.child = 0;
          continue;
        }
        const ClassId d = kids[f.child++];
        if (index[d] == kUnvisited) {
          index[d] = low[d] = counter++;
          tarjan.push_back(d);
          dfs.push_back({d, 0, 0});
          descended = true;
        } else if (comp[d] == kUnvisited) {  // on the Tarjan stack
          low[f.c] = std::min(low[f.c], index[d]);
        }
      }
      if (descended) continue;
      const ClassId c = f.c;
      dfs.pop_back();
      if (!dfs.empty()) low[dfs.back().c] = std::min(low[dfs.back().c], low[c]);
      if (low[c] != index[c]) continue;
      ClassId x;
      do {
        x = tarjan.back();
        tarjan.pop_back();
        comp[x] = next_comp;
      } while (x != c);
      ++next_comp;
    }
  }
  return comp;
}

Decomposition decompose(const ExtractionProblem& p, const std::vector<NodeId>& derivable) {
  Decomposition d;
  d.usable = usable_nodes(p, derivable);
  d.reachable = reachable_classes(p, d.usable);
  d.mandatory = mandatory_classes(p, d.usable);
  d.free = free_choices(p, extract_detail::bottom_up_choice(p));
  std::vector<ClassId> parent(p.num_classes());
  std::iota(parent.begin(), parent.end(), 0);
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    if (!d.reachable[c] || d.free[c] != kNoNode) continue;
    for (NodeId n : p.class_nodes(c)) {
      if (!d.usable[n]) continue;
      for (ClassId k : p.children(n)) {
        if (d.mandatory[k] || d.free[k] != kNoNode) continue;
        const ClassId a = find_root(parent, c), b = find_root(parent, k);
        if (a != b) parent[std::max(a, b)] = std::min(a, b);  // smallest id is the root
      }
    }
  }
  d.component.assign(p.num_classes(), -1);
  std::vector<int> index_of_root(p.num_classes(), -1);
  for (ClassId c = 0; c < p.num_classes(); ++c) {
    if (!d.reachable[c] || d.free[c] != kNoNode) continue;
    const ClassId r = find_root(parent, c);
    if (index_of_root[r] < 0) {
      index_of_root[r] = static_cast<int>(d.members.size());
      d.members.emplace_back();
    }
    d.component[c] = index_of_root[r];
    d.members[index_of_root[r]].push_back(c);
  }
  return d;
}

}  // namespace eqfuse
