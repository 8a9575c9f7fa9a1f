// Soundness of a rule on random inputs: its search and replace sides, instantiated
// on the rule's example inputs (rewrites/rule_example.hpp), run in the reference
// interpreter on the same random values and are compared as `eqfuse check`
// compares graphs (interp/equivalence.hpp).
//
//   RuleProof p = prove_rule(rule, reg, user_rule_check_options());
//   if (p.verdict == RuleProof::Verdict::Unsound) throw Error(p.detail, rule.loc);
//
// RuleLibrary::add runs this on every user rule (a `.rules` file, a config's
// `rules`, register_replacement from C++ or Python) before it is used; the
// built-in library is proven by tests/rewrites/rule_soundness_test.cpp, which
// calls prove_rule too, and is not re-checked at load. A rule marked `trust:
// true` (ReplacementOptions::check = false, Python check=False) is not run.
//
// The criterion for user rules (user_rule_check_options): ToleranceMode::Rounding
// of interp/equivalence.hpp, the mode the soundness test gives the built-in
// fusions. Fused kernels round like the op chain they replace (as in `eqfuse
// check`'s default reference mode), but floats need only agree within the
// tolerance of the coarsest float input's dtype, the checker's per-dtype one
// widened to a few ulps of the inputs' magnitude (rtol 4 eps, atol 8 eps:
// f32 rtol 1e-5 atol 1e-6; f16 rtol 3.9e-3 atol 7.8e-3; bf16 rtol 3.1e-2 atol
// 6.3e-2), and int8/uint8 within one step, so a rule may reorder float math or
// skip an intermediate rounding; a rule that computes something else fails.
// 3 trials, fixed seed: the same rule always gets the same verdict, and
// symbolic sizes take sizes 2..5 chosen from the seed.
//
// A rule that calls a collective (op kind `collective`) runs as a simulated group of
// kRuleProofWorldSize ranks (interp/collectives.hpp), each rank on its own random
// inputs (its `replicated:` inputs the same on every rank), every rank's outputs
// compared; a group size in its example must be that.
//
// Not every rule can be run: an op without a reference kernel, or an input
// without an annotation or example value, makes the verdict NotChecked, with
// the reason ("op npu::foo has no reference kernel"), reported as a note.
#pragma once
#include <string>

#include "interp/equivalence.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse {

struct RuleProof {
  enum class Verdict { Sound, Unsound, NotChecked };
  Verdict verdict = Verdict::Sound;
  // Unsound: the counterexample (first difference, inputs, both outputs; values
  // clipped). NotChecked: why ("op X has no reference kernel").
  std::string detail;
  int trials_run = 0;
  std::string first_mismatch;  // Unsound: EquivalenceResult::first_mismatch, unabridged
};

// The load-time criterion above.
EquivalenceOptions user_rule_check_options();

// Runs the rule's example on `options.trials` random inputs (seeds derived from
// options.seed as `equivalent` derives them). Never throws for a rule that
// RuleLibrary::add accepted up to this check.
RuleProof prove_rule(const RuleDef& rule, const OpRegistry& reg, const EquivalenceOptions& options);

}  // namespace eqfuse
