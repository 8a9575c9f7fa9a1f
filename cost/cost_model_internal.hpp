// Shared by the cost model's files (graph_cost.cpp, auto_functionalized_cost.cpp,
// constant_folding.cpp, collective_cost.cpp), not installed API.
#pragma once
#include <optional>
#include <vector>

#include "cost/cost_model.hpp"

namespace eqfuse::cost_detail {

// A dim under the hints, as an estimate: never negative (a symbolic dim such as
// `s0 - 8` may evaluate below 0 under the default hint).
double dim_estimate(const SymInt& d, const SymbolHints& hints);
// The value type of the schema argument `name` of `q`; nullptr for an op without a
// schema or an argument it does not have.
const ValueType* arg_named(const CostQuery& q, std::string_view name);
// Elements of `t` under the hints; nullopt when its shape is not known.
std::optional<double> numel_of(const TensorType& t, const SymbolHints& hints);

// The value type of a call argument as the cost query sees it: a node's type,
// a literal's scalar kind (an int keeps its value), a list as a tuple of its
// items' types (graph_cost.cpp).
ValueType type_of_arg(const Graph& g, const Arg& a);

// Per node of `g`: whether its value is the same on every call, so that a call
// of it is computed once (constant_folding.cpp). All false when the model folds
// nothing.
std::vector<bool> constant_nodes(const Graph& g, const OpRegistry& reg, const CostModel& model);

}  // namespace eqfuse::cost_detail
