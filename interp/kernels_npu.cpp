// torch_npu ops with their documented math (docs/reference/torchair-passes.md §7).
// Fused ops are computed from their definition (x = x1 + x2, rstd, y,
// smooth, row max, scale, round) and never by calling the unfused kernels,
// so an equivalence check between fused and unfused graphs compares two
// independent implementations. Internal math is in double; outputs are
// rounded once at the op boundary. Quantization rounds half to even.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numbers>

#include "interp/float16.hpp"
#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

// ---- RMS norm core ------------------------------------------------------------

// x viewed as rows x cols, where cols = numel(gamma) (gamma = trailing dims).
struct RmsNormResult {
  std::vector<double> x;     // the normalized input (x1 + x2), unrounded but see below
  std::vector<double> y;     // x * rstd * gamma (+ beta), unrounded; under reference
                             // numerics x * rstd * gamma rounded as the chain rounds it
  std::vector<double> rstd;  // one per row
  int64_t rows = 0, cols = 0;
  Dims shape;       // x1's shape
  Dims rstd_shape;  // leading dims of x1, then 1s for gamma's dims
};

void check_trailing(const KernelCall& c, const Tensor& x, const Tensor& gamma) {
  bool ok = gamma.rank() >= 1 && gamma.rank() <= x.rank();
  for (int i = 1; ok && i <= gamma.rank(); ++i) ok = gamma.size(-i) == x.size(-i);
  if (!ok) {
    c.fail(fmt::format("gamma shape {} must equal the trailing dims of input shape {}",
                       dims_to_string(gamma.shape()), dims_to_string(x.shape())));
  }
}

// rstd = 1 / sqrt(mean(x^2) + eps) of one row, in double: the device's fp32
// accumulation, at least as precise.
double rms_norm_rstd_exact(const double* x, int64_t n, double eps) {
  double sum_sq = 0;
  for (int64_t j = 0; j < n; ++j) sum_sq += x[j] * x[j];
  return 1.0 / std::sqrt(sum_sq / static_cast<double>(n) + eps);
}

// The same rstd as the unfused chain computes it in eager PyTorch (LlamaRMSNorm,
// TorchAir's npu_rms_norm joint-graph pattern), op by op as this interpreter runs
// those aten ops: x upcast to fp32, x*x stored in fp32, their mean (summed in
// order, divided, stored in fp32), + eps (a Python scalar, so fp32 first),
// rsqrt stored in fp32.
double rms_norm_rstd_like_chain(const double* x, int64_t n, double eps) {
  constexpr DType f32 = DType::Float32;
  double sum_sq = 0;
  for (int64_t j = 0; j < n; ++j) sum_sq += cast_double(x[j] * x[j], f32);
  double mean = cast_double(sum_sq / static_cast<double>(n), f32);
  double var = cast_double(mean + cast_double(eps, f32), f32);
  return cast_double(1.0 / std::sqrt(var), f32);
}

RmsNormResult add_rms_norm_core(const KernelCall& c, const Tensor& x1,
                                const std::optional<Tensor>& x2, const Tensor& gamma, double eps,
                                const std::optional<Tensor>& beta) {
  check_trailing(c, x1, gamma);
  if (x2 && x2->shape() != x1.shape()) {
    c.fail(fmt::format("x1 {} and x2 {} must have the same shape", dims_to_string(x1.shape()),
                       dims_to_string(x2->shape())));
  }
  RmsNormResult r;
  r.shape = x1.shape();
  r.cols = gamma.numel();
  r.rows = r.cols == 0 ? 0 : x1.numel() / r.cols;
  r.rstd_shape = Dims(x1.shape().begin(), x1.shape().end() - gamma.rank());
  r.rstd_shape.resize(static_cast<size_t>(x1.rank()), 1);
  std::vector<double> g = gamma.values();
  std::vector<double> b = beta ? beta->expand(gamma.shape()).values() : std::vector<double>();
  r.x = x1.values();
  if (x2) {
    std::vector<double> v2 = x2->values();
    for (size_t i = 0; i < r.x.size(); ++i) r.x[i] += v2[i];
    // The device normalizes the fp32 sum; an unfused add hands the norm the
    // sum stored in x1's dtype (InterpreterOptions::round_like_unfused).
    if (c.round_like_unfused()) r.x = Tensor::from_values(x1.dtype(), r.shape, r.x).values();
  }
  r.y.resize(r.x.size());
  r.rstd.resize(static_cast<size_t>(r.rows));
  const bool chain = c.round_like_unfused();
  for (int64_t row = 0; row < r.rows; ++row) {
    const double* xr = &r.x[static_cast<size_t>(row * r.cols)];
    double rstd =
        chain ? rms_norm_rstd_like_chain(xr, r.cols, eps) : rms_norm_rstd_exact(xr, r.cols, eps);
    r.rstd[static_cast<size_t>(row)] = rstd;
    for (int64_t j = 0; j < r.cols; ++j) {
      double gj = g[static_cast<size_t>(j)];
      double y =
          chain
              ? cast_double(gj * cast_double(cast_double(xr[j] * rstd, DType::Float32), x1.dtype()),
                            x1.dtype())
              : xr[j] * rstd * gj;
      if (beta) y += b[static_cast<size_t>(j)];
      r.y[static_cast<size_t>(row * r.cols + j)] = y;
    }
  }
  return r;
}

Tensor from_doubles(DType d, const Dims& shape, const std::vector<double>& v) {
  return Tensor::from_values(d, shape, v);
}

// InterpreterOptions::round_like_unfused: y stored in x's dtype, as the
// unfused npu_add_rms_norm would hand it to the next op.
void round_y_like_unfused(const KernelCall& c, DType x_dtype, RmsNormResult& r) {
  if (c.round_like_unfused()) r.y = from_doubles(x_dtype, r.shape, r.y).values();
}

double epsilon_arg(const KernelCall& c, double fallback) {
  return c.has("epsilon") && !c.is_none("epsilon") ? c.double_arg("epsilon") : fallback;
}

// ---- add + layer norm -------------------------------------------------------

// npu_add_layer_norm's outputs, unrounded, with the dtypes and shapes
// op-plugin's AddLayerNormKernelNpuOpApi.cpp allocates: y and x in x1's dtype
// (fp32 when x1 and x2 differ), mean and rstd fp32 of x's leading dims then 1.
struct AddLayerNormResult {
  std::vector<double> x, y, mean, rstd;
  DType dtype = DType::Unknown;
  Dims shape, stats_shape;
};

std::vector<double> add_layer_norm_sum(const KernelCall& c, const Tensor& x1, const Tensor& x2,
                                       DType out) {
  if (x2.shape() != x1.shape()) {
    c.fail(fmt::format("x1 {} and x2 {} must have the same shape", dims_to_string(x1.shape()),
                       dims_to_string(x2.shape())));
  }
  std::vector<double> x = x1.values(), v2 = x2.values();
  for (size_t i = 0; i < x.size(); ++i) x[i] += v2[i];
  // The device adds in fp32 and normalizes that sum. The unfused chain's
  // aten.add stores the sum in its result dtype and layer norm reads it back
  // (InterpreterOptions::round_like_unfused), so round as the chain does.
  return Tensor::from_values(c.round_like_unfused() ? out : DType::Float32, x1.shape(), x).values();
}

// y = (x - mean) * rstd * gamma + beta over gamma's trailing dims, rstd =
// 1 / sqrt(biased var + eps): the same operations in the same order as the
// interpreter's aten.native_layer_norm (interp/kernels_nn.cpp), so the fused
// kernel under reference numerics equals the chain bit for bit.
AddLayerNormResult add_layer_norm_core(const KernelCall& c) {
  Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2"), gamma = c.tensor("gamma"),
         beta = c.tensor("beta");
  if (!dtype_is_floating(x1.dtype()) || !dtype_is_floating(x2.dtype()))
    c.fail("npu_add_layer_norm needs floating point inputs");
  check_trailing(c, x1, gamma);
  if (beta.shape() != gamma.shape()) {
    c.fail(fmt::format("beta {} must have gamma's shape {}", dims_to_string(beta.shape()),
                       dims_to_string(gamma.shape())));
  }
  AddLayerNormResult r;
  r.dtype = x1.dtype() == x2.dtype() ? x1.dtype() : DType::Float32;
  r.shape = x1.shape();
  r.stats_shape = Dims(r.shape.begin(), r.shape.end() - gamma.rank());
  r.stats_shape.push_back(1);
  r.x = add_layer_norm_sum(c, x1, x2, r.dtype);
  const int64_t n = gamma.numel(), rows = n == 0 ? 0 : x1.numel() / n;
  const std::vector<double> w = gamma.values(), b = beta.values();
  const double eps = epsilon_arg(c, 1e-5);
  r.y.resize(r.x.size());
  r.mean.resize(static_cast<size_t>(rows));
  r.rstd.resize(static_cast<size_t>(rows));
  for (int64_t row = 0; row < rows; ++row) {
    const double* xr = r.x.data() + row * n;
    double sum = 0, sq = 0;
    for (int64_t j = 0; j < n; ++j) sum += xr[j];
    const double mu = sum / static_cast<double>(n);
    for (int64_t j = 0; j < n; ++j) sq += (xr[j] - mu) * (xr[j] - mu);
    const double rs = 1.0 / std::sqrt(sq / static_cast<double>(n) + eps);
    for (int64_t j = 0; j < n; ++j) {
      const auto k = static_cast<size_t>(j);
      r.y[static_cast<size_t>(row * n + j)] = (xr[j] - mu) * rs * w[k] + b[k];
    }
    r.mean[static_cast<size_t>(row)] = mu;
    r.rstd[static_cast<size_t>(row)] = rs;
  }
  return r;
}

