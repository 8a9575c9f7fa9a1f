// Reports over graph costs (`eqfuse cost`): the per-kernel table of one
// graph, and a node-by-node comparison of two graphs under the same cost
// model, e.g. an input graph and its optimized form.
//
//   NpuCostModel model(load_device_profile("ascend910b2"), ExecMode::ReduceOverhead);
//   std::cout << format_cost_table(a, graph_cost(a, reg, model), reg, model);
//   GraphCostDiff d = compare_graph_costs(a, b, reg, model);
//   std::cout << format_cost_diff(d);      // rows: kernels matched by node name
//
// Nodes are matched by name: `eqfuse optimize` keeps the input's names for
// nodes it does not change and gives new nodes new names, so a matched row
// is an unchanged kernel and an unmatched one was removed or added.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cost/cost_model.hpp"

namespace eqfuse {

// One kernel of either graph. `a`/`b` are empty when the graph has no node
// of that name, or when its node there is free (a view) and launches nothing.
struct NodeCostDiff {
  std::string node;        // node name
  std::string op_a, op_b;  // qualified op name (opaque: the FX target); "" when absent
  std::optional<CostBreakdown> a, b;
  double a_us() const { return a ? a->total_us : 0; }
  double b_us() const { return b ? b->total_us : 0; }
  double delta_us() const { return b_us() - a_us(); }  // > 0: B is slower here
};

struct GraphCostDiff {
  std::string model;        // CostModel::describe(): "ascend910b2, reduce-overhead"
  double per_graph_us = 0;  // in both totals
  GraphCost a, b;
  // Kernels of A in program order (with their match in B, if any), then the
  // kernels only B has, in B's order.
  std::vector<NodeCostDiff> rows;
  double delta_us() const { return b.total_us - a.total_us; }
};

// The name an op is reported under: the qualified schema name, or the FX
// target of an opaque op.
std::string node_op_name(const Graph& g, NodeRef n, const OpRegistry& reg);

GraphCostDiff compare_graph_costs(const Graph& a, const Graph& b, const OpRegistry& reg,
                                  const CostModel& model);

// One line per kernel (op, class, bytes, launch/fixed/memory/compute/total µs,
// note), then the per-graph cost, the additive total and the npu-cost.md §6.2
// simulation.
std::string format_cost_table(const Graph& g, const GraphCost& cost, const OpRegistry& reg,
                              const CostModel& model);
// One line per compared kernel (A µs, B µs, delta), then totals.
std::string format_cost_diff(const GraphCostDiff& d);
// JSON forms (keys: docs/cli.md, `eqfuse cost`).
std::string cost_table_to_json(const Graph& g, const GraphCost& cost, const OpRegistry& reg,
                               const CostModel& model);
std::string cost_diff_to_json(const GraphCostDiff& d);

}  // namespace eqfuse
