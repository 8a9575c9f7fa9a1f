// Internals of the reinplace passes shared by their source files: the
// working copy a pass rewrites (PassState), candidates and refusals, the
// checks both passes and the auto_functionalized decomposition ask, and the
// entry points the driver calls. Not part of the public API; include
// passes/reinplace.hpp instead.
//
//   reinplace_analysis.cpp             PassState, candidates, refusals, the
//                                      multi-stream and per-argument checks
//   reinplace_passes.cpp               pass A (intermediates), pass B (inputs)
//   reinplace_auto_functionalized.cpp  pass B on auto_functionalized calls
//   reinplace.cpp                      the driver and the public entry points
//   reinplace_log.cpp                  the log: names, lines, savings, counters
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "graph/alias_analysis.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse::reinplace_detail {

// ---- small helpers (reinplace_analysis.cpp) -------------------------------------------

bool is_graph_input(const Node& n);
bool is_copy_(const Node& n);
// Bytes of a tensor value; zero when the type is not a fully known tensor.
SymInt tensor_bytes(const ValueType& t);
bool has_scope_nodes(const Graph& g);

// ---- the working copy (reinplace_analysis.cpp) ------------------------------------------

class PassState {
 public:
  PassState(Graph input, const OpRegistry& reg, const ReinplaceOptions& options, ReinplacePass pass)
      : g_(std::move(input)),
        reg_(reg),
        options_(options),
        pass_(pass),
        removed_(g_.size(), false) {
    refresh_stream_labels();
    rebuild();
  }

  Graph& graph() { return g_; }
  const Graph& graph() const { return g_; }
  const OpRegistry& reg() const { return reg_; }
  const ReinplaceOptions& options() const { return options_; }
  ReinplacePass pass() const { return pass_; }
  const AliasAnalysis& aa() const { return *aa_; }
  bool removed(NodeRef r) const { return removed_.at(static_cast<size_t>(r.index)); }
  ReinplaceLog& log() { return log_; }
  // The live copy_ nodes, in program order (epilogue candidates).
  const std::set<int32_t>& copies() const { return copies_; }
  // Bumped whenever a copy_ node appears, goes or has its arguments changed:
  // what was derived from copies() (the epilogues) is stale when it moved.
  uint64_t copies_version() const { return copies_version_; }
  // Live nodes carry two or more stream labels. When they do not, every
  // multi-stream check passes without looking at users (TorchAir's check
  // refuses only users on several streams), which keeps the check O(1)
  // where a chain of rewrites piles every later user onto one buffer.
  bool multi_stream() const { return multi_stream_; }

  // The phase's time limit (ReinplaceOptions::time_limit_s, from the start of
  // reinplace()). Passes ask before node `at`; the clock is read once every
  // few calls, so asking costs next to nothing. stopped_at(): the node the
  // pass stopped before.
  using Clock = std::chrono::steady_clock;
  void set_deadline(Clock::time_point deadline) { deadline_ = deadline; }
  // The memory budget (ReinplaceOptions::memory_limit_bytes), read every few
  // hundred calls of out_of_time.
  void set_memory_limit(size_t bytes) { memory_limit_ = bytes; }
  bool out_of_time(size_t at);
  size_t stopped_at() const { return stopped_at_; }
  // Why the pass stopped: "the time limit (2 s)" or "the memory limit (...)".
  const std::string& stopped_by() const { return stopped_by_; }

  // The candidate shape of an op (classify's answer apart from the node),
  // worked out once per op: the generic rule searches the registry.
  struct OpForm {
    const InplaceableOp* entry = nullptr;  // usable table entry, or null
    OpId inplace_op = kNoOp;               // kNoOp: the op has no in-place form
  };
  const OpForm& op_form(OpId op);

  // The node's op, arguments or type were changed in place: the analysis and
  // the copy_ list follow.
  void changed(NodeRef r);

  // After a rewrite: with `check_alias_analysis`, the kept analysis must
  // answer like a fresh one.
  void checkpoint() const;

  // Every use of `from` by a live node after position `after` now reads `to`.
  void replace_uses(NodeRef from, NodeRef to, int32_t after) {
    replace_uses_with_arg(from, Arg(to), after);
  }

  void remove(NodeRef r);

  // Every use of `from` by a live node after position `after` now reads the
  // argument `to` (None, a list of nodes, ...). The analysis' use list names
  // exactly those nodes, so this costs the uses, not the graph.
  void replace_uses_with_arg(NodeRef from, const Arg& to, int32_t after);

  // Inserts `nodes` before position `at`; their references to each other use
  // their final positions (at, at + 1, ...). Later nodes shift; returns the
  // new position of the node that was at `at`.
  NodeRef insert_before(NodeRef at, std::vector<Node> nodes);

  // The live nodes, renumbered. Moves the nodes out: the state is done.
  Graph compact() &&;

 private:
  // Labels come from scope nodes when there are any; graphs built without
  // scope nodes (e.g. by extraction) keep the labels they carry.
  void refresh_stream_labels();

  void rebuild();

