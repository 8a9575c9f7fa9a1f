// Meta functions for advanced indexing (index.Tensor, index_put), gathers
// (gather, index_select), scatters (scatter*, index_add) and sorting (topk,
// sort, argsort).
#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

bool is_index_dtype(DType d) {
  return d == DType::Int64 || d == DType::Int32;
}

bool is_mask_dtype(DType d) {
  return d == DType::Bool || d == DType::UInt8;
}

// The entries of a `Tensor?[]` argument (nullptr for None), or nullopt when
// some entry's type is not known.
std::optional<std::vector<const TensorType*>> optional_tensors(const CallContext& ctx,
                                                               std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (!a.is_list()) meta::fail("argument '{}' must be a list of optional tensors", name);
  std::vector<const TensorType*> out;
  for (const Arg& item : a.as_list().items) {
    const ValueType* t = item.is_node() ? &ctx.type_of(item.node()) : nullptr;
    if (item.is_none() || (t && t->kind == ValueType::Kind::None)) {
      out.push_back(nullptr);
    } else if (!t) {
      meta::fail("argument '{}' must be a list of optional tensors", name);
    } else if (!t->is_tensor()) {
      if (t->kind == ValueType::Kind::Unknown) return std::nullopt;
      meta::fail("argument '{}' must be a list of optional tensors", name);
    } else {
      out.push_back(&t->tensor);
    }
  }
  return out;
}

// The shape `self[indices]` has (torch/numpy advanced indexing): the index
// tensors broadcast to one shape B; when the indexed dims are adjacent B
// replaces them in place, otherwise B comes first and the remaining dims
// follow in order. nullopt when a shape is unknown or a bool mask makes it
// data-dependent.
std::optional<Shape> advanced_index_shape(const Shape& self,
                                          const std::vector<const TensorType*>& indices) {
  if (indices.size() > self.size())
    meta::fail("too many indices for a tensor of rank {}: {}", self.size(), indices.size());
  std::optional<Shape> broadcast;
  std::vector<size_t> indexed;
  for (size_t i = 0; i < indices.size(); ++i) {
    const TensorType* t = indices[i];
    if (!t) continue;
    if (t->dtype != DType::Unknown && !is_index_dtype(t->dtype) && !is_mask_dtype(t->dtype))
      meta::fail("index {} must be an integer or bool tensor, got {}", i,
                 dtype_torch_name(t->dtype));
    if (is_mask_dtype(t->dtype) || !t->shape || t->dtype == DType::Unknown) return std::nullopt;
    broadcast =
        broadcast ? meta::broadcast(*broadcast, *t->shape, "indices", "indices") : *t->shape;
    indexed.push_back(i);
  }
  if (indexed.empty()) return self;
  bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  Shape out;
  if (adjacent) out.insert(out.end(), self.begin(), self.begin() + indexed.front());
  out.insert(out.end(), broadcast->begin(), broadcast->end());
  for (size_t d = adjacent ? indexed.front() : 0; d < self.size(); ++d) {
    bool is_indexed = d < indices.size() && indices[d] != nullptr;
    if (!is_indexed) out.push_back(self[d]);
  }
  return out;
}

ValueType index_tensor(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto indices = optional_tensors(ctx, "indices");
  if (!self->shape || !indices) return tensor(self->dtype, std::nullopt);
  return tensor(self->dtype, advanced_index_shape(*self->shape, *indices));
}

// scatter/scatter_add/scatter_reduce write `src` into a copy of self: the dtypes must
// match (torch's meta checks it: "Expected self.dtype to be equal to src.dtype").
// index_add and index_put do not check (their meta is the index_put decomposition).
void check_same_dtype(const CallContext& ctx, std::string_view src_name) {
  DType self = meta::dtype_of_arg(ctx, "self");
  DType src = meta::dtype_of_arg(ctx, src_name);
  if (self != DType::Unknown && src != DType::Unknown && self != src)
    meta::fail("argument '{}' ({}) must have the dtype of 'self' ({})", src_name,
               dtype_torch_name(src), dtype_torch_name(self));
}

// gather and the scatters take int32 or int64 indices (torch's meta:
// scatter_gather_dtype_check); int32 is what MoE routers often hand over.
void check_index_dtype(const CallContext& ctx) {
  DType d = meta::dtype_of_arg(ctx, "index");
  if (d != DType::Unknown && !is_index_dtype(d))
    meta::fail("argument 'index' must be int32 or int64, got {}", dtype_torch_name(d));
}

// The wrapped `dim` of self, when self's rank is known.
std::optional<int64_t> dim_of_self(const CallContext& ctx) {
  auto self = meta::shape_arg(ctx, "self");
  if (!self) return std::nullopt;
  return meta::wrap_dim(meta::require_int(ctx, "dim"), static_cast<int64_t>(self->size()), "dim");
}

using meta::same_as_self;

// index_put / index_put_ / _unsafe_index_put: self's type. torch's meta
// (meta_index_put: empty_like(self)) checks neither the index dtypes and count nor that
// `values` has self's dtype (the CPU and CUDA kernels do), so neither does this; only the
// argument's structure (a list of optional tensors) is checked.
ValueType index_put(const CallContext& ctx) {
  optional_tensors(ctx, "indices");
  return same_as_self(ctx);
}

