#include "graph/graph.hpp"

#include <cctype>

#include <algorithm>

namespace eqfuse {

std::string_view node_kind_name(NodeKind k) {
  switch (k) {
    case NodeKind::Placeholder:
      return "placeholder";
    case NodeKind::GetAttr:
      return "get_attr";
    case NodeKind::Call:
      return "call_function";
    case NodeKind::GetItem:
      return "getitem";
    case NodeKind::Output:
      return "output";
  }
  return "?";
}

NodeRef Graph::add(Node node) {
  auto [it, inserted] = by_name_.emplace(node.name, static_cast<int32_t>(nodes_.size()));
  if (!inserted) fail(node.meta.loc, "duplicate definition of '{}'", node.name);
  nodes_.push_back(std::move(node));
  return NodeRef{it->second};
}

std::optional<NodeRef> Graph::find(std::string_view name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return NodeRef{it->second};
}

std::vector<NodeRef> Graph::placeholders() const {
  std::vector<NodeRef> out;
  for (size_t i = 0; i < nodes_.size(); ++i)
    if (nodes_[i].kind == NodeKind::Placeholder) out.push_back(NodeRef{static_cast<int32_t>(i)});
  return out;
}

std::optional<NodeRef> Graph::output() const {
  for (size_t i = nodes_.size(); i-- > 0;)
    if (nodes_[i].kind == NodeKind::Output) return NodeRef{static_cast<int32_t>(i)};
  return std::nullopt;
}

std::vector<NodeRef> Graph::output_values() const {
  std::vector<NodeRef> out;
  if (auto o = output()) {
    for (const Arg& a : node(*o).args) collect_node_refs(a, out);
  }
  return out;
}

std::vector<std::vector<NodeRef>> Graph::users() const {
  std::vector<std::vector<NodeRef>> users(nodes_.size());
  std::vector<NodeRef> inputs;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    inputs = node_inputs(nodes_[i]);
    std::sort(inputs.begin(), inputs.end());
    inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
    for (NodeRef in : inputs)
      users.at(static_cast<size_t>(in.index)).push_back(NodeRef{static_cast<int32_t>(i)});
  }
  return users;
}

std::string Graph::fresh_name(std::string_view base) const {
  std::string name(base);
  if (!by_name_.contains(name)) return name;
  for (int i = 1;; ++i) {
    name = fmt::format("{}_{}", base, i);
    if (!by_name_.contains(name)) return name;
  }
}

bool Graph::operator==(const Graph& o) const {
  if (nodes_.size() != o.nodes_.size()) return false;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const Node& a = nodes_[i];
    const Node& b = o.nodes_[i];
    if (a.kind != b.kind || a.name != b.name || a.target != b.target || a.args != b.args ||
        a.kwargs != b.kwargs || a.type != b.type || a.meta.stream != b.meta.stream)
      return false;
  }
  return true;
}

void collect_node_refs(const Arg& arg, std::vector<NodeRef>& out) {
  if (arg.is_node()) {
    out.push_back(arg.node());
  } else if (arg.is_list()) {
    for (const Arg& a : arg.as_list().items) collect_node_refs(a, out);
  }
}

std::vector<NodeRef> node_inputs(const Node& n) {
  std::vector<NodeRef> out;
  for (const Arg& a : n.args) collect_node_refs(a, out);
  for (const auto& [k, a] : n.kwargs) collect_node_refs(a, out);
  return out;
}

std::map<std::string, int64_t> call_target_counts(const Graph& g) {
  std::map<std::string, int64_t> counts;
  for (const Node& n : g.nodes())
    if (n.kind == NodeKind::Call) ++counts[n.target];
  return counts;
}

namespace {

bool is_dotted_name(std::string_view s) {
  for (size_t start = 0;;) {
    const size_t dot = s.find('.', start);
    if (!is_identifier(s.substr(start, dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

}  // namespace

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

bool is_call_target_name(std::string_view target) {
  const size_t sep = target.find("::");
  if (sep == std::string_view::npos) return is_dotted_name(target);
  return is_dotted_name(target.substr(0, sep)) && is_dotted_name(target.substr(sep + 2));
}

}  // namespace eqfuse
