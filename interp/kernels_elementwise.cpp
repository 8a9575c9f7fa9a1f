// Elementwise kernels: arithmetic with torch type promotion and
// broadcasting, activations, comparisons, casts, copies and creation ops.
// Inputs are read exactly, computed in double (at least fp32 "opmath"
// precision) and rounded once to the output dtype when stored.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>

#include "interp/float16.hpp"
#include "interp/kernels.hpp"
#include "interp/tensor_loops.hpp"

namespace eqfuse {
namespace {

enum class ResultKind { Promoted, FloatResult, BoolResult };

// An operand of the elementwise loop: a (broadcast) view of a tensor
// holding values already converted to the compute dtype, or a Python scalar.
template <typename T>
struct LoopOperand {
  Tensor view;  // undefined for a scalar
  T scalar{};
  Dims strides;
  int64_t offset = 0;
};

// The operand's values in the compute dtype, exactly as the per-element
// cast_double(get_flat) / cast_int(get_flat_int) of the reference path:
// values stored in `compute` already are (rounding and wrapping are
// idempotent), other dtypes are converted once, not once per use.
Tensor in_compute_dtype(const Tensor& t, DType compute) {
  if (t.dtype() == compute) return t;
  if (!dtype_stored_as_int(compute) || t.is_int_storage()) return t.to(compute);
  // float -> integer compute: truncate to int64 first, then wrap (cast_int).
  std::vector<int64_t> v = t.int_values();
  for (int64_t& x : v) x = cast_int(x, compute);
  return Tensor::from_ints(compute, t.shape(), v);
}

template <typename T, size_t K>
std::array<LoopOperand<T>, K> loop_operands(const std::array<Operand, K>& ops, DType compute,
                                            const Dims& shape) {
  std::array<LoopOperand<T>, K> out;
  for (size_t k = 0; k < K; ++k) {
    LoopOperand<T>& o = out[k];
    if (!ops[k].tensor) {
      if constexpr (std::is_same_v<T, double>) {
        // Python scalars enter the computation at opmath precision.
        o.scalar = cast_double(ops[k].number, opmath_dtype(compute));
      } else {
        o.scalar = cast_int(ops[k].int_number, compute);
      }
      o.strides.assign(shape.size(), 0);
      continue;
    }
    o.view = in_compute_dtype(*ops[k].tensor, compute).expand(shape);
    o.view.check_in_bounds();
    o.strides = o.view.strides();
    o.offset = o.view.offset();
  }
  return out;
}

// Elements per chunk: operands are decoded from storage and results encoded
// into it a chunk at a time (one dispatch on the storage kind per chunk).
constexpr int64_t kChunk = 256;

// Evaluates `f` over every element of `shape` in row-major order, handing it
// the K operand values, and writes its results (Out: double or int64) into
// the fresh contiguous `result`, rounded/cast to its dtype.
template <typename Out, typename T, size_t K, typename F>
void fill_elementwise(const std::array<LoopOperand<T>, K>& ops, const Dims& shape, Tensor& result,
                      F&& f) {
  std::array<const Dims*, K> strides;
  std::array<int64_t, K> offsets;
  for (size_t k = 0; k < K; ++k) {
    strides[k] = &ops[k].strides;
    offsets[k] = ops[k].offset;
  }
  std::array<std::array<T, kChunk>, K> in;
  std::array<Out, kChunk> out;
  for (size_t k = 0; k < K; ++k) {
    if (!ops[k].view.defined()) in[k].fill(ops[k].scalar);
  }
  int64_t flat = 0;
  for_each_row<K>(shape, strides, offsets, [&](int64_t len, const auto& base, const auto& step) {
    for (int64_t t0 = 0; t0 < len; t0 += kChunk) {
      const int64_t n = std::min(kChunk, len - t0);
      for (size_t k = 0; k < K; ++k) {
        if (ops[k].view.defined())
          ops[k].view.read_storage_run(base[k] + t0 * step[k], step[k], n, in[k].data());
      }
      for (int64_t t = 0; t < n; ++t) {
        std::array<T, K> v;
        for (size_t k = 0; k < K; ++k) v[k] = in[k][static_cast<size_t>(t)];
        out[static_cast<size_t>(t)] = f(v);
      }
      result.write_contiguous_run(flat, std::span<const Out>(out.data(), static_cast<size_t>(n)));
      flat += n;
    }
  });
}

// Evaluates f over broadcast operands. `compute` is the dtype operands are
// converted to; integral compute dtypes use `fi` on exact int64 values.
// Each result is rounded/cast once to `out` (a fresh contiguous tensor).
template <size_t K, typename FF, typename FI>
Tensor elementwise(const std::array<Operand, K>& ops, DType compute, DType out, FF ff, FI fi) {
  Dims shape;
  for (const Operand& op : ops) {
    if (op.tensor) shape = broadcast_shapes(shape, op.tensor->shape());
  }
  Tensor result = Tensor::zeros(out, shape);
  if (result.numel() == 0) return result;
  if (dtype_stored_as_int(compute)) {
    auto src = loop_operands<int64_t>(ops, compute, shape);
    fill_elementwise<int64_t>(src, shape, result, [&](const auto& v) { return fi(v); });
  } else {
    auto src = loop_operands<double>(ops, compute, shape);
    fill_elementwise<double>(src, shape, result, [&](const auto& v) { return ff(v); });
  }
  return result;
}

template <size_t K>
DType result_type_of(const std::array<Operand, K>& ops) {
  return result_type(std::vector<Operand>(ops.begin(), ops.end()));
}

template <size_t K, typename FF, typename FI>
RuntimeValue apply(const std::array<Operand, K>& ops, ResultKind kind, FF ff, FI fi) {
  DType promoted = result_type_of(ops);
  DType compute = promoted;
  DType out = promoted;
  if (kind == ResultKind::FloatResult && !dtype_is_floating(promoted)) {
    compute = out = DType::Float32;
  }
  if (kind == ResultKind::BoolResult) out = DType::Bool;
  if (compute == DType::Bool && kind != ResultKind::BoolResult) {
    // Arithmetic on bools runs on 0/1 integers, then casts back to bool.
    compute = DType::Int64;
  }
  return elementwise(ops, compute, out, ff, fi);
}

template <size_t K>
std::array<Operand, K> operands(const KernelCall& c, const char* const (&names)[K]) {
  std::array<Operand, K> ops;
  for (size_t k = 0; k < K; ++k) ops[k] = to_operand(c.value(names[k]));
  return ops;
}

// Scalar `alpha` (add/sub) at the precision of the computation.
struct Alpha {
  double f = 1;
  int64_t i = 1;
};
Alpha alpha_of(const KernelCall& c) {
  if (c.is_none("alpha")) return {};
  RuntimeValue v = c.value("alpha");
  Operand op = to_operand(v);
  return {op.number, op.int_number};
}

int64_t int_pow(int64_t base, int64_t exp) {
  if (exp < 0) {
    if (base == 1) return 1;
    if (base == -1) return exp % 2 == 0 ? 1 : -1;
    throw std::invalid_argument("integers to negative integer powers are not allowed");
  }
  uint64_t result = 1, b = static_cast<uint64_t>(base);  // wrapping multiply, as torch
  while (exp > 0) {
    if (exp & 1) result *= b;
    b *= b;
    exp >>= 1;
  }
  return static_cast<int64_t>(result);
}

int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0) throw std::invalid_argument("integer division by zero");
  // INT64_MIN / -1 overflows (undefined in C++); torch wraps.
  if (b == -1) return static_cast<int64_t>(uint64_t{0} - static_cast<uint64_t>(a));
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// torch's div_floor_floating: floor((a - fmod(a, b)) / b) with a correction
// for rounding, so 1 // 0.1 is 9 (not floor(1 / 0.1) = 10) and a zero
// quotient keeps the sign of a / b; b == 0 gives IEEE a / b.
double floor_div(double a, double b) {
  if (b == 0) return a / b;
  double mod = std::fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0 && (b < 0) != (mod < 0)) div -= 1;
  if (div == 0) return std::copysign(0.0, a / b);
  double q = std::floor(div);
  return div - q > 0.5 ? q + 1 : q;
}

