// Kernel table, argument access for kernels, type promotion and the shared
// numeric helpers (matmul, index arithmetic) of the reference interpreter.
#include <algorithm>

#include "interp/float16.hpp"
#include "interp/kernels.hpp"
#include "interp/tensor_loops.hpp"

namespace eqfuse {

// ---- KernelCall -----------------------------------------------------------

const Arg& KernelCall::arg(std::string_view name) const {
  int i = schema_.arg_index(name);
  if (i < 0 || static_cast<size_t>(i) >= node_.args.size()) {
    fail(fmt::format("the call has no argument '{}'", name));
  }
  return node_.args[static_cast<size_t>(i)];
}

bool KernelCall::is_none(std::string_view name) const {
  int i = schema_.arg_index(name);
  if (i < 0 || static_cast<size_t>(i) >= node_.args.size()) return true;
  const Arg& a = node_.args[static_cast<size_t>(i)];
  if (a.is_none()) return true;
  return a.is_node() && resolve_(a).is_none();
}

RuntimeValue KernelCall::value(std::string_view name) const {
  return resolve_(arg(name));
}

Tensor KernelCall::tensor(std::string_view name) const {
  RuntimeValue v = value(name);
  if (!v.is_tensor())
    fail(fmt::format("argument '{}' must be a tensor, got {}", name, describe(v)));
  return v.tensor();
}

std::optional<Tensor> KernelCall::opt_tensor(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return tensor(name);
}

std::vector<Tensor> KernelCall::tensor_list(std::string_view name) const {
  RuntimeValue v = value(name);
  if (!v.is_list()) fail(fmt::format("argument '{}' must be a list of tensors", name));
  std::vector<Tensor> out;
  for (const RuntimeValue& e : v.list()) {
    if (!e.is_tensor()) fail(fmt::format("argument '{}' must be a list of tensors", name));
    out.push_back(e.tensor());
  }
  return out;
}

static std::optional<int64_t> as_int(const RuntimeValue& v) {
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return std::get<bool>(v.v) ? 1 : 0;
  if (v.is_tensor() && v.tensor().numel() == 1 && v.tensor().is_int_storage()) {
    return v.tensor().get_flat_int(0);
  }
  return std::nullopt;
}

int64_t KernelCall::int_arg(std::string_view name) const {
  RuntimeValue v = value(name);
  if (std::optional<int64_t> i = as_int(v)) return *i;
  fail(fmt::format("argument '{}' must be an int, got {}", name, describe(v)));
}

std::optional<int64_t> KernelCall::opt_int(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return int_arg(name);
}

double KernelCall::double_arg(std::string_view name) const {
  RuntimeValue v = value(name);
  if (v.is_double()) return std::get<double>(v.v);
  if (std::optional<int64_t> i = as_int(v)) return static_cast<double>(*i);
  if (v.is_tensor() && v.tensor().numel() == 1) return v.tensor().get_flat(0);
  fail(fmt::format("argument '{}' must be a number, got {}", name, describe(v)));
}

bool KernelCall::bool_arg(std::string_view name) const {
  RuntimeValue v = value(name);
  if (v.is_bool()) return std::get<bool>(v.v);
  if (v.is_int()) return v.as_int() != 0;
  fail(fmt::format("argument '{}' must be a bool, got {}", name, describe(v)));
}

std::optional<bool> KernelCall::opt_bool(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return bool_arg(name);
}

std::vector<int64_t> KernelCall::int_list(std::string_view name) const {
  RuntimeValue v = value(name);
  if (std::optional<int64_t> i = as_int(v); i && !v.is_tensor()) return {*i};
  if (!v.is_list())
    fail(fmt::format("argument '{}' must be a list of ints, got {}", name, describe(v)));
  std::vector<int64_t> out;
  for (const RuntimeValue& e : v.list()) {
    std::optional<int64_t> i = as_int(e);
    if (!i) fail(fmt::format("argument '{}' must be a list of ints, got {}", name, describe(v)));
    out.push_back(*i);
  }
  return out;
}

std::optional<std::vector<int64_t>> KernelCall::opt_int_list(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  return int_list(name);
}

std::vector<bool> KernelCall::bool_list(std::string_view name) const {
  RuntimeValue v = value(name);
  if (!v.is_list()) fail(fmt::format("argument '{}' must be a list of bools", name));
  std::vector<bool> out;
  for (const RuntimeValue& e : v.list()) {
    if (e.is_bool()) {
      out.push_back(std::get<bool>(e.v));
    } else if (e.is_int()) {
      out.push_back(e.as_int() != 0);
    } else {
      fail(fmt::format("argument '{}' must be a list of bools", name));
    }
  }
  return out;
}

std::string KernelCall::str_arg(std::string_view name) const {
  const Arg& a = arg(name);
  if (const auto* s = std::get_if<std::string>(&a.value)) return *s;
  if (const auto* l = std::get_if<Literal>(&a.value)) return l->text;
  fail(fmt::format("argument '{}' must be a string", name));
}

std::optional<DType> KernelCall::opt_dtype(std::string_view name) const {
  if (is_none(name)) return std::nullopt;
  const Arg& a = arg(name);
  if (const auto* d = std::get_if<DType>(&a.value)) return *d;
  std::optional<DType> parsed;
  if (const auto* l = std::get_if<Literal>(&a.value)) parsed = parse_dtype(l->text);
  if (const auto* s = std::get_if<std::string>(&a.value)) parsed = parse_dtype(*s);
  if (parsed) return parsed;
  RuntimeValue v = value(name);
  if (v.is_int()) {
    if (std::optional<DType> d = dtype_from_scalar_type(v.as_int())) return d;
    fail(fmt::format("argument '{}': unknown ScalarType code {}", name, v.as_int()));
  }
  fail(fmt::format("argument '{}' must be a dtype", name));
}

void KernelCall::fail(const std::string& message) const {
  throw Error(fmt::format("node '{}' ({}): {}", node_.name, schema_.qualified_name(), message),
              node_.meta.loc);
}

// ---- kernel table -----------------------------------------------------------

static std::string base_key(const OpSchema& s) {
  return s.ns + "::" + s.name;
}

// Wraps an out-of-place kernel into its in-place twin: compute, then write
// the result into the mutated first argument, which is also the result.
static Kernel inplace_from(Kernel base) {
  return [base = std::move(base)](const KernelCall& call) -> RuntimeValue {
    const std::string& first = call.schema().args.at(0).name;
    Tensor self = call.tensor(first);
    RuntimeValue result = base(call);
    if (!result.is_tensor()) call.fail("in-place op did not produce a tensor");
    if (result.tensor().shape() != self.shape()) {
      call.fail(fmt::format("in-place result shape {} differs from the mutated argument's {}",
                            dims_to_string(result.tensor().shape()), dims_to_string(self.shape())));
    }
    self.copy_from(result.tensor());
    return self;
  };
}

// Wraps a functional kernel into its `.out` variant: compute, then write the
// result into the `out` argument (same shape and dtype, as torch requires of an
// out= tensor that is not resized), which is also the result.
static Kernel out_from(Kernel base) {
  return [base = std::move(base)](const KernelCall& call) -> RuntimeValue {
    Tensor out = call.tensor("out");
    RuntimeValue result = base(call);
    if (!result.is_tensor()) call.fail(".out op did not produce a tensor");
    const Tensor& r = result.tensor();
    if (r.shape() != out.shape() || r.dtype() != out.dtype()) {
      call.fail(fmt::format("result {} {} does not fit the out tensor {} {}",
                            dtype_torch_name(r.dtype()), dims_to_string(r.shape()),
                            dtype_torch_name(out.dtype()), dims_to_string(out.shape())));
    }
    out.copy_from(r);
    return out;
  };
}

static KernelTable build_kernel_table() {
  KernelTable table;
  register_elementwise_kernels(table);
  register_layout_kernels(table);
  register_reduction_kernels(table);
  register_npu_kernels(table);
  register_indexing_kernels(table);
  register_nn_kernels(table);
  register_llm_kernels(table);
  register_collective_kernels(table);
  // In-place twins `name_` (and `name_.overload`) of every out-of-place kernel.
  std::vector<std::pair<std::string, Kernel>> twins;
  for (const auto& [key, kernel] : table) {
    size_t dot = key.find('.');
    std::string name = key.substr(0, dot);
    std::string overload = dot == std::string::npos ? "" : key.substr(dot);
    if (name.ends_with('_')) continue;
    std::string twin = name + "_" + overload;
    if (!table.contains(twin)) twins.emplace_back(twin, inplace_from(kernel));
  }
  for (auto& [key, kernel] : twins) table.emplace(key, std::move(kernel));
  // `.out` variants (name.out) of the same kernels, found by their full name
  // before find_kernel's fall back to the base name.
  std::vector<std::pair<std::string, Kernel>> outs;
  for (const auto& [key, kernel] : table) {
    std::string name = key.substr(0, key.find('.'));
    if (name.ends_with('_')) continue;
    if (!table.contains(name + ".out")) outs.emplace_back(name + ".out", out_from(kernel));
  }
  for (auto& [key, kernel] : outs) table.emplace(key, std::move(kernel));
  return table;
}

static const KernelTable& kernel_table() {
  static const KernelTable table = build_kernel_table();
  return table;
}

const Kernel* find_kernel(const OpSchema& schema) {
  const KernelTable& table = kernel_table();
  if (auto it = table.find(schema.qualified_name()); it != table.end()) return &it->second;
  if (auto it = table.find(base_key(schema)); it != table.end()) return &it->second;
  return nullptr;
}

bool has_reference_kernel(std::string_view qualified_name) {
  const KernelTable& table = kernel_table();
  if (table.contains(qualified_name)) return true;
  std::string_view base = qualified_name.substr(0, qualified_name.find('.'));
  return table.contains(base);
}

// ---- type promotion ---------------------------------------------------------

static int category(DType d) {
  if (d == DType::Bool) return 0;
  if (dtype_is_floating(d)) return 2;
  return 1;
}

DType promote_types(DType a, DType b) {
  if (a == DType::Unknown) return b;
  if (b == DType::Unknown || a == b) return a;
  if (dtype_is_float8(a) || dtype_is_float8(b)) {  // torch refuses these promotions too
    throw std::invalid_argument(fmt::format("no type promotion between {} and {}",
                                            dtype_torch_name(a), dtype_torch_name(b)));
  }
  int ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == 2) {
    if ((a == DType::Float16 && b == DType::BFloat16) ||
        (a == DType::BFloat16 && b == DType::Float16)) {
      return DType::Float32;
    }
    return dtype_itemsize(a) >= dtype_itemsize(b) ? a : b;
  }
  // Integers: uint8 with a signed type needs the next wider signed type.
  auto is_unsigned = [](DType d) { return d == DType::UInt8 || d == DType::QUInt8; };
  if (is_unsigned(a) != is_unsigned(b)) {
    DType s = is_unsigned(a) ? b : a;
    return dtype_itemsize(s) > 1 ? s : DType::Int16;
  }
  return dtype_itemsize(a) >= dtype_itemsize(b) ? a : b;
}

