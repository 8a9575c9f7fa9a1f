// Communication prices (cost/collective_cost.hpp): which collective an op is, how many
// bytes each rank moves, over how many ranks, and the α-β time of that; for torch_npu's
// MC2 kernels also the matmul they pipeline against it.
#include "cost/collective_cost.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "cost/cost_model_internal.hpp"

namespace eqfuse::cost_detail {
namespace {

// Where a collective's per-rank message size comes from.
enum class MessageOf {
  Input,            // the first tensor argument (all_reduce, reduce_scatter, broadcast)
  Result,           // the result (all_gather)
  GatheredInput,    // the first tensor argument times the ranks (npu_all_gather_base_mm)
  ScatteredResult,  // the result times the ranks (npu_mm_reduce_scatter_base)
};

struct CollectiveKind {
  std::string_view op;
  std::string_view pattern;   // all_reduce, all_gather, reduce_scatter, broadcast, all_to_all
  std::string_view size_arg;  // the argument naming the group's size, if any
  MessageOf message;
  bool matmul = false;  // an MC2 kernel: x1/input @ x2 pipelined with the collective
  // After the collective: + residual and an rms norm (npu_mm_all_reduce_add_rms_norm),
  // a pass over the reduced rows that reads the residual and writes both outputs.
  bool norm_epilogue = false;
};

// The collectives of graph/ops/collectives.schemas.
constexpr std::array<CollectiveKind, 13> kCollectives = {{
    {"_c10d_functional::all_reduce", "all_reduce", "", MessageOf::Input},
    {"_c10d_functional::all_reduce_", "all_reduce", "", MessageOf::Input},
    {"_c10d_functional::all_gather_into_tensor", "all_gather", "group_size", MessageOf::Result},
    {"_c10d_functional::reduce_scatter_tensor", "reduce_scatter", "group_size", MessageOf::Input},
    {"_c10d_functional::all_to_all_single", "all_to_all", "", MessageOf::Input},
    {"_c10d_functional::broadcast", "broadcast", "", MessageOf::Input},
    {"vllm::all_reduce", "all_reduce", "", MessageOf::Input},
    {"vllm::all_gather", "all_gather", "world_size", MessageOf::Result},
    {"vllm::reduce_scatter", "reduce_scatter", "world_size", MessageOf::Input},
    {"npu::npu_mm_all_reduce_base", "all_reduce", "", MessageOf::Result, true},
    {"npu::npu_all_gather_base_mm", "all_gather", "world_size", MessageOf::GatheredInput, true},
    {"npu::npu_mm_reduce_scatter_base", "reduce_scatter", "world_size", MessageOf::ScatteredResult,
     true},
    {"npu::npu_mm_all_reduce_add_rms_norm", "all_reduce", "", MessageOf::Result, true, true},
}};

// An op declared `kind=collective` but not listed (a user's --ops): priced as an
// all_reduce of its first tensor, which the note says.
constexpr CollectiveKind kUnknownCollective = {"", "all_reduce", "", MessageOf::Input};

const CollectiveKind& kind_of(std::string_view op) {
  for (const CollectiveKind& k : kCollectives)
    if (k.op == op) return k;
  return kUnknownCollective;
}

const ValueType* first_tensor(const CostQuery& q) {
  for (const ValueType& a : q.args)
    if (a.is_tensor()) return &a;
  return nullptr;
}

// The first tensor of the result (an MC2 kernel's matmul output comes first).
const ValueType* first_result(const ValueType& r) {
  if (r.is_tensor()) return &r;
  for (const ValueType& e : r.elements)
    if (const ValueType* t = first_result(e)) return t;
  return nullptr;
}

double bytes_of(const ValueType* v, const SymbolHints& hints) {
  if (v == nullptr || !v->is_tensor() || v->tensor.dtype == DType::Unknown) return 0;
  return numel_of(v->tensor, hints).value_or(0) *
         static_cast<double>(dtype_itemsize(v->tensor.dtype));
}

int64_t ranks_of(const CostQuery& q, const CollectiveKind& k, const CommParams& comm) {
  if (const ValueType* size = arg_named(q, k.size_arg))
    if (size->sym)
      if (std::optional<int64_t> n = size->sym->constant(); n && *n >= 1) return *n;
  return std::max<int64_t>(1, static_cast<int64_t>(comm.world_size));
}

// The per-rank message, S of collectives-cost.md §3.1.
double message_bytes(const CostQuery& q, const CollectiveKind& k, int64_t ranks,
                     const SymbolHints& hints) {
  const double p = static_cast<double>(ranks);
  switch (k.message) {
    case MessageOf::Input:
      return bytes_of(first_tensor(q), hints);
    case MessageOf::Result:
      return bytes_of(first_result(q.result), hints);
    case MessageOf::GatheredInput:
      return bytes_of(first_tensor(q), hints) * p;
    case MessageOf::ScatteredResult:
      return bytes_of(first_result(q.result), hints) * p;
  }
  return 0;
}

// The matmul of an MC2 kernel: (M, K) @ (K, N) with M the rows it runs on (the
// gathered rows for all_gather + matmul).
struct MatmulPart {
  double rows = 0, flops = 0, bytes = 0;
  DType dtype = DType::Unknown;
};

MatmulPart matmul_part(const CostQuery& q, const CollectiveKind& k, int64_t ranks,
                       const SymbolHints& hints) {
  MatmulPart m;
  const ValueType* lhs = first_tensor(q);
  const ValueType* rhs = arg_named(q, "x2");
  if (lhs == nullptr || rhs == nullptr || !rhs->is_tensor() || lhs->tensor.rank() < 1 ||
      rhs->tensor.rank() < 1)
    return m;
  const double k_dim = dim_estimate(lhs->tensor.shape->back(), hints);
  const double n_dim = dim_estimate(rhs->tensor.shape->back(), hints);
  double lhs_elems = numel_of(lhs->tensor, hints).value_or(0);
  if (k.message == MessageOf::GatheredInput) lhs_elems *= static_cast<double>(ranks);
  m.rows = k_dim > 0 ? lhs_elems / k_dim : 0;
  m.flops = 2 * m.rows * k_dim * n_dim;
  m.dtype = lhs->tensor.dtype;
  const double item = static_cast<double>(dtype_itemsize(m.dtype));
  const ValueType* out = first_result(q.result);
  const double out_item = out != nullptr && out->tensor.dtype != DType::Unknown
                              ? dtype_itemsize(out->tensor.dtype)
                              : item;
  m.bytes = lhs_elems * item + bytes_of(rhs, hints) + m.rows * n_dim * out_item;
  return m;
}

double roofline_us(double memory_us, double compute_us, double overlap) {
  return std::max(memory_us, compute_us) + (1 - overlap) * std::min(memory_us, compute_us);
}

std::string size_text(double bytes) {
  if (bytes >= 1 << 20) return fmt::format("{:.4g} MiB", bytes / (1 << 20));
  if (bytes >= 1 << 10) return fmt::format("{:.4g} KiB", bytes / (1 << 10));
  return fmt::format("{:.0f} B", bytes);
}

}  // namespace

double comm_time_us(const CommParams& comm, std::string_view pattern, double bytes_per_rank,
                    int64_t ranks) {
  if (ranks <= 1) return 0;  // no peers: nothing crosses a link
  const double p = static_cast<double>(ranks);
  const bool across_nodes = p > comm.node_size;
  // A full mesh of `intra_links` links per rank: a smaller group drives p−1 of them.
  const double link_share = comm.intra_links > 0 ? std::min(1.0, (p - 1) / comm.intra_links) : 1.0;
  const double bytes_per_us = across_nodes
                                  ? comm.inter_bw_gbps * comm.inter_efficiency * 1e3
                                  : comm.intra_bw_gbps * link_share * comm.efficiency * 1e3;
  const double alpha = across_nodes ? comm.inter_latency_us : comm.latency_us;
  const bool all_reduce = pattern == "all_reduce";
  const double factor = all_reduce ? 2 * (p - 1) / p : pattern == "broadcast" ? 1.0 : (p - 1) / p;
  const double phases = all_reduce ? 2 : 1;
  const double steps = comm.ring > 0 ? p - 1 : 1;
  return comm.fixed_us + phases * steps * alpha + factor * bytes_per_rank / bytes_per_us;
}

void price_collective(CostBreakdown& c, const CostQuery& q, const SymbolHints& hints,
                      const CommParams& comm, const MatmulRates& mm_rates) {
  const CollectiveKind& k = kind_of(q.op);
  const int64_t ranks = ranks_of(q, k, comm);
  const double message = message_bytes(q, k, ranks, hints);
  const double t_comm = comm_time_us(comm, k.pattern, message, ranks);
  std::string what = fmt::format("{}{} of {} over {} ranks: {:.3g} µs",
                                 k.op.empty() ? "unknown collective priced as " : "", k.pattern,
                                 size_text(message), ranks, t_comm);
  // The breakdown's columns add up to the device time: the startup is `fixed`, the rest
  // of the communication (and an MC2 kernel's pipelined whole) `compute`; the note says
  // what it is. The HBM traffic runs under the communication.
  double exec = t_comm;
  c.fixed_us = ranks > 1 ? comm.fixed_us : 0;
  c.memory_us = 0;
  if (k.matmul) {
    const MatmulPart mm = matmul_part(q, k, ranks, hints);
    c.flops = mm.flops;
    const double mm_compute = mm_rates.peak_tflops > 0 && mm_rates.efficiency > 0
                                  ? mm.flops / (mm_rates.peak_tflops * mm_rates.efficiency * 1e6)
                                  : 0;
    const double mm_memory = mm.bytes / mm_rates.bytes_per_us;
    const double t_mm = mm_rates.fixed_us + roofline_us(mm_memory, mm_compute, mm_rates.overlap);
    const double t_fused_comm = t_comm * comm.mc2_comm_slowdown;
    // Fewer rows than two minimum tiles: the kernel runs matmul, then communication.
    const double overlap = mm.rows >= comm.mc2_min_split_rows ? comm.mc2_overlap : 0.0;
    exec = std::max(t_mm, t_fused_comm) + (1 - overlap) * std::min(t_mm, t_fused_comm);
    if (k.norm_epilogue) {
      const double epilogue_bytes =
          bytes_of(arg_named(q, "residual"), hints) + 2 * bytes_of(first_result(q.result), hints);
      exec += epilogue_bytes / mm_rates.bytes_per_us;
    }
    what = fmt::format("matmul {:.3g} µs pipelined with {} (x{} inside MC2, overlap {})", t_mm,
                       what, comm.mc2_comm_slowdown, overlap);
    c.kernel_class = KernelClass::Cube;
    c.fixed_us = 0;  // the matmul's and the communication's are inside the pipelined time
  }
  c.compute_us = exec - c.fixed_us;
  c.device_us = c.launch_us + exec;
  c.host_bound = c.host_us > c.device_us;
  c.total_us = std::max(c.host_us, c.device_us);
  c.note = c.note.empty() ? what : what + "; " + c.note;
}

}  // namespace eqfuse::cost_detail

namespace eqfuse {

CommParams comm_params_of(const DeviceProfile& p) {
  CommParams c;
  c.world_size = p.get("comm.world_size");
  c.fixed_us = p.get("comm.fixed_us");
  c.latency_us = p.get("comm.latency_us");
  c.intra_bw_gbps = p.get("comm.intra.bw_gbps");
  c.intra_links = p.get("comm.intra.links");
  c.efficiency = p.get("comm.algorithm_efficiency");
  c.ring = p.get("comm.ring");
  c.node_size = p.get("comm.node_size");
  c.inter_bw_gbps = p.get("comm.inter.bw_gbps");
  c.inter_latency_us = p.get("comm.inter.latency_us");
  c.inter_efficiency = p.get("comm.inter.efficiency");
  c.mc2_overlap = p.get("comm.overlap.mc2");
  c.mc2_comm_slowdown = p.get("comm.mc2.comm_slowdown");
  c.mc2_min_split_rows = p.get("comm.mc2.min_split_rows");
  return c;
}

}  // namespace eqfuse