// Python's `%`: the remainder takes the sign of the divisor (torch.remainder).
double py_remainder(double a, double b) {
  double mod = std::fmod(a, b);
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

int64_t py_remainder(int64_t a, int64_t b) {
  if (b == 0) throw std::invalid_argument("integer division by zero");
  if (b == -1) return 0;  // INT64_MIN % -1 overflows in C++
  int64_t mod = a % b;
  if (mod != 0 && (b < 0) != (mod < 0)) mod += b;
  return mod;
}

// add, sub, rsub, mul, div and pow in the promoted dtype (integer add, sub and mul wrap,
// as torch's do).
void register_arithmetic(KernelTable& t) {
  t["aten::add"] = [](const KernelCall& c) {
    Alpha al = alpha_of(c);
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [al](const auto& v) { return v[0] + al.f * v[1]; },
        [al](const auto& v) {
          return static_cast<int64_t>(static_cast<uint64_t>(v[0]) +
                                      static_cast<uint64_t>(al.i) * static_cast<uint64_t>(v[1]));
        });
  };
  t["aten::sub"] = [](const KernelCall& c) {
    Alpha al = alpha_of(c);
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [al](const auto& v) { return v[0] - al.f * v[1]; },
        [al](const auto& v) {
          return static_cast<int64_t>(static_cast<uint64_t>(v[0]) -
                                      static_cast<uint64_t>(al.i) * static_cast<uint64_t>(v[1]));
        });
  };
  t["aten::rsub"] = [](const KernelCall& c) {  // other - alpha * self
    Alpha al = alpha_of(c);
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [al](const auto& v) { return v[1] - al.f * v[0]; },
        [al](const auto& v) { return v[1] - al.i * v[0]; });
  };
  t["aten::mul"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [](const auto& v) { return v[0] * v[1]; },
        [](const auto& v) {
          return static_cast<int64_t>(static_cast<uint64_t>(v[0]) * static_cast<uint64_t>(v[1]));
        });
  };
  t["aten::div"] = [](const KernelCall& c) {
    std::string mode = c.is_none("rounding_mode") ? "" : c.str_arg("rounding_mode");
    auto ops = operands(c, {"self", "other"});
    if (mode.empty()) {
      return apply(
          ops, ResultKind::FloatResult, [](const auto& v) { return v[0] / v[1]; },
          [](const auto& v) { return v[0] / v[1]; });
    }
    bool floor = mode == "floor";
    if (!floor && mode != "trunc") c.fail(fmt::format("unknown rounding_mode '{}'", mode));
    return apply(
        ops, ResultKind::Promoted,
        [floor](const auto& v) { return floor ? floor_div(v[0], v[1]) : std::trunc(v[0] / v[1]); },
        [floor](const auto& v) {
          if (v[1] == 0) throw std::invalid_argument("integer division by zero");
          return floor ? floor_div(v[0], v[1]) : v[0] / v[1];
        });
  };
  t["aten::pow"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "exponent"}), ResultKind::Promoted,
        [](const auto& v) { return std::pow(v[0], v[1]); },
        [](const auto& v) { return int_pow(v[0], v[1]); });
  };
}

