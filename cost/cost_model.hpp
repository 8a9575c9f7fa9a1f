// The NPU cost model: what one kernel costs, and what a whole graph costs.
//
//   DeviceProfile dev = load_device_profile("ascend910b2");   // name or path to a JSON file
//   NpuCostModel model(dev, ExecMode::ReduceOverhead);
//   CostBreakdown c = model.cost(query);                       // one op
//   GraphCost total = graph_cost(graph, reg, model);           // a whole FX graph, DAG cost
//
// A CostQuery describes one op application the same way whether it comes
// from an FX node (query_for_node) or from an e-node plus the tensor
// analysis facts of its children (query_for_enode, pipeline/egraph_cost.hpp):
// the op, the value type of every schema argument and the result type.
//
// Formula (docs/cost-model.md, docs/reference/npu-cost.md §5-§6):
//   free ops (schema kind=free: views, reshapes, transposes, expand;
//   getitem, sym_size, constants, placeholders)  -> 0 µs, no launch;
//   EXCEPT a transpose/permute/t that changes the memory order (not an
//   identity permutation, not a swap of size-1 dims): it is priced as the
//   implicit contiguous copy its consumer needs (a vector kernel moving
//   2 x its bytes), npu-cost.md §6.1.1, because an e-node's cost cannot see its
//   consumer (docs/cost-model.md, "transpose approximation");
//   every other op is one kernel:
//     launch(mode) + t_dev_fixed(kind)
//       + max(t_mem, t_cmp) + (1 - overlap) * min(t_mem, t_cmp)
//     t_mem = bytes / (hbm_bw * eff_mem),   bytes = tensor inputs read + outputs written
//     t_cmp = flops / (peak(op class, dtype) * eff(op class))
//   with per-op overrides from the profile (fixed µs, efficiency, flops per
//   element). Symbolic dims are evaluated with SymbolHints (default 1024
//   for symbols without a hint) so that costs are numbers.
// Frozen inputs (CostModel::set_frozen_inputs; docs/cost-model.md "Frozen inputs"):
// graph inputs the runtime treats as constants (weights under Inductor's freezing, GE's
// constant folding). A call of a pure op whose inputs are all frozen or computed from
// frozen inputs only is computed once, not per call: it costs nothing per call.
// The graph cost is the sum over kernels, each counted once however many
// users it has, plus the per-graph fixed cost of the mode. GraphCost also
// carries the npu-cost.md §6.2 two-queue simulation (host dispatch overlapping device
// execution) as a report figure; extraction uses the additive cost.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cost/comm_params.hpp"
#include "cost/device_profile.hpp"
#include "graph/exec_mode.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "graph/value_type.hpp"

