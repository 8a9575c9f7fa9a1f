// Meta functions for elementwise ops: binary arithmetic with broadcasting and
// torch's type promotion, unary math/activations, comparisons, where, clamp,
// remainder/floor_divide, bitwise and logical ops.
#include <algorithm>

#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

// One input of an elementwise op, as type promotion sees it.
struct Operand {
  DType dtype = DType::Unknown;
  // 2: tensor with dims, 1: zero-dim tensor, 0: Python scalar; -1 tensor of unknown rank.
  int priority = 0;
  bool known = true;
};

int category(DType d) {
  if (d == DType::Bool) return 0;
  if (dtype_is_floating(d)) return 2;
  if (d == DType::Complex64) return 3;
  return 1;
}

// The default dtype a Python scalar of category c becomes when it wins.
DType scalar_default(int c) {
  return c == 2 ? DType::Float32 : c == 1 ? DType::Int64 : DType::Bool;
}

// Operand for argument `name`: a tensor, a Python number or a SymInt node.
Operand operand(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_bool()) return {DType::Bool, 0, true};
  if (a.is_int()) return {DType::Int64, 0, true};
  if (a.is_float()) return {DType::Float32, 0, true};
  if (!a.is_node()) return {DType::Unknown, 0, false};
  const ValueType& t = ctx.type_of(a.node());
  switch (t.kind) {
    case ValueType::Kind::Tensor: {
      int prio = t.tensor.shape ? (t.tensor.shape->empty() ? 1 : 2) : -1;
      return {t.tensor.dtype, prio, t.tensor.dtype != DType::Unknown};
    }
    case ValueType::Kind::SymInt:
    case ValueType::Kind::Int:
      return {DType::Int64, 0, true};
    case ValueType::Kind::SymFloat:
    case ValueType::Kind::Float:
      return {DType::Float32, 0, true};
    case ValueType::Kind::SymBool:
    case ValueType::Kind::Bool:
      return {DType::Bool, 0, true};
    default:
      return {DType::Unknown, 0, false};
  }
}

// torch.result_type: the highest category wins; within it, tensors with dims
// beat zero-dim tensors, which beat Python scalars (which use the default dtype).
DType result_type(const std::vector<Operand>& ops) {
  for (const Operand& o : ops)
    if (!o.known) return DType::Unknown;
  // Fast path that needs no ranks: all tensors agree and no scalar raises the category.
  DType first = DType::Unknown;
  bool uniform = true;
  int tensor_cat = -1;
  for (const Operand& o : ops) {
    if (o.priority == 0) continue;
    if (first == DType::Unknown) first = o.dtype;
    if (o.dtype != first) uniform = false;
    tensor_cat = std::max(tensor_cat, category(o.dtype));
  }
  int max_cat = tensor_cat;
  for (const Operand& o : ops) max_cat = std::max(max_cat, category(o.dtype));
  if (uniform && first != DType::Unknown && max_cat == tensor_cat) return first;
  for (const Operand& o : ops)
    if (o.priority < 0) return DType::Unknown;  // the answer depends on an unknown rank
  for (int prio = 2; prio >= 0; --prio) {
    DType best = DType::Unknown;
    for (const Operand& o : ops) {
      if (o.priority != prio || category(o.dtype) != max_cat) continue;
      best = best == DType::Unknown ? o.dtype : meta::promote(best, o.dtype);
    }
    if (best == DType::Unknown) continue;
    if (prio > 0) {
      // Promote with every same-priority operand of lower category too.
      for (const Operand& o : ops)
        if (o.priority == prio) best = meta::promote(best, o.dtype);
      return best;
    }
    return scalar_default(max_cat);
  }
  return DType::Unknown;
}

// Broadcast shape of the tensor arguments among `names`; nullopt if any
// tensor's shape is unknown or an argument is of unknown kind.
std::optional<Shape> broadcast_args(const CallContext& ctx,
                                    std::initializer_list<std::string_view> names) {
  Shape out;
  std::string_view out_name;
  for (std::string_view n : names) {
    if (ctx.schema().arg_index(n) < 0) continue;  // an overload without this argument
    const Arg& a = ctx.arg(n);
    if (!a.is_node()) continue;  // Python scalar or None
    const ValueType& t = ctx.type_of(a.node());
    if (t.kind == ValueType::Kind::Unknown) return std::nullopt;
    if (!t.is_tensor()) continue;  // SymInt / SymFloat scalar
    if (!t.tensor.shape) return std::nullopt;
    out = out_name.empty() ? *t.tensor.shape : meta::broadcast(out, *t.tensor.shape, out_name, n);
    out_name = n;
  }
  return out;
}

// Integer and bool inputs become float32; floating and complex dtypes stay.
DType to_float(DType d) {
  if (d == DType::Unknown || dtype_is_floating(d) || d == DType::Complex64) return d;
  return DType::Float32;
}