// maximum/minimum (NaN-propagating) and the comparisons, which yield bool tensors.
void register_min_max_and_comparisons(KernelTable& t) {
  t["aten::maximum"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [](const auto& v) {
          return std::isnan(v[0]) || std::isnan(v[1]) ? NAN : std::max(v[0], v[1]);
        },
        [](const auto& v) { return std::max(v[0], v[1]); });
  };
  t["aten::minimum"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [](const auto& v) {
          return std::isnan(v[0]) || std::isnan(v[1]) ? NAN : std::min(v[0], v[1]);
        },
        [](const auto& v) { return std::min(v[0], v[1]); });
  };
  auto comparison = [&t](const char* name, auto cmp) {
    t[name] = [cmp](const KernelCall& c) {
      return apply(
          operands(c, {"self", "other"}), ResultKind::BoolResult,
          [cmp](const auto& v) { return cmp(v[0], v[1]) ? 1.0 : 0.0; },
          [cmp](const auto& v) { return cmp(v[0], v[1]) ? int64_t{1} : int64_t{0}; });
    };
  };
  comparison("aten::eq", [](auto a, auto b) { return a == b; });
  comparison("aten::ne", [](auto a, auto b) { return a != b; });
  comparison("aten::lt", [](auto a, auto b) { return a < b; });
  comparison("aten::le", [](auto a, auto b) { return a <= b; });
  comparison("aten::gt", [](auto a, auto b) { return a > b; });
  comparison("aten::ge", [](auto a, auto b) { return a >= b; });
}

