// torch_npu's quantization kernels (npu_dynamic_quant, npu_quantize, npu_dynamic_mx_quant)
// and vLLM's vllm.quantize, with the quantization math they share with the fused
// norm + quantization and swiglu + quantization kernels: integer targets, per-token
// dynamic quantization, int4 packing, MX block quantization. Quantization rounds half to
// even.
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "interp/float16.hpp"
#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

// ---- quantization ----------------------------------------------------------------

QuantTarget quant_target_from_code(const KernelCall& c, std::optional<int64_t> code) {
  if (!code || *code == 1 || *code == 12) return {};
  if (*code == 0 || *code == 13) return {DType::UInt8, 0, 255, false};
  if (*code == 3 || *code == 14) return {DType::Int32, -2147483648.0, 2147483647.0, false};
  if (*code == 16) return {DType::Int32, -8, 7, true};
  c.fail(fmt::format("unsupported quantized dtype code {}", *code));
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

}  // namespace

Tensor store_quantized(const KernelCall& c, const Dims& shape, const std::vector<double>& q,
                       const QuantTarget& t) {
  if (t.pack_int4) return pack_int4(c, shape, q);
  return from_doubles(t.dtype, shape, q);
}

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

// ---- MX quantization -----------------------------------------------------------------

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

namespace {

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

}  // namespace

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

// ---- kernels -------------------------------------------------------------------------

namespace {

RuntimeValue dynamic_quant(const KernelCall& c) {
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
    if (s->numel() != cols) c.fail("smooth_scales must have one value per element of the last dim");
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
}

// y = round_half_even(x / scales + zp) (div_mode) or round_half_even(x * scales + zp),
// scales and zero points broadcast along `axis`.
RuntimeValue quantize(const KernelCall& c) {
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

RuntimeValue dynamic_mx_quant(const KernelCall& c) {
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
}

}  // namespace

void register_quant_kernels(KernelTable& t) {
  t["npu::npu_dynamic_quant"] = dynamic_quant;
  t["npu::npu_quantize"] = quantize;
  t["vllm::quantize"] = vllm_quantize;
  t["npu::npu_dynamic_mx_quant"] = dynamic_mx_quant;
}

}  // namespace eqfuse::npu_kernels
