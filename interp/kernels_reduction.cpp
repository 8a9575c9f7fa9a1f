// Reductions (sum, mean, amax, amin, prod, any, all), cumsum, histc,
// softmax, the matmul family (mm, bmm, matmul, addmm, linear) and embedding.
// Accumulation is in double (int64 for integer sums); each result element is
// rounded once to the output dtype.
#include <algorithm>
#include <cmath>
#include <limits>

#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

enum class ReduceOp { Sum, Mean, Max, Min, Prod, Any, All };

// Output shape of a reduction over `mask` dims.
Dims reduced_shape(const Dims& shape, const std::vector<bool>& mask, bool keepdim) {
  Dims out;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (!mask[i]) {
      out.push_back(shape[i]);
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

// Permutation putting the kept dims first and the reduced dims last (each
// group in its original order): in the permuted view the inputs of output
// element o are the contiguous run [o * group, (o + 1) * group), visited in
// the same order as a row-major scan of the input, so sums add up in the
// same order as the element-by-element definition.
Dims kept_then_reduced(const std::vector<bool>& mask) {
  Dims perm;
  for (size_t i = 0; i < mask.size(); ++i) {
    if (!mask[i]) perm.push_back(static_cast<int64_t>(i));
  }
  for (size_t i = 0; i < mask.size(); ++i) {
    if (mask[i]) perm.push_back(static_cast<int64_t>(i));
  }
  return perm;
}

// any/all of a run as 0/1 (NaN is nonzero, so true); empty: any 0, all 1.
template <typename T>
T logical_run(const T* v, int64_t len, ReduceOp op) {
  bool any = op == ReduceOp::Any;
  for (int64_t j = 0; j < len; ++j) {
    if ((v[j] != 0) == any) return any ? T{1} : T{0};
  }
  return any ? T{0} : T{1};
}

// Reduces one run of int64 values exactly (int64 sums, first extremum wins,
// wrapping products as torch's int64 arithmetic).
int64_t reduce_int_run(const int64_t* v, int64_t len, ReduceOp op) {
  if (op == ReduceOp::Any || op == ReduceOp::All) return logical_run(v, len, op);
  if (op == ReduceOp::Prod) {
    uint64_t p = 1;
    for (int64_t j = 0; j < len; ++j) p *= static_cast<uint64_t>(v[j]);
    return static_cast<int64_t>(p);
  }
  int64_t acc = 0;
  for (int64_t j = 0; j < len; ++j) {
    if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
      acc += v[j];
    } else if (j == 0 || (op == ReduceOp::Max ? v[j] > acc : v[j] < acc)) {
      acc = v[j];
    }
  }
  return acc;
}

// Reduces one run of doubles in order; NaN propagates through max/min.
double reduce_float_run(const double* v, int64_t len, ReduceOp op) {
  if (op == ReduceOp::Any || op == ReduceOp::All) return logical_run(v, len, op);
  if (op == ReduceOp::Prod) {
    double p = 1;
    for (int64_t j = 0; j < len; ++j) p *= v[j];
    return p;
  }
  double acc = op == ReduceOp::Max   ? -std::numeric_limits<double>::infinity()
               : op == ReduceOp::Min ? std::numeric_limits<double>::infinity()
                                     : 0.0;
  for (int64_t j = 0; j < len; ++j) {
    if (op == ReduceOp::Sum || op == ReduceOp::Mean) {
      acc += v[j];
    } else if (std::isnan(v[j]) || std::isnan(acc)) {
      acc = NAN;
    } else {
      acc = op == ReduceOp::Max ? std::max(acc, v[j]) : std::min(acc, v[j]);
    }
  }
  if (op == ReduceOp::Mean) acc /= static_cast<double>(len);
  return acc;
}

Tensor reduce(const Tensor& x, const std::optional<std::vector<int64_t>>& dims, bool keepdim,
              ReduceOp op, DType out_dtype) {
  std::vector<bool> mask = reduction_mask(dims, x.rank());
  Dims out_shape = reduced_shape(x.shape(), mask, keepdim);
  int64_t out_n = shape_numel(out_shape);
  int64_t n = x.numel();
  bool exact_int = dtype_stored_as_int(out_dtype) && x.is_int_storage();
  int64_t group = out_n == 0 ? 0 : n / out_n;
  if ((op == ReduceOp::Max || op == ReduceOp::Min) && n == 0 && out_n > 0) {
    throw std::invalid_argument("max/min of an empty tensor");
  }
  Tensor moved = x.permute(kept_then_reduced(mask));
  Tensor out = Tensor::zeros(out_dtype, out_shape);
  if (exact_int) {
    std::vector<int64_t> v = moved.int_values();
    std::vector<int64_t> result(static_cast<size_t>(out_n));
    for (int64_t o = 0; o < out_n; ++o) {
      result[static_cast<size_t>(o)] = reduce_int_run(v.data() + o * group, group, op);
    }
    out.write_int_values(result);
  } else {
    std::vector<double> v = moved.values();
    std::vector<double> result(static_cast<size_t>(out_n));
    for (int64_t o = 0; o < out_n; ++o) {
      result[static_cast<size_t>(o)] = reduce_float_run(v.data() + o * group, group, op);
    }
    out.write_values(result);
  }
  return out;
}

std::optional<std::vector<int64_t>> dims_arg(const KernelCall& c) {
  if (!c.has("dim") || c.is_none("dim")) return std::nullopt;
  return c.int_list("dim");
}

bool keepdim_arg(const KernelCall& c) {
  return c.has("keepdim") && !c.is_none("keepdim") && c.bool_arg("keepdim");
}

std::optional<DType> dtype_arg(const KernelCall& c) {
  if (!c.has("dtype")) return std::nullopt;
  return c.opt_dtype("dtype");
}

Tensor softmax(const Tensor& x, int64_t dim, DType out_dtype, bool log) {
  dim = wrap_dim(dim, x.rank());
  Tensor out = Tensor::zeros(out_dtype, x.shape());
  if (x.rank() == 0) {
    out.set_flat(0, log ? 0.0 : 1.0);
    return out;
  }
  // Move `dim` last, then each row of the contiguous result is one softmax.
  Dims perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != dim) perm.push_back(i);
  }
  perm.push_back(dim);
  std::vector<double> v = x.permute(perm).values();
  std::vector<double> result(v.size());
  int64_t len = x.size(static_cast<int>(dim));
  int64_t rows = len == 0 ? 0 : x.numel() / len;
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = v.data() + r * len;
    double* res = result.data() + r * len;
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < len; ++j) mx = std::max(mx, row[j]);
    double sum = 0;
    for (int64_t j = 0; j < len; ++j) sum += std::exp(row[j] - mx);
    for (int64_t j = 0; j < len; ++j) {
      double z = row[j] - mx;
      res[j] = log ? z - std::log(sum) : std::exp(z) / sum;
    }
  }
  out.permute(perm).write_values(result);
  return out;
}

