// Numeric equivalence checking of two graphs on shared random inputs.
#include "interp/equivalence.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

#include "interp/collectives.hpp"
#include "interp/opaque_calls.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {
namespace {

bool is_quantized_int(DType d) {
  return d == DType::Int8 || d == DType::UInt8 || d == DType::QInt8 || d == DType::QUInt8;
}

// Float precision order, coarsest first (bf16 below f16); not type promotion's
// order, where the two tie (graph/meta/meta_common.cpp).
int precision_rank(DType d) {
  switch (d) {
    case DType::Float8E4M3FN:
    case DType::Float8E5M2:
    case DType::Float8E8M0FNU:
      return -1;
    case DType::BFloat16:
      return 0;
    case DType::Float16:
      return 1;
    case DType::Float32:
      return 2;
    case DType::Float64:
      return 3;
    default:
      return 4;
  }
}

Tolerance tolerance_of(DType d, const EquivalenceOptions& o) {
  switch (d) {
    case DType::Float8E4M3FN:
    case DType::Float8E5M2:
      return o.fp8;
    case DType::Float8E8M0FNU:
      return o.e8m0;
    case DType::BFloat16:
      return o.bf16;
    case DType::Float16:
      return o.fp16;
    case DType::Float64:
      return o.fp64;
    default:
      return o.fp32;
  }
}

Tolerance widest(Tolerance a, Tolerance b) {
  return {std::max(a.rtol, b.rtol), std::max(a.atol, b.atol)};
}

bool close(double a, double b, Tolerance t) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= t.atol + t.rtol * std::fabs(b);
}

// When two opaque calls' tensor arguments count as the same input: as
// compare_tensors judges outputs, per mode.
OpaqueCallLedger::Distance opaque_distance(const EquivalenceOptions& o, DType coarsest) {
  if (o.mode == ToleranceMode::Reference) return &OpaqueCallLedger::exact_distance;
  return [o, coarsest](const Tensor& recorded, const Tensor& current) {
    Tolerance t;
    if (recorded.is_int_storage()) {
      if (o.mode == ToleranceMode::Rounding && is_quantized_int(recorded.dtype()))
        t.atol = static_cast<double>(o.quantized_max_diff);
    } else {
      t = tolerance_of(recorded.dtype(), o);
      if (o.mode == ToleranceMode::Rounding &&
          precision_rank(coarsest) < precision_rank(recorded.dtype()))
        t = widest(t, tolerance_of(coarsest, o));
    }
    return OpaqueCallLedger::within_tolerance(t.rtol, t.atol)(recorded, current);
  };
}

// Runs `a` then `b` on the same inputs, opaque calls of `b` answered by
// those of `a` through `ledger`.
std::pair<RunResult, RunResult> run_pair(const Graph& a, const Graph& b, const OpRegistry& registry,
                                         InterpreterOptions io, OpaqueCallLedger& ledger,
                                         const RandomInputs& in) {
  io.opaque_calls = &ledger;
  // Both graphs see the same value for the same get_attr target: listed ones
  // from `in.attrs`, the others uninterpreted from a hash of the target.
  io.attr_values = &in.attrs;
  Interpreter interpreter(registry, io);
  ledger.start(OpaqueCallLedger::Role::Record);
  RunResult ra = interpreter.run(a, in.values, in.bindings);
  ledger.start(OpaqueCallLedger::Role::Match);
  RunResult rb = interpreter.run(b, in.values, in.bindings);
  return {std::move(ra), std::move(rb)};
}

