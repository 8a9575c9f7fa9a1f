// Meta functions of the torch_npu and vllm quantizers: dynamic (per token, tensor or
// channel) and static quantization, MX quantization (blocks sharing an e8m0 scale) and the
// swiglu quantizers. Also the quantized output types (QuantOut, MxOut) that the fused norms
// of meta_npu_norm.cpp share with them.
#include <string>

#include "graph/meta/meta_npu_internal.hpp"

namespace eqfuse::npu_meta {

using meta::tensor;

std::optional<Shape> drop_last(const std::optional<Shape>& s) {
  if (!s) return std::nullopt;
  if (s->empty()) meta::fail("expected a tensor with at least 1 dim");
  return Shape(s->begin(), s->end() - 1);
}

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

void check_smooth(const std::optional<Shape>& x, const CallContext& ctx, std::string_view name) {
  auto s = meta::shape_arg(ctx, name);
  if (!x || !s || x->empty()) return;
  if (s->size() != 1 || meta::dims_differ((*s)[0], x->back()))
    meta::fail("argument '{}' {} must be 1-D with the last dim {} of the input", name,
               meta::shape_str(*s), x->back().to_string());
}

// ---- MX quantization (npu_dynamic_mx_quant and the norms fused with it) ----------------------

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

namespace {

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

void add_npu_quant_meta(OpRegistry& reg) {
  meta::set_all(reg, {"npu::npu_dynamic_quant"}, dynamic_quant);
  meta::set_all(reg, {"npu::npu_quantize"}, quantize);
  meta::set_all(reg, {"npu::npu_dynamic_mx_quant"}, dynamic_mx_quant);
  meta::set_all(reg, {"npu::npu_swiglu_mx_quant"}, swiglu_mx_quant);
  meta::set_all(reg, {"vllm::quantize"}, vllm_quantize);
  meta::set_all(reg, {"npu::npu_dequant_swiglu_quant"}, dequant_swiglu_quant);
}

}  // namespace eqfuse::npu_meta