// Rows of `x` along `dim` (moved last), for reductions over one dim.
struct Rows {
  std::vector<double> values;  // x with dim moved last, row-major
  int64_t rows = 0, len = 0;
  Dims out_shape;  // reduced shape (keepdim honoured)
};
Rows rows_along(const Tensor& x, int64_t dim, bool keepdim) {
  Rows r;
  dim = wrap_dim(dim, x.rank());
  Dims perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != dim) perm.push_back(i);
  }
  if (x.rank() > 0) perm.push_back(dim);
  r.values = (x.rank() > 0 ? x.permute(perm) : x.reshape({1})).values();
  r.len = x.rank() > 0 ? x.size(static_cast<int>(dim)) : 1;
  r.rows = r.len == 0 ? 0 : x.numel() / r.len;
  r.out_shape = x.shape();
  if (x.rank() > 0) {
    if (keepdim) {
      r.out_shape[static_cast<size_t>(dim)] = 1;
    } else {
      r.out_shape.erase(r.out_shape.begin() + dim);
    }
  }
  return r;
}

// Index of the first maximum of each row (NaN counts as maximal).
std::vector<int64_t> argmax_rows(const Rows& r) {
  if (r.len == 0) throw std::invalid_argument("argmax of an empty dimension");
  std::vector<int64_t> idx(static_cast<size_t>(r.rows), 0);
  for (int64_t row = 0; row < r.rows; ++row) {
    const double* v_row = r.values.data() + row * r.len;
    double best = v_row[0];
    for (int64_t j = 1; j < r.len && !std::isnan(best); ++j) {
      double v = v_row[j];
      if (v > best || std::isnan(v)) {
        best = v;
        idx[static_cast<size_t>(row)] = j;
      }
    }
  }
  return idx;
}

