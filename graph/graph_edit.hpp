// Editing a Graph by position, for passes that rewrite a copy of a graph
// (passes/reinplace_analysis.cpp, passes/recover_view_inplace.cpp):
//
//   std::vector<bool> removed(g.size(), false);
//   removed[copy.index] = true;               // mark, keep indices stable
//   Graph out = without_nodes(std::move(g), removed);  // then drop and renumber once
#pragma once
#include <vector>

#include "graph/graph.hpp"

namespace eqfuse {

// `g` without the nodes marked in `removed` (indexed by node), references
// renumbered. A kept node must not reference a removed one. Takes `g` by
// value: pass std::move(g) when the original is no longer needed, and the
// nodes are moved rather than copied.
Graph without_nodes(Graph g, const std::vector<bool>& removed);

}  // namespace eqfuse
