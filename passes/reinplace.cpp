// The two reinplace passes (docs/reference/torchair-passes.md §6.2–§6.4). Each pass
// works on a private copy of the graph: candidates are rewritten in place in
// the copy (retargeted, uses rewired), deleted nodes are only marked, and the
// alias analysis is kept current after every change so that later candidates
// see the rewired graph exactly as TorchAir's passes do. The copy is
// compacted at the end.
//
// Keeping the analysis current is incremental (AliasAnalysis::update): a
// rewrite touches the rewritten node, the users it rewires and the nodes
// whose storages follow from them, so a pass costs O(nodes + rewrites x
// touched) rather than a full analysis per rewrite. Only decomposing an
// auto_functionalized call, which inserts nodes and so renumbers the graph,
// rebuilds the analysis. `ReinplaceOptions::check_alias_analysis` compares
// the kept analysis with a fresh one after every rewrite.
//
// The passes are split by concern: reinplace_analysis.cpp (the working copy
// and the checks), reinplace_passes.cpp (passes A and B),
// reinplace_auto_functionalized.cpp (auto_functionalized calls) and
// reinplace_log.cpp (the log); passes/reinplace_internal.hpp declares what
// they share. This file is the driver: mode, disable flags, the multi-stream
// policy and the order of the passes.
#include "passes/reinplace.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "graph/streams.hpp"
#include "passes/reinplace_internal.hpp"

namespace eqfuse {
namespace {

using reinplace_detail::has_scope_nodes;
using reinplace_detail::PassState;
using reinplace_detail::run_pass_a;
using reinplace_detail::run_pass_b;

// ---- driver ----------------------------------------------------------------------------------

void note_unusable_entries(const ReinplaceOptions& o, const OpRegistry& reg, ReinplaceLog& log) {
  for (const InplaceableOp& e : o.table.entries()) {
    std::string why = InplaceableOpTable::unusable_reason(e, reg);
    if (!why.empty())
      log.notes.push_back(fmt::format("table entry '{}' not used: {}", e.functional, why));
  }
}

// The stream labels the pass will see: labels come from scope nodes when
// there are any (PassState assigns them), else from the nodes' own labels.
std::vector<std::string> labels_seen_by_pass(const Graph& g) {
  if (!has_scope_nodes(g)) return stream_labels(g);
  Graph labelled = g;
  assign_stream_labels(labelled);
  return stream_labels(labelled);
}

using Clock = std::chrono::steady_clock;

// When the phase must stop: `time_limit_s` from now, none when infinite.
std::optional<Clock::time_point> deadline_of(const ReinplaceOptions& o) {
  if (!(o.time_limit_s < 1e9)) return std::nullopt;
  return Clock::now() +
         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.time_limit_s));
}

void note_stopped(ReinplaceLog& log, const std::string& by, ReinplacePass pass, size_t at,
                  size_t nodes) {
  log.stopped = fmt::format(
      "stopped by {} in {}_pass at node {} of {}: the rewrites made until "
      "then are kept, the later nodes are left as they were",
      by, reinplace_pass_name(pass), at, nodes);
  log.notes.push_back(log.stopped);
}

// Runs one pass on `input`; appends its notes and decisions to `log`. Sets
// `log.stopped` when the deadline stopped it.
Graph run_pass(Graph input, const OpRegistry& reg, const ReinplaceOptions& o, ReinplacePass pass,
               ReinplaceLog& log, std::optional<Clock::time_point> deadline = std::nullopt) {
  if (o.multi_stream == MultiStreamPolicy::SkipGraph) {
    std::vector<std::string> labels = labels_seen_by_pass(input);
    if (!labels.empty()) {
      log.notes.push_back(fmt::format(
          "skipping {}_pass: the graph uses in-graph multi-stream parallelism (streams {}), as "
          "TorchAir documents",
          reinplace_pass_name(pass), fmt::join(labels, ", ")));
      return input;
    }
  }
  PassState st(std::move(input), reg, o, pass);
  if (deadline) st.set_deadline(*deadline);
  st.set_memory_limit(o.memory_limit_bytes);
  log.notes.push_back(fmt::format("processing {}_pass", reinplace_pass_name(pass)));
  const bool finished = pass == ReinplacePass::InplaceableOps ? run_pass_a(st) : run_pass_b(st);
  for (ReinplaceDecision& d : st.log().decisions) log.decisions.push_back(std::move(d));
  if (!finished) note_stopped(log, st.stopped_by(), pass, st.stopped_at(), st.graph().size());
  return std::move(st).compact();
}