ValueType binary(const CallContext& ctx) {
  DType d = result_type({operand(ctx, "self"), operand(ctx, "other")});
  return tensor(d, broadcast_args(ctx, {"self", "other"}));
}

// vllm::muls_add(x, y, scale): x * scale + y, typed as add(x, y).
ValueType muls_add(const CallContext& ctx) {
  DType d = result_type({operand(ctx, "x"), operand(ctx, "y")});
  return tensor(d, broadcast_args(ctx, {"x", "y"}));
}

ValueType true_divide(const CallContext& ctx) {
  ValueType t = binary(ctx);
  t.tensor.dtype = to_float(t.tensor.dtype);
  return t;
}

ValueType div_mode(const CallContext& ctx) {
  return ctx.is_none("rounding_mode") ? true_divide(ctx) : binary(ctx);
}

ValueType pow_tensor_scalar(const CallContext& ctx) {
  DType d = result_type({operand(ctx, "self"), operand(ctx, "exponent")});
  return tensor(d, meta::shape_arg(ctx, "self"));
}

ValueType pow_tensor_tensor(const CallContext& ctx) {
  DType d = result_type({operand(ctx, "self"), operand(ctx, "exponent")});
  return tensor(d, broadcast_args(ctx, {"self", "exponent"}));
}

// An `.out` variant returns its `out` argument, which must have the shape and dtype
// of what the functional op computes.
ValueType out_variant(const CallContext& ctx) {
  const TensorType* out = meta::tensor_arg(ctx, "out");
  return out ? tensor(out->dtype, out->shape) : ValueType::unknown();
}

// In-place ops keep self's type; `other` must broadcast to self's shape.
ValueType inplace(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) {
    if (auto both = broadcast_args(ctx, {"self", "other"});
        both && both->size() != self->shape->size())
      meta::fail("argument 'other' does not broadcast to the shape {} of 'self'",
                 meta::shape_str(*self->shape));
    else if (both)
      for (size_t i = 0; i < both->size(); ++i)
        if (meta::dims_differ((*both)[i], (*self->shape)[i]))
          meta::fail("argument 'other' does not broadcast to the shape {} of 'self'",
                     meta::shape_str(*self->shape));
  }
  return tensor(self->dtype, self->shape);
}

using meta::same_as_self;

// sqrt, exp, sigmoid...: integer inputs produce float32.
ValueType floating_unary(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(to_float(self->dtype), self->shape);
}

ValueType comparison(const CallContext& ctx) {
  return tensor(DType::Bool, broadcast_args(ctx, {"self", "other"}));
}

ValueType where(const CallContext& ctx) {
  DType d = result_type({operand(ctx, "self"), operand(ctx, "other")});
  return tensor(d, broadcast_args(ctx, {"condition", "self", "other"}));
}

// masked_fill (out of place) broadcasts self and mask, as ATen's masked_fill
// (expand_outplace, then clone and fill) and torch's meta do: a mask with more or larger
// dims makes the result larger than self.
ValueType masked_fill(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  std::optional<Shape> shape = self->shape;
  if (self->shape && ctx.arg("mask").is_node()) {
    auto mask = meta::shape_arg(ctx, "mask");
    shape = mask ? std::optional<Shape>(meta::broadcast(*self->shape, *mask, "self", "mask"))
                 : std::nullopt;
  }
  return tensor(self->dtype, shape);
}

// masked_fill.Tensor: the fill value is a 0-dim tensor, cast to self's dtype.
ValueType masked_fill_tensor(const CallContext& ctx) {
  if (auto value = meta::shape_arg(ctx, "value"); value && !value->empty())
    meta::fail("argument 'value' must be a 0-dim tensor, got {}-D", value->size());
  return masked_fill(ctx);
}

// The operands among `names` that are present (optional bounds may be None).
std::vector<Operand> present_operands(const CallContext& ctx,
                                      std::initializer_list<std::string_view> names) {
  std::vector<Operand> ops;
  for (std::string_view n : names)
    if (ctx.schema().arg_index(n) >= 0 && !ctx.is_none(n)) ops.push_back(operand(ctx, n));
  return ops;
}

// clamp / clamp_min / clamp_max with Scalar bounds: the bounds take part in
// type promotion (int tensor clamped by 0.5 is float), the shape is self's.
ValueType clamp_scalar(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(result_type(present_operands(ctx, {"self", "min", "max"})), self->shape);
}

// clamp.Tensor / clamp_min.Tensor / clamp_max.Tensor: promotion and
// broadcasting over self and the bounds that are given.
ValueType clamp_tensor(const CallContext& ctx) {
  std::vector<Operand> ops = present_operands(ctx, {"self", "min", "max"});
  if (ops.size() == 1) meta::fail("at least one of 'min' or 'max' must not be None");
  return tensor(result_type(ops), broadcast_args(ctx, {"self", "min", "max"}));
}

