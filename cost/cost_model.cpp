// NpuCostModel: launch overhead + roofline per kernel (docs/reference/npu-cost.md
// §6.1) and the npu-cost.md §6.2 two-queue simulation. The graph-level pieces
// live beside it: graph_cost.cpp (a graph's DAG cost), auto_functionalized_cost.cpp
// (the kernels of an auto_functionalized call), constant_folding.cpp (frozen
// inputs) and symbol_hints.cpp (symbolic sizes as numbers).
#include "cost/cost_model.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "cost/collective_cost.hpp"
#include "cost/cost_model_internal.hpp"

namespace eqfuse {
namespace cost_detail {

// Computed in double by the callers, so a product of dims cannot wrap;
// hints.evaluate itself is exact or throws IntOverflow.
double dim_estimate(const SymInt& d, const SymbolHints& hints) {
  return static_cast<double>(std::max<int64_t>(hints.evaluate(d), 0));
}

std::optional<double> numel_of(const TensorType& t, const SymbolHints& hints) {
  if (!t.shape) return std::nullopt;
  double n = 1;
  for (const SymInt& d : *t.shape) n *= dim_estimate(d, hints);
  return n;
}

const ValueType* arg_named(const CostQuery& q, std::string_view name) {
  if (q.info == nullptr || name.empty()) return nullptr;
  int i = q.info->schema.arg_index(name);
  if (i < 0 || static_cast<size_t>(i) >= q.args.size()) return nullptr;
  return &q.args[static_cast<size_t>(i)];
}

}  // namespace cost_detail
namespace {

using cost_detail::arg_named;
using cost_detail::dim_estimate;
using cost_detail::numel_of;

// Non-op queries that never launch anything: graph structure, constants
// and the list/tuple wrappers of the e-graph encoding.
constexpr std::array<std::string_view, 7> kStructuralOps = {
    graph_ops::kGetItem, graph_ops::kPlaceholder, graph_ops::kGetAttr, "output",
    "constant",          graph_ops::kList,        graph_ops::kTuple};

bool is_structural(std::string_view op) {
  return std::find(kStructuralOps.begin(), kStructuralOps.end(), op) != kStructuralOps.end();
}

// Host-side scalar math (operator.mul on SymInts, sym_size, ...) has a
// non-tensor result and runs no kernel.
bool is_scalar_result(const ValueType& t) {
  return t.kind == ValueType::Kind::None || is_scalar_kind(t.kind);
}

// The name an opaque op's overrides are keyed by: its qualified op name.
std::string opaque_override_key(std::string_view op) {
  if (op.starts_with(graph_ops::kOpaquePrefix))
    op.remove_prefix(std::string_view(graph_ops::kOpaquePrefix).size());
  if (auto q = qualified_name_from_fx_target(op)) return *q;
  return std::string(op);
}

// ---- sizes ----------------------------------------------------------

struct Traffic {
  double bytes = 0;
  int unknown_tensors = 0;  // tensors without dtype or shape: counted as 0 bytes
};

// Adds the bytes of every tensor in `v`. `expect_tensor`: an Unknown value
// here is a tensor whose type is not known (not a literal or None).
void add_bytes(const ValueType& v, bool expect_tensor, const SymbolHints& hints, Traffic& acc) {
  if (v.is_tensor()) {
    auto n = numel_of(v.tensor, hints);
    if (!n || v.tensor.dtype == DType::Unknown) {
      ++acc.unknown_tensors;
      return;
    }
    acc.bytes += *n * dtype_itemsize(v.tensor.dtype);
  } else if (v.kind == ValueType::Kind::Tuple) {
    for (const ValueType& e : v.elements) add_bytes(e, expect_tensor, hints, acc);
  } else if (v.kind == ValueType::Kind::Unknown && expect_tensor) {
    ++acc.unknown_tensors;
  }
}

bool schema_arg_is_tensor(const CostQuery& q, size_t i) {
  if (q.info == nullptr) return true;  // opaque: every child is a node input
  if (i >= q.info->schema.args.size()) return false;
  ArgType t = q.info->schema.args[i].type;
  return t == ArgType::Tensor || t == ArgType::TensorList;
}

// An `.out` variant's destination (`Tensor(a!) out`) is written, not read: its
// bytes are the result's.
bool is_out_destination(const CostQuery& q, size_t i) {
  if (q.info == nullptr || i >= q.info->schema.args.size()) return false;
  const SchemaArg& a = q.info->schema.args[i];
  return a.name == "out" && a.mutates();
}

// Bytes read (tensor arguments) and written (every tensor output).
Traffic traffic_of(const CostQuery& q, const SymbolHints& hints) {
  Traffic acc;
  for (size_t i = 0; i < q.args.size(); ++i)
    if (!is_out_destination(q, i)) add_bytes(q.args[i], schema_arg_is_tensor(q, i), hints, acc);
  add_bytes(q.result, true, hints, acc);
  return acc;
}

// The largest tensor output (the "main" output whose elements a vector
// kernel computes; rstd/scale side outputs are much smaller).
const TensorType* main_output(const ValueType& r, const SymbolHints& hints) {
  if (r.is_tensor()) return r.tensor.shape ? &r.tensor : nullptr;
  const TensorType* best = nullptr;
  double best_n = -1;
  for (const ValueType& e : r.elements) {
    const TensorType* t = main_output(e, hints);
    if (t == nullptr) continue;
    double n = numel_of(*t, hints).value_or(0);
    if (n > best_n) best = t, best_n = n;
  }
  return best;
}

// ---- kernel classification ------------------------------------------

KernelClass kernel_class_of(const CostQuery& q, const OpCostOverride* ov) {
  if (ov != nullptr && ov->kernel_class) return *ov->kernel_class;
  return q.info != nullptr && q.info->traits.kind == OpKind::Matmul ? KernelClass::Cube
                                                                    : KernelClass::Vector;
}

// The left operand of a matmul-class op: its last dim is the contraction
// K. addmm's and baddbmm's first tensor is the bias, so `mat1`/`batch1` win.
const ValueType* matmul_lhs(const CostQuery& q) {
  if (q.info == nullptr) return nullptr;
  const OpSchema& s = q.info->schema;
  for (std::string_view lhs : {"mat1", "batch1"})
    if (const ValueType* v = arg_named(q, lhs)) return v;
  for (size_t i = 0; i < s.args.size() && i < q.args.size(); ++i)
    if (s.args[i].type == ArgType::Tensor) return &q.args[i];
  return nullptr;
}

// Attention ops (arguments query [.., L, E], key [.., S, E], value
// [.., S, Ev]): QKᵀ costs 2·L·S·E and PV 2·L·S·Ev per batch and head, i.e.
// 2·numel(query)·S·(1 + Ev/E). nullopt for other ops or unknown shapes.
std::optional<double> attention_flops(const CostQuery& q, const SymbolHints& hints) {
  const ValueType* query = arg_named(q, "query");
  const ValueType* key = arg_named(q, "key");
  const ValueType* value = arg_named(q, "value");
  for (const ValueType* v : {query, key, value})
    if (v == nullptr || !v->is_tensor() || v->tensor.rank() < 2) return std::nullopt;
  std::optional<double> nq = numel_of(query->tensor, hints);
  if (!nq) return std::nullopt;
  const Shape& ks = *key->tensor.shape;
  double s = dim_estimate(ks[ks.size() - 2], hints);
  double e = dim_estimate(query->tensor.shape->back(), hints);
  double ev = dim_estimate(value->tensor.shape->back(), hints);
  if (e <= 0) return 0.0;
  return 2 * *nq * s * (1 + ev / e);
}

// Peak columns of a profile (peak_tflops.<unit>.<dtype>), in this order.
constexpr std::array<std::string_view, 4> kPeakDTypes = {"fp16", "bf16", "fp32", "int8"};

size_t peak_index(DType d) {
  switch (d) {
    case DType::BFloat16:
      return 1;
    case DType::Float32:
    case DType::Float64:
    case DType::Int32:
    case DType::Int64:
      return 2;
    case DType::Int8:
    case DType::UInt8:
    case DType::QInt8:
    case DType::QUInt8:
    case DType::Bool:
    case DType::Float8E4M3FN:  // 8-bit cube rate: the profiles list int8 only
    case DType::Float8E5M2:
    case DType::Float8E8M0FNU:
      return 3;
    default:
      return 0;  // fp16, and the fallback for unknown types
  }
}

// Vector units run at the rate of the widest element type they touch.
void collect_dtypes(const ValueType& v, std::vector<DType>& out) {
  if (v.is_tensor() && v.tensor.dtype != DType::Unknown) out.push_back(v.tensor.dtype);
  for (const ValueType& e : v.elements) collect_dtypes(e, out);
}

DType vector_compute_dtype(const CostQuery& q) {
  std::vector<DType> dts;
  for (const ValueType& a : q.args) collect_dtypes(a, dts);
  collect_dtypes(q.result, dts);
  DType best = DType::Unknown;
  for (DType d : dts) {
    if (best == DType::Unknown || dtype_itemsize(d) > dtype_itemsize(best) ||
        (dtype_itemsize(d) == dtype_itemsize(best) && d == DType::BFloat16))
      best = d;
  }
  return best;
}

// flops_per_elem.<kind> parameters, in this order.
constexpr std::array<std::string_view, 4> kFlopsKinds = {"default", "norm", "quant", "reduction"};

size_t flops_index(const OpInfo* info) {
  switch (info == nullptr ? OpKind::Other : info->traits.kind) {
    case OpKind::Norm:
      return 1;
    case OpKind::Quant:
      return 2;
    case OpKind::Reduction:
      return 3;
    default:
      return 0;
  }
}

// ---- transposes that move data -------------------------------------

std::optional<int64_t> known_int(const ValueType& v) {
  bool integral = v.kind == ValueType::Kind::Int || v.kind == ValueType::Kind::SymInt;
  return integral && v.sym ? v.sym->constant() : std::nullopt;
}

// The output->input dim permutation of a transpose-like free op, or
// nullopt for every other op. An empty result means "cannot tell".
std::optional<std::vector<int64_t>> transpose_permutation(const CostQuery& q, int rank) {
  auto literal_int = [&](size_t i) {
    return i < q.args.size() ? known_int(q.args[i]) : std::nullopt;
  };
  auto normalize = [&](int64_t d) { return d < 0 ? d + rank : d; };
  auto identity = [&] {
    std::vector<int64_t> p(static_cast<size_t>(std::max(rank, 0)));
    for (int i = 0; i < rank; ++i) p[static_cast<size_t>(i)] = i;
    return p;
  };
  if (q.op == "aten::t") {
    auto p = identity();
    if (rank == 2) std::swap(p[0], p[1]);
    return rank < 0 ? std::vector<int64_t>{} : p;
  }
  if (q.op == "aten::transpose.int") {
    auto d0 = literal_int(1), d1 = literal_int(2);
    if (!d0 || !d1 || rank < 0) return std::vector<int64_t>{};
    int64_t a = normalize(*d0), b = normalize(*d1);
    auto p = identity();
    if (a < 0 || b < 0 || a >= rank || b >= rank) return std::vector<int64_t>{};
    std::swap(p[static_cast<size_t>(a)], p[static_cast<size_t>(b)]);
    return p;
  }
  if (q.op == "aten::permute") {
    if (q.args.size() < 2 || q.args[1].kind != ValueType::Kind::Tuple || rank < 0)
      return std::vector<int64_t>{};
    std::vector<int64_t> p;
    for (const ValueType& item : q.args[1].elements) {
      auto d = known_int(item);
      if (!d) return std::vector<int64_t>{};
      p.push_back(normalize(*d));
    }
    return p;
  }
  return std::nullopt;
}

// True if reading the permuted tensor in row-major order is not reading
// its storage in order: the non-size-1 dims do not keep their order.
bool permutation_moves_data(const std::vector<int64_t>& perm, const Shape& in,
                            const SymbolHints& hints) {
  int64_t last = -1;
  for (int64_t src : perm) {
    if (src < 0 || static_cast<size_t>(src) >= in.size()) return true;
    if (hints.evaluate(in[static_cast<size_t>(src)]) == 1) continue;
    if (src < last) return true;
    last = src;
  }
  return false;
}

enum class FreeVerdict { Free, Copy, CopyUnsure };

FreeVerdict classify_free_op(const CostQuery& q, const SymbolHints& hints) {
  const ValueType* self = q.args.empty() ? nullptr : &q.args[0];
  int rank = self != nullptr && self->is_tensor() ? self->tensor.rank() : -1;
  auto perm = transpose_permutation(q, rank);
  if (!perm) return FreeVerdict::Free;
  if (perm->empty()) return rank == 0 || rank == 1 ? FreeVerdict::Free : FreeVerdict::CopyUnsure;
  return permutation_moves_data(*perm, *self->tensor.shape, hints) ? FreeVerdict::Copy
                                                                   : FreeVerdict::Free;
}

void append_note(std::string& note, std::string_view text) {
  if (!note.empty()) note += "; ";
  note += text;
}

}  // namespace

void NpuCostModel::check_sizes(const Graph& g) const {
  check_sizes_fit(g, hints_);
}

NpuCostModel::NpuCostModel(DeviceProfile profile, ExecMode mode, SymbolHints hints)
    : profile_(std::move(profile)),
      mode_(mode),
      hints_(std::move(hints)),
      params_(resolve(profile_, mode_)),
      comm_(comm_params_of(profile_)) {}

// DeviceProfile::get throws naming the profile and a missing parameter.
NpuCostModel::Params NpuCostModel::resolve(const DeviceProfile& p, ExecMode mode) {
  for (const std::string& name : required_device_params()) p.get(name);
  Params r;
  r.launch_us = p.get(fmt::format("launch_us.{}", exec_mode_name(mode)));
  r.per_graph_us = p.get(fmt::format("per_graph_us.{}", exec_mode_name(mode)));
  r.host_us = p.get(fmt::format("host_us.{}", exec_mode_name(mode)));
  r.host_free_us = p.get(fmt::format("host_free_us.{}", exec_mode_name(mode)));
  r.host_node_us = p.get(fmt::format("host_node_us.{}", exec_mode_name(mode)));
  r.bytes_per_us = p.get("hbm_bw_gbps") * p.get("eff_mem") * 1e3;
  r.overlap = p.get("overlap");
  r.eff_cube = p.get("eff_cube");
  r.eff_vec = p.get("eff_vec");
  for (KernelClass k : {KernelClass::Vector, KernelClass::Cube, KernelClass::Mix})
    r.fixed_us[static_cast<size_t>(k)] =
        p.get(fmt::format("t_dev_fixed_us.{}", kernel_class_name(k)));
  for (size_t i = 0; i < kPeakDTypes.size(); ++i) {
    r.peak_cube[i] = p.get(fmt::format("peak_tflops.cube.{}", kPeakDTypes[i]));
    r.peak_vec[i] = p.get(fmt::format("peak_tflops.vector.{}", kPeakDTypes[i]));
  }
  for (size_t i = 0; i < kFlopsKinds.size(); ++i)
    r.flops_per_elem[i] = p.get(fmt::format("flops_per_elem.{}", kFlopsKinds[i]));
  return r;
}

double NpuCostModel::per_graph_us() const {
  return params_.per_graph_us;
}

std::string NpuCostModel::describe() const {
  return fmt::format("{}, {}", profile_.name, exec_mode_name(mode_));
}

// empty, new_empty, empty_like: an allocation, which writes nothing, so no
// device kernel (the buffer remove_cat_ops hands to `.out` ops is one).
bool allocates_only(const OpInfo& info) {
  const std::string& n = info.schema.name;
  return info.traits.kind == OpKind::Creation &&
         (n == "empty" || n == "new_empty" || n == "empty_like" || n == "empty_strided");
}

CostBreakdown NpuCostModel::cost(const CostQuery& q) const {
  if (q.info != nullptr && allocates_only(*q.info)) return free_cost(q.op);
  if (q.info != nullptr && q.info->traits.kind == OpKind::Free) {
    FreeVerdict v = classify_free_op(q, hints_);
    if (v == FreeVerdict::Free) return free_cost(q.op);
    // npu-cost.md §6.1.1 exception: the consumer needs a contiguous input, so the
    // transpose is a copy kernel (reads and writes the tensor once each).
    return kernel_cost(q, KernelClass::Vector, /*flops_per_output=*/0,
                       v == FreeVerdict::Copy
                           ? "transpose priced as an implicit contiguous copy (npu-cost.md §6.1.1)"
                           : "transpose priced as an implicit contiguous copy (dims unknown)");
  }
  if (q.info == nullptr) {
    if (is_structural(q.op) || is_scalar_result(q.result)) return {};
    return opaque_cost(q);
  }
  const OpCostOverride* ov = profile_.override_for(q.op);
  if (q.info->traits.kind == OpKind::Collective) return collective_cost(q, ov);
  double per_elem = ov != nullptr && ov->flops_per_elem
                        ? *ov->flops_per_elem
                        : params_.flops_per_elem[flops_index(q.info)];
  return kernel_cost(q, kernel_class_of(q, ov), per_elem, {});
}

// Communication (cost/collective_cost.hpp), unless the profile fixes the op's time.
CostBreakdown NpuCostModel::collective_cost(const CostQuery& q, const OpCostOverride* ov) const {
  CostBreakdown c = kernel_cost(q, KernelClass::Vector, 0, {});
  if (ov != nullptr && (ov->fixed_us || ov->fixed_us_in[static_cast<size_t>(mode_)])) return c;
  const ValueType* lhs = matmul_lhs(q);
  cost_detail::MatmulRates rates;
  rates.peak_tflops = params_.peak_cube[peak_index(
      lhs != nullptr && lhs->is_tensor() ? lhs->tensor.dtype : DType::Unknown)];
  rates.efficiency = ov != nullptr && ov->efficiency ? *ov->efficiency : params_.eff_cube;
  rates.bytes_per_us = params_.bytes_per_us;
  rates.overlap = params_.overlap;
  rates.fixed_us = params_.fixed_us[static_cast<size_t>(KernelClass::Cube)];
  cost_detail::price_collective(c, q, hints_, comm_, rates);
  return c;
}

double NpuCostModel::host_of(const OpCostOverride* ov, bool kernel) const {
  size_t m = static_cast<size_t>(mode_);
  double base = ov != nullptr && ov->host_us_in[m] ? *ov->host_us_in[m]
                : kernel                           ? params_.host_us
                                                   : params_.host_free_us;
  // Where the mode has no host side at all, a graph node adds nothing either.
  bool host_side = base > 0 || params_.host_us > 0 || params_.host_free_us > 0;
  return host_side ? base + params_.host_node_us : 0;
}

CostBreakdown NpuCostModel::free_cost(std::string_view op) const {
  CostBreakdown c;
  c.host_us = host_of(profile_.override_for(op), /*kernel=*/false);
  c.total_us = c.host_us;
  c.host_bound = c.host_us > 0;
  return c;
}

// Opaque ops: one launch, bytes only (no FLOP model without a schema).
CostBreakdown NpuCostModel::opaque_cost(const CostQuery& q) const {
  return kernel_cost(q, KernelClass::Vector, 0, "opaque op: bytes only");
}

CostBreakdown NpuCostModel::kernel_cost(const CostQuery& q, KernelClass default_class,
                                        double flops_per_output, std::string_view note) const {
  std::string key = q.info != nullptr ? std::string(q.op) : opaque_override_key(q.op);
  const OpCostOverride* ov = profile_.override_for(key);
  CostBreakdown c;
  c.is_kernel = true;
  c.kernel_count = 1;
  c.kernel_class = ov != nullptr && ov->kernel_class ? *ov->kernel_class : default_class;
  c.note = std::string(note);
  c.launch_us = params_.launch_us;
  c.fixed_us = params_.fixed_us[static_cast<size_t>(c.kernel_class)];

  Traffic t = traffic_of(q, hints_);
  c.bytes = t.bytes;
  if (t.unknown_tensors > 0)
    append_note(c.note,
                fmt::format("{} tensor(s) of unknown shape counted as 0 bytes", t.unknown_tensors));

  bool opaque = q.info == nullptr;
  double eff = 0, peak = 0;
  if (!opaque) {
    const TensorType* out = main_output(q.result, hints_);
    double out_elems = out != nullptr ? numel_of(*out, hints_).value_or(0) : 0;
    const ValueType* lhs = c.kernel_class == KernelClass::Cube ? matmul_lhs(q) : nullptr;
    std::optional<double> attention =
        c.kernel_class == KernelClass::Cube ? attention_flops(q, hints_) : std::nullopt;
    if (lhs != nullptr && lhs->is_tensor() && lhs->tensor.rank() > 0) {
      double k = dim_estimate(lhs->tensor.shape->back(), hints_);
      c.flops = attention ? *attention : 2 * out_elems * k;
      peak = params_.peak_cube[peak_index(lhs->tensor.dtype)];
      eff = params_.eff_cube;
    } else {
      c.flops = flops_per_output * out_elems;
      peak = params_.peak_vec[peak_index(vector_compute_dtype(q))];
      eff = params_.eff_vec;
    }
  }
  if (ov != nullptr && ov->efficiency) eff = *ov->efficiency;

  c.memory_us = c.bytes / params_.bytes_per_us;
  c.compute_us = c.flops > 0 ? c.flops / (peak * eff * 1e6) : 0;
  double alpha = params_.overlap;
  double exec =
      std::max(c.memory_us, c.compute_us) + (1 - alpha) * std::min(c.memory_us, c.compute_us);
  std::optional<double> fixed;
  if (ov != nullptr)
    fixed = ov->fixed_us_in[static_cast<size_t>(mode_)]
                ? ov->fixed_us_in[static_cast<size_t>(mode_)]
                : ov->fixed_us;
  if (fixed) {
    c.fixed_us = *fixed;
    exec = 0;
    append_note(c.note, fmt::format("override: fixed {} µs{}", *fixed,
                                    ov->source.empty() ? "" : " (" + ov->source + ")"));
  }
  c.device_us = c.launch_us + c.fixed_us + exec;
  c.host_us = host_of(ov, /*kernel=*/true);
  c.host_bound = c.host_us > c.device_us;
  c.total_us = std::max(c.host_us, c.device_us);
  return c;
}

double CostModel::simulate_us(std::span<const CostBreakdown> kernels) const {
  double total = per_graph_us();
  for (const CostBreakdown& k : kernels) total += k.total_us;
  return total;
}

double NpuCostModel::simulate_us(std::span<const CostBreakdown> kernels) const {
  // Without a host side in the profile, eager's launch_us is the host's
  // share (the additive model's reading); in graph modes it is a task gap
  // on the device queue.
  bool legacy_eager = mode_ == ExecMode::Eager && params_.host_us == 0 && params_.host_free_us == 0;
  double host_t = 0, dev_t = 0;
  for (const CostBreakdown& k : kernels) {
    double host = legacy_eager && k.is_kernel ? k.launch_us : k.host_us;
    double device = legacy_eager ? k.device_us - k.launch_us : k.device_us;
    host_t += host;
    if (k.is_kernel) dev_t = std::max(host_t, dev_t) + device;  // waits for its dispatch
  }
  return std::max(host_t, dev_t) + per_graph_us();
}

}  // namespace eqfuse
