// Tensor-parallel graphs in one process: a simulated group of ranks. Each rank
// runs the same graph on its own inputs in its own thread; a collective
// (graph/ops/collectives.schemas) blocks until every rank has reached it, then
// each gets its exact result, computed once from all ranks' contributions in
// rank order (a sum is accumulated in double and rounded once to the dtype,
// so every form of a reduction -- all_reduce, reduce_scatter + all_gather, a
// matmul fused with all_reduce -- gives the same bits).
//
//   std::vector<std::vector<RuntimeValue>> inputs(4);  // rank r's placeholder values
//   InterpreterOptions options;
//   std::vector<RunResult> ranks = run_tensor_parallel(registry, {&options, 1}, graph, inputs);
//   ranks[r].outputs[0].tensor();
//
// Outside a simulated group (a plain Interpreter::run) a collective has no
// peers to talk to and is evaluated as an uninterpreted function, as before.
// A group's size in the graph (group_size, world_size arguments) must equal
// the simulated world size; a rank that fails stops every rank, and the error
// names the rank.
#pragma once
#include <span>
#include <vector>

#include "interp/interpreter.hpp"

namespace eqfuse {

// Runs `graph` once per rank, ranks as threads; `rank_inputs[r]` holds rank
// r's value for every placeholder, and the world size is rank_inputs.size()
// (>= 1). Rank r's interpreter takes `rank_options[r]`, or rank_options[0]
// for every rank when one is given; an OpaqueCallLedger (opaque_calls) is one
// run's, so one shared by several ranks is an error.
std::vector<RunResult> run_tensor_parallel(const OpRegistry& registry,
                                           std::span<const InterpreterOptions> rank_options,
                                           const Graph& graph,
                                           std::span<const std::vector<RuntimeValue>> rank_inputs,
                                           const SymBindings& bindings = {});

}  // namespace eqfuse
