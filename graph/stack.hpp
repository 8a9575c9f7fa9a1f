// Stacking copies of a layer graph into one deeper graph: the benchmark
// workload "a 61-layer DeepSeek stack" (bench/optimize_bench.cpp) and its
// golden test.
//
//   Graph layer = load_graph(text, "deepseek_layer.fx", reg).graph;
//   Graph deep = stack_layers(layer, 61, {{"arg1_1", 2}, {"arg2_1", 2}});
//
// Copy k's nodes are prefixed `l<k>_`. `chain` maps an input name of the
// layer to the index of a layer output: in copy k > 0 that input is not a
// placeholder but the named output of copy k-1 (types must match). Every
// other input is a fresh placeholder per copy (its own weights). The stacked
// graph returns the outputs of every copy, in order.
#pragma once
#include <map>
#include <string>

#include "graph/graph.hpp"

namespace eqfuse {

Graph stack_layers(const Graph& layer, int copies, const std::map<std::string, int>& chain);

}  // namespace eqfuse
