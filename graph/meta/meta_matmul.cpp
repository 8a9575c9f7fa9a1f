// Meta functions for matrix products: mm, bmm, matmul (torch's rank rules
// with batch broadcasting), addmm, linear, baddbmm and _grouped_mm.
#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

// Operands that must share a dtype: torch's meta checks it for bmm, baddbmm, dot and
// the batched matmul paths (its kernels check it everywhere).
DType matmul_dtype(DType a, DType b, std::string_view a_name, std::string_view b_name) {
  if (a == DType::Unknown) return b == DType::Unknown ? DType::Unknown : b;
  if (b == DType::Unknown) return a;
  if (a != b)
    meta::fail("arguments '{}' ({}) and '{}' ({}) must have the same dtype", a_name,
               dtype_torch_name(a), b_name, dtype_torch_name(b));
  return a;
}

// Where torch's meta does not check that the operands share a dtype (meta_mm, and matmul
// and linear when they fold into mm: result in the first operand's dtype; mv: promoted;
// addmm: promoted with self), the result follows it. Equal dtypes give that dtype.
DType first_operand_dtype(DType a, DType b) {
  return a == DType::Unknown ? b : a;
}

int dtype_category(DType d) {
  if (d == DType::Bool) return 0;
  if (dtype_is_floating(d)) return 2;
  if (d == DType::Complex64) return 3;
  return 1;
}

// addmm / linear with a bias: result_type(bias, mat1, mat2), torch's meta
// (pw_cast_for_opmath); a 0-dim bias wins only with a higher category.
DType biased_product_dtype(const CallContext& ctx, std::string_view bias, std::string_view a,
                           std::string_view b) {
  DType da = meta::dtype_of_arg(ctx, a), db = meta::dtype_of_arg(ctx, b);
  // An unknown operand is assumed to match the known one, as elsewhere in this file.
  if (da == DType::Unknown) da = db;
  if (db == DType::Unknown) db = da;
  const TensorType* t = meta::tensor_arg(ctx, bias);
  if (!t || t->dtype == DType::Unknown) return da == db ? da : DType::Unknown;
  if (da == DType::Unknown) return DType::Unknown;
  if (t->dtype == da && da == db) return da;
  if (!t->shape) return DType::Unknown;  // the promotion depends on the bias' rank
  DType product = meta::promote(da, db);
  if (!t->shape->empty()) return meta::promote(product, t->dtype);
  return dtype_category(t->dtype) > dtype_category(product) ? t->dtype : product;
}

void check_rank(const Shape& s, size_t rank, std::string_view name) {
  if (s.size() != rank) meta::fail("argument '{}' must be {}-D, got {}-D", name, rank, s.size());
}

void check_inner(const SymInt& a, const SymInt& b, std::string_view a_name,
                 std::string_view b_name) {
  if (meta::dims_differ(a, b))
    meta::fail("inner dims do not match: '{}' has {} and '{}' has {}", a_name, a.to_string(),
               b_name, b.to_string());
}

// mm-style product of `a` [n, k] and `b` [k, m], in a's dtype (meta_mm checks no dtypes).
ValueType product2d(const CallContext& ctx, std::string_view a_name, std::string_view b_name) {
  DType d = first_operand_dtype(meta::dtype_of_arg(ctx, a_name), meta::dtype_of_arg(ctx, b_name));
  auto a = meta::shape_arg(ctx, a_name);
  auto b = meta::shape_arg(ctx, b_name);
  if (a) check_rank(*a, 2, a_name);
  if (b) check_rank(*b, 2, b_name);
  if (!a || !b) return tensor(d, std::nullopt);
  check_inner((*a)[1], (*b)[0], a_name, b_name);
  return tensor(d, Shape{(*a)[0], (*b)[1]});
}

ValueType mm(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "self") && !meta::tensor_arg(ctx, "mat2")) return ValueType::unknown();
  return product2d(ctx, "self", "mat2");
}

ValueType bmm(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "self") && !meta::tensor_arg(ctx, "mat2")) return ValueType::unknown();
  DType d = matmul_dtype(meta::dtype_of_arg(ctx, "self"), meta::dtype_of_arg(ctx, "mat2"), "self",
                         "mat2");
  auto a = meta::shape_arg(ctx, "self");
  auto b = meta::shape_arg(ctx, "mat2");
  if (a) check_rank(*a, 3, "self");
  if (b) check_rank(*b, 3, "mat2");
  if (!a || !b) return tensor(d, std::nullopt);
  if (meta::dims_differ((*a)[0], (*b)[0]))
    meta::fail("batch dims do not match: 'self' has {} and 'mat2' has {}", (*a)[0].to_string(),
               (*b)[0].to_string());
  check_inner((*a)[2], (*b)[1], "self", "mat2");
  return tensor(d, Shape{(*a)[0], (*a)[1], (*b)[2]});
}

