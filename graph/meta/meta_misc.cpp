// Meta functions for casts, creation ops (full/zeros/ones/empty/..._like,
// new_*, scalar_tensor, iota, arange), sym_size/sym_numel/sym_stride,
// embedding, one_hot and stream scopes.
#include <cmath>

#include "graph/meta/meta_common.hpp"

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

// A Scalar argument of arange: an int or float literal, or a SymInt /
// SymFloat node (value known for SymInts only).
struct RangeBound {
  enum class Kind { Int, Float, Unknown } kind = Kind::Unknown;
  std::optional<SymInt> sym;  // Int: the value when known
  std::optional<double> number;
};

RangeBound range_bound(const CallContext& ctx, std::string_view name, int64_t absent) {
  using K = RangeBound::Kind;
  if (ctx.schema().arg_index(name) < 0)
    return {K::Int, SymInt(absent), static_cast<double>(absent)};
  const Arg& a = ctx.arg(name);
  if (a.is_int() || a.is_bool()) {
    int64_t v = a.is_int() ? std::get<int64_t>(a.value) : std::get<bool>(a.value);
    return {K::Int, SymInt(v), static_cast<double>(v)};
  }
  if (a.is_float()) return {K::Float, std::nullopt, std::get<double>(a.value)};
  if (!a.is_node()) return {};
  const ValueType& t = ctx.type_of(a.node());
  if (t.kind == ValueType::Kind::SymInt || t.kind == ValueType::Kind::Int) {
    std::optional<int64_t> c = t.sym ? t.sym->constant() : std::nullopt;
    return {K::Int, t.sym, c ? std::optional<double>(static_cast<double>(*c)) : std::nullopt};
  }
  if (t.kind == ValueType::Kind::SymFloat || t.kind == ValueType::Kind::Float) return {K::Float};
  return {};
}

// ceil((end - start) / step) for constants, like torch (which rejects a
// step whose sign disagrees with end - start). Integer dtypes truncate the
// bounds to integers first.
int64_t arange_length(double start, double end, double step, bool integral) {
  if (integral) {
    start = std::trunc(start), end = std::trunc(end), step = std::trunc(step);
  }
  if (step == 0) meta::fail("arange step must be non-zero");
  if ((step > 0 && end < start) || (step < 0 && end > start))
    meta::fail("arange bounds [{}, {}) are inconsistent with the sign of step {}", start, end,
               step);
  return static_cast<int64_t>(std::ceil((end - start) / step));
}

// Symbolic length ceil((end - start) / step) for int bounds and a constant
// step: exact when step divides (always for step 1), else a floor-division
// atom. A symbolic length is assumed non-negative (as torch's guards do).
std::optional<SymInt> symbolic_arange_length(const RangeBound& start, const RangeBound& end,
                                             const RangeBound& step) {
  if (!start.sym || !end.sym || !step.sym) return std::nullopt;
  std::optional<int64_t> s = step.sym->constant();
  if (!s || *s == 0) return std::nullopt;
  SymInt span = *s > 0 ? *end.sym - *start.sym : *start.sym - *end.sym;
  int64_t abs_step = *s > 0 ? *s : -*s;
  return (span + SymInt(abs_step - 1)).floordiv(SymInt(abs_step));
}

// arange(end) / arange.start / arange.start_step: int64 when every bound is
// an int (or SymInt), the default float32 when any is a float; dtype= wins.
ValueType arange(const CallContext& ctx) {
  using K = RangeBound::Kind;
  RangeBound start = range_bound(ctx, "start", 0), end = range_bound(ctx, "end", 0),
             step = range_bound(ctx, "step", 1);
  DType d = DType::Int64;
  for (const RangeBound* b : {&start, &end, &step}) {
    if (b->kind == K::Unknown) d = DType::Unknown;
    if (b->kind == K::Float && d != DType::Unknown) d = DType::Float32;
  }
  d = meta::dtype_arg(ctx, "dtype").value_or(d);
  if (start.number && end.number && step.number) {
    bool integral = d != DType::Unknown && !dtype_is_floating(d);
    return tensor(d, Shape{arange_length(*start.number, *end.number, *step.number, integral)});
  }
  if (start.kind == K::Int && end.kind == K::Int && step.kind == K::Int)
    if (auto len = symbolic_arange_length(start, end, step)) return tensor(d, Shape{*len});
  return tensor(d, std::nullopt);
}

// one_hot(self, num_classes): self's shape plus a last dim of num_classes.
// With num_classes=-1 torch uses max(self) + 1, a value no type can tell:
// the result then has an unknown shape (an annotation in the dump, if any,
// still gives it).
ValueType one_hot(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (self && self->dtype != DType::Unknown && self->dtype != DType::Int64)
    meta::fail("one_hot needs an int64 input, got {}", dtype_torch_name(self->dtype));
  int64_t classes = meta::require_int(ctx, "num_classes");
  if (classes < -1)
    meta::fail("argument 'num_classes' must be -1 or non-negative, got {}", classes);
  if (!self || !self->shape || classes == -1) return tensor(DType::Int64, std::nullopt);
  Shape out = *self->shape;
  out.push_back(SymInt(classes));
  return tensor(DType::Int64, out);
}

// Strides are known only where the tensor's type carries them (annotated
// dumps); nothing is assumed about the layout of other values.
ValueType sym_stride(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self || !self->shape) return meta::symint(std::nullopt);
  int64_t rank = static_cast<int64_t>(self->shape->size());
  if (rank == 0) meta::fail("sym_stride() of a 0-dim tensor");
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), rank, "dim");
  if (!self->strides) return meta::symint(std::nullopt);
  return meta::symint((*self->strides)[static_cast<size_t>(dim)]);
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
  meta::set_all(reg, {"aten::new_empty", "aten::new_zeros", "aten::new_ones", "aten::new_full"},
                new_empty);
  meta::set_all(reg, {"aten::arange", "aten::arange.start", "aten::arange.start_step"}, arange);
  meta::set_all(reg, {"aten::one_hot"}, one_hot);
  meta::set_all(reg, {"aten::sym_stride.int"}, sym_stride);
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
