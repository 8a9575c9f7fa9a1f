// The bar chart and local fusion-site drawings of the HTML explanation
// (pipeline/explain/html_svg.hpp).
#include "pipeline/explain/html_svg.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "pipeline/explain/html_layout.hpp"

namespace eqfuse::html_detail {
namespace {

// Shared with the page's legend (html.cpp) so the colours agree.
constexpr std::string_view kBeforeFill = "#9aa5b1";
constexpr std::string_view kAfterFill = "#e67e22";
constexpr std::string_view kCoreFill = "#f5b041";

// Chart geometry (px): label column, bar area, value column; a pair of
// bars per row.
constexpr double kLabelW = 190, kBarW = 360, kValueW = 90, kBarH = 10, kRowH = 28, kTop = 26;

std::string chart_legend() {
  return fmt::format(
      "<rect x=\"{0}\" y=\"4\" width=\"12\" height=\"10\" fill=\"{1}\"/>"
      "<text x=\"{2}\" y=\"13\">before</text>"
      "<rect x=\"{3}\" y=\"4\" width=\"12\" height=\"10\" fill=\"{4}\"/>"
      "<text x=\"{5}\" y=\"13\">after</text>\n",
      kLabelW, kBeforeFill, kLabelW + 16, kLabelW + 80, kAfterFill, kLabelW + 96);
}

// One bar with its value written after it; a zero value shows "0".
std::string chart_bar(double y, double value, double scale, std::string_view fill,
                      std::string_view unit, std::string_view what) {
  double w = value > 0 ? std::max(1.0, value * scale) : 0;
  return fmt::format(
      "<rect x=\"{:.0f}\" y=\"{:.0f}\" width=\"{:.1f}\" height=\"{:.0f}\" fill=\"{}\">"
      "<title>{}: {:.1f} {}</title></rect>"
      "<text x=\"{:.0f}\" y=\"{:.0f}\" class=\"v\">{:.1f}</text>\n",
      kLabelW, y, w, kBarH, fill, what, value, unit, kLabelW + w + 4, y + kBarH - 1, value);
}

// Per-node text width estimate for an 11 px sans-serif font.
double text_width(const std::vector<std::string>& lines) {
  size_t longest = 0;
  for (const std::string& l : lines) longest = std::max(longest, l.size());
  return static_cast<double>(longest) * 6.4 + 16;
}

// Row of each node: the longest edge path reaching it (edges may come in
// any order, so relax until nothing changes; the graphs are a few nodes).
std::vector<size_t> node_rows(const LocalGraph& g) {
  std::vector<size_t> row(g.nodes.size(), 0);
  for (size_t pass = 0; pass < g.nodes.size(); ++pass) {
    bool changed = false;
    for (auto [from, to] : g.edges)
      if (from != to && row[to] < row[from] + 1) row[to] = row[from] + 1, changed = true;
    if (!changed) break;
  }
  return row;
}

struct Box {
  double x = 0, y = 0, w = 0, h = 0;
};

// Boxes placed row by row, each row centred on the widest.
std::vector<Box> place_boxes(const LocalGraph& g, double& width, double& height) {
  constexpr double kGapX = 14, kGapY = 34, kLineH = 13;
  std::vector<size_t> rows = node_rows(g);
  size_t n_rows = rows.empty() ? 0 : *std::max_element(rows.begin(), rows.end()) + 1;
  std::vector<Box> boxes(g.nodes.size());
  std::vector<double> row_w(n_rows, 0), row_h(n_rows, 0);
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    boxes[i].w = text_width(g.nodes[i].lines);
    boxes[i].h = static_cast<double>(g.nodes[i].lines.size()) * kLineH + 8;
    row_w[rows[i]] += boxes[i].w + kGapX;
    row_h[rows[i]] = std::max(row_h[rows[i]], boxes[i].h);
  }
  width = row_w.empty() ? 0 : *std::max_element(row_w.begin(), row_w.end()) + kGapX;
  std::vector<double> row_y(n_rows, 4), next_x(n_rows);
  for (size_t r = 1; r < n_rows; ++r) row_y[r] = row_y[r - 1] + row_h[r - 1] + kGapY;
  for (size_t r = 0; r < n_rows; ++r) next_x[r] = (width - row_w[r]) / 2 + kGapX / 2;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    boxes[i].x = next_x[rows[i]];
    boxes[i].y = row_y[rows[i]];
    next_x[rows[i]] += boxes[i].w + kGapX;
  }
  height = n_rows == 0 ? 0 : row_y.back() + row_h.back() + 6;
  return boxes;
}

