// Meta functions of the torch_npu matmuls: transpose_batchmatmul (with its fixed
// permutations), quant_matmul (int8 or packed int4 operands) and fused_matmul (a matmul
// with an elementwise epilogue).
#include <algorithm>
#include <array>
#include <string>

#include "graph/meta/meta_npu_internal.hpp"

namespace eqfuse::npu_meta {
namespace {

using meta::tensor;

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

}  // namespace

void add_npu_matmul_meta(OpRegistry& reg) {
  meta::set_all(reg, {"npu::npu_transpose_batchmatmul"}, transpose_batchmatmul);
  meta::set_all(reg, {"npu::npu_quant_matmul"}, quant_matmul);
  meta::set_all(reg, {"npu::npu_fused_matmul"}, fused_matmul);
}

}  // namespace eqfuse::npu_meta
