// Meta functions for reductions (sum, mean, amax/amin, max.dim, argmax,
// var_mean, prod, any/all), softmax, cumsum and histc.
#include <algorithm>
#include <set>

#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

// Shape of `s` reduced over `dims` (empty = all dims).
Shape reduce_shape(const Shape& s, const std::vector<int64_t>& dims, bool keepdim) {
  int64_t r = static_cast<int64_t>(s.size());
  std::set<int64_t> reduced;
  for (int64_t d : dims) {
    int64_t w = meta::wrap_dim(d, r, "dim");
    if (!reduced.insert(w).second) meta::fail("argument 'dim' repeats dim {}", w);
  }
  bool all = dims.empty();
  Shape out;
  for (int64_t i = 0; i < r; ++i) {
    bool gone = all || reduced.count(i);
    if (!gone) {
      out.push_back(s[static_cast<size_t>(i)]);
    } else if (keepdim) {
      out.push_back(SymInt(1));
    }
  }
  return out;
}

std::optional<Shape> reduced(const TensorType& self, const std::vector<int64_t>& dims,
                             bool keepdim) {
  if (!self.shape) return std::nullopt;
  return reduce_shape(*self.shape, dims, keepdim);
}

// sum promotes integers and bool to int64; an explicit dtype wins.
DType sum_dtype(const CallContext& ctx, DType self) {
  if (auto d = meta::dtype_arg(ctx, "dtype")) return *d;
  if (self == DType::Bool || dtype_is_integral(self)) return DType::Int64;
  return self;
}

// mean: floating or complex (torch's meta refuses integers and bool without a dtype).
DType mean_dtype(const CallContext& ctx, DType self) {
  if (auto d = meta::dtype_arg(ctx, "dtype")) return *d;
  if (self != DType::Unknown && !dtype_is_floating(self) && self != DType::Complex64)
    meta::fail("mean() needs a floating input or an explicit dtype, got {}",
               dtype_torch_name(self));
  return self;
}

std::vector<int64_t> dims_of(const CallContext& ctx) {
  return meta::int_list_arg(ctx, "dim").value_or(std::vector<int64_t>{});
}

ValueType sum_all(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(sum_dtype(ctx, self->dtype), Shape{});
}

ValueType mean_all(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(mean_dtype(ctx, self->dtype), Shape{});
}

ValueType sum_dims(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(sum_dtype(ctx, self->dtype),
                reduced(*self, dims_of(ctx), meta::bool_arg(ctx, "keepdim").value_or(false)));
}

ValueType mean_dims(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(mean_dtype(ctx, self->dtype),
                reduced(*self, dims_of(ctx), meta::bool_arg(ctx, "keepdim").value_or(false)));
}

ValueType amax(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(self->dtype,
                reduced(*self, dims_of(ctx), meta::bool_arg(ctx, "keepdim").value_or(false)));
}

ValueType max_dim(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto shape = reduced(*self, {meta::require_int(ctx, "dim")},
                       meta::bool_arg(ctx, "keepdim").value_or(false));
  return meta::tuple({tensor(self->dtype, shape), tensor(DType::Int64, shape)});
}

ValueType argmax(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto dim = meta::int_arg(ctx, "dim");
  bool keepdim = meta::bool_arg(ctx, "keepdim").value_or(false);
  if (!dim && !keepdim) return tensor(DType::Int64, Shape{});
  return tensor(DType::Int64,
                reduced(*self, dim ? std::vector<int64_t>{*dim} : std::vector<int64_t>{}, keepdim));
}

ValueType var_mean(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto shape = reduced(*self, dims_of(ctx), meta::bool_arg(ctx, "keepdim").value_or(false));
  DType d = self->dtype;
  if (d != DType::Unknown && !dtype_is_floating(d) && d != DType::Complex64)
    meta::fail("var_mean() needs a floating input, got {}", dtype_torch_name(d));
  // The variance of a complex tensor is real.
  DType var = d == DType::Complex64 ? DType::Float32 : d;
  return meta::tuple({tensor(var, shape), tensor(d, shape)});
}

