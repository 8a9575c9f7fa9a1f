// Meta functions for the torch_npu ops of docs/reference/torchair-passes.md §7: the
// rms_norm families (add/cast/quant/dynamic_quant/v2), add_layer_norm, dynamic quant and
// quantize, transpose_batchmatmul, kv_rmsnorm_rope_cache, mla_prolog_v3,
// swiglu, quant_matmul, fused_matmul, rotary_mul and _npu_dtype_cast (in meta_misc.cpp).
#include <algorithm>
#include <array>
#include <string>

#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

bool same_shape(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (meta::dims_differ(a[i], b[i])) return false;
  return true;
}

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

std::optional<Shape> drop_last(const std::optional<Shape>& s) {
  if (!s) return std::nullopt;
  if (s->empty()) meta::fail("expected a tensor with at least 1 dim");
  return Shape(s->begin(), s->end() - 1);
}

// Quantized output element type for a ScalarType argument: int8 by default;
// quint4x2 packs 8 values per int32 along the last dim.
struct QuantOut {
  DType dtype = DType::Int8;
  bool packed_int4 = false;
};

QuantOut quant_out(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return {};
  // torch_npu extension codes without a DType here (hifloat8, packed fp4).
  if (a.is_int() && std::get<int64_t>(a.value) >= 290 &&
      !dtype_from_scalar_type(std::get<int64_t>(a.value)))
    return {DType::Unknown, false};
  DType d = *meta::dtype_arg(ctx, name);
  switch (d) {
    case DType::Float8E4M3FN:
    case DType::Float8E5M2:
      return {d, false};
    case DType::Int8:
    case DType::QInt8:
      return {DType::Int8, false};
    case DType::UInt8:
    case DType::QUInt8:
      return {DType::UInt8, false};
    case DType::Int32:
    case DType::QInt32:
      return {DType::Int32, false};
    case DType::QUInt4x2:
      return {DType::Int32, true};
    default:
      meta::fail("argument '{}': unsupported quantized dtype {}", name, dtype_torch_name(d));
  }
}

std::optional<Shape> quantized_shape(std::optional<Shape> s, const QuantOut& q) {
  if (!s || !q.packed_int4) return s;
  if (s->empty()) meta::fail("int4 packing needs at least 1 dim");
  SymInt& last = s->back();
  if (auto c = last.constant(); c && *c % 8 != 0)
    meta::fail("int4 output needs the last dim to be a multiple of 8, got {}", *c);
  last = last.floordiv(SymInt(8));
  return s;
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

// vllm::quantize -> int8 of the input's shape (npu_quantize to qint8 along the
// last dim): the reciprocal scale and the offset are 1-D, of size 1 or the last dim.
ValueType vllm_quantize(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "in_tensor");
  for (std::string_view n : {"input_scale", "input_scale_reciprocal", "input_offset"}) {
    auto s = meta::shape_arg(ctx, n);
    if (!x || !s || x->empty()) continue;
    if (s->size() != 1 || ((*s)[0] != SymInt(1) && meta::dims_differ((*s)[0], x->back())))
      meta::fail("argument '{}' {} must be 1-D of size 1 or {}", n, meta::shape_str(*s),
                 x->back().to_string());
  }
  return tensor(DType::Int8, x);
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

void check_smooth(const std::optional<Shape>& x, const CallContext& ctx, std::string_view name) {
  auto s = meta::shape_arg(ctx, name);
  if (!x || !s || x->empty()) return;
  if (s->size() != 1 || meta::dims_differ((*s)[0], x->back()))
    meta::fail("argument '{}' {} must be 1-D with the last dim {} of the input", name,
               meta::shape_str(*s), x->back().to_string());
}

// npu_dynamic_quant -> (y, scale)
ValueType dynamic_quant(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "input");
  if (x && x->size() < 2) meta::fail("argument 'input' must have rank > 1, got {}", x->size());
  if (ctx.is_none("group_index")) check_smooth(x, ctx, "smooth_scales");
  QuantOut q = quant_out(ctx, "dst_type");
  const auto* mode_text = std::get_if<std::string>(&ctx.arg("quant_mode").value);
  if (!ctx.is_none("quant_mode") && !mode_text)
    meta::fail("argument 'quant_mode' must be a string");
  std::string mode = mode_text ? *mode_text : "pertoken";
  std::optional<Shape> scale;
  if (mode == "pertoken") {
    scale = drop_last(x);
  } else if (mode == "pertensor") {
    scale = Shape{1};
  } else if (mode == "perchannel") {
    // Per-channel: batch dims then one scale per channel (last dim).
    if (x) {
      scale = Shape(x->begin(), x->end() - 2);
      scale->push_back(x->back());
    }
  } else {
    meta::fail("argument 'quant_mode': unknown mode '{}'", mode);
  }
  return meta::tuple({tensor(q.dtype, quantized_shape(x, q)), tensor(DType::Float32, scale)});
}

