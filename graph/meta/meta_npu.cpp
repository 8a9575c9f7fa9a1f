// Meta functions for the torch_npu ops of docs/reference/torchair-passes.md §7: the
// rms_norm families (add/cast/quant/dynamic_quant/v2), add_layer_norm, dynamic quant and
// quantize, transpose_batchmatmul, kv_rmsnorm_rope_cache, mla_prolog_v3,
// swiglu, quant_matmul, fused_matmul, rotary_mul and _npu_dtype_cast (in meta_misc.cpp).
//
// This file registers them all (add_npu_meta) and holds the ops of no larger family
// (the scatters into self, swiglu) and the shape helpers the families share; the
// families live in meta_npu_norm.cpp, meta_npu_quant.cpp, meta_npu_matmul.cpp and
// meta_npu_attention.cpp, declared in meta_npu_internal.hpp.
#include "graph/meta/meta_npu_internal.hpp"

namespace eqfuse {
namespace npu_meta {

bool same_shape(const Shape& a, const Shape& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (meta::dims_differ(a[i], b[i])) return false;
  return true;
}

// A known dim that is not a multiple of `n` (an unknown or symbolic dim passes).
bool not_multiple(const SymInt& d, int64_t n) {
  auto c = d.constant();
  return c && n > 0 && *c % n != 0;
}

}  // namespace npu_meta

namespace {

using meta::tensor;

// A scatter into `self` (functional or in place) has self's type.
ValueType scatter_into_self(const CallContext& ctx) {
  const TensorType* self = meta::tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(self->dtype, self->shape);
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

}  // namespace

// Each op is registered once (no op name repeats across the families), so the order of the
// families below does not matter.
void add_npu_meta(OpRegistry& reg) {
  meta::set_all(
      reg,
      {"npu::scatter_update", "npu::scatter_update_", "npu::npu_scatter_nd_update",
       "npu::npu_scatter_nd_update_", "npu::npu_quant_scatter", "npu::npu_quant_scatter_"},
      scatter_into_self);
  npu_meta::add_npu_norm_meta(reg);
  npu_meta::add_npu_quant_meta(reg);
  npu_meta::add_npu_matmul_meta(reg);
  npu_meta::add_npu_attention_meta(reg);
  meta::set_all(reg, {"npu::npu_swiglu"}, swiglu);
}

}  // namespace eqfuse