// A line from the bottom of `a` to the top of `b`, with an arrow head.
std::string edge_svg(const Box& a, const Box& b) {
  double x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
  double len = std::hypot(x2 - x1, y2 - y1);
  if (len < 1) return "";
  double ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  double bx = x2 - 7 * ux, by = y2 - 7 * uy;  // base of the head
  return fmt::format(
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"/>"
      "<polygon points=\"{:.1f},{:.1f} {:.1f},{:.1f} {:.1f},{:.1f}\"/>\n",
      x1, y1, bx, by, x2, y2, bx - 3.5 * uy, by + 3.5 * ux, bx + 3.5 * uy, by - 3.5 * ux);
}

std::string node_svg(const LocalNode& n, const Box& b) {
  std::string out = fmt::format(
      "<g class=\"{}\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" "
      "rx=\"3\"/>",
      n.core ? "core" : "ctx", b.x, b.y, b.w, b.h);
  for (size_t i = 0; i < n.lines.size(); ++i)
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}>{}</text>", b.x + b.w / 2,
                       b.y + 15 + 13 * static_cast<double>(i), i == 0 ? " class=\"n\"" : "",
                       escape_html(n.lines[i]));
  return out + "</g>\n";
}

}  // namespace

std::vector<Bar> top_bars(std::vector<Bar> bars, size_t keep) {
  auto size = [](const Bar& b) { return std::max(b.before, b.after); };
  std::stable_sort(bars.begin(), bars.end(),
                   [&](const Bar& a, const Bar& b) { return size(a) > size(b); });
  if (bars.size() <= keep + 1) return bars;
  Bar other{fmt::format("other ({} kinds)", bars.size() - keep), 0, 0};
  for (size_t i = keep; i < bars.size(); ++i) {
    other.before += bars[i].before;
    other.after += bars[i].after;
  }
  bars.resize(keep);
  bars.push_back(other);
  return bars;
}

std::string bar_chart_svg(const std::vector<Bar>& bars, std::string_view unit) {
  if (bars.empty()) return "";
  double top = 0;
  for (const Bar& b : bars) top = std::max({top, b.before, b.after});
  double scale = top > 0 ? kBarW / top : 0;
  double height = kTop + kRowH * static_cast<double>(bars.size());
  std::string out = fmt::format(
      "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" "
      "height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\" "
      "aria-label=\"modeled time by kernel kind, before and after\">\n",
      kLabelW + kBarW + kValueW, height);
  out += chart_legend();
  for (size_t i = 0; i < bars.size(); ++i) {
    double y = kTop + kRowH * static_cast<double>(i);
    std::string label = escape_html(bars[i].label);
    out += fmt::format("<text x=\"{:.0f}\" y=\"{:.0f}\" class=\"k\">{}</text>\n", kLabelW - 6,
                       y + kBarH + 3, label);
    out += chart_bar(y, bars[i].before, scale, kBeforeFill, unit, label + " before");
    out += chart_bar(y + kBarH + 1, bars[i].after, scale, kAfterFill, unit, label + " after");
  }
  return out + "</svg>";
}

std::string local_graph_svg(const LocalGraph& g) {
  double width = 0, height = 0;
  std::vector<Box> boxes = place_boxes(g, width, height);
  std::string out = fmt::format(
      "<svg class=\"local\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" "
      "height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} {1:.0f}\">\n",
      width, height);
  for (auto [from, to] : g.edges) out += edge_svg(boxes[from], boxes[to]);
  for (size_t i = 0; i < g.nodes.size(); ++i) out += node_svg(g.nodes[i], boxes[i]);
  return out + "</svg>";
}

std::string local_graph_dot(const LocalGraph& g) {
  std::string out = "digraph site {\n  node [shape=box, fontsize=10, fontname=\"sans-serif\"];\n";
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    std::string label;
    for (const std::string& l : g.nodes[i].lines)
      label += (label.empty() ? "" : "\\n") + escape_dot(l);
    out += fmt::format("  n{} [label=\"{}\", {}];\n", i, label,
                       g.nodes[i].core ? fmt::format("style=filled, fillcolor=\"{}\"", kCoreFill)
                                       : std::string("style=dashed, color=\"#888888\""));
  }
  for (auto [from, to] : g.edges) out += fmt::format("  n{} -> n{};\n", from, to);
  return out + "}\n";
}

}  // namespace eqfuse::html_detail
