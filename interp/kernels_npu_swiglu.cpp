// torch_npu's swiglu kernels: npu_swiglu and the fused swiglu + quantization kernels
// npu_dequant_swiglu_quant (per-token int8) and npu_swiglu_mx_quant (MX blocks), which
// share the swiglu below and the quantization math of kernels_npu_quant.cpp.
#include <cmath>

#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

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

}  // namespace

void register_swiglu_kernels(KernelTable& t) {
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
}

}  // namespace eqfuse::npu_kernels
