// Exporting an e-graph: the egraph-serialize JSON used by extraction-gym and
// Graphviz DOT.
//
//   std::string json = to_egraph_serialize_json(g, roots);        // cost 1.0 per node
//   std::string json = to_egraph_serialize_json(g, roots, cost_fn);
//   std::string dot = to_dot(g);
//
// JSON layout (egraph-serialize as extraction-gym uses it, github.com/egraphs-good/
// extraction-gym; samples in tests/data/extraction-gym):
//   {"nodes": {"n<id>": {"op", "children": [node ids], "eclass": "<class>", "cost"}},
//    "root_eclasses": ["<class>", ...],
//    "class_data": {"<class>": {"analysis": "<fact>"}}}   (only with an analysis)
// A child is written as the id of a representative node of the child class
// (its first live node), which the format reads as "the e-class of that
// node". Node labels are the op name; constants are spelled like in
// patterns (`3`, `torch.float16`, `[1,2]`) and a non-zero payload of an op
// node is appended as `op@payload` so distinct nodes keep distinct labels.
// Both exports require a clean (rebuilt) e-graph and are deterministic.
#pragma once
#include <functional>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "egraph/egraph.hpp"

namespace eqfuse {

// Cost of e-node `n` (a live node id). Must be finite and non-negative.
using NodeCostFn = std::function<double(const EGraph& g, Id n)>;

// The printed label of a node: op name, constant spelling or `op@payload`.
std::string enode_label(const EGraph& g, Id n);

nlohmann::json to_egraph_serialize(const EGraph& g, std::span<const Id> roots,
                                   const NodeCostFn& cost = {});
std::string to_egraph_serialize_json(const EGraph& g, std::span<const Id> roots,
                                     const NodeCostFn& cost = {});

struct DotOptions {
  bool show_analysis = true;  // class fact (Analysis::describe) in the cluster label
};
// One cluster per e-class, one box per e-node, an edge from each node to
// its child class cluster (compound edges).
std::string to_dot(const EGraph& g, const DotOptions& options = {});

}  // namespace eqfuse