DType float_or_default(DType d) {
  return dtype_is_floating(d) ? d : DType::Float32;
}

void register_reductions(KernelTable& t) {
  t["aten::sum"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType def = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
    return RuntimeValue(
        reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Sum, dtype_arg(c).value_or(def)));
  };
  t["aten::mean"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(x.dtype());
    if (!dtype_is_floating(d)) c.fail("mean needs a floating point input or dtype");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Mean, d));
  };
  t["aten::amax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Max, x.dtype()));
  };
  t["aten::amin"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Min, x.dtype()));
  };
  t["aten::max"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (!c.has("dim")) {
      return RuntimeValue(reduce(x, std::nullopt, false, ReduceOp::Max, x.dtype()));
    }
    Rows r = rows_along(x, c.int_arg("dim"), keepdim_arg(c));
    std::vector<int64_t> idx = argmax_rows(r);
    Tensor values = Tensor::zeros(x.dtype(), r.out_shape);
    Tensor indices = Tensor::zeros(DType::Int64, r.out_shape);
    for (int64_t row = 0; row < r.rows; ++row) {
      int64_t j = idx[static_cast<size_t>(row)];
      values.set_flat(row, r.values[static_cast<size_t>(row * r.len + j)]);
      indices.set_flat_int(row, j);
    }
    return RuntimeValue(std::vector<RuntimeValue>{values, indices});
  };
  t["aten::argmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::optional<int64_t> dim = c.opt_int("dim");
    bool keepdim = keepdim_arg(c);
    Rows r = dim ? rows_along(x, *dim, keepdim) : rows_along(x.reshape({-1}), 0, false);
    if (!dim && keepdim) r.out_shape = Dims(static_cast<size_t>(x.rank()), 1);
    std::vector<int64_t> idx = argmax_rows(r);
    return RuntimeValue(Tensor::from_ints(DType::Int64, r.out_shape, idx));
  };
  t["aten::var_mean"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::optional<std::vector<int64_t>> dims = dims_arg(c);
    bool keepdim = keepdim_arg(c);
    double correction =
        c.has("correction") && !c.is_none("correction") ? c.double_arg("correction") : 1.0;
    DType d = float_or_default(x.dtype());
    Tensor mean = reduce(x, dims, true, ReduceOp::Mean, DType::Float64);
    std::vector<double> xv = x.values();
    std::vector<double> mv = mean.expand(x.shape()).values();
    for (size_t i = 0; i < xv.size(); ++i) {
      double dv = xv[i] - mv[i];
      xv[i] = dv * dv;
    }
    Tensor centered = Tensor::from_values(DType::Float64, x.shape(), xv);
    Tensor ss = reduce(centered, dims, keepdim, ReduceOp::Sum, DType::Float64);
    int64_t group = ss.numel() == 0 ? 0 : x.numel() / ss.numel();
    double denom = std::max(0.0, static_cast<double>(group) - correction);
    Tensor var = make_tensor(d, ss.shape(), [&](int64_t i) { return ss.get_flat(i) / denom; });
    Tensor mean_out = reduce(x, dims, keepdim, ReduceOp::Mean, d);
    return RuntimeValue(std::vector<RuntimeValue>{var, mean_out});
  };
  t["aten::_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    bool half_to_float = c.bool_arg("half_to_float");
    DType d = half_to_float ? DType::Float32 : float_or_default(x.dtype());
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, false));
  };
  t["aten::softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(float_or_default(x.dtype()));
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, false));
  };
  t["aten::_log_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = c.bool_arg("half_to_float") ? DType::Float32 : float_or_default(x.dtype());
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, true));
  };
  t["aten::log_softmax"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = dtype_arg(c).value_or(float_or_default(x.dtype()));
    return RuntimeValue(softmax(x, c.int_arg("dim"), d, true));
  };
}