// ---- quantization ----------------------------------------------------------------

struct QuantTarget {
  DType dtype = DType::Int8;  // stored dtype of the result
  double qmin = -128, qmax = 127;
  bool pack_int4 = false;  // eight int4 values per int32 along the last dim
};

QuantTarget quant_target_from_code(const KernelCall& c, std::optional<int64_t> code) {
  if (!code || *code == 1 || *code == 12) return {};
  if (*code == 0 || *code == 13) return {DType::UInt8, 0, 255, false};
  if (*code == 3 || *code == 14) return {DType::Int32, -2147483648.0, 2147483647.0, false};
  if (*code == 16) return {DType::Int32, -8, 7, true};
  c.fail(fmt::format("unsupported quantized dtype code {}", *code));
}

double quantize_value(double v, const QuantTarget& t) {
  if (std::isnan(v)) return 0;
  return std::clamp(round_half_even(v), t.qmin, t.qmax);
}

// Packs int4 values (row-major, last dim % 8 == 0) into int32 words, value k
// of a group in bits 4k..4k+3 (little-endian nibbles).
Tensor pack_int4(const KernelCall& c, const Dims& shape, const std::vector<double>& q) {
  if (shape.empty() || shape.back() % 8 != 0)
    c.fail("int4 packing needs a last dim divisible by 8");
  Dims packed_shape = shape;
  packed_shape.back() /= 8;
  Tensor out = Tensor::zeros(DType::Int32, packed_shape);
  for (int64_t w = 0; w < out.numel(); ++w) {
    uint32_t word = 0;
    for (int k = 0; k < 8; ++k) {
      int64_t v = static_cast<int64_t>(q[static_cast<size_t>(w * 8 + k)]);
      word |= (static_cast<uint32_t>(v) & 0xfu) << (4 * k);
    }
    out.set_flat_int(w, static_cast<int64_t>(static_cast<int32_t>(word)));
  }
  return out;
}

Tensor store_quantized(const KernelCall& c, const Dims& shape, const std::vector<double>& q,
                       const QuantTarget& t) {
  if (t.pack_int4) return pack_int4(c, shape, q);
  return from_doubles(t.dtype, shape, q);
}

// Per-token symmetric quantization of rows x cols values: scale =
// rowmax(|v * smooth|) / qmax (rounded to fp32, it is an output), q =
// round_half_even(v * smooth / scale). A zero row gets scale 0 and q 0.
struct DynamicQuant {
  std::vector<double> q;
  std::vector<double> scale;
};

DynamicQuant dynamic_quant_rows(const std::vector<double>& v, int64_t rows, int64_t cols,
                                const std::optional<std::vector<double>>& smooth,
                                const QuantTarget& t) {
  DynamicQuant r;
  r.q.resize(v.size());
  r.scale.resize(static_cast<size_t>(rows));
  for (int64_t row = 0; row < rows; ++row) {
    std::vector<double> s(static_cast<size_t>(cols));
    double maxabs = 0;
    for (int64_t j = 0; j < cols; ++j) {
      double x = v[static_cast<size_t>(row * cols + j)];
      if (smooth) x *= (*smooth)[static_cast<size_t>(j)];
      s[static_cast<size_t>(j)] = x;
      maxabs = std::max(maxabs, std::fabs(x));
    }
    double scale = round_to_fp32(maxabs / t.qmax);
    r.scale[static_cast<size_t>(row)] = scale;
    for (int64_t j = 0; j < cols; ++j) {
      double q = scale == 0.0 ? 0.0 : s[static_cast<size_t>(j)] / scale;
      r.q[static_cast<size_t>(row * cols + j)] = quantize_value(q, t);
    }
  }
  return r;
}

QuantTarget dynamic_quant_target(std::optional<int64_t> code) {
  if (!code || *code == 1 || *code == 12) return {DType::Int8, -128, 127, false};
  if (*code == 16) return {DType::Int32, -8, 7, true};  // quint4x2: int4 packed into int32
  throw UnsupportedConfig(fmt::format("dynamic quant to dtype code {}", *code));
}

RuntimeValue tuple(std::vector<Tensor> ts) {
  return RuntimeValue(std::vector<RuntimeValue>(ts.begin(), ts.end()));
}

// ---- MX quantization -----------------------------------------------------------------

// An 8-bit float target of MX quantization: its largest finite value and emax, the exponent of
// its largest power of two (CANN's aclnnDynamicMxQuant doc, after the OCP MX v1.0 spec).
struct MxTarget {
  DType dtype = DType::Float8E4M3FN;
  double max_normal = 448.0;
  int emax = 8;
  int64_t scale_alg = 0;
};

MxTarget mx_target(const KernelCall& c, std::string_view op, int64_t scale_alg) {
  int64_t code = c.opt_int("dst_type").value_or(296);
  if (code == 296 || code == 297 || code == 40 || code == 41)
    throw UnsupportedConfig(fmt::format("{} to packed fp4 (dst_type {})", op, code));
  std::optional<DType> d = dtype_from_scalar_type(code);
  MxTarget t;
  if (d == DType::Float8E5M2) {
    t = {DType::Float8E5M2, 57344.0, 15, 0};
  } else if (d != DType::Float8E4M3FN) {
    c.fail(fmt::format("dst_type {} is not an MX element type (float8_e4m3fn, float8_e5m2)",
                       d ? dtype_torch_name(*d) : std::to_string(code)));
  }
  if (scale_alg != 0 && scale_alg != 1)
    c.fail(fmt::format("scale_alg must be 0 or 1, got {}", scale_alg));
  t.scale_alg = scale_alg;
  std::string round_mode = c.has("round_mode") ? c.str_arg("round_mode") : "rint";
  if (round_mode != "rint") c.fail("float8 outputs support round_mode 'rint' only");
  return t;
}

// The e8m0 bits (biased exponent, 255 = NaN) of one block's scale. scale_alg 0 (OCP):
// 2^(floor(log2(amax)) - emax), clamped to e8m0's range; scale_alg 1: amax / max_normal in fp32,
// its exponent rounded up whenever the mantissa is not zero (above half for fp32 subnormals).
int64_t mx_scale_bits(double amax, const MxTarget& t) {
  if (std::isnan(amax)) return 255;
  if (t.scale_alg == 0) {
    if (amax == 0.0) return 0;
    int exponent = 0;
    std::frexp(amax, &exponent);  // amax = m * 2^exponent, 0.5 <= m < 1
    return std::clamp<int64_t>(exponent - 1 - t.emax, -127, 127) + 127;
  }
  uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(amax / t.max_normal));
  uint32_t biased = (bits >> 23) & 0xffu, mantissa = bits & 0x7fffffu;
  if (biased == 0xffu) return 255;
  if (biased > 0 && biased < 254 && mantissa > 0) ++biased;
  if (biased == 0 && mantissa > 0x400000u) ++biased;
  return biased;
}

// One element: v / scale (exact, a power of two), saturated to the largest finite value (the
// OCP spec's conversion; CANN's doc does not say), rounded to nearest even.
double mx_element(double v, int64_t scale_bits, const MxTarget& t) {
  if (scale_bits == 255) return std::numeric_limits<double>::quiet_NaN();
  double y = std::ldexp(v, 127 - static_cast<int>(scale_bits));
  if (!std::isnan(y)) y = std::clamp(y, -t.max_normal, t.max_normal);
  return round_to_dtype(y, t.dtype);
}

struct MxQuant {
  std::vector<double> y;
  std::vector<double> scale_bits;  // uint8 values, laid out as scale_shape
  Dims scale_shape;
};