// masked_fill and where: each element chosen from one of two sources by a mask or condition.
void register_selection(KernelTable& t) {
  // Out of place, self and mask broadcast (ATen's masked_fill expands both).
  t["aten::masked_fill"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self"), mask = c.tensor("mask");
    double v = c.double_arg("value");
    Dims shape;
    try {
      shape = broadcast_shapes(x.shape(), mask.shape());
    } catch (const std::invalid_argument&) {
      c.fail(fmt::format("mask {} does not broadcast with self {}", mask.describe(), x.describe()));
    }
    std::vector<int64_t> m = mask.expand(shape).int_values();
    std::vector<double> xv = x.expand(shape).values();
    return RuntimeValue(make_tensor(x.dtype(), shape, [&](int64_t i) {
      size_t k = static_cast<size_t>(i);
      return m[k] != 0 ? v : xv[k];
    }));
  };
  t["aten::where"] = [](const KernelCall& c) {
    Tensor cond = c.tensor("condition");
    auto ops = operands(c, {"self", "other"});
    DType out = result_type_of(ops);
    Dims shape = cond.shape();
    for (const Operand& op : ops) {
      if (op.tensor) shape = broadcast_shapes(shape, op.tensor->shape());
    }
    Tensor cb = cond.expand(shape);
    std::array<Operand, 3> all = {Operand{cb}, ops[0], ops[1]};
    return RuntimeValue(elementwise(
        all, out, out, [&](const auto& v) { return v[0] != 0 ? v[1] : v[2]; },
        [&](const auto& v) { return v[0] != 0 ? v[1] : v[2]; }));
  };
}

void register_binary(KernelTable& t) {
  register_arithmetic(t);
  register_min_max_and_comparisons(t);
  register_selection(t);
}

// clamp(x, lo, hi) as torch: a NaN input stays NaN; a NaN bound makes NaN
// for clamp_min/clamp_max and the Tensor overloads, while clamp with Scalar
// bounds computes min(max(x, lo), hi), which ignores a NaN bound.
double clamp_value(double x, double lo, double hi, bool nan_bounds) {
  if (std::isnan(x)) return x;
  if (nan_bounds && (std::isnan(lo) || std::isnan(hi))) return NAN;
  return std::min(std::max(x, lo), hi);
}

// clamp / clamp.Tensor / clamp_min(.Tensor) / clamp_max(.Tensor): the
// bounds take part in type promotion and broadcasting, like torch.
RuntimeValue clamp(const KernelCall& c) {
  bool has_lo = c.has("min") && !c.is_none("min");
  bool has_hi = c.has("max") && !c.is_none("max");
  bool nan_bounds = !(c.schema().name == "clamp" && c.schema().overload.empty());
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (has_lo && has_hi) {
    return apply(
        operands(c, {"self", "min", "max"}), ResultKind::Promoted,
        [=](const auto& v) { return clamp_value(v[0], v[1], v[2], nan_bounds); },
        [](const auto& v) { return std::min(std::max(v[0], v[1]), v[2]); });
  }
  if (has_lo) {
    return apply(
        operands(c, {"self", "min"}), ResultKind::Promoted,
        [=](const auto& v) { return clamp_value(v[0], v[1], kInf, nan_bounds); },
        [](const auto& v) { return std::max(v[0], v[1]); });
  }
  if (!has_hi) c.fail("at least one of 'min' or 'max' must not be None");
  return apply(
      operands(c, {"self", "max"}), ResultKind::Promoted,
      [=](const auto& v) { return clamp_value(v[0], -kInf, v[1], nan_bounds); },
      [](const auto& v) { return std::min(v[0], v[1]); });
}

// Bitwise ops are defined on bool and integer dtypes; bools compute on 0/1. torch's meta
// types float operands too (its kernels refuse them): such a call is not modelled and
// becomes an uninterpreted function (UnsupportedConfig).
template <typename FI>
void bitwise(KernelTable& t, const char* name, FI fi) {
  t[name] = [fi, name](const KernelCall& c) {
    auto ops = operands(c, {"self", "other"});
    DType d = result_type_of(ops);
    if (dtype_is_floating(d))
      throw UnsupportedConfig(fmt::format("{} on {}", name, dtype_torch_name(d)));
    return apply(
        ops, ResultKind::Promoted, [](const auto&) { return 0.0; },
        [fi](const auto& v) { return fi(v[0], v[1]); });
  };
}

