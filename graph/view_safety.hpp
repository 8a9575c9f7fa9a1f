// Keeping views valid when a rewrite changes the strides of their input.
//
//   Graph out = emit(...);
//   size_t n = reshape_unsafe_views(out, input, reg);
//
// FX views are stride-sensitive: `aten.view` fails on a tensor whose strides
// cannot take the new shape, and `aten._reshape_alias(x, size, stride)` reads
// memory at the strides the tracer computed for the original `x`. The
// e-graph reasons about values, so a rewrite may feed such a view a value with
// other strides: mindspore/matmul-split's outputs are column slices of one
// matmul, not contiguous tensors. TorchAir turns every view into a reshape
// after its fusions for the same reason (torchair-passes.md §4.1).
//
// reshape_unsafe_views turns `view`, `_unsafe_view` and `_reshape_alias` with
// row-major strides (or symbolic ones, which a tracer writes for a view of a
// contiguous tensor) into `aten.reshape` (a view when the strides allow, a copy
// otherwise) where the input may be non-contiguous in `out` but was not in
// `input` (the node of the same name), or where the node is new: views the
// traced input already applied to a strided tensor are valid as traced and
// keep their spelling. views_to_reshape turns every one of them into a
// reshape (TorchAir's normalisation, `optimize --view-to-reshape`).
#pragma once
#include <cstddef>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

// Returns the number of nodes rewritten.
size_t reshape_unsafe_views(Graph& out, const Graph& input, const OpRegistry& reg);
size_t views_to_reshape(Graph& g, const OpRegistry& reg);

}  // namespace eqfuse
