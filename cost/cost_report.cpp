// Per-kernel cost tables and node-by-node comparisons of two graphs.
#include "cost/cost_report.hpp"

#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace eqfuse {
namespace {

using Json = nlohmann::ordered_json;

// The kernels of a priced graph by node name, in program order.
std::vector<std::pair<std::string, const NodeCost*>> kernels_by_name(const Graph& g,
                                                                     const GraphCost& c) {
  std::vector<std::pair<std::string, const NodeCost*>> out;
  for (const NodeCost& nc : c.nodes)
    if (nc.cost.is_kernel) out.emplace_back(g.node(nc.node).name, &nc);
  return out;
}

// The call node named `name`, if any (free nodes too: a kernel in one graph
// may be a view in the other).
std::map<std::string, const NodeCost*, std::less<>> calls_by_name(const Graph& g,
                                                                  const GraphCost& c) {
  std::map<std::string, const NodeCost*, std::less<>> out;
  for (const NodeCost& nc : c.nodes) out.emplace(g.node(nc.node).name, &nc);
  return out;
}

std::optional<CostBreakdown> kernel_or_none(const NodeCost* nc) {
  if (nc == nullptr || !nc->cost.is_kernel) return std::nullopt;
  return nc->cost;
}

std::string us_or_dash(const std::optional<CostBreakdown>& c) {
  return c ? fmt::format("{:.3f}", c->total_us) : "-";
}

// The note column: the model's note, and the host side where it decides.
std::string host_note(const CostBreakdown& c) {
  std::string note = c.note;
  if (c.host_bound)
    note = fmt::format("host-bound: host {:.3f} us > device {:.3f} us{}{}", c.host_us, c.device_us,
                       note.empty() ? "" : "; ", note);
  return note.empty() ? "" : "  " + note;
}

Json breakdown_fields(const CostBreakdown& c) {
  return Json{{"class", kernel_class_name(c.kernel_class)},
              {"bytes", c.bytes},
              {"flops", c.flops},
              {"launch_us", c.launch_us},
              {"fixed_us", c.fixed_us},
              {"memory_us", c.memory_us},
              {"compute_us", c.compute_us},
              {"total_us", c.total_us},
              {"note", c.note}};
}

Json breakdown_json(const CostBreakdown& c) {
  Json j = breakdown_fields(c);
  if (c.host_us > 0) {
    j["host_us"] = c.host_us;
    j["device_us"] = c.device_us;
    j["host_bound"] = c.host_bound;
  }
  return j;
}

Json totals_json(const GraphCost& c) {
  Json j =
      Json{{"kernels", c.kernels},      {"total_us", c.total_us}, {"simulated_us", c.simulated_us},
           {"launch_us", c.launch_us},  {"fixed_us", c.fixed_us}, {"memory_us", c.memory_us},
           {"compute_us", c.compute_us}};
  if (c.host_us > 0) {
    j["host_us"] = c.host_us;
    j["host_bound_kernels"] = c.host_bound;
  }
  return j;
}

}  // namespace

std::string node_op_name(const Graph& g, NodeRef n, const OpRegistry& reg) {
  const Node& node = g.node(n);
  return node.op != kNoOp ? reg.info(node.op).schema.qualified_name() : node.target;
}

GraphCostDiff compare_graph_costs(const Graph& a, const Graph& b, const OpRegistry& reg,
                                  const CostModel& model) {
  GraphCostDiff d;
  d.model = model.describe();
  d.per_graph_us = model.per_graph_us();
  d.a = graph_cost(a, reg, model);
  d.b = graph_cost(b, reg, model);
  auto calls_a = calls_by_name(a, d.a), calls_b = calls_by_name(b, d.b);
  for (const auto& [name, nc] : kernels_by_name(a, d.a)) {
    NodeCostDiff row{name, node_op_name(a, nc->node, reg), "", nc->cost, std::nullopt};
    if (auto it = calls_b.find(name); it != calls_b.end()) {
      row.op_b = node_op_name(b, it->second->node, reg);
      row.b = kernel_or_none(it->second);
    }
    d.rows.push_back(std::move(row));
  }
  for (const auto& [name, nc] : kernels_by_name(b, d.b)) {
    auto it = calls_a.find(name);
    if (it != calls_a.end() && it->second->cost.is_kernel) continue;  // already a row
    NodeCostDiff row{name, "", node_op_name(b, nc->node, reg), std::nullopt, nc->cost};
    if (it != calls_a.end()) row.op_a = node_op_name(a, it->second->node, reg);
    d.rows.push_back(std::move(row));
  }
  return d;
}

namespace {

// Names of the call nodes folded as computed once from frozen inputs, in program order.
std::vector<std::string> folded_nodes(const Graph& g, const GraphCost& cost) {
  std::vector<std::string> out;
  for (const NodeCost& nc : cost.nodes)
    if (nc.cost.note == kFoldedNote) out.push_back(g.node(nc.node).name);
  return out;
}

}  // namespace