std::string compare_tensors(const Tensor& a, const Tensor& b, const EquivalenceOptions& o,
                            DType coarsest, const std::string& label) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) {
    return fmt::format("{}: {} vs {}", label, a.describe(), b.describe());
  }
  std::optional<int64_t> first_bad;
  double max_abs = 0, max_rel = 0;
  std::string tolerance_text;
  if (a.is_int_storage()) {
    int64_t allowed =
        o.mode == ToleranceMode::Rounding && is_quantized_int(a.dtype()) ? o.quantized_max_diff : 0;
    tolerance_text = allowed != 0                         ? fmt::format("+-{}", allowed)
                     : o.mode == ToleranceMode::Reference ? "exact, reference numerics"
                                                          : "exact";
    for (int64_t i = 0; i < a.numel(); ++i) {
      int64_t x = a.get_flat_int(i), y = b.get_flat_int(i);
      double diff = std::fabs(static_cast<double>(x) - static_cast<double>(y));
      max_abs = std::max(max_abs, diff);
      if (y != 0) max_rel = std::max(max_rel, diff / std::fabs(static_cast<double>(y)));
      if (diff > static_cast<double>(allowed) && !first_bad) first_bad = i;
    }
  } else {
    Tolerance t = tolerance_of(a.dtype(), o);
    if (o.mode == ToleranceMode::Rounding && precision_rank(coarsest) < precision_rank(a.dtype())) {
      t = widest(t, tolerance_of(coarsest, o));
    }
    tolerance_text = fmt::format("rtol {:g} atol {:g}", t.rtol, t.atol);
    if (o.mode == ToleranceMode::Reference) {  // zero tolerance: exact, NaN equals NaN
      t = Tolerance{};
      tolerance_text = "exact, reference numerics";
    }
    for (int64_t i = 0; i < a.numel(); ++i) {
      double x = a.get_flat(i), y = b.get_flat(i);
      if (std::isfinite(x) && std::isfinite(y)) {
        double diff = std::fabs(x - y);
        max_abs = std::max(max_abs, diff);
        if (y != 0) max_rel = std::max(max_rel, diff / std::fabs(y));
      }
      if (!close(x, y, t) && !first_bad) first_bad = i;
    }
  }
  if (!first_bad) return {};
  Dims index;
  int64_t flat = *first_bad;
  for (size_t i = a.shape().size(); i-- > 0;) {
    index.insert(index.begin(), flat % a.shape()[i]);
    flat /= a.shape()[i];
  }
  return fmt::format(
      "{}: {} differs at {}: {} vs {} (max abs err {:g}, max rel err {:g}; tolerance {})", label,
      a.describe(), dims_to_string(index), a.get_flat(*first_bad), b.get_flat(*first_bad), max_abs,
      max_rel, tolerance_text);
}

// Deviation of b from a over one tensor pair of equal type (floats only).
std::optional<OutputDeviation> tensor_deviation(const Tensor& a, const Tensor& b,
                                                const std::string& label) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return std::nullopt;
  OutputDeviation d{label};
  bool differs = false;
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.is_int_storage() ? static_cast<double>(a.get_flat_int(i)) : a.get_flat(i);
    const double y = b.is_int_storage() ? static_cast<double>(b.get_flat_int(i)) : b.get_flat(i);
    if (x == y || (std::isnan(x) && std::isnan(y))) continue;
    differs = true;
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    d.max_abs = std::max(d.max_abs, std::fabs(x - y));
    if (x != 0) d.max_rel = std::max(d.max_rel, std::fabs(x - y) / std::fabs(x));
  }
  if (!differs) return std::nullopt;
  const Dims& shape = a.shape();
  if (!a.is_int_storage() && shape.size() >= 2 && shape.back() > 0) {
    const int64_t cols = shape.back(), rows = a.numel() / cols;
    int64_t agree = 0;
    for (int64_t r = 0; r < rows; ++r) {
      int64_t ia = 0, ib = 0;
      for (int64_t c = 1; c < cols; ++c) {
        if (a.get_flat(r * cols + c) > a.get_flat(r * cols + ia)) ia = c;
        if (b.get_flat(r * cols + c) > b.get_flat(r * cols + ib)) ib = c;
      }
      agree += ia == ib;
    }
    d.argmax_agreement = rows == 0 ? 1.0 : static_cast<double>(agree) / static_cast<double>(rows);
  }
  return d;
}

