#include "rewrites/rule_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"
#include "rewrites/rule_example.hpp"

namespace eqfuse {
namespace {

// Values shown per tensor in a counterexample: enough to see what went wrong,
// few enough that the whole message stays readable (errors are clipped).
constexpr int64_t kShownValues = 3;

RuleProof not_checked(std::string why) {
  return {RuleProof::Verdict::NotChecked, std::move(why), 0, {}};
}

// The first input that has neither an annotation nor an example value (what
// makes instantiate_example give up).
std::string untyped_input(const RuleDef& rule) {
  for (const std::string& name : rule.inputs) {
    if (rule.example_values.count(name) || rule.find_let(name)) continue;
    bool typed = false;
    for (const Graph* g : {&rule.search, &rule.replace})
      if (auto ref = g->find(name)) typed = typed || g->node(*ref).type.is_known();
    if (!typed) return name;
  }
  return "?";
}

// The first call of either side that the reference interpreter would not
// compute; such a call would only be compared structurally, which proves
// nothing about a rule that introduces it.
std::optional<std::string> op_without_kernel(const RuleExample& ex) {
  for (const Graph* g : {&ex.search, &ex.replace})
    for (const Node& n : g->nodes())
      if (n.kind == NodeKind::Call && !has_reference_kernel(n.target)) return n.target;
  return std::nullopt;
}

std::string number_text(const Tensor& t, int64_t i) {
  if (t.is_int_storage()) return fmt::format("{}", t.get_flat_int(i));
  return fmt::format("{:.4g}", t.get_flat(i));
}

// `f32[2, 8] [0.5, -1.25, 1, 0.75, ...]`, `int 4`, `(f32[2] [..], i8[2] [..])`.
std::string value_text(const RuntimeValue& v) {
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    std::string items;
    for (int64_t i = 0; i < t.numel() && i < kShownValues; ++i)
      items += (i == 0 ? "" : ", ") + number_text(t, i);
    if (t.numel() > kShownValues) items += ", ...";
    return fmt::format("{} [{}]", t.describe(), items);
  }
  if (v.is_list()) {
    std::string items;
    for (const RuntimeValue& x : v.list()) items += (items.empty() ? "" : ", ") + value_text(x);
    return "(" + items + ")";
  }
  return describe(v);
}

std::string outputs_text(const RunResult& r) {
  std::string out;
  for (const RuntimeValue& v : r.outputs) out += (out.empty() ? "" : ", ") + value_text(v);
  return out;
}

// "-1.6565653085708618" -> "-1.656565": seven digits tell a wrong rule from a
// rounding difference, and keep the message short.
std::string short_number(std::string_view text) {
  char* end = nullptr;
  const std::string s(text);
  const double v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() ? fmt::format("{:.7g}", v) : s;
}

// interp/equivalence.cpp writes a tensor difference as "output 0 (a vs b): f32[2, 8]
// differs at [0, 1]: 3.5 vs -1.25 (max abs err ...; tolerance rtol 1e-05 atol
// 1e-06) (given inputs)"; here the first graph is search, the second replace:
// "output 0 at [0, 1]: search 3.5, replace -1.25 (tolerance rtol 1e-05 atol 1e-06)".
// Another difference (a dtype, a list length) is shown as written.
std::string first_difference(std::string_view mismatch) {
  if (mismatch.ends_with(" (given inputs)")) mismatch.remove_suffix(15);
  const size_t label_end = mismatch.find(" (");
  const size_t at = mismatch.find(" differs at ");
  const size_t colon = at == std::string_view::npos ? at : mismatch.find(": ", at);
  const size_t vs = colon == std::string_view::npos ? colon : mismatch.find(" vs ", colon);
  const size_t stats = vs == std::string_view::npos ? vs : mismatch.find(" (max abs err", vs);
  const size_t tol = stats == std::string_view::npos ? stats : mismatch.find("tolerance ", stats);
  if (label_end == std::string_view::npos || tol == std::string_view::npos || label_end > at)
    return std::string(mismatch);
  const std::string_view label = mismatch.substr(0, label_end);
  const std::string_view index = mismatch.substr(at + 12, colon - at - 12);
  const std::string a = short_number(mismatch.substr(colon + 2, vs - colon - 2));
  const std::string b = short_number(mismatch.substr(vs + 4, stats - vs - 4));
  std::string_view tolerance = mismatch.substr(tol);
  if (tolerance.ends_with(")")) tolerance.remove_suffix(1);
  return fmt::format("{} at {}: search {}, replace {} ({})", label, index, a, b, tolerance);
}

std::string counterexample(const RuleExample& ex, const RandomInputs& in, const RunResult& search,
                           const RunResult& replace, std::string_view mismatch) {
  std::string inputs;
  std::vector<NodeRef> ph = ex.search.placeholders();
  for (size_t i = 0; i < ph.size() && i < in.values.size(); ++i)
    inputs += fmt::format("{}{} = {}", i == 0 ? "" : "; ", ex.search.node(ph[i]).name,
                          value_text(in.values[i]));
  // Inputs last: a rule with many of them is clipped there (Error::render).
  return fmt::format("{}\n  search: {}\n  replace: {}\n  inputs: {}", first_difference(mismatch),
                     outputs_text(search), outputs_text(replace), inputs);
}

InterpreterOptions interpreter_options(const EquivalenceOptions& o, const RandomInputs& in) {
  InterpreterOptions io;  // as equivalent() runs the graphs in this mode
  io.round_like_unfused = o.mode != ToleranceMode::Strict;
  io.attr_values = &in.attrs;
  return io;
}

// The per-dtype tolerance for a user rule: the checker's own, widened to a few
// units in the last place of values of the random inputs' magnitude (|x| < 2,
// sums of a few of them < 8). The checker's defaults allow about one ulp of the
// output, so a rule that reorders half-precision math, (x + y) + z as
// x + (y + z), which moves a result by an ulp or two of its intermediates,
// failed them on random f16 and bf16 inputs; a rule computing something else
// is off by far more.
Tolerance few_ulps(Tolerance checker, double epsilon) {
  return {std::max(checker.rtol, 4 * epsilon), std::max(checker.atol, 8 * epsilon)};
}

}  // namespace

