// A whole graph priced: the CostQuery of each FX node (query_for_node) and
// graph_cost, the DAG cost summed over its call nodes (auto_functionalized calls
// as their kernels, calls on frozen inputs folded). Apart from cost_model.cpp,
// which prices one kernel and knows nothing of graphs.
#include <fmt/format.h>

#include "cost/cost_model.hpp"
#include "cost/cost_model_internal.hpp"

namespace eqfuse {
namespace {

ValueType scalar_of_kind(ValueType::Kind k) {
  ValueType t;
  t.kind = k;
  return t;
}

ValueType int_value(int64_t v) {
  ValueType t = scalar_of_kind(ValueType::Kind::Int);
  t.sym = SymInt(v);
  return t;
}

}  // namespace

namespace cost_detail {

ValueType type_of_arg(const Graph& g, const Arg& a) {
  if (a.is_node()) return g.node(a.node()).type;
  if (a.is_none()) return ValueType::none();
  if (a.is_int()) return int_value(std::get<int64_t>(a.value));
  if (a.is_float()) return scalar_of_kind(ValueType::Kind::Float);
  if (a.is_bool()) return scalar_of_kind(ValueType::Kind::Bool);
  if (a.is_list()) {
    std::vector<ValueType> items;
    for (const Arg& x : a.as_list().items) items.push_back(type_of_arg(g, x));
    return ValueType::of_tuple(std::move(items));
  }
  return ValueType::unknown();
}

}  // namespace cost_detail

namespace {

using cost_detail::constant_nodes;
using cost_detail::type_of_arg;

std::string_view structural_op_name(NodeKind k) {
  switch (k) {
    case NodeKind::Placeholder:
      return graph_ops::kPlaceholder;
    case NodeKind::GetAttr:
      return graph_ops::kGetAttr;
    case NodeKind::GetItem:
      return graph_ops::kGetItem;
    default:
      return "output";
  }
}

}  // namespace

CostQuery query_for_node(const Graph& g, NodeRef n, const OpRegistry& reg,
                         std::vector<ValueType>& arg_storage) {
  const Node& node = g.node(n);
  CostQuery q;
  q.result = node.type;
  arg_storage.clear();
  if (node.kind != NodeKind::Call) {
    q.op = structural_op_name(node.kind);
    return q;
  }
  q.op = node.target;
  if (node.op == kNoOp) {
    // Opaque: the node inputs it references, as the e-graph encodes them.
    for (NodeRef r : node_inputs(node)) arg_storage.push_back(g.node(r).type);
  } else {
    q.info = &reg.info(node.op);
    for (const Arg& a : node.args) arg_storage.push_back(type_of_arg(g, a));
  }
  q.args = arg_storage;
  return q;
}

namespace {

// One breakdown for the whole call: the sum of its kernels, with the
// wrapped op's class (the last kernel).
CostBreakdown sum_of_kernels(std::span<const CostBreakdown> parts, std::string note) {
  CostBreakdown c;
  c.is_kernel = true;
  c.kernel_class = parts.back().kernel_class;
  c.note = std::move(note);
  for (const CostBreakdown& k : parts) {
    c.host_us += k.host_us;
    c.device_us += k.device_us;
    c.host_bound = c.host_bound || k.host_bound;
    c.launch_us += k.launch_us;
    c.fixed_us += k.fixed_us;
    c.bytes += k.bytes;
    c.flops += k.flops;
    c.memory_us += k.memory_us;
    c.compute_us += k.compute_us;
    c.total_us += k.total_us;
    if (k.is_kernel) ++c.kernel_count;
  }
  return c;
}

}  // namespace

GraphCost graph_cost(const Graph& g, const OpRegistry& reg, const CostModel& model) {
  model.check_sizes(g);
  GraphCost out;
  std::vector<ValueType> storage;
  std::vector<CostBreakdown> kernels;
  const std::vector<bool> folded = constant_nodes(g, reg, model);
  for (size_t i = 0; i < g.size(); ++i) {
    NodeRef ref{static_cast<int32_t>(i)};
    if (g.node(ref).kind != NodeKind::Call) continue;
    if (folded[i]) {
      CostBreakdown c;
      c.note = std::string(kFoldedNote);
      out.nodes.push_back({ref, std::move(c)});
      continue;
    }
    std::vector<CostBreakdown> parts = auto_functionalized_kernels(g, ref, reg, model);
    CostBreakdown c =
        parts.empty() ? model.cost(query_for_node(g, ref, reg, storage))
                      : sum_of_kernels(parts, fmt::format("auto_functionalized: op + {} clone(s)",
                                                          parts.size() - 1));
    if (parts.empty()) parts.push_back(c);
    for (const CostBreakdown& k : parts) {
      if (k.is_kernel) ++out.kernels;
      if (k.is_kernel && k.host_bound) ++out.host_bound;
      if (k.is_kernel || k.host_us > 0) kernels.push_back(k);
    }
    out.total_us += c.total_us;  // a free op: its host dispatch (0 without a host side)
    out.host_us += c.host_us;
    if (c.is_kernel) {
      out.launch_us += c.launch_us;
      out.fixed_us += c.fixed_us;
      out.memory_us += c.memory_us;
      out.compute_us += c.compute_us;
    }
    out.nodes.push_back({ref, std::move(c)});
  }
  out.total_us += model.per_graph_us();
  out.simulated_us = model.simulate_us(kernels);
  return out;
}

}  // namespace eqfuse
