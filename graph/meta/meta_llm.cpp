// Meta functions of the second batch of issue-16 ops (graph/ops/llm.schemas):
// runtime assertions (no value), _local_scalar_dense, nonzero,
// repeat_interleave, _safe_softmax, logsumexp, min.dim, fill, empty_strided,
// index_fill, stack, flip, roll, narrow, group norm and the activations.
#include <set>

#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

using meta::same_as_self;

// Integer and bool inputs become float32; floating and complex dtypes stay.
DType to_float(DType d) {
  if (d == DType::Unknown || dtype_is_floating(d) || d == DType::Complex64) return d;
  return DType::Float32;
}

// ---- assertions --------------------------------------------------------------

ValueType no_value(const CallContext&) {
  return ValueType::none();
}

// A disagreement already visible in the types is an error here; the kernel
// checks the runtime values.
ValueType assert_tensor_metadata(const CallContext& ctx) {
  const TensorType* a = meta::tensor_arg(ctx, "a");
  if (!a) return ValueType::none();
  auto d = meta::dtype_arg(ctx, "dtype");
  if (d && a->dtype != DType::Unknown && *d != a->dtype)
    meta::fail("dtype mismatch: the tensor is {}, the assertion expects {}",
               dtype_torch_name(a->dtype), dtype_torch_name(*d));
  if (a->shape && !ctx.is_none("size")) {
    if (auto size = meta::symint_list_arg(ctx, "size")) {
      bool differ = size->size() != a->shape->size();
      for (size_t i = 0; !differ && i < size->size(); ++i)
        differ = meta::dims_differ((*size)[i], (*a->shape)[i]);
      if (differ)
        meta::fail("sizes mismatch: the tensor is {}, the assertion expects {}",
                   meta::shape_str(*a->shape), meta::shape_str(*size));
    }
  }
  return ValueType::none();
}

// ---- data-dependent results ----------------------------------------------------

// item(): SymInt for integer dtypes, SymBool for bool, SymFloat otherwise;
// the value is data-dependent (unknown).
ValueType local_scalar_dense(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (auto n = self->numel(); n && n->constant() && *n->constant() != 1)
    meta::fail("a tensor with {} elements cannot be converted to a scalar", *n->constant());
  ValueType t;
  if (self->dtype == DType::Unknown) return t;
  if (self->dtype == DType::Bool) {
    t.kind = ValueType::Kind::SymBool;
  } else if (dtype_is_floating(self->dtype)) {
    t.kind = ValueType::Kind::SymFloat;
  } else {
    return meta::symint(std::nullopt);
  }
  return t;
}

// int64 [n, rank] with a data-dependent n: the shape stays unknown, as for
// index.Tensor with a bool mask.
ValueType nonzero(const CallContext& ctx) {
  meta::tensor_arg(ctx, "self");
  return tensor(DType::Int64, std::nullopt);
}

ValueType nonzero_static(const CallContext& ctx) {
  auto self = meta::shape_arg(ctx, "self");
  auto size = meta::symint_arg(ctx, "size");
  if (size && size->constant() && *size->constant() < 0)
    meta::fail("argument 'size' must be non-negative, got {}", *size->constant());
  if (!self || !size) return tensor(DType::Int64, std::nullopt);
  return tensor(DType::Int64, Shape{*size, SymInt(static_cast<int64_t>(self->size()))});
}

// repeat_interleave.Tensor: [output_size] in repeats' dtype. torch's meta
// (meta_repeat_interleave_Tensor: repeats.new_empty(output_size)) checks neither the dtype
// nor the rank of repeats (the CPU and CUDA kernels want a 0-D or 1-D int32/int64 tensor).
ValueType repeat_interleave_tensor(const CallContext& ctx) {
  const TensorType* repeats = meta::tensor_arg(ctx, "repeats");
  auto size = meta::symint_arg(ctx, "output_size");
  DType d = repeats ? repeats->dtype : DType::Unknown;
  return tensor(d, size ? std::optional<Shape>(Shape{*size}) : std::nullopt);
}

// ---- reductions ----------------------------------------------------------------

std::optional<Shape> reduced(const TensorType& self, const std::vector<int64_t>& dims,
                             bool keepdim) {
  if (!self.shape) return std::nullopt;
  int64_t r = self.rank();
  std::set<int64_t> gone;
  for (int64_t d : dims)
    if (!gone.insert(meta::wrap_dim(d, r, "dim")).second)
      meta::fail("argument 'dim' repeats dim {}", meta::wrap_dim(d, r, "dim"));
  Shape out;
  for (int64_t i = 0; i < r; ++i) {
    if (!dims.empty() && !gone.count(i)) {
      out.push_back((*self.shape)[static_cast<size_t>(i)]);
    } else if (keepdim) {
      out.push_back(SymInt(1));
    }
  }
  return out;
}