// npu_quantize -> y
ValueType quantize(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "self");
  QuantOut q = quant_out(ctx, "dtype");
  int64_t axis = meta::require_int(ctx, "axis");
  if (x && !x->empty()) {
    int64_t a = meta::wrap_dim(axis, static_cast<int64_t>(x->size()), "axis");
    if (auto s = meta::shape_arg(ctx, "scales"); s && s->size() == 1) {
      const SymInt& n = (*s)[0];
      if (n != SymInt(1) && meta::dims_differ(n, (*x)[static_cast<size_t>(a)]))
        meta::fail("argument 'scales' {} must have size 1 or {} (input dim {})",
                   meta::shape_str(*s), (*x)[static_cast<size_t>(a)].to_string(), a);
    }
  }
  if (!meta::tensor_arg(ctx, "self")) return tensor(q.dtype, std::nullopt);
  return tensor(q.dtype, quantized_shape(x, q));
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

// ---- MX quantization (npu_dynamic_mx_quant and the norms fused with it) ----------------------

// y's element type: an 8-bit float, or torch_npu's packed fp4 codes (296 float4_e2m1fn_x2, 297
// float4_e1m2fn_x2; 40 and 41 in CANN's numbering), two values per uint8 along the last dim.
struct MxOut {
  DType dtype = DType::UInt8;
  bool packed_fp4 = true;
};

MxOut mx_out(const CallContext& ctx) {
  const Arg& a = ctx.arg("dst_type");
  if (a.is_int()) {
    int64_t code = std::get<int64_t>(a.value);
    if (code == 296 || code == 297 || code == 40 || code == 41) return {};
  }
  DType d = *meta::dtype_arg(ctx, "dst_type");
  if (d != DType::Float8E4M3FN && d != DType::Float8E5M2)
    meta::fail(
        "argument 'dst_type': MX quantization makes float8_e4m3fn, float8_e5m2 or packed "
        "fp4 (296, 297), got {}",
        dtype_torch_name(d));
  return {d, false};
}

std::optional<Shape> mx_y_shape(std::optional<Shape> x, const MxOut& out) {
  if (!x || !out.packed_fp4) return x;
  if (x->empty()) meta::fail("packed fp4 output needs at least 1 dim");
  if (auto c = x->back().constant(); c && *c % 2 != 0)
    meta::fail("packed fp4 output needs an even last dim, got {}", *c);
  x->back() = x->back().floordiv(SymInt(2));
  return x;
}

// mxscale: x's shape with dim `axis` = ceil(ceil(n / block_size) / 2), then a trailing 2 (two
// consecutive blocks per entry); uint8, the e8m0 bits.
std::optional<Shape> mx_scale_shape(std::optional<Shape> x, int64_t axis, int64_t block_size) {
  if (!x) return x;
  if (x->empty()) meta::fail("MX quantization needs an input of rank >= 1");
  size_t a = static_cast<size_t>(meta::wrap_dim(axis, static_cast<int64_t>(x->size()), "axis"));
  SymInt blocks = ((*x)[a] + SymInt(block_size - 1)).floordiv(SymInt(block_size));
  (*x)[a] = (blocks + SymInt(1)).floordiv(SymInt(2));
  x->push_back(SymInt(2));
  return x;
}

void check_mx_block_size(int64_t block_size) {
  if (block_size <= 0 || block_size % 32 != 0 || block_size > 1024)
    meta::fail("argument 'block_size' must be a multiple of 32 in [32, 1024], got {}", block_size);
}

// npu_dynamic_mx_quant -> (y, mxscale)
ValueType dynamic_mx_quant(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "input");
  MxOut out = mx_out(ctx);
  int64_t block_size = meta::require_int(ctx, "block_size");
  check_mx_block_size(block_size);
  return meta::tuple(
      {tensor(out.dtype, mx_y_shape(x, out)),
       tensor(DType::UInt8, mx_scale_shape(x, meta::require_int(ctx, "axis"), block_size))});
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

// npu_swiglu_mx_quant -> (y, mxscale): y is x with activate_dim halved (then packed for fp4);
// mxscale is x with activate_dim halved and `axis` = ceil(n / 64) (floor(n / 64) plus the
// group count for a grouped non-last axis, as op-plugin allocates), then a trailing 2.
ValueType swiglu_mx_quant(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "x");
  MxOut out = mx_out(ctx);
  if (!x) return meta::tuple({tensor(out.dtype, std::nullopt), tensor(DType::UInt8, std::nullopt)});
  const auto rank = static_cast<int64_t>(x->size());
  if (rank < 2) meta::fail("argument 'x' must be at least 2-D, got {}-D", rank);
  auto half = static_cast<size_t>(
      meta::wrap_dim(meta::require_int(ctx, "activate_dim"), rank, "activate_dim"));
  auto axis = static_cast<size_t>(meta::wrap_dim(meta::require_int(ctx, "axis"), rank, "axis"));
  if (auto c = (*x)[half].constant(); c && *c % 2 != 0)
    meta::fail("size {} along activate_dim must be even", *c);
  Shape y = *x;
  y[half] = y[half].floordiv(SymInt(2));
  Shape scale = y;
  auto groups = meta::shape_arg(ctx, "group_index");
  if (groups && !groups->empty() && axis + 1 != y.size())
    scale[axis] = scale[axis].floordiv(SymInt(64)) + (*groups)[0];
  else
    scale[axis] = (scale[axis] + SymInt(63)).floordiv(SymInt(64));
  scale.push_back(SymInt(2));
  return meta::tuple({tensor(out.dtype, mx_y_shape(y, out)), tensor(DType::UInt8, scale)});
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

