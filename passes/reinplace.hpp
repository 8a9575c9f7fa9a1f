// The reinplace passes of TorchAir / npugraph_ex's reduce-overhead (aclgraph)
// mode (docs/reference/torchair-passes.md §6), as graph passes over a normalized, typed
// Graph. They run after extraction, not in the e-graph: they change where
// results are written, not what is computed.
//
//   ReinplaceOptions opt;                       // both passes on, reduce-overhead
//   ReinplaceResult r = reinplace(graph, registry, opt);
//   std::cout << print_fx(r.graph, &registry);  // `graph` itself is not modified
//   for (const std::string& line : r.log.lines()) std::cerr << line << '\n';
//   SymInt bytes = r.savings.total_bytes();     // memory traffic saved
//
// Pass A (`reinplace_inplaceable_ops`, intermediates): `b = op(a, ...)` becomes
// `op_(a, ...)` when `a` is an intermediate nobody reads afterwards; table ops
// (InplaceableOpTable) become their multi-mutation in-place op.
// Pass B (`reinplace_input_mutated_ops`, graph inputs): `b = op(x, ...)` +
// `copy_(x, b)` becomes `op_(x, ...)` without the copy_ when no alias of x is
// read in between. It also decides, for each auto_functionalized /
// auto_functionalized_v2 call (graph/auto_functionalized.hpp), which mutable
// arguments (v1) or bases (v2) the wrapped op may write in place and which it
// must clone, then decomposes the call into the in-place op itself
// (inductor's decompose_auto_functionalized).
// Every candidate gets a ReinplaceDecision with a stable reason kind
// (ReinplaceReason) and the nodes its reason names; `eqfuse explain` shows
// them. The rules and their reasons: docs/reinplace.md.
#pragma once
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "graph/exec_mode.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "graph/symint.hpp"
#include "passes/recover_view_inplace.hpp"

namespace eqfuse {

// ---- the multi-mutation table (passes/reinplace_table.cpp) ----------------

// Where output `i` of a functional op comes from after the rewrite.
struct OutputProjection {
  enum class Kind { InplaceOutput, MutatedArg };
  Kind kind = Kind::InplaceOutput;
  int index = 0;  // output index of the in-place op, or argument position
  bool operator==(const OutputProjection&) const = default;
};

// `functional(args...) -> (outs..., new values of the mutated args)` and its
// in-place twin that writes the mutated args itself.
struct InplaceableOp {
  std::string functional;         // "npu::npu_add_rms_norm_v2_functional"
  std::string inplace;            // "npu::npu_add_rms_norm_v2"
  std::vector<int> mutated_args;  // argument positions (normalized call)
  // One entry per functional output, stated explicitly (never "rewire to the
  // first mutated arg", the gap of torchair-passes.md §6.2 step 6).
  std::vector<OutputProjection> outputs;
};

// TorchAir's convention: the last n outputs are the new values of the n
// mutated args, in order; the others are the in-place op's outputs.
std::vector<OutputProjection> projections_by_convention(int functional_outputs,
                                                        const std::vector<int>& mutated_args);

class InplaceableOpTable {
 public:
  // TorchAir's `inplaceable_npu_ops` (torchair-passes.md §6.1): npu_kv_rmsnorm_rope_cache_v2,
  // npu_mla_prolog_v3, npu_add_rms_norm_v2.
  static InplaceableOpTable defaults();

  // Adds an entry, replacing one with the same functional op.
  void add(InplaceableOp entry);
  const InplaceableOp* find(std::string_view functional) const;
  const std::vector<InplaceableOp>& entries() const { return entries_; }

  // Why an entry cannot be used with `reg` (an op not registered, a position
  // out of range or not a Tensor argument, a projection that does not fit the
  // schemas); empty when it can. TorchAir likewise registers an entry only if
  // the in-place op exists.
  static std::string unusable_reason(const InplaceableOp& entry, const OpRegistry& reg);

