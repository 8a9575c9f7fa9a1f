// Loading a normalized FX Graph into an e-graph.
//
//   OpRegistry reg = OpRegistry::with_builtin_ops();
//   LoadedGraph lg = load_graph(text, "model.fx", reg);
//   TensorAnalysis types(reg);           // optional (bridge/tensor_analysis.hpp)
//   EGraph g(&types);
//   LoadedEGraph loaded = load_into_egraph(lg.graph, reg, g);
//   g.rebuild();
//
// E-node encoding (what rules and analyses see):
//   op call        op = qualified name ("aten::add.Tensor"), one child per
//                  schema argument, payload = stream label (Symbol id of
//                  Node::meta.stream; 0 = default stream), so ops on
//                  different streams are never merged and rules written
//                  without a payload only match default-stream ops.
//   argument       a producing node -> its class; constants are constant
//                  leaves (int, float, bool, dtype, string, None, int list;
//                  devices and other literals as strings); any other list
//                  (tensor lists, lists holding SymInt nodes) is a
//                  `prim::list` node (`prim::tuple` for tuples) whose
//                  children are the encoded items.
//                  A call returning nothing (air scope markers) gets the
//                  Symbol id of its node name as payload instead: unique.
//                  So does a call that must not merge with an equal-looking
//                  one because the graph writes memory in place (it writes,
//                  reads a storage written before it, or makes a buffer
//                  written later; docs/egraph.md "Graphs with in-place ops").
//   multi-output   ONE op node; each projection is `(getitem <op> <int>)`.
//   placeholder    leaf `placeholder` with payload = Symbol id of its name.
//   get_attr       leaf `get_attr` with payload = Symbol id of its target.
//   opaque call    `opaque:<target>` with payload = Symbol id of the node's
//                  name (unique, so never merged with anything and never
//                  matched by a rule) and the node inputs it references as
//                  children (dependencies stay visible).
// Roots: the graph outputs (in order), then side-effecting calls (schemas
// that mutate an argument, e.g. copy_, or return nothing) and opaque calls,
// in program order.
#pragma once
#include <string>
#include <vector>

#include "bridge/arg_encoding.hpp"
#include "egraph/egraph.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

struct LoadedEGraph {
  // Class of each graph node (index = NodeRef::index), kNoId for the output
  // node. Ids are classes at load time: call EGraph::find after merges.
  std::vector<Id> node_class;
  // Payload of each call's e-node (0 for the other nodes): what to_graph
  // needs to recognise the input's own calls among the chosen e-nodes.
  std::vector<uint64_t> node_payload;
  std::vector<Id> outputs;  // classes of the returned values, in order
  std::vector<Id> roots;    // outputs, then side-effecting and opaque calls
  size_t opaque_calls = 0;
  // Where values live, for rules that return one of their inputs
  // (rewrites/rule.hpp "Rules that return an input"): the classes of the
  // nodes whose value may live in a storage the graph writes in place, in a
  // graph input's storage, or in a returned value's storage (alias analysis,
  // graph/alias_analysis.hpp). Load-time ids, like node_class.
  struct StorageClasses {
    std::vector<Id> written, inputs, outputs;
  } storages;

  Id class_of(NodeRef r) const { return node_class.at(static_cast<size_t>(r.index)); }
};

// Adds every node of `graph` (normalized: resolve_ops done) to `g`. If the
// e-graph carries a TensorAnalysis, the types of placeholders, get_attr and
// opaque nodes are registered with it first. Throws eqfuse::Error (at the
// node's location) for inputs it cannot encode.
LoadedEGraph load_into_egraph(const Graph& graph, const OpRegistry& reg, EGraph& g);

// How the head of an e-node of a loaded graph reads in reports and proofs
// (egraph/explain.hpp TermHeadNamer): placeholders and get_attr by their
// name; an opaque call as `<its op>@<node name>`; an op call on a stream as
// `<op>@<stream label>` (a call returning nothing or kept apart from equal
// calls: `<op>@<node name>`); any other op as its qualified name.
std::string loaded_head_name(Symbol op, uint64_t payload);

}  // namespace eqfuse