// Logical ops: any dtype, nonzero (NaN included) is true, the result is bool.
template <typename F>
void logical(KernelTable& t, const char* name, F f) {
  t[name] = [f](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::BoolResult,
        [f](const auto& v) { return f(v[0] != 0, v[1] != 0) ? 1.0 : 0.0; },
        [f](const auto& v) { return f(v[0] != 0, v[1] != 0) ? int64_t{1} : int64_t{0}; });
  };
}

// A bool per element of self (isnan, isinf, isfinite, logical_not); integer
// inputs are tested as their exact values.
template <typename P>
void predicate(KernelTable& t, const char* name, P p) {
  t[name] = [p](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::array<Operand, 1> ops = {Operand{x}};
    return RuntimeValue(elementwise(
        ops, x.dtype(), DType::Bool, [p](const auto& v) { return p(v[0]) ? 1.0 : 0.0; },
        [p](const auto& v) { return p(static_cast<double>(v[0])) ? int64_t{1} : int64_t{0}; }));
  };
}

void register_integer_and_logic(KernelTable& t) {
  t["aten::clamp"] = clamp;
  t["aten::clamp_min"] = clamp;
  t["aten::clamp_max"] = clamp;
  t["aten::remainder"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [](const auto& v) { return py_remainder(v[0], v[1]); },
        [](const auto& v) { return py_remainder(v[0], v[1]); });
  };
  t["aten::floor_divide"] = [](const KernelCall& c) {
    return apply(
        operands(c, {"self", "other"}), ResultKind::Promoted,
        [](const auto& v) { return floor_div(v[0], v[1]); },
        [](const auto& v) { return floor_div(v[0], v[1]); });
  };
  bitwise(t, "aten::bitwise_and", [](int64_t a, int64_t b) { return a & b; });
  bitwise(t, "aten::bitwise_or", [](int64_t a, int64_t b) { return a | b; });
  bitwise(t, "aten::bitwise_xor", [](int64_t a, int64_t b) { return a ^ b; });
  // ~ on bool is logical not; on integers it flips every bit (wrapped to the width).
  t["aten::bitwise_not"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (dtype_is_floating(x.dtype()))
      throw UnsupportedConfig(fmt::format("bitwise_not on {}", dtype_torch_name(x.dtype())));
    bool is_bool = x.dtype() == DType::Bool;
    std::array<Operand, 1> ops = {Operand{x}};
    return RuntimeValue(elementwise(
        ops, x.dtype(), x.dtype(), [](const auto&) { return 0.0; },
        [is_bool](const auto& v) { return is_bool ? int64_t{v[0] == 0 ? 1 : 0} : ~v[0]; }));
  };
  logical(t, "aten::logical_and", [](bool a, bool b) { return a && b; });
  logical(t, "aten::logical_or", [](bool a, bool b) { return a || b; });
  logical(t, "aten::logical_xor", [](bool a, bool b) { return a != b; });
  predicate(t, "aten::logical_not", [](double x) { return x == 0; });
  predicate(t, "aten::isnan", [](double x) { return std::isnan(x); });
  predicate(t, "aten::isinf", [](double x) { return std::isinf(x); });
  predicate(t, "aten::isfinite", [](double x) { return std::isfinite(x); });
  // masked_fill.Tensor: torch accepts only a 0-dim value tensor.
  t["aten::masked_fill.Tensor"] = [base = t.at("aten::masked_fill")](const KernelCall& c) {
    Tensor v = c.tensor("value");
    if (v.rank() != 0) c.fail(fmt::format("the value must be a 0-dim tensor, got {}-D", v.rank()));
    return base(c);
  };
}

double gelu(double x, bool tanh_approx) {
  if (tanh_approx) {
    double k = std::sqrt(2.0 / std::numbers::pi);
    return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
  }
  return 0.5 * x * (1.0 + std::erf(x / std::numbers::sqrt2));
}

double sigmoid(double x) {
  return 1.0 / (1.0 + std::exp(-x));
}

