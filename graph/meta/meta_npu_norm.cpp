// Meta functions of the torch_npu norms: the rms_norm families (add, cast, v2, and the
// add_rms_norm_bias of vllm-ascend) and add_layer_norm, including the norms fused with a
// quantization of their output (dynamic, static and MX). The quantized output types they
// share with the plain quantizers are in meta_npu_quant.cpp.
#include "graph/meta/meta_npu_internal.hpp"

namespace eqfuse::npu_meta {
namespace {

using meta::tensor;

// x1 and x2 must have the same shape; returns the better-known of the two.
std::optional<Shape> paired_shape(const CallContext& ctx, std::string_view a_name,
                                  std::string_view b_name) {
  auto a = meta::shape_arg(ctx, a_name);
  auto b = meta::shape_arg(ctx, b_name);
  if (a && b && !same_shape(*a, *b))
    meta::fail("arguments '{}' {} and '{}' {} must have the same shape", a_name,
               meta::shape_str(*a), b_name, meta::shape_str(*b));
  return a ? a : b;
}

DType paired_dtype(const CallContext& ctx, std::string_view a_name, std::string_view b_name) {
  DType a = meta::dtype_of_arg(ctx, a_name);
  return a != DType::Unknown ? a : meta::dtype_of_arg(ctx, b_name);
}

// gamma's shape must equal the trailing dims of x.
void check_trailing(const std::optional<Shape>& x, const CallContext& ctx,
                    std::string_view gamma_name) {
  auto g = meta::shape_arg(ctx, gamma_name);
  if (!x || !g) return;
  bool ok = g->size() <= x->size() && !g->empty();
  for (size_t i = 0; ok && i < g->size(); ++i)
    ok = !meta::dims_differ((*g)[i], (*x)[x->size() - g->size() + i]);
  if (!ok)
    meta::fail("argument '{}' {} must match the trailing dims of {}", gamma_name,
               meta::shape_str(*g), meta::shape_str(*x));
}

// rstd: x's leading dims, then 1 for each of gamma's dims.
std::optional<Shape> rstd_shape(const std::optional<Shape>& x, const CallContext& ctx,
                                std::string_view gamma_name) {
  auto g = meta::shape_arg(ctx, gamma_name);
  if (!x || !g) return std::nullopt;
  Shape out(x->begin(), x->end() - static_cast<std::ptrdiff_t>(g->size()));
  out.resize(x->size(), SymInt(1));
  return out;
}

// npu_add_rms_norm -> (y, rstd, x)
ValueType add_rms_norm(const CallContext& ctx) {
  auto x = paired_shape(ctx, "x1", "x2");
  DType d = paired_dtype(ctx, "x1", "x2");
  check_trailing(x, ctx, "gamma");
  return meta::tuple(
      {tensor(d, x), tensor(DType::Float32, rstd_shape(x, ctx, "gamma")), tensor(d, x)});
}

// _C_ascend::npu_add_rms_norm_bias -> (y, rstd, x): npu_add_rms_norm's outputs
// (vllm-ascend's csrc allocates y and x like x1, rstd fp32); beta, when given,
// has gamma's shape.
ValueType add_rms_norm_bias(const CallContext& ctx) {
  ValueType out = add_rms_norm(ctx);
  auto g = meta::shape_arg(ctx, "gamma"), beta = meta::shape_arg(ctx, "beta");
  if (g && beta && !same_shape(*g, *beta))
    meta::fail("argument 'beta' {} must have gamma's shape {}", meta::shape_str(*beta),
               meta::shape_str(*g));
  return out;
}

// npu_add_layer_norm -> (y, mean, rstd, x), as torch_npu's op-plugin allocates
// them (AddLayerNormKernelNpuOpApi.cpp): y and x in x1's dtype when x1 and x2
// agree, else fp32; mean and rstd fp32 of x's leading dims then ONE 1, which
// is aten.native_layer_norm's stats shape only for a 1-D gamma.
ValueType add_layer_norm(const CallContext& ctx) {
  auto x = paired_shape(ctx, "x1", "x2");
  DType a = meta::dtype_of_arg(ctx, "x1"), b = meta::dtype_of_arg(ctx, "x2");
  DType d = a != DType::Unknown && b != DType::Unknown && a != b ? DType::Float32
                                                                 : paired_dtype(ctx, "x1", "x2");
  check_trailing(x, ctx, "gamma");
  check_trailing(x, ctx, "beta");
  auto g = meta::shape_arg(ctx, "gamma"), beta = meta::shape_arg(ctx, "beta");
  if (g && beta && !same_shape(*g, *beta))
    meta::fail("arguments 'gamma' {} and 'beta' {} must have the same shape", meta::shape_str(*g),
               meta::shape_str(*beta));
  std::optional<Shape> stats;
  if (x && g) {
    stats = Shape(x->begin(), x->end() - static_cast<std::ptrdiff_t>(g->size()));
    stats->push_back(SymInt(1));
  }
  return meta::tuple(
      {tensor(d, x), tensor(DType::Float32, stats), tensor(DType::Float32, stats), tensor(d, x)});
}

ValueType rms_norm(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "self");
  DType d = meta::dtype_of_arg(ctx, "self");
  check_trailing(x, ctx, "gamma");
  return meta::tuple({tensor(d, x), tensor(DType::Float32, rstd_shape(x, ctx, "gamma"))});
}

// npu_add_rms_norm_cast -> (y_fp32, y, rstd, x)
ValueType add_rms_norm_cast(const CallContext& ctx) {
  ValueType base = add_rms_norm(ctx);
  const TensorType& y = base.elements[0].tensor;
  return meta::tuple(
      {tensor(DType::Float32, y.shape), base.elements[0], base.elements[1], base.elements[2]});
}

// npu_add_rms_norm_v2 -> rstd (x1, x2 updated in place)
ValueType add_rms_norm_v2(const CallContext& ctx) {
  return add_rms_norm(ctx).elements[1];
}

// npu_add_rms_norm_v2_functional -> (rstd, y, x)
ValueType add_rms_norm_v2_functional(const CallContext& ctx) {
  ValueType base = add_rms_norm(ctx);
  return meta::tuple({base.elements[1], base.elements[0], base.elements[2]});
}

// The empty tensor a masked-off output becomes.
ValueType empty_output(DType d) {
  return tensor(d, Shape{0});
}

// npu_add_rms_norm_dynamic_quant -> (y1, y2, x_out, scale1, scale2)
ValueType add_rms_norm_dynamic_quant(const CallContext& ctx) {
  auto x = paired_shape(ctx, "x1", "x2");
  DType d = paired_dtype(ctx, "x1", "x2");
  if (x && x->size() < 2) meta::fail("arguments 'x1'/'x2' must have rank 2..8, got {}", x->size());
  for (std::string_view n : {"gamma", "smooth_scale1", "smooth_scale2", "beta"})
    check_smooth(x, ctx, n);
  bool s1 = !ctx.is_none("smooth_scale1"), s2 = !ctx.is_none("smooth_scale2");
  bool out1 = true, out2 = s1 && s2;
  if (!ctx.is_none("output_mask")) {
    const Arg& m = ctx.arg("output_mask");
    if (!m.is_list() || m.as_list().items.size() != 2 || !m.as_list().items[0].is_bool() ||
        !m.as_list().items[1].is_bool())
      meta::fail("argument 'output_mask' must be a list of two bools");
    out1 = std::get<bool>(m.as_list().items[0].value);
    out2 = std::get<bool>(m.as_list().items[1].value);
    if (s1 && !out1) meta::fail("smooth_scale1 is given but output_mask[0] is False");
    if (s2 && !out2) meta::fail("smooth_scale2 is given but output_mask[1] is False");
    if (!out1 && !out2) meta::fail("argument 'output_mask' must not be [False, False]");
  }
  QuantOut q = quant_out(ctx, "y_dtype");
  ValueType y = tensor(q.dtype, quantized_shape(x, q));
  ValueType scale = tensor(DType::Float32, drop_last(x));
  return meta::tuple({out1 ? y : empty_output(q.dtype), out2 ? y : empty_output(q.dtype),
                      tensor(d, x), out1 ? scale : empty_output(DType::Float32),
                      out2 ? scale : empty_output(DType::Float32)});
}

// y, mxscale and the empty rstd of the fused norms (blocks of 32 along the last dim); beta,
// when given, has gamma's shape.
std::vector<ValueType> norm_mx_outputs(const CallContext& ctx, const std::optional<Shape>& x) {
  check_trailing(x, ctx, "gamma");
  auto g = meta::shape_arg(ctx, "gamma"), beta = meta::shape_arg(ctx, "beta");
  if (g && beta && !same_shape(*g, *beta))
    meta::fail("argument 'beta' {} must have gamma's shape {}", meta::shape_str(*beta),
               meta::shape_str(*g));
  MxOut out = mx_out(ctx);
  return {tensor(out.dtype, mx_y_shape(x, out)), tensor(DType::UInt8, mx_scale_shape(x, -1, 32)),
          empty_output(DType::Float32)};
}

// npu_rms_norm_dynamic_mx_quant -> (y, mxscale, rstd)
ValueType rms_norm_dynamic_mx_quant(const CallContext& ctx) {
  return meta::tuple(norm_mx_outputs(ctx, meta::shape_arg(ctx, "x")));
}

// npu_add_rms_norm_dynamic_mx_quant -> (y, x, mxscale, rstd)
ValueType add_rms_norm_dynamic_mx_quant(const CallContext& ctx) {
  auto x = paired_shape(ctx, "x1", "x2");
  DType d = paired_dtype(ctx, "x1", "x2");
  std::vector<ValueType> o = norm_mx_outputs(ctx, x);
  return meta::tuple({o[0], tensor(d, x), o[1], o[2]});
}

// npu_add_rms_norm_quant -> (y1, y2, x)
ValueType add_rms_norm_quant(const CallContext& ctx) {
  auto x = paired_shape(ctx, "x1", "x2");
  DType d = paired_dtype(ctx, "x1", "x2");
  check_trailing(x, ctx, "gamma");
  if (meta::require_int(ctx, "axis") != -1) meta::fail("argument 'axis' must be -1");
  auto g = meta::shape_arg(ctx, "gamma");
  for (std::string_view n : {"scales1", "zero_points1", "beta", "scales2", "zero_points2"}) {
    auto s = meta::shape_arg(ctx, n);
    if (g && s && !same_shape(*g, *s))
      meta::fail("argument '{}' {} must have gamma's shape {}", n, meta::shape_str(*s),
                 meta::shape_str(*g));
  }
  QuantOut q = quant_out(ctx, "dst_type");
  ValueType y = tensor(q.dtype, quantized_shape(x, q));
  return meta::tuple({y, y, tensor(d, x)});
}

// npu_rms_norm_quant(x, gamma, beta, scale, offset) -> y of x's shape in the quantized dtype
// (int8 by default; quint4x2 packs eight int4 into an int32 of the last dim / 8). gamma and
// beta [D] or [1, D]; scale and offset one element each.
ValueType rms_norm_quant(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "x");
  for (std::string_view n : {"gamma", "beta"}) {
    auto g = meta::shape_arg(ctx, n);
    bool ok = !g || !x || x->empty() ||
              ((g->size() == 1 || (g->size() == 2 && (*g)[0] == SymInt(1))) &&
               !meta::dims_differ(g->back(), x->back()));
    if (!ok)
      meta::fail("argument '{}' {} must be [D] or [1, D] with D the last dim of x {}", n,
                 meta::shape_str(*g), meta::shape_str(*x));
  }
  for (std::string_view n : {"scale", "offset"}) {
    auto s = meta::shape_arg(ctx, n);
    if (s && !(s->size() == 1 && (*s)[0] == SymInt(1)))
      meta::fail("argument '{}' {} must have shape [1]", n, meta::shape_str(*s));
  }
  QuantOut q = quant_out(ctx, "dst_dtype");
  return tensor(q.dtype, quantized_shape(x, q));
}

}  // namespace