std::vector<int64_t> perm_arg(const CallContext& ctx, std::string_view name,
                              std::vector<int64_t> dflt) {
  return meta::int_list_arg(ctx, name).value_or(std::move(dflt));
}

// npu_transpose_batchmatmul: transpose(input by perm_x1) @ weight, permuted by perm_y.
ValueType transpose_batchmatmul(const CallContext& ctx) {
  auto px1 = perm_arg(ctx, "perm_x1", {0, 1, 2});
  auto px2 = perm_arg(ctx, "perm_x2", {0, 1, 2});
  auto py = perm_arg(ctx, "perm_y", {1, 0, 2});
  const std::vector<int64_t> id = {0, 1, 2}, swap01 = {1, 0, 2}, swap12 = {0, 2, 1};
  if (px1 != id && px1 != swap01) meta::fail("argument 'perm_x1' must be [0,1,2] or [1,0,2]");
  if (px2 != id && px2 != swap12) meta::fail("argument 'perm_x2' must be [0,1,2] or [0,2,1]");
  if (py != swap01) meta::fail("argument 'perm_y' must be [1,0,2]");
  if (!ctx.is_none("bias")) meta::fail("argument 'bias' is not supported");
  int64_t split = meta::int_arg(ctx, "batch_split_factor").value_or(1);
  if (split < 1) meta::fail("argument 'batch_split_factor' must be >= 1, got {}", split);
  bool scaled = !ctx.is_none("scale");
  DType d = scaled ? DType::Int8 : meta::dtype_of_arg(ctx, "input");
  auto in = meta::shape_arg(ctx, "input");
  auto w = meta::shape_arg(ctx, "weight");
  if (in && in->size() != 3) meta::fail("argument 'input' must be 3-D, got {}-D", in->size());
  if (w && w->size() != 3) meta::fail("argument 'weight' must be 3-D, got {}-D", w->size());
  if (!in || !w) return tensor(d, std::nullopt);
  SymInt b = px1 == id ? (*in)[0] : (*in)[1];
  SymInt m = px1 == id ? (*in)[1] : (*in)[0];
  SymInt k = (*in)[2];
  SymInt wk = px2 == id ? (*w)[1] : (*w)[2];
  SymInt n = px2 == id ? (*w)[2] : (*w)[1];
  if (meta::dims_differ(b, (*w)[0]))
    meta::fail("batch dims do not match: 'input' has {} and 'weight' has {}", b.to_string(),
               (*w)[0].to_string());
  if (meta::dims_differ(k, wk))
    meta::fail("inner dims do not match: 'input' has {} and 'weight' has {}", k.to_string(),
               wk.to_string());
  if (scaled) return tensor(d, Shape{m, SymInt(1), b * n});
  if (split > 1) return tensor(d, Shape{SymInt(split), m, (b * n).floordiv(SymInt(split))});
  return tensor(d, Shape{m, b, n});
}

// npu_kv_rmsnorm_rope_cache*: (k_rope [B,N,S,rope], c_kv [B,N,S,gamma]).
std::pair<ValueType, ValueType> kv_rope_outputs(const CallContext& ctx) {
  auto kv = meta::shape_arg(ctx, "kv");
  auto cos = meta::shape_arg(ctx, "cos");
  auto gamma = meta::shape_arg(ctx, "gamma");
  auto v = meta::shape_arg(ctx, "v");
  DType d = meta::dtype_of_arg(ctx, "kv");
  if (kv && kv->size() != 4) meta::fail("argument 'kv' must be 4-D, got {}-D", kv->size());
  if (cos && cos->size() != 4) meta::fail("argument 'cos' must be 4-D, got {}-D", cos->size());
  if (gamma && gamma->size() != 1)
    meta::fail("argument 'gamma' must be 1-D, got {}-D", gamma->size());
  if (v) {
    if (v->size() != 4) meta::fail("argument 'v' must be 4-D, got {}-D", v->size());
    DType vd = meta::dtype_of_arg(ctx, "v");
    if (vd != DType::Unknown && d != DType::Unknown && vd != d)
      meta::fail("argument 'v' must have the dtype of 'kv'");
    if (kv)
      for (size_t i = 0; i < 3; ++i)
        if (meta::dims_differ((*v)[i], (*kv)[i]))
          meta::fail("argument 'v' {} must share (B, N, S) with 'kv' {}", meta::shape_str(*v),
                     meta::shape_str(*kv));
  }
  std::optional<Shape> rope, ckv;
  if (kv && cos) rope = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*cos)[3]};
  if (kv && v) {
    ckv = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*v)[3]};
  } else if (kv && gamma) {
    ckv = Shape{(*kv)[0], (*kv)[1], (*kv)[2], (*gamma)[0]};
  }
  return {tensor(d, rope), tensor(d, ckv)};
}