// Both graphs again on the same inputs, keeping every value; the first node
// of `a` (in order) whose value differs from b's node of the same name.
std::string first_differing_node(const Graph& a, const Graph& b, const OpRegistry& registry,
                                 InterpreterOptions io, const RandomInputs& in,
                                 const EquivalenceOptions& options, DType coarsest) {
  std::unordered_map<std::string_view, size_t> b_index;
  for (size_t i = 0; i < b.size(); ++i) b_index.emplace(b.nodes()[i].name, i);
  io.keep_values = true;
  OpaqueCallLedger ledger(opaque_distance(options, coarsest));
  const auto [ra, rb] = run_pair(a, b, registry, io, ledger, in);
  for (size_t i = 0; i < a.size() && i < ra.values.size(); ++i) {
    const Node& n = a.nodes()[i];
    auto j = b_index.find(n.name);
    if (j == b_index.end() || j->second >= rb.values.size()) continue;
    const RuntimeValue& va = ra.values[i];
    const RuntimeValue& vb = rb.values[j->second];
    if (va.is_none() || vb.is_none()) continue;
    std::string m =
        compare_values(va, vb, options, coarsest, fmt::format("node '{}' ({})", n.name, n.target));
    if (!m.empty()) return m;
  }
  return {};
}

bool same_input_type(const ValueType& x, const ValueType& y) {
  if (x.kind != y.kind) return false;
  if (x.kind == ValueType::Kind::Tensor) {
    return x.tensor.dtype == y.tensor.dtype && x.tensor.shape == y.tensor.shape;
  }
  if (x.kind == ValueType::Kind::SymInt) return x.sym == y.sym;
  return true;
}

DType coarsest_float_input(const Graph& g) {
  DType coarsest = DType::Unknown;
  for (NodeRef r : g.placeholders()) {
    const ValueType& t = g.node(r).type;
    if (t.kind != ValueType::Kind::Tensor || !dtype_is_floating(t.tensor.dtype)) continue;
    if (coarsest == DType::Unknown || precision_rank(t.tensor.dtype) < precision_rank(coarsest)) {
      coarsest = t.tensor.dtype;
    }
  }
  return coarsest == DType::Unknown ? DType::Float64 : coarsest;
}

// The given inputs, or random ones for this trial's seed. Index bounds (of
// placeholders and of get_attr constants, RandomInputs::attrs) come from the
// first graph only: both graphs run on the same values, so the bound must be
// one for both, and `a` is the reference whose uses say what the values
// address; a `b` that indexes a constant with a different bound is not
// equivalent anyway, and a mismatch or an out-of-range error in `b` says so.
RandomInputs inputs_for_trial(const Graph& a, const OpRegistry& registry,
                              const EquivalenceOptions& options, uint64_t seed) {
  if (options.given_inputs) {
    RandomInputs in = *options.given_inputs;
    // Given inputs name placeholders only: index constants still get bounded values.
    if (in.attrs.empty()) in.attrs = random_attr_values(a, seed, in.bindings, &registry);
    return in;
  }
  RandomInputOptions ro;
  ro.bindings = options.bindings;
  ro.registry = &registry;
  RandomInputs in = random_inputs(a, seed, ro);
  apply_input_assumptions(a, options.assumptions, in, registry);
  return in;
}

// Rank r's inputs of one trial: drawn with its own seed, except the
// replicated placeholders, which take rank 0's values.
std::vector<RandomInputs> rank_inputs_for_trial(const Graph& a, const OpRegistry& registry,
                                                const EquivalenceOptions& options, uint64_t seed) {
  std::vector<NodeRef> placeholders = a.placeholders();
  for (const std::string& name : options.replicated_inputs)
    if (std::none_of(placeholders.begin(), placeholders.end(),
                     [&](NodeRef p) { return a.node(p).name == name; }))
      throw Error(fmt::format("replicated input '{}' is not an input of the graph", name));
  std::vector<RandomInputs> ranks{inputs_for_trial(a, registry, options, hash_combine(seed, 1000))};
  EquivalenceOptions same_sizes = options;  // every rank sees the sizes rank 0 drew
  same_sizes.bindings = ranks[0].bindings;
  for (int r = 1; r < options.world_size; ++r)
    ranks.push_back(inputs_for_trial(a, registry, same_sizes, hash_combine(seed, 1000 + r)));
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const std::string& name = a.node(placeholders[i]).name;
    if (std::find(options.replicated_inputs.begin(), options.replicated_inputs.end(), name) ==
        options.replicated_inputs.end())
      continue;
    for (size_t r = 1; r < ranks.size(); ++r) ranks[r].values[i] = deep_copy(ranks[0].values[i]);
  }
  return ranks;
}