// Bitwise ops: torch's kernels exist for bool and integer dtypes only, but its meta
// (the elementwise refs) types float operands too, so inference does not refuse them.
ValueType bitwise(const CallContext& ctx) {
  return binary(ctx);
}

// logical_not, isnan, isinf, isfinite: a bool per element.
ValueType bool_unary(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  return tensor(DType::Bool, self ? self->shape : std::nullopt);
}

}  // namespace

void add_elementwise_meta(OpRegistry& reg) {
  meta::set_all(reg,
                {"aten::add.Tensor", "aten::sub.Tensor", "aten::mul.Tensor", "aten::add.Scalar",
                 "aten::sub.Scalar", "aten::mul.Scalar", "aten::rsub.Scalar", "aten::maximum",
                 "aten::minimum"},
                binary);
  meta::set_all(reg, {"vllm::muls_add"}, muls_add);
  meta::set_all(
      reg,
      {"aten::mm.out", "aten::bmm.out", "aten::addmm.out", "aten::add.out", "aten::sub.out",
       "aten::mul.out", "aten::div.out", "aten::silu.out", "aten::gelu.out"},
      out_variant);
  meta::set_all(reg, {"aten::div.Tensor", "aten::div.Scalar"}, true_divide);
  meta::set_all(reg, {"aten::div.Tensor_mode"}, div_mode);
  meta::set_all(
      reg,
      {"aten::add_.Tensor", "aten::add_.Scalar", "aten::sub_.Tensor", "aten::sub_.Scalar",
       "aten::mul_.Tensor", "aten::mul_.Scalar", "aten::div_.Tensor", "aten::div_.Scalar"},
      inplace);
  meta::set_all(reg, {"aten::pow.Tensor_Scalar"}, pow_tensor_scalar);
  meta::set_all(reg, {"aten::pow.Tensor_Tensor"}, pow_tensor_tensor);
  meta::set_all(
      reg,
      {"aten::neg", "aten::neg_", "aten::abs", "aten::ceil", "aten::floor", "aten::round",
       "aten::trunc", "aten::relu", "aten::relu_", "aten::rsqrt_", "aten::silu_", "aten::sigmoid_"},
      same_as_self);
  // silu and gelu keep an integer input's dtype (torch's meta: no int-to-float promotion
  // for them; only CPU and CUDA kernels refuse integers).
  meta::set_all(reg, {"aten::silu", "aten::gelu"}, same_as_self);
  meta::set_all(
      reg,
      {"aten::rsqrt", "aten::sqrt", "aten::exp", "aten::log", "aten::log1p", "aten::expm1",
       "aten::reciprocal", "aten::sin", "aten::cos", "aten::erf", "aten::sigmoid", "aten::tanh"},
      floating_unary);
  meta::set_all(reg,
                {"aten::eq.Tensor", "aten::eq.Scalar", "aten::ne.Tensor", "aten::ne.Scalar",
                 "aten::lt.Tensor", "aten::lt.Scalar", "aten::le.Tensor", "aten::le.Scalar",
                 "aten::gt.Tensor", "aten::gt.Scalar", "aten::ge.Tensor", "aten::ge.Scalar"},
                comparison);
  meta::set_all(reg, {"aten::where.self"}, where);
  meta::set_all(reg, {"aten::masked_fill.Scalar"}, masked_fill);
  meta::set_all(reg, {"aten::masked_fill.Tensor"}, masked_fill_tensor);
  meta::set_all(reg, {"aten::where.ScalarSelf", "aten::where.ScalarOther", "aten::where.Scalar"},
                where);
  meta::set_all(reg, {"aten::clamp", "aten::clamp_min", "aten::clamp_max"}, clamp_scalar);
  meta::set_all(reg, {"aten::clamp.Tensor", "aten::clamp_min.Tensor", "aten::clamp_max.Tensor"},
                clamp_tensor);
  meta::set_all(reg,
                {"aten::remainder.Scalar", "aten::remainder.Tensor", "aten::floor_divide",
                 "aten::floor_divide.Scalar"},
                binary);
  meta::set_all(reg,
                {"aten::bitwise_and.Tensor", "aten::bitwise_and.Scalar", "aten::bitwise_or.Tensor",
                 "aten::bitwise_or.Scalar", "aten::bitwise_xor.Tensor", "aten::bitwise_xor.Scalar"},
                bitwise);
  meta::set_all(reg, {"aten::bitwise_not"}, same_as_self);
  meta::set_all(reg, {"aten::logical_and", "aten::logical_or", "aten::logical_xor"}, comparison);
  meta::set_all(reg, {"aten::logical_not", "aten::isnan", "aten::isinf", "aten::isfinite"},
                bool_unary);
}

}  // namespace eqfuse