ReinplaceResult finish_result(Graph g, ReinplaceLog log) {
  ReinplaceResult r{std::move(g), std::move(log), {}};
  r.savings = memory_traffic_saved(r.log);
  return r;
}

// One pass on its own, with a fresh log: what the per-pass entry points share.
ReinplaceResult run_single_pass(const Graph& input, const OpRegistry& reg,
                                const ReinplaceOptions& o, ReinplacePass pass) {
  ReinplaceLog log;
  note_unusable_entries(o, reg, log);
  Graph g = run_pass(input, reg, o, pass, log);
  return finish_result(std::move(g), std::move(log));
}

}  // namespace

ReinplaceResult reinplace_inplaceable_ops(const Graph& input, const OpRegistry& reg,
                                          const ReinplaceOptions& o) {
  return run_single_pass(input, reg, o, ReinplacePass::InplaceableOps);
}

ReinplaceResult reinplace_input_mutated_ops(const Graph& input, const OpRegistry& reg,
                                            const ReinplaceOptions& o) {
  return run_single_pass(input, reg, o, ReinplacePass::InputMutatedOps);
}

void recover_view_inplace_step(Graph& g, const OpRegistry& reg, const ReinplaceOptions& o,
                               ReinplaceLog& log) {
  if (!o.recover_view_inplace) {
    log.notes.push_back(
        "skipping recover_view_inplace_pattern: reinplace.recover_view_inplace is false");
    return;
  }
  RecoverViewInplaceResult rv = recover_view_inplace_pattern(g, reg, o.view_inplace_table);
  g = std::move(rv.graph);
  log.recover_view_inplace = std::move(rv.log);
}

ReinplaceResult reinplace(const Graph& input, const OpRegistry& reg, const ReinplaceOptions& o) {
  ReinplaceLog log;
  if (o.mode != ExecMode::ReduceOverhead) {
    log.notes.push_back(fmt::format(
        "warning: the reinplace passes run only in reduce-overhead (aclgraph) mode; mode is "
        "'{}', so the graph is left unchanged",
        exec_mode_name(o.mode)));
    return finish_result(input, std::move(log));
  }
  const std::optional<Clock::time_point> deadline = deadline_of(o);
  note_unusable_entries(o, reg, log);
  Graph g = input;
  recover_view_inplace_step(g, reg, o, log);
  if (o.disable_reinplace_inplaceable_ops_pass) {
    log.notes.push_back(
        fmt::format("skipping reinplace_inplaceable_ops_pass: {} is set", kDisableInplaceableKey));
  } else {
    g = run_pass(std::move(g), reg, o, ReinplacePass::InplaceableOps, log, deadline);
  }
  if (!log.stopped.empty()) {
    log.notes.push_back(
        fmt::format("skipping reinplace_input_mutated_ops_pass: the {} limit was "
                    "reached",
                    log.stopped.starts_with("stopped by the memory") ? "memory" : "time"));
  } else if (o.disable_reinplace_input_mutated_ops_pass) {
    log.notes.push_back(fmt::format("skipping reinplace_input_mutated_ops_pass: {} is set",
                                    kDisableInputMutatedKey));
  } else {
    g = run_pass(std::move(g), reg, o, ReinplacePass::InputMutatedOps, log, deadline);
  }
  return finish_result(std::move(g), std::move(log));
}

}  // namespace eqfuse