// Both graphs as a simulated group: each rank's opaque calls of `b` answered
// by the same rank's calls of `a`.
std::pair<std::vector<RunResult>, std::vector<RunResult>> run_pair_tensor_parallel(
    const Graph& a, const Graph& b, const OpRegistry& registry, const InterpreterOptions& io,
    std::vector<OpaqueCallLedger>& ledgers, const std::vector<RandomInputs>& in) {
  std::vector<InterpreterOptions> options(in.size(), io);
  std::vector<std::vector<RuntimeValue>> values;
  for (size_t r = 0; r < in.size(); ++r) {
    options[r].opaque_calls = &ledgers[r];
    options[r].attr_values = &in[r].attrs;
    values.push_back(in[r].values);
  }
  for (OpaqueCallLedger& l : ledgers) l.start(OpaqueCallLedger::Role::Record);
  std::vector<RunResult> ra = run_tensor_parallel(registry, options, a, values, in[0].bindings);
  for (OpaqueCallLedger& l : ledgers) l.start(OpaqueCallLedger::Role::Match);
  std::vector<RunResult> rb = run_tensor_parallel(registry, options, b, values, in[0].bindings);
  return {std::move(ra), std::move(rb)};
}

void record_structural_checks(const OpaqueCallLedger& ledger, EquivalenceResult& result) {
  for (const auto& [op, count] : ledger.counts())
    result.structural_ops.emplace_back(op, count.matched);
}

}  // namespace

std::vector<OutputDeviation> real_numerics_deviations(const Graph& a, const Graph& b,
                                                      const OpRegistry& registry,
                                                      const EquivalenceOptions& options,
                                                      EquivalenceResult& result);

std::string compare_values(const RuntimeValue& a, const RuntimeValue& b,
                           const EquivalenceOptions& options, DType coarsest_input_float,
                           const std::string& label) {
  if (a.is_tensor() && b.is_tensor()) {
    return compare_tensors(a.tensor(), b.tensor(), options, coarsest_input_float, label);
  }
  if (a.is_list() && b.is_list()) {
    if (a.list().size() != b.list().size()) {
      return fmt::format("{}: {} vs {}", label, describe(a), describe(b));
    }
    for (size_t i = 0; i < a.list().size(); ++i) {
      std::string m = compare_values(a.list()[i], b.list()[i], options, coarsest_input_float,
                                     fmt::format("{}[{}]", label, i));
      if (!m.empty()) return m;
    }
    return {};
  }
  if (a.is_double() || b.is_double()) {
    auto num = [](const RuntimeValue& v) -> std::optional<double> {
      if (v.is_double()) return std::get<double>(v.v);
      if (v.is_int()) return static_cast<double>(v.as_int());
      return std::nullopt;
    };
    std::optional<double> x = num(a), y = num(b);
    const Tolerance t = options.mode == ToleranceMode::Reference ? Tolerance{} : options.fp32;
    if (x && y && close(*x, *y, t)) return {};
    return fmt::format("{}: {} vs {}", label, describe(a), describe(b));
  }
  if (a.is_none() && b.is_none()) return {};
  if (a.is_int() && b.is_int() && a.as_int() == b.as_int()) return {};
  if (a.is_bool() && b.is_bool() && std::get<bool>(a.v) == std::get<bool>(b.v)) return {};
  return fmt::format("{}: {} vs {}", label, describe(a), describe(b));
}

