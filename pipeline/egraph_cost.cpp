// Pricing e-nodes: rebuilds, from the tensor analysis facts of an e-node's
// children, the same CostQuery that query_for_node builds from an FX node,
// so a graph and its e-graph encoding cost the same.
#include "pipeline/egraph_cost.hpp"

#include "bridge/arg_encoding.hpp"
#include "bridge/from_graph.hpp"

namespace eqfuse {
namespace {

// Lists nest at most this deep in the encoding (a list of SymInt lists).
constexpr int kMaxListDepth = 3;

ValueType int_type(int64_t v) {
  ValueType t;
  t.kind = ValueType::Kind::Int;
  t.sym = SymInt(v);
  return t;
}

// The node of `cls` built with operator `op`, if any (linear scan: the
// class lists are short and this works on graphs that are not rebuilt).
std::optional<Id> node_with_op(const EGraph& g, Id cls, Symbol op) {
  for (Id n : g.class_nodes(cls))
    if (g.node_op(n) == op) return n;
  return std::nullopt;
}

// The value type an argument child stands for, in the form query_for_node
// gives for the same FX argument: int constants carry their value, int
// lists and prim::list/prim::tuple become tuples of their items.
ValueType child_type(const EGraph& g, const TensorAnalysis& types, Id child, int depth) {
  Id cls = g.find(child);
  const TensorFact& f = types.data(cls);
  ValueType t = f.type;
  bool integral = t.kind == ValueType::Kind::Int || t.kind == ValueType::Kind::SymInt;
  if (integral && f.constant && !t.sym) t.sym = SymInt(*f.constant);
  if (t.is_known() || depth >= kMaxListDepth) return t;
  if (auto c = g.constant_of(cls); c && c->kind == ConstKind::IntList) {
    std::vector<ValueType> items;
    for (int64_t v : c->as_int_list()) items.push_back(int_type(v));
    return ValueType::of_tuple(std::move(items));
  }
  static const Symbol kListOps[] = {Symbol::intern(graph_ops::kList),
                                    Symbol::intern(graph_ops::kTuple)};
  for (Symbol list_op : kListOps) {
    if (auto n = node_with_op(g, cls, list_op)) {
      std::vector<ValueType> items;
      for (Id item : g.node(*n).children) items.push_back(child_type(g, types, item, depth + 1));
      return ValueType::of_tuple(std::move(items));
    }
  }
  return t;
}

}  // namespace

CostQuery query_for_enode(const EGraph& g, const TensorAnalysis& types, const OpRegistry& reg,
                          Id node, std::vector<ValueType>& storage) {
  NodeView n = g.node(node);
  CostQuery q;
  storage.clear();
  if (n.is_constant()) {
    q.op = "constant";
    return q;
  }
  q.op = n.op.str();
  q.result = types.data(g.find(node)).type;
  if (auto id = reg.find(q.op)) q.info = &reg.info(*id);
  for (Id c : n.children) storage.push_back(child_type(g, types, c, 0));
  q.args = storage;
  return q;
}

CostBreakdown enode_cost(const EGraph& g, const TensorAnalysis& types, const OpRegistry& reg,
                         const CostModel& model, Id node) {
  std::vector<ValueType> storage;
  return model.cost(query_for_enode(g, types, reg, node, storage));
}

std::unordered_set<Id> folded_enodes(const EGraph& g, const OpRegistry& reg,
                                     std::span<const Id> frozen_leaves) {
  std::unordered_set<Id> constant;  // canonical class ids
  for (Id leaf : frozen_leaves) constant.insert(g.find(leaf));
  const Symbol getitem = Symbol::intern(graph_ops::kGetItem);
  const Symbol list = Symbol::intern(graph_ops::kList), tuple = Symbol::intern(graph_ops::kTuple);
  // Structural nodes (getitem, list, tuple) pass constness through; ops must be foldable.
  auto foldable = [&](Id n) {
    Symbol op = g.node_op(n);
    if (op == getitem || op == list || op == tuple) return true;
    std::optional<OpId> id = reg.find(op.str());
    return id && is_foldable_op(&reg.info(*id));
  };
  auto children_constant = [&](Id n) {
    for (Id c : g.node(n).children)
      if (!constant.contains(g.find(c))) return false;
    return true;
  };
  // Children are mostly older than their parents, so a pass in id order settles most
  // classes; repeat until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (Id n = 0; n < g.num_ids(); ++n) {
      if (!g.node_alive(n)) continue;
      Id cls = g.find(n);
      if (constant.contains(cls)) continue;
      NodeView v = g.node(n);
      if (v.is_constant() || (foldable(n) && !v.children.empty() && children_constant(n))) {
        constant.insert(cls);
        changed = true;
      }
    }
  }
  std::unordered_set<Id> folded;
  for (Id n = 0; n < g.num_ids(); ++n) {
    if (!g.node_alive(n) || g.node(n).is_constant() || g.node(n).children.empty()) continue;
    if (g.node_op(n) != getitem && foldable(n) && children_constant(n)) folded.insert(n);
  }
  return folded;
}

}  // namespace eqfuse