// cumsum along `dim` in `out` dtype (the input is cast first, as torch
// does): exact wrapping int64 sums for integers, running double sums
// rounded once per element for floats.
Tensor cumsum(const Tensor& x, int64_t dim, DType out) {
  Tensor in = x.dtype() == out ? x : x.to(out);
  if (x.rank() == 0) {
    wrap_dim(dim, 1);
    return in.clone();
  }
  Rows r = rows_along(in, dim, true);
  dim = wrap_dim(dim, x.rank());
  Dims perm;
  for (int64_t i = 0; i < x.rank(); ++i) {
    if (i != dim) perm.push_back(i);
  }
  perm.push_back(dim);
  Tensor result = Tensor::zeros(out, x.shape());
  if (in.is_int_storage()) {
    std::vector<int64_t> v = in.permute(perm).int_values();
    for (int64_t row = 0; row < r.rows; ++row) {
      uint64_t acc = 0;
      for (int64_t j = 0; j < r.len; ++j) {
        size_t k = static_cast<size_t>(row * r.len + j);
        acc += static_cast<uint64_t>(v[k]);
        v[k] = static_cast<int64_t>(acc);
      }
    }
    result.permute(perm).write_int_values(v);
    return result;
  }
  std::vector<double> v = r.values;
  for (int64_t row = 0; row < r.rows; ++row) {
    double acc = 0;
    for (int64_t j = 0; j < r.len; ++j) {
      size_t k = static_cast<size_t>(row * r.len + j);
      acc += v[k];
      v[k] = acc;
    }
  }
  result.permute(perm).write_values(v);
  return result;
}

// torch.linspace(lo, hi, bins + 1) in dtype `d`, every step rounded to `d`
// as torch computes it in that dtype (from both ends, meeting halfway).
std::vector<double> histc_edges(double lo, double hi, int64_t bins, DType d) {
  double step = cast_double(cast_double(hi - lo, d) / static_cast<double>(bins), d);
  int64_t halfway = (bins + 1) / 2;
  std::vector<double> edges(static_cast<size_t>(bins + 1));
  for (int64_t i = 0; i <= bins; ++i) {
    double offset = cast_double(step * static_cast<double>(i < halfway ? i : bins - i), d);
    edges[static_cast<size_t>(i)] = cast_double(i < halfway ? lo + offset : hi - offset, d);
  }
  return edges;
}

// A histc bound of an integer input: torch's CUDA kernel converts the Scalar to an integer
// (Scalar::to, a float truncates toward zero).
int64_t histc_int_bound(const KernelCall& c, std::string_view name) {
  RuntimeValue v = c.value(name);
  if (v.is_int()) return v.as_int();
  double d = c.double_arg(name);
  if (!(std::fabs(d) < 9.2e18)) c.fail(fmt::format("'{}' ({}) is not an int64 value", name, d));
  return static_cast<int64_t>(std::trunc(d));
}

// histc of an integer tensor, as torch's CUDA kernel counts it (_histc_cuda_template and
// getBin in aten/src/ATen/native/cuda/SummaryOps.cu; torch's CPU kernel refuses integers,
// torch_npu accepts them): min and max as integers, the data's range when they are equal,
// widened by 1 each side if still empty; an element v in [min, max] goes to bin
// (v - min) * bins / (max - min) in integer arithmetic, the last bin closed (bin == bins
// counts in bins - 1). The counts have self's dtype. With min = 0, max = E - 1 and
// bins = E (an MoE router's expert histogram) bin v counts the value v.
Tensor histc_integral(const KernelCall& c, const Tensor& x, int64_t bins) {
  int64_t lo = histc_int_bound(c, "min"), hi = histc_int_bound(c, "max");
  std::vector<int64_t> v = x.int_values();
  if (lo == hi && !v.empty()) {
    auto [mn, mx] = std::minmax_element(v.begin(), v.end());
    lo = *mn, hi = *mx;
  }
  if (lo == hi) {
    if (lo == std::numeric_limits<int64_t>::min() || hi == std::numeric_limits<int64_t>::max())
      c.fail("the range of histc cannot be widened past the int64 limits");
    lo -= 1, hi += 1;
  }
  if (lo > hi) c.fail("max must be larger than min");
  using u128 = unsigned __int128;
  const u128 span = static_cast<u128>(static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo));
  std::vector<int64_t> counts(static_cast<size_t>(bins), 0);
  for (int64_t e : v) {
    if (e < lo || e > hi) continue;
    u128 offset = static_cast<uint64_t>(e) - static_cast<uint64_t>(lo);
    auto bin = static_cast<int64_t>(offset * static_cast<u128>(bins) / span);
    counts[static_cast<size_t>(std::min(bin, bins - 1))] += 1;
  }
  return Tensor::from_ints(x.dtype(), {bins}, counts);
}