void check_dim(const TensorType& self, const CallContext& ctx) {
  if (self.shape) meta::wrap_dim(meta::require_int(ctx, "dim"), self.rank(), "dim");
}

ValueType internal_softmax(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  check_dim(*self, ctx);
  bool to_float = meta::bool_arg(ctx, "half_to_float").value_or(false);
  return tensor(to_float ? DType::Float32 : self->dtype, self->shape);
}

ValueType softmax(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  check_dim(*self, ctx);
  return tensor(meta::dtype_arg(ctx, "dtype").value_or(self->dtype), self->shape);
}

// prod and prod.dim_int: sum's dtype rule (integers and bool give int64).
ValueType prod(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (ctx.schema().arg_index("dim") < 0) return tensor(sum_dtype(ctx, self->dtype), Shape{});
  return tensor(sum_dtype(ctx, self->dtype),
                reduced(*self, {meta::require_int(ctx, "dim")},
                        meta::bool_arg(ctx, "keepdim").value_or(false)));
}

// any/all return bool, except for uint8 inputs, which keep uint8 (torch
// kept that for backward compatibility).
ValueType any_all(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  DType d = self->dtype == DType::UInt8     ? DType::UInt8
            : self->dtype == DType::Unknown ? DType::Unknown
                                            : DType::Bool;
  if (ctx.schema().arg_index("dim") < 0) return tensor(d, Shape{});
  return tensor(d, reduced(*self, {meta::require_int(ctx, "dim")},
                           meta::bool_arg(ctx, "keepdim").value_or(false)));
}

// cumsum keeps the shape; dtype as sum's.
ValueType cumsum(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) meta::wrap_dim(meta::require_int(ctx, "dim"), std::max(self->rank(), 1), "dim");
  return tensor(sum_dtype(ctx, self->dtype), self->shape);
}

// histc: `bins` counts in self's dtype, for every dtype. torch's meta (meta_histc) checks
// only bins > 0 and max >= min; that integer inputs fail is a limit of the CPU kernel
// ("histogram_cpu"), not of the op: CUDA and NPU count int tensors (MoE routers call
// `torch.histc(topk_ids.int(), bins=E, min=0, max=E-1)`) and return the input's dtype.
ValueType histc(const CallContext& ctx) {
  int64_t bins = meta::require_int(ctx, "bins");
  if (bins <= 0) meta::fail("argument 'bins' must be > 0, got {}", bins);
  const Arg &lo = ctx.arg("min"), &hi = ctx.arg("max");
  auto number = [](const Arg& a) -> std::optional<double> {
    if (a.is_int()) return static_cast<double>(std::get<int64_t>(a.value));
    if (a.is_float()) return std::get<double>(a.value);
    return std::nullopt;
  };
  if (auto l = number(lo), h = number(hi); l && h && *l > *h)
    meta::fail("argument 'max' ({}) must not be less than 'min' ({})", *h, *l);
  return tensor(meta::dtype_of_arg(ctx, "self"), Shape{SymInt(bins)});
}

}  // namespace

void add_reduction_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::sum"}, sum_all);
  meta::set_all(reg, {"aten::mean"}, mean_all);
  meta::set_all(reg, {"aten::sum.dim_IntList"}, sum_dims);
  meta::set_all(reg, {"aten::mean.dim"}, mean_dims);
  meta::set_all(reg, {"aten::amax", "aten::amin"}, amax);
  meta::set_all(reg, {"aten::max.dim"}, max_dim);
  meta::set_all(reg, {"aten::argmax"}, argmax);
  meta::set_all(reg, {"aten::var_mean.correction"}, var_mean);
  meta::set_all(reg, {"aten::_softmax", "aten::_log_softmax"}, internal_softmax);
  meta::set_all(reg, {"aten::softmax.int"}, softmax);
  meta::set_all(reg, {"aten::prod", "aten::prod.dim_int"}, prod);
  meta::set_all(reg, {"aten::any", "aten::any.dim", "aten::all", "aten::all.dim"}, any_all);
  meta::set_all(reg, {"aten::cumsum"}, cumsum);
  meta::set_all(reg, {"aten::histc"}, histc);
}

}  // namespace eqfuse