ValueType safe_softmax(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(self->dtype), self->shape);
}

// Integer inputs give float32, as in torch.
ValueType logsumexp(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto dims = meta::int_list_arg(ctx, "dim").value_or(std::vector<int64_t>{});
  return tensor(to_float(self->dtype),
                reduced(*self, dims, meta::bool_arg(ctx, "keepdim").value_or(false)));
}

ValueType min_dim(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  std::optional<Shape> shape;
  if (self->shape && self->shape->empty()) {
    meta::wrap_dim(meta::require_int(ctx, "dim"), 1, "dim");
    shape = Shape{};
  } else {
    shape = reduced(*self, {meta::require_int(ctx, "dim")},
                    meta::bool_arg(ctx, "keepdim").value_or(false));
  }
  return meta::tuple({tensor(self->dtype, shape), tensor(DType::Int64, shape)});
}

// ---- creation --------------------------------------------------------------------

void check_zero_dim_value(const CallContext& ctx) {
  if (ctx.schema().arg_index("value") < 0) return;
  const ValueType& v = ctx.type("value");
  if (v.is_tensor() && v.tensor.shape && !v.tensor.shape->empty())
    meta::fail("argument 'value' must be a 0-dim tensor, got {}-D", v.tensor.shape->size());
}

ValueType fill(const CallContext& ctx) {
  check_zero_dim_value(ctx);
  return same_as_self(ctx);
}

std::optional<Shape> strided_size(const CallContext& ctx) {
  auto size = meta::symint_list_arg(ctx, "size");
  auto stride = meta::symint_list_arg(ctx, "stride");
  if (size && stride && size->size() != stride->size())
    meta::fail("size {} and stride {} differ in length", meta::shape_str(*size),
               meta::shape_str(*stride));
  if (size)
    for (const SymInt& s : *size)
      if (auto c = s.constant(); c && *c < 0) meta::fail("argument 'size': negative size {}", *c);
  return size;
}

ValueType empty_strided(const CallContext& ctx) {
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(DType::Float32), strided_size(ctx));
}

ValueType new_empty_strided(const CallContext& ctx) {
  DType self = meta::dtype_of_arg(ctx, "self");
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(self), strided_size(ctx));
}

// ---- indexing and layout -----------------------------------------------------------

// The wrapped dim (a 0-dim tensor takes dim 0 or -1), when the rank is known.
std::optional<int64_t> dim_of(const TensorType& self, const CallContext& ctx,
                              std::string_view name = "dim") {
  if (!self.shape) return std::nullopt;
  return meta::wrap_dim(meta::require_int(ctx, name), std::max<int64_t>(self.rank(), 1), name);
}

// index_fill: torch's meta (the _index_fill decomposition) checks that index is 0-D or
// 1-D and a tensor value 0-dim, not the index dtype (the CPU and CUDA kernels want int64).
ValueType index_fill(const CallContext& ctx) {
  if (auto s = meta::shape_arg(ctx, "index"); s && s->size() > 1)
    meta::fail("argument 'index' must be 0-D or 1-D, got {}-D", s->size());
  check_zero_dim_value(ctx);
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  dim_of(*self, ctx);
  return tensor(self->dtype, self->shape);
}

ValueType repeat_interleave_self_int(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto repeats = meta::symint_arg(ctx, "repeats");
  if (repeats && repeats->constant() && *repeats->constant() < 0)
    meta::fail("argument 'repeats' must be non-negative, got {}", *repeats->constant());
  if (!self->shape || !repeats) return tensor(self->dtype, std::nullopt);
  if (ctx.is_none("dim")) {
    auto n = self->numel();
    return tensor(self->dtype, Shape{*n * *repeats});
  }
  Shape out = *self->shape;
  if (out.empty()) out.push_back(SymInt(1));
  int64_t dim = *dim_of(*self, ctx);
  out[static_cast<size_t>(dim)] = out[static_cast<size_t>(dim)] * *repeats;
  return tensor(self->dtype, out);
}

ValueType stack(const CallContext& ctx) {
  std::optional<Shape> shape;
  bool shape_known = true;
  size_t count = 0;
  DType d = meta::for_each_tensor_item(ctx, "tensors", [&](size_t index, const TensorType* t) {
    ++count;
    if (t == nullptr || !t->shape) {
      shape_known = false;
    } else if (!shape) {
      shape = *t->shape;
    } else {
      const Shape& s = *t->shape;
      bool differ = s.size() != shape->size();
      for (size_t i = 0; !differ && i < s.size(); ++i)
        differ = meta::dims_differ(s[i], (*shape)[i]);
      if (differ)
        meta::fail("argument 'tensors'[{}] has shape {}, expected {} (stack needs equal shapes)",
                   index, meta::shape_str(s), meta::shape_str(*shape));
    }
  });
  std::optional<Shape> out;
  if (shape && shape_known) {
    int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"),
                                 static_cast<int64_t>(shape->size()) + 1, "dim");
    out = *shape;
    out->insert(out->begin() + dim, SymInt(static_cast<int64_t>(count)));
  }
  return tensor(d, out);
}

