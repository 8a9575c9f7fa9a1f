// Reference kernels of the second batch of issue-16 ops
// (graph/ops/llm.schemas): runtime assertions, _local_scalar_dense,
// nonzero(_static), repeat_interleave, _safe_softmax, logsumexp, min.dim,
// new_empty_strided, index_fill, flip, roll, group norm, sign, the
// activations, atan2 and erfinv. (fill, empty_strided, stack and narrow
// share the kernels of kernels_elementwise.cpp and kernels_layout.cpp.)
//
// Float math runs in double and each output element is rounded once to the
// output dtype; integer data moves exactly.
#include <cmath>
#include <limits>
#include <numbers>

#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

int64_t wrap(const KernelCall& c, int64_t dim, int64_t rank, std::string_view what = "dim") {
  int64_t r = std::max<int64_t>(rank, 1);
  if (dim < -r || dim >= r)
    c.fail(fmt::format("{} {} is out of range for a tensor of rank {}", what, dim, rank));
  return dim < 0 ? dim + r : dim;
}

bool truthy(const RuntimeValue& v) {
  if (v.is_bool()) return std::get<bool>(v.v);
  if (v.is_int()) return v.as_int() != 0;
  if (v.is_double()) return std::get<double>(v.v) != 0.0;
  if (v.is_tensor() && v.tensor().numel() == 1) return v.tensor().get_flat(0) != 0.0;
  throw std::invalid_argument("expected a scalar, got " + describe(v));
}

// ---- assertions ----------------------------------------------------------------

// Checks dtype and sizes when given; stride, device and layout are not
// modelled by the interpreter and are not checked.
RuntimeValue assert_tensor_metadata(const KernelCall& c) {
  Tensor a = c.tensor("a");
  if (std::optional<DType> d = c.opt_dtype("dtype"); d && *d != a.dtype())
    c.fail(fmt::format("dtype mismatch: the tensor is {}, the assertion expects {}",
                       dtype_torch_name(a.dtype()), dtype_torch_name(*d)));
  if (auto size = c.opt_int_list("size"); size && *size != a.shape())
    c.fail(fmt::format("sizes mismatch: the tensor is {}, the assertion expects {}",
                       dims_to_string(a.shape()), dims_to_string(*size)));
  return RuntimeValue();
}

RuntimeValue assert_scalar(const KernelCall& c) {
  if (!truthy(c.value("self")))
    c.fail(fmt::format("assertion failed: {}", c.str_arg("assert_msg")));
  return RuntimeValue();
}

// The value must lie in [min, max] where they are given (a size also must
// not be negative).
RuntimeValue constrain_range(const KernelCall& c, bool for_size) {
  int64_t v = c.int_arg("size");
  std::optional<int64_t> lo = c.opt_int("min"), hi = c.opt_int("max");
  if (for_size && v < 0) c.fail(fmt::format("the size {} is negative", v));
  if ((lo && v < *lo) || (hi && v > *hi))
    c.fail(fmt::format("the value {} is outside the range [{}, {}]", v,
                       lo ? std::to_string(*lo) : "-inf", hi ? std::to_string(*hi) : "inf"));
  return RuntimeValue();
}

// ---- data-dependent results -------------------------------------------------------

RuntimeValue local_scalar_dense(const KernelCall& c) {
  Tensor x = c.tensor("self");
  if (x.numel() != 1)
    c.fail(fmt::format("a tensor with {} elements cannot be converted to a scalar", x.numel()));
  if (x.dtype() == DType::Bool) return RuntimeValue(x.get_flat_int(0) != 0);
  if (x.is_int_storage()) return RuntimeValue(x.get_flat_int(0));
  return RuntimeValue(x.get_flat(0));
}

// Row-major coordinates of the nonzero elements (NaN is nonzero).
std::vector<int64_t> nonzero_coords(const Tensor& x, int64_t& count) {
  std::vector<double> v = x.values();
  std::vector<int64_t> out;
  count = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == 0.0) continue;
    Dims idx = unravel(static_cast<int64_t>(i), x.shape());
    out.insert(out.end(), idx.begin(), idx.end());
    ++count;
  }
  return out;
}