// Unary op; `float_only` ops turn integer inputs into float32 results. `f`
// is a template parameter so the element loop calls it directly.
template <typename F>
void unary(KernelTable& t, const char* name, bool float_only, F f,
           const std::function<int64_t(int64_t)>& fi = {}) {
  t[name] = [float_only, f, fi](const KernelCall& c) {
    Tensor x = c.tensor("self");
    bool to_float = float_only || !fi || x.dtype() == DType::Bool;
    DType out = to_float && !dtype_is_floating(x.dtype()) ? DType::Float32 : x.dtype();
    std::array<Operand, 1> ops = {Operand{x}};
    return RuntimeValue(elementwise(
        ops, out, out, [&](const auto& v) { return f(v[0]); },
        [&](const auto& v) { return fi(v[0]); }));
  };
}

void register_unary(KernelTable& t) {
  unary(
      t, "aten::neg", false, [](double x) { return -x; }, [](int64_t x) { return -x; });
  unary(
      t, "aten::abs", false, [](double x) { return std::fabs(x); },
      [](int64_t x) { return x < 0 ? -x : x; });
  unary(
      t, "aten::relu", false, [](double x) { return x > 0 ? x : (std::isnan(x) ? x : 0.0); },
      [](int64_t x) { return x > 0 ? x : 0; });
  // Rounding an integer changes nothing (torch.ceil/floor/round/trunc keep
  // integer dtypes). torch.round rounds half to even, like std::nearbyint in
  // the default rounding mode.
  unary(
      t, "aten::ceil", false, [](double x) { return std::ceil(x); }, [](int64_t x) { return x; });
  unary(
      t, "aten::floor", false, [](double x) { return std::floor(x); }, [](int64_t x) { return x; });
  unary(
      t, "aten::round", false, [](double x) { return std::nearbyint(x); },
      [](int64_t x) { return x; });
  unary(
      t, "aten::trunc", false, [](double x) { return std::trunc(x); }, [](int64_t x) { return x; });
  unary(t, "aten::rsqrt", true, [](double x) { return 1.0 / std::sqrt(x); });
  unary(t, "aten::sqrt", true, [](double x) { return std::sqrt(x); });
  unary(t, "aten::exp", true, [](double x) { return std::exp(x); });
  unary(t, "aten::log", true, [](double x) { return std::log(x); });
  unary(t, "aten::log1p", true, [](double x) { return std::log1p(x); });
  unary(t, "aten::expm1", true, [](double x) { return std::expm1(x); });
  unary(t, "aten::sin", true, [](double x) { return std::sin(x); });
  unary(t, "aten::cos", true, [](double x) { return std::cos(x); });
  unary(t, "aten::tanh", true, [](double x) { return std::tanh(x); });
  unary(t, "aten::reciprocal", true, [](double x) { return 1.0 / x; });
  unary(t, "aten::sigmoid", true, sigmoid);
  unary(t, "aten::erf", true, [](double x) { return std::erf(x); });
  // silu and gelu of an integer or bool tensor: torch's meta keeps its dtype, its CPU and
  // CUDA kernels refuse it; not modelled (an uninterpreted function).
  unary(t, "aten::silu", true, [](double x) { return x * sigmoid(x); });
  t["aten::silu"] = [float_silu = t.at("aten::silu")](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (!dtype_is_floating(x.dtype()))
      throw UnsupportedConfig(fmt::format("silu of a {} tensor", dtype_torch_name(x.dtype())));
    return float_silu(c);
  };
  t["aten::gelu"] = [](const KernelCall& c) {
    bool tanh_approx = !c.is_none("approximate") && c.str_arg("approximate") == "tanh";
    Tensor x = c.tensor("self");
    if (!dtype_is_floating(x.dtype()))
      throw UnsupportedConfig(fmt::format("gelu of a {} tensor", dtype_torch_name(x.dtype())));
    DType out = x.dtype();
    std::vector<double> xv = x.values();
    return RuntimeValue(make_tensor(
        out, x.shape(), [&](int64_t i) { return gelu(xv[static_cast<size_t>(i)], tanh_approx); }));
  };
}

// ---- casts and copies -------------------------------------------------------

