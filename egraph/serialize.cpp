#include "egraph/serialize.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

std::string node_key(Id n) {
  return fmt::format("n{}", n);
}
std::string class_key(Id c) {
  return fmt::format("{}", c);
}

void require_clean(const EGraph& g, std::string_view what) {
  if (!g.clean()) throw Error(fmt::format("{}: the e-graph must be rebuilt first", what));
}

// DOT string literal body: escape quotes and backslashes.
std::string dot_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string enode_label(const EGraph& g, Id n) {
  NodeView v = g.node(n);
  if (auto c = v.constant()) return c->to_string();
  if (v.payload != 0) return fmt::format("{}@{}", v.op.str(), v.payload);
  return std::string(v.op.str());
}

nlohmann::json to_egraph_serialize(const EGraph& g, std::span<const Id> roots,
                                   const NodeCostFn& cost) {
  require_clean(g, "egraph-serialize export");
  nlohmann::json nodes = nlohmann::json::object();
  nlohmann::json class_data = nlohmann::json::object();
  for (Id c : g.class_ids()) {
    for (Id n : g.class_nodes(c)) {
      nlohmann::json children = nlohmann::json::array();
      for (Id ch : g.node(n).children) children.push_back(node_key(g.class_nodes(g.find(ch))[0]));
      double k = cost ? cost(g, n) : 1.0;
      if (!std::isfinite(k) || k < 0) {
        throw Error(fmt::format("egraph-serialize export: node #{} ({}) has invalid cost {}", n,
                                enode_label(g, n), k));
      }
      nodes[node_key(n)] = {
          {"op", enode_label(g, n)}, {"children", children}, {"eclass", class_key(c)}, {"cost", k}};
    }
    if (g.analysis() != nullptr) {
      std::string fact = g.analysis()->describe(c);
      if (!fact.empty()) class_data[class_key(c)] = {{"analysis", fact}};
    }
  }
  nlohmann::json root_list = nlohmann::json::array();
  std::vector<Id> seen;
  for (Id r : roots) {
    Id c = g.find(r);
    if (std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    root_list.push_back(class_key(c));
  }
  nlohmann::json out = {{"nodes", std::move(nodes)}, {"root_eclasses", std::move(root_list)}};
  if (!class_data.empty()) out["class_data"] = std::move(class_data);
  return out;
}

std::string to_egraph_serialize_json(const EGraph& g, std::span<const Id> roots,
                                     const NodeCostFn& cost) {
  return to_egraph_serialize(g, roots, cost).dump(1);
}

std::string to_dot(const EGraph& g, const DotOptions& options) {
  require_clean(g, "DOT export");
  std::string out = "digraph egraph {\n  compound=true;\n  clusterrank=local;\n";
  out += "  node [shape=box, fontname=\"monospace\"];\n";
  for (Id c : g.class_ids()) {
    std::string label = fmt::format("#{}", c);
    if (options.show_analysis && g.analysis() != nullptr) {
      std::string fact = g.analysis()->describe(c);
      if (!fact.empty()) label += " " + fact;
    }
    out += fmt::format("  subgraph cluster_{} {{\n    style=dotted;\n    label=\"{}\";\n", c,
                       dot_escape(label));
    for (Id n : g.class_nodes(c)) {
      out += fmt::format("    {} [label=\"{}\"];\n", node_key(n), dot_escape(enode_label(g, n)));
    }
    out += "  }\n";
  }
  for (Id c : g.class_ids()) {
    for (Id n : g.class_nodes(c)) {
      auto children = g.node(n).children;
      for (size_t i = 0; i < children.size(); ++i) {
        Id child = g.find(children[i]);
        Id target = g.class_nodes(child)[0];
        // An edge into the node's own class would be clipped to nothing.
        std::string head = child == c ? "" : fmt::format(", lhead=cluster_{}", child);
        out +=
            fmt::format("  {} -> {} [label=\"{}\"{}];\n", node_key(n), node_key(target), i, head);
      }
    }
  }
  out += "}\n";
  return out;
}

}  // namespace eqfuse