namespace eqfuse {

// Values used for symbolic dims when a cost needs a number.
struct SymbolHints {
  std::map<std::string, int64_t, std::less<>> values;  // "s0" -> 4096
  int64_t fallback = 1024;                             // for symbols not listed
  // Evaluates a symbolic int with the hints: exact, or IntOverflow (an
  // eqfuse::Error naming the expression and the symbols' values) when the value
  // leaves int64; never a wrapped value. Safe to call on any SymInt and any
  // hints (fuzz targets: tests/fuzz).
  int64_t evaluate(const SymInt& s) const;
  // The values, plus the fallback for each symbol of `s` not listed.
  SymInt::Bindings bindings_for(const SymInt& s) const;
};

// Throws Error at the node when the byte count of a tensor of `g` (an input, an
// intermediate, a tuple element) leaves int64 under `hints`: "size of input 'x'
// f32[s0, 4096] with s0=4611686018427387904 does not fit in 63 bits". Every
// command that prices a graph under --hint/--buckets/a symbol sweep checks this
// first (graph_cost, optimize_graph), so costs are never computed from such sizes.
void check_sizes_fit(const Graph& g, const SymbolHints& hints);

// One op application to be priced.
struct CostQuery {
  std::string_view op;           // qualified name ("npu::npu_add_rms_norm"), or
                                 // "getitem"/"placeholder"/"opaque:<target>"/...
  const OpInfo* info = nullptr;  // schema and traits; null for non-registry ops
  // One per schema argument (Unknown if not known). Integer arguments carry
  // their value in `sym` when it is known (kind Int or SymInt), and int
  // lists are tuples of those: the dims of a transpose/permute decide
  // whether it moves data.
  std::span<const ValueType> args;
  ValueType result;  // tensor, tuple, SymInt, ... (Unknown if not known)
};

// Everything in µs except bytes and flops.
struct CostBreakdown {
  bool is_kernel = false;  // false for free ops: only host_us (eager) may be non-zero
  // Host dispatch of this call (host_us.<mode>, host_free_us.<mode> or the
  // op's override, plus host_node_us.<mode>); 0 where the profile has no
  // host side for the mode (the additive model: launch_us stands for it).
  double host_us = 0;
  double device_us = 0;     // launch_us + fixed_us + execution
  bool host_bound = false;  // total_us = host_us > device_us
  double launch_us = 0;     // launch(mode): launch cost / task gap
  double fixed_us = 0;      // t_dev_fixed of the op class (or the override)
  double bytes = 0;         // bytes read + written
  double flops = 0;         // floating point (or integer) operations
  double memory_us = 0;     // t_mem
  double compute_us = 0;    // t_cmp
  // What the extractor minimises: max(host_us, device_us) (the pipeline
  // model, docs/cost-model.md "The launch pipeline"); device_us when the
  // mode has no host side.
  double total_us = 0;
  KernelClass kernel_class = KernelClass::Vector;  // meaningful for kernels only
  // Kernels launched: 1 for a kernel, 0 for a free op; an auto_functionalized
  // call counts its wrapped op and its clones (sum of its parts).
  size_t kernel_count = 0;
  std::string note;  // e.g. "override: fixed 12 µs", "opaque op: bytes only"
};

class CostModel {
 public:
  virtual ~CostModel() = default;
  virtual CostBreakdown cost(const CostQuery& q) const = 0;
  // Cost paid once per graph execution (H_acl_replay, H_ge_launch, 0 for eager).
  virtual double per_graph_us() const { return 0; }
  virtual std::string describe() const = 0;  // "ascend910b2, reduce-overhead"
  // Throws Error when a size of `g` cannot be priced (NpuCostModel: a byte
  // count leaves int64 under the hints; check_sizes_fit). graph_cost calls it.
  virtual void check_sizes(const Graph& /*g*/) const {}
  // Whole-graph time of `kernels` (in program order) with host dispatch
  // and device execution overlapping (npu-cost.md §6.2). Default: the additive
  // sum plus per_graph_us().
  virtual double simulate_us(std::span<const CostBreakdown> kernels) const;

  // Graph inputs (placeholder names, get_attr targets; `*` and `?` wildcards) whose
  // values are the same on every call. Empty (the default): nothing is folded.
  void set_frozen_inputs(std::vector<std::string> patterns) { frozen_ = std::move(patterns); }
  const std::vector<std::string>& frozen_inputs() const { return frozen_; }
  bool folds_constants() const { return !frozen_.empty(); }
  bool is_frozen_input(std::string_view name) const;

 private:
  std::vector<std::string> frozen_;
};

// Shell-style match: `*` any run of characters, `?` one character.
bool wildcard_match(std::string_view pattern, std::string_view text);

// Throws Error when a frozen-input pattern names no placeholder or get_attr of `g` (a typo
// would silently fold nothing) or is empty.
void check_frozen_inputs(const Graph& g, const std::vector<std::string>& patterns);

// An op a runtime may evaluate once when its inputs are constants: registered, writes
// no argument (unless `allow_in_place`: the caller has checked that it writes only
// memory the graph made), draws no random numbers.
bool is_foldable_op(const OpInfo* info, bool allow_in_place = false);

// The note of a call that is computed once from frozen inputs.
inline constexpr std::string_view kFoldedNote = "folded: reads only frozen inputs, computed once";

class NpuCostModel : public CostModel {
 public:
  NpuCostModel(DeviceProfile profile, ExecMode mode, SymbolHints hints = {});
  CostBreakdown cost(const CostQuery& q) const override;
  double per_graph_us() const override;
  std::string describe() const override;
  void check_sizes(const Graph& g) const override;
  // Two queues: in eager the launch is host time that overlaps the device;
  // in graph modes it is a device-side gap between tasks.
  double simulate_us(std::span<const CostBreakdown> kernels) const override;
  const DeviceProfile& profile() const { return profile_; }
  ExecMode mode() const { return mode_; }
  const SymbolHints& hints() const { return hints_; }
  const CommParams& comm_params() const { return comm_; }

