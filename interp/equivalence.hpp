// Numeric equivalence of two graphs: both run on the same random inputs
// (interp/random_inputs.hpp) in the reference interpreter, and every output,
// plus the final value of every input either graph mutates, is compared with
// dtype-aware tolerances. This is how rewrites are checked (`eqfuse check`).
//
//   EquivalenceResult r = equivalent(before, after, registry, {.trials = 3});
//   if (!r.ok) std::cerr << r.first_mismatch;
//
// Modes. ToleranceMode::Reference (the default, and `eqfuse check`'s): both
// graphs run with every fused kernel reproducing the rounding of the op chain
// it replaces (InterpreterOptions::round_like_unfused), and every output must
// agree exactly; a difference there is a wrong rewrite, not numerics. The
// deviation that the real fused numerics introduce is then measured on the
// first trial and reported as information (EquivalenceResult::deviations).
// Ops without a reference kernel are compared structurally in every mode but
// Strict: a call in the second graph must apply the same op, with the same
// non-tensor arguments, to tensors equivalent (under the mode's tolerance)
// to those of a call in the first, whose output it then shares
// (interp/opaque_calls.hpp; EquivalenceResult::structural_ops).
// ToleranceMode::Strict computes every op (an op without a kernel is an
// Error naming the node): real numerics, integers and bool exact, float
// |a-b| <= atol + rtol*|b| with (rtol, atol) per dtype. ToleranceMode::Rounding is for rewrites
// whose math is identical up to where results are rounded (a fused op skipping an intermediate bf16
// rounding): int8/uint8 results may differ by 1, and float outputs are compared at the precision of
// the coarsest float dtype among the graphs' inputs. See docs/interpreter.md.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/input_assumptions.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};

enum class ToleranceMode { Reference, Strict, Rounding };

struct EquivalenceOptions {
  int trials = 3;
  // Values to run both graphs on (e.g. `check --inputs FILE`,
  // interp/input_values.hpp); one trial instead of random inputs. Not owned.
  const RandomInputs* given_inputs = nullptr;
  uint64_t seed = 0;
  ToleranceMode mode = ToleranceMode::Reference;
  SymBindings bindings;  // fixed symbol sizes; others chosen per trial
  // Relative tolerances per the dtype's precision; a small absolute floor
  // (as torch.testing) so values near zero do not fail on noise, without
  // hiding errors in small-magnitude outputs such as quantization scales.
  Tolerance fp64{1e-9, 1e-12};
  Tolerance fp32{1e-5, 1e-6};
  Tolerance fp16{1e-3, 1e-5};
  Tolerance bf16{1.6e-2, 1e-5};
  Tolerance fp8{0.25, 1e-5};       // e4m3fn and e5m2: one step of a 2- or 3-bit mantissa
  Tolerance e8m0{1.0, 0};          // block scales: powers of two, one step doubles
  int64_t quantized_max_diff = 1;  // Rounding mode: allowed |a-b| for int8/uint8 outputs
  // The interpreter stops with an Error naming the node when the process's
  // resident memory passes this (InterpreterOptions::memory_limit_bytes;
  // `check --memory-limit`). 0: no limit.
  size_t memory_limit_bytes = 0;
  // Relations between the inputs that the graphs are only equal under (a rewrite made
  // under a peer's assumption, interp/input_assumptions.hpp): random inputs are drawn,
  // then each derived input is computed from its sources. Given inputs are used as they are.
  std::vector<InputAssumption> assumptions;
  // Above 1: both graphs run as a simulated tensor-parallel group of this many
  // ranks (interp/collectives.hpp), every rank on its own random inputs except
  // `replicated_inputs` (placeholder names every rank shares, as activations
  // after an all_reduce), and every rank's outputs are compared.
  int world_size = 1;
  std::vector<std::string> replicated_inputs;
};

// How far the real fused numerics move one output (Reference mode, trial 0):
// the graphs run again with fused kernels rounding as the device does.
struct OutputDeviation {
  std::string label;   // "output 0 (y vs y)"
  double max_abs = 0;  // over finite elements
  double max_rel = 0;  // |a-b| / |a| where a != 0
  // For float outputs of rank >= 2: the fraction of rows (last dim) whose
  // argmax agrees, as for logits; -1 when not applicable.
  double argmax_agreement = -1;
};

struct EquivalenceResult {
  bool ok = true;
  int trials_run = 0;
  // Reference mode, when ok: one entry per output tensor whose values the
  // real fused numerics change (empty: the real numerics agree exactly).
  std::vector<OutputDeviation> deviations;
  // Ops without a kernel whose inputs the real fused numerics changed: they
  // pass on the first graph's outputs, so the deviations above do not
  // include what happens downstream of them ("aten::foo x3").
  std::vector<std::string> deviation_not_propagated;
  // Empty when ok; else e.g. "output 0 (add_1): f32[2, 3] differs at [1, 2]:
  // 1.5 vs 1.25 (abs err 0.25, rel err 0.2, tolerance ...), trial 0 seed 0".
  std::string first_mismatch;
  // When the graphs share node names: the first node of the first graph, in
  // its order, whose value differs from the same-named node of the second
  // (e.g. "node 'mul_3' (aten::mul.Tensor): ..."); empty when none is found.
  std::string first_differing_node;
  // Ops without a reference kernel, compared structurally (first trial): per
  // op, the calls of the second graph that a call of the first graph on
  // equivalent inputs answered (interp/opaque_calls.hpp).
  std::vector<std::pair<std::string, int>> structural_ops;
  // On a mismatch: calls of the second graph to such ops whose inputs match
  // no call of the first ("node 'x' (aten::foo)"); their outputs differ.
  std::vector<std::string> unmatched_opaque_calls;
};

// Throws eqfuse::Error when the graphs cannot be compared at all (different
// input counts or input types, untyped inputs, an op that fails to run).
EquivalenceResult equivalent(const Graph& a, const Graph& b, const OpRegistry& registry,
                             const EquivalenceOptions& options = {});

// "reference", "strict" or "rounding".
std::string_view tolerance_mode_name(ToleranceMode m);

// Compares two runtime values; returns an empty string when they agree,
// else a description of the first difference. `label` names the value.
std::string compare_values(const RuntimeValue& a, const RuntimeValue& b,
                           const EquivalenceOptions& options, DType coarsest_input_float,
                           const std::string& label);

}  // namespace eqfuse