namespace {

// The first difference between two runs on the same inputs: outputs, then the
// final values of inputs either graph mutated; empty when they agree. `prefix`
// starts each label ("rank 1: ").
std::string compare_runs(const Graph& a, const RunResult& ra, const RunResult& rb,
                         const std::vector<RuntimeValue>& inputs, const EquivalenceOptions& options,
                         DType coarsest, const std::string& prefix) {
  if (ra.outputs.size() != rb.outputs.size())
    return fmt::format("{}the graphs return {} and {} values", prefix, ra.outputs.size(),
                       rb.outputs.size());
  for (size_t i = 0; i < ra.outputs.size(); ++i) {
    std::string label =
        fmt::format("{}output {} ({} vs {})", prefix, i, ra.output_names[i], rb.output_names[i]);
    std::string m = compare_values(ra.outputs[i], rb.outputs[i], options, coarsest, label);
    if (!m.empty()) return m;
  }
  // Final values of inputs mutated by either graph (unmutated = initial value).
  std::vector<NodeRef> pa = a.placeholders();
  std::map<size_t, std::pair<RuntimeValue, RuntimeValue>> finals;
  for (const auto& [idx, t] : ra.mutated_inputs) finals[idx].first = t;
  for (const auto& [idx, t] : rb.mutated_inputs) finals[idx].second = t;
  for (auto& [idx, pair] : finals) {
    if (pair.first.is_none()) pair.first = inputs[idx];
    if (pair.second.is_none()) pair.second = inputs[idx];
    std::string label =
        fmt::format("{}final value of mutated input {} ({})", prefix, idx, a.node(pa[idx]).name);
    std::string m = compare_values(pair.first, pair.second, options, coarsest, label);
    if (!m.empty()) return m;
  }
  return {};
}

// equivalent() for world_size > 1: per trial, both graphs as a simulated
// group; every rank's outputs compared. The real-numerics deviations and the
// first differing node are single-process analyses and are not computed.
EquivalenceResult equivalent_tensor_parallel(const Graph& a, const Graph& b,
                                             const OpRegistry& registry,
                                             const EquivalenceOptions& options,
                                             const InterpreterOptions& io, DType coarsest) {
  EquivalenceResult result;
  const int trials = options.given_inputs ? 1 : options.trials;
  for (int trial = 0; trial < trials; ++trial) {
    uint64_t seed = hash_combine(options.seed, static_cast<uint64_t>(trial));
    const std::vector<RandomInputs> in = rank_inputs_for_trial(a, registry, options, seed);
    std::vector<OpaqueCallLedger> ledgers;
    for (size_t r = 0; r < in.size(); ++r) ledgers.emplace_back(opaque_distance(options, coarsest));
    auto [ra, rb] = run_pair_tensor_parallel(a, b, registry, io, ledgers, in);
    ++result.trials_run;
    if (trial == 0) record_structural_checks(ledgers[0], result);
    for (size_t r = 0; r < in.size(); ++r) {
      std::string m = compare_runs(a, ra[r], rb[r], in[r].values, options, coarsest,
                                   fmt::format("rank {}: ", r));
      if (m.empty()) continue;
      result.ok = false;
      result.first_mismatch = options.given_inputs
                                  ? fmt::format("{} (given inputs)", m)
                                  : fmt::format("{} (trial {}, seed {})", m, trial, seed);
      result.unmatched_opaque_calls = ledgers[r].unmatched_calls();
      return result;
    }
  }
  return result;
}

}  // namespace

