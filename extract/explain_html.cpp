// explanation_to_html and its Graphviz helpers (extract/explain_html.hpp).
#include "extract/explain_html.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace eqfuse {
namespace {

std::string escape_html(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string escape_dot(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

// "npu::npu_add_rms_norm.default" -> "npu_add_rms_norm"
std::string short_op(std::string_view target) {
  size_t colon = target.rfind("::");
  if (colon != std::string_view::npos) target.remove_prefix(colon + 2);
  size_t dot = target.find('.');
  return std::string(target.substr(0, dot));
}

std::string dot_node_label(const Node& n) {
  switch (n.kind) {
    case NodeKind::Placeholder:
      return n.name;
    case NodeKind::GetAttr:
      return n.name + "\\n" + escape_dot(n.target);
    case NodeKind::GetItem:
      return fmt::format("{}[{}]", n.name, n.getitem_index());
    case NodeKind::Output:
      return "output";
    case NodeKind::Call:
      return n.name + "\\n" + escape_dot(short_op(n.target));
  }
  return n.name;
}

std::string dot_node_style(const Node& n) {
  switch (n.kind) {
    case NodeKind::Placeholder:
    case NodeKind::GetAttr:
      return "shape=ellipse";
    case NodeKind::GetItem:
      return "shape=plaintext, fontsize=10";
    case NodeKind::Output:
      return "shape=doublecircle";
    case NodeKind::Call:
      return "shape=box";
  }
  return "";
}

// Path of `dot` found on PATH, or empty.
std::string find_dot() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    size_t colon = rest.find(':');
    std::filesystem::path dir(std::string(rest.substr(0, colon)));
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    std::filesystem::path candidate = dir / "dot";
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

std::string cost_row(std::string_view what, double fused, double unfused) {
  return fmt::format("<tr><td>{}</td><td>{:.2f}</td><td>{:.2f}</td></tr>\n", what, fused, unfused);
}

std::string chosen_section(const ExplainReport& rep) {
  std::string out = "<h2>Chosen fusions</h2>\n";
  if (rep.chosen.empty()) out += "<p>none</p>\n";
  for (size_t i = 0; i < rep.chosen.size(); ++i) {
    const ChosenFusion& f = rep.chosen[i];
    out += fmt::format("<section class=\"fusion\" id=\"fusion-{}\">\n<h3>{} = {}</h3>\n", i,
                       escape_html(f.node), escape_html(f.op));
    out += fmt::format("<p>rule <code>{}</code>; replaces {}</p>\n", escape_html(f.rule),
                       escape_html(fmt::format("{}", fmt::join(f.replaces, ", "))));
    out += fmt::format("<table><tr><th>µs</th><th>fused</th><th>unfused ({} kernels)</th></tr>\n",
                       f.unfused.kernels);
    out += cost_row("launch", f.cost.launch_us, f.unfused.launch_us);
    out += cost_row("fixed", f.cost.fixed_us, f.unfused.fixed_us);
    out += cost_row("memory", f.cost.memory_us, f.unfused.memory_us);
    out += cost_row("compute", f.cost.compute_us, f.unfused.compute_us);
    out += cost_row("total", f.cost.total_us, f.unfused.total_us);
    out += "</table>\n";
    if (!f.proof.empty()) {
      out += "<ol class=\"proof\">\n";
      for (const ProofStep& s : f.proof)
        out += fmt::format("<li><code>{}</code>{}</li>\n", escape_html(s.term),
                           s.rule.empty() ? "" : " <em>by " + escape_html(s.rule) + "</em>");
      out += "</ol>\n";
    }
    if (!f.proof_note.empty())
      out += fmt::format("<p class=\"note\">proof: {}</p>\n", escape_html(f.proof_note));
    out += "</section>\n";
  }
  return out;
}

std::string list_section(std::string_view title, const std::vector<std::string>& items) {
  std::string out = fmt::format("<h2>{}</h2>\n<ul>\n", title);
  if (items.empty()) out += "<li>none</li>\n";
  for (const std::string& s : items) out += fmt::format("<li>{}</li>\n", escape_html(s));
  return out + "</ul>\n";
}

std::string rule_table(const ExplainReport& rep) {
  std::string out =
      "<h2>Rules</h2>\n<table><tr><th>rule</th><th>candidates</th><th>fired</th>"
      "<th>chosen</th><th>rejected</th><th>note</th></tr>\n";
  for (const RuleRunStats& s : rep.rules) {
    std::string note = s.enabled ? "" : "off: " + s.toggle_reason;
    for (const auto& [cond, n] : s.rejected_by) note += fmt::format("{}x `{}` ", n, cond);
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape_html(s.rule), s.matches, s.applications, s.chosen, s.rejected, escape_html(note));
  }
  return out + "</table>\n";
}

std::string graph_section(std::string_view title, const std::string& dot, bool use_dot) {
  std::string out = fmt::format("<h2>{}</h2>\n", title);
  std::optional<std::string> svg = use_dot ? render_dot_svg(dot) : std::nullopt;
  if (svg) return out + "<div class=\"graph\">\n" + *svg + "\n</div>\n";
  out +=
      "<p class=\"note\">Graphviz <code>dot</code> was not found on PATH, so the graph is "
      "shown as DOT text; render it with <code>dot -Tsvg</code>.</p>\n";
  return out + "<pre class=\"dot\">" + escape_html(dot) + "</pre>\n";
}

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:80em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #aaa;padding:2px 8px;"
    "text-align:right}td:first-child{text-align:left}section.fusion{border-left:4px solid "
    "#e67e22;padding-left:1em;margin:1em 0}.note{color:#555}pre.dot{background:#f4f4f4;"
    "padding:1em;overflow:auto}code{font-size:90%}";

}  // namespace

std::string graph_to_dot(const Graph& g, const std::map<std::string, std::string>& links,
                         std::string_view title) {
  std::string out =
      fmt::format("digraph \"{}\" {{\n  rankdir=TB;\n  node [fontsize=11];\n", escape_dot(title));
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    const Node& n = g.nodes()[i];
    std::string style = dot_node_style(n);
    auto link = links.find(n.name);
    if (link != links.end())
      style += fmt::format(", style=filled, fillcolor=\"#f5b041\", URL=\"{}\"", link->second);
    out += fmt::format("  n{} [label=\"{}\", {}];\n", i, dot_node_label(n), style);
  }
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    std::set<int> seen;
    for (NodeRef a : node_inputs(g.nodes()[i]))
      if (seen.insert(a.index).second) out += fmt::format("  n{} -> n{};\n", a.index, i);
  }
  return out + "}\n";
}

