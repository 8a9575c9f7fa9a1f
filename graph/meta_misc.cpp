// Meta functions for casts, creation ops (full/zeros/ones/empty/..._like,
// scalar_tensor, iota), sym_size/sym_numel, embedding and stream scopes.
#include "graph/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

// Cast of `self` to argument `dtype_name` (None keeps the dtype).
ValueType cast_to(const CallContext& ctx, std::string_view self_name, std::string_view dtype_name) {
  const TensorType* self = meta::tensor_arg(ctx, self_name);
  auto d = meta::dtype_arg(ctx, dtype_name);
  if (!self) return d ? tensor(*d, std::nullopt) : ValueType::unknown();
  return tensor(d.value_or(self->dtype), self->shape);
}

ValueType to_copy(const CallContext& ctx) {
  return cast_to(ctx, "self", "dtype");
}
ValueType convert_element_type(const CallContext& ctx) {
  return cast_to(ctx, "a", "dtype");
}

std::optional<Shape> size_list(const CallContext& ctx, std::string_view name) {
  auto sizes = meta::symint_list_arg(ctx, name);
  if (!sizes) return std::nullopt;
  for (const SymInt& s : *sizes)
    if (auto c = s.constant(); c && *c < 0) meta::fail("argument '{}': negative size {}", name, *c);
  return *sizes;
}

ValueType zeros(const CallContext& ctx) {
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(DType::Float32), size_list(ctx, "size"));
}

// full() without dtype infers it from the fill value, like torch.
ValueType full(const CallContext& ctx) {
  DType d = DType::Float32;
  const Arg& fill = ctx.arg("fill_value");
  if (fill.is_bool()) d = DType::Bool;
  if (fill.is_int()) d = DType::Int64;
  if (fill.is_node()) {
    const ValueType& t = ctx.type_of(fill.node());
    if (t.kind == ValueType::Kind::SymInt || t.kind == ValueType::Kind::Int) d = DType::Int64;
    if (t.kind == ValueType::Kind::Unknown) d = DType::Unknown;
  }
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(d), size_list(ctx, "size"));
}

ValueType new_empty(const CallContext& ctx) {
  DType self = meta::dtype_of_arg(ctx, "self");
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(self), size_list(ctx, "size"));
}

ValueType like(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(self->dtype), self->shape);
}

ValueType scalar_tensor(const CallContext& ctx) {
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(DType::Float32), Shape{});
}

ValueType iota(const CallContext& ctx) {
  auto len = meta::symint_arg(ctx, "length");
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(DType::Int64),
                len ? std::optional<Shape>(Shape{*len}) : std::nullopt);
}

// A static dim folds to a constant; a symbolic one is its expression.
ValueType sym_size(const CallContext& ctx) {
  auto shape = meta::shape_arg(ctx, "self");
  if (!shape) return meta::symint(std::nullopt);
  int64_t dim =
      meta::wrap_dim(meta::require_int(ctx, "dim"), static_cast<int64_t>(shape->size()), "dim");
  if (shape->empty()) meta::fail("sym_size() of a 0-dim tensor");
  return meta::symint((*shape)[static_cast<size_t>(dim)]);
}

ValueType sym_numel(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return meta::symint(std::nullopt);
  return meta::symint(self->numel());
}

ValueType embedding(const CallContext& ctx) {
  const TensorType* weight = meta::tensor_arg(ctx, "weight");
  const TensorType* indices = meta::tensor_arg(ctx, "indices");
  if (indices && indices->dtype != DType::Unknown && indices->dtype != DType::Int64 &&
      indices->dtype != DType::Int32)
    meta::fail("argument 'indices' must be int32 or int64, got {}",
               dtype_torch_name(indices->dtype));
  if (!weight) return ValueType::unknown();
  if (weight->shape && weight->shape->size() != 2)
    meta::fail("argument 'weight' must be 2-D, got {}-D", weight->shape->size());
  if (!weight->shape || !indices || !indices->shape) return tensor(weight->dtype, std::nullopt);
  Shape out = *indices->shape;
  out.push_back((*weight->shape)[1]);
  return tensor(weight->dtype, out);
}

ValueType no_value(const CallContext&) {
  return ValueType::none();
}

}  // namespace

void add_misc_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::_to_copy"}, to_copy);
  meta::set_all(reg, {"aten::to.dtype", "npu::_npu_dtype_cast"}, to_copy);
  meta::set_all(reg, {"prims::convert_element_type"}, convert_element_type);
  meta::set_all(reg, {"aten::zeros", "aten::ones", "aten::empty.memory_format"}, zeros);
  meta::set_all(reg, {"aten::full"}, full);
  meta::set_all(reg, {"aten::new_empty"}, new_empty);
  meta::set_all(reg, {"aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like"},
                like);
  meta::set_all(reg, {"aten::scalar_tensor"}, scalar_tensor);
  meta::set_all(reg, {"prims::iota"}, iota);
  meta::set_all(reg, {"aten::sym_size.int"}, sym_size);
  meta::set_all(reg, {"aten::sym_numel"}, sym_numel);
  meta::set_all(reg, {"aten::embedding"}, embedding);
  meta::set_all(reg, {"air::scope_enter", "air::scope_exit"}, no_value);
}

}  // namespace eqfuse
