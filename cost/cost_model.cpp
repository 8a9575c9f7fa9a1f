// NpuCostModel: launch overhead + roofline per kernel (docs/reference/npu-cost.md
// §6.1), DAG cost of a graph and the npu-cost.md §6.2 two-queue simulation.
#include "cost/cost_model.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/diagnostics.hpp"
#include "graph/auto_functionalized.hpp"

namespace eqfuse {
namespace {

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

// A dim under the hints, as an estimate: never negative (a symbolic dim such as
// `s0 - 8` may evaluate below 0 under the default hint), and computed in double
// by the callers, so a product of dims cannot wrap. hints.evaluate itself is
// exact or throws IntOverflow.
double dim_estimate(const SymInt& d, const SymbolHints& hints) {
  return static_cast<double>(std::max<int64_t>(hints.evaluate(d), 0));
}

std::optional<double> numel_of(const TensorType& t, const SymbolHints& hints) {
  if (!t.shape) return std::nullopt;
  double n = 1;
  for (const SymInt& d : *t.shape) n *= dim_estimate(d, hints);
  return n;
}

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

// The value type of argument `name`, or nullptr.
const ValueType* arg_named(const CostQuery& q, std::string_view name) {
  if (q.info == nullptr) return nullptr;
  int i = q.info->schema.arg_index(name);
  if (i < 0 || static_cast<size_t>(i) >= q.args.size()) return nullptr;
  return &q.args[static_cast<size_t>(i)];
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

SymInt::Bindings SymbolHints::bindings_for(const SymInt& s) const {
  SymInt::Bindings bindings = values;
  for (const std::string& atom : s.atoms()) bindings.try_emplace(atom, fallback);
  return bindings;
}

int64_t SymbolHints::evaluate(const SymInt& s) const {
  if (auto c = s.constant()) return *c;
  try {
    return s.evaluate_or(values, fallback);  // no copy of the hints per value
  } catch (const IntOverflow&) {
    // The same overflow again, with the message naming each symbol's value.
    return s.evaluate(bindings_for(s)).value_or(fallback);
  }
}

namespace {

// `s0=4611686018427387904, s1=1024`: the values `hints` gives the symbols of `t`.
std::string hinted_symbols(const TensorType& t, const SymbolHints& hints) {
  std::vector<std::string> parts;
  std::set<std::string> seen;
  for (const SymInt& d : *t.shape)
    for (const std::string& atom : d.atoms())
      if (seen.insert(atom).second)
        parts.push_back(fmt::format("{}={}", atom, hints.bindings_for(d).at(atom)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

void check_tensor_bytes(const Node& n, const ValueType& t, const SymbolHints& hints) {
  for (const ValueType& e : t.elements) check_tensor_bytes(n, e, hints);
  if (!t.is_tensor() || !t.tensor.shape) return;
  try {
    std::optional<SymInt> bytes = t.tensor.bytes();
    if (bytes) (void)hints.evaluate(*bytes);
  } catch (const IntOverflow&) {
    fail(n.meta.loc, "size of {} '{}' {} with {} does not fit in 63 bits",
         n.kind == NodeKind::Placeholder ? "input" : "node", n.name, describe(t),
         hinted_symbols(t.tensor, hints));
  }
}

}  // namespace

void check_sizes_fit(const Graph& g, const SymbolHints& hints) {
  for (const Node& n : g.nodes()) check_tensor_bytes(n, n.type, hints);
}

void NpuCostModel::check_sizes(const Graph& g) const {
  check_sizes_fit(g, hints_);
}

NpuCostModel::NpuCostModel(DeviceProfile profile, ExecMode mode, SymbolHints hints)
    : profile_(std::move(profile)),
      mode_(mode),
      hints_(std::move(hints)),
      params_(resolve(profile_, mode_)) {}

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
  double per_elem = ov != nullptr && ov->flops_per_elem
                        ? *ov->flops_per_elem
                        : params_.flops_per_elem[flops_index(q.info)];
  return kernel_cost(q, kernel_class_of(q, ov), per_elem, {});
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

// ---- graphs ---------------------------------------------------------

namespace {

ValueType scalar_of_kind(ValueType::Kind k) {
  ValueType t;
  t.kind = k;
  return t;
}

ValueType int_value(int64_t v) {
  ValueType t = scalar_of_kind(ValueType::Kind::Int);
  t.sym = SymInt(v);
  return t;
}

ValueType type_of_arg(const Graph& g, const Arg& a) {
  if (a.is_node()) return g.node(a.node()).type;
  if (a.is_none()) return ValueType::none();
  if (a.is_int()) return int_value(std::get<int64_t>(a.value));
  if (a.is_float()) return scalar_of_kind(ValueType::Kind::Float);
  if (a.is_bool()) return scalar_of_kind(ValueType::Kind::Bool);
  if (a.is_list()) {
    std::vector<ValueType> items;
    for (const Arg& x : a.as_list().items) items.push_back(type_of_arg(g, x));
    return ValueType::of_tuple(std::move(items));
  }
  return ValueType::unknown();
}

std::string_view structural_op_name(NodeKind k) {
  switch (k) {
    case NodeKind::Placeholder:
      return graph_ops::kPlaceholder;
    case NodeKind::GetAttr:
      return graph_ops::kGetAttr;
    case NodeKind::GetItem:
      return graph_ops::kGetItem;
    default:
      return "output";
  }
}

}  // namespace

CostQuery query_for_node(const Graph& g, NodeRef n, const OpRegistry& reg,
                         std::vector<ValueType>& arg_storage) {
  const Node& node = g.node(n);
  CostQuery q;
  q.result = node.type;
  arg_storage.clear();
  if (node.kind != NodeKind::Call) {
    q.op = structural_op_name(node.kind);
    return q;
  }
  q.op = node.target;
  if (node.op == kNoOp) {
    // Opaque: the node inputs it references, as the e-graph encodes them.
    for (NodeRef r : node_inputs(node)) arg_storage.push_back(g.node(r).type);
  } else {
    q.info = &reg.info(node.op);
    for (const Arg& a : node.args) arg_storage.push_back(type_of_arg(g, a));
  }
  q.args = arg_storage;
  return q;
}

namespace {

// ---- auto_functionalized --------------------------------------------

// `(3,)` in the call's keywords is an int list argument `[3]` of the view op.
Arg as_int_list(const Arg& a) {
  return a.is_list() ? Arg::list(a.as_list().items) : a;
}

// The type of a v2 mutable argument: the view of its base that the call
// regenerates, typed by the view op's meta function. Without one (or when
// it cannot tell) the base's type stands in: a view never reads more.
ValueType regenerated_view_type(const Graph& g, const OpRegistry& reg, const BaseView& v,
                                const Arg& base) {
  ValueType base_type = type_of_arg(g, base);
  std::string_view view_op;
  std::vector<Arg> args;
  switch (v.kind) {
    case BaseView::Kind::Base:
    case BaseView::Kind::Alias:
      return base_type;
    case BaseView::Kind::Slice:
      view_op = "aten::slice.Tensor";
      args = {base, v.dim, v.start, v.end, Arg(int64_t{1})};
      break;
    case BaseView::Kind::AsStrided:
      view_op = "aten::as_strided";
      args = {base, as_int_list(v.size), as_int_list(v.stride), v.storage_offset};
      break;
  }
  std::optional<OpId> id = reg.find(view_op);
  if (!id || !reg.info(*id).meta) return base_type;
  const OpInfo& info = reg.info(*id);
  CallContext ctx(info.schema, args,
                  [&g](NodeRef r) -> const ValueType& { return g.node(r).type; });
  try {
    ValueType t = info.meta(ctx);
    return t.is_tensor() ? t : base_type;
  } catch (const Error&) {
    return base_type;
  }
}

// The wrapped op's argument types, in schema order.
std::vector<ValueType> wrapped_arg_types(const Graph& g, const OpRegistry& reg,
                                         const AutoFunctionalized& af) {
  std::vector<ValueType> types;
  for (const Arg& a : af.args) types.push_back(type_of_arg(g, a));
  if (af.version == AutoFunctionalizedVersion::V1) return types;
  for (const MutableArg& m : af.mutables) {
    std::vector<ValueType> views;
    for (const std::optional<BaseView>& v : m.views)
      views.push_back(
          v ? regenerated_view_type(g, reg, *v, af.bases.at(static_cast<size_t>(v->base_index)))
            : ValueType::none());
    types[static_cast<size_t>(m.position)] = m.is_none   ? ValueType::none()
                                             : m.is_list ? ValueType::of_tuple(std::move(views))
                                                         : views.at(0);
  }
  return types;
}

// The wrapped op's result: the first op_outputs elements of the call's
// tuple type (None for an op that returns nothing).
ValueType wrapped_result_type(const ValueType& call_type, const AutoFunctionalized& af,
                              const OpInfo& info) {
  size_t returns = info.schema.returns.size();
  if (returns == 0) return ValueType::none();
  if (call_type.kind != ValueType::Kind::Tuple || call_type.elements.size() < af.op_outputs)
    return ValueType::unknown();
  if (returns == 1) return call_type.elements[0];
  return ValueType::of_tuple(std::vector<ValueType>(
      call_type.elements.begin(), call_type.elements.begin() + static_cast<long>(af.op_outputs)));
}

// The tensors the call clones: v1 every mutable argument tensor (a list
// argument clones each element), v2 every base.
std::vector<NodeRef> cloned_tensors(const AutoFunctionalized& af) {
  std::vector<NodeRef> out;
  auto add = [&out](const Arg& a) {
    if (a.is_node()) out.push_back(a.node());
    if (a.is_list())
      for (const Arg& e : a.as_list().items)
        if (e.is_node()) out.push_back(e.node());
  };
  if (af.version == AutoFunctionalizedVersion::V1) {
    for (const MutableArg& m : af.mutables) add(m.value);
  } else {
    for (const Arg& b : af.bases) add(b);
  }
  return out;
}

// A clone of a tensor of type `t`, priced as the model prices aten::clone
// (an opaque copy when the registry lacks it).
CostBreakdown clone_cost(const ValueType& t, const OpRegistry& reg, const CostModel& model) {
  std::optional<OpId> clone = reg.find("aten::clone");
  std::array<ValueType, 2> args{t, ValueType::none()};  // self, memory_format
  CostQuery q;
  q.op = "aten::clone";
  q.info = clone ? &reg.info(*clone) : nullptr;
  q.args = std::span<const ValueType>(args.data(), clone ? 2 : 1);
  q.result = t;
  return model.cost(q);
}

// One breakdown for the whole call: the sum of its kernels, with the
// wrapped op's class (the last kernel).
CostBreakdown sum_of_kernels(std::span<const CostBreakdown> parts, std::string note) {
  CostBreakdown c;
  c.is_kernel = true;
  c.kernel_class = parts.back().kernel_class;
  c.note = std::move(note);
  for (const CostBreakdown& k : parts) {
    c.host_us += k.host_us;
    c.device_us += k.device_us;
    c.host_bound = c.host_bound || k.host_bound;
    c.launch_us += k.launch_us;
    c.fixed_us += k.fixed_us;
    c.bytes += k.bytes;
    c.flops += k.flops;
    c.memory_us += k.memory_us;
    c.compute_us += k.compute_us;
    c.total_us += k.total_us;
    if (k.is_kernel) ++c.kernel_count;
  }
  return c;
}

}  // namespace

std::vector<CostBreakdown> auto_functionalized_kernels(const Graph& g, NodeRef n,
                                                       const OpRegistry& reg,
                                                       const CostModel& model) {
  const Node& node = g.node(n);
  if (node.kind != NodeKind::Call || node.op != kNoOp) return {};
  std::optional<AutoFunctionalized> af = decode_auto_functionalized(node, reg);
  if (!af) return {};
  const OpInfo& info = reg.info(af->op);
  std::string op_name = info.schema.qualified_name();
  std::vector<ValueType> args = wrapped_arg_types(g, reg, *af);
  CostQuery q;
  q.op = op_name;
  q.info = &info;
  q.args = args;
  q.result = wrapped_result_type(node.type, *af, info);
  std::vector<CostBreakdown> kernels;
  for (NodeRef t : cloned_tensors(*af)) kernels.push_back(clone_cost(g.node(t).type, reg, model));
  kernels.push_back(model.cost(q));  // the op writes the clones: it runs last
  return kernels;
}

namespace {

// Per node of `g`: the calls that write its memory in place (directly or through views
// of it).
std::vector<std::vector<int32_t>> in_place_writers(const Graph& g, const OpRegistry& reg) {
  std::vector<std::vector<int32_t>> writers(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    const OpSchema& schema = reg.info(n.op).schema;
    for (size_t a = 0; a < schema.args.size() && a < n.args.size(); ++a) {
      if (!schema.args[a].mutates() || !n.args[a].is_node()) continue;
      for (NodeRef r = n.args[a].node();;) {  // the written value and the bases it views
        writers[static_cast<size_t>(r.index)].push_back(static_cast<int32_t>(i));
        const Node& v = g.node(r);
        if (v.kind != NodeKind::Call || v.op == kNoOp || !reg.info(v.op).traits.is_view ||
            v.args.empty() || !v.args[0].is_node())
          break;
        r = v.args[0].node();
      }
    }
  }
  return writers;
}

// Whether the in-place call `n` writes only memory the graph itself made (no graph
// input, through views or not): such a write, done once from constant values, is part
// of computing a constant. A write into an input changes it on every call.
bool writes_only_intermediates(const Graph& g, const OpRegistry& reg, const Node& n) {
  const OpSchema& schema = reg.info(n.op).schema;
  for (size_t a = 0; a < schema.args.size() && a < n.args.size(); ++a) {
    if (!schema.args[a].mutates() || !n.args[a].is_node()) continue;
    for (NodeRef r = n.args[a].node();;) {
      const Node& v = g.node(r);
      if (v.kind == NodeKind::Placeholder || v.kind == NodeKind::GetAttr) return false;
      if (v.kind != NodeKind::Call || v.op == kNoOp || !reg.info(v.op).traits.is_view ||
          v.args.empty() || !v.args[0].is_node())
        break;
      r = v.args[0].node();
    }
  }
  return true;
}

// Per node of `g`: its value is the same on every call (a frozen input, or a foldable
// call of such values and literals). A frozen input written in place is not; an
// intermediate is not when a call that is not itself constant writes it (the
// reinplace passes turn `arange(n) + 0` into an in-place add of constants, which stays
// constant). All false when the model folds nothing.
std::vector<bool> constant_nodes(const Graph& g, const OpRegistry& reg, const CostModel& model) {
  std::vector<bool> constant(g.size(), false);
  if (!model.folds_constants()) return constant;
  const std::vector<std::vector<int32_t>> writers = in_place_writers(g, reg);
  std::vector<bool> excluded(g.size(), false);  // written by a call that is not constant
  for (bool changed = true; changed;) {         // monotone: each round only excludes more
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.node(NodeRef{static_cast<int32_t>(i)});
      constant[i] = false;
      if (excluded[i]) continue;
      switch (n.kind) {
        case NodeKind::Placeholder:
        case NodeKind::GetAttr:
          constant[i] = writers[i].empty() &&
                        model.is_frozen_input(n.kind == NodeKind::GetAttr ? n.target : n.name);
          break;
        case NodeKind::GetItem:
        case NodeKind::Call: {
          if (n.kind == NodeKind::Call) {
            if (n.op == kNoOp) break;
            const OpInfo& info = reg.info(n.op);
            const bool in_place_on_own = info.schema.mutates_any() &&
                                         writes_only_intermediates(g, reg, n) &&
                                         is_foldable_op(&info, /*allow_in_place=*/true);
            if (!is_foldable_op(&info) && !in_place_on_own) break;
          }
          bool all = true;
          for (NodeRef a : node_inputs(n)) all = all && constant[static_cast<size_t>(a.index)];
          constant[i] = all;
          break;
        }
        default:
          break;
      }
    }
    changed = false;
    for (size_t i = 0; i < g.size(); ++i) {
      if (excluded[i]) continue;
      for (int32_t w : writers[i]) {
        if (constant[static_cast<size_t>(w)]) continue;
        excluded[i] = true;
        changed = true;
        break;
      }
    }
  }
  return constant;
}

}  // namespace

bool wildcard_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1, t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Every frozen-input pattern must name a graph input: one that matches nothing is a
// typo that would silently fold nothing.
void check_frozen_inputs(const Graph& input, const std::vector<std::string>& patterns) {
  if (patterns.empty()) return;
  std::vector<std::string> inputs;
  for (size_t i = 0; i < input.size(); ++i) {
    const Node& n = input.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind == NodeKind::Placeholder) inputs.push_back(n.name);
    if (n.kind == NodeKind::GetAttr) inputs.push_back(n.target);
  }
  for (const std::string& p : patterns) {
    if (p.empty()) throw Error("frozen inputs: an empty pattern");
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&](const std::string& name) { return wildcard_match(p, name); })) {
      std::string list;
      for (const std::string& name : inputs) list += (list.empty() ? "" : ", ") + name;
      throw Error(fmt::format("frozen inputs: '{}' matches no graph input (inputs: {})", p,
                              list.empty() ? "none" : list));
    }
  }
}

bool CostModel::is_frozen_input(std::string_view name) const {
  return std::any_of(frozen_.begin(), frozen_.end(),
                     [&](const std::string& p) { return wildcard_match(p, name); });
}

bool is_foldable_op(const OpInfo* info, bool allow_in_place) {
  if (info == nullptr || (info->schema.mutates_any() && !allow_in_place)) return false;
  // Random draws differ per call; dropout draws its mask.
  static const std::set<std::string, std::less<>> kRandom = {
      "rand",         "randn",           "randint",        "rand_like",       "randn_like",
      "randint_like", "randperm",        "bernoulli",      "normal",          "uniform",
      "multinomial",  "poisson",         "exponential",    "geometric",       "cauchy",
      "log_normal",   "dropout",         "native_dropout", "feature_dropout", "alpha_dropout",
      "rrelu",        "rrelu_with_noise"};
  return !kRandom.contains(info->schema.name);
}

GraphCost graph_cost(const Graph& g, const OpRegistry& reg, const CostModel& model) {
  model.check_sizes(g);
  GraphCost out;
  std::vector<ValueType> storage;
  std::vector<CostBreakdown> kernels;
  const std::vector<bool> folded = constant_nodes(g, reg, model);
  for (size_t i = 0; i < g.size(); ++i) {
    NodeRef ref{static_cast<int32_t>(i)};
    if (g.node(ref).kind != NodeKind::Call) continue;
    if (folded[i]) {
      CostBreakdown c;
      c.note = std::string(kFoldedNote);
      out.nodes.push_back({ref, std::move(c)});
      continue;
    }
    std::vector<CostBreakdown> parts = auto_functionalized_kernels(g, ref, reg, model);
    CostBreakdown c =
        parts.empty() ? model.cost(query_for_node(g, ref, reg, storage))
                      : sum_of_kernels(parts, fmt::format("auto_functionalized: op + {} clone(s)",
                                                          parts.size() - 1));
    if (parts.empty()) parts.push_back(c);
    for (const CostBreakdown& k : parts) {
      if (k.is_kernel) ++out.kernels;
      if (k.is_kernel && k.host_bound) ++out.host_bound;
      if (k.is_kernel || k.host_us > 0) kernels.push_back(k);
    }
    out.total_us += c.total_us;  // a free op: its host dispatch (0 without a host side)
    out.host_us += c.host_us;
    if (c.is_kernel) {
      out.launch_us += c.launch_us;
      out.fixed_us += c.fixed_us;
      out.memory_us += c.memory_us;
      out.compute_us += c.compute_us;
    }
    out.nodes.push_back({ref, std::move(c)});
  }
  out.total_us += model.per_graph_us();
  out.simulated_us = model.simulate_us(kernels);
  return out;
}

}  // namespace eqfuse