// torch's combine_categories: a lower-priority group only matters when it
// is of a higher category (e.g. int tensor * 0-dim float tensor -> float).
static DType combine_categories(DType higher, DType lower) {
  if (higher == DType::Unknown) return lower;
  if (lower == DType::Unknown) return higher;
  if (category(higher) == 2) return higher;
  if (higher == DType::Bool || category(lower) == 2) return promote_types(higher, lower);
  return higher;
}

Operand to_operand(const RuntimeValue& v) {
  Operand op;
  if (v.is_tensor()) {
    op.tensor = v.tensor();
  } else if (v.is_bool()) {
    op.scalar_kind = DType::Bool;
    op.int_number = std::get<bool>(v.v) ? 1 : 0;
    op.number = static_cast<double>(op.int_number);
  } else if (v.is_int()) {
    op.scalar_kind = DType::Int64;
    op.int_number = v.as_int();
    op.number = static_cast<double>(op.int_number);
  } else if (v.is_double()) {
    op.scalar_kind = DType::Float64;
    op.number = std::get<double>(v.v);
    op.int_number = double_to_int(op.number, DType::Int64);
  } else {
    throw std::invalid_argument("expected a tensor or a number, got " + describe(v));
  }
  return op;
}

DType result_type(const std::vector<Operand>& ops) {
  DType dim_result = DType::Unknown, zero_result = DType::Unknown, wrapped = DType::Unknown;
  for (const Operand& op : ops) {
    if (op.tensor) {
      DType& slot = op.tensor->rank() > 0 ? dim_result : zero_result;
      slot = promote_types(slot, op.tensor->dtype());
    } else {
      // Python scalars count as the default dtype of their category.
      DType d = op.scalar_kind == DType::Float64 ? DType::Float32 : op.scalar_kind;
      wrapped = promote_types(wrapped, d);
    }
  }
  DType r = combine_categories(dim_result, combine_categories(zero_result, wrapped));
  return r == DType::Unknown ? DType::Float32 : r;
}