// histc(self, bins, min, max): counts of values in `bins` equal-width bins
// over [min, max] (the last bin closed); values outside and NaN are
// ignored. min == max uses the data's range, widened by 1 each side if
// still empty, like torch. An element's bin is the last edge <= it (torch
// finds it by interpolation, then a search among the neighbouring edges).
// Integer inputs are counted as torch's CUDA kernel counts them (histc_integral); bool
// and quantized inputs are not modelled: the node is then an uninterpreted function.
Tensor histc(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t bins = c.int_arg("bins");
  if (bins <= 0) c.fail(fmt::format("bins must be > 0, got {}", bins));
  if (dtype_is_integral(x.dtype())) return histc_integral(c, x, bins);
  if (!dtype_is_floating(x.dtype()))
    throw UnsupportedConfig(fmt::format("histc of a {} tensor", dtype_torch_name(x.dtype())));
  DType d = x.dtype();
  double lo = cast_double(c.double_arg("min"), d), hi = cast_double(c.double_arg("max"), d);
  std::vector<double> v = x.values();
  if (lo == hi && !v.empty()) {
    // The data's min and max; a NaN makes both NaN (then rejected), as in torch.
    lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (double e : v) {
      lo = std::isnan(e) || std::isnan(lo) ? NAN : std::min(lo, e);
      hi = std::isnan(e) || std::isnan(hi) ? NAN : std::max(hi, e);
    }
  }
  if (lo == hi) lo -= 1, hi += 1;
  if (!std::isfinite(lo) || !std::isfinite(hi))
    c.fail(fmt::format("range of [{}, {}] is not finite", lo, hi));
  if (lo > hi) c.fail("max must be larger than min");
  std::vector<double> edges = histc_edges(lo, hi, bins, d);
  std::vector<double> counts(static_cast<size_t>(bins), 0.0);
  for (double e : v) {
    if (!(e >= edges.front() && e <= edges.back())) continue;
    auto pos = std::upper_bound(edges.begin(), edges.end(), e) - edges.begin() - 1;
    counts[static_cast<size_t>(std::min<int64_t>(pos, bins - 1))] += 1;
  }
  return Tensor::from_values(d, {bins}, counts);
}

// prod, any and all (full or over one dim) and cumsum.
void register_products_and_scans(KernelTable& t) {
  t["aten::prod"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType def = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
    return RuntimeValue(
        reduce(x, dims_arg(c), keepdim_arg(c), ReduceOp::Prod, dtype_arg(c).value_or(def)));
  };
  // Bool results, except uint8 inputs, which keep uint8 like torch.
  auto logical = [&t](const char* name, ReduceOp op) {
    t[name] = [op](const KernelCall& c) {
      Tensor x = c.tensor("self");
      DType out = x.dtype() == DType::UInt8 ? DType::UInt8 : DType::Bool;
      return RuntimeValue(reduce(x, dims_arg(c), keepdim_arg(c), op, out));
    };
  };
  logical("aten::any", ReduceOp::Any);
  logical("aten::all", ReduceOp::All);
  t["aten::cumsum"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType def = dtype_is_floating(x.dtype()) ? x.dtype() : DType::Int64;
    return RuntimeValue(cumsum(x, c.int_arg("dim"), dtype_arg(c).value_or(def)));
  };
  t["aten::histc"] = [](const KernelCall& c) { return RuntimeValue(histc(c)); };
}

// Matmuls compute operands of one dtype. torch's meta types some mixed calls (mm and
// matmul/linear folded to mm take self's dtype, addmm promotes) that its kernels refuse;
// those are not modelled: the node is an uninterpreted function (UnsupportedConfig).
DType matmul_dtype(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype()) {
    throw UnsupportedConfig(fmt::format("matmul operands of different dtypes ({} and {})",
                                        dtype_code(a.dtype()), dtype_code(b.dtype())));
  }
  return a.dtype();
}

// addmm's self / linear's bias of another dtype than the product: torch's meta promotes
// (pw_cast_for_opmath), its kernels refuse; not modelled.
void check_bias_dtype(const Tensor& bias, DType product) {
  if (bias.dtype() != product)
    throw UnsupportedConfig(fmt::format("a {} bias added to a {} product", dtype_code(bias.dtype()),
                                        dtype_code(product)));
}