 private:
  std::vector<InplaceableOp> entries_;
};

// ---- options ------------------------------------------------------------------------

enum class MultiStreamPolicy {
  // Documented TorchAir behaviour (docs page "FX Pass配置功能", torchair-passes.md
  // §6.4): when the graph uses in-graph multi-stream parallelism, every
  // reinplace pass is skipped.
  SkipGraph,
  // TorchAir's code path (ReinplaceStreamChecker, torchair-passes.md §6.4): decide node by
  // node, refusing when the users of a mutated input span several streams.
  PerNode,
};

struct ReinplaceOptions {
  ExecMode mode = ExecMode::ReduceOverhead;  // the passes run only in reduce-overhead
  // TorchAir config names (debug.aclgraph.*).
  bool disable_reinplace_inplaceable_ops_pass = false;
  bool disable_reinplace_input_mutated_ops_pass = false;
  MultiStreamPolicy multi_stream = MultiStreamPolicy::SkipGraph;
  // TorchAir skips the liveness check for table ops on intermediates, which is
  // unsound when the old value of a mutated arg is read later. On (default):
  // check it; off: TorchAir's exact behaviour.
  bool check_multi_mutation_liveness = true;
  // TorchAir lets an auto_functionalized op write a base in place even when
  // one of its read-only arguments is the same tensor (`sin(out, out)`): fine
  // for the user's elementwise op, wrong for an op that reads an input after
  // writing its output (and eqfuse's e-graph may merge two equal copies into
  // one tensor). On (default): clone such a base; off: TorchAir's behaviour.
  bool check_auto_functionalized_read_aliasing = true;
  InplaceableOpTable table = InplaceableOpTable::defaults();
  // TorchAir's recover_view_inplace_pattern (torchair-passes.md §4.2), run before the two
  // passes; TorchAir always runs it (CANN >= 8.3.RC1). The table maps
  // functional ops to their in-place twins (config "view_inplace_ops").
  bool recover_view_inplace = true;
  ViewInplaceTable view_inplace_table = ViewInplaceTable::defaults();
  // Debug check (tests): after every rewrite, compare the alias analysis the
  // passes keep current incrementally with one built afresh, and throw
  // std::logic_error naming the first difference. Costs a full analysis per
  // rewrite, so off by default.
  bool check_alias_analysis = false;
  // Seconds for recover_view_inplace and both passes together (optimize's
  // --time-limit bounds this phase as it does the others). When they run
  // out, the pass stops between two candidates: the rewrites made so far stay
  // (each one leaves a valid graph), later nodes are left as they were, the
  // other pass does not run, and `ReinplaceLog::stopped` says so. Infinity:
  // no limit.
  double time_limit_s = std::numeric_limits<double>::infinity();
  // The process's resident memory past which the passes stop the same way
  // (base/memory_budget.hpp; optimize's --memory-limit). 0: no limit.
  size_t memory_limit_bytes = 0;
};

inline constexpr std::string_view kDisableInplaceableKey =
    "debug.aclgraph.disable_reinplace_inplaceable_ops_pass";
inline constexpr std::string_view kDisableInputMutatedKey =
    "debug.aclgraph.disable_reinplace_input_mutated_ops_pass";

// Applies a JSON config (text of a file named `origin`): the two debug.aclgraph
// keys (dotted or nested {"debug": {"aclgraph": {...}}}), "mode", and a
// "reinplace" section:
//   {"reinplace": {"multi_stream": "skip-graph" | "per-node",
//                  "check_multi_mutation_liveness": true,
//                  "check_auto_functionalized_read_aliasing": true,
//                  "recover_view_inplace": true,
//                  "view_inplace_ops": [{"op": "aten::add.Tensor",
//                                        "inplace": "aten::add_.Tensor"}],
//                  "ops": ["custom::f(Tensor x, Tensor(a!) y) -> () | kind=other", ...],
//                  "inplaceable_ops": [{"op": "custom::f_functional", "inplace": "custom::f",
//                                       "mutated_args": [1],
//                                       "outputs": [{"arg": 1}]}]}}
// "ops" lines are catalog entries (docs/ops.md) registered into `reg`;
// "outputs" is optional (default: projections_by_convention). Other top-level
// keys are left to the optimize config; unknown keys inside "reinplace" and
// wrong value types are Errors naming the key and `origin`.
void apply_reinplace_config_json(ReinplaceOptions& options, OpRegistry& reg, std::string_view text,
                                 std::string_view origin);

// ---- log and result -----------------------------------------------------------------

enum class ReinplacePass { InplaceableOps, InputMutatedOps };
// "reinplace_inplaceable_ops", "reinplace_input_mutated_ops".
std::string_view reinplace_pass_name(ReinplacePass p);

// One mutable argument (v1) or base (v2) of an auto_functionalized call:
// written in place by the wrapped op, or cloned first.
struct AutoFunctionalizedSlot {
  std::string name;                  // "result" (v1 argument) or "_all_bases[0]" (v2)
  std::vector<std::string> tensors;  // the tensor nodes (several for a Tensor[] argument)
  bool reinplaced = false;
  std::string reason;  // cloned: why
  // numel * element size of the tensors with static shapes (TorchAir's missed
  // bytes when cloned); symbolic shapes count 0, as in torch's ReinplaceCounters.
  int64_t bytes = 0;
  std::string stream_check;  // TorchAir's `multi_stream_auto_functionalize` line, if run
};

// Why a candidate was rewritten or kept, as a stable kind (the JSON `kind`
// of `eqfuse explain`'s reinplace section; docs/reinplace.md lists them).
enum class ReinplaceReason {
  // rewritten
  DeadIntermediate,           // writes into an intermediate nobody reads afterwards
  MutatedArgsInPlace,         // a table op writes its (intermediate) mutated arguments
  GraphInputInPlace,          // writes graph input(s); their copy_ epilogues are removed
  AutoFunctionalizedInPlace,  // an auto_functionalized call, decomposed; the op writes at
                              // least one mutable argument / base in place (`slots`)
  // kept
  MultiStreamUsers,          // the users of a mutated argument run on several streams
  TypeMismatch,              // the result's dtype/shape differs from the argument's
  InternalOverlap,           // the argument may overlap itself (expanded, zero strides)
  ArgumentAliases,           // another argument is, or may alias, the mutated one
  MutatedArgsAlias,          // two mutated arguments of a table op may share memory
  ResultUsedWhole,           // a table op's tuple result is used as a whole
  NotATensor,                // the mutated argument is not a tensor value
  MutatesGraphInput,         // pass A: the argument is a graph input or an alias of one
  ReadLater,                 // the argument (or an alias) is read after the node
  ViewOfGraphInput,          // pass B: the argument is a view of a graph input
  NotAGraphInput,            // pass B, table op: a mutated argument is not a graph input
  NewValueNotCopied,         // pass B, table op: a mutated argument's new value is not copied back
  NoCopyEpilogue,            // pass B: the input has no copy_ epilogue
  SeveralCopyEpilogues,      // pass B: the input has more than one
  EpilogueCopiesOther,       // pass B: the input's epilogue copies another value
  ReadBeforeEpilogue,        // pass B: the input is read between the node and its epilogue
  NoInplaceVariant,          // pass B: copied into an input, but the op has no in-place form
  AutoFunctionalizedCloned,  // an auto_functionalized call, decomposed; every mutable
                             // argument / base is cloned first (`slots` say why)
  NotDecomposable,           // an auto_functionalized call left as it is (layout cannot be kept)
};
// "dead_intermediate", "multi_stream_users", ... (snake case of the enumerator).
std::string_view reinplace_reason_name(ReinplaceReason r);

// A node a decision's reason names, with its stream label ("" = default).
struct ReinplaceNodeRef {
  std::string name;
  std::string stream;
  bool operator==(const ReinplaceNodeRef&) const = default;
};

// One candidate considered by a pass.
struct ReinplaceDecision {
  ReinplacePass pass = ReinplacePass::InplaceableOps;
  std::string node;            // the candidate's name
  std::string target;          // its op before the pass ("aten::add.Tensor")
  std::string inplace_target;  // the in-place op it became / would become ("" if none)
  bool success = false;
  ReinplaceReason kind = ReinplaceReason::DeadIntermediate;
  std::string reason;  // refused: why; success: what was written where
  // The nodes the reason names: the later readers, the users on other
  // streams, the aliasing argument, the copy_ epilogue, ...
  std::vector<ReinplaceNodeRef> related;
  std::vector<std::string> written;  // the mutated argument nodes, each once (written or would be)
  // TorchAir's stream-check log line for this candidate (torchair-passes.md §6.4), if the
  // check ran.
  std::string stream_check;
  std::vector<std::string> removed_copies;       // copy_ epilogues deleted
  std::vector<std::string> removed_projections;  // getitems of mutated-arg outputs deleted
  SymInt output_buffer_bytes;                    // the output buffer no longer allocated
  SymInt copy_bytes;                             // read + write traffic of removed copy_ kernels
  // auto_functionalized calls only: one entry per mutable argument (v1) or
  // base (v2). `success` means at least one slot was written in place; the
  // call is decomposed either way, so `inplace_target` (the wrapped op) is
  // what remains.
  std::vector<AutoFunctionalizedSlot> slots;
  // auto_functionalized calls only: the name of the op call the decomposition
  // made ("" when the call was not decomposed).
  std::string decomposed_call;
  SymInt saved_bytes() const { return output_buffer_bytes + copy_bytes; }
  std::vector<std::string> removed_nodes() const;  // removed_copies, then removed_projections
  // The node the passes made of the candidate in the rewritten graph: the
  // in-place node (same name) or the decomposed call; "" when it was kept.
  std::string changed_node() const;
};

struct ReinplaceLog {
  // recover_view_inplace_pattern's lines (it runs first): "In fx_graph, find
  // K matched patterns ...", then one "success to replace ..." per match.
  std::vector<std::string> recover_view_inplace;
  std::vector<std::string> notes;  // pass-level lines: processing, skipped, warnings
  std::vector<ReinplaceDecision> decisions;
  // Non-empty when the time limit stopped the passes before the end: one
  // sentence saying where (also the last of `notes`).
  std::string stopped;

