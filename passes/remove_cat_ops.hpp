// TorchAir's remove_cat_ops (docs/reference/torchair-passes.md §4.4; aclgraph mode only):
// a cat along dim 0 whose inputs are all computed by ops that have an `.out` variant
// becomes one buffer that the producers write into, so the cat's copy disappears:
//
//   a = aten.mm(x, w1)              buf = aten.new_empty(x, [Ma + Mb, N], dtype = ...)
//   b = aten.mm(x, w2)        =>    slice = aten.slice(buf, 0, 0, Ma);  a = aten.mm.out(x, w1, out
//   = slice) c = aten.cat([a, b])            slice_1 = aten.slice(buf, 0, Ma, Ma + Mb);  b =
//   aten.mm.out(x, w2, out = slice_1)
//                                   (c's users read buf)
//
//   RemoveCatOpsResult r = remove_cat_ops(graph, registry);
//   for (const std::string& line : r.log) std::cerr << line << '\n';
//
// Conditions, TorchAir's and the ones eqfuse adds because its input graphs may mutate:
// at least two distinct inputs, dim 0, every input a call whose op has a registered
// `ns::name.out` overload taking the same arguments plus `out`, of the cat's dtype, the
// same rank and non-concat dims, on the cat's stream, not also an input of another cat;
// every size built from graph inputs (a symbolic size is computed before the first
// producer from `Sym` inputs and sym_size reads of input tensors, as TorchAir reads the
// graph's SymInt inputs; a symbol no input holds keeps the cat, and the log says which);
// and no op mutates a producer's result,
// the cat's result or a view of either (the buffer now holds both, so a write to one
// would be seen through the other). The buffer is `new_empty` of the first producer's
// first tensor argument, so it gets that tensor's device without the graph naming one.
//
// eqfuse runs it in `optimize` after emission and before the reinplace passes, in
// reduce-overhead mode, as TorchAir's aclgraph pipeline does (config
// `debug.aclgraph.remove_cat_ops` / npugraph_ex's `remove_cat_ops`, default on).
#pragma once
#include <string>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

struct RemoveCatOpsResult {
  Graph graph;
  // One line per cat: "remove_cat_ops: cat <name> (<k> inputs) written in place into
  // <buffer>" or "remove_cat_ops: skip <name>: <reason>"; then a count.
  std::vector<std::string> log;
  size_t removed = 0;
};

// Never modifies `input`.
RemoveCatOpsResult remove_cat_ops(const Graph& input, const OpRegistry& reg);

}  // namespace eqfuse