// Mixed dtypes (torch's matmul decomposition): a 1-D other (mv) promotes, a 2-D other
// (folded into mm) keeps self's dtype, 1-D x 1-D (dot) and batched products refuse.
DType matmul_result_dtype(DType a, DType b, const std::optional<Shape>& sa,
                          const std::optional<Shape>& sb) {
  if (a == DType::Unknown || b == DType::Unknown || a == b) return first_operand_dtype(a, b);
  if (!sa || !sb) return DType::Unknown;  // which path torch takes depends on the ranks
  if (sb->size() == 1 && sa->size() >= 2) return meta::promote(a, b);
  if (sb->size() == 2) return a;
  return matmul_dtype(a, b, "self", "other");
}

// torch.matmul: 1-D operands get a dim prepended/appended that is dropped
// again; batch dims broadcast.
ValueType matmul(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "self") && !meta::tensor_arg(ctx, "other"))
    return ValueType::unknown();
  auto a = meta::shape_arg(ctx, "self");
  auto b = meta::shape_arg(ctx, "other");
  if ((a && a->empty()) || (b && b->empty()))
    meta::fail("matmul() needs tensors with at least 1 dim");
  DType d =
      matmul_result_dtype(meta::dtype_of_arg(ctx, "self"), meta::dtype_of_arg(ctx, "other"), a, b);
  if (!a || !b) return tensor(d, std::nullopt);
  bool a_vec = a->size() == 1, b_vec = b->size() == 1;
  Shape sa = a_vec ? Shape{SymInt(1), (*a)[0]} : *a;
  Shape sb = b_vec ? Shape{(*b)[0], SymInt(1)} : *b;
  check_inner(sa.back(), sb[sb.size() - 2], "self", "other");
  Shape batch_a(sa.begin(), sa.end() - 2), batch_b(sb.begin(), sb.end() - 2);
  Shape out = meta::broadcast(batch_a, batch_b, "self", "other");
  if (!a_vec) out.push_back(sa[sa.size() - 2]);
  if (!b_vec) out.push_back(sb.back());
  return tensor(d, out);
}

ValueType addmm(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "mat1") && !meta::tensor_arg(ctx, "mat2")) return ValueType::unknown();
  ValueType prod = product2d(ctx, "mat1", "mat2");
  prod.tensor.dtype = biased_product_dtype(ctx, "self", "mat1", "mat2");
  if (auto self = meta::shape_arg(ctx, "self"); self && prod.tensor.shape) {
    Shape b = meta::broadcast(*prod.tensor.shape, *self, "mat1 @ mat2", "self");
    if (b.size() != 2 || meta::dims_differ(b[0], (*prod.tensor.shape)[0]) ||
        meta::dims_differ(b[1], (*prod.tensor.shape)[1]))
      meta::fail("argument 'self' {} does not broadcast to the product's shape {}",
                 meta::shape_str(*self), meta::shape_str(*prod.tensor.shape));
  }
  return prod;
}

ValueType linear(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "input") && !meta::tensor_arg(ctx, "weight"))
    return ValueType::unknown();
  auto x = meta::shape_arg(ctx, "input");
  auto w = meta::shape_arg(ctx, "weight");
  if (w && (w->empty() || w->size() > 2))
    meta::fail("argument 'weight' must be 1-D or 2-D, got {}-D", w->size());
  // Without a bias linear is matmul(input, weight.t()); with one, torch's meta promotes
  // input, weight and bias (addmm), a 0-dim bias only when of a higher category.
  DType d = ctx.is_none("bias") ? matmul_result_dtype(meta::dtype_of_arg(ctx, "input"),
                                                      meta::dtype_of_arg(ctx, "weight"), x, w)
                                : biased_product_dtype(ctx, "bias", "input", "weight");
  if (!x || !w) return tensor(d, std::nullopt);
  if (x->empty()) meta::fail("argument 'input' must have at least 1 dim");
  check_inner(x->back(), w->back(), "input", "weight");
  Shape out(x->begin(), x->end() - 1);
  if (w->size() == 2) out.push_back((*w)[0]);
  if (auto bias = meta::shape_arg(ctx, "bias")) {
    Shape b = meta::broadcast(out, *bias, "input @ weight.T", "bias");
    if (b.size() != out.size())
      meta::fail("argument 'bias' {} does not broadcast to {}", meta::shape_str(*bias),
                 meta::shape_str(out));
  }
  return tensor(d, out);
}