RuntimeValue nonzero(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t n = 0;
  std::vector<int64_t> coords = nonzero_coords(x, n);
  return RuntimeValue(Tensor::from_ints(DType::Int64, {n, x.rank()}, coords));
}

RuntimeValue nonzero_static(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t size = c.int_arg("size"), fill = c.int_arg("fill_value");
  if (size < 0) c.fail(fmt::format("size must be non-negative, got {}", size));
  int64_t n = 0;
  std::vector<int64_t> coords = nonzero_coords(x, n);
  coords.resize(static_cast<size_t>(size * x.rank()), fill);
  return RuntimeValue(Tensor::from_ints(DType::Int64, {size, x.rank()}, coords));
}

// repeats of any integer dtype (the result has that dtype, as torch's meta gives it); 2-D
// or non-integer repeats, which torch's meta types but its kernels refuse, are not
// modelled: the node is then an uninterpreted function.
RuntimeValue repeat_interleave_tensor(const KernelCall& c) {
  Tensor r = c.tensor("repeats");
  if (r.rank() > 1 || !dtype_is_integral(r.dtype()))
    throw UnsupportedConfig(fmt::format("repeat_interleave of {} repeats", r.describe()));
  std::vector<int64_t> out;
  std::vector<int64_t> reps = r.int_values();
  for (size_t i = 0; i < reps.size(); ++i) {
    if (reps[i] < 0) c.fail(fmt::format("repeats must be non-negative, got {}", reps[i]));
    out.insert(out.end(), static_cast<size_t>(reps[i]), static_cast<int64_t>(i));
  }
  auto n = static_cast<int64_t>(out.size());
  if (std::optional<int64_t> size = c.opt_int("output_size"); size && *size != n)
    c.fail(fmt::format("output_size {} differs from the sum of repeats {}", *size, n));
  return RuntimeValue(Tensor::from_ints(r.dtype(), {n}, out));
}

// ---- reductions -----------------------------------------------------------------------

// `x` with `dim` moved last: its values row-major, one row per output element.
struct Rows {
  Dims perm;
  std::vector<double> values;
  int64_t rows = 0, len = 1;
};

Rows rows_along(const KernelCall& c, const Tensor& x, int64_t dim) {
  Rows r;
  if (x.rank() == 0) {
    wrap(c, dim, 0);
    r.values = x.values();
    r.rows = 1;
    return r;
  }
  dim = wrap(c, dim, x.rank());
  for (int64_t i = 0; i < x.rank(); ++i)
    if (i != dim) r.perm.push_back(i);
  r.perm.push_back(dim);
  r.values = x.permute(r.perm).values();
  r.len = x.size(static_cast<int>(dim));
  r.rows = r.len == 0 ? 0 : x.numel() / r.len;
  return r;
}

// softmax(x) along dim; a row whose elements are all -inf gives zeros.
RuntimeValue safe_softmax(const KernelCall& c) {
  Tensor x = c.tensor("self");
  DType out_dtype = c.opt_dtype("dtype").value_or(x.dtype());
  if (!dtype_is_floating(out_dtype)) c.fail("_safe_softmax needs a floating point dtype");
  Rows r = rows_along(c, x, c.int_arg("dim"));
  std::vector<double> res(r.values.size());
  for (int64_t row = 0; row < r.rows; ++row) {
    const double* v = r.values.data() + row * r.len;
    double* o = res.data() + row * r.len;
    double mx = -kInf;
    for (int64_t j = 0; j < r.len; ++j)
      mx = std::isnan(v[j]) || std::isnan(mx) ? NAN : std::max(mx, v[j]);
    if (mx == -kInf) {
      std::fill(o, o + r.len, 0.0);
      continue;
    }
    double sum = 0;
    for (int64_t j = 0; j < r.len; ++j) sum += std::exp(v[j] - mx);
    for (int64_t j = 0; j < r.len; ++j) o[j] = std::exp(v[j] - mx) / sum;
  }
  Tensor out = Tensor::zeros(out_dtype, x.shape());
  if (x.rank() == 0) {
    out.write_values(res);
  } else {
    out.permute(r.perm).write_values(res);
  }
  return RuntimeValue(out);
}