// MX quantization of row-major values of `shape` in blocks of `block` along `axis`. Entry
// [.., j, .., k] of the scales is block 2j + k; an odd block count leaves the last pad 0.
MxQuant mx_quantize(const std::vector<double>& v, const Dims& shape, int64_t axis, int64_t block,
                    const MxTarget& t) {
  const auto a = static_cast<size_t>(axis);
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < a; ++i) outer *= shape[i];
  for (size_t i = a + 1; i < shape.size(); ++i) inner *= shape[i];
  const int64_t n = shape[a], blocks = (n + block - 1) / block, pairs = (blocks + 1) / 2;
  MxQuant q;
  q.y.resize(v.size());
  q.scale_shape = shape;
  q.scale_shape[a] = pairs;
  q.scale_shape.push_back(2);
  q.scale_bits.assign(static_cast<size_t>(outer * pairs * inner * 2), 0.0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t b = 0; b < blocks; ++b) {
        const int64_t first = b * block, last = std::min(n, first + block);
        auto at = [&](int64_t k) { return static_cast<size_t>((o * n + k) * inner + i); };
        double amax = 0;
        for (int64_t k = first; k < last; ++k) {
          double x = std::fabs(v[at(k)]);
          amax = std::isnan(x) || std::isnan(amax) ? NAN : std::max(amax, x);
        }
        int64_t bits = mx_scale_bits(amax, t);
        q.scale_bits[static_cast<size_t>(((o * pairs + b / 2) * inner + i) * 2 + b % 2)] =
            static_cast<double>(bits);
        for (int64_t k = first; k < last; ++k) q.y[at(k)] = mx_element(v[at(k)], bits, t);
      }
    }
  }
  return q;
}

void check_half_input(const KernelCall& c, const Tensor& x, std::string_view name) {
  if (x.dtype() != DType::Float16 && x.dtype() != DType::BFloat16)
    c.fail(fmt::format("{} must be float16 or bfloat16, got {}", name, dtype_code(x.dtype())));
}

// npu_rms_norm_dynamic_mx_quant (x2 absent) and npu_add_rms_norm_dynamic_mx_quant: y of the
// norm (+ beta) quantized in blocks of 32 along the last dim. Under reference numerics y is
// stored in x's dtype first, as the unfused norm hands it to npu_dynamic_mx_quant.
RuntimeValue norm_dynamic_mx_quant(const KernelCall& c, const Tensor& x1,
                                   const std::optional<Tensor>& x2, std::string_view op) {
  check_half_input(c, x1, x2 ? "x1" : "x");
  MxTarget t = mx_target(c, op, c.int_arg("scale_alg"));
  RmsNormResult r =
      add_rms_norm_core(c, x1, x2, c.tensor("gamma"), epsilon_arg(c, 1e-6), c.opt_tensor("beta"));
  if (x1.rank() < 1) c.fail("the input must have rank >= 1");
  round_y_like_unfused(c, x1.dtype(), r);
  MxQuant q = mx_quantize(r.y, r.shape, x1.rank() - 1, 32, t);
  std::vector<Tensor> out = {from_doubles(t.dtype, r.shape, q.y),
                             from_doubles(DType::UInt8, q.scale_shape, q.scale_bits),
                             Tensor::zeros(DType::Float32, {0})};
  if (x2) out.insert(out.begin() + 1, from_doubles(x1.dtype(), r.shape, r.x));
  return tuple(out);
}

// ---- swiglu ------------------------------------------------------------------------

// silu(a) * b of the halves a, b of x along dim (activate_left; else a * silu(b)), unrounded.
// Reference numerics store silu in x's dtype before the product, as the unfused aten.silu +
// aten.mul chain does (the formula of that silu kernel: x * sigmoid(x)); the device keeps it
// in float.
struct Swiglu {
  std::vector<double> y;
  Dims shape;
};

Swiglu swiglu(const KernelCall& c, const Tensor& x, int64_t dim, bool activate_left) {
  int64_t n = x.size(static_cast<int>(dim));
  if (n % 2 != 0) c.fail(fmt::format("size {} along dim {} must be even", n, dim));
  Tensor a = x.slice(dim, 0, n / 2, 1), b = x.slice(dim, n / 2, n, 1);
  if (!activate_left) std::swap(a, b);
  std::vector<double> avs = a.values(), bvs = b.values();
  const bool unfused = c.round_like_unfused();
  Swiglu r{std::vector<double>(avs.size()), a.shape()};
  for (size_t i = 0; i < avs.size(); ++i) {
    double av = avs[i];
    double silu = unfused ? cast_double(av * (1.0 / (1.0 + std::exp(-av))), x.dtype())
                          : av / (1.0 + std::exp(-av));
    r.y[i] = silu * bvs[i];
  }
  return r;
}

// ---- kernels -------------------------------------------------------------------------