ValueType type_or_unknown(const CallContext& ctx, std::string_view name) {
  const TensorType* t = meta::tensor_arg(ctx, name);
  return t ? tensor(t->dtype, t->shape) : ValueType::unknown();
}

ValueType kv_rmsnorm_rope_cache(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple(
      {type_or_unknown(ctx, "k_cache"), type_or_unknown(ctx, "ckv_cache"), rope, ckv});
}

ValueType kv_rmsnorm_rope_cache_v2(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple({rope, ckv});
}

ValueType kv_rmsnorm_rope_cache_v2_functional(const CallContext& ctx) {
  auto [rope, ckv] = kv_rope_outputs(ctx);
  return meta::tuple(
      {rope, ckv, type_or_unknown(ctx, "k_cache"), type_or_unknown(ctx, "ckv_cache")});
}

// npu_mla_prolog_v3: query [.., N, Hckv] and query_rope [.., N, Dr] follow
// from token_x's leading dims, weight_uk (N, D, Hckv) and rope_sin (.., Dr).
// The dequant scales and query_norm depend on quant modes: left Unknown.
ValueType mla_prolog_outputs(const CallContext& ctx) {
  auto x = meta::shape_arg(ctx, "token_x");
  auto uk = meta::shape_arg(ctx, "weight_uk");
  auto sin = meta::shape_arg(ctx, "rope_sin");
  if (x && x->size() != 2 && x->size() != 3)
    meta::fail("argument 'token_x' must be [T, He] or [B, S, He], got {}", meta::shape_str(*x));
  if (uk && uk->size() != 3) meta::fail("argument 'weight_uk' must be 3-D, got {}-D", uk->size());
  DType xd = meta::dtype_of_arg(ctx, "token_x");
  DType qd = DType::Unknown;
  if (meta::require_int(ctx, "query_quant_mode") != 0) {
    qd = DType::Int8;
  } else if (xd != DType::Unknown) {
    qd = dtype_is_floating(xd) ? xd : DType::BFloat16;
  }
  std::optional<Shape> q, qr;
  if (x && uk) {
    q = Shape(x->begin(), x->end() - 1);
    q->push_back((*uk)[0]);
    q->push_back((*uk)[2]);
  }
  if (x && uk && sin && !sin->empty()) {
    qr = Shape(x->begin(), x->end() - 1);
    qr->push_back((*uk)[0]);
    qr->push_back(sin->back());
  }
  return meta::tuple({tensor(qd, q), tensor(DType::BFloat16, qr), ValueType::unknown(),
                      ValueType::unknown(), ValueType::unknown()});
}

ValueType mla_prolog_v3(const CallContext& ctx) {
  return mla_prolog_outputs(ctx);
}

ValueType mla_prolog_v3_functional(const CallContext& ctx) {
  ValueType t = mla_prolog_outputs(ctx);
  t.elements.push_back(type_or_unknown(ctx, "kv_cache"));
  t.elements.push_back(type_or_unknown(ctx, "kr_cache"));
  return t;
}

// npu_swiglu halves `dim`.
ValueType swiglu(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  int64_t dim =
      meta::wrap_dim(meta::require_int(ctx, "dim"), static_cast<int64_t>(s.size()), "dim");
  if (s.empty()) meta::fail("argument 'self' must have at least 1 dim");
  SymInt& d = s[static_cast<size_t>(dim)];
  if (auto c = d.constant(); c && *c % 2 != 0)
    meta::fail("argument 'self': size {} along dim {} must be even", *c, dim);
  d = d.floordiv(SymInt(2));
  return tensor(self->dtype, s);
}

// The result shape of a batched matmul of a [.., m, k] by b [.., k, n]: the batch dims
// broadcast, then [m, n].
Shape batched_matmul_shape(const Shape& a, const Shape& b, const SymInt& n, std::string_view a_name,
                           std::string_view b_name) {
  Shape out =
      meta::broadcast(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2), a_name, b_name);
  out.push_back(a[a.size() - 2]);
  out.push_back(n);
  return out;
}