std::optional<std::string> render_dot_svg(const std::string& dot_text) {
  std::string dot = find_dot();
  if (dot.empty()) return std::nullopt;
  std::string tmpl = (std::filesystem::temp_directory_path() / "eqfuse-dot-XXXXXX").string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) return std::nullopt;
  ::close(fd);
  { std::ofstream(tmpl) << dot_text; }
  std::string svg;
  if (FILE* pipe = ::popen(fmt::format("'{}' -Tsvg '{}'", dot, tmpl).c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) svg.append(buf, n);
    if (::pclose(pipe) != 0) svg.clear();
  }
  std::filesystem::remove(tmpl);
  size_t start = svg.find("<svg");
  if (start == std::string::npos) return std::nullopt;
  return svg.substr(start);  // drop the XML prolog and DOCTYPE (not valid inside HTML)
}

std::string explanation_to_html(const ExplainReport& rep, const Graph& before, const Graph& after,
                                const HtmlOptions& options) {
  std::map<std::string, std::string> before_links, after_links;
  for (size_t i = 0; i < rep.chosen.size(); ++i) {
    std::string anchor = fmt::format("#fusion-{}", i);
    after_links[rep.chosen[i].node] = anchor;
    for (const std::string& n : rep.chosen[i].replaces) before_links[n] = anchor;
  }
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>eqfuse explain</title>\n<style>" + std::string(kStyle) + "</style>\n";
  out += "</head>\n<body>\n<h1>eqfuse explain</h1>\n";
  out += fmt::format("<p>{} on {}: modeled {:.1f} µs &rarr; {:.1f} µs, {} fused kernel(s)</p>\n",
                     escape_html(rep.mode), escape_html(rep.device), rep.cost_before_us,
                     rep.cost_after_us, rep.chosen.size());
  out += graph_section("Before", graph_to_dot(before, before_links, "before"), options.use_dot);
  out += graph_section("After", graph_to_dot(after, after_links, "after"), options.use_dot);
  out += chosen_section(rep);
  std::vector<std::string> lines;
  for (const UnchosenFusion& u : rep.not_chosen) lines.push_back(u.reason);
  out += list_section("Possible but not chosen", lines);
  lines.clear();
  for (const RejectedMatch& m : rep.rejected) lines.push_back(rejection_sentence(m));
  out += list_section("Rejected by a condition", lines);
  lines.clear();
  for (const RuleRunStats& s : rep.rules)
    if (!s.enabled) lines.push_back(s.rule + ": " + s.toggle_reason);
  out += list_section("Rules off", lines);
  lines.clear();
  for (const CrossStreamNearMiss& c : rep.cross_stream) lines.push_back(cross_stream_sentence(c));
  out += list_section("Cross-stream near misses", lines);
  out += rule_table(rep);
  return out + "</body>\n</html>\n";
}

}  // namespace eqfuse
