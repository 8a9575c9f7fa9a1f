// A graph call node as a calibration Measurement (cost/calibrate.hpp): the
// op's arguments as FX text in the form `eqfuse calibrate` reads, so a time
// a profiler reported for the node becomes one measurement row.
//
//   Measurement m = measurement_for_node(g, call, reg, "llama");
//   m.mode = ExecMode::Eager;
//   m.measured_us = 12.5;  // m.label == "llama:mm_3"
//
// Also the shapes the profile importers match nodes by (profile_import.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cost/calibrate.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

// The arguments of a normalized call (node.op set by resolve_ops) in schema
// order, as FX prints them: positional ones up to the last that differs
// from its default, keyword-only ones as `name=value` when not default.
// Tensors are written as their annotation without strides or device
// (`f32[16, 128]`), tensor lists as `[f32[1, 1], f32[1, 16]]`, symbolic ints
// as their value when known, their expression otherwise. Throws Error for a
// node that is not a registered call.
std::vector<std::string> measurement_inputs(const Graph& g, NodeRef call, const OpRegistry& reg);

// op, inputs, label "<graph_stem>:<node name>" and where (the node's
// location); mode and measured_us are left for the caller.
Measurement measurement_for_node(const Graph& g, NodeRef call, const OpRegistry& reg,
                                 std::string_view graph_stem);

// The stem of the file a loaded graph came from (its nodes' source
// location), or the graph's class name when the nodes carry none.
std::string graph_stem(const Graph& g);

// A concrete tensor shape; symbolic dims are kAnyDim (they match any size).
using Dims = std::vector<int64_t>;
inline constexpr int64_t kAnyDim = -1;

// The shapes of the call's tensor arguments of rank >= 1 in argument order,
// tensor lists flattened. Rank-0 tensors and tensors of unknown shape are
// left out: profilers write rank-0 tensors like scalars.
std::vector<Dims> tensor_input_dims(const Graph& g, NodeRef call);
// The same with each argument produced by a transposing view (t,
// transpose.int, permute; a chain of them) replaced by the tensor the chain
// starts from: device kernels that take a transpose as a flag (a transposed
// weight fed to MatMul) report the shape before the view.
std::vector<Dims> tensor_input_dims_before_views(const Graph& g, NodeRef call,
                                                 const OpRegistry& reg);

}  // namespace eqfuse