// npu_quant_matmul: x1 [.., m, k] @ x2 [.., k, n]; int32 operands pack 8 int4s.
ValueType quant_matmul(const CallContext& ctx) {
  DType out = DType::Int8;
  if (!ctx.is_none("output_dtype")) out = *meta::dtype_arg(ctx, "output_dtype");
  auto a = meta::shape_arg(ctx, "x1");
  auto b = meta::shape_arg(ctx, "x2");
  if (a && (a->size() < 2 || a->size() > 6)) meta::fail("argument 'x1' must be 2-D to 6-D");
  if (b && (b->size() < 2 || b->size() > 6)) meta::fail("argument 'x2' must be 2-D to 6-D");
  if (!a || !b) return tensor(out, std::nullopt);
  bool a_packed = meta::dtype_of_arg(ctx, "x1") == DType::Int32;
  bool b_packed = meta::dtype_of_arg(ctx, "x2") == DType::Int32;
  SymInt k1 = a->back() * SymInt(a_packed ? 8 : 1);
  SymInt k2 = (*b)[b->size() - 2];
  SymInt n = b->back() * SymInt(b_packed ? 8 : 1);
  if (meta::dims_differ(k1, k2))
    meta::fail("inner dims do not match: 'x1' has {} and 'x2' has {}", k1.to_string(),
               k2.to_string());
  if (auto s = meta::shape_arg(ctx, "scale")) {
    if (s->size() != 1 || ((*s)[0] != SymInt(1) && meta::dims_differ((*s)[0], n)))
      meta::fail("argument 'scale' {} must be 1-D of size 1 or n={}", meta::shape_str(*s),
                 n.to_string());
  }
  return tensor(out, batched_matmul_shape(*a, *b, n, "x1", "x2"));
}

// The fused_op_type strings npu_fused_matmul accepts (op-plugin's aclnnFusedMatmul
// wrapper; "16cast32" gives a float32 result).
constexpr std::array<std::string_view, 7> kFusedMatmulOps = {
    "", "add", "mul", "relu", "gelu_erf", "gelu_tanh", "16cast32"};

// npu_fused_matmul: x [.., m, k] @ x2 [.., k, n] (batch dims broadcast), then the epilogue;
// the result has x's dtype. "add" and "mul" need x3, which broadcasts into the result.
ValueType fused_matmul(const CallContext& ctx) {
  const Arg& op_arg = ctx.arg("fused_op_type");
  if (!std::holds_alternative<std::string>(op_arg.value))
    meta::fail("argument 'fused_op_type' must be a string");
  const std::string& op = std::get<std::string>(op_arg.value);
  if (std::find(kFusedMatmulOps.begin(), kFusedMatmulOps.end(), op) == kFusedMatmulOps.end())
    meta::fail(
        "unknown fused_op_type '{}' (known: add, mul, relu, gelu_erf, gelu_tanh, 16cast32 "
        "or empty)",
        op);
  bool binary = op == "add" || op == "mul";
  if (binary && ctx.is_none("x3")) meta::fail("fused_op_type '{}' needs x3", op);
  DType out = op == "16cast32" ? DType::Float32 : meta::dtype_of_arg(ctx, "x");
  auto a = meta::shape_arg(ctx, "x");
  auto b = meta::shape_arg(ctx, "x2");
  if (a && a->size() < 2) meta::fail("argument 'x' must be at least 2-D");
  if (b && b->size() < 2) meta::fail("argument 'x2' must be at least 2-D");
  if (!a || !b) return tensor(out, std::nullopt);
  SymInt k1 = a->back(), k2 = (*b)[b->size() - 2], n = b->back();
  if (meta::dims_differ(k1, k2))
    meta::fail("inner dims do not match: 'x' has {} and 'x2' has {}", k1.to_string(),
               k2.to_string());
  if (auto bias = meta::shape_arg(ctx, "bias")) {
    if (bias->size() != 1 || meta::dims_differ((*bias)[0], n))
      meta::fail("argument 'bias' {} must be 1-D of size n={}", meta::shape_str(*bias),
                 n.to_string());
  }
  Shape out_shape = batched_matmul_shape(*a, *b, n, "x", "x2");
  if (auto x3 = meta::shape_arg(ctx, "x3")) {
    Shape joint = meta::broadcast(out_shape, *x3, "result", "x3");
    if (!same_shape(joint, out_shape))
      meta::fail("argument 'x3' {} must broadcast into the result {}", meta::shape_str(*x3),
                 meta::shape_str(out_shape));
  }
  return tensor(out, out_shape);
}

// A scatter into `self` (functional or in place) has self's type.
ValueType scatter_into_self(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(self->dtype, self->shape);
}

// An int literal argument that must be positive (sizes of heads and hidden dims).
std::optional<int64_t> positive_int(const CallContext& ctx, std::string_view name) {
  std::optional<int64_t> v = meta::int_arg(ctx, name);
  if (v && *v <= 0) meta::fail("argument '{}' must be positive, got {}", name, *v);
  return v;
}

// A known dim that is not a multiple of `n` (an unknown or symbolic dim passes).
bool not_multiple(const SymInt& d, int64_t n) {
  auto c = d.constant();
  return c && n > 0 && *c % n != 0;
}