void register_casts(KernelTable& t) {
  // _to_copy(self, *, dtype=None, layout, device, pin_memory, non_blocking, memory_format)
  t["aten::_to_copy"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    return RuntimeValue(x.to(c.opt_dtype("dtype").value_or(x.dtype())));
  };
  // to.dtype / to.dtype_layout / to.device / to.other: aliases self when
  // nothing changes and copy=False, like torch.
  t["aten::to"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = x.dtype();
    if (c.has("dtype") && !c.is_none("dtype")) d = *c.opt_dtype("dtype");
    if (c.has("other")) d = c.tensor("other").dtype();
    bool copy = c.has("copy") && !c.is_none("copy") && c.bool_arg("copy");
    if (d == x.dtype() && !copy) return RuntimeValue(x);
    return RuntimeValue(x.to(d));
  };
  t["aten::type_as"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    DType d = c.tensor("other").dtype();
    return d == x.dtype() ? RuntimeValue(x) : RuntimeValue(x.to(d));
  };
  t["prims::convert_element_type"] = [](const KernelCall& c) {
    std::string first = c.has("a") ? "a" : "self";
    return RuntimeValue(c.tensor(first).to(*c.opt_dtype("dtype")));
  };
  t["npu::_npu_dtype_cast"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").to(*c.opt_dtype("dtype")));
  };
  t["npu::npu_dtype_cast"] = t["npu::_npu_dtype_cast"];
  t["aten::clone"] = [](const KernelCall& c) { return RuntimeValue(c.tensor("self").clone()); };
  t["aten::lift_fresh_copy"] = t["aten::clone"];
  t["aten::alias_copy"] = t["aten::clone"];
  t["aten::alias"] = [](const KernelCall& c) { return RuntimeValue(c.tensor("self")); };
  t["aten::detach"] = t["aten::alias"];
  t["aten::copy_"] = [](const KernelCall& c) {
    Tensor self = c.tensor("self");
    self.copy_from(c.tensor("src"));
    return RuntimeValue(self);
  };
  // Functional copy: a fresh tensor shaped like self holding src.
  t["aten::copy"] = [](const KernelCall& c) {
    Tensor out = c.tensor("self").clone();
    out.copy_from(c.tensor("src"));
    return RuntimeValue(out);
  };
  t["aten::fill"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    double v = c.double_arg("value");
    return RuntimeValue(make_tensor(x.dtype(), x.shape(), [v](int64_t) { return v; }));
  };
}

// ---- creation -----------------------------------------------------------------

DType default_dtype_for(const RuntimeValue& v) {
  if (v.is_bool()) return DType::Bool;
  if (v.is_int()) return DType::Int64;
  return DType::Float32;
}

Tensor filled(DType d, const Dims& shape, double v) {
  return make_tensor(d, shape, [v](int64_t) { return v; });
}

// arange(end) / arange(start, end) / arange(start, end, step): int64 when
// every bound is an int, else float32; dtype= wins. Integer dtypes truncate
// the bounds first. Length ceil((end - start) / step); torch rejects a step
// whose sign disagrees with end - start.
RuntimeValue arange(const KernelCall& c) {
  bool all_int = true;
  for (const char* n : {"start", "end", "step"}) {
    if (c.has(n) && !c.value(n).is_int()) all_int = false;
  }
  DType d = c.opt_dtype("dtype").value_or(all_int ? DType::Int64 : DType::Float32);
  double start = c.has("start") ? c.double_arg("start") : 0.0;
  double end = c.double_arg("end");
  double step = c.has("step") ? c.double_arg("step") : 1.0;
  if (!dtype_is_floating(d)) {
    start = std::trunc(start), end = std::trunc(end), step = std::trunc(step);
  }
  if (step == 0) c.fail("arange step must be non-zero");
  if ((step > 0 && end < start) || (step < 0 && end > start))
    c.fail(
        fmt::format("bounds [{}, {}) are inconsistent with the sign of step {}", start, end, step));
  auto n = static_cast<int64_t>(std::ceil((end - start) / step));
  return RuntimeValue(
      make_tensor(d, {n}, [&](int64_t i) { return start + step * static_cast<double>(i); }));
}

