// Editing a Graph by position, for passes that rewrite a copy of a graph
// (rewrites/reinplace.cpp, rewrites/recover_view_inplace.cpp):
//
//   std::vector<bool> removed(g.size(), false);
//   removed[copy.index] = true;               // mark, keep indices stable
//   Graph out = without_nodes(g, removed);    // then drop and renumber once
#pragma once
#include <vector>

#include "graph/graph.hpp"

namespace eqfuse {

// `g` without the nodes marked in `removed` (indexed by node), references
// renumbered. A kept node must not reference a removed one.
Graph without_nodes(const Graph& g, const std::vector<bool>& removed);

}  // namespace eqfuse