// positions [T] and a 2-D cos_sin_cache whose last dim is `rope_dim` when known.
void check_rope_inputs(const CallContext& ctx, std::optional<int64_t> rope_dim) {
  auto pos = meta::shape_arg(ctx, "positions");
  if (pos && pos->size() != 1) meta::fail("argument 'positions' must be 1-D");
  if (DType p = meta::dtype_of_arg(ctx, "positions");
      p != DType::Unknown && p != DType::Int64 && p != DType::Int32)
    meta::fail("argument 'positions' must be int32 or int64");
  auto cache = meta::shape_arg(ctx, "cos_sin_cache");
  if (cache && cache->size() != 2) meta::fail("argument 'cos_sin_cache' must be 2-D");
  if (cache && rope_dim && meta::dims_differ(cache->back(), SymInt(*rope_dim)))
    meta::fail("argument 'cos_sin_cache' {}: last dim must be the rotary dim {}",
               meta::shape_str(*cache), *rope_dim);
}

// vllm.npu_rotary_embedding -> (query, key), each keeping its own type.
ValueType npu_rotary_embedding(const CallContext& ctx) {
  std::optional<int64_t> head = positive_int(ctx, "head_size");
  std::optional<int64_t> rot = positive_int(ctx, "rotary_dim");
  if (head && rot && (*rot > *head || *rot % 2 != 0))
    meta::fail("argument 'rotary_dim' {} must be even and at most head_size {}", *rot, *head);
  check_rope_inputs(ctx, rot);
  std::vector<ValueType> out;
  for (const char* name : {"query", "key"}) {
    const TensorType* t = meta::tensor_arg(ctx, name);
    if (!t) {
      out.push_back(ValueType::unknown());
      continue;
    }
    if (t->shape && t->shape->empty()) meta::fail("argument '{}' must have at least 1 dim", name);
    if (t->shape && head && not_multiple(t->shape->back(), *head) && t->shape->size() <= 2)
      meta::fail("argument '{}' {}: last dim must be a multiple of head_size {}", name,
                 meta::shape_str(*t->shape), *head);
    out.push_back(tensor(t->dtype, t->shape));
  }
  return meta::tuple(std::move(out));
}

// vllm.qkv_rmsnorm_rope(input [T, q + 2 kv], ...) -> (q [T, q], k [T, kv], v [T, kv]),
// all in input's dtype.
ValueType qkv_rmsnorm_rope(const CallContext& ctx) {
  std::optional<int64_t> q = positive_int(ctx, "q_hidden_size");
  std::optional<int64_t> kv = positive_int(ctx, "kv_hidden_size");
  std::optional<int64_t> head = positive_int(ctx, "head_dim");
  if (head && ((q && *q % *head != 0) || (kv && *kv % *head != 0)))
    meta::fail("q_hidden_size and kv_hidden_size must be multiples of head_dim {}", *head);
  check_rope_inputs(ctx, std::nullopt);
  if (auto cache = meta::shape_arg(ctx, "cos_sin_cache"); cache && head) {
    if (auto r = cache->back().constant(); r && (*r > *head || *r % 2 != 0))
      meta::fail("argument 'cos_sin_cache': rotary dim {} must be even and at most head_dim {}", *r,
                 *head);
  }
  for (const char* w : {"q_weight", "k_weight", "q_bias", "k_bias"}) {
    auto s = meta::shape_arg(ctx, w);
    if (s && head && (s->size() != 1 || meta::dims_differ((*s)[0], SymInt(*head))))
      meta::fail("argument '{}' {} must be [head_dim] = [{}]", w, meta::shape_str(*s), *head);
  }
  const TensorType* in = meta::tensor_arg(ctx, "input");
  if (!in) return ValueType::unknown();
  DType d = in->dtype;
  if (!in->shape)
    return meta::tuple({tensor(d, std::nullopt), tensor(d, std::nullopt), tensor(d, std::nullopt)});
  const Shape& s = *in->shape;
  if (s.size() != 2) meta::fail("argument 'input' {} must be 2-D", meta::shape_str(s));
  // Checked: the sizes are literals of the call, and their sum may leave int64.
  if (q && kv && meta::dims_differ(s[1], SymInt(*q) + SymInt(*kv) * 2))
    meta::fail("argument 'input' {}: last dim must be q_hidden_size + 2 * kv_hidden_size = {}",
               meta::shape_str(s), (SymInt(*q) + SymInt(*kv) * 2).to_string());
  auto part = [&](std::optional<int64_t> n) {
    return n ? tensor(d, Shape{s[0], SymInt(*n)}) : tensor(d, std::nullopt);
  };
  return meta::tuple({part(q), part(kv), part(kv)});
}

