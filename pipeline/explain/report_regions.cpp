// The region of a fused node (pipeline/explain/report_internal.hpp has the
// vocabulary): the classes its value covers, the classes needed whatever is
// chosen, the extracted classes it would replace, and the kernels it brings
// with it. Both the chosen and the unchosen fusions are measured this way.
#include <algorithm>
#include <deque>
#include <set>

#include "pipeline/explain/report_internal.hpp"

namespace eqfuse::explain_detail {

// The classes a fused node's inputs are: its children, looking through
// prim::list nodes (tensor lists).
std::set<Id> input_classes(const Ctx& c, Id fused) {
  std::set<Id> out;
  for (Id child : c.g.node(fused).children) {
    Id cls = c.g.find(child);
    out.insert(cls);
    for (Id n : c.g.class_nodes(cls))
      if (c.op_name(n) == graph_ops::kList)
        for (Id item : c.g.node(n).children) out.insert(c.g.find(item));
  }
  return out;
}

// Classes the extracted graph needs to compute `seeds`: the seeds and their
// chosen descendants. Seeds the extraction does not compute are looked
// through (their nodes' children, a few levels) so a fused node needing a
// new view still stops at the view's operand.
//
// Only the neighbourhood matters: the caller's walk over the replaced input
// nodes stops at input nodes the output keeps, which every class needed far
// below the seeds is. So the walk stops kNeededDepth chosen levels down;
// without that bound it visits everything below the seeds, for every fused
// node (quadratic on a stack of decoder blocks).
constexpr int kNeededDepth = 16;

absl::flat_hash_set<Id> needed_anyway(const Ctx& c, const std::set<Id>& seeds) {
  absl::flat_hash_set<Id> out;
  struct Item {
    Id cls;
    int depth;         // look-through levels
    int chosen_depth;  // chosen levels below the seeds
  };
  std::deque<Item> todo;
  for (Id s : seeds) todo.push_back({s, 0, 0});
  while (!todo.empty()) {
    auto [cls, depth, chosen_depth] = todo.front();
    todo.pop_front();
    if (!out.insert(cls).second) continue;
    auto it = c.chosen.find(cls);
    if (it != c.chosen.end()) {
      if (chosen_depth >= kNeededDepth) continue;
      for (Id ch : c.g.node(it->second).children)
        todo.push_back({c.g.find(ch), depth, chosen_depth + 1});
    } else if (depth < 3) {
      for (Id n : c.g.class_nodes(cls))
        for (Id ch : c.g.node(n).children) todo.push_back({c.g.find(ch), depth + 1, chosen_depth});
    }
  }
  return out;
}

namespace {

bool is_reshaping_view(std::string_view op) {
  return op == "aten::view" || op == "aten::reshape" || op == "aten::_unsafe_view";
}

}  // namespace

// Extracted classes whose value the fused node (in class `fused_cls`) would
// provide: its own class and the classes holding a projection of it. When no
// input node holds the fused value itself (a rule that moved an elementwise op
// under a view: relu(view(addmm)) => view(npu_fused_matmul)), the classes of
// views of it count too.
std::vector<Id> covered_classes(const Ctx& c, Id fused_cls) {
  std::vector<Id> out;
  if (c.extracted(fused_cls)) out.push_back(fused_cls);
  const bool holds_input = c.inputs_at.count(fused_cls) > 0;
  for (Id parent : c.g.class_parents(fused_cls)) {
    if (!c.g.node_alive(parent)) continue;
    const bool view_of_fused = !holds_input && is_reshaping_view(c.g.node_op(parent).str()) &&
                               c.g.find(c.g.node(parent).children[0]) == fused_cls;
    if (!c.is_getitem(parent) && !view_of_fused) continue;
    Id cls = c.g.find(parent);
    if (c.extracted(cls) && std::find(out.begin(), out.end(), cls) == out.end()) out.push_back(cls);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The extracted classes between `covered` and the fused node's inputs.
std::set<Id> extracted_region(const Ctx& c, const std::vector<Id>& covered,
                              const absl::flat_hash_set<Id>& stop) {
  std::set<Id> region(covered.begin(), covered.end());
  std::deque<Id> todo(covered.begin(), covered.end());
  while (!todo.empty()) {
    Id cls = todo.front();
    todo.pop_front();
    for (Id ch : c.g.node(c.chosen.at(cls)).children) {
      Id child = c.g.find(ch);
      if (stop.count(child) || !c.extracted(child)) continue;
      if (c.g.node(c.chosen.at(child)).children.empty()) continue;  // leaves are free
      if (region.insert(child).second) todo.push_back(child);
    }
  }
  return region;
}

namespace {

// The kernels a fused node brings with it. For a chosen one: the classes
// below it that hold no input node, which the same rewrite made
// (mindspore/matmul-split's wide matmul and the weights' concatenation under
// its split). For one not chosen: the classes below it the extraction did not
// compute, which it would need (the mul feeding an npu_add_rms_norm that
// would replace a muls_add). Each is priced by its chosen node, else its
// cheapest; the walk stops at classes paid for either way.
void add_new_operands(const Ctx& c, Id fused, bool chosen_side, std::set<Id>& seen, CostSum& sum,
                      int depth = 8) {
  if (depth == 0) return;
  for (Id child : c.g.node(fused).children) {
    Id cls = c.g.find(child);
    const bool paid_anyway = chosen_side ? c.inputs_at.count(cls) > 0 : c.extracted(cls);
    if (paid_anyway || !seen.insert(cls).second) continue;
    Id best = kNoId;
    if (auto it = c.chosen.find(cls); it != c.chosen.end()) {
      best = it->second;
    } else {
      double best_us = 0;
      for (Id n : c.g.class_nodes(cls)) {
        double us = c.cost(n).total_us;
        if (best == kNoId || us < best_us) best = n, best_us = us;
      }
    }
    if (best == kNoId) continue;
    sum.add(c.cost(best));
    add_new_operands(c, best, chosen_side, seen, sum, depth - 1);
  }
}

}  // namespace

CostSum new_operands_cost(const Ctx& c, Id fused, bool chosen_side) {
  std::set<Id> seen;
  CostSum sum;
  add_new_operands(c, fused, chosen_side, seen, sum);
  return sum;
}

}  // namespace eqfuse::explain_detail
