// Fusion-site cards and per-node costs of the HTML explanation
// (pipeline/explain/html_cards.hpp).
#include "pipeline/explain/html_cards.hpp"

#include <algorithm>
#include <exception>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
#include "graph/exec_mode.hpp"
#include "graph/op_registry.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/html_layout.hpp"

namespace eqfuse::html_detail {
namespace {

// Context nodes (inputs) drawn around a site at most; more would make the
// "local" drawing as wide as the graph around a concat.
constexpr size_t kMaxContext = 6;
constexpr size_t kMaxProjections = 4;
constexpr size_t kMaxShapeChars = 30;

// The page is priced with the built-in ops: the graphs' op ids may come
// from a registry with custom ops, so ops are looked up again by name.
const OpRegistry& builtin_ops() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph with_builtin_op_ids(const Graph& g) {
  Graph copy = g;
  for (Node& n : copy.nodes())
    if (n.kind == NodeKind::Call && n.op != kNoOp)
      n.op = builtin_ops().find(n.target).value_or(kNoOp);
  return copy;
}

std::string shape_line(const Node& n) {
  std::string shape = to_annotation(n.type);
  if (shape.size() > kMaxShapeChars) shape = shape.substr(0, kMaxShapeChars - 1) + "…";
  return shape;
}

// Label, shape and (for a priced kernel) its modeled µs.
LocalNode local_node(const Graph& g, NodeRef r, const PricedGraph& cost, bool core) {
  const Node& n = g.node(r);
  LocalNode out{node_label_lines(n), core};
  if (std::string shape = shape_line(n); !shape.empty()) out.lines.push_back(shape);
  size_t i = static_cast<size_t>(r.index);
  if (core && cost.priced && cost.kernel[i])
    out.lines.push_back(fmt::format("{:.1f} µs", cost.us[i]));
  return out;
}

// Builds a LocalGraph from graph nodes, one box per node.
struct LocalBuilder {
  const Graph& g;
  const PricedGraph& cost;
  LocalGraph out;
  std::map<int32_t, size_t> index;

