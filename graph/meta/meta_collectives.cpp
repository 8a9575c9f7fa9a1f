// Meta functions of the collectives (graph/ops/collectives.schemas): what each
// rank holds after the communication. all_reduce, broadcast and wait_tensor keep
// their input's type; all_gather multiplies a dim by the group size and
// reduce_scatter divides it (a known size that does not divide is an error);
// the torch_npu matmul + communication kernels combine that with a matmul.
#include <optional>
#include <string_view>

#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

// The group size argument: a positive int literal.
int64_t group_size(const CallContext& ctx, std::string_view name) {
  int64_t n = meta::require_int(ctx, name);
  if (n < 1) meta::fail("argument '{}' must be a positive number of ranks, got {}", name, n);
  return n;
}

// `self` with dim `dim` multiplied (gather) or divided (scatter) by `ranks`.
ValueType resize_dim(const TensorType& in, int64_t dim, int64_t ranks, bool gather) {
  if (!in.shape) return tensor(in.dtype, std::nullopt);
  Shape s = *in.shape;
  if (s.empty()) meta::fail("a collective along a dim needs a tensor of at least 1 dim");
  dim = meta::wrap_dim(dim, static_cast<int64_t>(s.size()), "dim");
  SymInt& d = s[static_cast<size_t>(dim)];
  if (gather) {
    d = d * SymInt(ranks);
  } else {
    if (auto c = d.constant(); c && *c % ranks != 0)
      meta::fail("size {} along dim {} is not divisible by the group's {} ranks", *c, dim, ranks);
    d = d.floordiv(SymInt(ranks));
  }
  return tensor(in.dtype, s);
}

ValueType gather_or_scatter(const CallContext& ctx, std::string_view input,
                            std::string_view size_arg, std::optional<std::string_view> dim_arg,
                            bool gather) {
  const TensorType* in = meta::tensor_arg(ctx, input);
  int64_t ranks = group_size(ctx, size_arg);
  if (!in) return ValueType::unknown();
  return resize_dim(*in, dim_arg ? meta::require_int(ctx, *dim_arg) : 0, ranks, gather);
}

ValueType all_gather_into_tensor(const CallContext& ctx) {
  return gather_or_scatter(ctx, "input", "group_size", std::nullopt, /*gather=*/true);
}
ValueType reduce_scatter_tensor(const CallContext& ctx) {
  return gather_or_scatter(ctx, "input", "group_size", std::nullopt, /*gather=*/false);
}
ValueType vllm_all_gather(const CallContext& ctx) {
  return gather_or_scatter(ctx, "tensor", "world_size", "dim", /*gather=*/true);
}
ValueType vllm_reduce_scatter(const CallContext& ctx) {
  return gather_or_scatter(ctx, "tensor", "world_size", "dim", /*gather=*/false);
}

ValueType same_as(const CallContext& ctx, std::string_view name) {
  const TensorType* in = meta::tensor_arg(ctx, name);
  return in ? tensor(in->dtype, in->shape) : ValueType::unknown();
}

// dim 0 becomes the sum of output_split_sizes (the input's dim 0 when empty).
ValueType all_to_all_single(const CallContext& ctx) {
  const TensorType* in = meta::tensor_arg(ctx, "input");
  if (!in) return ValueType::unknown();
  auto splits = meta::symint_list_arg(ctx, "output_split_sizes");
  if (!in->shape || !splits || splits->empty()) return tensor(in->dtype, in->shape);
  Shape s = *in->shape;
  if (s.empty()) meta::fail("argument 'input' must have at least 1 dim");
  SymInt total;
  for (const SymInt& part : *splits) total = total + part;
  s[0] = total;
  return tensor(in->dtype, s);
}

// x1 [.., m, k] @ x2 [k, n] -> [.., m, n]; x2 must be 2-D, x1 2-D or 3-D.
Shape fused_mm_shape(const Shape& x1, const Shape& x2) {
  if (x1.size() < 2 || x1.size() > 3) meta::fail("argument 'x1' must be 2-D or 3-D");
  if (x2.size() != 2) meta::fail("argument 'x2' must be 2-D");
  if (meta::dims_differ(x1.back(), x2[0]))
    meta::fail("x1 {} and x2 {} cannot be multiplied", meta::shape_str(x1), meta::shape_str(x2));
  Shape out = x1;
  out.back() = x2[1];
  return out;
}

// The output dtype: x1's, except for int8 x1 (quantized), which gives the
// dequantization scale's floating type (float16 when it is an int64 code).
DType fused_mm_dtype(const CallContext& ctx, const TensorType& x1) {
  if (x1.dtype != DType::Int8) return x1.dtype;
  DType scale = meta::dtype_of_arg(ctx, "dequant_scale");
  return scale == DType::BFloat16 ? DType::BFloat16 : DType::Float16;
}

