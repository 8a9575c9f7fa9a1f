// End to end: FX text -> optimize -> check. A graph optimize accepts must be
// equivalent to its input under the reference interpreter, and never cost
// more. Inputs starting "H<byte>" also set --hint s0 to an edge value (2^62,
// int64 max, ...): the hint paths must refuse sizes that leave int64.
#include "fuzz_common.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/rule.hpp"

using namespace eqfuse;

namespace {

// Inputs larger than this are optimized but not run: the interpreter under
// ASan would spend seconds per input on a real model's weights, and the
// rewrites it would check are the ones small inputs reach too.
constexpr int64_t kMaxCheckedElements = int64_t{1} << 16;

bool small_enough_to_run(const Graph& g) {
  for (const Node& n : g.nodes()) {
    if (n.kind != NodeKind::Placeholder || !n.type.is_tensor()) continue;
    try {
      const std::optional<SymInt> numel = n.type.tensor.numel();
      const std::optional<int64_t> count = numel ? numel->constant() : std::nullopt;
      if (count && *count > kMaxCheckedElements) return false;
    } catch (const Error&) {
      return false;
    }
  }
  return true;
}

constexpr int64_t kEdgeHints[] = {
    1, 2, 7, 4096, 1LL << 31, 1LL << 32, 1LL << 62, INT64_MAX, INT64_MAX / 4096};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  static const RuleLibrary lib = RuleLibrary::builtin(reg);
  OptimizeOptions o;
  o.library = &lib;
  if (size >= 2 && data[0] == 'H') {
    o.hints.values["s0"] = kEdgeHints[data[1] % std::size(kEdgeHints)];
    data += 2;
    size -= 2;
  }
  o.limits = RunnerLimits{.iterations = 8, .nodes = 20'000, .seconds = 2.0, .memory_bytes = 0};
  o.node_limit_follows_input = false;  // the bounds above, exactly
  o.extract_time_limit_s = 1.0;
  o.phase_time_limit_s = 1.0;
  LoadedGraph in;
  OptimizeResult r;
  try {
    in = load_graph(fuzz::as_text(data, size), "fuzz.fx", reg);
    r = optimize_graph(in.graph, reg, o);
  } catch (const Error&) {
    return 0;
  }
  if (r.stats.cost_after_us > r.stats.cost_before_us * (1 + 1e-12))
    fuzz::finding("optimize made the graph costlier", print_fx(in.graph, &reg));
  if (!small_enough_to_run(in.graph)) return 0;
  EquivalenceResult e;
  try {
    EquivalenceOptions eo;
    eo.trials = 1;
    e = equivalent(in.graph, r.graph, reg, eo);
  } catch (const Error&) {
    return 0;  // not comparable (an op without a kernel, untyped inputs): not a verdict
  }
  if (!e.ok)
    fuzz::finding(
        "optimize changed what the graph computes",
        e.first_mismatch + "\n" + print_fx(in.graph, &reg) + "\n---\n" + print_fx(r.graph, &reg));
  return 0;
}