ValueType flip(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) {
    std::set<int64_t> seen;
    for (int64_t d : meta::int_list_arg(ctx, "dims").value_or(std::vector<int64_t>{})) {
      int64_t w = meta::wrap_dim(d, std::max<int64_t>(self->rank(), 1), "dims");
      if (!seen.insert(w).second) meta::fail("argument 'dims' repeats dim {}", w);
    }
  }
  return tensor(self->dtype, self->shape);
}

ValueType roll(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  const Arg& shifts = ctx.arg("shifts");
  size_t n_shifts = shifts.is_list() ? shifts.as_list().items.size() : 1;
  auto dims = meta::int_list_arg(ctx, "dims").value_or(std::vector<int64_t>{});
  if (dims.empty() ? n_shifts != 1 : n_shifts != dims.size())
    meta::fail("{} shifts for {} dims: roll needs one shift per dim (or one shift and no dims)",
               n_shifts, dims.size());
  if (self->shape)
    for (int64_t d : dims) meta::wrap_dim(d, std::max<int64_t>(self->rank(), 1), "dims");
  return tensor(self->dtype, self->shape);
}

ValueType narrow(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  if (self->shape->empty()) meta::fail("narrow() cannot be applied to a 0-dim tensor");
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  auto start = meta::symint_arg(ctx, "start");
  auto length = meta::symint_arg(ctx, "length");
  const SymInt& size = (*self->shape)[static_cast<size_t>(dim)];
  if (length && length->constant() && *length->constant() < 0)
    meta::fail("argument 'length' must be non-negative, got {}", *length->constant());
  if (start && length && start->constant() && length->constant() && size.constant()) {
    int64_t s = *start->constant() < 0 ? *start->constant() + *size.constant() : *start->constant();
    if (s < 0 || s + *length->constant() > *size.constant())
      meta::fail("start ({}) + length ({}) exceeds the size {} of dim {}", *start->constant(),
                 *length->constant(), *size.constant(), dim);
  }
  if (!length) return tensor(self->dtype, std::nullopt);
  Shape out = *self->shape;
  out[static_cast<size_t>(dim)] = *length;
  return tensor(self->dtype, out);
}

// ---- group norm --------------------------------------------------------------------

void check_groups(const CallContext& ctx, const std::optional<SymInt>& channels, int64_t groups) {
  if (groups <= 0) meta::fail("the number of groups must be positive, got {}", groups);
  if (channels && channels->constant() && *channels->constant() % groups != 0)
    meta::fail("{} channels are not divisible into {} groups", *channels->constant(), groups);
  for (std::string_view param : {"weight", "bias"}) {
    auto s = meta::shape_arg(ctx, param);
    if (s && (s->size() != 1 || (channels && meta::dims_differ((*s)[0], *channels))))
      meta::fail("argument '{}' {} must be [C] = [{}]", param, meta::shape_str(*s),
                 channels ? channels->to_string() : "?");
  }
}

ValueType native_group_norm(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  int64_t groups = meta::require_int(ctx, "group");
  check_groups(ctx, meta::symint_arg(ctx, "C"), groups);
  if (!input) return ValueType::unknown();
  auto n = meta::symint_arg(ctx, "N");
  std::optional<Shape> stats;
  if (n) stats = Shape{*n, SymInt(groups)};
  return meta::tuple({tensor(input->dtype, input->shape), tensor(input->dtype, stats),
                      tensor(input->dtype, stats)});
}

ValueType group_norm(const CallContext& ctx) {
  const TensorType* input = meta::tensor_arg(ctx, "input");
  if (!input) return ValueType::unknown();
  std::optional<SymInt> channels;
  if (input->shape) {
    if (input->shape->size() < 2)
      meta::fail("group_norm needs an input of rank >= 2 [N, C, ...], got {}-D",
                 input->shape->size());
    channels = (*input->shape)[1];
  }
  check_groups(ctx, channels, meta::require_int(ctx, "num_groups"));
  return tensor(input->dtype, input->shape);
}

// ---- elementwise ---------------------------------------------------------------------