std::string format_cost_table(const Graph& g, const GraphCost& cost, const OpRegistry& reg,
                              const CostModel& model) {
  std::string out = fmt::format("cost on {}: {} kernels\n", model.describe(), cost.kernels);
  out +=
      fmt::format("  {:<28} {:<36} {:<6} {:>12} {:>7} {:>7} {:>9} {:>9} {:>9}  {}\n", "node", "op",
                  "class", "bytes", "launch", "fixed", "memory", "compute", "total", "note");
  for (const NodeCost& nc : cost.nodes) {
    const CostBreakdown& c = nc.cost;
    if (!c.is_kernel) continue;
    out += fmt::format(
        "  {:<28} {:<36} {:<6} {:>12.0f} {:>7.3f} {:>7.3f} {:>9.3f} {:>9.3f} {:>9.3f}{}\n",
        g.node(nc.node).name, node_op_name(g, nc.node, reg), kernel_class_name(c.kernel_class),
        c.bytes, c.launch_us, c.fixed_us, c.memory_us, c.compute_us, c.total_us, host_note(c));
  }
  if (std::vector<std::string> folded = folded_nodes(g, cost); !folded.empty()) {
    std::string names;
    for (const std::string& n : folded) names += (names.empty() ? "" : ", ") + n;
    out += fmt::format("  {} ({} node(s)): {}\n", kFoldedNote, folded.size(), names);
  }
  out += fmt::format("  per graph: {:.3f} us\n", model.per_graph_us());
  if (cost.host_us > 0)
    out += fmt::format(
        "  host dispatch: {:.3f} us over all call nodes; {} of {} kernels host-bound (a kernel "
        "costs max(host, device))\n",
        cost.host_us, cost.host_bound, cost.kernels);
  out += fmt::format(
      "  total: {:.3f} us (launch {:.3f}, fixed {:.3f}, memory {:.3f}, compute {:.3f}); "
      "simulated {:.3f} us\n",
      cost.total_us, cost.launch_us, cost.fixed_us, cost.memory_us, cost.compute_us,
      cost.simulated_us);
  return out;
}

std::string format_cost_diff(const GraphCostDiff& d) {
  std::string out =
      fmt::format("cost on {}: A {} kernels, B {} kernels\n", d.model, d.a.kernels, d.b.kernels);
  out += fmt::format("  {:<28} {:<36} {:<36} {:>9} {:>9} {:>9}\n", "node", "op in A", "op in B",
                     "A us", "B us", "delta");
  for (const NodeCostDiff& r : d.rows)
    out += fmt::format("  {:<28} {:<36} {:<36} {:>9} {:>9} {:>+9.3f}\n", r.node,
                       r.op_a.empty() ? "-" : r.op_a, r.op_b.empty() ? "-" : r.op_b,
                       us_or_dash(r.a), us_or_dash(r.b), r.delta_us());
  out += fmt::format("  {:<28} {:<36} {:<36} {:>9.3f} {:>9.3f} {:>+9.3f}\n", "per graph", "", "",
                     d.per_graph_us, d.per_graph_us, 0.0);
  out += fmt::format("  {:<28} {:<36} {:<36} {:>9.3f} {:>9.3f} {:>+9.3f}\n", "total", "", "",
                     d.a.total_us, d.b.total_us, d.delta_us());
  out += fmt::format("  simulated: A {:.3f} us, B {:.3f} us\n", d.a.simulated_us, d.b.simulated_us);
  return out;
}

std::string cost_table_to_json(const Graph& g, const GraphCost& cost, const OpRegistry& reg,
                               const CostModel& model) {
  Json j;
  j["model"] = model.describe();
  j["per_graph_us"] = model.per_graph_us();
  j["totals"] = totals_json(cost);
  j["kernels"] = Json::array();
  for (const NodeCost& nc : cost.nodes) {
    if (!nc.cost.is_kernel) continue;
    Json k{{"node", g.node(nc.node).name}, {"op", node_op_name(g, nc.node, reg)}};
    k.update(breakdown_json(nc.cost));
    j["kernels"].push_back(std::move(k));
  }
  j["folded"] = folded_nodes(g, cost);  // computed once from frozen inputs
  return j.dump(2);
}

std::string cost_diff_to_json(const GraphCostDiff& d) {
  Json j;
  j["model"] = d.model;
  j["per_graph_us"] = d.per_graph_us;
  j["a"] = totals_json(d.a);
  j["b"] = totals_json(d.b);
  j["delta_us"] = d.delta_us();
  j["rows"] = Json::array();
  for (const NodeCostDiff& r : d.rows) {
    Json row{{"node", r.node}, {"op_a", r.op_a}, {"op_b", r.op_b}};
    row["a"] = r.a ? breakdown_json(*r.a) : Json(nullptr);
    row["b"] = r.b ? breakdown_json(*r.b) : Json(nullptr);
    row["delta_us"] = r.delta_us();
    j["rows"].push_back(std::move(row));
  }
  return j.dump(2);
}

}  // namespace eqfuse
