// Inline SVG drawn by eqfuse itself for the HTML explanation
// (pipeline/explain/html.hpp), so that the page needs neither scripts nor
// Graphviz: the bar chart of modeled time by kernel kind before and after,
// and small local drawings of a fusion site (also as DOT text, for `dot`
// when it is available).
//
//   std::string chart = bar_chart_svg({{"bmm", 120.0, 0.0}, ...}, "µs");
//   LocalGraph site = ...;   // a few nodes around a fusion
//   std::string svg = local_graph_svg(site);
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace eqfuse::html_detail {

// One kernel kind (op class or op) with its modeled time before and after.
struct Bar {
  std::string label;
  double before = 0, after = 0;
};

// Horizontal grouped bars, one pair per entry, longest scale = the largest
// value; "" when `bars` is empty.
std::string bar_chart_svg(const std::vector<Bar>& bars, std::string_view unit);

// The `keep` largest bars (by the larger of before and after) and one
// "other" bar summing the rest.
std::vector<Bar> top_bars(std::vector<Bar> bars, size_t keep);

struct LocalNode {
  std::vector<std::string> lines;  // label lines: name, op, shape, cost
  bool core = false;               // part of the fusion (filled), else context (dashed)
};

// A few nodes around a fusion site; edges are (from, to) indices into nodes.
struct LocalGraph {
  std::vector<LocalNode> nodes;
  std::vector<std::pair<size_t, size_t>> edges;
};

// Rows by longest path from the sources, boxes centred in each row.
std::string local_graph_svg(const LocalGraph& g);
// The same drawing for Graphviz.
std::string local_graph_dot(const LocalGraph& g);

}  // namespace eqfuse::html_detail
