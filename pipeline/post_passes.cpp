// The post-extraction pass list and the adapters that run each pass of
// passes/ on an OptimizeResult and record what it did in the statistics.
#include "pipeline/post_passes.hpp"

#include <algorithm>
#include <array>

#include "passes/reinplace.hpp"
#include "passes/remove_cat_ops.hpp"

namespace eqfuse {
namespace {

bool reduce_overhead(const OptimizeOptions& opt) {
  return opt.rules.mode == ExecMode::ReduceOverhead;
}

bool runs_remove_cat_ops(const OptimizeOptions& opt) {
  return opt.remove_cat_ops && reduce_overhead(opt);
}

void remove_cat_ops_pass(OptimizeResult& result, const OpRegistry& reg, const OptimizeOptions&) {
  RemoveCatOpsResult rc = remove_cat_ops(result.graph, reg);
  result.graph = std::move(rc.graph);
  result.stats.removed_cats = rc.removed;
  result.stats.remove_cat_log = std::move(rc.log);
}

// TorchAir's aclgraph pipeline runs the reinplace passes after fusion; so
// does reduce-overhead here, on the extracted graph.
void run_reinplace(OptimizeResult& result, const OpRegistry& reg, const OptimizeOptions& opt) {
  ReinplaceOptions ro = opt.reinplace;
  ro.mode = opt.rules.mode;
  ro.time_limit_s = std::min(ro.time_limit_s, opt.phase_time_limit_s);
  ro.memory_limit_bytes = opt.memory_limit_bytes;
  ReinplaceResult rr = reinplace(result.graph, reg, ro);
  result.graph = std::move(rr.graph);
  result.reinplace_log = std::move(rr.log);
  OptimizeStats& s = result.stats;
  if (!result.reinplace_log.stopped.empty())
    s.notes.push_back("reinplace " + result.reinplace_log.stopped);
  s.reinplace_ran = true;
  s.reinplaced_nodes = rr.savings.reinplaced_nodes;
  s.removed_copies = rr.savings.removed_copies;
  s.reinplace_saved_bytes = static_cast<double>(opt.hints.evaluate(rr.savings.total_bytes()));
  s.auto_functionalized = reinplace_counters(result.reinplace_log);
}

// The phase is always timed (the summary lists it in every mode).
bool always(const OptimizeOptions&) {
  return true;
}

void reinplace_pass(OptimizeResult& result, const OpRegistry& reg, const OptimizeOptions& opt) {
  if (opt.reinplace_passes && reduce_overhead(opt)) {
    run_reinplace(result, reg, opt);  // recover_view_inplace runs first inside
  } else if (opt.reinplace.recover_view_inplace) {
    // TorchAir's _optimize_fx runs it in every mode, not only with the
    // aclgraph reinplace passes (docs/reference/torchair-passes.md §1.1 step 3).
    recover_view_inplace_step(result.graph, reg, opt.reinplace, result.reinplace_log);
  }
}

constexpr std::array kPasses{
    // TorchAir's aclgraph pipeline: remove_cat_ops (a dim-0 cat of producers
    // with .out variants becomes one buffer they write) before reinplacing,
    // so the buffers it introduces are reinplaced too.
    PostExtractionPass{"remove_cat", runs_remove_cat_ops, remove_cat_ops_pass},
    // recover_view_inplace in every mode, then (reduce-overhead) reinplace
    // passes A (intermediates) and B (graph inputs).
    PostExtractionPass{"reinplace", always, reinplace_pass},
};

}  // namespace

std::span<const PostExtractionPass> post_extraction_passes() {
  return kPasses;
}

}  // namespace eqfuse