// log Σ exp(x) over `dim` (empty: all dims), stabilized by the maximum; an
// all -inf group gives -inf, a +inf element gives +inf.
RuntimeValue logsumexp(const KernelCall& c) {
  Tensor x = c.tensor("self");
  DType out_dtype = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Float32;
  std::vector<int64_t> dims = c.int_list("dim");
  bool keepdim = c.bool_arg("keepdim");
  std::vector<bool> mask(static_cast<size_t>(x.rank()), dims.empty());
  for (int64_t d : dims) {
    size_t w = static_cast<size_t>(wrap(c, d, x.rank()));
    if (x.rank() > 0) {
      if (mask[w] && !dims.empty()) c.fail(fmt::format("dim {} is repeated", w));
      mask[w] = true;
    }
  }
  Dims perm, out_shape;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) {
      perm.push_back(static_cast<int64_t>(i));
      out_shape.push_back(x.shape()[i]);
    } else if (keepdim) {
      out_shape.push_back(1);
    }
  }
  for (size_t i = 0; i < mask.size(); ++i)
    if (mask[i]) perm.push_back(static_cast<int64_t>(i));
  std::vector<double> v = x.permute(perm).values();
  int64_t out_n = shape_numel(out_shape);
  int64_t group = out_n == 0 ? 0 : x.numel() / out_n;
  return RuntimeValue(make_tensor(out_dtype, out_shape, [&](int64_t o) {
    const double* g = v.data() + o * group;
    double mx = -kInf;
    for (int64_t j = 0; j < group; ++j)
      mx = std::isnan(g[j]) || std::isnan(mx) ? NAN : std::max(mx, g[j]);
    if (std::isinf(mx) || std::isnan(mx)) return mx;
    double sum = 0;
    for (int64_t j = 0; j < group; ++j) sum += std::exp(g[j] - mx);
    return mx + std::log(sum);
  }));
}

// Values and int64 indices of the first minimum along dim (NaN is minimal).
RuntimeValue min_dim(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t dim = c.int_arg("dim");
  bool keepdim = c.bool_arg("keepdim");
  Rows r = rows_along(c, x, dim);
  if (r.len == 0) c.fail("min() of an empty dimension");
  Dims out_shape = x.shape();
  if (x.rank() > 0) {
    int64_t w = wrap(c, dim, x.rank());
    if (keepdim) {
      out_shape[static_cast<size_t>(w)] = 1;
    } else {
      out_shape.erase(out_shape.begin() + w);
    }
  }
  Tensor values = Tensor::zeros(x.dtype(), out_shape);
  std::vector<int64_t> idx(static_cast<size_t>(r.rows), 0);
  std::vector<int64_t> ints = x.is_int_storage()
                                  ? x.permute(r.perm.empty() ? Dims{} : r.perm).int_values()
                                  : std::vector<int64_t>{};
  for (int64_t row = 0; row < r.rows; ++row) {
    const double* v = r.values.data() + row * r.len;
    int64_t best = 0;
    for (int64_t j = 1; j < r.len && !std::isnan(v[best]); ++j)
      if (v[j] < v[best] || std::isnan(v[j]) ||
          (!ints.empty() && ints[static_cast<size_t>(row * r.len + j)] <
                                ints[static_cast<size_t>(row * r.len + best)]))
        best = j;
    idx[static_cast<size_t>(row)] = best;
    if (ints.empty()) {
      values.set_flat(row, v[best]);
    } else {
      values.set_flat_int(row, ints[static_cast<size_t>(row * r.len + best)]);
    }
  }
  return RuntimeValue(
      std::vector<RuntimeValue>{values, Tensor::from_ints(DType::Int64, out_shape, idx)});
}

// ---- indexing and layout -------------------------------------------------------------

