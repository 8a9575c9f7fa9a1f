// Shared by the cost model's graph-level files (graph_cost.cpp,
// auto_functionalized_cost.cpp, constant_folding.cpp), not installed API.
#pragma once
#include <vector>

#include "cost/cost_model.hpp"

namespace eqfuse::cost_detail {

// The value type of a call argument as the cost query sees it: a node's type,
// a literal's scalar kind (an int keeps its value), a list as a tuple of its
// items' types (graph_cost.cpp).
ValueType type_of_arg(const Graph& g, const Arg& a);

// Per node of `g`: whether its value is the same on every call, so that a call
// of it is computed once (constant_folding.cpp). All false when the model folds
// nothing.
std::vector<bool> constant_nodes(const Graph& g, const OpRegistry& reg, const CostModel& model);

}  // namespace eqfuse::cost_detail