EquivalenceOptions user_rule_check_options() {
  EquivalenceOptions o;
  o.trials = 3;
  o.seed = 0x5eed;
  o.mode = ToleranceMode::Rounding;
  o.fp64 = few_ulps(o.fp64, 0x1p-52);
  o.fp32 = few_ulps(o.fp32, 0x1p-23);
  o.fp16 = few_ulps(o.fp16, 0x1p-10);
  o.bf16 = few_ulps(o.bf16, 0x1p-7);
  return o;
}

namespace {

// One trial: the inputs `equivalent` would draw for it (kept here to show
// them), search run alone first so that a failure of its own is told apart
// from one of the replace side. nullopt when the trial proves nothing wrong.
std::optional<RuleProof> run_trial(const RuleDef& rule, const RuleExample& ex,
                                   const OpRegistry& reg, const EquivalenceOptions& options,
                                   int trial) {
  const uint64_t seed = hash_combine(options.seed, static_cast<uint64_t>(trial));
  RandomInputs in;
  RunResult search;
  try {
    RandomInputOptions ro;
    ro.bindings = options.bindings;
    ro.registry = &reg;
    in = random_inputs(ex.search, seed, ro);
    apply_input_assumptions(ex.search, rule.assumes, in, reg);
    search =
        Interpreter(reg, interpreter_options(options, in)).run(ex.search, in.values, in.bindings);
  } catch (const Error& e) {
    return not_checked(fmt::format("the search side does not run on random inputs: {}", e.what()));
  }
  EquivalenceOptions one = options;
  one.given_inputs = &in;
  EquivalenceResult r;
  try {
    r = equivalent(ex.search, ex.replace, reg, one);
  } catch (const Error& e) {  // search ran, so the replace side is what fails
    return RuleProof{
        RuleProof::Verdict::Unsound,
        fmt::format("the replace side fails on inputs the search side takes: {}", e.what()),
        trial + 1, e.what()};
  }
  // A kernel that declines some arguments leaves the call to the structural
  // comparison: nothing was proven about it.
  if (!r.structural_ops.empty())
    return not_checked(fmt::format("op {} has no reference kernel for these arguments",
                                   r.structural_ops[0].first));
  if (r.ok) return std::nullopt;
  if (!r.unmatched_opaque_calls.empty())
    return not_checked(
        fmt::format("{} has no reference kernel for these arguments", r.unmatched_opaque_calls[0]));
  const RunResult replace =
      Interpreter(reg, interpreter_options(options, in)).run(ex.replace, in.values, in.bindings);
  return RuleProof{RuleProof::Verdict::Unsound,
                   counterexample(ex, in, search, replace, r.first_mismatch), trial + 1,
                   r.first_mismatch};
}

// A rule over collectives is run as a simulated tensor-parallel group
// (interp/collectives.hpp): outside one a collective has no peers and is only
// compared structurally, which proves nothing.
bool calls_collective(const RuleExample& ex, const OpRegistry& reg) {
  for (const Graph* g : {&ex.search, &ex.replace})
    for (const Node& n : g->nodes())
      if (n.kind == NodeKind::Call)
        if (std::optional<OpId> id = reg.find(n.target))
          if (reg.info(*id).traits.kind == OpKind::Collective) return true;
  return false;
}

// Every rank draws its own inputs (the strongest check), except the rule's
// `replicated:` ones, the same on every rank. A group size in the example must be
// kRuleProofWorldSize.
RuleProof prove_tensor_parallel(const RuleDef& rule, const RuleExample& ex, const OpRegistry& reg,
                                const EquivalenceOptions& options) {
  EquivalenceOptions tp = options;
  tp.world_size = kRuleProofWorldSize;
  tp.replicated_inputs = rule.replicated;
  EquivalenceResult r;
  try {
    r = equivalent(ex.search, ex.replace, reg, tp);
  } catch (const Error& e) {
    return not_checked(
        fmt::format("the rule does not run as a {}-rank group: {}", kRuleProofWorldSize, e.what()));
  }
  if (!r.structural_ops.empty())
    return not_checked(fmt::format("op {} has no reference kernel for these arguments",
                                   r.structural_ops[0].first));
  if (!r.unmatched_opaque_calls.empty())
    return not_checked(
        fmt::format("{} has no reference kernel for these arguments", r.unmatched_opaque_calls[0]));
  if (!r.ok)
    return RuleProof{RuleProof::Verdict::Unsound,
                     fmt::format("as a {}-rank group: {}", kRuleProofWorldSize,
                                 first_difference(r.first_mismatch)),
                     r.trials_run, r.first_mismatch};
  RuleProof proof;
  proof.trials_run = r.trials_run;
  return proof;
}

}  // namespace

RuleProof prove_rule(const RuleDef& rule, const OpRegistry& reg,
                     const EquivalenceOptions& options) {
  std::optional<RuleExample> ex = instantiate_example(rule, reg);
  if (!ex)
    return not_checked(
        fmt::format("input '{}' has no example type (annotate it, or give an "
                    "`example:` value)",
                    untyped_input(rule)));
  if (auto op = op_without_kernel(*ex))
    return not_checked(fmt::format("op {} has no reference kernel", *op));
  if (calls_collective(*ex, reg)) return prove_tensor_parallel(rule, *ex, reg, options);
  RuleProof proof;
  for (int trial = 0; trial < options.trials; ++trial) {
    if (std::optional<RuleProof> refuted = run_trial(rule, *ex, reg, options, trial))
      return *refuted;
    ++proof.trials_run;
  }
  return proof;
}

}  // namespace eqfuse