// npu_rotary_mul(self, r1, r2) -> self's type: self 4-D with an even last dim, r1 and r2
// 4-D and broadcast to self (each dim 1 or self's).
ValueType rotary_mul(const CallContext& ctx) {
  const TensorType* x = meta::tensor_arg(ctx, "self");
  if (!x) return ValueType::unknown();
  if (x->shape) {
    const Shape& s = *x->shape;
    if (s.size() != 4) meta::fail("argument 'self' {} must be 4-D", meta::shape_str(s));
    if (not_multiple(s.back(), 2))
      meta::fail("argument 'self' {}: last dim must be even", meta::shape_str(s));
    for (const char* name : {"r1", "r2"}) {
      auto r = meta::shape_arg(ctx, name);
      if (!r) continue;
      bool ok = r->size() == 4;
      for (size_t i = 0; ok && i < 4; ++i)
        ok = (*r)[i] == SymInt(1) || !meta::dims_differ((*r)[i], s[i]);
      if (!ok)
        meta::fail("argument '{}' {} must be 4-D and broadcast to self {}", name,
                   meta::shape_str(*r), meta::shape_str(s));
    }
  }
  return tensor(x->dtype, x->shape);
}

// The input_layout string of npu_fusion_attention, when it is a literal.
std::optional<std::string> layout_arg(const CallContext& ctx) {
  const Arg& a = ctx.arg("input_layout");
  if (const auto* s = std::get_if<std::string>(&a.value)) return *s;
  return std::nullopt;
}

// q, k, v of npu_fusion_attention in [B, N, S, D] order (BSND is permuted), or nullopt
// for an unknown shape.
std::optional<Shape> as_bnsd(std::optional<Shape> s, const std::string& layout,
                             std::string_view name) {
  if (!s) return s;
  if (s->size() != 4)
    meta::fail("argument '{}' {} must be 4-D for layout {}", name, meta::shape_str(*s), layout);
  if (layout == "BSND") std::swap((*s)[1], (*s)[2]);
  return s;
}

// npu_fusion_attention(_v2)(query, key, value, head_num, input_layout, ...): layouts BNSD and
// BSND (the ones eqfuse models); q [B, N, S, D], k and v [B, N2, T, D] with N2 dividing
// N = head_num; pse and atten_mask broadcast to [B, N, S, T]. Outputs: attention_out in
// query's layout and dtype, softmax_max and softmax_sum fp32 [B, N, S, 8], an empty
// softmax_out, and three ints.
ValueType fusion_attention(const CallContext& ctx) {
  std::optional<std::string> layout = layout_arg(ctx);
  if (layout && *layout != "BNSD" && *layout != "BSND")
    meta::fail("input_layout '{}' is not modelled (eqfuse supports BNSD and BSND)", *layout);
  const std::string lay = layout.value_or("BNSD");
  DType d = meta::dtype_of_arg(ctx, "query");
  for (const char* name : {"key", "value"}) {
    DType other = meta::dtype_of_arg(ctx, name);
    if (d != DType::Unknown && other != DType::Unknown && other != d)
      meta::fail("argument '{}' ({}) must have the dtype of 'query' ({})", name,
                 dtype_torch_name(other), dtype_torch_name(d));
  }
  std::optional<Shape> q = as_bnsd(meta::shape_arg(ctx, "query"), lay, "query");
  std::optional<Shape> k = as_bnsd(meta::shape_arg(ctx, "key"), lay, "key");
  std::optional<Shape> v = as_bnsd(meta::shape_arg(ctx, "value"), lay, "value");
  std::optional<int64_t> heads = meta::int_arg(ctx, "head_num");
  if (q && heads && meta::dims_differ((*q)[1], SymInt(*heads)))
    meta::fail("head_num {} must equal query's head count {}", *heads, (*q)[1].to_string());
  if (q && k && meta::dims_differ(q->back(), k->back()))
    meta::fail("query and key head dims differ: {} vs {}", q->back().to_string(),
               k->back().to_string());
  if (k && v && meta::dims_differ((*k)[2], (*v)[2]))
    meta::fail("key and value sequence lengths differ: {} vs {}", (*k)[2].to_string(),
               (*v)[2].to_string());
  if (q && k) {
    auto n = (*q)[1].constant(), n2 = (*k)[1].constant();
    if (n && n2 && (*n2 <= 0 || *n % *n2 != 0))
      meta::fail("key's head count {} must divide query's {}", *n2, *n);
    Shape scores{(*q)[0], (*q)[1], (*q)[2], (*k)[2]};
    for (const char* name : {"pse", "atten_mask"}) {
      auto m = meta::shape_arg(ctx, name);
      if (m && meta::broadcast(scores, *m, "the scores [B, N, S, T]", name).size() != 4)
        meta::fail("argument '{}' {} does not broadcast to the scores {}", name,
                   meta::shape_str(*m), meta::shape_str(scores));
    }
  }
  if (const TensorType* mask = meta::tensor_arg(ctx, "atten_mask");
      mask && mask->dtype != DType::Unknown && mask->dtype != DType::Bool &&
      mask->dtype != DType::UInt8)
    meta::fail("argument 'atten_mask' must be bool or uint8, got {}",
               dtype_torch_name(mask->dtype));
  std::optional<Shape> out, stats;
  if (q && v) {
    out = *meta::shape_arg(ctx, "query");
    out->back() = v->back();
    stats = Shape{(*q)[0], (*q)[1], (*q)[2], SymInt(8)};
  }
  // seed, offset and numels describe dropout's random state: their values are left unknown.
  return meta::tuple({tensor(d, out), tensor(DType::Float32, stats), tensor(DType::Float32, stats),
                      tensor(d, Shape{SymInt(0)}), ValueType::unknown(), ValueType::unknown(),
                      ValueType::unknown()});
}