ValueType mm_all_reduce(const CallContext& ctx) {
  const TensorType* x1 = meta::tensor_arg(ctx, "x1");
  const TensorType* x2 = meta::tensor_arg(ctx, "x2");
  if (!x1 || !x2) return ValueType::unknown();
  DType dtype = fused_mm_dtype(ctx, *x1);
  if (!x1->shape || !x2->shape) return tensor(dtype, std::nullopt);
  return tensor(dtype, fused_mm_shape(*x1->shape, *x2->shape));
}

// (all_gather(input) @ x2, all_gather(input)), gathered along dim 0.
ValueType all_gather_mm(const CallContext& ctx) {
  const TensorType* in = meta::tensor_arg(ctx, "input");
  const TensorType* x2 = meta::tensor_arg(ctx, "x2");
  int64_t ranks = group_size(ctx, "world_size");
  if (!in || !x2) return ValueType::unknown();
  if (!in->shape || !x2->shape)
    return meta::tuple({tensor(in->dtype, std::nullopt), tensor(in->dtype, std::nullopt)});
  if (in->shape->size() != 2) meta::fail("argument 'input' must be 2-D");
  ValueType gathered = resize_dim(*in, 0, ranks, /*gather=*/true);
  return meta::tuple(
      {tensor(in->dtype, fused_mm_shape(*gathered.tensor.shape, *x2->shape)), gathered});
}

// reduce_scatter(input @ x2) along dim 0.
ValueType mm_reduce_scatter(const CallContext& ctx) {
  const TensorType* in = meta::tensor_arg(ctx, "input");
  const TensorType* x2 = meta::tensor_arg(ctx, "x2");
  int64_t ranks = group_size(ctx, "world_size");
  if (!in || !x2) return ValueType::unknown();
  if (!in->shape || !x2->shape) return tensor(in->dtype, std::nullopt);
  if (in->shape->size() != 2) meta::fail("argument 'input' must be 2-D");
  TensorType product;
  product.dtype = in->dtype;
  product.shape = fused_mm_shape(*in->shape, *x2->shape);
  return resize_dim(product, 0, ranks, /*gather=*/false);
}

// (all_reduce(x1 @ x2 + bias) + residual, its rms norm times gamma): both the product's
// shape, which residual must have.
ValueType mm_all_reduce_add_rms_norm(const CallContext& ctx) {
  const TensorType* residual = meta::tensor_arg(ctx, "residual");
  ValueType product = mm_all_reduce(ctx);
  if (!residual || !product.is_tensor()) return ValueType::unknown();
  if (product.tensor.shape && residual->shape && *product.tensor.shape != *residual->shape)
    meta::fail("residual {} does not have the product's shape {}",
               meta::shape_str(*residual->shape), meta::shape_str(*product.tensor.shape));
  TensorType out = *residual;
  if (!out.shape) out.shape = product.tensor.shape;
  return meta::tuple({ValueType::of_tensor(out), ValueType::of_tensor(out)});
}

}  // namespace

void add_collective_meta(OpRegistry& reg) {
  meta::set_all(reg,
                {"_c10d_functional::all_reduce", "_c10d_functional::all_reduce_",
                 "_c10d_functional::broadcast"},
                [](const CallContext& ctx) { return same_as(ctx, "input"); });
  meta::set_all(reg, {"_c10d_functional::wait_tensor", "vllm::all_reduce"},
                [](const CallContext& ctx) { return same_as(ctx, "tensor"); });
  meta::set_all(reg, {"_c10d_functional::all_gather_into_tensor"}, all_gather_into_tensor);
  meta::set_all(reg, {"_c10d_functional::reduce_scatter_tensor"}, reduce_scatter_tensor);
  meta::set_all(reg, {"_c10d_functional::all_to_all_single"}, all_to_all_single);
  meta::set_all(reg, {"vllm::all_gather"}, vllm_all_gather);
  meta::set_all(reg, {"vllm::reduce_scatter"}, vllm_reduce_scatter);
  meta::set_all(reg, {"npu::npu_mm_all_reduce_base"}, mm_all_reduce);
  meta::set_all(reg, {"npu::npu_all_gather_base_mm"}, all_gather_mm);
  meta::set_all(reg, {"npu::npu_mm_reduce_scatter_base"}, mm_reduce_scatter);
  meta::set_all(reg, {"npu::npu_mm_all_reduce_add_rms_norm"}, mm_all_reduce_add_rms_norm);
}

}  // namespace eqfuse
