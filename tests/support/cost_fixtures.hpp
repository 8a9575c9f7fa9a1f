// The cost model tests' shared fixtures: the default device profile loaded once, FX text
// parsed against the built-in registry, and the cost of one node of a graph.
#pragma once
#include <string>
#include <vector>

#include "cost/cost_model.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse::testing_support {

inline const DeviceProfile& b2() {
  static const DeviceProfile p = load_device_profile("ascend910b2");
  return p;
}

inline Graph parse(const std::string& text) {
  return load_graph(text, "test.fx", builtin_registry()).graph;
}

// Cost of the graph node named `name`.
inline CostBreakdown node_cost(const Graph& g, const std::string& name, const CostModel& model) {
  std::vector<ValueType> storage;
  return model.cost(query_for_node(g, *g.find(name), builtin_registry(), storage));
}

}  // namespace eqfuse::testing_support