EquivalenceResult equivalent(const Graph& a, const Graph& b, const OpRegistry& registry,
                             const EquivalenceOptions& options) {
  std::vector<NodeRef> pa = a.placeholders(), pb = b.placeholders();
  if (pa.size() != pb.size()) {
    throw Error(fmt::format("the graphs have different numbers of inputs ({} vs {})", pa.size(),
                            pb.size()));
  }
  for (size_t i = 0; i < pa.size(); ++i) {
    const Node& x = a.node(pa[i]);
    const Node& y = b.node(pb[i]);
    if (!same_input_type(x.type, y.type)) {
      throw Error(fmt::format("input {} has different types: '{}' is {} but '{}' is {}", i, x.name,
                              describe(x.type), y.name, describe(y.type)),
                  y.meta.loc);
    }
  }
  DType coarsest = coarsest_float_input(a);
  InterpreterOptions io;
  io.round_like_unfused = options.mode != ToleranceMode::Strict;
  io.allow_opaque = options.mode != ToleranceMode::Strict;
  io.memory_limit_bytes = options.memory_limit_bytes;
  if (options.world_size > 1)
    return equivalent_tensor_parallel(a, b, registry, options, io, coarsest);
  EquivalenceResult result;
  const int trials = options.given_inputs ? 1 : options.trials;
  for (int trial = 0; trial < trials; ++trial) {
    uint64_t seed = hash_combine(options.seed, static_cast<uint64_t>(trial));
    const RandomInputs in = inputs_for_trial(a, registry, options, seed);
    OpaqueCallLedger ledger(opaque_distance(options, coarsest));
    auto [ra, rb] = run_pair(a, b, registry, io, ledger, in);
    ++result.trials_run;
    if (trial == 0) record_structural_checks(ledger, result);
    auto mismatch = [&](std::string text) {
      result.ok = false;
      result.first_mismatch = options.given_inputs
                                  ? fmt::format("{} (given inputs)", text)
                                  : fmt::format("{} (trial {}, seed {})", text, trial, seed);
      result.unmatched_opaque_calls = ledger.unmatched_calls();
      result.first_differing_node = first_differing_node(a, b, registry, io, in, options, coarsest);
      return result;
    };
    std::string m = compare_runs(a, ra, rb, in.values, options, coarsest, "");
    if (!m.empty()) return mismatch(m);
  }
  if (options.mode == ToleranceMode::Reference && trials > 0)
    result.deviations = real_numerics_deviations(a, b, registry, options, result);
  return result;
}

std::vector<OutputDeviation> real_numerics_deviations(const Graph& a, const Graph& b,
                                                      const OpRegistry& registry,
                                                      const EquivalenceOptions& options,
                                                      EquivalenceResult& result) {
  const RandomInputs in =
      inputs_for_trial(a, registry, options, hash_combine(options.seed, uint64_t{0}));
  // Inputs to opaque calls differ a little here by design: the nearest
  // recorded call answers, so the deviation measured is the fused kernels'.
  OpaqueCallLedger ledger(&OpaqueCallLedger::nearest_distance);
  InterpreterOptions io;
  io.memory_limit_bytes = options.memory_limit_bytes;
  auto [ra, rb] = run_pair(a, b, registry, io, ledger, in);
  for (const auto& [op, count] : ledger.counts()) {
    if (count.inexact > 0)
      result.deviation_not_propagated.push_back(fmt::format("{} x{}", op, count.inexact));
  }
  std::vector<OutputDeviation> out;
  for (size_t i = 0; i < ra.outputs.size() && i < rb.outputs.size(); ++i) {
    if (!ra.outputs[i].is_tensor() || !rb.outputs[i].is_tensor()) continue;
    std::string label =
        fmt::format("output {} ({} vs {})", i, ra.output_names[i], rb.output_names[i]);
    if (auto d = tensor_deviation(ra.outputs[i].tensor(), rb.outputs[i].tensor(), label))
      out.push_back(std::move(*d));
  }
  return out;
}

std::string_view tolerance_mode_name(ToleranceMode m) {
  switch (m) {
    case ToleranceMode::Reference:
      return "reference";
    case ToleranceMode::Strict:
      return "strict";
    case ToleranceMode::Rounding:
      return "rounding";
  }
  return "?";
}

}  // namespace eqfuse
