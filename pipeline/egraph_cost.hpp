// Pricing e-nodes: the bridge between the e-graph (egraph/) and the cost
// model, used to build the extraction problem.
//
//   TensorAnalysis types(reg);  EGraph g(&types);  ... saturate ...
//   std::vector<ValueType> storage;
//   CostQuery q = query_for_enode(g, types, reg, node_id, storage);
//   double us = model.cost(q).total_us;
//
// The e-node encoding is the one of bridge/from_graph.hpp: an op e-node's
// children are one class per schema argument; a child's ValueType is its
// class's TensorFact (constants give Int/Float/Bool/None kinds), the result
// is the node's own class fact. getitem, placeholder, get_attr, constants,
// prim::list / prim::tuple are free; `opaque:<target>` nodes are kernels
// priced from bytes only (their node inputs and result type, as for the FX
// node) so that keeping them is never free but never decides anything.
#pragma once
#include <span>
#include <unordered_set>
#include <vector>

#include "bridge/tensor_analysis.hpp"
#include "cost/cost_model.hpp"
#include "egraph/egraph.hpp"

namespace eqfuse {

// `storage` keeps the argument types alive for the returned query.
CostQuery query_for_enode(const EGraph& g, const TensorAnalysis& types, const OpRegistry& reg,
                          Id node, std::vector<ValueType>& storage);

// Cost (µs) of e-node `node` under `model`.
CostBreakdown enode_cost(const EGraph& g, const TensorAnalysis& types, const OpRegistry& reg,
                         const CostModel& model, Id node);

// The op e-nodes of a rebuilt `g` that a runtime computes once: a foldable op
// (is_foldable_op) all of whose children are constant classes. Constant classes hold
// one of `frozen_leaves` (the classes of frozen graph inputs), a literal, or such an
// e-node (or a getitem / list of constant classes): the fixpoint over the e-graph.
std::unordered_set<Id> folded_enodes(const EGraph& g, const OpRegistry& reg,
                                     std::span<const Id> frozen_leaves);

}  // namespace eqfuse