// one_hot(self, num_classes=-1): int64 indices -> int64 rows of 0/1 along a
// new last dim; -1 uses max(self) + 1 classes.
RuntimeValue one_hot(const KernelCall& c) {
  Tensor x = c.tensor("self");
  if (x.dtype() != DType::Int64) c.fail("one_hot needs an int64 input");
  std::vector<int64_t> idx = x.int_values();
  int64_t classes = c.int_arg("num_classes");
  if (classes == -1) {
    if (idx.empty()) c.fail("cannot infer the number of classes from an empty tensor");
    classes = *std::max_element(idx.begin(), idx.end()) + 1;
  }
  if (classes < 0) c.fail(fmt::format("num_classes must be -1 or non-negative, got {}", classes));
  Dims shape = x.shape();
  shape.push_back(classes);
  std::vector<int64_t> out(static_cast<size_t>(checked_numel(shape)), 0);
  for (size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] < 0 || idx[i] >= classes)
      c.fail(fmt::format("class value {} is outside [0, {})", idx[i], classes));
    out[i * static_cast<size_t>(classes) + static_cast<size_t>(idx[i])] = 1;
  }
  return RuntimeValue(Tensor::from_ints(DType::Int64, shape, out));
}

void register_creation(KernelTable& t) {
  t["aten::full"] = [](const KernelCall& c) {
    RuntimeValue fill = c.value("fill_value");
    DType d = c.opt_dtype("dtype").value_or(default_dtype_for(fill));
    return RuntimeValue(filled(d, c.int_list("size"), c.double_arg("fill_value")));
  };
  auto constant = [&t](const char* name, double v) {
    t[name] = [v](const KernelCall& c) {
      return RuntimeValue(
          filled(c.opt_dtype("dtype").value_or(DType::Float32), c.int_list("size"), v));
    };
  };
  constant("aten::zeros", 0.0);
  constant("aten::ones", 1.0);
  // Uninitialized memory is modelled as zeros so runs stay deterministic.
  constant("aten::empty", 0.0);
  constant("aten::empty_strided", 0.0);
  auto like = [&t](const char* name, std::optional<double> v) {
    t[name] = [v](const KernelCall& c) {
      Tensor x = c.tensor("self");
      DType d = c.opt_dtype("dtype").value_or(x.dtype());
      double fill = v ? *v : c.double_arg("fill_value");
      return RuntimeValue(filled(d, x.shape(), fill));
    };
  };
  like("aten::zeros_like", 0.0);
  like("aten::ones_like", 1.0);
  like("aten::empty_like", 0.0);
  like("aten::full_like", std::nullopt);
  auto new_ = [&t](const char* name, std::optional<double> v) {
    t[name] = [v](const KernelCall& c) {
      Tensor x = c.tensor("self");
      DType d = c.opt_dtype("dtype").value_or(x.dtype());
      double fill = v ? *v : c.double_arg("fill_value");
      return RuntimeValue(filled(d, c.int_list("size"), fill));
    };
  };
  new_("aten::new_zeros", 0.0);
  new_("aten::new_ones", 1.0);
  new_("aten::new_empty", 0.0);
  new_("aten::new_full", std::nullopt);
  t["aten::scalar_tensor"] = [](const KernelCall& c) {
    DType d = c.opt_dtype("dtype").value_or(DType::Float32);
    return RuntimeValue(Tensor::scalar(d, c.double_arg("s")));
  };
  // prims.iota(length, *, start, step, dtype, device, requires_grad)
  t["prims::iota"] = [](const KernelCall& c) {
    int64_t start = c.int_arg("start"), step = c.int_arg("step");
    DType d = c.opt_dtype("dtype").value_or(DType::Int64);
    return RuntimeValue(make_tensor(d, {c.int_arg("length")}, [&](int64_t i) {
      return static_cast<double>(start + step * i);
    }));
  };
  // Stream scopes are markers without a value.
  t["air::scope_enter"] = [](const KernelCall&) { return RuntimeValue(); };
  t["air::scope_exit"] = [](const KernelCall&) { return RuntimeValue(); };
  t["aten::arange"] = arange;
  t["aten::one_hot"] = one_hot;
}

}  // namespace

void register_elementwise_kernels(KernelTable& table) {
  register_binary(table);
  register_integer_and_logic(table);
  register_unary(table);
  register_casts(table);
  register_creation(table);
}

}  // namespace eqfuse
