// Back from the e-graph to an FX graph: the chosen e-nodes become a
// normalized, typed Graph again.
//
//   LoadedEGraph loaded = load_into_egraph(input, reg, g);  ... saturate, extract ...
//   Graph out = emit_graph(EmitRequest{g, types, reg, input, loaded,
//                                      [&](Id cls) { return ep.chosen_node(x, cls); }});
//
// Rules (issue 5, docs/extraction.md "Back to a graph"):
//  * placeholders and get_attr nodes of the input are kept, in input order,
//    with their names and types, even if unused;
//  * a chosen op e-node identical to an input node (same op, same stream
//    payload, same children classes) keeps that node's name and stack
//    trace; new nodes are named the way torch names them: the op name
//    without namespace and overload (`npu_add_rms_norm_dynamic_quant`,
//    `view`, with `_1`, `_2`, ... when taken), and projections `getitem`,
//    `getitem_1`, ...;
//  * order: topological, keeping the input order where possible (a node
//    that replaces input nodes goes where the first of them was);
//  * multi-output ops get a getitem node only for the outputs used;
//  * constant children become literal arguments (ints, floats, bools,
//    dtypes, int lists, strings, None); prim::list / prim::tuple become
//    lists / tuples; stream payloads become NodeMeta::stream, and the
//    air.scope_enter / scope_exit markers are re-emitted around them
//    (they are roots of the e-graph and keep their place);
//  * side-effecting roots (copy_, in-place ops, opaque calls) stay in
//    their original relative order;
//  * types come from the tensor analysis; the result passes infer_types.
// Throws eqfuse::Error (internal) if the choice misses a needed class.
#pragma once
#include <functional>
#include <limits>
#include <stdexcept>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "egraph/egraph.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

struct EmitRequest {
  const EGraph& g;
  const TensorAnalysis& types;
  const OpRegistry& reg;
  const Graph& input;                // the graph that was loaded (names, order, placeholders)
  const LoadedEGraph& loaded;        // its classes and roots
  std::function<Id(Id cls)> chosen;  // canonical class -> chosen e-graph node id
  // Seconds emission may take (optimize's --time-limit bounds this phase as
  // it does the others). Past it, emit_graph throws EmitTimeLimit between two
  // steps of its work. Infinity: no limit.
  double time_limit_s = std::numeric_limits<double>::infinity();
  // The process's resident memory past which emit_graph stops the same way
  // (base/memory_budget.hpp; optimize's --memory-limit). 0: no limit.
  size_t memory_limit_bytes = 0;
};

// emit_graph ran out of its time limit: there is no partial graph to keep,
// so the caller keeps the graph it had (optimize: the input).
struct EmitTimeLimit : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Graph emit_graph(const EmitRequest& req);

}  // namespace eqfuse
