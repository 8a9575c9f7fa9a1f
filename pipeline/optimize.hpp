// The whole eqfuse pipeline as one library call: graph -> e-graph ->
// saturate with the enabled rules -> extract under the NPU cost model ->
// graph. This is what `eqfuse optimize` runs.
//
//   OpRegistry reg = OpRegistry::with_builtin_ops();
//   LoadedGraph in = load_graph(text, "layer.fx", reg);
//   OptimizeOptions opt;                        // defaults: default rules, ascend910b2,
//   opt.rules.mode = ExecMode::ReduceOverhead;  //   reduce-overhead, extractor auto
//   OptimizeResult r = optimize_graph(in.graph, reg, opt);
//   out << print_fx(r.graph, &reg);
//   err << format_summary(r.stats);
//
// (Compiled and run by tests/docs/doc_examples_test.cpp.)
//
// The result keeps the saturated e-graph and the extraction (`state`) so
// explanations (`eqfuse explain`) can ask why a node was or was not chosen.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/memory_budget.hpp"
#include "cost/cost_model.hpp"
#include "egraph/runner.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/input_assumptions.hpp"
#include "passes/reinplace.hpp"
#include "rewrites/config.hpp"

namespace eqfuse {

class RuleLibrary;
struct OptimizeState;  // pipeline/optimize_state.hpp

struct OptimizeOptions {
  RuleConfig rules;                      // toggles and mode
  const RuleLibrary* library = nullptr;  // null: the default rule library
  std::string device{kDefaultDevice};    // profile name or JSON path
  // Ranks of the tensor-parallel group the graph runs in, for the price of collectives
  // that do not size their group themselves (all_reduce); 0 keeps the profile's
  // comm.world_size (docs/tensor-parallel.md). Ignored with `profile` set (set it there).
  int world_size = 0;
  SymbolHints hints;               // values for symbolic dims in costs
  std::string extractor = "auto";  // bottom-up|greedy-dag|ilp|auto
  double extract_time_limit_s = 10.0;
  // Seconds for each later phase: emitting the extracted graph, and the
  // reinplace passes. Emit stopped by it keeps the input graph; reinplace
  // keeps the rewrites made so far. A note in the summary says which.
  // `--time-limit` sets it with the two above.
  double phase_time_limit_s = 10.0;
  RunnerLimits limits{.iterations = 30, .nodes = 200'000, .seconds = 10.0, .memory_bytes = 0};
  // With the default limits, the e-node limit is at least kNodeLimitPerLoadedNode
  // times the e-nodes the input loads into, so a large model is not stopped
  // before any rule runs (the memory budget still bounds the run). An explicit
  // --node-limit / config "node_limit" sets it to false: the limit is then exact.
  bool node_limit_follows_input = true;
  // The memory budget of the whole run (--memory-limit; base/memory_budget.hpp):
  // resident memory past it stops saturation (at 60% of it, leaving room for
  // extraction), and each later phase keeps the best graph so far with a note.
  // 0: no limit.
  size_t memory_limit_bytes = default_memory_limit_bytes();
  bool record_explanations = false;  // keep proofs for `explain`
  std::string dump_dir;              // non-empty: write per-stage dumps there
  // The reinplace passes (passes/reinplace.hpp) run on the extracted graph
  // in reduce-overhead mode, as TorchAir's aclgraph mode does; their
  // debug.aclgraph.* flags are in `reinplace`. `reinplace_passes = false`
  // skips both.
  bool reinplace_passes = true;
  ReinplaceOptions reinplace;
  // TorchAir's remove_cat_ops (passes/remove_cat_ops.hpp; config
  // debug.aclgraph.remove_cat_ops or npugraph_ex's remove_cat_ops): in
  // reduce-overhead mode, before the reinplace passes.
  bool remove_cat_ops = true;
  // TorchAir's view -> reshape normalisation (torchair-passes.md §4.1): every
  // view, _unsafe_view and row-major _reshape_alias of the output becomes a
  // reshape. Off: only views whose input a rewrite may have made
  // non-contiguous are (graph/view_safety.hpp), which keeps the output valid.
  bool view_to_reshape = false;
  // In-memory profile used instead of `device` when set (sensitivity sweeps,
  // calibrated profiles); must outlive the optimize_graph call.
  const DeviceProfile* profile = nullptr;
  // Graph inputs whose values never change between calls (weights under Inductor's
  // freezing or GE's constant folding): placeholder names or get_attr targets, `*` and
  // `?` wildcards. What is computed from them alone is priced once, not per call
  // (docs/cost-model.md "Frozen inputs"), so a concatenation of weights is free.
  std::vector<std::string> frozen_inputs;
};

// What one rule did during a run (MindSpore-style pass log).
struct RuleRunStats {
  std::string rule;
  bool enabled = true;
  std::string toggle_reason;
  size_t matches = 0;                         // structural matches (before conditions)
  size_t applications = 0;                    // effective unions
  size_t fusing_applications = 0;             // of those, by the search -> replace direction
  size_t rejected = 0;                        // matches refused by a condition
  std::map<std::string, size_t> rejected_by;  // condition text -> count
  size_t chosen =
      0;  // fused kernels of the output graph this rule created (pipeline/fusion_credit)
  // Labelled "fusion" and its replace side calls a fused op (one a fusion
  // rule introduces, FusionCredit::is_fusion_rule): `chosen` counts its
  // kernels (a decision `eqfuse sensitivity` tracks).
  bool fusion = false;
  // A user rule's load-time soundness check (RuleDef::load_check_text): "proven
  // at load on random inputs", "trusted, not checked at load", "not checked at
  // load: op X has no reference kernel"; "" for a built-in rule.
  std::string load_check;
};

// The phases of an optimize run in the order they run; the summary's
// `time (ms)` line and --stats-json's phase_ms list them. `total` is the
// caller's wall time from start to the written outputs: the phases add up to
// it within a few percent.
inline constexpr const char* kPhaseOrder[] = {"parse", "load",       "saturate",  "extract",
                                              "emit",  "remove_cat", "reinplace", "cost",
                                              "stats", "write",      "explain",   "total"};

// A relation between graph inputs that a rewrite in the output relies on: an
// `assumption` rule (rewrites/rule.hpp RuleDef::assumes) fused a site whose
// inputs were these placeholders. Checking the output against the input must draw
// inputs that hold it (EquivalenceOptions::assumptions).
struct UsedAssumption {
  std::string rule;
  InputAssumption assumption;  // over the input graph's placeholder names
};

struct OptimizeStats {
  size_t kernels_before = 0, kernels_after = 0;
  double cost_before_us = 0, cost_after_us = 0;
  std::map<std::string, size_t> fusions;  // rule name -> fused kernels in the output
  // The input relations the output relies on (empty unless an `assumption` rule fused):
  // every site of such a rule whose inputs are placeholders, once each.
  std::vector<UsedAssumption> assumptions;
  std::string extractor;              // the extractor actually used
  bool extraction_optimal = false;    // proven optimal for the whole e-graph
  double extraction_gap = 1.0;        // relative gap to the best lower bound (0 when optimal)
  std::string extraction_stopped_by;  // the limit that stopped extraction early, if any
  // Non-empty when optimize returned the input graph itself (or the
  // extraction kept the input's nodes) because nothing cheaper was found:
  // why. The output then costs exactly what the input does.
  std::string kept_input;
  std::string stop_reason;
  size_t egraph_nodes = 0, egraph_classes = 0, iterations = 0;
  // Wall time per phase, in kPhaseOrder; parse, write and total are the
  // caller's (the CLI times reading the input and writing the outputs).
  std::map<std::string, double> phase_ms;
  std::string device, mode;
  std::vector<RuleRunStats> rules;
  bool reinplace_ran = false;
  size_t reinplaced_nodes = 0, removed_copies = 0;
  double reinplace_saved_bytes = 0;         // memory traffic saved, symbols at their hints
  ReinplaceCounters auto_functionalized;    // clones the reinplace passes could not elide
  size_t removed_cats = 0;                  // cats remove_cat_ops turned into one written buffer
  std::vector<std::string> remove_cat_log;  // its decisions, one line per cat
  // The graph inputs (placeholder names, get_attr targets) the frozen-input
  // patterns matched: priced once, not per call (cost/cost_model.hpp).
  std::vector<std::string> frozen_inputs;
  // What the caller asked for that did not take effect (an --enable-rule of a
  // rule the mode excludes, ...), one sentence each.
  std::vector<std::string> notes;
};

// The default e-node limit's floor per loaded e-node (node_limit_follows_input):
// the fusion rules of a decoder block add well under one e-node per loaded one.
inline constexpr size_t kNodeLimitPerLoadedNode = 4;

struct OptimizeResult {
  Graph graph;
  OptimizeStats stats;
  GraphCost before, after;
  ReinplaceLog reinplace_log;  // decisions of the reinplace passes (empty if they did not run)
  std::shared_ptr<OptimizeState> state;
};

OptimizeResult optimize_graph(const Graph& input, const OpRegistry& reg,
                              const OptimizeOptions& options = {});

// Applies a JSON config file (TorchAir key names accepted; see
// rewrites/config.hpp and docs/cli.md): "mode", "pattern_fusion_pass" /
// "experimental_config.pattern_fusion_pass" / {"experimental_config":
// {"pattern_fusion_pass": ..}}, "remove_noop_ops" (likewise), "disable_rules",
// "enable_rules", "device", "world_size",
// "extractor", "node_limit", "iter_limit", "time_limit" (docs/cli.md has
// them all). Unknown keys and wrong value types are errors naming the key and
// `origin`. The keys that name files or belong to vllm-ascend ("ops",
// "rules", "additional_config") are read by apply_optimize_config
// (pipeline/optimize_config.hpp), which reads a whole config file.
// Defined in pipeline/optimize_config.cpp.
void apply_config_json(OptimizeOptions& options, std::string_view text, std::string_view origin);

// The report of a run (defined in pipeline/optimize_summary.cpp).
// The stderr summary of `eqfuse optimize` (kernels, modeled time, fusions,
// stop reason, phase times), several lines ending with '\n'.
std::string format_summary(const OptimizeStats& s);
// How good the extraction is known to be: "proven optimal", or "not proven
// optimal, within 0.31% of a lower bound" / "..., no lower bound", then
// "; stopped by time limit" when a limit cut the search short.
std::string extraction_quality(const OptimizeStats& s);
// The --stats-json object (keys: docs/cli.md).
std::string stats_to_json(const OptimizeStats& s);

}  // namespace eqfuse