// self with the slices `index` along `dim` set to `value` (a Scalar or a
// 0-dim tensor); negative indices count from the end. Any integer index dtype is read as
// positions (torch's meta accepts every dtype, its kernels int64 only); a bool or float
// index has no meaning to model: the node is then an uninterpreted function.
RuntimeValue index_fill(const KernelCall& c) {
  Tensor out = c.tensor("self").clone();
  Tensor index = c.tensor("index");
  if (!dtype_is_integral(index.dtype()))
    throw UnsupportedConfig(
        fmt::format("index_fill with a {} index", dtype_torch_name(index.dtype())));
  if (index.rank() > 1) c.fail("index must be 0-D or 1-D");
  RuntimeValue value = c.value("value");
  if (value.is_tensor() && value.tensor().rank() != 0) c.fail("value must be a 0-dim tensor");
  double v = c.double_arg("value");
  int64_t dim = wrap(c, c.int_arg("dim"), out.rank());
  int64_t size = out.rank() == 0 ? 1 : out.size(static_cast<int>(dim));
  for (int64_t i : index.int_values()) {
    if (i < -size || i >= size)
      c.fail(fmt::format("index {} is out of range for dim {} of size {}", i, dim, size));
    if (i < 0) i += size;
    Tensor slot = out.rank() == 0 ? out : out.select(dim, i);
    slot.copy_from(Tensor::scalar(out.dtype(), v));
  }
  return RuntimeValue(out);
}

// Each element (dim None: of the flattened input) or slice along dim
// repeated `repeats` times in place.
RuntimeValue repeat_interleave_self_int(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t reps = c.int_arg("repeats");
  if (reps < 0) c.fail(fmt::format("repeats must be non-negative, got {}", reps));
  std::optional<int64_t> dim_arg = c.opt_int("dim");
  if (!dim_arg || x.rank() == 0) x = x.reshape({-1});
  int64_t dim = dim_arg ? wrap(c, *dim_arg, x.rank()) : 0;
  Dims shape = x.shape();
  shape[static_cast<size_t>(dim)] *= reps;
  if (std::optional<int64_t> size = c.opt_int("output_size");
      size && *size != shape[static_cast<size_t>(dim)])
    c.fail(fmt::format("output_size {} differs from the repeated size {}", *size,
                       shape[static_cast<size_t>(dim)]));
  Tensor out = Tensor::zeros(x.dtype(), shape);
  for (int64_t j = 0; j < shape[static_cast<size_t>(dim)]; ++j)
    out.select(dim, j).copy_from(x.select(dim, j / reps));
  return RuntimeValue(out);
}

// A tensor of x's shape whose element at index i is x at source(i).
template <typename F>
Tensor gather_by(const Tensor& x, F source) {
  int64_t n = x.numel();
  if (x.is_int_storage()) {
    std::vector<int64_t> v = x.int_values(), out(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      Dims idx = unravel(i, x.shape());
      source(idx);
      out[static_cast<size_t>(i)] = v[static_cast<size_t>(ravel(idx, x.shape()))];
    }
    return Tensor::from_ints(x.dtype(), x.shape(), out);
  }
  std::vector<double> v = x.values(), out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    Dims idx = unravel(i, x.shape());
    source(idx);
    out[static_cast<size_t>(i)] = v[static_cast<size_t>(ravel(idx, x.shape()))];
  }
  return Tensor::from_values(x.dtype(), x.shape(), out);
}

RuntimeValue flip(const KernelCall& c) {
  Tensor x = c.tensor("self");
  std::vector<bool> flipped(static_cast<size_t>(x.rank()), false);
  for (int64_t d : c.int_list("dims")) {
    int64_t w = wrap(c, d, x.rank(), "dims");
    if (x.rank() == 0) continue;
    if (flipped[static_cast<size_t>(w)]) c.fail(fmt::format("dim {} appears twice in dims", w));
    flipped[static_cast<size_t>(w)] = true;
  }
  return RuntimeValue(gather_by(x, [&](Dims& idx) {
    for (size_t d = 0; d < idx.size(); ++d)
      if (flipped[d]) idx[d] = x.shape()[d] - 1 - idx[d];
  }));
}