// baddbmm: beta * self + alpha * (batch1 @ batch2); self broadcasts to the
// product [b, n, m].
ValueType baddbmm(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "batch1") && !meta::tensor_arg(ctx, "batch2"))
    return ValueType::unknown();
  DType d = matmul_dtype(meta::dtype_of_arg(ctx, "batch1"), meta::dtype_of_arg(ctx, "batch2"),
                         "batch1", "batch2");
  d = matmul_dtype(d, meta::dtype_of_arg(ctx, "self"), "batch1", "self");
  auto a = meta::shape_arg(ctx, "batch1");
  auto b = meta::shape_arg(ctx, "batch2");
  if (a) check_rank(*a, 3, "batch1");
  if (b) check_rank(*b, 3, "batch2");
  if (!a || !b) return tensor(d, std::nullopt);
  if (meta::dims_differ((*a)[0], (*b)[0]))
    meta::fail("batch dims do not match: 'batch1' has {} and 'batch2' has {}", (*a)[0].to_string(),
               (*b)[0].to_string());
  check_inner((*a)[2], (*b)[1], "batch1", "batch2");
  Shape out{(*a)[0], (*a)[1], (*b)[2]};
  if (auto self = meta::shape_arg(ctx, "self")) {
    Shape bc = meta::broadcast(out, *self, "batch1 @ batch2", "self");
    if (bc.size() != 3)
      meta::fail("argument 'self' {} does not broadcast to the product's shape {}",
                 meta::shape_str(*self), meta::shape_str(out));
  }
  return tensor(d, out);
}

// _grouped_mm (torch 2.8+): 2-D x 3-D (groups of rows of self, by offs),
// 3-D x 2-D (groups of columns of mat2), 2-D x 2-D (groups of K: one output
// matrix per group) and 3-D x 3-D (a bmm).
ValueType grouped_mm(const CallContext& ctx) {
  if (!meta::tensor_arg(ctx, "self") && !meta::tensor_arg(ctx, "mat2")) return ValueType::unknown();
  DType d = matmul_dtype(meta::dtype_of_arg(ctx, "self"), meta::dtype_of_arg(ctx, "mat2"), "self",
                         "mat2");
  if (auto out = meta::dtype_arg(ctx, "out_dtype")) d = *out;
  auto a = meta::shape_arg(ctx, "self");
  auto b = meta::shape_arg(ctx, "mat2");
  for (const auto& [s, name] : {std::pair{a, "self"}, std::pair{b, "mat2"}})
    if (s && s->size() != 2 && s->size() != 3)
      meta::fail("argument '{}' must be 2-D or 3-D, got {}-D", name, s->size());
  if (!a || !b) return tensor(d, std::nullopt);
  bool a2 = a->size() == 2, b2 = b->size() == 2;
  if (!a2 || !b2) check_inner(a->back(), (*b)[b->size() - 2], "self", "mat2");
  auto offs = meta::shape_arg(ctx, "offs");
  if ((a2 || b2) && ctx.is_none("offs"))
    meta::fail("argument 'offs' is required when 'self' or 'mat2' is 2-D");
  if (offs && offs->size() != 1) meta::fail("argument 'offs' must be 1-D, got {}-D", offs->size());
  if (a2 && b2) {
    if (!offs) return tensor(d, std::nullopt);
    return tensor(d, Shape{(*offs)[0], (*a)[0], (*b)[1]});
  }
  if (a2) return tensor(d, Shape{(*a)[0], b->back()});
  if (b2) return tensor(d, Shape{(*a)[1], (*b)[1]});
  if (meta::dims_differ((*a)[0], (*b)[0]))
    meta::fail("group dims do not match: 'self' has {} and 'mat2' has {}", (*a)[0].to_string(),
               (*b)[0].to_string());
  return tensor(d, Shape{(*a)[0], (*a)[1], (*b)[2]});
}

}  // namespace

void add_matmul_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::mm"}, mm);
  meta::set_all(reg, {"aten::bmm"}, bmm);
  meta::set_all(reg, {"aten::matmul"}, matmul);
  meta::set_all(reg, {"aten::addmm"}, addmm);
  meta::set_all(reg, {"aten::linear"}, linear);
  meta::set_all(reg, {"aten::baddbmm"}, baddbmm);
  meta::set_all(reg, {"aten::_grouped_mm"}, grouped_mm);
}

}  // namespace eqfuse