// Activations keep self's dtype, integer and bool inputs included: torch's meta (the
// refs in torch/_refs/nn/functional) types them; only the CPU and CUDA kernels refuse.
// The refs do refuse a scalar argument that cannot be cast safely to self's kind
// (utils.is_weakly_lesser_type: bool < int < float), e.g. leaky_relu's default slope 0.01
// on an int tensor; `checked` lists those arguments. elu's ref sees its scalars as floats
// unless they are bools, so for elu an int literal counts as a float.
ValueType activation(const CallContext& ctx, std::initializer_list<std::string_view> checked,
                     bool ints_are_floats = false) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  DType d = self->dtype;
  if (d != DType::Unknown && !dtype_is_floating(d) && d != DType::Complex64) {
    for (std::string_view name : checked) {
      const Arg& a = ctx.arg(name);
      bool too_wide = a.is_float() || (a.is_int() && (d == DType::Bool || ints_are_floats));
      if (too_wide)
        meta::fail("argument '{}' ({}) cannot be safely cast to the {} input's type", name,
                   a.is_float() || ints_are_floats ? "a float" : "an int", dtype_torch_name(d));
    }
  }
  return tensor(d, self->shape);
}

ValueType floating_unary(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(to_float(self->dtype), self->shape);
}

ValueType atan2(const CallContext& ctx) {
  const TensorType* a = meta::tensor_arg(ctx, "self");
  const TensorType* b = meta::tensor_arg(ctx, "other");
  if (!a || !b) return a || b ? tensor(DType::Unknown, std::nullopt) : ValueType::unknown();
  std::optional<Shape> shape;
  if (a->shape && b->shape) shape = meta::broadcast(*a->shape, *b->shape, "self", "other");
  return tensor(to_float(meta::promote(a->dtype, b->dtype)), shape);
}

}  // namespace

void add_llm_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::_assert_tensor_metadata"}, assert_tensor_metadata);
  meta::set_all(
      reg,
      {"aten::_assert_scalar", "aten::sym_constrain_range", "aten::sym_constrain_range_for_size"},
      no_value);
  meta::set_all(reg, {"aten::_local_scalar_dense"}, local_scalar_dense);
  meta::set_all(reg, {"aten::nonzero"}, nonzero);
  meta::set_all(reg, {"aten::nonzero_static"}, nonzero_static);
  meta::set_all(reg, {"aten::repeat_interleave.Tensor"}, repeat_interleave_tensor);
  meta::set_all(reg, {"aten::_safe_softmax"}, safe_softmax);
  meta::set_all(reg, {"aten::logsumexp"}, logsumexp);
  meta::set_all(reg, {"aten::min.dim"}, min_dim);
  meta::set_all(
      reg, {"aten::fill.Scalar", "aten::fill.Tensor", "aten::fill_.Scalar", "aten::fill_.Tensor"},
      fill);
  meta::set_all(reg, {"aten::empty_strided"}, empty_strided);
  meta::set_all(reg, {"aten::new_empty_strided"}, new_empty_strided);
  meta::set_all(reg,
                {"aten::index_fill.int_Scalar", "aten::index_fill.int_Tensor",
                 "aten::index_fill_.int_Scalar", "aten::index_fill_.int_Tensor"},
                index_fill);
  meta::set_all(reg, {"aten::repeat_interleave.self_int"}, repeat_interleave_self_int);
  meta::set_all(reg, {"aten::stack"}, stack);
  meta::set_all(reg, {"aten::flip"}, flip);
  meta::set_all(reg, {"aten::roll"}, roll);
  meta::set_all(reg, {"aten::narrow"}, narrow);
  meta::set_all(reg, {"aten::native_group_norm"}, native_group_norm);
  meta::set_all(reg, {"aten::group_norm"}, group_norm);
  meta::set_all(reg, {"aten::sign"}, same_as_self);
  meta::set_all(reg, {"aten::leaky_relu"},
                [](const CallContext& ctx) { return activation(ctx, {"negative_slope"}); });
  meta::set_all(reg, {"aten::elu"}, [](const CallContext& ctx) {
    return activation(ctx, {"alpha", "scale", "input_scale"}, true);
  });
  // softplus: the ref skips the cast check for the default beta (1).
  meta::set_all(reg, {"aten::softplus"}, [](const CallContext& ctx) {
    const Arg& beta = ctx.arg("beta");
    bool one = beta.is_int() && std::get<int64_t>(beta.value) == 1;
    return one ? activation(ctx, {}) : activation(ctx, {"beta"});
  });
  meta::set_all(reg, {"aten::hardswish", "aten::hardsigmoid", "aten::mish"},
                [](const CallContext& ctx) { return activation(ctx, {}); });
  meta::set_all(reg, {"aten::erfinv"}, floating_unary);
  meta::set_all(reg, {"aten::atan2"}, atan2);
}

}  // namespace eqfuse