  // Human-readable lines (recover_view_inplace, notes, then decisions in
  // order), for
  // `eqfuse reinplace --log` and `eqfuse explain`.
  std::vector<std::string> lines() const;
  const ReinplaceDecision* find(std::string_view node, ReinplacePass pass) const;
  size_t successes() const;
};

// Memory traffic a set of reinplace decisions saves.
struct ReinplaceSavings {
  SymInt output_buffer_bytes;  // bytes of output buffers no longer written separately
  SymInt copy_bytes;           // bytes moved by the removed copy_ kernels (read + write)
  size_t reinplaced_nodes = 0;
  size_t removed_copies = 0;
  SymInt total_bytes() const { return output_buffer_bytes + copy_bytes; }
};
ReinplaceSavings memory_traffic_saved(const ReinplaceLog& log);

// torch's ReinplaceCounters over the auto_functionalized decisions: each
// cloned slot is one missed opportunity (a Tensor[] argument counts once);
// `only_clone_these_tensors` totals the clones TorchAir's tests count.
struct ReinplaceCounters {
  size_t missed = 0;
  int64_t missed_bytes = 0;  // static shapes only
  size_t cloned_tensors = 0;
  size_t decomposed_calls = 0;
};
ReinplaceCounters reinplace_counters(const ReinplaceLog& log);

struct ReinplaceResult {
  Graph graph;
  ReinplaceLog log;
  ReinplaceSavings savings;
};

// recover_view_inplace_pattern on `g` with the options' table, its log lines
// into `log.recover_view_inplace` (or, when it is off, a note). reinplace()
// runs it first; optimize runs it alone in the modes without the passes.
void recover_view_inplace_step(Graph& g, const OpRegistry& reg, const ReinplaceOptions& options,
                               ReinplaceLog& log);
// recover_view_inplace_pattern, then both passes in TorchAir's order (A then
// B), subject to the mode, the disable flags and (for A and B) the
// multi-stream policy. Never modifies `input`.
ReinplaceResult reinplace(const Graph& input, const OpRegistry& reg,
                          const ReinplaceOptions& options = {});
// One pass alone (mode and disable flags are not consulted; the multi-stream
// policy is).
ReinplaceResult reinplace_inplaceable_ops(const Graph& input, const OpRegistry& reg,
                                          const ReinplaceOptions& options = {});
ReinplaceResult reinplace_input_mutated_ops(const Graph& input, const OpRegistry& reg,
                                            const ReinplaceOptions& options = {});

// The in-place twin of a single-output op by the generic rule: `ns::name_`
// with the same overload name (or the op's `inplace=` trait) whose schema
// matches apart from the mutable first argument. nullopt when there is none.
std::optional<OpId> generic_inplace_variant(const OpRegistry& reg, OpId op);

}  // namespace eqfuse