  Graph g_;
  const OpRegistry& reg_;
  const ReinplaceOptions& options_;
  ReinplacePass pass_;
  std::vector<bool> removed_;
  std::unique_ptr<AliasAnalysis> aa_;
  std::set<int32_t> copies_;
  uint64_t copies_version_ = 0;
  bool multi_stream_ = false;
  std::optional<Clock::time_point> deadline_;
  uint32_t clock_calls_ = 0;
  size_t stopped_at_ = 0;
  size_t memory_limit_ = 0;
  std::string stopped_by_;
  std::vector<std::optional<OpForm>> op_forms_;  // by OpId
  ReinplaceLog log_;
};

// ---- refusals (reinplace_analysis.cpp) ---------------------------------------------------

// Why a candidate is kept: the kind, one plain sentence and the nodes it
// names. Default-constructed: no refusal.
struct Refusal {
  ReinplaceReason kind = ReinplaceReason::DeadIntermediate;
  std::string text;
  std::vector<ReinplaceNodeRef> related;
  bool empty() const { return text.empty(); }
};

ReinplaceNodeRef node_ref(const Graph& g, NodeRef r);
std::vector<ReinplaceNodeRef> node_refs(const Graph& g, const std::vector<NodeRef>& nodes);
Refusal refuse(ReinplaceReason kind, std::string text, std::vector<ReinplaceNodeRef> related = {});

// ---- candidates (reinplace_analysis.cpp) -------------------------------------------------

struct Candidate {
  NodeRef node;
  const InplaceableOp* entry = nullptr;  // table op; null for the generic rule
  OpId inplace_op = kNoOp;
  std::vector<int> mutated;  // argument positions
};

std::string_view arg_name(const PassState& st, const Candidate& c, int position);
// The candidate's in-place form, if it has one. Table entries that cannot be
// used with this registry are skipped (noted once per pass).
std::optional<Candidate> classify(PassState& st, NodeRef r);
// The node the mutated argument refers to, if it is a node.
std::optional<NodeRef> mutated_node(const PassState& st, const Candidate& c, int position);
ReinplaceDecision start_decision(const PassState& st, const Candidate& c);
// The getitem users of `node` projecting element `index`.
std::vector<NodeRef> projections(const PassState& st, NodeRef node, int64_t index);
int output_of_arg(const InplaceableOp& e, int position);

// ---- multi-stream check (reinplace_analysis.cpp) -----------------------------------------

// TorchAir's _collect_single_node_users: the users of a mutated input `a`
// except copy_ nodes, the other users of a copy_'s getitem source and the
// users of the copy_ itself.
void add_stream_users_of(const PassState& st, NodeRef a, std::vector<NodeRef>& users);
void sort_unique(std::vector<NodeRef>& nodes);
// Judges `users` (sorted) for stream check `kind` on node `node` of type
// `type`: sets TorchAir's log line `line`; refuses when they run on several
// streams, naming the mutated inputs `written`.
Refusal judge_stream_users(const PassState& st, const std::vector<NodeRef>& users,
                           std::string_view kind, std::string_view node, std::string_view type,
                           const std::vector<std::string>& written, std::string& line);
// Runs the check, records TorchAir's log line; returns the refusal.
Refusal check_streams(const PassState& st, const Candidate& c, ReinplaceDecision& d);

// ---- per-argument checks (reinplace_analysis.cpp) ----------------------------------------

// In-place writes need the result to have the mutated argument's exact type
// and layout (1a), and no other argument may read the same memory (1c).
Refusal check_shape_and_overlap(const PassState& st, const Candidate& c, NodeRef a);
Refusal check_no_other_reader(const PassState& st, const Candidate& c, int position, NodeRef a);
std::string names_of(const PassState& st, const std::vector<NodeRef>& nodes);
// Liveness in program order: nobody reads `a` or an alias of it after the node.
Refusal check_dead_after(const PassState& st, NodeRef node, NodeRef a);

// ---- rewriting primitives (reinplace_analysis.cpp) ---------------------------------------

// The node calls `op` now (and has type `type`, when given).
void retarget(PassState& st, NodeRef r, OpId op, std::optional<ValueType> type = std::nullopt);
// Types of the functional's outputs, from its tuple type or its getitems.
std::vector<ValueType> functional_output_types(const PassState& st, NodeRef r, size_t count);
// Records a refusal, or a success whose kind and reason `d` already holds.
void finish(PassState& st, ReinplaceDecision d, Refusal refusal);

// ---- copy_ epilogues of graph inputs (reinplace_passes.cpp) -------------------------------

struct Epilogues {
  std::map<int32_t, std::vector<NodeRef>> into;     // input node -> copy_ nodes writing it
  std::map<int32_t, std::vector<NodeRef>> sources;  // node copied into an input -> those copy_
};

Epilogues find_epilogues(const PassState& st);
// No alias of input `a` is read between `node` and its epilogue `copy`
// (metadata-only reads and copy_ into `a` itself excepted).
Refusal check_no_read_before_epilogue(const PassState& st, NodeRef node, NodeRef a, NodeRef copy);

// ---- the passes --------------------------------------------------------------------------

// Each returns false when the time limit stopped it before the last node
// (the rewrites made so far stay: each leaves a valid graph).
bool run_pass_a(PassState& st);  // reinplace_passes.cpp
bool run_pass_b(PassState& st);  // reinplace_passes.cpp
// Decides and decomposes one call; returns the position after the nodes it
// inserted (where the pass continues). reinplace_auto_functionalized.cpp.
size_t reinplace_auto_functionalized(PassState& st, NodeRef hop);

}  // namespace eqfuse::reinplace_detail
