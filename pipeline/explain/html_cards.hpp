// The fusion-site cards of the HTML explanation (pipeline/explain/html.hpp)
// and the per-node modeled costs they and the page's chart show.
//
//   PricedGraph cost = price_graph(graph, rep.device, rep.mode);
//   SiteDrawer drawer{.use_dot = true};
//   CardContext ctx{before, after, before_cost, after_cost, users, drawer, {}};
//   std::string card = fusion_card(rep.chosen[i], i, ctx);  // <section id="fusion-i">
//
// A card holds the site's local drawings (the replaced nodes and their
// inputs before; the fused kernel, its inputs and projections after; shapes
// and per-kernel µs in the boxes), the fused-vs-unfused cost table and the
// proof folded in a <details>. Drawings go through Graphviz while `dot`
// works and a budget of renders lasts, else eqfuse draws the SVG itself.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "cost/cost_model.hpp"
#include "graph/graph.hpp"
#include "pipeline/explain/html_svg.hpp"
#include "pipeline/explain/report.hpp"

namespace eqfuse::html_detail {

// Modeled µs of every node (0 for free ops) under the report's device and
// mode; `priced` is false (and `why_not` says why) when the device profile
// or mode cannot be loaded.
struct PricedGraph {
  bool priced = false;
  std::string why_not;
  std::vector<double> us;
  std::vector<char> kernel;  // 1 where the node launches a kernel
  size_t kernels = 0;
  double total_us = 0;
};

PricedGraph price_graph(const Graph& g, std::string_view device, std::string_view mode);
// The same from prices computed before (`cost` of a graph of `nodes` nodes).
PricedGraph priced_graph(const GraphCost& cost, size_t nodes);

// Modeled µs per op of the graph's kernels, keyed by short op name.
std::vector<Bar> time_by_kind(const Graph& before, const PricedGraph& before_cost,
                              const Graph& after, const PricedGraph& after_cost);

// The replaced nodes of a fusion and their inputs.
LocalGraph site_before(const Graph& g, const PricedGraph& cost,
                       const std::vector<std::string>& replaces);
// The fused kernel, its inputs and its getitem projections.
LocalGraph site_after(const Graph& g, const PricedGraph& cost,
                      const std::vector<std::vector<NodeRef>>& users, std::string_view fused);

// Draws local graphs: with `dot` while it works and `dot_budget` renders
// last, else with local_graph_svg. A `dot` that fails once is not tried
// again for the rest of the page. The `dot` drawings are deferred: draw()
// returns a placeholder and finish() puts every drawing in, all made by one
// `dot` process (a process start costs more than a small graph), or one
// process per graph when that fails, so the page is the same either way.
struct SiteDrawer {
  bool use_dot = true;
  double timeout_s = 2;
  size_t dot_budget = 40;
  std::string draw(const LocalGraph& g);
  // Replaces the placeholders draw() returned in `html` with the drawings.
  void finish(std::string& html);

  // Filled by draw() (an aggregate, so callers name the settings above).
  std::vector<std::string> pending_dot = {};       // DOT text per placeholder
  std::vector<std::string> pending_fallback = {};  // local_graph_svg per placeholder
};

struct CardContext {
  const Graph& before;
  const Graph& after;
  const PricedGraph& before_cost;
  const PricedGraph& after_cost;
  std::vector<std::vector<NodeRef>> after_users;
  SiteDrawer& drawer;
  // Per fusion: a link to its region of the overview ("" without one).
  std::vector<std::string> region_links;
};

// "npu_add_rms_norm_quant" or "fused_3 = npu_add_rms_norm_quant".
std::string fusion_title(const ChosenFusion& f);

std::string fusion_card(const ChosenFusion& f, size_t index, CardContext& ctx);
// The compact form for sites past the first few of a rule: one table row
// `fusion-N` (the table header is fusion_rows_header()).
std::string fusion_row(const ChosenFusion& f, size_t index, const CardContext& ctx);
std::string fusion_rows_header();

}  // namespace eqfuse::html_detail
