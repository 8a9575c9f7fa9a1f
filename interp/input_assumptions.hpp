// Input assumptions: a relation between a graph's inputs that a rewrite is
// only sound under, stated by whoever asks for the rewrite (a peer preset, a
// rule's `assume:` line), never inferred. The one form is "this input equals
// an op applied to those inputs":
//
//   InputAssumption a = parse_input_assumption("scale_reciprocal == reciprocal(scale)", loc);
//   a.text();                      // "scale_reciprocal == reciprocal(scale)"
//   apply_input_assumptions(graph, {&a, 1}, inputs, reg);   // inputs now satisfy it
//
// vllm-ascend's AddRMSNormQuant pass relies on `scale * scale_reciprocal == 1` in a
// w8a8 layer's weights; a check of a graph rewritten under that assumption must draw
// inputs that hold it, or it reports a difference the model can never show.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostics.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {

struct InputAssumption {
  std::string derived;               // the input the assumption fixes
  std::string op;                    // "aten::reciprocal" (qualified, in the op catalog)
  std::vector<std::string> sources;  // the inputs it is computed from, in argument order
  SourceLoc loc;                     // where it was stated

  // "scale_reciprocal == reciprocal(scale)"; ops outside aten keep their namespace.
  std::string text() const;
  bool operator==(const InputAssumption& o) const {
    return derived == o.derived && op == o.op && sources == o.sources;
  }
};

// `NAME == OP(NAME, ...)` where OP is an aten op name (`reciprocal`), a qualified one
// (`aten::neg`, `npu::npu_foo`) or an FX target (`torch.ops.aten.reciprocal.default`).
// Throws Error at `loc` (its column moved to the fault) for any other shape.
InputAssumption parse_input_assumption(std::string_view text, const SourceLoc& loc);

// Throws Error at the assumption's loc when its op is not in `reg`.
void check_input_assumption(const InputAssumption& a, const OpRegistry& reg);

// Replaces the value of each assumption's `derived` placeholder of `graph` by the op
// run (reference interpreter) on the values of its sources, in order, so later
// assumptions may read earlier ones. An assumption naming an input `graph` lacks is
// an Error; so is a derived value whose type differs from the input's.
void apply_input_assumptions(const Graph& graph, std::span<const InputAssumption> assumptions,
                             RandomInputs& inputs, const OpRegistry& reg);

}  // namespace eqfuse