void add_npu_norm_meta(OpRegistry& reg) {
  meta::set_all(reg, {"npu::npu_add_rms_norm"}, add_rms_norm);
  meta::set_all(reg, {"npu::npu_rms_norm"}, rms_norm);
  meta::set_all(reg, {"npu::npu_add_layer_norm"}, add_layer_norm);
  meta::set_all(reg, {"npu::npu_add_rms_norm_cast"}, add_rms_norm_cast);
  meta::set_all(reg, {"npu::npu_add_rms_norm_v2"}, add_rms_norm_v2);
  meta::set_all(reg, {"npu::npu_add_rms_norm_v2_functional"}, add_rms_norm_v2_functional);
  meta::set_all(reg, {"npu::npu_add_rms_norm_dynamic_quant"}, add_rms_norm_dynamic_quant);
  meta::set_all(reg, {"npu::npu_add_rms_norm_quant"}, add_rms_norm_quant);
  meta::set_all(reg, {"npu::npu_rms_norm_dynamic_mx_quant"}, rms_norm_dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_add_rms_norm_dynamic_mx_quant"}, add_rms_norm_dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_rms_norm_quant"}, rms_norm_quant);
  meta::set_all(reg, {"_C_ascend::npu_add_rms_norm_bias"}, add_rms_norm_bias);
}

}  // namespace eqfuse::npu_meta