 private:
  CostBreakdown opaque_cost(const CostQuery& q) const;
  // An op of kind `collective`: communication, and the matmul an MC2 kernel pipelines.
  CostBreakdown collective_cost(const CostQuery& q, const OpCostOverride* ov) const;
  // A free op: host dispatch only (0 in modes without a host side).
  CostBreakdown free_cost(std::string_view op) const;
  // Host dispatch of one call of `ov`'s op; `kernel` picks the default.
  double host_of(const OpCostOverride* ov, bool kernel) const;
  // One kernel of class `default_class` (a profile override may force
  // another) doing `flops_per_output` operations per main-output element.
  CostBreakdown kernel_cost(const CostQuery& q, KernelClass default_class, double flops_per_output,
                            std::string_view note) const;

  // Parameters resolved once at construction: extraction prices every
  // e-node, so the hot path does no name lookups.
  struct Params {
    double launch_us = 0, per_graph_us = 0;
    double host_us = 0, host_free_us = 0, host_node_us = 0;  // the host side (optional params)
    double bytes_per_us = 0;                                 // hbm_bw · eff_mem
    double overlap = 0, eff_cube = 0, eff_vec = 0;
    std::array<double, 3> fixed_us{};               // by KernelClass
    std::array<double, 4> peak_cube{}, peak_vec{};  // TFLOPS: fp16, bf16, fp32, int8
    std::array<double, 4> flops_per_elem{};         // default, norm, quant, reduction
  };
  static Params resolve(const DeviceProfile& p, ExecMode mode);

  DeviceProfile profile_;
  ExecMode mode_;
  SymbolHints hints_;
  Params params_;
  CommParams comm_;
};

// The query for an FX node of a normalized, typed graph (placeholders,
// getitem and the output node give free queries).
CostQuery query_for_node(const Graph& g, NodeRef n, const OpRegistry& reg,
                         std::vector<ValueType>& arg_storage);

// The kernels an auto_functionalized / auto_functionalized_v2 call runs, in
// order: one aten::clone per tensor the call clones before the op writes it
// (v1: every mutable argument tensor; v2: every base), priced as the model
// prices aten::clone, then the wrapped op, priced as a call of that op with
// the call's arguments (v2: the mutable arguments are the views of their
// bases). Empty when `n` is no such call or its wrapped op is
// not registered (the call is then priced as an opaque op).
std::vector<CostBreakdown> auto_functionalized_kernels(const Graph& g, NodeRef n,
                                                       const OpRegistry& reg,
                                                       const CostModel& model);

struct NodeCost {
  NodeRef node;
  CostBreakdown cost;
};

struct GraphCost {
  size_t kernels = 0;    // kernels launched (an auto_functionalized call: op + clones)
  double total_us = 0;   // sum of kernel totals + per_graph_us
  double launch_us = 0;  // sums of the breakdown parts over kernels
  double memory_us = 0;
  double compute_us = 0;
  double fixed_us = 0;
  double host_us = 0;     // host dispatch summed over every call node
  size_t host_bound = 0;  // kernels whose host dispatch outlasts their device time
  // npu-cost.md §6.2 two-queue total (report figure, not extracted on)
  double simulated_us = 0;
  std::vector<NodeCost> nodes;  // every call node, in program order
};

// DAG cost of a graph: every node priced once. An auto_functionalized call
// is the sum of auto_functionalized_kernels (its NodeCost.kernel_count is
// 1 + clones) and each of those kernels is a task of the simulation.
GraphCost graph_cost(const Graph& g, const OpRegistry& reg, const CostModel& model);

}  // namespace eqfuse