// Elements shifted by `shifts` along `dims` with wrap-around; no dims:
// along the flattened tensor.
RuntimeValue roll(const KernelCall& c) {
  Tensor x = c.tensor("self");
  std::vector<int64_t> shifts = c.int_list("shifts"), dims = c.int_list("dims");
  if (dims.empty()) {
    if (shifts.size() != 1) c.fail("roll without dims takes exactly one shift");
    Tensor flat = x.reshape({-1});
    Tensor rolled = gather_by(flat, [&](Dims& idx) {
      int64_t n = flat.numel();
      idx[0] = ((idx[0] - shifts[0]) % n + n) % n;
    });
    return RuntimeValue(rolled.reshape(x.shape()));
  }
  if (shifts.size() != dims.size()) c.fail("roll needs one shift per dim");
  std::vector<int64_t> total(static_cast<size_t>(x.rank()), 0);
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t w = wrap(c, dims[k], x.rank(), "dims");
    if (x.rank() > 0) total[static_cast<size_t>(w)] += shifts[k];
  }
  return RuntimeValue(gather_by(x, [&](Dims& idx) {
    for (size_t d = 0; d < idx.size(); ++d) {
      int64_t n = x.shape()[d];
      idx[d] = ((idx[d] - total[d]) % n + n) % n;
    }
  }));
}

RuntimeValue new_empty_strided(const KernelCall& c) {
  Tensor x = c.tensor("self");
  DType d = c.opt_dtype("dtype").value_or(x.dtype());
  return RuntimeValue(Tensor::zeros(d, c.int_list("size")));
}

// ---- group norm ---------------------------------------------------------------------

struct GroupNorm {
  Tensor output, mean, rstd;
};

// input [N, C, *] normalized per (sample, group of C / groups channels):
// y = (x - mean) * rstd * weight[c] + bias[c], rstd = 1 / sqrt(biased var + eps).
GroupNorm group_norm(const KernelCall& c, int64_t n, int64_t channels, int64_t hw, int64_t groups) {
  Tensor x = c.tensor("input");
  if (!dtype_is_floating(x.dtype())) c.fail("group_norm needs a floating point input");
  if (groups <= 0 || channels % groups != 0)
    c.fail(fmt::format("{} channels are not divisible into {} groups", channels, groups));
  if (n * channels * hw != x.numel())
    c.fail(fmt::format("N * C * HxW = {} * {} * {} does not match the input {}", n, channels, hw,
                       x.describe()));
  std::optional<Tensor> weight = c.opt_tensor("weight"), bias = c.opt_tensor("bias");
  std::vector<double> w =
      weight ? weight->values() : std::vector<double>(static_cast<size_t>(channels), 1.0);
  std::vector<double> b =
      bias ? bias->values() : std::vector<double>(static_cast<size_t>(channels), 0.0);
  if (static_cast<int64_t>(w.size()) != channels || static_cast<int64_t>(b.size()) != channels)
    c.fail(fmt::format("weight and bias must have C = {} elements", channels));
  std::vector<double> xv = x.values(), y(xv.size()), mean(static_cast<size_t>(n * groups)),
                      rstd(mean.size());
  double eps = c.double_arg("eps");
  int64_t per_group = channels / groups * hw;
  for (int64_t g = 0; g < n * groups; ++g) {
    const double* v = xv.data() + g * per_group;
    double sum = 0, sq = 0;
    for (int64_t j = 0; j < per_group; ++j) sum += v[j];
    double mu = per_group == 0 ? 0.0 : sum / static_cast<double>(per_group);
    for (int64_t j = 0; j < per_group; ++j) sq += (v[j] - mu) * (v[j] - mu);
    double rs = 1.0 / std::sqrt((per_group == 0 ? 0.0 : sq / static_cast<double>(per_group)) + eps);
    for (int64_t j = 0; j < per_group; ++j) {
      int64_t ch = (g % groups) * (channels / groups) + j / hw;
      y[static_cast<size_t>(g * per_group + j)] =
          (v[j] - mu) * rs * w[static_cast<size_t>(ch)] + b[static_cast<size_t>(ch)];
    }
    mean[static_cast<size_t>(g)] = mu;
    rstd[static_cast<size_t>(g)] = rs;
  }
  return {Tensor::from_values(x.dtype(), x.shape(), y),
          Tensor::from_values(x.dtype(), {n, groups}, mean),
          Tensor::from_values(x.dtype(), {n, groups}, rstd)};
}