// npu_dequant_swiglu_quant(x, ...) -> (y int8 [..., H], scale fp32 [...]): x at least 2-D
// with an even last dim 2H.
ValueType dequant_swiglu_quant(const CallContext& ctx) {
  auto s = meta::shape_arg(ctx, "x");
  if (!s)
    return meta::tuple({tensor(DType::Int8, std::nullopt), tensor(DType::Float32, std::nullopt)});
  if (s->size() < 2) meta::fail("argument 'x' {} must be at least 2-D", meta::shape_str(*s));
  if (not_multiple(s->back(), 2))
    meta::fail("argument 'x' {}: last dim must be even", meta::shape_str(*s));
  Shape y = *s;
  y.back() = y.back().floordiv(SymInt(2));  // exact for constants
  Shape scale(s->begin(), s->end() - 1);
  return meta::tuple({tensor(DType::Int8, y), tensor(DType::Float32, scale)});
}

}  // namespace

void add_npu_meta(OpRegistry& reg) {
  meta::set_all(
      reg,
      {"npu::scatter_update", "npu::scatter_update_", "npu::npu_scatter_nd_update",
       "npu::npu_scatter_nd_update_", "npu::npu_quant_scatter", "npu::npu_quant_scatter_"},
      scatter_into_self);
  meta::set_all(reg, {"npu::npu_add_rms_norm"}, add_rms_norm);
  meta::set_all(reg, {"npu::npu_rms_norm"}, rms_norm);
  meta::set_all(reg, {"npu::npu_add_layer_norm"}, add_layer_norm);
  meta::set_all(reg, {"npu::npu_add_rms_norm_cast"}, add_rms_norm_cast);
  meta::set_all(reg, {"npu::npu_add_rms_norm_v2"}, add_rms_norm_v2);
  meta::set_all(reg, {"npu::npu_add_rms_norm_v2_functional"}, add_rms_norm_v2_functional);
  meta::set_all(reg, {"npu::npu_dynamic_quant"}, dynamic_quant);
  meta::set_all(reg, {"npu::npu_quantize"}, quantize);
  meta::set_all(reg, {"npu::npu_add_rms_norm_dynamic_quant"}, add_rms_norm_dynamic_quant);
  meta::set_all(reg, {"npu::npu_add_rms_norm_quant"}, add_rms_norm_quant);
  meta::set_all(reg, {"npu::npu_dynamic_mx_quant"}, dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_rms_norm_dynamic_mx_quant"}, rms_norm_dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_add_rms_norm_dynamic_mx_quant"}, add_rms_norm_dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_swiglu_mx_quant"}, swiglu_mx_quant);
  meta::set_all(reg, {"npu::npu_rms_norm_quant"}, rms_norm_quant);
  meta::set_all(reg, {"_C_ascend::npu_add_rms_norm_bias"}, add_rms_norm_bias);
  meta::set_all(reg, {"vllm::quantize"}, vllm_quantize);
  meta::set_all(reg, {"npu::npu_transpose_batchmatmul"}, transpose_batchmatmul);
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache"}, kv_rmsnorm_rope_cache);
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache_v2"}, kv_rmsnorm_rope_cache_v2);
  meta::set_all(reg, {"npu::npu_kv_rmsnorm_rope_cache_v2_functional"},
                kv_rmsnorm_rope_cache_v2_functional);
  meta::set_all(reg, {"npu::npu_mla_prolog_v3"}, mla_prolog_v3);
  meta::set_all(reg, {"npu::npu_mla_prolog_v3_functional"}, mla_prolog_v3_functional);
  meta::set_all(reg, {"npu::npu_swiglu"}, swiglu);
  meta::set_all(reg, {"npu::npu_quant_matmul"}, quant_matmul);
  meta::set_all(reg, {"npu::npu_fused_matmul"}, fused_matmul);
  meta::set_all(reg, {"vllm::npu_rotary_embedding"}, npu_rotary_embedding);
  meta::set_all(reg, {"vllm::qkv_rmsnorm_rope"}, qkv_rmsnorm_rope);
  meta::set_all(reg, {"npu::npu_rotary_mul"}, rotary_mul);
  meta::set_all(reg, {"npu::npu_dequant_swiglu_quant"}, dequant_swiglu_quant);
  meta::set_all(reg, {"npu::npu_fusion_attention", "npu::npu_fusion_attention_v2"},
                fusion_attention);
}

}  // namespace eqfuse