  size_t add(NodeRef r, bool core) {
    auto [it, fresh] = index.emplace(r.index, out.nodes.size());
    if (fresh) out.nodes.push_back(local_node(g, r, cost, core));
    return it->second;
  }
  // Each core node's inputs, as context boxes while there is room.
  void add_inputs(const std::vector<NodeRef>& core) {
    size_t context = 0;
    for (NodeRef r : core) {
      std::set<int32_t> seen;
      for (NodeRef in : node_inputs(g.node(r))) {
        if (!seen.insert(in.index).second) continue;
        bool known = index.count(in.index) > 0;
        if (!known && context == kMaxContext) continue;
        context += !known;
        out.edges.emplace_back(add(in, false), index.at(r.index));
      }
    }
  }
};

std::string cost_row(std::string_view what, double fused, double unfused) {
  return fmt::format("<tr><td>{}</td><td>{:.2f}</td><td>{:.2f}</td></tr>\n", what, fused, unfused);
}

std::string cost_table(const ChosenFusion& f) {
  std::string out = fmt::format(
      "<table class=\"cost\"><tr><th>µs</th><th>fused</th><th>unfused ({} kernels)</th></tr>\n",
      f.unfused.kernels);
  out += cost_row("launch", f.cost.launch_us, f.unfused.launch_us);
  out += cost_row("fixed", f.cost.fixed_us, f.unfused.fixed_us);
  out += cost_row("memory", f.cost.memory_us, f.unfused.memory_us);
  out += cost_row("compute", f.cost.compute_us, f.unfused.compute_us);
  out += cost_row("total", f.cost.total_us, f.unfused.total_us);
  return out + "</table>\n";
}

// The proof folded: a reader opens it when the cost table is not enough.
std::string proof_details(const ChosenFusion& f) {
  std::string out;
  if (!f.proof.empty()) {
    out +=
        fmt::format("<details class=\"proof\"><summary>proof: {} rewrite step(s)</summary>\n<ol>\n",
                    f.proof.size() - 1);
    for (const ProofStep& s : f.proof)
      out += fmt::format(
          "<li>{}<code>{}</code></li>\n",
          s.rule.empty() ? std::string("start: ") : "by <b>" + escape_html(s.rule) + "</b>: ",
          escape_html(readable_term(s.term)));
    out += "</ol>\n</details>\n";
  }
  if (!f.proof_note.empty())
    out += fmt::format("<p class=\"note\">proof: {}</p>\n", escape_html(f.proof_note));
  return out;
}

std::string saving_text(const ChosenFusion& f) {
  return fmt::format("{:.1f} µs → {:.1f} µs", f.unfused.total_us, f.cost.total_us);
}

std::string figure(std::string_view caption, std::string drawing) {
  if (drawing.empty()) return "";
  return fmt::format("<figure><figcaption>{}</figcaption>\n{}\n</figure>\n", caption, drawing);
}

}  // namespace

PricedGraph priced_graph(const GraphCost& cost, size_t nodes) {
  PricedGraph p;
  p.us.assign(nodes, 0);
  p.kernel.assign(nodes, 0);
  for (const NodeCost& n : cost.nodes) {
    size_t i = static_cast<size_t>(n.node.index);
    if (i >= nodes) continue;
    p.kernel[i] = n.cost.kernel_count > 0;
    p.us[i] = p.kernel[i] ? n.cost.total_us : 0;
  }
  p.kernels = cost.kernels;
  p.total_us = cost.total_us;
  p.priced = true;
  return p;
}

PricedGraph price_graph(const Graph& g, std::string_view device, std::string_view mode) {
  try {
    NpuCostModel model(load_device_profile(device), parse_exec_mode(mode));
    return priced_graph(graph_cost(with_builtin_op_ids(g), builtin_ops(), model), g.size());
  } catch (const std::exception& e) {
    PricedGraph p;
    p.us.assign(g.size(), 0);
    p.kernel.assign(g.size(), 0);
    p.why_not = e.what();
    return p;
  }
}

std::vector<Bar> time_by_kind(const Graph& before, const PricedGraph& before_cost,
                              const Graph& after, const PricedGraph& after_cost) {
  std::map<std::string, Bar> kinds;
  auto add = [&](const Graph& g, const PricedGraph& cost, double Bar::*side) {
    for (size_t i = 0; i < g.size(); ++i) {
      if (!cost.priced || !cost.kernel[i]) continue;
      Bar& b = kinds[short_op(g.nodes()[i].target)];
      b.*side += cost.us[i];
    }
  };
  add(before, before_cost, &Bar::before);
  add(after, after_cost, &Bar::after);
  std::vector<Bar> bars;
  for (auto& [kind, bar] : kinds) {
    bar.label = kind;
    bars.push_back(bar);
  }
  return bars;
}

LocalGraph site_before(const Graph& g, const PricedGraph& cost,
                       const std::vector<std::string>& replaces) {
  LocalBuilder b{g, cost, {}, {}};
  std::vector<NodeRef> core;
  for (const std::string& name : replaces)
    if (auto r = g.find(name)) core.push_back(*r);
  for (NodeRef r : core) b.add(r, true);
  b.add_inputs(core);
  return b.out;
}

LocalGraph site_after(const Graph& g, const PricedGraph& cost,
                      const std::vector<std::vector<NodeRef>>& users, std::string_view fused) {
  LocalBuilder b{g, cost, {}, {}};
  std::optional<NodeRef> r = g.find(fused);
  if (!r) return b.out;
  size_t fused_box = b.add(*r, true);
  b.add_inputs({*r});
  size_t shown = 0;
  for (NodeRef u : users.at(static_cast<size_t>(r->index))) {
    if (g.node(u).kind != NodeKind::GetItem || shown++ == kMaxProjections) continue;
    b.out.edges.emplace_back(fused_box, b.add(u, false));
  }
  return b.out;
}

namespace {
// Marks a deferred drawing in the page text; no page text holds \x1e.
constexpr std::string_view kDrawingMark =
    "\x1e"
    "eqfuse-drawing-";
}  // namespace

std::string SiteDrawer::draw(const LocalGraph& g) {
  if (g.nodes.empty()) return "";
  if (use_dot && dot_budget > 0) {
    --dot_budget;
    pending_dot.push_back(local_graph_dot(g));
    pending_fallback.push_back(local_graph_svg(g));
    return fmt::format("{}{}\x1e", kDrawingMark, pending_dot.size() - 1);
  }
  return local_graph_svg(g);
}

void SiteDrawer::finish(std::string& html) {
  if (pending_dot.empty()) return;
  std::vector<std::string> drawn;
  if (auto all = render_dots(pending_dot, timeout_s)) {
    drawn = std::move(*all);
  } else {
    // One at a time, as before batching: the first failure ends `dot` here.
    for (size_t i = 0; i < pending_dot.size(); ++i) {
      DotRender r = use_dot ? render_dot(pending_dot[i], timeout_s) : DotRender{};
      if (!r.svg) use_dot = false;
      drawn.push_back(r.svg ? std::move(*r.svg) : pending_fallback[i]);
    }
  }
  std::string out;
  out.reserve(html.size());
  size_t at = 0;
  for (size_t mark = html.find(kDrawingMark); mark != std::string::npos;
       mark = html.find(kDrawingMark, at)) {
    const size_t index_at = mark + kDrawingMark.size();
    const size_t end = html.find('\x1e', index_at);
    const size_t index = std::stoul(html.substr(index_at, end - index_at));
    out.append(html, at, mark - at);
    out += drawn.at(index);
    at = end + 1;
  }
  out.append(html, at, std::string::npos);
  html = std::move(out);
  pending_dot.clear();
  pending_fallback.clear();
}

std::string fusion_title(const ChosenFusion& f) {
  std::string op = short_op(f.op);
  if (op_repeats_name(f.node, op)) return f.node;
  return f.node + " = " + op;
}

std::string fusion_card(const ChosenFusion& f, size_t index, CardContext& ctx) {
  std::string out = fmt::format(
      "<section class=\"card fusion\" id=\"fusion-{}\">\n<h4>{}</h4>\n<p class=\"meta\">rule "
      "<code>{}</code> · replaces {} · {}{}</p>\n",
      index, escape_html(fusion_title(f)), escape_html(f.rule),
      escape_html(fmt::format("{}", fmt::join(f.replaces, ", "))), saving_text(f),
      ctx.region_links.empty() ? "" : " · " + ctx.region_links.at(index));
  for (const std::string& a : f.assumes)
    out += fmt::format(
        "<p class=\"meta assumption\">assumes <code>{}</code>: a relation of the inputs the "
        "graph cannot show, accepted by the run's preset or config</p>\n",
        escape_html(a));
  out += "<div class=\"site\">\n";
  out += figure("before", ctx.drawer.draw(site_before(ctx.before, ctx.before_cost, f.replaces)));
  out += figure("after",
                ctx.drawer.draw(site_after(ctx.after, ctx.after_cost, ctx.after_users, f.node)));
  out += cost_table(f) + "</div>\n";
  return out + proof_details(f) + "</section>\n";
}

std::string fusion_rows_header() {
  return "<tr><th>site</th><th>where</th><th>replaces</th><th>unfused → fused</th>"
         "<th>saved µs</th></tr>\n";
}

std::string fusion_row(const ChosenFusion& f, size_t index, const CardContext& ctx) {
  return fmt::format(
      "<tr id=\"fusion-{}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1f}</td></tr>\n",
      index, escape_html(f.node), ctx.region_links.empty() ? "" : ctx.region_links.at(index),
      escape_html(fmt::format("{}", fmt::join(f.replaces, ", "))), saving_text(f),
      f.unfused.total_us - f.cost.total_us);
}

}  // namespace eqfuse::html_detail