DType opmath_dtype(DType d) {
  if (d == DType::Float16 || d == DType::BFloat16) return DType::Float32;
  return d;
}

// ---- index helpers ----------------------------------------------------------

Dims unravel(int64_t flat, const Dims& shape) {
  Dims index(shape.size(), 0);
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

int64_t ravel(const Dims& index, const Dims& shape) {
  int64_t flat = 0;
  for (size_t i = 0; i < shape.size(); ++i) flat = flat * shape[i] + index[i];
  return flat;
}

std::vector<bool> reduction_mask(const std::optional<std::vector<int64_t>>& dims, int rank) {
  std::vector<bool> mask(static_cast<size_t>(rank), !dims || dims->empty());
  if (dims) {
    for (int64_t d : *dims) mask[static_cast<size_t>(wrap_dim(d, rank))] = true;
  }
  return mask;
}

namespace {

// One matrix of a batched matmul read in place from its storage.
struct MatrixOperand {
  const Tensor* t = nullptr;
  int64_t row_stride = 0, col_stride = 0;

  explicit MatrixOperand(const Tensor& tensor) : t(&tensor) {
    row_stride = tensor.strides()[tensor.strides().size() - 2];
    col_stride = tensor.strides().back();
  }
  double at(int64_t offset, int64_t r, int64_t c) const {
    return t->storage_value(offset + r * row_stride + c * col_stride);
  }
  // dst[0..len) = row r, columns c0..c0+len, as doubles.
  void read_row(int64_t offset, int64_t r, int64_t c0, int64_t len, double* dst) const {
    t->read_storage_run(offset + r * row_stride + c0 * col_stride, col_stride, len, dst);
  }
};

// Cache blocks of the output: kRowBlock x kColBlock doubles of accumulators
// (256 KiB) reused for every step along k.
constexpr int64_t kRowBlock = 64;
constexpr int64_t kColBlock = 512;

// out[m x n] (row-major doubles, exact sums) = A[m x k] @ B[k x n] for one
// batch, blocked i-k-j: every out[i][j] still accumulates its k products in
// increasing k order starting from 0, so sums are identical to the naive
// dot-product loop.
void matmul_block_sums(const MatrixOperand& a, int64_t a_off, const MatrixOperand& b, int64_t b_off,
                       int64_t m, int64_t k, int64_t n, double* out) {
  std::vector<double> acc(static_cast<size_t>(kRowBlock * kColBlock));
  std::vector<double> b_row(static_cast<size_t>(kColBlock));
  for (int64_t j0 = 0; j0 < n; j0 += kColBlock) {
    int64_t jl = std::min(kColBlock, n - j0);
    for (int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
      int64_t il = std::min(kRowBlock, m - i0);
      std::fill(acc.begin(), acc.begin() + il * jl, 0.0);
      for (int64_t p = 0; p < k; ++p) {
        b.read_row(b_off, p, j0, jl, b_row.data());
        for (int64_t i = 0; i < il; ++i) {
          double a_ip = a.at(a_off, i0 + i, p);
          double* row = acc.data() + i * jl;
          const double* br = b_row.data();
          for (int64_t j = 0; j < jl; ++j) row[j] += a_ip * br[j];
        }
      }
      for (int64_t i = 0; i < il; ++i) {
        std::copy_n(acc.data() + i * jl, jl, out + (i0 + i) * n + j0);
      }
    }
  }
}

}  // namespace

Tensor repeat_heads(const Tensor& t, int64_t times) {
  if (times == 1) return t;
  Dims expanded = t.shape();
  expanded.insert(expanded.end() - 2, times);
  Tensor e = t.unsqueeze(t.rank() - 2).expand(expanded);
  Dims merged = t.shape();
  merged[merged.size() - 3] *= times;
  return e.reshape(merged);
}

Tensor batched_matmul(const Tensor& a, const Tensor& b, DType out_dtype) {
  if (a.rank() < 2 || b.rank() < 2) throw std::invalid_argument("matmul operands need rank >= 2");
  int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  if (b.size(-2) != k) {
    throw std::invalid_argument(fmt::format("matmul: shapes {} and {} cannot be multiplied",
                                            dims_to_string(a.shape()), dims_to_string(b.shape())));
  }
  Dims batch_a(a.shape().begin(), a.shape().end() - 2);
  Dims batch_b(b.shape().begin(), b.shape().end() - 2);
  Dims batch = broadcast_shapes(batch_a, batch_b);
  Dims a_shape = batch, b_shape = batch, out_shape = batch;
  a_shape.insert(a_shape.end(), {m, k});
  b_shape.insert(b_shape.end(), {k, n});
  out_shape.insert(out_shape.end(), {m, n});
  Tensor ae = a.expand(a_shape), be = b.expand(b_shape);
  ae.check_in_bounds();
  be.check_in_bounds();
  Tensor out = Tensor::zeros(out_dtype, out_shape);
  if (out.numel() == 0) return out;
  MatrixOperand am(ae), bm(be);
  Dims a_batch_strides(ae.strides().begin(), ae.strides().end() - 2);
  Dims b_batch_strides(be.strides().begin(), be.strides().end() - 2);
  std::vector<double> sums(static_cast<size_t>(m * n));
  int64_t batch_index = 0;
  for_each_row<2>(batch, {&a_batch_strides, &b_batch_strides}, {ae.offset(), be.offset()},
                  [&](int64_t len, const auto& base, const auto& step) {
                    for (int64_t t = 0; t < len; ++t, ++batch_index) {
                      matmul_block_sums(am, base[0] + t * step[0], bm, base[1] + t * step[1], m, k,
                                        n, sums.data());
                      int64_t first = batch_index * m * n;
                      out.as_strided({m * n}, {1}, first).write_values(sums);
                    }
                  });
  return out;
}

}  // namespace eqfuse
