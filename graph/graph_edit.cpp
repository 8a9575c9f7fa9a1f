#include "graph/graph_edit.hpp"

#include <utility>

namespace eqfuse {
namespace {

void remap_refs(Arg& a, const std::vector<int32_t>& new_index) {
  if (a.is_node()) {
    a = Arg(NodeRef{new_index.at(static_cast<size_t>(a.node().index))});
    return;
  }
  if (a.is_list()) {
    for (Arg& item : std::get<ArgList>(a.value).items) remap_refs(item, new_index);
  }
}

}  // namespace

Graph without_nodes(Graph g, const std::vector<bool>& removed) {
  Graph out;
  out.name = g.name;
  out.reserve(g.size());
  std::vector<int32_t> new_index(g.size(), -1);
  for (size_t i = 0; i < g.size(); ++i) {
    if (removed.at(i)) continue;
    Node n = std::move(g.nodes()[i]);
    for (Arg& a : n.args) remap_refs(a, new_index);
    for (auto& kv : n.kwargs) remap_refs(kv.second, new_index);
    new_index[i] = out.add(std::move(n)).index;
  }
  return out;
}

}  // namespace eqfuse