// torch.matmul: 1-D operands get a dim added (and removed from the result).
Tensor matmul(const Tensor& a, const Tensor& b) {
  DType d = matmul_dtype(a, b);
  if (a.rank() == 0 || b.rank() == 0) throw std::invalid_argument("matmul of a 0-dim tensor");
  Tensor a2 = a.rank() == 1 ? a.unsqueeze(0) : a;
  Tensor b2 = b.rank() == 1 ? b.unsqueeze(1) : b;
  Tensor r = batched_matmul(a2, b2, d);
  if (a.rank() == 1) r = r.squeeze(-2);
  if (b.rank() == 1) r = r.squeeze(-1);
  return r;
}

void register_matmul(KernelTable& t) {
  t["aten::mm"] = [](const KernelCall& c) {
    Tensor a = c.tensor("self"), b = c.tensor("mat2");
    if (a.rank() != 2 || b.rank() != 2) c.fail("mm expects 2-D tensors");
    return RuntimeValue(batched_matmul(a, b, matmul_dtype(a, b)));
  };
  t["aten::bmm"] = [](const KernelCall& c) {
    Tensor a = c.tensor("self"), b = c.tensor("mat2");
    if (a.rank() != 3 || b.rank() != 3 || a.size(0) != b.size(0)) {
      c.fail("bmm expects 3-D tensors with equal batch sizes");
    }
    return RuntimeValue(batched_matmul(a, b, matmul_dtype(a, b)));
  };
  t["aten::matmul"] = [](const KernelCall& c) {
    return RuntimeValue(matmul(c.tensor("self"), c.tensor("other")));
  };
  t["aten::addmm"] = [](const KernelCall& c) {
    Tensor self = c.tensor("self"), a = c.tensor("mat1"), b = c.tensor("mat2");
    DType d = matmul_dtype(a, b);
    check_bias_dtype(self, d);
    Tensor exact = batched_matmul(a, b, DType::Float64);
    double beta = c.has("beta") ? c.double_arg("beta") : 1.0;
    double alpha = c.has("alpha") ? c.double_arg("alpha") : 1.0;
    return RuntimeValue(add_scaled(self, beta, exact, alpha, d));
  };
  t["aten::linear"] = [](const KernelCall& c) {
    Tensor x = c.tensor("input"), w = c.tensor("weight");
    DType d = matmul_dtype(x, w);
    Tensor exact = matmul(x.to(DType::Float64), w.to(DType::Float64).transpose(-1, -2));
    if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
      check_bias_dtype(*bias, d);
      return RuntimeValue(add_scaled(*bias, 1.0, exact, 1.0, d));
    }
    return RuntimeValue(exact.to(d));
  };
}

void register_indexing(KernelTable& t) {
  // embedding(weight, indices, padding_idx, scale_grad_by_freq, sparse): weight[indices].
  t["aten::embedding"] = [](const KernelCall& c) {
    Tensor w = c.tensor("weight"), idx = c.tensor("indices");
    if (w.rank() != 2) c.fail("embedding weight must be 2-D");
    Dims shape = idx.shape();
    int64_t dim = w.size(1), rows = w.size(0);
    shape.push_back(dim);
    Tensor out = Tensor::zeros(w.dtype(), shape);
    std::vector<int64_t> ids = idx.int_values();
    for (size_t i = 0; i < ids.size(); ++i) {
      int64_t r = ids[i];
      if (r < 0 || r >= rows) {
        c.fail(fmt::format("embedding index {} out of range for {} rows", r, rows));
      }
      out.as_strided({dim}, {1}, static_cast<int64_t>(i) * dim).copy_from(w.select(0, r));
    }
    return RuntimeValue(out);
  };
}

}  // namespace

// beta * self + alpha * (m1 @ m2), summed before the single rounding.
Tensor add_scaled(const Tensor& base, double beta, const Tensor& product_exact, double alpha,
                  DType out) {
  std::vector<double> b = base.expand(product_exact.shape()).values();
  std::vector<double> p = product_exact.values();
  return make_tensor(out, product_exact.shape(), [&](int64_t i) {
    size_t k = static_cast<size_t>(i);
    double acc = alpha * p[k];
    return beta == 0.0 ? acc : acc + beta * b[k];
  });
}

void register_reduction_kernels(KernelTable& table) {
  register_reductions(table);
  register_products_and_scans(table);
  register_matmul(table);
  register_indexing(table);
}

}  // namespace eqfuse