void register_norms(KernelTable& t) {
  t["npu::npu_add_rms_norm"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r =
        add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(x1.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  t["npu::npu_rms_norm"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    RmsNormResult r = add_rms_norm_core(c, x, {}, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(x.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd)});
  };
  // x is written only with additional_output=True; otherwise the device
  // leaves it unwritten, which the interpreter models as zeros (as `empty`).
  t["npu::npu_add_layer_norm"] = [](const KernelCall& c) {
    AddLayerNormResult r = add_layer_norm_core(c);
    Tensor x = c.bool_arg("additional_output") ? from_doubles(r.dtype, r.shape, r.x)
                                               : Tensor::zeros(r.dtype, r.shape);
    return tuple({from_doubles(r.dtype, r.shape, r.y),
                  from_doubles(DType::Float32, r.stats_shape, r.mean),
                  from_doubles(DType::Float32, r.stats_shape, r.rstd), x});
  };
  // vllm-ascend's _C_ascend.npu_add_rms_norm_bias (aclnnAddRmsNormBias): npu_add_rms_norm
  // with beta added after gamma, one rounding of y; y and x in x1's dtype, rstd fp32.
  t["_C_ascend::npu_add_rms_norm_bias"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r = add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"),
                                        epsilon_arg(c, 1e-6), c.opt_tensor("beta"));
    return tuple({from_doubles(x1.dtype(), r.shape, r.y),
                  from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  t["npu::npu_add_rms_norm_cast"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    RmsNormResult r =
        add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    Tensor y = from_doubles(x1.dtype(), r.shape, r.y);
    // torchair-passes.md §7.6: y_fp32 = float32(y), the cast of the x1-dtype output.
    return tuple({y.to(DType::Float32), y, from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
  // In place (aclnnInplaceAddRmsNorm): x1 <- y, x2 <- x1 + x2; returns rstd.
  t["npu::npu_add_rms_norm_v2"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2");
    RmsNormResult r = add_rms_norm_core(c, x1, x2, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    Tensor y = from_doubles(x1.dtype(), r.shape, r.y);
    Tensor x = from_doubles(x2.dtype(), r.shape, r.x);
    x1.copy_from(y);
    x2.copy_from(x);
    return RuntimeValue(from_doubles(DType::Float32, r.rstd_shape, r.rstd));
  };
  t["npu::npu_add_rms_norm_v2_functional"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2");
    RmsNormResult r = add_rms_norm_core(c, x1, x2, c.tensor("gamma"), epsilon_arg(c, 1e-6), {});
    return tuple({from_doubles(DType::Float32, r.rstd_shape, r.rstd),
                  from_doubles(x1.dtype(), r.shape, r.y), from_doubles(x2.dtype(), r.shape, r.x)});
  };
}

void register_quant(KernelTable& t) {
  t["npu::npu_dynamic_quant"] = [](const KernelCall& c) {
    Tensor x = c.tensor("input");
    if (!c.is_none("group_index")) throw UnsupportedConfig("npu_dynamic_quant with group_index");
    if (c.has("dst_type_max") && c.double_arg("dst_type_max") != 0.0) {
      throw UnsupportedConfig("npu_dynamic_quant with dst_type_max");
    }
    std::string mode = c.has("quant_mode") ? c.str_arg("quant_mode") : "pertoken";
    if (x.rank() < 1) c.fail("input must have rank >= 1");
    QuantTarget target = dynamic_quant_target(c.opt_int("dst_type"));
    int64_t cols = x.size(-1);
    std::optional<std::vector<double>> smooth;
    if (std::optional<Tensor> s = c.opt_tensor("smooth_scales")) {
      if (s->numel() != cols)
        c.fail("smooth_scales must have one value per element of the last dim");
      smooth = s->values();
    }
    Dims scale_shape(x.shape().begin(), x.shape().end() - 1);
    int64_t rows = cols == 0 ? 0 : x.numel() / cols;
    std::vector<double> v = x.values();
    DynamicQuant q;
    if (mode == "pertoken") {
      q = dynamic_quant_rows(v, rows, cols, smooth, target);
    } else if (mode == "pertensor") {
      // One scale for everything: the smooth factor still applies per column.
      if (smooth) {
        for (size_t i = 0; i < v.size(); ++i) v[i] *= (*smooth)[i % static_cast<size_t>(cols)];
      }
      q = dynamic_quant_rows(v, 1, x.numel(), std::nullopt, target);
      scale_shape = {1};
    } else {
      throw UnsupportedConfig("npu_dynamic_quant quant_mode " + mode);
    }
    return tuple({store_quantized(c, x.shape(), q.q, target),
                  from_doubles(DType::Float32, scale_shape, q.scale)});
  };
  // y = round_half_even(x / scales + zp) (div_mode) or round_half_even(x * scales + zp),
  // scales and zero points broadcast along `axis`.
  t["npu::npu_quantize"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self"), scales = c.tensor("scales");
    std::optional<Tensor> zp = c.opt_tensor("zero_points");
    QuantTarget target = quant_target_from_code(c, c.int_arg("dtype"));
    bool div_mode = !c.has("div_mode") || c.bool_arg("div_mode");
    int64_t axis = c.has("axis") ? c.int_arg("axis") : 1;
    auto along_axis = [&](const Tensor& p) -> Tensor {
      if (p.rank() == x.rank() || x.rank() == 0) return p.expand(x.shape());
      if (p.rank() != 1) c.fail("scales/zero_points must be 1-D or have the input's rank");
      int64_t a = wrap_dim(axis, x.rank());
      Dims shape(static_cast<size_t>(x.rank()), 1);
      shape[static_cast<size_t>(a)] = p.numel();
      if (p.numel() != 1 && p.numel() != x.size(static_cast<int>(a))) {
        c.fail(fmt::format("scales of size {} do not match input dim {} of size {}", p.numel(), a,
                           x.size(static_cast<int>(a))));
      }
      return p.reshape(shape).expand(x.shape());
    };
    Tensor s = along_axis(scales);
    std::optional<Tensor> z = zp ? std::optional<Tensor>(along_axis(*zp)) : std::nullopt;
    std::vector<double> q = x.values();
    std::vector<double> sv = s.values();
    std::vector<double> zv = z ? z->values() : std::vector<double>();
    for (size_t i = 0; i < q.size(); ++i) {
      double v = div_mode ? q[i] / sv[i] : q[i] * sv[i];
      if (z) v += zv[i];
      q[i] = quantize_value(v, target);
    }
    return RuntimeValue(store_quantized(c, x.shape(), q, target));
  };
}

// vllm-ascend's vllm.quantize(x, scale, scale_reciprocal, offset) is
// npu_quantize(x, scale_reciprocal, offset, qint8, -1, div_mode=False):
// int8 round_half_even(x * scale_reciprocal + offset), saturated; `scale`
// is not read (register_custom_ops.py).
RuntimeValue vllm_quantize(const KernelCall& c) {
  Tensor x = c.tensor("in_tensor");
  if (x.rank() < 1) c.fail("in_tensor must have rank >= 1");
  int64_t cols = x.size(-1);
  auto per_column = [&](std::string_view name) {
    Tensor p = c.tensor(name);
    if (p.rank() != 1 || (p.numel() != 1 && p.numel() != cols))
      c.fail(
          fmt::format("{} {} must be 1-D of size 1 or {}", name, dims_to_string(p.shape()), cols));
    return p.expand({cols}).values();
  };
  std::vector<double> r = per_column("input_scale_reciprocal"), o = per_column("input_offset");
  std::vector<double> q = x.values();
  QuantTarget target;
  for (size_t i = 0; i < q.size(); ++i) {
    size_t j = i % static_cast<size_t>(cols);
    q[i] = quantize_value(q[i] * r[j] + o[j], target);
  }
  return RuntimeValue(from_doubles(DType::Int8, x.shape(), q));
}

void register_fused_quant(KernelTable& t) {
  t["vllm::quantize"] = vllm_quantize;
  t["npu::npu_add_rms_norm_dynamic_quant"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1");
    std::optional<Tensor> smooth1 = c.opt_tensor("smooth_scale1");
    std::optional<Tensor> smooth2 = c.opt_tensor("smooth_scale2");
    RmsNormResult r = add_rms_norm_core(c, x1, c.tensor("x2"), c.tensor("gamma"),
                                        epsilon_arg(c, 1e-6), c.opt_tensor("beta"));
    round_y_like_unfused(c, x1.dtype(), r);
    QuantTarget target = dynamic_quant_target(c.opt_int("y_dtype"));
    // Which quantized outputs are produced (torchair-passes.md §7.5).
    bool want1 = true, want2 = smooth1 && smooth2;
    if (!c.is_none("output_mask")) {
      std::vector<bool> mask = c.bool_list("output_mask");
      if (mask.size() != 2) c.fail("output_mask must have two entries");
      want1 = mask[0];
      want2 = mask[1];
    }
    int64_t cols = x1.size(-1);
    int64_t rows = cols == 0 ? 0 : x1.numel() / cols;
    Dims scale_shape(x1.shape().begin(), x1.shape().end() - 1);
    auto quantized = [&](bool want,
                         const std::optional<Tensor>& smooth) -> std::pair<Tensor, Tensor> {
      if (!want) {
        return {Tensor::zeros(target.dtype, {0}), Tensor::zeros(DType::Float32, {0})};
      }
      std::optional<std::vector<double>> sm;
      if (smooth) sm = smooth->expand({cols}).values();
      DynamicQuant q = dynamic_quant_rows(r.y, rows, cols, sm, target);
      return {store_quantized(c, r.shape, q.q, target),
              from_doubles(DType::Float32, scale_shape, q.scale)};
    };
    auto [y1, scale1] = quantized(want1, smooth1);
    auto [y2, scale2] = quantized(want2, smooth2);
    return tuple({y1, y2, from_doubles(x1.dtype(), r.shape, r.x), scale1, scale2});
  };
  t["npu::npu_dynamic_mx_quant"] = [](const KernelCall& c) {
    Tensor x = c.tensor("input");
    check_half_input(c, x, "input");
    for (const char* name : {"dst_type_max", "max_low_bound"}) {
      if (c.has(name) && c.double_arg(name) != 0.0)
        throw UnsupportedConfig(fmt::format("npu_dynamic_mx_quant with {}", name));
    }
    MxTarget t = mx_target(c, "npu_dynamic_mx_quant", c.opt_int("scale_alg").value_or(0));
    if (x.rank() < 1) c.fail("input must have rank >= 1");
    int64_t axis = wrap_dim(c.int_arg("axis"), x.rank());
    int64_t block = c.int_arg("block_size");
    if (block <= 0 || block % 32 != 0 || block > 1024)
      c.fail(fmt::format("block_size must be a multiple of 32 in [32, 1024], got {}", block));
    MxQuant q = mx_quantize(x.values(), x.shape(), axis, block, t);
    return tuple({from_doubles(t.dtype, x.shape(), q.y),
                  from_doubles(DType::UInt8, q.scale_shape, q.scale_bits)});
  };
  t["npu::npu_rms_norm_dynamic_mx_quant"] = [](const KernelCall& c) {
    return norm_dynamic_mx_quant(c, c.tensor("x"), std::nullopt, "npu_rms_norm_dynamic_mx_quant");
  };
  t["npu::npu_add_rms_norm_dynamic_mx_quant"] = [](const KernelCall& c) {
    return norm_dynamic_mx_quant(c, c.tensor("x1"), c.tensor("x2"),
                                 "npu_add_rms_norm_dynamic_mx_quant");
  };
  // npu_rms_norm_quant: y = rms_norm(x)·gamma + beta, q = round_half_even(y * scale + offset)
  // into int8. Under reference numerics y is stored in x's dtype first (after the norm and
  // after beta), as the npu_rms_norm [+ add] + npu_quantize(div_mode=False) chain does.
  t["npu::npu_rms_norm_quant"] = [](const KernelCall& c) {
    Tensor x = c.tensor("x");
    std::optional<int64_t> dst = c.has("dst_dtype") ? c.opt_int("dst_dtype") : std::nullopt;
    if (dst && *dst != 1) throw UnsupportedConfig("npu_rms_norm_quant dst_dtype other than int8");
    auto as_row = [&](const char* name) {
      Tensor t = c.tensor(name);
      return t.rank() == 2 && t.size(0) == 1 ? t.reshape({t.size(1)}) : t;
    };
    Tensor gamma = as_row("gamma"), scale = c.tensor("scale"), offset = c.tensor("offset");
    if (scale.numel() != 1 || offset.numel() != 1) c.fail("scale and offset must have shape [1]");
    RmsNormResult r = add_rms_norm_core(c, x, {}, gamma, epsilon_arg(c, 1e-6), as_row("beta"));
    round_y_like_unfused(c, x.dtype(), r);
    const double s = scale.values()[0], z = offset.values()[0];
    std::vector<double> q(r.y.size());
    for (size_t i = 0; i < q.size(); ++i) q[i] = quantize_value(r.y[i] * s + z, QuantTarget{});
    return RuntimeValue(from_doubles(DType::Int8, r.shape, q));
  };
  t["npu::npu_add_rms_norm_quant"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), gamma = c.tensor("gamma");
    if (c.has("axis") && c.int_arg("axis") != -1)
      c.fail("npu_add_rms_norm_quant supports axis=-1 only");
    std::optional<int64_t> dst = c.has("dst_type") ? c.opt_int("dst_type") : std::nullopt;
    if (dst && *dst != 1 && *dst != 12) throw UnsupportedConfig("npu_add_rms_norm_quant dst_type");
    RmsNormResult r =
        add_rms_norm_core(c, x1, c.tensor("x2"), gamma, epsilon_arg(c, 1e-6), c.opt_tensor("beta"));
    round_y_like_unfused(c, x1.dtype(), r);
    bool div_mode = !c.has("div_mode") || c.bool_arg("div_mode");
    QuantTarget target;
    auto quantize = [&](const std::optional<Tensor>& scales, const std::optional<Tensor>& zp) {
      std::vector<double> q(r.y.size(), 0.0);
      if (!scales) return from_doubles(DType::Int8, r.shape, q);
      std::vector<double> s = scales->expand(gamma.shape()).values();
      std::vector<double> z =
          zp ? zp->expand(gamma.shape()).values() : std::vector<double>(s.size(), 0.0);
      for (size_t i = 0; i < q.size(); ++i) {
        size_t j = i % s.size();
        double v = div_mode ? r.y[i] / s[j] : r.y[i] * s[j];
        q[i] = quantize_value(v + z[j], target);
      }
      return from_doubles(DType::Int8, r.shape, q);
    };
    return tuple({quantize(c.tensor("scales1"), c.opt_tensor("zero_points1")),
                  quantize(c.opt_tensor("scales2"), c.opt_tensor("zero_points2")),
                  from_doubles(x1.dtype(), r.shape, r.x)});
  };
}

std::vector<int64_t> perm_or(const KernelCall& c, std::string_view name, std::vector<int64_t> def) {
  if (!c.has(name) || c.is_none(name)) return def;
  return c.int_list(name);
}

// Scale values as fp32: int64/uint64 scales (npu_trans_quant_param) carry
// the fp32 bit pattern in their low 32 bits.
std::vector<double> scale_values(const Tensor& s) {
  if (!s.is_int_storage()) return s.values();
  std::vector<double> out;
  for (int64_t v : s.int_values()) {
    out.push_back(
        std::bit_cast<float>(static_cast<uint32_t>(static_cast<uint64_t>(v) & 0xffffffffu)));
  }
  return out;
}

// npu_fused_matmul's epilogue, read once from fused_op_type ("16cast32", a float32 result
// of half operands, is not modelled: the call is then an uninterpreted function).
enum class FusedMatmulOp : uint8_t { None, Add, Mul, Relu, GeluErf, GeluTanh };

FusedMatmulOp fused_matmul_op(const KernelCall& c) {
  const std::string op = c.str_arg("fused_op_type");
  static const std::map<std::string, FusedMatmulOp, std::less<>> kOps = {
      {"", FusedMatmulOp::None},
      {"add", FusedMatmulOp::Add},
      {"mul", FusedMatmulOp::Mul},
      {"relu", FusedMatmulOp::Relu},
      {"gelu_erf", FusedMatmulOp::GeluErf},
      {"gelu_tanh", FusedMatmulOp::GeluTanh}};
  if (op == "16cast32") throw UnsupportedConfig("npu_fused_matmul with fused_op_type 16cast32");
  auto it = kOps.find(op);
  if (it == kOps.end()) c.fail(fmt::format("unknown fused_op_type '{}'", op));
  return it->second;
}

void register_matmuls(KernelTable& t) {
  t["npu::npu_transpose_batchmatmul"] = [](const KernelCall& c) {
    Tensor x = c.tensor("input"), w = c.tensor("weight");
    if (!c.is_none("scale")) throw UnsupportedConfig("npu_transpose_batchmatmul with scale");
    if (c.has("batch_split_factor") && c.opt_int("batch_split_factor").value_or(1) != 1) {
      throw UnsupportedConfig("npu_transpose_batchmatmul with batch_split_factor");
    }
    if (x.rank() != 3 || w.rank() != 3) c.fail("input and weight must be 3-D");
    Tensor a = x.permute(perm_or(c, "perm_x1", {0, 1, 2}));
    Tensor b = w.permute(perm_or(c, "perm_x2", {0, 1, 2}));
    Tensor prod = batched_matmul(a, b, DType::Float64);  // (B, M, N), exact accumulation
    if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
      std::vector<double> bb = bias->expand(prod.shape()).values();
      std::vector<double> pv = prod.values();
      for (size_t i = 0; i < pv.size(); ++i) pv[i] += bb[i];
      prod = Tensor::from_values(DType::Float64, prod.shape(), pv);
    }
    return RuntimeValue(prod.permute(perm_or(c, "perm_y", {1, 0, 2})).to(x.dtype()));
  };
  t["npu::npu_swiglu"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = wrap_dim(c.has("dim") ? c.int_arg("dim") : -1, x.rank());
    Swiglu r = swiglu(c, x, dim, true);
    return RuntimeValue(Tensor::from_values(x.dtype(), r.shape, r.y));
  };
  // Swiglu of the last dim's halves, then per-token dynamic int8 quantization. Under
  // reference numerics the swiglu result is stored in x's dtype before quantizing, as
  // npu_swiglu followed by npu_dynamic_quant does; the device quantizes the float value.
  t["npu::npu_dequant_swiglu_quant"] = [](const KernelCall& c) {
    Tensor x = c.tensor("x");
    for (const char* name :
         {"weight_scale", "activation_scale", "bias", "quant_scale", "quant_offset", "group_index"})
      if (!c.is_none(name))
        throw UnsupportedConfig(fmt::format("npu_dequant_swiglu_quant with {}", name));
    if (c.int_arg("quant_mode") != 1)
      throw UnsupportedConfig("npu_dequant_swiglu_quant with quant_mode 0 (static)");
    if (x.dtype() != DType::Float16 && x.dtype() != DType::BFloat16)
      c.fail(fmt::format("x must be float16 or bfloat16 (int32 needs dequant scales), got {}",
                         dtype_code(x.dtype())));
    if (x.rank() < 2) c.fail("x must be at least 2-D");
    Swiglu r = swiglu(c, x, x.rank() - 1, c.bool_arg("activate_left"));
    std::vector<double> y = r.y;
    if (c.round_like_unfused()) y = Tensor::from_values(x.dtype(), r.shape, y).values();
    const int64_t cols = r.shape.back();
    const int64_t rows = cols == 0 ? 0 : static_cast<int64_t>(y.size()) / cols;
    const QuantTarget target = dynamic_quant_target(std::nullopt);
    DynamicQuant q = dynamic_quant_rows(y, rows, cols, std::nullopt, target);
    Dims scale_shape(r.shape.begin(), r.shape.end() - 1);
    return tuple({store_quantized(c, r.shape, q.q, target),
                  from_doubles(DType::Float32, scale_shape, q.scale)});
  };
  // Swiglu (mode 0) of activate_dim's halves, then MX quantization in blocks of 32 along
  // `axis`. Under reference numerics the swiglu is stored in x's dtype first, as npu_swiglu
  // followed by npu_dynamic_mx_quant gives it; the device quantizes the float value.
  t["npu::npu_swiglu_mx_quant"] = [](const KernelCall& c) {
    Tensor x = c.tensor("x");
    if (!c.is_none("group_index")) throw UnsupportedConfig("npu_swiglu_mx_quant with group_index");
    if (c.int_arg("swiglu_mode") != 0)
      throw UnsupportedConfig("npu_swiglu_mx_quant with a clamped swiglu_mode");
    if (c.double_arg("max_dtype_value") != 0.0)
      throw UnsupportedConfig("npu_swiglu_mx_quant with max_dtype_value");
    check_half_input(c, x, "x");
    MxTarget t = mx_target(c, "npu_swiglu_mx_quant", c.int_arg("scale_alg"));
    if (x.rank() < 2) c.fail("x must be at least 2-D");
    Swiglu r =
        swiglu(c, x, wrap_dim(c.int_arg("activate_dim"), x.rank()), c.bool_arg("activate_left"));
    if (c.round_like_unfused()) r.y = Tensor::from_values(x.dtype(), r.shape, r.y).values();
    MxQuant q = mx_quantize(r.y, r.shape, wrap_dim(c.int_arg("axis"), x.rank()), 32, t);
    return tuple({from_doubles(t.dtype, r.shape, q.y),
                  from_doubles(DType::UInt8, q.scale_shape, q.scale_bits)});
  };
  // npu_fused_matmul (aclnnFusedMatmul): y = op(x @ x2 + bias, x3) in x's dtype. The
  // device rounds once, at the end. Under reference numerics x @ x2 + bias is stored in
  // x's dtype first, as the aten.mm / aten.addmm it replaces does, and the epilogue rounds
  // again, as the separate relu / gelu / add / mul did.
  t["npu::npu_fused_matmul"] = [](const KernelCall& c) {
    Tensor x = c.tensor("x"), x2 = c.tensor("x2");
    const FusedMatmulOp op = fused_matmul_op(c);
    if (x.dtype() != x2.dtype())
      c.fail(fmt::format("x and x2 have different dtypes ({} and {})", dtype_code(x.dtype()),
                         dtype_code(x2.dtype())));
    const DType d = x.dtype();
    Tensor acc = batched_matmul(x, x2, DType::Float64);
    std::vector<double> y = acc.values();
    if (std::optional<Tensor> bias = c.opt_tensor("bias")) {
      std::vector<double> b = bias->expand(acc.shape()).values();
      for (size_t i = 0; i < y.size(); ++i) y[i] += b[i];
    }
    if (c.round_like_unfused()) y = Tensor::from_values(d, acc.shape(), y).values();
    std::optional<Tensor> x3 = c.opt_tensor("x3");
    const bool binary = op == FusedMatmulOp::Add || op == FusedMatmulOp::Mul;
    if (binary && !x3) c.fail("fused_op_type add and mul need x3");
    std::vector<double> other = x3 ? x3->expand(acc.shape()).values() : std::vector<double>();
    const double k = std::sqrt(2.0 / std::numbers::pi);
    return RuntimeValue(make_tensor(d, acc.shape(), [&](int64_t i) {
      const size_t e = static_cast<size_t>(i);
      const double v = y[e];
      switch (op) {
        case FusedMatmulOp::Add:
          return v + other[e];
        case FusedMatmulOp::Mul:
          return v * other[e];
        case FusedMatmulOp::Relu:
          return v > 0 || std::isnan(v) ? v : 0.0;
        case FusedMatmulOp::GeluErf:
          return 0.5 * v * (1.0 + std::erf(v / std::numbers::sqrt2));
        case FusedMatmulOp::GeluTanh:
          return 0.5 * v * (1.0 + std::tanh(k * (v + 0.044715 * v * v * v)));
        case FusedMatmulOp::None:
          break;
      }
      return v;
    }));
  };
  // out = (x1 @ x2 [+ int32 bias]) * scale[n] * pertoken_scale[m] [+ float bias],
  // int8 output: round_half_even(out + offset[n]) saturated; int32 output: the
  // integer accumulation (+ bias). A float bias with a float output: see below
  // for reference numerics.
  t["npu::npu_quant_matmul"] = [](const KernelCall& c) {
    Tensor x1 = c.tensor("x1"), x2 = c.tensor("x2"), scale = c.tensor("scale");
    for (const char* unsupported : {"group_sizes", "y_scale", "x1_dtype", "x2_dtype"}) {
      if (c.has(unsupported) && !c.is_none(unsupported)) {
        throw UnsupportedConfig(fmt::format("npu_quant_matmul with {}", unsupported));
      }
    }
    if (x1.dtype() != DType::Int8 || x2.dtype() != DType::Int8) {
      throw UnsupportedConfig("npu_quant_matmul on non-int8 (packed int4) operands");
    }
    DType out = DType::Int8;
    if (std::optional<int64_t> code = c.opt_int("output_dtype")) {
      std::optional<DType> d = dtype_from_scalar_type(*code);
      if (!d) c.fail(fmt::format("unknown output_dtype code {}", *code));
      out = *d == DType::QInt8 ? DType::Int8 : *d;
    }
    Tensor acc = batched_matmul(x1, x2, DType::Float64);  // exact for int8 inputs
    int64_t n = acc.size(-1), m = acc.size(-2);
    std::optional<Tensor> bias = c.opt_tensor("bias");
    std::optional<Tensor> pertoken = c.opt_tensor("pertoken_scale");
    std::optional<Tensor> offset = c.opt_tensor("offset");
    std::vector<double> sv = scale_values(scale);
    if (sv.size() != 1 && static_cast<int64_t>(sv.size()) != n)
      c.fail("scale must have 1 or n values");
    std::vector<double> bias_b = bias ? bias->expand(acc.shape()).values() : std::vector<double>();
    std::vector<double> acc_v = acc.values();
    bool int_bias = bias && bias->is_int_storage();
    std::vector<double> pt = pertoken ? pertoken->values() : std::vector<double>();
    std::vector<double> off = offset ? offset->values() : std::vector<double>();
    QuantTarget target;
    return RuntimeValue(make_tensor(out, acc.shape(), [&](int64_t i) {
      int64_t col = i % n, row = (i / n) % m, flat_row = i / n;
      double v = acc_v[static_cast<size_t>(i)];
      if (int_bias) v += bias_b[static_cast<size_t>(i)];
      if (out == DType::Int32) return v;
      v *= sv[sv.size() == 1 ? 0 : static_cast<size_t>(col)];
      if (pertoken) {
        size_t r = static_cast<int64_t>(pt.size()) == m ? static_cast<size_t>(row)
                                                        : static_cast<size_t>(flat_row);
        v *= pt.at(r);
      }
      if (bias && !int_bias) {
        // The device adds a float bias before its one rounding. Under reference
        // numerics the result is first stored in the output dtype, as the
        // unfused npu_quant_matmul + aten.add chain does (MindSpore's
        // inference_qbmm_add_fusion, rewrites/library/mindspore.rules).
        if (c.round_like_unfused() && out != DType::Int8) v = cast_double(v, out);
        v += bias_b[static_cast<size_t>(i)];
      }
      if (out == DType::Int8) {
        if (offset) v += off[off.size() == 1 ? 0 : static_cast<size_t>(col)];
        return quantize_value(v, target);
      }
      return v;
    }));
  };
}

}  // namespace

// ---- vLLM rotary embedding ------------------------------------------------------------

// cos_sin_cache [P, rotary_dim] (cos in the first half of a row, sin in the second) and
// positions [T]: the table both rotary kernels read. docs/interpreter.md.
struct RopeTable {
  std::vector<double> cache;
  std::vector<int64_t> pos;
  int64_t rows = 0, rotary_dim = 0;
};

RopeTable rope_table(const KernelCall& c, int64_t tokens, int64_t rotary_dim) {
  Tensor cache = c.tensor("cos_sin_cache"), positions = c.tensor("positions");
  if (cache.rank() != 2 || cache.size(1) != rotary_dim)
    c.fail(fmt::format("cos_sin_cache {} must be [positions, rotary_dim = {}]",
                       dims_to_string(cache.shape()), rotary_dim));
  if (positions.rank() != 1 || positions.size(0) != tokens)
    c.fail(fmt::format("positions {} must be [{}] (one per token)",
                       dims_to_string(positions.shape()), tokens));
  RopeTable t{cache.values(), {}, cache.size(0), rotary_dim};
  for (double p : positions.values()) {
    if (p < 0 || p >= static_cast<double>(t.rows))
      c.fail(fmt::format("position {} outside cos_sin_cache's {} rows", p, t.rows));
    t.pos.push_back(static_cast<int64_t>(p));
  }
  return t;
}

// Rotates x, viewed as [tokens, heads, head_size], in place: for each pair (x1, x2) of
// the first rotary_dim dims of a head (halves when neox, else even/odd neighbours),
// o1 = x1 * cos - x2 * sin and o2 = x2 * cos + x1 * sin, computed in fp32 as
// vllm-ascend's Triton rope kernel does (operands loaded as fp32, each product and sum
// rounded to fp32); the caller stores the result in the output dtype.
void apply_rope(std::vector<double>& x, int64_t tokens, int64_t head_size, const RopeTable& t,
                bool neox) {
  int64_t heads = tokens == 0 ? 0 : static_cast<int64_t>(x.size()) / (tokens * head_size);
  int64_t half = t.rotary_dim / 2;
  auto f32 = [](double v) { return round_to_fp32(v); };
  for (int64_t tok = 0; tok < tokens; ++tok) {
    const double* row =
        &t.cache[static_cast<size_t>(t.pos[static_cast<size_t>(tok)] * t.rotary_dim)];
    for (int64_t h = 0; h < heads; ++h) {
      size_t base = static_cast<size_t>((tok * heads + h) * head_size);
      for (int64_t i = 0; i < half; ++i) {
        size_t i1 = base + static_cast<size_t>(neox ? i : 2 * i);
        size_t i2 = base + static_cast<size_t>(neox ? i + half : 2 * i + 1);
        double cos = f32(row[i]), sin = f32(row[half + i]);
        double x1 = f32(x[i1]), x2 = f32(x[i2]);
        x[i1] = f32(f32(x1 * cos) - f32(x2 * sin));
        x[i2] = f32(f32(x2 * cos) + f32(x1 * sin));
      }
    }
  }
}

// vllm.npu_rotary_embedding(positions, query, key, cos_sin_cache, head_size, rotary_dim,
// is_neox_style) -> (query, key), functional (vllm-ascend registers it with
// mutates_args=[]).
RuntimeValue npu_rotary_embedding(const KernelCall& c) {
  Tensor q = c.tensor("query"), k = c.tensor("key");
  int64_t head = c.int_arg("head_size"), rot = c.int_arg("rotary_dim");
  if (head <= 0 || rot <= 0 || rot > head || rot % 2 != 0)
    c.fail(fmt::format("rotary_dim {} must be even and in (0, head_size {}]", rot, head));
  if (q.rank() < 1 || k.rank() < 1) c.fail("query and key must have at least 1 dim");
  int64_t tokens = q.size(0);
  for (const Tensor* t : {&q, &k}) {
    if (t->size(0) != tokens || t->numel() % (std::max<int64_t>(tokens, 1) * head) != 0)
      c.fail(fmt::format("query {} and key {} must be [tokens, heads * head_size {}]",
                         dims_to_string(q.shape()), dims_to_string(k.shape()), head));
  }
  RopeTable table = rope_table(c, tokens, rot);
  bool neox = c.bool_arg("is_neox_style");
  std::vector<double> qv = q.values(), kv = k.values();
  apply_rope(qv, tokens, head, table, neox);
  apply_rope(kv, tokens, head, table, neox);
  return tuple({from_doubles(q.dtype(), q.shape(), qv), from_doubles(k.dtype(), k.shape(), kv)});
}

// vllm.qkv_rmsnorm_rope(input, cos_sin_cache, positions, q_weight, k_weight, q_hidden_size,
// kv_hidden_size, head_dim, eps, q_bias, k_bias) -> (q, k, v): the split of input [T,
// q + 2 kv], a per-head rms norm of q and k (+ bias), a neox rope over the cache's rotary
// dim, v copied. The device keeps the normalized values in fp32 up to the one store;
// under reference numerics (round_like_unfused) the norm and the bias add are stored in
// input's dtype first, as npu_rms_norm and aten.add do in the chain it replaces.
RuntimeValue qkv_rmsnorm_rope(const KernelCall& c) {
  Tensor in = c.tensor("input");
  int64_t qh = c.int_arg("q_hidden_size"), kvh = c.int_arg("kv_hidden_size");
  int64_t head = c.int_arg("head_dim");
  if (head <= 0 || qh <= 0 || kvh <= 0 || qh % head != 0 || kvh % head != 0)
    c.fail(
        fmt::format("q_hidden_size {} and kv_hidden_size {} must be positive multiples of "
                    "head_dim {}",
                    qh, kvh, head));
  if (in.rank() != 2 || in.size(1) != qh + 2 * kvh)
    c.fail(fmt::format("input {} must be [tokens, {}]", dims_to_string(in.shape()), qh + 2 * kvh));
  int64_t tokens = in.size(0);
  Tensor cache = c.tensor("cos_sin_cache");
  int64_t rot = cache.rank() == 2 ? cache.size(1) : 0;
  if (rot <= 0 || rot > head || rot % 2 != 0)
    c.fail(fmt::format("cos_sin_cache {}: rotary dim must be even and in (0, head_dim {}]",
                       dims_to_string(cache.shape()), head));
  RopeTable table = rope_table(c, tokens, rot);
  double eps = c.double_arg("eps");
  std::vector<double> all = in.values();
  auto columns = [&](int64_t from, int64_t width) {
    std::vector<double> out;
    out.reserve(static_cast<size_t>(tokens * width));
    for (int64_t t = 0; t < tokens; ++t) {
      auto row = all.begin() + static_cast<std::ptrdiff_t>(t * in.size(1) + from);
      out.insert(out.end(), row, row + width);
    }
    return out;
  };
  auto norm_rope = [&](int64_t from, int64_t width, const char* weight, const char* bias) {
    Dims heads{tokens, width / head, head};
    Tensor x = from_doubles(in.dtype(), heads, columns(from, width));
    RmsNormResult r = add_rms_norm_core(c, x, {}, c.tensor(weight), eps, {});
    round_y_like_unfused(c, in.dtype(), r);
    if (std::optional<Tensor> b = c.opt_tensor(bias)) {
      if (b->rank() != 1 || b->size(0) != head)
        c.fail(
            fmt::format("{} {} must be [head_dim = {}]", bias, dims_to_string(b->shape()), head));
      std::vector<double> bv = b->values();
      for (size_t i = 0; i < r.y.size(); ++i) r.y[i] += bv[i % static_cast<size_t>(head)];
      if (c.round_like_unfused()) r.y = from_doubles(in.dtype(), heads, r.y).values();
    }
    apply_rope(r.y, tokens, head, table, true);
    return from_doubles(in.dtype(), {tokens, width}, r.y);
  };
  Tensor q = norm_rope(0, qh, "q_weight", "q_bias");
  Tensor k = norm_rope(qh, kvh, "k_weight", "k_bias");
  Tensor v = from_doubles(in.dtype(), {tokens, kvh}, columns(qh + kvh, kvh));
  return tuple({q, k, v});
}

// The partner of element j of a row of `d` under npu_rotary_mul's rotation, and its
// sign: 'half' pairs j with j +- d/2 (cat(-x2, x1)), 'interleave' pairs 2i with 2i + 1
// (stack(-x_odd, x_even) flattened).
std::pair<int64_t, double> rotary_partner(int64_t j, int64_t d, bool half) {
  if (half) return j < d / 2 ? std::pair{j + d / 2, -1.0} : std::pair{j - d / 2, 1.0};
  return j % 2 == 0 ? std::pair{j + 1, -1.0} : std::pair{j - 1, 1.0};
}

// torch_npu.npu_rotary_mul(self, r1, r2, rotary_mode): self * r1 + rotate(self) * r2
// along the last dim. The device computes in fp32 and stores once; under reference
// numerics (round_like_unfused) both products and the sum are stored in self's dtype,
// as the aten.mul, aten.mul, aten.add chain it replaces does (the rotation itself only
// moves and negates, which is exact).
RuntimeValue rotary_mul(const KernelCall& c) {
  Tensor x = c.tensor("self");
  std::string mode = c.has("rotary_mode") ? c.str_arg("rotary_mode") : "half";
  if (mode != "half" && mode != "interleave")
    c.fail(fmt::format("rotary_mode must be 'half' or 'interleave', got '{}'", mode));
  if (x.rank() != 4 || x.size(-1) % 2 != 0)
    c.fail(fmt::format("self {} must be 4-D with an even last dim", dims_to_string(x.shape())));
  auto broadcast_to_x = [&](const char* name) {
    Tensor r = c.tensor(name);
    bool ok = r.rank() == 4;
    for (int i = 0; ok && i < 4; ++i) ok = r.size(i) == 1 || r.size(i) == x.size(i);
    if (!ok)
      c.fail(fmt::format("{} {} must be 4-D and broadcast to self {}", name,
                         dims_to_string(r.shape()), dims_to_string(x.shape())));
    return r.expand(x.shape()).values();
  };
  std::vector<double> xv = x.values(), r1 = broadcast_to_x("r1"), r2 = broadcast_to_x("r2");
  const int64_t d = x.size(-1);
  const bool chain = c.round_like_unfused();
  std::vector<double> out(xv.size());
  for (size_t i = 0; i < xv.size(); ++i) {
    auto j = static_cast<int64_t>(i) % d;
    auto [partner, sign] = rotary_partner(j, d, mode == "half");
    double rotated = sign * xv[i - static_cast<size_t>(j) + static_cast<size_t>(partner)];
    double a = xv[i] * r1[i], b = rotated * r2[i];
    out[i] = chain ? cast_double(a, x.dtype()) + cast_double(b, x.dtype()) : a + b;
  }
  return RuntimeValue(from_doubles(x.dtype(), x.shape(), out));
}

// ---- npu_fusion_attention ---------------------------------------------------

// The arguments of npu_fusion_attention(_v2) the kernel models, checked: q, k, v as
// [B, N, S, D] (BSND permuted), k and v repeated to N heads when they have fewer (GQA).
struct FusionAttentionArgs {
  Tensor q, k, v;
  std::optional<Tensor> pse, mask;  // both broadcast to [B, N, S, T]
  double scale = 1;
  bool pse_inside_scale = true;  // pse_type 1: scale * (q kᵀ + pse); else scale * q kᵀ + pse
  bool bsnd = false;
};

// Checks an argument that the kernel does not model is at its default.
void require_default(const KernelCall& c, const char* name, int64_t def) {
  if (c.has(name) && c.int_arg(name) != def)
    c.fail(fmt::format("{}={} is not modelled (only the default {})", name, c.int_arg(name), def));
}

// k or v whose kv heads `heads` query heads share (GQA), repeated to `heads`.
Tensor kv_for_heads(const KernelCall& c, const Tensor& t, int64_t heads, const char* name) {
  int64_t n2 = t.size(1);
  if (n2 <= 0 || heads % n2 != 0)
    c.fail(fmt::format("{}'s head count {} must divide query's {}", name, n2, heads));
  return repeat_heads(t, heads / n2);
}

FusionAttentionArgs fusion_attention_args(const KernelCall& c, bool v2) {
  FusionAttentionArgs a;
  std::string layout = c.str_arg("input_layout");
  if (layout != "BNSD" && layout != "BSND")
    c.fail(fmt::format("input_layout '{}' is not modelled (BNSD and BSND are)", layout));
  a.bsnd = layout == "BSND";
  if (c.double_arg("keep_prob") != 1.0) c.fail("keep_prob < 1 (dropout) is not modelled");
  require_default(c, "sparse_mode", 0);
  require_default(c, v2 ? "pre_tokens" : "pre_tockens", 2147483647);
  require_default(c, v2 ? "next_tokens" : "next_tockens", 2147483647);
  for (const char* name : {"padding_mask", "prefix", "actual_seq_qlen", "actual_seq_kvlen"})
    if (!c.is_none(name)) c.fail(fmt::format("'{}' is not modelled", name));
  if (v2) {
    int64_t pse_type = c.int_arg("pse_type");
    if (pse_type != 0 && pse_type != 1)
      c.fail(fmt::format("pse_type {} (generated alibi) is not modelled (0 and 1 are)", pse_type));
    a.pse_inside_scale = pse_type == 1;
  }
  auto bnsd = [&](const char* name) {
    Tensor t = c.tensor(name);
    if (t.rank() != 4) c.fail(fmt::format("{} {} must be 4-D", name, dims_to_string(t.shape())));
    return a.bsnd ? t.transpose(1, 2) : t;
  };
  a.q = bnsd("query");
  Tensor k = bnsd("key"), v = bnsd("value");
  if (k.dtype() != a.q.dtype() || v.dtype() != a.q.dtype())
    c.fail("query, key and value must have one dtype");
  const int64_t heads = a.q.size(1);
  if (c.int_arg("head_num") != heads)
    c.fail(
        fmt::format("head_num {} must equal query's head count {}", c.int_arg("head_num"), heads));
  if (k.size(0) != a.q.size(0) || k.size(3) != a.q.size(3) || v.size(0) != k.size(0) ||
      v.size(1) != k.size(1) || v.size(2) != k.size(2))
    c.fail(fmt::format("query {}, key {} and value {} do not form an attention",
                       dims_to_string(a.q.shape()), dims_to_string(k.shape()),
                       dims_to_string(v.shape())));
  a.k = kv_for_heads(c, k, heads, "key");
  a.v = kv_for_heads(c, v, heads, "value");
  a.scale = c.double_arg("scale");
  Dims scores{a.q.size(0), heads, a.q.size(2), a.k.size(2)};
  auto broadcast = [&](const char* name) -> std::optional<Tensor> {
    std::optional<Tensor> t = c.opt_tensor(name);
    if (!t) return t;
    bool ok = t->rank() <= 4;
    for (int i = 1; ok && i <= t->rank(); ++i)
      ok = t->size(-i) == 1 || t->size(-i) == scores[static_cast<size_t>(4 - i)];
    if (!ok)
      c.fail(fmt::format("{} {} does not broadcast to the scores {}", name,
                         dims_to_string(t->shape()), dims_to_string(scores)));
    return t->expand(scores);
  };
  a.pse = broadcast("pse");
  a.mask = broadcast("atten_mask");
  if (a.mask && a.mask->dtype() != DType::Bool && a.mask->dtype() != DType::UInt8)
    c.fail("atten_mask must be bool or uint8");
  return a;
}

// softmax(mask(scores)) · v, one (batch, head, query row) at a time. The device keeps the
// scores and probabilities in fp32 and stores the output once. Under reference numerics
// (round_like_unfused) every step is stored as the eager chain TorchAir's and MindSpore's
// patterns match stores it: q kᵀ in the input dtype (bmm), times the scale (a Python
// scalar, so at opmath precision) and plus pse each stored in the input dtype, the softmax
// in fp32 then cast to the input dtype, and p · v stored in the input dtype. Positions
// atten_mask leaves out do not take part; a row with none left is 0.
RuntimeValue fusion_attention(const KernelCall& c, bool v2) {
  FusionAttentionArgs a = fusion_attention_args(c, v2);
  const DType d = a.q.dtype();
  const bool chain = c.round_like_unfused();
  const int64_t B = a.q.size(0), N = a.q.size(1), S = a.q.size(2), T = a.k.size(2);
  const DType qk_dtype = chain ? d : DType::Float64;
  std::vector<double> qk = batched_matmul(a.q, a.k.transpose(2, 3), qk_dtype).values();
  std::vector<double> pse = a.pse ? a.pse->values() : std::vector<double>();
  std::vector<double> mask = a.mask ? a.mask->values() : std::vector<double>();
  const double scale = chain ? cast_double(a.scale, opmath_dtype(d)) : a.scale;
  auto store = [&](double x) { return chain ? cast_double(x, d) : x; };
  std::vector<double> probs(qk.size(), 0.0), row_max(static_cast<size_t>(B * N * S)),
      row_sum(row_max.size());
  std::vector<double> z(static_cast<size_t>(T));  // one row of scores, reused
  for (int64_t r = 0; r < B * N * S; ++r) {
    const size_t base = static_cast<size_t>(r * T);
    double mx = -std::numeric_limits<double>::infinity();
    bool any = false;
    for (size_t j = 0; j < z.size(); ++j) {
      double s = qk[base + j];
      double p = a.pse ? pse[base + j] : 0.0;
      if (a.pse_inside_scale)
        s = a.pse ? store(store(s + p) * scale) : store(s * scale);
      else
        s = a.pse ? store(store(s * scale) + p) : store(s * scale);
      z[j] = s;
      if (a.mask && mask[base + j] != 0) continue;
      any = true;
      mx = std::max(mx, s);
    }
    double sum = 0;
    for (size_t j = 0; j < z.size(); ++j)
      if (!(a.mask && mask[base + j] != 0)) sum += std::exp(z[j] - mx);
    row_max[static_cast<size_t>(r)] = any ? mx : 0.0;
    row_sum[static_cast<size_t>(r)] = any ? sum : 0.0;
    for (size_t j = 0; any && j < z.size(); ++j) {
      if (a.mask && mask[base + j] != 0) continue;
      double p = std::exp(z[j] - mx) / sum;
      probs[base + j] = chain ? cast_double(cast_double(p, DType::Float32), d) : p;
    }
  }
  Tensor p = from_doubles(chain ? d : DType::Float64, {B, N, S, T}, probs);
  Tensor out = batched_matmul(p, a.v, chain ? d : DType::Float64).to(d);
  if (a.bsnd) out = out.transpose(1, 2).contiguous();
  auto stats = [&](const std::vector<double>& per_row) {
    std::vector<double> v8;
    v8.reserve(per_row.size() * 8);
    for (double x : per_row) v8.insert(v8.end(), 8, x);
    return from_doubles(DType::Float32, {B, N, S, 8}, v8);
  };
  std::vector<RuntimeValue> outs{out,
                                 stats(row_max),
                                 stats(row_sum),
                                 Tensor::zeros(d, {0}),
                                 RuntimeValue(int64_t{0}),
                                 RuntimeValue(int64_t{0}),
                                 RuntimeValue(int64_t{0})};
  return RuntimeValue(std::move(outs));
}

void register_vllm_rope(KernelTable& t) {
  t["vllm::npu_rotary_embedding"] = npu_rotary_embedding;
  t["vllm::qkv_rmsnorm_rope"] = qkv_rmsnorm_rope;
  t["npu::npu_rotary_mul"] = rotary_mul;
  t["npu::npu_fusion_attention"] = [](const KernelCall& c) { return fusion_attention(c, false); };
  t["npu::npu_fusion_attention_v2"] = [](const KernelCall& c) { return fusion_attention(c, true); };
}

void register_npu_kernels(KernelTable& table) {
  register_vllm_rope(table);
  register_norms(table);
  register_quant(table);
  register_fused_quant(table);
  register_matmuls(table);
}

}  // namespace eqfuse
