#include "graph/stack.hpp"

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

Arg remap(const Arg& a, const std::vector<NodeRef>& to) {
  if (a.is_node()) return Arg(to.at(static_cast<size_t>(a.node().index)));
  if (a.is_list()) {
    std::vector<Arg> items;
    for (const Arg& x : a.as_list().items) items.push_back(remap(x, to));
    return Arg::list(std::move(items), a.as_list().is_tuple);
  }
  return a;
}

}  // namespace

Graph stack_layers(const Graph& layer, int copies, const std::map<std::string, int>& chain) {
  if (copies < 1) throw Error("stack_layers needs at least one copy");
  std::vector<NodeRef> outs = layer.output_values();
  for (const auto& [input, idx] : chain) {
    auto ref = layer.find(input);
    if (!ref || layer.node(*ref).kind != NodeKind::Placeholder)
      throw Error(fmt::format("stack_layers: '{}' is not an input of the layer", input));
    if (idx < 0 || static_cast<size_t>(idx) >= outs.size())
      throw Error(fmt::format("stack_layers: the layer has no output {}", idx));
  }
  Graph out;
  out.name = layer.name;
  std::vector<Arg> returned;
  std::vector<NodeRef> prev_outputs;
  for (int k = 0; k < copies; ++k) {
    std::vector<NodeRef> to(layer.size());
    for (size_t i = 0; i < layer.size(); ++i) {
      const Node& n = layer.nodes()[i];
      if (n.kind == NodeKind::Output) continue;
      if (n.kind == NodeKind::Placeholder && k > 0) {
        if (auto it = chain.find(n.name); it != chain.end()) {
          to[i] = prev_outputs.at(static_cast<size_t>(it->second));
          continue;
        }
      }
      Node copy = n;
      copy.name = fmt::format("l{}_{}", k, n.name);
      if (n.kind == NodeKind::Placeholder) copy.target = copy.name;
      for (Arg& a : copy.args) a = remap(a, to);
      for (auto& [key, v] : copy.kwargs) v = remap(v, to);
      to[i] = out.add(std::move(copy));
    }
    prev_outputs.clear();
    for (NodeRef r : outs) {
      prev_outputs.push_back(to.at(static_cast<size_t>(r.index)));
      returned.push_back(Arg(prev_outputs.back()));
    }
  }
  Node o;
  o.kind = NodeKind::Output;
  o.name = "output";
  o.args = {Arg::list(std::move(returned), true)};
  out.add(std::move(o));
  return out;
}

}  // namespace eqfuse