// index_add / index_add_: torch's meta (the _index_add decomposition) checks that index is
// 0-D or 1-D (and that its length is source's size along dim, left to the kernel here),
// not the index dtype nor that source has self's dtype (CPU and CUDA kernels want
// int32/int64 indices and equal dtypes): a bf16 source into an fp32 tensor is typed as
// torch's meta types it, self's dtype.
ValueType index_add(const CallContext& ctx) {
  auto index = meta::shape_arg(ctx, "index");
  if (index && index->size() > 1)
    meta::fail("argument 'index' must be 0-D or 1-D, got {}-D", index->size());
  dim_of_self(ctx);
  return same_as_self(ctx);
}

void check_scatter_ranks(const CallContext& ctx, std::string_view src_name) {
  auto self = meta::shape_arg(ctx, "self");
  auto index = meta::shape_arg(ctx, "index");
  if (self && index && index->size() != self->size() && !index->empty() && !self->empty())
    meta::fail("argument 'index' must have the rank of 'self' ({}), got {}", self->size(),
               index->size());
  auto src = src_name.empty() ? std::nullopt : meta::shape_arg(ctx, src_name);
  if (src && index && index->size() != src->size() && !index->empty() && !src->empty())
    meta::fail("argument 'index' must have the rank of '{}' ({}), got {}", src_name, src->size(),
               index->size());
}

ValueType scatter(const CallContext& ctx) {
  bool has_src = ctx.schema().arg_index("src") >= 0;
  if (has_src) check_same_dtype(ctx, "src");
  check_index_dtype(ctx);
  check_scatter_ranks(ctx, has_src ? "src" : "");
  dim_of_self(ctx);
  return same_as_self(ctx);
}

ValueType gather(const CallContext& ctx) {
  check_index_dtype(ctx);
  check_scatter_ranks(ctx, "");
  dim_of_self(ctx);
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(self->dtype, meta::shape_arg(ctx, "index"));
}

// index_select: dim `dim` becomes index.numel(). torch's meta (meta_index_select) checks
// neither the index dtype nor its rank (the CPU and CUDA kernels want a 0-D or 1-D int32 or
// int64 index), so neither does this.
ValueType index_select(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  const TensorType* index = meta::tensor_arg(ctx, "index");
  auto dim = dim_of_self(ctx);
  if (!self->shape || !index || !index->shape) return tensor(self->dtype, std::nullopt);
  Shape out = *self->shape;
  if (!out.empty()) out[static_cast<size_t>(*dim)] = *index->numel();
  return tensor(self->dtype, out);
}

// Shape of self with `dim` resized to `size` (0-dim tensors stay 0-dim).
std::optional<Shape> resized_along(const TensorType& self, const CallContext& ctx,
                                   const SymInt& size) {
  if (!self.shape) return std::nullopt;
  Shape out = *self.shape;
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), self.rank(), "dim");
  if (!out.empty()) out[static_cast<size_t>(dim)] = size;
  return out;
}

ValueType topk(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  auto k = meta::symint_arg(ctx, "k");
  std::optional<Shape> shape;
  if (k) {
    shape = resized_along(*self, ctx, *k);
    if (shape && !self->shape->empty()) {
      int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
      const SymInt& size = (*self->shape)[static_cast<size_t>(dim)];
      if (k->constant() && size.constant() &&
          (*k->constant() < 0 || *k->constant() > *size.constant()))
        meta::fail("k = {} is out of range for a dim of size {}", *k->constant(), *size.constant());
    }
  }
  return meta::tuple({tensor(self->dtype, shape), tensor(DType::Int64, shape)});
}

ValueType sort(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  return meta::tuple({tensor(self->dtype, self->shape), tensor(DType::Int64, self->shape)});
}

ValueType argsort(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  if (self->shape) meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  return tensor(DType::Int64, self->shape);
}

}  // namespace

void add_indexing_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::index.Tensor", "aten::_unsafe_index.Tensor"}, index_tensor);
  meta::set_all(reg, {"aten::index_put", "aten::index_put_", "aten::_unsafe_index_put"}, index_put);
  meta::set_all(reg, {"aten::index_add", "aten::index_add_"}, index_add);
  meta::set_all(reg,
                {"aten::scatter.src", "aten::scatter.value", "aten::scatter.reduce",
                 "aten::scatter_.src", "aten::scatter_.value", "aten::scatter_add",
                 "aten::scatter_add_", "aten::scatter_reduce.two"},
                scatter);
  meta::set_all(reg, {"aten::gather"}, gather);
  meta::set_all(reg, {"aten::index_select"}, index_select);
  meta::set_all(reg, {"aten::topk"}, topk);
  meta::set_all(reg, {"aten::sort", "aten::sort.stable"}, sort);
  meta::set_all(reg, {"aten::argsort", "aten::argsort.stable"}, argsort);
}

}  // namespace eqfuse