RuntimeValue native_group_norm(const KernelCall& c) {
  GroupNorm r = group_norm(c, c.int_arg("N"), c.int_arg("C"), c.int_arg("HxW"), c.int_arg("group"));
  return RuntimeValue(std::vector<RuntimeValue>{r.output, r.mean, r.rstd});
}

RuntimeValue group_norm_op(const KernelCall& c) {
  Tensor x = c.tensor("input");
  if (x.rank() < 2) c.fail("group_norm needs an input of rank >= 2 [N, C, ...]");
  int64_t n = x.size(0), channels = x.size(1);
  int64_t hw = n * channels == 0 ? 0 : x.numel() / (n * channels);
  return RuntimeValue(group_norm(c, n, channels, hw, c.int_arg("num_groups")).output);
}

// ---- elementwise --------------------------------------------------------------------

// Unary float op on a floating input (float_only) or an integer one (promoted to
// float32). `make(call)` reads the op's scalar arguments once and returns the per-element
// function. float_only ops on integer or bool inputs: torch's meta types them (self's
// dtype) but its CPU and CUDA kernels refuse them, so there is no reference semantics to
// compute: the node is an uninterpreted function (UnsupportedConfig), compared
// structurally by a check rather than failing it.
template <typename Make>
Kernel unary_float(bool float_only, Make make) {
  return [float_only, make](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (float_only && !dtype_is_floating(x.dtype()))
      throw UnsupportedConfig(fmt::format("{} of a {} tensor", c.schema().qualified_name(),
                                          dtype_torch_name(x.dtype())));
    DType out = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Float32;
    auto f = make(c);
    std::vector<double> v = x.values();
    return RuntimeValue(
        make_tensor(out, x.shape(), [&](int64_t i) { return f(v[static_cast<size_t>(i)]); }));
  };
}

double softplus(double x, double beta, double threshold) {
  return x * beta > threshold ? x : std::log1p(std::exp(x * beta)) / beta;
}

// erf⁻¹: Giles' single-precision approximation ("Approximating the erfinv
// function", 2010) refined by Newton steps on erf(y) = x to double precision.
double erfinv(double x) {
  if (std::isnan(x) || x < -1 || x > 1) return NAN;
  if (x == 1) return kInf;
  if (x == -1) return -kInf;
  double w = -std::log((1.0 - x) * (1.0 + x)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double k : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = k + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    for (double k : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      p = k + p * w;
  }
  double y = p * x;
  for (int i = 0; i < 3; ++i) {
    double slope = 2.0 / std::sqrt(std::numbers::pi) * std::exp(-y * y);
    if (slope == 0) break;
    y -= (std::erf(y) - x) / slope;
  }
  return y;
}

RuntimeValue sign(const KernelCall& c) {
  Tensor x = c.tensor("self");
  if (x.dtype() == DType::Bool) return RuntimeValue(x.clone());
  if (x.is_int_storage()) {
    std::vector<int64_t> v = x.int_values();
    for (int64_t& e : v) e = (e > 0) - (e < 0);
    return RuntimeValue(Tensor::from_ints(x.dtype(), x.shape(), v));
  }
  std::vector<double> v = x.values();
  // torch's CPU kernel: sign(NaN) is 0.
  return RuntimeValue(make_tensor(x.dtype(), x.shape(), [&](int64_t i) {
    double e = v[static_cast<size_t>(i)];
    return static_cast<double>((e > 0) - (e < 0));
  }));
}

RuntimeValue atan2(const KernelCall& c) {
  Tensor a = c.tensor("self"), b = c.tensor("other");
  DType d = result_type({to_operand(a), to_operand(b)});
  if (!dtype_is_floating(d)) d = DType::Float32;
  Dims shape = broadcast_shapes(a.shape(), b.shape());
  std::vector<double> av = a.expand(shape).values(), bv = b.expand(shape).values();
  return RuntimeValue(make_tensor(d, shape, [&](int64_t i) {
    return std::atan2(av[static_cast<size_t>(i)], bv[static_cast<size_t>(i)]);
  }));
}

// vllm.muls_add(x, y, scale) = x * scale + y. vllm-ascend's Triton kernel
// (MulsAddFusionPass) loads both in fp32, computes in fp32 and stores once.
// Under reference numerics the product is stored in x's dtype first, as the
// unfused aten.mul(x, scale) does (the scalar at opmath precision, like
// kernels_elementwise), so the fused call agrees bit for bit with the chain.
RuntimeValue muls_add(const KernelCall& c) {
  Tensor x = c.tensor("x"), y = c.tensor("y");
  DType d = result_type({to_operand(x), to_operand(y)});
  double scale = cast_double(c.double_arg("scale"), opmath_dtype(x.dtype()));
  Dims shape = broadcast_shapes(x.shape(), y.shape());
  std::vector<double> xv = x.expand(shape).values(), yv = y.expand(shape).values();
  std::vector<double> prod(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) prod[i] = xv[i] * scale;
  bool unfused = c.round_like_unfused();
  if (unfused) prod = Tensor::from_values(x.dtype(), shape, prod).values();
  return RuntimeValue(make_tensor(d, shape, [&](int64_t i) {
    auto k = static_cast<size_t>(i);
    if (unfused) return prod[k] + yv[k];
    return cast_double(cast_double(prod[k], DType::Float32) + yv[k], DType::Float32);
  }));
}

}  // namespace

