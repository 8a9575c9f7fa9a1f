// torch_npu's fused RMS norm + quantization kernels: npu_add_rms_norm_dynamic_quant,
// npu_(add_)rms_norm_dynamic_mx_quant, npu_rms_norm_quant, npu_add_rms_norm_quant. Each
// normalizes with the shared RMS norm core (kernels_npu_norm.cpp) and quantizes with the
// shared quantization math (kernels_npu_quant.cpp), never by calling the unfused kernels.
#include "interp/kernels_npu_internal.hpp"

namespace eqfuse::npu_kernels {
namespace {

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

RuntimeValue add_rms_norm_dynamic_quant(const KernelCall& c) {
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
}

// npu_rms_norm_quant: y = rms_norm(x)·gamma + beta, q = round_half_even(y * scale + offset)
// into int8. Under reference numerics y is stored in x's dtype first (after the norm and
// after beta), as the npu_rms_norm [+ add] + npu_quantize(div_mode=False) chain does.
RuntimeValue rms_norm_quant(const KernelCall& c) {
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
}

RuntimeValue add_rms_norm_quant(const KernelCall& c) {
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
}

}  // namespace

void register_norm_quant_kernels(KernelTable& t) {
  t["npu::npu_add_rms_norm_dynamic_quant"] = add_rms_norm_dynamic_quant;
  t["npu::npu_rms_norm_dynamic_mx_quant"] = [](const KernelCall& c) {
    return norm_dynamic_mx_quant(c, c.tensor("x"), std::nullopt, "npu_rms_norm_dynamic_mx_quant");
  };
  t["npu::npu_add_rms_norm_dynamic_mx_quant"] = [](const KernelCall& c) {
    return norm_dynamic_mx_quant(c, c.tensor("x1"), c.tensor("x2"),
                                 "npu_add_rms_norm_dynamic_mx_quant");
  };
  t["npu::npu_rms_norm_quant"] = rms_norm_quant;
  t["npu::npu_add_rms_norm_quant"] = add_rms_norm_quant;
}

}  // namespace eqfuse::npu_kernels