void register_llm_kernels(KernelTable& t) {
  t["aten::_assert_tensor_metadata"] = assert_tensor_metadata;
  t["aten::_assert_scalar"] = assert_scalar;
  t["aten::sym_constrain_range"] = [](const KernelCall& c) { return constrain_range(c, false); };
  t["aten::sym_constrain_range_for_size"] = [](const KernelCall& c) {
    return constrain_range(c, true);
  };
  t["aten::_local_scalar_dense"] = local_scalar_dense;
  t["aten::nonzero"] = nonzero;
  t["aten::nonzero_static"] = nonzero_static;
  t["aten::repeat_interleave.Tensor"] = repeat_interleave_tensor;
  t["aten::repeat_interleave.self_int"] = repeat_interleave_self_int;
  t["aten::_safe_softmax"] = safe_softmax;
  t["aten::logsumexp"] = logsumexp;
  t["aten::min.dim"] = min_dim;
  t["aten::new_empty_strided"] = new_empty_strided;
  t["aten::index_fill"] = index_fill;
  t["aten::flip"] = flip;
  t["aten::roll"] = roll;
  t["aten::native_group_norm"] = native_group_norm;
  t["aten::group_norm"] = group_norm_op;
  t["aten::sign"] = sign;
  t["aten::atan2"] = atan2;
  t["vllm::muls_add"] = muls_add;
  t["aten::leaky_relu"] = unary_float(true, [](const KernelCall& c) {
    double slope = c.double_arg("negative_slope");
    return [slope](double x) { return x > 0 ? x : x * slope; };
  });
  t["aten::elu"] = unary_float(true, [](const KernelCall& c) {
    double alpha = c.double_arg("alpha"), scale = c.double_arg("scale"),
           input_scale = c.double_arg("input_scale");
    return
        [=](double x) { return x > 0 ? scale * x : scale * alpha * std::expm1(x * input_scale); };
  });
  t["aten::softplus"] = unary_float(true, [](const KernelCall& c) {
    double beta = c.double_arg("beta"), threshold = c.double_arg("threshold");
    return [=](double x) { return softplus(x, beta, threshold); };
  });
  t["aten::hardswish"] = unary_float(true, [](const KernelCall&) {
    return [](double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; };
  });
  t["aten::hardsigmoid"] = unary_float(true, [](const KernelCall&) {
    return [](double x) { return std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; };
  });
  t["aten::mish"] = unary_float(true, [](const KernelCall&) {
    return [](double x) { return x * std::tanh(softplus(x, 1.0, 20.0)); };
  });
  t["aten::erfinv"] = unary_float(false, [](const KernelCall&) { return erfinv; });
}

}  // namespace eqfuse
