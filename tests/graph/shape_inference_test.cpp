// Shape and dtype inference (infer_types + the built-in meta functions) for
// every op of the built-in catalog, with symbolic dims, unknown inputs and
// error cases. Graphs are small FX snippets read by parse_fx.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {
namespace {

const OpRegistry& builtin() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph typed_graph(const std::string& text) {
  Graph g = parse_fx(text, "snippet.py");
  resolve_ops(g, builtin());
  infer_types(g, builtin());
  return g;
}

// `def forward(self, <sig>): out = <expr>; return (out,)`. Lines of `expr`
// before its last one are statements placed before `out = `.
std::string single_op_text(const std::string& sig, const std::string& expr) {
  size_t nl = expr.rfind('\n');
  std::string prelude = nl == std::string::npos ? "" : "    " + expr.substr(0, nl + 1);
  std::string last = nl == std::string::npos ? expr : expr.substr(nl + 1);
  return "def forward(self, " + sig + "):\n" + prelude + "    out = " + last +
         "\n    return (out,)\n";
}

Graph single_op(const std::string& sig, const std::string& expr) {
  return typed_graph(single_op_text(sig, expr));
}

std::string type_of(const Graph& g, const std::string& name) {
  auto r = g.find(name);
  if (!r) return "<no node " + name + ">";
  return describe(g.node(*r).type);
}

struct Case {
  const char* sig;
  const char* expr;
  const char* expected;
};

// Every op in the built-in catalog appears in at least one case (checked by
// EveryCatalogOpIsCovered below).
const Case kCases[] = {
    // --- elementwise: broadcasting and promotion
    {"x: \"f32[2, 3]\", y: \"f32[3]\"", "torch.ops.aten.add.Tensor(x, y)", "f32[2, 3]"},
    {"x: \"bf16[s0, 1]\", y: \"bf16[1, 8]\"", "torch.ops.aten.add.Tensor(x, y, alpha = 2)",
     "bf16[s0, 8]"},
    {"x: \"f16[4]\", y: \"f32[]\"", "torch.ops.aten.mul.Tensor(x, y)", "f16[4]"},
    {"x: \"i32[4]\", y: \"f32[]\"", "torch.ops.aten.mul.Tensor(x, y)", "f32[4]"},
    {"x: \"f16[4]\", y: \"bf16[4]\"", "torch.ops.aten.sub.Tensor(x, y)", "f32[4]"},
    // --- `.out` variants (remove_cat_ops): the type of `out`
    {"a: \"bf16[4, 8]\", b: \"bf16[8, 16]\", o: \"bf16[4, 16]\"",
     "torch.ops.aten.mm.out(a, b, out = o)", "bf16[4, 16]"},
    {"a: \"bf16[2, 4, 8]\", b: \"bf16[2, 8, 16]\", o: \"bf16[2, 4, 16]\"",
     "torch.ops.aten.bmm.out(a, b, out = o)", "bf16[2, 4, 16]"},
    {"c: \"f32[16]\", a: \"f32[4, 8]\", b: \"f32[8, 16]\", o: \"f32[4, 16]\"",
     "torch.ops.aten.addmm.out(c, a, b, out = o)", "f32[4, 16]"},
    {"x: \"f16[4]\", y: \"f16[4]\", o: \"f16[4]\"", "torch.ops.aten.add.out(x, y, out = o)",
     "f16[4]"},
    {"x: \"f16[4]\", y: \"f16[4]\", o: \"f16[4]\"", "torch.ops.aten.sub.out(x, y, out = o)",
     "f16[4]"},
    {"x: \"f16[4]\", y: \"f16[4]\", o: \"f16[4]\"", "torch.ops.aten.mul.out(x, y, out = o)",
     "f16[4]"},
    {"x: \"f32[4]\", y: \"f32[4]\", o: \"f32[4]\"", "torch.ops.aten.div.out(x, y, out = o)",
     "f32[4]"},
    {"x: \"bf16[4]\", o: \"bf16[4]\"", "torch.ops.aten.silu.out(x, out = o)", "bf16[4]"},
    {"x: \"bf16[4]\", o: \"bf16[4]\"", "torch.ops.aten.gelu.out(x, out = o)", "bf16[4]"},
    {"x: \"i8[4]\", y: \"u8[4]\"", "torch.ops.aten.sub.Tensor(x, y)", "i16[4]"},
    {"x: \"i64[4]\"", "torch.ops.aten.mul.Tensor(x, 0.5)", "f32[4]"},
    {"x: \"bf16[4]\"", "torch.ops.aten.add.Tensor(x, 1)", "bf16[4]"},
    {"x: \"bf16[s0, 4]\"", "torch.ops.aten.add.Scalar(x, 2.0)", "bf16[s0, 4]"},
    {"x: \"i32[4]\"", "torch.ops.aten.sub.Scalar(x, 2)", "i32[4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.rsub.Scalar(x, 1)", "f32[4]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.mul.Scalar(x, 3)", "f32[2, 3]"},
    {"x: \"i64[4]\", y: \"i64[4]\"", "torch.ops.aten.div.Tensor(x, y)", "f32[4]"},
    {"x: \"f16[4, 1]\", y: \"f16[5]\"", "torch.ops.aten.div.Tensor(x, y)", "f16[4, 5]"},
    {"x: \"i64[4]\"", "torch.ops.aten.div.Scalar(x, 2)", "f32[4]"},
    {"x: \"i64[4]\", y: \"i64[4]\"",
     "torch.ops.aten.div.Tensor_mode(x, y, rounding_mode = 'floor')", "i64[4]"},
    {"x: \"f32[4]\", y: \"f32[1]\"", "torch.ops.aten.add_.Tensor(x, y)", "f32[4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.add_.Scalar(x, 1)", "f32[4]"},
    {"x: \"f32[4]\", y: \"f32[4]\"", "torch.ops.aten.sub_.Tensor(x, y)", "f32[4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.sub_.Scalar(x, 1)", "f32[4]"},
    {"x: \"bf16[2, 4]\", y: \"bf16[4]\"", "torch.ops.aten.mul_.Tensor(x, y)", "bf16[2, 4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.mul_.Scalar(x, 2)", "f32[4]"},
    {"x: \"f32[4]\", y: \"f32[4]\"", "torch.ops.aten.div_.Tensor(x, y)", "f32[4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.div_.Scalar(x, 2)", "f32[4]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.pow.Tensor_Scalar(x, 2)", "bf16[s0, 8]"},
    {"x: \"f32[3, 1]\", y: \"f32[3]\"", "torch.ops.aten.pow.Tensor_Tensor(x, y)", "f32[3, 3]"},
    {"x: \"f32[3]\", y: \"f32[2, 1]\"", "torch.ops.aten.maximum(x, y)", "f32[2, 3]"},
    {"x: \"f32[3]\", y: \"f32[3]\"", "torch.ops.aten.minimum(x, y)", "f32[3]"},
    {"c: \"b8[2, 1]\", x: \"f32[3]\", y: \"f32[]\"", "torch.ops.aten.where.self(c, x, y)",
     "f32[2, 3]"},
    {"x: \"f16[4]\"", "torch.ops.aten.clamp(x, 0, 6)", "f16[4]"},
    {"x: \"f32[2, 3]\", m: \"b8[3]\"", "torch.ops.aten.masked_fill.Scalar(x, m, 0.0)", "f32[2, 3]"},
    // --- unary
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.neg.default(x)", "bf16[s0, 8]"},
    {"x: \"f32[2]\"", "torch.ops.aten.neg_.default(x)", "f32[2]"},
    {"x: \"i32[2]\"", "torch.ops.aten.abs.default(x)", "i32[2]"},
    {"x: \"i32[2]\"", "torch.ops.aten.ceil.default(x)", "i32[2]"},
    {"x: \"f16[s0, 2]\"", "torch.ops.aten.ceil.default(x)", "f16[s0, 2]"},
    {"x: \"i64[2]\"", "torch.ops.aten.floor.default(x)", "i64[2]"},
    {"x: \"bf16[s0, 2]\"", "torch.ops.aten.round.default(x)", "bf16[s0, 2]"},
    {"x: \"f32[3]\"", "torch.ops.aten.trunc.default(x)", "f32[3]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.rsqrt.default(x)", "bf16[s0, 8]"},
    {"x: \"i64[2]\"", "torch.ops.aten.rsqrt.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.rsqrt_.default(x)", "f32[2]"},
    {"x: \"f16[2]\"", "torch.ops.aten.sqrt.default(x)", "f16[2]"},
    {"x: \"f16[2]\"", "torch.ops.aten.exp.default(x)", "f16[2]"},
    {"x: \"bf16[2, s0]\"", "torch.ops.aten.log1p.default(x)", "bf16[2, s0]"},
    {"x: \"i64[3]\"", "torch.ops.aten.expm1.default(x)", "f32[3]"},
    {"x: \"i32[2]\"", "torch.ops.aten.log.default(x)", "f32[2]"},
    {"x: \"f32[2, 2]\"", "torch.ops.aten.reciprocal.default(x)", "f32[2, 2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.sin.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.cos.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.erf.default(x)", "f32[2]"},
    {"x: \"bf16[s0, 11008]\"", "torch.ops.aten.silu.default(x)", "bf16[s0, 11008]"},
    {"x: \"f32[2]\"", "torch.ops.aten.silu_.default(x)", "f32[2]"},
    {"x: \"f16[2]\"", "torch.ops.aten.sigmoid.default(x)", "f16[2]"},
    {"x: \"f16[2]\"", "torch.ops.aten.sigmoid_.default(x)", "f16[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.gelu.default(x, approximate = 'tanh')", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.relu.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.relu_.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.tanh.default(x)", "f32[2]"},
    // --- comparisons
    {"x: \"f32[2, 3]\", y: \"f32[3]\"", "torch.ops.aten.eq.Tensor(x, y)", "b8[2, 3]"},
    {"x: \"f32[2]\"", "torch.ops.aten.eq.Scalar(x, 0)", "b8[2]"},
    {"x: \"f32[2]\", y: \"f32[2]\"", "torch.ops.aten.ne.Tensor(x, y)", "b8[2]"},
    {"x: \"i64[2]\"", "torch.ops.aten.ne.Scalar(x, 1)", "b8[2]"},
    {"x: \"f32[2]\", y: \"f32[2]\"", "torch.ops.aten.lt.Tensor(x, y)", "b8[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.lt.Scalar(x, 0)", "b8[2]"},
    {"x: \"f32[2]\", y: \"f32[2]\"", "torch.ops.aten.le.Tensor(x, y)", "b8[2]"},
    {"x: \"f32[s1]\"", "torch.ops.aten.le.Scalar(x, 0)", "b8[s1]"},
    {"x: \"f32[2]\", y: \"f32[2]\"", "torch.ops.aten.gt.Tensor(x, y)", "b8[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.gt.Scalar(x, 0)", "b8[2]"},
    {"x: \"f32[2]\", y: \"f32[2]\"", "torch.ops.aten.ge.Tensor(x, y)", "b8[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.ge.Scalar(x, 0)", "b8[2]"},
    // --- layout views
    {"x: \"bf16[s0, 4, 7168]\"", "torch.ops.aten.view.default(x, [-1, 7168])", "bf16[4*s0, 7168]"},
    {"x: \"bf16[s0, 7168]\"", "torch.ops.aten.view.default(x, [-1, 56, 128])", "bf16[s0, 56, 128]"},
    {"x: \"f32[6, 4]\"", "torch.ops.aten.view.default(x, [2, -1, 4])", "f32[2, 3, 4]"},
    {"x: \"f32[s0, s1]\"", "torch.ops.aten.reshape.default(x, [-1])", "f32[s0*s1]"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten._unsafe_view.default(x, [6, 4])", "f32[6, 4]"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten.view_copy.default(x, [24])", "f32[24]"},
    {"x: \"f32[s0, 3, 4, 5]\"", "torch.ops.aten.flatten.using_ints(x, 1, 2)", "f32[s0, 12, 5]"},
    {"x: \"f32[s0, 3, 4]\"", "torch.ops.aten.flatten.using_ints(x)", "f32[12*s0]"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten.transpose.int(x, 0, -1)", "f32[4, 3, 2]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.t.default(x)", "f32[3, 2]"},
    {"x: \"f32[s0, 3, 4]\"", "torch.ops.aten.permute.default(x, [2, 0, 1])", "f32[4, s0, 3]"},
    {"x: \"f32[3, 1]\", s: \"Sym(s0)\"", "torch.ops.aten.expand.default(x, [2, 3, s])",
     "f32[2, 3, s0]"},
    {"x: \"f32[3, 1]\"", "torch.ops.aten.expand.default(x, [-1, 5])", "f32[3, 5]"},
    {"x: \"f32[3, 4]\"", "torch.ops.aten.unsqueeze.default(x, -1)", "f32[3, 4, 1]"},
    {"x: \"f32[1, 3, 1]\"", "torch.ops.aten.squeeze.default(x)", "f32[3]"},
    {"x: \"f32[1, 3, 1]\"", "torch.ops.aten.squeeze.dim(x, 0)", "f32[3, 1]"},
    {"x: \"f32[1, 3, 1]\"", "torch.ops.aten.squeeze.dim(x, 1)", "f32[1, 3, 1]"},
    {"x: \"f32[1, 3, 1]\"", "torch.ops.aten.squeeze.dims(x, [0, 2])", "f32[3]"},
    {"x: \"f32[10, 4]\"", "torch.ops.aten.slice.Tensor(x, 0, 2, 7)", "f32[5, 4]"},
    {"x: \"f32[10, 4]\"", "torch.ops.aten.slice.Tensor(x, 0, -3, 9223372036854775807)",
     "f32[3, 4]"},
    {"x: \"f32[10, 4]\"", "torch.ops.aten.slice.Tensor(x, 0, 1, 100, 3)", "f32[3, 4]"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.slice.Tensor(x, 0, 1, 9223372036854775807)",
     "f32[s0 - 1, 4]"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.slice.Tensor(x, 1, 0, 2)", "f32[s0, 2]"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten.select.int(x, 1, -1)", "f32[2, 4]"},
    {"x: \"f32[12]\"", "torch.ops.aten.as_strided.default(x, [3, 4], [4, 1])", "f32[3, 4]"},
    {"x: \"bf16[6, 8]\"", "torch.ops.aten._reshape_alias.default(x, [6, 2, 4], [8, 4, 1])",
     "bf16[6, 2, 4]"},
    {"x: \"b8[8, 8]\"", "torch.ops.aten.triu.default(x, 1)", "b8[8, 8]"},
    {"x: \"f32[2, s0, s0]\"", "torch.ops.aten.tril.default(x)", "f32[2, s0, s0]"},
    {"x: \"f32[s0]\"", "torch.ops.aten.alias.default(x)", "f32[s0]"},
    {"x: \"f32[s0]\"", "torch.ops.aten.detach.default(x)", "f32[s0]"},
    {"x: \"f32[10, 4]\"", "torch.ops.aten.split.Tensor(x, 4)",
     "tuple(f32[4, 4], f32[4, 4], f32[2, 4])"},
    {"x: \"f32[2, 10]\"", "torch.ops.aten.split_with_sizes.default(x, [3, 7], -1)",
     "tuple(f32[2, 3], f32[2, 7])"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.unbind.int(x)", "tuple(f32[3], f32[3])"},
    // --- copies
    {"x: \"f32[2, 3]\"", "torch.ops.aten.contiguous.default(x)", "f32[2, 3]"},
    {"x: \"bf16[s0, 3]\"",
     "torch.ops.aten.clone.default(x, memory_format = torch.contiguous_format)", "bf16[s0, 3]"},
    {"x: \"f32[2]\"", "torch.ops.aten.alias_copy.default(x)", "f32[2]"},
    {"x: \"f32[2]\"", "torch.ops.aten.lift_fresh_copy.default(x)", "f32[2]"},
    {"x: \"f16[s0, 4]\", y: \"f16[3, 4]\"", "torch.ops.aten.cat.default([x, y])", "f16[s0 + 3, 4]"},
    {"x: \"f16[2, 4]\", y: \"f32[2, 1]\"", "torch.ops.aten.cat.default([x, y], -1)", "f32[2, 5]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.repeat.default(x, [2, 1, 2])", "f32[2, 2, 6]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.constant_pad_nd.default(x, [1, 2])", "f32[2, 6]"},
    {"x: \"f32[8, 4]\", y: \"f32[2, 4]\"", "torch.ops.aten.slice_scatter.default(x, y, 0, 0, 2)",
     "f32[8, 4]"},
    {"x: \"f32[8, 4]\", y: \"f32[4]\"", "torch.ops.aten.select_scatter.default(x, y, 0, 1)",
     "f32[8, 4]"},
    {"x: \"f32[3, 4]\", y: \"f32[4]\"", "torch.ops.aten.copy.default(x, y)", "f32[3, 4]"},
    {"x: \"bf16[3, 4]\", y: \"f32[3, 4]\"", "torch.ops.aten.copy_.default(x, y)", "bf16[3, 4]"},
    // --- reductions
    {"x: \"i32[2, 3]\"", "torch.ops.aten.sum.default(x)", "i64[]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.sum.dim_IntList(x, [1])", "bf16[s0]"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten.sum.dim_IntList(x, [0, -1], True)", "f32[1, 3, 1]"},
    {"x: \"f16[2, 3]\"", "torch.ops.aten.sum.dim_IntList(x, None, dtype = torch.float32)", "f32[]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.mean.default(x)", "f32[]"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.mean.dim(x, [-1], True)", "f32[s0, 1]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.amax.default(x, [1], True)", "f32[2, 1]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.amin.default(x)", "f32[]"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.max.dim(x, 1)", "tuple(f32[2], i64[2])"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.argmax.default(x, -1)", "i64[2]"},
    {"x: \"f32[2, 3]\"",
     "torch.ops.aten.var_mean.correction(x, [1], correction = 0, keepdim = True)",
     "tuple(f32[2, 1], f32[2, 1])"},
    {"x: \"f16[2, 3]\"", "torch.ops.aten._softmax.default(x, -1, True)", "f32[2, 3]"},
    {"x: \"f16[2, 3]\"", "torch.ops.aten._log_softmax.default(x, 1, False)", "f16[2, 3]"},
    {"x: \"f16[2, 3]\"", "torch.ops.aten.softmax.int(x, -1, torch.float32)", "f32[2, 3]"},
    // --- matmuls
    {"a: \"bf16[s0, 7168]\", b: \"bf16[7168, 512]\"", "torch.ops.aten.mm.default(a, b)",
     "bf16[s0, 512]"},
    {"a: \"f16[8, s0, 64]\", b: \"f16[8, 64, 32]\"", "torch.ops.aten.bmm.default(a, b)",
     "f16[8, s0, 32]"},
    {"a: \"f32[2, 1, 3, 4]\", b: \"f32[5, 4, 6]\"", "torch.ops.aten.matmul.default(a, b)",
     "f32[2, 5, 3, 6]"},
    {"a: \"f32[4]\", b: \"f32[4]\"", "torch.ops.aten.matmul.default(a, b)", "f32[]"},
    {"a: \"f32[3, 4]\", b: \"f32[4]\"", "torch.ops.aten.matmul.default(a, b)", "f32[3]"},
    {"c: \"f32[5]\", a: \"f32[3, 4]\", b: \"f32[4, 5]\"", "torch.ops.aten.addmm.default(c, a, b)",
     "f32[3, 5]"},
    {"x: \"bf16[s0, 4, 16]\", w: \"bf16[32, 16]\", b: \"bf16[32]\"",
     "torch.ops.aten.linear.default(x, w, b)", "bf16[s0, 4, 32]"},
    // --- casts
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten._to_copy.default(x, dtype = torch.float32)",
     "f32[s0, 8]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.to.dtype(x, torch.float16)", "f16[s0, 8]"},
    {"x: \"f32[2]\"", "torch.ops.prims.convert_element_type.default(x, torch.bfloat16)", "bf16[2]"},
    {"x: \"bf16[2, 3]\"", "torch.ops.npu._npu_dtype_cast.default(x, torch.float32)", "f32[2, 3]"},
    {"x: \"bf16[2, 3]\"", "torch.ops.npu._npu_dtype_cast.default(x, 6)", "f32[2, 3]"},
    // --- scatters into a cache (recover_view_inplace_pattern): self's type
    {"x: \"bf16[4, 8, 16]\", i: \"i64[4]\", u: \"bf16[4, 1, 16]\"",
     "torch.ops.npu.scatter_update.default(x, i, u, -2)", "bf16[4, 8, 16]"},
    {"x: \"bf16[4, 8, 16]\", i: \"i64[4]\", u: \"bf16[4, 1, 16]\"",
     "torch.ops.npu.scatter_update_.default(x, i, u, -2)", "bf16[4, 8, 16]"},
    {"x: \"f16[8, 16]\", i: \"i64[2, 1]\", u: \"f16[2, 16]\"",
     "torch.ops.npu.npu_scatter_nd_update.default(x, i, u)", "f16[8, 16]"},
    {"x: \"f16[8, 16]\", i: \"i64[2, 1]\", u: \"f16[2, 16]\"",
     "torch.ops.npu.npu_scatter_nd_update_.default(x, i, u)", "f16[8, 16]"},
    {"x: \"i8[4, 8, 16]\", i: \"i64[4]\", u: \"bf16[4, 1, 16]\", s: \"bf16[16]\"",
     "torch.ops.npu.npu_quant_scatter.default(x, i, u, s, None, -2, -1)", "i8[4, 8, 16]"},
    {"x: \"i8[4, 8, 16]\", i: \"i64[4]\", u: \"bf16[4, 1, 16]\", s: \"bf16[16]\"",
     "torch.ops.npu.npu_quant_scatter_.default(x, i, u, s, None, -2, -1)", "i8[4, 8, 16]"},
    // --- creation
    {"s: \"Sym(s0)\"", "torch.ops.aten.full.default([s, 4], 1.5)", "f32[s0, 4]"},
    {"", "torch.ops.aten.full.default([2], 1)", "i64[2]"},
    {"", "torch.ops.aten.full.default([2], False)", "b8[2]"},
    {"", "torch.ops.aten.zeros.default([2, 3], dtype = torch.bfloat16)", "bf16[2, 3]"},
    {"", "torch.ops.aten.ones.default([4])", "f32[4]"},
    {"", "torch.ops.aten.empty.memory_format([2, 3], dtype = torch.int8)", "i8[2, 3]"},
    {"x: \"f16[9]\"", "torch.ops.aten.new_empty.default(x, [3, 3])", "f16[3, 3]"},
    {"x: \"f16[9]\"", "torch.ops.aten.zeros_like.default(x)", "f16[9]"},
    {"x: \"f16[9]\"", "torch.ops.aten.ones_like.default(x, dtype = torch.float32)", "f32[9]"},
    {"x: \"f16[9]\"", "torch.ops.aten.empty_like.default(x)", "f16[9]"},
    {"x: \"f16[9]\"", "torch.ops.aten.full_like.default(x, 7)", "f16[9]"},
    {"", "torch.ops.aten.scalar_tensor.default(2.0)", "f32[]"},
    {"",
     "torch.ops.prims.iota.default(5, start = 0, step = 1, dtype = torch.int64, device = "
     "device(type='cpu'), requires_grad = False)",
     "i64[5]"},
    // --- misc
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.sym_size.int(x, 0)", "Sym(s0)"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.sym_size.int(x, -1)", "Sym(4)"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.sym_numel.default(x)", "Sym(4*s0)"},
    {"w: \"bf16[1000, 64]\", i: \"i64[s0, 7]\"", "torch.ops.aten.embedding.default(w, i)",
     "bf16[s0, 7, 64]"},
    {"", "torch.ops.air.scope_enter.default(['_user_stream_label'], ['s1'])", "None"},
    {"",
     "enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['s1'])\n"
     "torch.ops.air.scope_exit.default()",
     "None"},
    // --- npu (torchair-passes.md §7)
    {"x1: \"bf16[s0, 7168]\", x2: \"bf16[s0, 7168]\", g: \"bf16[7168]\"",
     "torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)",
     "tuple(bf16[s0, 7168], f32[s0, 1], bf16[s0, 7168])"},
    {"x1: \"f16[2, 3, 4, 8]\", x2: \"f16[2, 3, 4, 8]\", g: \"f16[8]\"",
     "torch.ops.npu.npu_add_rms_norm.default(x1, x2, g, 1e-05)",
     "tuple(f16[2, 3, 4, 8], f32[2, 3, 4, 1], f16[2, 3, 4, 8])"},
    {"x1: \"f16[2, 3, 4, 8]\", x2: \"f16[2, 3, 4, 8]\", g: \"f16[4, 8]\"",
     "torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)",
     "tuple(f16[2, 3, 4, 8], f32[2, 3, 1, 1], f16[2, 3, 4, 8])"},
    {"x: \"bf16[s0, 128]\", g: \"bf16[128]\"", "torch.ops.npu.npu_rms_norm.default(x, g)",
     "tuple(bf16[s0, 128], f32[s0, 1])"},
    // npu_rms_norm_quant: int8 of x's shape by default.
    {"x: \"bf16[s0, 64]\", g: \"bf16[64]\", b: \"bf16[64]\", s: \"bf16[1]\", o: \"i8[1]\"",
     "torch.ops.npu.npu_rms_norm_quant.default(x, g, b, s, o)", "i8[s0, 64]"},
    // npu_rotary_mul: self's type; r1 and r2 broadcast to it (torch_npu docs).
    {"x: \"bf16[2, s0, 8, 128]\", c: \"bf16[1, s0, 1, 128]\", s: \"bf16[1, s0, 1, 128]\"",
     "torch.ops.npu.npu_rotary_mul.default(x, c, s)", "bf16[2, s0, 8, 128]"},
    // npu_dynamic_mx_quant: y in the float8 dst_type (uint8 with the last dim halved for
    // packed fp4), uint8 e8m0 scales of ceil(ceil(n / block) / 2) pairs along the axis.
    {"x: \"bf16[s0, 96]\"",
     "torch.ops.npu.npu_dynamic_mx_quant.default(x, dst_type = torch.float8_e4m3fn)",
     "tuple(f8e4m3fn[s0, 96], u8[s0, 2, 2])"},
    {"x: \"f16[64, 8]\"", "torch.ops.npu.npu_dynamic_mx_quant.default(x, axis = 0)",
     "tuple(u8[64, 4], u8[1, 8, 2])"},
    {"x: \"bf16[2, 4, 128]\", g: \"bf16[128]\"",
     "torch.ops.npu.npu_rms_norm_dynamic_mx_quant.default(x, g, dst_type = 291)",
     "tuple(f8e5m2[2, 4, 128], u8[2, 4, 2, 2], f32[0])"},
    {"a: \"bf16[s0, 64]\", b: \"bf16[s0, 64]\", g: \"bf16[64]\"",
     "torch.ops.npu.npu_add_rms_norm_dynamic_mx_quant.default(a, b, g, dst_type = 292)",
     "tuple(f8e4m3fn[s0, 64], bf16[s0, 64], u8[s0, 1, 2], f32[0])"},
    // npu_swiglu_mx_quant: y halves activate_dim; mxscale ceil(n / 64) pairs along axis.
    {"x: \"bf16[s0, 256]\"",
     "torch.ops.npu.npu_swiglu_mx_quant.default(x, activate_left = True, dst_type = 292)",
     "tuple(f8e4m3fn[s0, 128], u8[s0, 2, 2])"},
    {"x: \"bf16[4, 192]\"", "torch.ops.npu.npu_swiglu_mx_quant.default(x)",
     "tuple(u8[4, 48], u8[4, 2, 2])"},
    // npu_dequant_swiglu_quant: int8 y of half the last dim, fp32 per-token scale.
    {"x: \"bf16[s0, 256]\"",
     "torch.ops.npu.npu_dequant_swiglu_quant.default(x, activate_left = True, quant_mode = 1)",
     "tuple(i8[s0, 128], f32[s0])"},
    // npu_fusion_attention(_v2): out in query's layout and dtype (value's head dim),
    // softmax_max/sum fp32 [B, N, S, 8], an empty softmax_out, three ints (torch_npu docs).
    {"q: \"bf16[2, 8, s0, 128]\", k: \"bf16[2, 2, s0, 128]\", v: \"bf16[2, 2, s0, 128]\", "
     "m: \"bf16[2, 1, s0, s0]\"",
     "torch.ops.npu.npu_fusion_attention_v2.default(q, k, v, 8, \"BNSD\", pse = m, pse_type = 0)",
     "tuple(bf16[2, 8, s0, 128], f32[2, 8, s0, 8], f32[2, 8, s0, 8], bf16[0], unknown, unknown, "
     "unknown)"},
    {"q: \"f16[1, 16, 4, 64]\", k: \"f16[1, 16, 4, 64]\", v: \"f16[1, 16, 4, 64]\"",
     "torch.ops.npu.npu_fusion_attention.default(q, k, v, 4, \"BSND\")",
     "tuple(f16[1, 16, 4, 64], f32[1, 4, 16, 8], f32[1, 4, 16, 8], f16[0], unknown, unknown, "
     "unknown)"},
    // npu_add_layer_norm: mean/rstd fp32 of the leading dims then one 1 (op-plugin), y and x
    // in x1's dtype, or fp32 when x1 and x2 differ.
    {"x1: \"bf16[s0, 16, 128]\", x2: \"bf16[s0, 16, 128]\", g: \"bf16[128]\", b: \"bf16[128]\"",
     "torch.ops.npu.npu_add_layer_norm.default(x1, x2, g, b, 1e-05, True)",
     "tuple(bf16[s0, 16, 128], f32[s0, 16, 1], f32[s0, 16, 1], bf16[s0, 16, 128])"},
    {"x1: \"f16[2, 3, 8]\", x2: \"f32[2, 3, 8]\", g: \"f16[3, 8]\", b: \"f16[3, 8]\"",
     "torch.ops.npu.npu_add_layer_norm.default(x1, x2, g, b)",
     "tuple(f32[2, 3, 8], f32[2, 1], f32[2, 1], f32[2, 3, 8])"},
    {"x: \"bf16[s0, 4, 64]\", s: \"bf16[64]\"",
     "torch.ops.npu.npu_dynamic_quant.default(x, smooth_scales = s)",
     "tuple(i8[s0, 4, 64], f32[s0, 4])"},
    {"x: \"bf16[s0, 64]\"", "torch.ops.npu.npu_dynamic_quant.default(x, dst_type = 16)",
     "tuple(i32[s0, 8], f32[s0])"},
    {"x: \"bf16[3, 64]\"", "torch.ops.npu.npu_dynamic_quant.default(x, quant_mode = 'pertensor')",
     "tuple(i8[3, 64], f32[1])"},
    {"x: \"bf16[s0, 64]\", s: \"f32[64]\", z: \"i32[64]\"",
     "torch.ops.npu.npu_quantize.default(x, s, z, torch.qint8, -1)", "i8[s0, 64]"},
    {"x: \"bf16[s0, 64]\", s: \"f32[64]\"",
     "torch.ops.npu.npu_quantize.default(x, s, None, 13, -1)", "u8[s0, 64]"},
    {"x: \"bf16[s0, 64]\", s: \"bf16[64]\", z: \"bf16[64]\"",
     "torch.ops.npu.npu_quantize.default(x, s, z, torch.quint4x2, -1, False)", "i32[s0, 8]"},
    {"x1: \"f16[s0, 2, 16]\", x2: \"f16[s0, 2, 16]\", g: \"f16[16]\", s: \"f16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, g, smooth_scale1 = s, "
     "output_mask = [True, False])",
     "tuple(i8[s0, 2, 16], i8[0], f16[s0, 2, 16], f32[s0, 2], f32[0])"},
    {"x1: \"f16[4, 16]\", x2: \"f16[4, 16]\", g: \"f16[16]\", s: \"f16[16]\", t: \"f16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, g, smooth_scale1 = s, "
     "smooth_scale2 = t)",
     "tuple(i8[4, 16], i8[4, 16], f16[4, 16], f32[4], f32[4])"},
    {"x1: \"bf16[s0, 16]\", x2: \"bf16[s0, 16]\", g: \"bf16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_cast.default(x1, x2, g)",
     "tuple(f32[s0, 16], bf16[s0, 16], f32[s0, 1], bf16[s0, 16])"},
    {"x1: \"f16[2, 16]\", x2: \"f16[2, 16]\", g: \"f16[16]\", s: \"f32[16]\", z: \"i32[16]\"",
     "torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, g, s, z, axis = -1)",
     "tuple(i8[2, 16], i8[2, 16], f16[2, 16])"},
    // vllm-ascend's custom ops (AddRMSNormQuantFusionPass): npu_add_rms_norm's outputs with
    // an optional beta; vllm.quantize is int8 of its input's shape.
    {"x1: \"bf16[s0, 64]\", x2: \"bf16[s0, 64]\", g: \"bf16[64]\", b: \"bf16[64]\"",
     "torch.ops._C_ascend.npu_add_rms_norm_bias.default(x1, x2, g, b, 1e-05)",
     "tuple(bf16[s0, 64], f32[s0, 1], bf16[s0, 64])"},
    {"x1: \"f16[2, 3, 16]\", x2: \"f16[2, 3, 16]\", g: \"f16[16]\"",
     "torch.ops._C_ascend.npu_add_rms_norm_bias.default(x1, x2, g, None, 1e-06)",
     "tuple(f16[2, 3, 16], f32[2, 3, 1], f16[2, 3, 16])"},
    {"x: \"bf16[s0, 64]\", s: \"bf16[64]\", r: \"bf16[64]\", o: \"bf16[64]\"",
     "torch.ops.vllm.quantize.default(x, s, r, o)", "i8[s0, 64]"},
    {"x: \"f16[4, 8, 128]\", w: \"f16[4, 128, 256]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w)", "f16[8, 4, 256]"},
    {"x: \"f16[s0, 4, 128]\", w: \"f16[4, 128, 256]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w, perm_x1 = [1, 0, 2])",
     "f16[s0, 4, 256]"},
    {"x: \"f16[4, 8, 128]\", w: \"f16[4, 128, 256]\", s: \"i64[1024]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w, scale = s)", "i8[8, 1, 1024]"},
    {"x: \"f16[4, 8, 128]\", w: \"f16[4, 128, 256]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w, batch_split_factor = 2)",
     "f16[2, 8, 512]"},
    {"x1: \"bf16[s0, 16]\", x2: \"bf16[s0, 16]\", g: \"bf16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_v2.default(x1, x2, g)", "f32[s0, 1]"},
    {"x1: \"bf16[s0, 16]\", x2: \"bf16[s0, 16]\", g: \"bf16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_v2_functional.default(x1, x2, g, 1e-06)",
     "tuple(f32[s0, 1], bf16[s0, 16], bf16[s0, 16])"},
    {"kv: \"bf16[s0, 1, 1, 576]\", g: \"bf16[512]\", c: \"bf16[s0, 1, 1, 64]\", "
     "s: \"bf16[s0, 1, 1, 64]\", i: \"i64[s0]\", kc: \"bf16[32, 128, 1, 64]\", "
     "cc: \"bf16[32, 128, 1, 512]\"",
     "torch.ops.npu.npu_kv_rmsnorm_rope_cache.default(kv, g, c, s, i, kc, cc, cache_mode = 'PA')",
     "tuple(bf16[32, 128, 1, 64], bf16[32, 128, 1, 512], bf16[s0, 1, 1, 64], "
     "bf16[s0, 1, 1, 512])"},
    {"kv: \"bf16[s0, 1, 1, 576]\", g: \"bf16[512]\", c: \"bf16[s0, 1, 1, 64]\", "
     "s: \"bf16[s0, 1, 1, 64]\", i: \"i64[s0]\", kc: \"bf16[32, 128, 1, 64]\", "
     "cc: \"bf16[32, 128, 1, 512]\"",
     "torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2.default(kv, g, c, s, i, kc, cc)",
     "tuple(bf16[s0, 1, 1, 64], bf16[s0, 1, 1, 512])"},
    {"kv: \"bf16[s0, 1, 1, 576]\", g: \"bf16[512]\", c: \"bf16[s0, 1, 1, 64]\", "
     "s: \"bf16[s0, 1, 1, 64]\", i: \"i64[s0]\", kc: \"bf16[32, 128, 1, 64]\", "
     "cc: \"bf16[32, 128, 1, 512]\"",
     "torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2_functional.default(kv, g, c, s, i, kc, cc)",
     "tuple(bf16[s0, 1, 1, 64], bf16[s0, 1, 1, 512], bf16[32, 128, 1, 64], "
     "bf16[32, 128, 1, 512])"},
    {"x: \"bf16[s0, 7168]\", wdq: \"bf16[7168, 1536]\", wuq: \"bf16[1536, 6144]\", "
     "wuk: \"bf16[32, 128, 512]\", wdkv: \"bf16[7168, 576]\", gq: \"bf16[1536]\", "
     "gkv: \"bf16[512]\", sin: \"bf16[s0, 64]\", cos: \"bf16[s0, 64]\", "
     "kvc: \"bf16[16, 128, 1, 512]\", krc: \"bf16[16, 128, 1, 64]\"",
     "torch.ops.npu.npu_mla_prolog_v3.default(x, wdq, wuq, wuk, wdkv, gq, gkv, sin, cos, kvc, "
     "krc)",
     "tuple(bf16[s0, 32, 512], bf16[s0, 32, 64], unknown, unknown, unknown)"},
    {"x: \"bf16[s0, 7168]\", wdq: \"bf16[7168, 1536]\", wuq: \"bf16[1536, 6144]\", "
     "wuk: \"bf16[32, 128, 512]\", wdkv: \"bf16[7168, 576]\", gq: \"bf16[1536]\", "
     "gkv: \"bf16[512]\", sin: \"bf16[s0, 64]\", cos: \"bf16[s0, 64]\", "
     "kvc: \"bf16[16, 128, 1, 512]\", krc: \"bf16[16, 128, 1, 64]\"",
     "torch.ops.npu.npu_mla_prolog_v3_functional.default(x, wdq, wuq, wuk, wdkv, gq, gkv, sin, "
     "cos, kvc, krc)",
     "tuple(bf16[s0, 32, 512], bf16[s0, 32, 64], unknown, unknown, unknown, "
     "bf16[16, 128, 1, 512], bf16[16, 128, 1, 64])"},
    {"x: \"bf16[s0, 2816]\"", "torch.ops.npu.npu_swiglu.default(x)", "bf16[s0, 1408]"},
    {"x: \"bf16[s0, 64]\", y: \"bf16[s0, 64]\"", "torch.ops.vllm.muls_add.default(x, y, 2.5)",
     "bf16[s0, 64]"},
    {"p: \"i64[s0]\", q: \"bf16[s0, 256]\", k: \"bf16[s0, 1, 128]\", c: \"bf16[64, 128]\"",
     "torch.ops.vllm.npu_rotary_embedding.default(p, q, k, c, 128, 128, True)",
     "tuple(bf16[s0, 256], bf16[s0, 1, 128])"},
    {"x: \"bf16[s0, 512]\", c: \"bf16[64, 128]\", p: \"i64[s0]\", qw: \"bf16[128]\", "
     "kw: \"bf16[128]\"",
     "torch.ops.vllm.qkv_rmsnorm_rope.default(x, c, p, qw, kw, 256, 128, 128, 1e-06)",
     "tuple(bf16[s0, 256], bf16[s0, 128], bf16[s0, 128])"},
    {"x: \"f16[4, 6, 3]\"", "torch.ops.npu.npu_swiglu.default(x, 1)", "f16[4, 3, 3]"},
    {"a: \"i8[s0, 7168]\", b: \"i8[7168, 512]\", s: \"f32[512]\"",
     "torch.ops.npu.npu_quant_matmul.default(a, b, s, output_dtype = torch.bfloat16)",
     "bf16[s0, 512]"},
    {"a: \"i8[s0, 64]\", b: \"i32[64, 16]\", s: \"f32[1]\"",
     "torch.ops.npu.npu_quant_matmul.default(a, b, s)", "i8[s0, 128]"},
    {"x: \"bf16[s0, 64]\", w: \"bf16[64, 128]\", b: \"bf16[128]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, bias = b, fused_op_type = 'relu')",
     "bf16[s0, 128]"},
    {"x: \"f16[4, 8, 64]\", w: \"f16[64, 32]\", r: \"f16[4, 8, 32]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, x3 = r, fused_op_type = 'add')",
     "f16[4, 8, 32]"},
    // --- issue 16: logical, bitwise, remainder, creation, cumsum/prod/any/all
    {"x: \"f32[s0, 4]\", m: \"b8[s0, 1]\", v: \"f32[]\"",
     "torch.ops.aten.masked_fill.Tensor(x, m, v)", "f32[s0, 4]"},
    {"c: \"b8[s0, 1]\", y: \"i32[4]\"", "torch.ops.aten.where.ScalarSelf(c, 1.5, y)", "f32[s0, 4]"},
    {"c: \"b8[2, 1]\", x: \"f16[3]\"", "torch.ops.aten.where.ScalarOther(c, x, 0)", "f16[2, 3]"},
    {"c: \"b8[s0]\"", "torch.ops.aten.where.Scalar(c, 1, 0)", "i64[s0]"},
    {"c: \"b8[s0]\"", "torch.ops.aten.where.Scalar(c, 1, 0.5)", "f32[s0]"},
    {"c: \"b8[3]\"", "torch.ops.aten.where.Scalar(c, True, False)", "b8[3]"},
    {"x: \"i64[4]\"", "torch.ops.aten.clamp.default(x, 0.5)", "f32[4]"},
    {"x: \"i64[s0]\", lo: \"f32[]\", hi: \"i64[s0, 1]\"", "torch.ops.aten.clamp.Tensor(x, lo, hi)",
     "f32[s0, s0]"},
    {"x: \"bf16[2, 3]\", hi: \"bf16[3]\"", "torch.ops.aten.clamp.Tensor(x, None, hi)",
     "bf16[2, 3]"},
    {"x: \"i32[s0, 8]\"", "torch.ops.aten.clamp_min.default(x, 0)", "i32[s0, 8]"},
    {"x: \"f16[4]\", lo: \"f32[4]\"", "torch.ops.aten.clamp_min.Tensor(x, lo)", "f32[4]"},
    {"x: \"f32[s0]\"", "torch.ops.aten.clamp_max.default(x, 6.0)", "f32[s0]"},
    {"x: \"i64[2, 1]\", hi: \"i64[5]\"", "torch.ops.aten.clamp_max.Tensor(x, hi)", "i64[2, 5]"},
    {"x: \"i64[s0]\"", "torch.ops.aten.remainder.Scalar(x, 3)", "i64[s0]"},
    {"x: \"i64[s0]\"", "torch.ops.aten.remainder.Scalar(x, 2.5)", "f32[s0]"},
    {"x: \"f16[4, 1]\", y: \"f16[3]\"", "torch.ops.aten.remainder.Tensor(x, y)", "f16[4, 3]"},
    {"x: \"i32[4]\", y: \"i64[4]\"", "torch.ops.aten.floor_divide.default(x, y)", "i64[4]"},
    {"x: \"bf16[s0]\"", "torch.ops.aten.floor_divide.Scalar(x, 2)", "bf16[s0]"},
    {"x: \"b8[s0, 4]\", y: \"b8[4]\"", "torch.ops.aten.bitwise_and.Tensor(x, y)", "b8[s0, 4]"},
    {"x: \"i8[4]\", y: \"u8[4]\"", "torch.ops.aten.bitwise_and.Tensor(x, y)", "i16[4]"},
    {"x: \"b8[4]\"", "torch.ops.aten.bitwise_and.Scalar(x, 3)", "i64[4]"},
    {"x: \"i32[4]\", y: \"i32[1]\"", "torch.ops.aten.bitwise_or.Tensor(x, y)", "i32[4]"},
    {"x: \"u8[s0]\"", "torch.ops.aten.bitwise_or.Scalar(x, 1)", "u8[s0]"},
    {"x: \"i64[2, 3]\", y: \"i64[3]\"", "torch.ops.aten.bitwise_xor.Tensor(x, y)", "i64[2, 3]"},
    {"x: \"b8[2]\"", "torch.ops.aten.bitwise_xor.Scalar(x, True)", "b8[2]"},
    {"x: \"b8[s0]\"", "torch.ops.aten.bitwise_not.default(x)", "b8[s0]"},
    {"x: \"i16[3]\"", "torch.ops.aten.bitwise_not.default(x)", "i16[3]"},
    {"x: \"f32[s0, 1]\", y: \"i64[5]\"", "torch.ops.aten.logical_and.default(x, y)", "b8[s0, 5]"},
    {"x: \"b8[4]\", y: \"b8[4]\"", "torch.ops.aten.logical_or.default(x, y)", "b8[4]"},
    {"x: \"bf16[2, 3]\", y: \"f32[]\"", "torch.ops.aten.logical_xor.default(x, y)", "b8[2, 3]"},
    {"x: \"f16[s0, 2]\"", "torch.ops.aten.logical_not.default(x)", "b8[s0, 2]"},
    {"x: \"f32[s0]\"", "torch.ops.aten.isnan.default(x)", "b8[s0]"},
    {"x: \"bf16[2, 2]\"", "torch.ops.aten.isinf.default(x)", "b8[2, 2]"},
    {"x: \"i64[3]\"", "torch.ops.aten.isfinite.default(x)", "b8[3]"},
    {"", "torch.ops.aten.arange.default(5)", "i64[5]"},
    {"", "torch.ops.aten.arange.default(2.5)", "f32[3]"},
    {"n: \"Sym(s0)\"", "torch.ops.aten.arange.default(n, dtype = torch.float16)", "f16[s0]"},
    {"", "torch.ops.aten.arange.start(2, 7)", "i64[5]"},
    {"n: \"Sym(s0)\"", "torch.ops.aten.arange.start(1, n)", "i64[s0 - 1]"},
    {"", "torch.ops.aten.arange.start_step(1, 2, 0.3)", "f32[4]"},
    {"", "torch.ops.aten.arange.start_step(5, 0, -1.5)", "f32[4]"},
    {"", "torch.ops.aten.arange.start_step(0, 2.5, 1, dtype = torch.int64)", "i64[2]"},
    {"n: \"Sym(4*s0)\"", "torch.ops.aten.arange.start_step(0, n, 4)", "i64[(4*s0 + 3)//4]"},
    {"x: \"bf16[2]\", n: \"Sym(s0)\"", "torch.ops.aten.new_zeros.default(x, [n, 3])",
     "bf16[s0, 3]"},
    {"x: \"bf16[2]\"", "torch.ops.aten.new_ones.default(x, [4], dtype = torch.int32)", "i32[4]"},
    {"x: \"f16[2]\"", "torch.ops.aten.new_full.default(x, [2, 2], 7)", "f16[2, 2]"},
    {"x: \"i64[s0, 3]\"", "torch.ops.aten.one_hot.default(x, 10)", "i64[s0, 3, 10]"},
    {"x: \"i64[s0]\"", "torch.ops.aten.one_hot.default(x)", "i64[?]"},
    {"x: \"f32[s0, 3, 4]\"", "torch.ops.aten.cumsum.default(x, 1)", "f32[s0, 3, 4]"},
    {"x: \"b8[5]\"", "torch.ops.aten.cumsum.default(x, -1)", "i64[5]"},
    {"x: \"i32[2, 3]\"", "torch.ops.aten.cumsum.default(x, 0, dtype = torch.float64)", "f64[2, 3]"},
    {"x: \"i8[2, 3]\"", "torch.ops.aten.prod.default(x)", "i64[]"},
    {"x: \"bf16[s0, 3]\"", "torch.ops.aten.prod.dim_int(x, 0)", "bf16[3]"},
    {"x: \"f32[s0, 3]\"", "torch.ops.aten.prod.dim_int(x, -1, True, dtype = torch.float64)",
     "f64[s0, 1]"},
    {"x: \"f32[s0, 3]\"", "torch.ops.aten.any.default(x)", "b8[]"},
    {"x: \"u8[s0, 3]\"", "torch.ops.aten.any.dim(x, 1)", "u8[s0]"},
    {"x: \"i64[s0, 3]\"", "torch.ops.aten.all.default(x)", "b8[]"},
    {"x: \"b8[s0, 3, 2]\"", "torch.ops.aten.all.dim(x, 1, True)", "b8[s0, 1, 2]"},
    {"x: \"f32[s0]\"", "torch.ops.aten.histc.default(x)", "f32[100]"},
    {"x: \"f64[s0, 2]\"", "torch.ops.aten.histc.default(x, 4, 0.0, 1.0)", "f64[4]"},
    {"x: \"f32[s0, 4][1, s0]\"", "torch.ops.aten.sym_stride.int(x, 1)", "Sym(s0)"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.sym_stride.int(x, 0)", "Sym(?)"},
    // --- issue 16: indexing, scatter, sort, norms, attention
    // index.Tensor: adjacent index tensors stay in place, separated ones
    // (or ones split by None) go first; index tensors broadcast; a bool
    // mask makes the shape data-dependent.
    {"x: \"f32[s0, 3, 4]\", i: \"i64[5]\", j: \"i64[5]\"",
     "torch.ops.aten.index.Tensor(x, [None, i, j])", "f32[s0, 5]"},
    {"x: \"f32[2, s0, 4]\", i: \"i64[3, 1]\", j: \"i64[5]\"",
     "torch.ops.aten.index.Tensor(x, [i, None, j])", "f32[3, 5, s0]"},
    {"x: \"bf16[8, 4]\", i: \"i32[s0]\"", "torch.ops.aten.index.Tensor(x, [i])", "bf16[s0, 4]"},
    {"x: \"f32[2, 3]\", m: \"b8[2, 3]\"", "torch.ops.aten.index.Tensor(x, [m])", "f32[?]"},
    {"x: \"f32[8, 192, 30, 30]\", i: \"i64[3, 14, 1, 1]\", j: \"i64[3, 14]\"",
     "torch.ops.aten._unsafe_index.Tensor(x, [None, None, i, j])", "f32[8, 192, 3, 14, 3, 14]"},
    {"x: \"f32[8, 192, 30, 30]\", i: \"i64[3, 14, 1, 1]\", j: \"i64[3, 14]\", "
     "v: \"f32[8, 192, 3, 14, 3, 14]\"",
     "torch.ops.aten._unsafe_index_put.default(x, [None, None, i, j], v, True)",
     "f32[8, 192, 30, 30]"},
    {"x: \"f32[8, 4]\", i: \"i64[3]\", v: \"f32[3, 4]\"",
     "torch.ops.aten.index_put.default(x, [i], v, True)", "f32[8, 4]"},
    {"x: \"f32[8, 4]\", i: \"i64[3]\", v: \"f32[]\"",
     "torch.ops.aten.index_put_.default(x, [i], v)", "f32[8, 4]"},
    {"x: \"f32[8, s0]\", i: \"i64[3]\", s: \"f32[3, s0]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s, alpha = 2)", "f32[8, s0]"},
    {"x: \"i64[8, 4]\", i: \"i32[3]\", s: \"i64[8, 3]\"",
     "torch.ops.aten.index_add_.default(x, -1, i, s)", "i64[8, 4]"},
    {"x: \"f16[s0, 8]\", i: \"i64[3]\"", "torch.ops.aten.index_select.default(x, 1, i)",
     "f16[s0, 3]"},
    {"x: \"f32[s0, 8]\", i: \"i64[s0, 2]\"", "torch.ops.aten.gather.default(x, 1, i)",
     "f32[s0, 2]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter.src(x, 1, i, s)", "f32[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\"", "torch.ops.aten.scatter.value(x, 1, i, 1.5)",
     "f32[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter.reduce(x, 1, i, s, reduce = 'add')", "f32[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter_.src(x, 1, i, s)", "f32[4, 8]"},
    {"x: \"i32[4, 8]\", i: \"i64[4, 2]\"", "torch.ops.aten.scatter_.value(x, 0, i, 3)",
     "i32[4, 8]"},
    {"x: \"bf16[s0, 8]\", i: \"i64[s0, 2]\", s: \"bf16[s0, 2]\"",
     "torch.ops.aten.scatter_add.default(x, 1, i, s)", "bf16[s0, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter_add_.default(x, 1, i, s)", "f32[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter_reduce.two(x, 1, i, s, 'amax', include_self = False)", "f32[4, 8]"},
    // Sorting: values keep the dtype, indices are int64; topk resizes `dim` to k.
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.topk.default(x, 3)", "tuple(f32[s0, 3], i64[s0, 3])"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.topk.default(x, 2, 0, False)",
     "tuple(bf16[2, 8], i64[2, 8])"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.sort.default(x)", "tuple(f32[s0, 8], i64[s0, 8])"},
    {"x: \"i32[s0, 8]\"",
     "torch.ops.aten.sort.stable(x, stable = True, dim = 0, descending = True)",
     "tuple(i32[s0, 8], i64[s0, 8])"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.argsort.default(x, 1, True)", "i64[s0, 8]"},
    {"x: \"f16[s0, 8]\"", "torch.ops.aten.argsort.stable(x, stable = True)", "i64[s0, 8]"},
    // Layer norm: mean/rstd keep the leading dims. Their dtype for a half input depends
    // on the device the graph was traced for (CPU: the input's, CUDA/NPU: fp32; see
    // LayerNormStatisticsFollowTheTracedDevice): without a device it is left unknown
    // (printed `tensor(?)`; the shape is still known).
    {"x: \"bf16[s0, 16, 64]\", w: \"bf16[64]\", b: \"bf16[64]\"",
     "torch.ops.aten.native_layer_norm.default(x, [64], w, b, 1e-05)",
     "tuple(bf16[s0, 16, 64], tensor(?), tensor(?))"},
    {"x: \"bf16[s0, 16, 64]\", w: \"f32[16, 64]\"",
     "torch.ops.aten.native_layer_norm.default(x, [16, 64], w, None, 1e-05)",
     "tuple(bf16[s0, 16, 64], tensor(?), tensor(?))"},
    {"x: \"f32[s0, 16, 64]\", w: \"f32[64]\"",
     "torch.ops.aten.native_layer_norm.default(x, [64], w, None, 1e-05)",
     "tuple(f32[s0, 16, 64], f32[s0, 16, 1], f32[s0, 16, 1])"},
    {"x: \"f32[s0, 64]\", w: \"f32[64]\"", "torch.ops.aten.layer_norm.default(x, [64], w)",
     "f32[s0, 64]"},
    {"x: \"bf16[s0, 64]\"", "torch.ops.aten.native_dropout.default(x, 0.1, False)",
     "tuple(bf16[s0, 64], b8[s0, 64])"},
    {"x: \"bf16[s0, 64]\"", "torch.ops.aten.dropout.default(x, 0.1, False)", "bf16[s0, 64]"},
    // Batched and grouped matmuls.
    {"s: \"f32[1, 1, 5]\", a: \"f32[s0, 3, 4]\", b: \"f32[s0, 4, 5]\"",
     "torch.ops.aten.baddbmm.default(s, a, b, beta = 0.5, alpha = 2)", "f32[s0, 3, 5]"},
    {"a: \"bf16[s0, 64]\", b: \"bf16[4, 64, 32]\", o: \"i32[4]\"",
     "torch.ops.aten._grouped_mm.default(a, b, o)", "bf16[s0, 32]"},
    {"a: \"bf16[4, s0, 64]\", b: \"bf16[64, 96]\", o: \"i32[4]\"",
     "torch.ops.aten._grouped_mm.default(a, b, o)", "bf16[s0, 96]"},
    {"a: \"bf16[16, s0]\", b: \"bf16[s0, 32]\", o: \"i32[4]\"",
     "torch.ops.aten._grouped_mm.default(a, b, o)", "bf16[4, 16, 32]"},
    {"a: \"bf16[4, s0, 64]\", b: \"bf16[4, 64, 32]\"", "torch.ops.aten._grouped_mm.default(a, b)",
     "bf16[4, s0, 32]"},
    // Attention: [.., L, E] x [.., S, E] x [.., S, Ev] -> [.., L, Ev].
    {"q: \"bf16[2, 8, s0, 64]\", k: \"bf16[2, 8, s1, 64]\", v: \"bf16[2, 8, s1, 32]\"",
     "torch.ops.aten.scaled_dot_product_attention.default(q, k, v, is_causal = True)",
     "bf16[2, 8, s0, 32]"},
    {"q: \"f32[8, s0, 64]\", k: \"f32[8, s1, 64]\", v: \"f32[8, s1, 64]\", m: \"b8[s0, s1]\"",
     "torch.ops.aten.scaled_dot_product_attention.default(q, k, v, m, scale = 0.125)",
     "f32[8, s0, 64]"},
    {"q: \"bf16[2, 8, s0, 64]\", k: \"bf16[2, 8, s1, 64]\", v: \"bf16[2, 8, s1, 32]\"",
     "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, 0.0, True)",
     "tuple(bf16[2, 8, s0, 32], f32[2, 8, s0])"},
    {"q: \"f16[2, 8, s0, 64]\", k: \"f16[2, 8, s1, 64]\", v: \"f16[2, 8, s1, 64]\"",
     "torch.ops.aten._scaled_dot_product_flash_attention.default(q, k, v)",
     "tuple(f16[2, 8, s0, 64], f32[2, 8, s0], unknown, unknown, Sym(s0), Sym(s1), unknown, "
     "unknown, f16[0])"},
    {"q: \"f16[2, 8, 40, 64]\", k: \"f16[2, 8, s1, 64]\", v: \"f16[2, 8, s1, 64]\"",
     "torch.ops.aten._scaled_dot_product_efficient_attention.default(q, k, v, None, True)",
     "tuple(f16[2, 8, 40, 64], f32[2, 8, 64], unknown, unknown)"},
    // --- issue 16 batch 2
    // Runtime assertions have no value; item() is a data-dependent scalar.
    {"x: \"f32[s0, 4]\"",
     "n = torch.ops.aten.sym_size.int(x, 0)\n"
     "torch.ops.aten._assert_tensor_metadata.default(x, [n, 4], None, torch.float32)",
     "None"},
    {"x: \"f32[2]\"", "torch.ops.aten._assert_tensor_metadata.default(x, dtype = torch.float32)",
     "None"},
    {"x: \"b8[]\"",
     "b = torch.ops.aten._local_scalar_dense.default(x)\n"
     "torch.ops.aten._assert_scalar.default(b, 'Runtime assertion failed')",
     "None"},
    {"x: \"i64[]\"",
     "n = torch.ops.aten._local_scalar_dense.default(x)\n"
     "torch.ops.aten.sym_constrain_range_for_size.default(n, min = 0, max = 8)",
     "None"},
    {"x: \"i64[]\"",
     "n = torch.ops.aten._local_scalar_dense.default(x)\n"
     "torch.ops.aten.sym_constrain_range.default(n, min = 0)",
     "None"},
    {"x: \"i64[1]\"", "torch.ops.aten._local_scalar_dense.default(x)", "Sym(?)"},
    {"x: \"bf16[]\"", "torch.ops.aten._local_scalar_dense.default(x)", "SymFloat"},
    {"x: \"b8[]\"", "torch.ops.aten._local_scalar_dense.default(x)", "SymBool"},
    // nonzero's row count is data-dependent; nonzero_static's is given.
    {"x: \"b8[s0, 4]\"", "torch.ops.aten.nonzero.default(x)", "i64[?]"},
    {"x: \"f32[s0, 4, 2]\"", "torch.ops.aten.nonzero_static.default(x, size = 5)", "i64[5, 3]"},
    {"r: \"i64[s0]\"", "torch.ops.aten.repeat_interleave.Tensor(r)", "i64[?]"},
    {"r: \"i64[4]\"", "torch.ops.aten.repeat_interleave.Tensor(r, output_size = 10)", "i64[10]"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.repeat_interleave.self_int(x, 3, 1)", "f32[s0, 24]"},
    {"x: \"bf16[2, s0, 4]\"", "torch.ops.aten.repeat_interleave.self_int(x, 2)", "bf16[16*s0]"},
    // Reductions.
    {"x: \"bf16[2, 8, s0, s0]\"", "torch.ops.aten._safe_softmax.default(x, -1)",
     "bf16[2, 8, s0, s0]"},
    {"x: \"bf16[2, s0]\"", "torch.ops.aten._safe_softmax.default(x, 1, torch.float32)",
     "f32[2, s0]"},
    {"x: \"f32[s0, 4, 8]\"", "torch.ops.aten.logsumexp.default(x, [1, 2])", "f32[s0]"},
    {"x: \"i64[s0, 8]\"", "torch.ops.aten.logsumexp.default(x, [-1], True)", "f32[s0, 1]"},
    {"x: \"f16[s0, 8]\"", "torch.ops.aten.min.dim(x, 1)", "tuple(f16[s0], i64[s0])"},
    {"x: \"i32[s0, 8]\"", "torch.ops.aten.min.dim(x, 0, True)", "tuple(i32[1, 8], i64[1, 8])"},
    // Creation.
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.fill.Scalar(x, 1.5)", "bf16[s0, 8]"},
    {"x: \"f32[s0, 8]\", v: \"f32[]\"", "torch.ops.aten.fill.Tensor(x, v)", "f32[s0, 8]"},
    {"x: \"i64[4]\"", "torch.ops.aten.fill_.Scalar(x, 3)", "i64[4]"},
    {"x: \"f32[4]\", v: \"f32[]\"", "torch.ops.aten.fill_.Tensor(x, v)", "f32[4]"},
    {"", "torch.ops.aten.empty_strided.default([2, 3], [3, 1], dtype = torch.bfloat16)",
     "bf16[2, 3]"},
    {"x: \"f16[s0]\"",
     "n = torch.ops.aten.sym_size.int(x, 0)\n"
     "torch.ops.aten.new_empty_strided.default(x, [n, 4], [4, 1])",
     "f16[s0, 4]"},
    // Indexing and layout.
    {"x: \"f32[s0, 8]\", i: \"i64[2]\"", "torch.ops.aten.index_fill.int_Scalar(x, 1, i, -1.0)",
     "f32[s0, 8]"},
    {"x: \"f32[s0, 8]\", i: \"i64[2]\", v: \"f32[]\"",
     "torch.ops.aten.index_fill.int_Tensor(x, 0, i, v)", "f32[s0, 8]"},
    {"x: \"b8[4, 8]\", i: \"i64[]\"", "torch.ops.aten.index_fill_.int_Scalar(x, -1, i, True)",
     "b8[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i64[3]\", v: \"f32[]\"",
     "torch.ops.aten.index_fill_.int_Tensor(x, 0, i, v)", "f32[4, 8]"},
    {"x: \"f32[s0, 4]\", y: \"f32[s0, 4]\"", "torch.ops.aten.stack.default([x, y], 1)",
     "f32[s0, 2, 4]"},
    {"x: \"i32[3]\", y: \"i64[3]\", z: \"i64[3]\"", "torch.ops.aten.stack.default([x, y, z], -1)",
     "i64[3, 3]"},
    {"x: \"f32[s0, 4, 8]\"", "torch.ops.aten.flip.default(x, [0, -1])", "f32[s0, 4, 8]"},
    {"x: \"f32[s0, 4]\"", "torch.ops.aten.roll.default(x, [1, -2], [0, 1])", "f32[s0, 4]"},
    {"x: \"i64[s0, 4]\"", "torch.ops.aten.roll.default(x, [3])", "i64[s0, 4]"},
    {"x: \"f32[s0, 16]\"", "torch.ops.aten.narrow.default(x, 1, 4, 8)", "f32[s0, 8]"},
    {"x: \"f32[s0, 16]\", y: \"f32[s0 - 1]\"",
     "n = torch.ops.aten.sym_size.int(y, 0)\n"
     "torch.ops.aten.narrow.default(x, 0, 1, n)",
     "f32[s0 - 1, 16]"},
    // Group norm: mean/rstd are [N, group].
    {"x: \"f32[2, 8, 4, 4]\", w: \"f32[8]\", b: \"f32[8]\"",
     "torch.ops.aten.native_group_norm.default(x, w, b, 2, 8, 16, 4, 1e-05)",
     "tuple(f32[2, 8, 4, 4], f32[2, 4], f32[2, 4])"},
    {"x: \"bf16[s0, 8, 16]\"", "torch.ops.aten.group_norm.default(x, 2)", "bf16[s0, 8, 16]"},
    // Elementwise.
    {"x: \"i32[s0]\"", "torch.ops.aten.sign.default(x)", "i32[s0]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.leaky_relu.default(x, 0.2)", "bf16[s0, 8]"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.elu.default(x)", "f32[s0, 8]"},
    {"x: \"f16[s0, 8]\"", "torch.ops.aten.softplus.default(x, 2, 10)", "f16[s0, 8]"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.hardswish.default(x)", "f32[s0, 8]"},
    {"x: \"f32[s0, 8]\"", "torch.ops.aten.hardsigmoid.default(x)", "f32[s0, 8]"},
    {"x: \"bf16[s0, 8]\"", "torch.ops.aten.mish.default(x)", "bf16[s0, 8]"},
    {"x: \"f32[s0, 1]\", y: \"f32[8]\"", "torch.ops.aten.atan2.default(x, y)", "f32[s0, 8]"},
    {"x: \"i64[4]\", y: \"i64[4]\"", "torch.ops.aten.atan2.default(x, y)", "f32[4]"},
    {"x: \"i64[4]\"", "torch.ops.aten.erfinv.default(x)", "f32[4]"},
    // Collectives (graph/ops/collectives.schemas): what each rank holds afterwards.
    {"x: \"bf16[s0, 64]\"", "torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')",
     "bf16[s0, 64]"},
    {"x: \"bf16[8, 64]\"", "torch.ops._c10d_functional.all_reduce_.default(x, 'sum', '0')",
     "bf16[8, 64]"},
    {"x: \"bf16[s0, 64]\"", "torch.ops._c10d_functional.all_gather_into_tensor.default(x, 4, '0')",
     "bf16[4*s0, 64]"},
    {"x: \"bf16[8, 64]\"",
     "torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 4, '0')", "bf16[2, 64]"},
    {"x: \"f32[8, 4]\"",
     "torch.ops._c10d_functional.all_to_all_single.default(x, [3, 5, 2], [2, 2, 4], '0')",
     "f32[10, 4]"},
    {"x: \"f32[8, 4]\"", "torch.ops._c10d_functional.all_to_all_single.default(x, [], [], '0')",
     "f32[8, 4]"},
    {"x: \"f16[4]\"", "torch.ops._c10d_functional.broadcast.default(x, 0, '0')", "f16[4]"},
    {"x: \"f16[4]\"", "torch.ops._c10d_functional.wait_tensor.default(x)", "f16[4]"},
    {"x: \"bf16[s0, 64]\"", "torch.ops.vllm.all_reduce.default(x, 'tp')", "bf16[s0, 64]"},
    {"x: \"bf16[8, 64]\"", "torch.ops.vllm.all_gather.default(x, -1, 2, 'tp')", "bf16[8, 128]"},
    {"x: \"bf16[8, 64]\"", "torch.ops.vllm.reduce_scatter.default(x, 0, 2, 'tp')", "bf16[4, 64]"},
    {"x: \"bf16[s0, 256]\", w: \"bf16[256, 64]\"",
     "torch.ops.npu.npu_mm_all_reduce_base.default(x, w, 'hcom')", "bf16[s0, 64]"},
    {"x: \"i8[2, 3, 256]\", w: \"i8[256, 64]\", s: \"bf16[64]\"",
     "torch.ops.npu.npu_mm_all_reduce_base.default(x, w, 'hcom', dequant_scale = s)",
     "bf16[2, 3, 64]"},
    {"x: \"f16[4, 256]\", w: \"f16[256, 64]\"",
     "torch.ops.npu.npu_all_gather_base_mm.default(x, w, 'hcom', 2)",
     "tuple(f16[8, 64], f16[8, 256])"},
    {"x: \"f16[8, 256]\", w: \"f16[256, 64]\"",
     "torch.ops.npu.npu_mm_reduce_scatter_base.default(x, w, 'hcom', 4)", "f16[2, 64]"},
    {"x: \"bf16[s0, 256]\", w: \"bf16[256, 64]\", r: \"bf16[s0, 64]\", g: \"bf16[64]\"",
     "torch.ops.npu.npu_mm_all_reduce_add_rms_norm.default(x, w, r, g, 'hcom')",
     "tuple(bf16[s0, 64], bf16[s0, 64])"},
};

TEST(ShapeInferenceTest, EveryCase) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.expr);
    try {
      Graph g = single_op(c.sig, c.expr);
      EXPECT_EQ(type_of(g, "out"), c.expected);
    } catch (const Error& e) {
      ADD_FAILURE() << e.render();
    }
  }
}

TEST(ShapeInferenceTest, EveryCatalogOpIsCovered) {
  std::set<std::string> covered;
  for (const Case& c : kCases) {
    Graph g = parse_fx(single_op_text(c.sig, c.expr), "snippet.py");
    resolve_ops(g, builtin());
    for (const Node& n : g.nodes())
      if (n.op != kNoOp) covered.insert(n.target);
  }
  for (const OpInfo& info : builtin().all()) {
    std::string q = info.schema.qualified_name();
    EXPECT_TRUE(info.meta) << q << " has no meta function";
    EXPECT_TRUE(covered.count(q)) << q << " has no shape inference case";
  }
}

TEST(ShapeInferenceTest, UnknownInputsGiveUnknownOutputs) {
  // `x` has no annotation: nothing may be assumed about it.
  EXPECT_EQ(type_of(single_op("x", "torch.ops.aten.add.Tensor(x, x)"), "out"), "tensor(?)");
  EXPECT_EQ(type_of(single_op("x", "torch.ops.aten.view.default(x, [-1, 4])"), "out"), "unknown");
  EXPECT_EQ(
      type_of(single_op("x: \"f32[s0, 4]\", n", "torch.ops.aten.view.default(x, [n, 4])"), "out"),
      "f32[?]");
  EXPECT_EQ(type_of(single_op("x", "torch.ops.aten.sym_size.int(x, 0)"), "out"), "Sym(?)");
  EXPECT_EQ(type_of(single_op("x", "torch.ops.aten.split.Tensor(x, 2)"), "out"), "unknown");
  // Known dtype survives an unknown partner only where the op defines it.
  EXPECT_EQ(type_of(single_op("x: \"bf16[4]\", y", "torch.ops.aten.mul.Tensor(x, y)"), "out"),
            "tensor(?)");
  EXPECT_EQ(
      type_of(single_op("x", "torch.ops.aten._to_copy.default(x, dtype = torch.float32)"), "out"),
      "f32[?]");
  EXPECT_EQ(type_of(single_op("x, g", "torch.ops.npu.npu_rms_norm.default(x, g)"), "out"),
            "tuple(tensor(?), f32[?])");
  // A view with a symbolic size from sym_size of a typed tensor.
  Graph g = typed_graph(
      "def forward(self, x: \"f32[s0, 8]\"):\n"
      "    n = torch.ops.aten.sym_size.int(x, 0)\n"
      "    out = torch.ops.aten.view.default(x, [n, 2, -1])\n"
      "    return (out,)\n");
  EXPECT_EQ(type_of(g, "out"), "f32[s0, 2, 4]");
}

TEST(ShapeInferenceTest, GetItemAndSymIntArithmetic) {
  Graph g = typed_graph(
      "def forward(self, x1: \"bf16[s0, 4, 64]\", x2: \"bf16[s0, 4, 64]\", w: \"bf16[64]\"):\n"
      "    r = torch.ops.npu.npu_add_rms_norm.default(x1, x2, w)\n"
      "    y = r[0]\n"
      "    rstd = r[1]\n"
      "    xo = r[-1]\n"
      "    a = torch.ops.aten.sym_size.int(x1, 0)\n"
      "    b = torch.ops.aten.sym_size.int(x1, 1)\n"
      "    ab = a * b\n"
      "    v = torch.ops.aten.view.default(y, [ab, 64])\n"
      "    q = torch.ops.npu.npu_dynamic_quant.default(v)\n"
      "    scale = q[1]\n"
      "    sv = torch.ops.aten.view.default(scale, [-1, 1])\n"
      "    return (sv, xo, rstd)\n");
  EXPECT_EQ(type_of(g, "y"), "bf16[s0, 4, 64]");
  EXPECT_EQ(type_of(g, "rstd"), "f32[s0, 4, 1]");
  EXPECT_EQ(type_of(g, "xo"), "bf16[s0, 4, 64]");
  EXPECT_EQ(type_of(g, "b"), "Sym(4)");
  EXPECT_EQ(type_of(g, "ab"), "Sym(4*s0)");
  EXPECT_EQ(type_of(g, "v"), "bf16[4*s0, 64]");
  EXPECT_EQ(type_of(g, "scale"), "f32[4*s0]");
  EXPECT_EQ(type_of(g, "sv"), "f32[4*s0, 1]");
}

TEST(ShapeInferenceTest, SymbolicViewUsesFloorDiv) {
  // numel s0*s1*8 over [-1, 4*s1] gives 2*s0 exactly.
  EXPECT_EQ(type_of(single_op("x: \"f32[s0, s1, 8]\", n: \"Sym(4*s1)\"",
                              "torch.ops.aten.view.default(x, [-1, n])"),
                    "out"),
            "f32[2*s0, 4*s1]");
  // Not exactly divisible: an opaque floor-division atom, never a wrong constant.
  Graph g = single_op("x: \"f32[s0, 3]\"", "torch.ops.aten.view.default(x, [-1, 2])");
  const ValueType& t = g.node(*g.find("out")).type;
  ASSERT_TRUE(t.tensor.shape);
  EXPECT_TRUE((*t.tensor.shape)[0].is_symbolic());
  EXPECT_EQ((*t.tensor.shape)[0].evaluate({{"s0", 4}}), 6);
  EXPECT_EQ((*t.tensor.shape)[1], SymInt(2));
}

TEST(ShapeInferenceTest, AnnotationsAreCheckedAndKept) {
  // Consistent annotation: kept (with its strides).
  Graph ok = typed_graph(
      "def forward(self, x: \"f32[2, 3]\"):\n"
      "    out: \"f32[3, 2][1, 3]\" = torch.ops.aten.t.default(x)\n"
      "    return (out,)\n");
  const ValueType& t = ok.node(*ok.find("out")).type;
  ASSERT_TRUE(t.tensor.strides);
  EXPECT_EQ(*t.tensor.strides, (Shape{1, 3}));
  // Symbolic dims torch simplified differently are not an error.
  EXPECT_NO_THROW(
      typed_graph("def forward(self, x: \"f32[s0, 3]\", y: \"f32[s1, 3]\"):\n"
                  "    out: \"f32[s0, 3]\" = torch.ops.aten.add.Tensor(x, y)\n"
                  "    return (out,)\n"));
  struct Bad {
    const char* ann;
    const char* inferred;
  };
  for (Bad b : {Bad{"f16[2, 3]", "f32[3, 2]"}, Bad{"f32[2, 3]", "f32[3, 2]"},
                Bad{"f32[3, 2, 1]", "f32[3, 2]"}}) {
    try {
      typed_graph(std::string("def forward(self, x: \"f32[2, 3]\"):\n    out: \"") + b.ann +
                  "\" = torch.ops.aten.t.default(x)\n    return (out,)\n");
      ADD_FAILURE() << "no error for " << b.ann;
    } catch (const Error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find("'out'"), std::string::npos) << msg;
      EXPECT_NE(msg.find(b.ann), std::string::npos) << msg;
      EXPECT_NE(msg.find(b.inferred), std::string::npos) << msg;
      EXPECT_EQ(e.loc().line, 2);
    }
  }
}

struct ErrorCase {
  const char* sig;
  const char* expr;
  const char* needle;
};

const ErrorCase kErrors[] = {
    {"x: \"bf16[6, 64]\"",
     "torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 4, '0')",
     "not divisible by the group's 4 ranks"},
    {"x: \"bf16[6, 64]\"", "torch.ops._c10d_functional.all_gather_into_tensor.default(x, 0, '0')",
     "positive number of ranks"},
    {"x: \"f16[8, 128]\", w: \"f16[256, 64]\"",
     "torch.ops.npu.npu_mm_all_reduce_base.default(x, w, 'hcom')", "cannot be multiplied"},
    {"x: \"f16[8, 256]\", w: \"f16[256, 64]\", r: \"f16[8, 32]\", g: \"f16[64]\"",
     "torch.ops.npu.npu_mm_all_reduce_add_rms_norm.default(x, w, r, g, 'hcom')",
     "does not have the product's shape"},
    {"x: \"f32[2, 3]\", y: \"f32[4]\"", "torch.ops.aten.add.Tensor(x, y)", "cannot be broadcast"},
    {"x: \"f32[3]\", y: \"f32[2, 3]\"", "torch.ops.aten.add_.Tensor(x, y)", "'other'"},
    {"a: \"f32[3, 4]\", b: \"f32[5, 6]\"", "torch.ops.aten.mm.default(a, b)", "inner dims"},
    {"a: \"f32[2, 3, 4]\", b: \"f16[2, 4, 6]\"", "torch.ops.aten.bmm.default(a, b)", "same dtype"},
    {"a: \"f32[3, 4]\", b: \"f32[4]\"", "torch.ops.aten.mm.default(a, b)", "'mat2' must be 2-D"},
    {"a: \"f32[2, 3, 4]\", b: \"f32[3, 4, 5]\"", "torch.ops.aten.bmm.default(a, b)", "batch dims"},
    {"a: \"f32[2, 3, 4]\", b: \"f32[5, 6]\"", "torch.ops.aten.matmul.default(a, b)", "inner dims"},
    {"x: \"f32[2, 8]\", w: \"f32[3, 7]\"", "torch.ops.aten.linear.default(x, w)", "inner dims"},
    {"x: \"f32[6]\"", "torch.ops.aten.view.default(x, [4, -1])", "invalid for input of size 6"},
    {"x: \"f32[6]\"", "torch.ops.aten.view.default(x, [4, 2])", "invalid for input of shape"},
    {"x: \"f32[6]\"", "torch.ops.aten.view.default(x, [-1, -1])", "only one dimension"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.permute.default(x, [0, 0])", "repeats dim 0"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.transpose.int(x, 0, 2)", "dim1 2 is out of range"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.expand.default(x, [4, 3])", "cannot expand"},
    {"x: \"f32[2, 3, 4]\"", "torch.ops.aten.t.default(x)", "<= 2 dims"},
    {"x: \"f32[2, 3]\"", "torch.ops.aten.select.int(x, 0, 5)", "out of range"},
    {"x: \"f32[2, 10]\"", "torch.ops.aten.split_with_sizes.default(x, [3, 6], 1)", "sums to 9"},
    {"x: \"f32[2, 3]\", y: \"f32[2, 4]\"", "torch.ops.aten.cat.default([x, y])", "dim 1"},
    {"x: \"i32[2]\"", "torch.ops.aten.mean.default(x)", "floating"},
    {"x: \"f32[2, 3]\", y: \"f32[4]\"", "torch.ops.aten.copy_.default(x, y)", "'src'"},
    {"w: \"f32[10, 4]\", i: \"f32[3]\"", "torch.ops.aten.embedding.default(w, i)", "'indices'"},
    {"x1: \"bf16[4, 16]\", x2: \"bf16[4, 8]\", g: \"bf16[16]\"",
     "torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)", "must have the same shape"},
    {"x1: \"bf16[4, 16]\", x2: \"bf16[4, 16]\", g: \"bf16[8]\"",
     "torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)", "argument 'gamma'"},
    {"x1: \"f32[4, 16]\", x2: \"f32[4, 16]\", g: \"f32[16]\", b: \"f32[8]\"",
     "torch.ops.npu.npu_add_layer_norm.default(x1, x2, g, b)", "argument 'beta'"},
    {"x1: \"f32[4, 16]\", x2: \"f32[1, 16]\", g: \"f32[16]\", b: \"f32[16]\"",
     "torch.ops.npu.npu_add_layer_norm.default(x1, x2, g, b)", "must have the same shape"},
    {"x: \"bf16[64]\"", "torch.ops.npu.npu_dynamic_quant.default(x)", "rank > 1"},
    {"x: \"bf16[4, 64]\", s: \"bf16[32]\"",
     "torch.ops.npu.npu_dynamic_quant.default(x, smooth_scales = s)", "'smooth_scales'"},
    {"x: \"bf16[4, 60]\"", "torch.ops.npu.npu_dynamic_quant.default(x, dst_type = 16)",
     "multiple of 8"},
    {"x: \"bf16[4, 64]\", s: \"f32[32]\"",
     "torch.ops.npu.npu_quantize.default(x, s, None, torch.qint8, -1)", "'scales'"},
    {"x: \"bf16[4, 64]\", s: \"f32[64]\"",
     "torch.ops.npu.npu_quantize.default(x, s, None, torch.float16, -1)", "unsupported"},
    {"x1: \"f16[4, 16]\", x2: \"f16[4, 16]\", g: \"f16[16]\", s: \"f16[16]\"",
     "torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, g, smooth_scale1 = s, "
     "output_mask = [False, True])",
     "output_mask[0]"},
    {"x1: \"f16[2, 16]\", x2: \"f16[2, 16]\", g: \"f16[16]\", s: \"f32[8]\"",
     "torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, g, s, None)", "'scales1'"},
    {"x1: \"f16[2, 16]\", x2: \"f16[2, 16]\", g: \"f16[16]\", s: \"f32[16]\"",
     "torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, g, s, None, axis = 0)", "'axis'"},
    {"x: \"f16[4, 8, 128]\", w: \"f16[4, 64, 256]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w)", "inner dims"},
    {"x: \"f16[4, 8, 128]\", w: \"f16[4, 128, 256]\"",
     "torch.ops.npu.npu_transpose_batchmatmul.default(x, w, perm_y = [0, 1, 2])", "'perm_y'"},
    {"x: \"f16[4, 7]\"", "torch.ops.npu.npu_swiglu.default(x)", "must be even"},
    {"p: \"i64[4]\", q: \"bf16[4, 256]\", k: \"bf16[4, 128]\", c: \"bf16[64, 256]\"",
     "torch.ops.vllm.npu_rotary_embedding.default(p, q, k, c, 128, 256, True)",
     "at most head_size"},
    {"x: \"bf16[4, 500]\", c: \"bf16[64, 128]\", p: \"i64[4]\", qw: \"bf16[128]\", "
     "kw: \"bf16[128]\"",
     "torch.ops.vllm.qkv_rmsnorm_rope.default(x, c, p, qw, kw, 256, 128, 128, 1e-06)",
     "q_hidden_size + 2 * kv_hidden_size"},
    {"a: \"i8[4, 64]\", b: \"i8[32, 16]\", s: \"f32[16]\"",
     "torch.ops.npu.npu_quant_matmul.default(a, b, s)", "inner dims"},
    {"x: \"bf16[4, 64]\", w: \"bf16[64, 16]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, fused_op_type = 'silu')",
     "unknown fused_op_type 'silu'"},
    {"x: \"bf16[4, 64]\", w: \"bf16[64, 16]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, fused_op_type = 'add')", "needs x3"},
    {"x: \"bf16[4, 64]\", w: \"bf16[64, 16]\", b: \"bf16[4, 16]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, bias = b)", "'bias' [4, 16] must be 1-D"},
    {"x: \"bf16[4, 64]\", w: \"bf16[64, 16]\", r: \"bf16[2, 4, 16]\"",
     "torch.ops.npu.npu_fused_matmul.default(x, w, x3 = r, fused_op_type = 'mul')",
     "must broadcast into the result"},
    {"x: \"bf16[4, 64]\", w: \"bf16[32, 16]\"", "torch.ops.npu.npu_fused_matmul.default(x, w)",
     "inner dims"},
    {"kv: \"bf16[4, 576]\", g: \"bf16[512]\", c: \"bf16[4, 1, 1, 64]\", s: \"bf16[4, 1, 1, 64]\", "
     "i: \"i64[4]\", kc: \"bf16[4]\", cc: \"bf16[4]\"",
     "torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2.default(kv, g, c, s, i, kc, cc)",
     "'kv' must be 4-D"},
    {"x: \"bf16[4, 64]\", g: \"bf16[64]\", b: \"bf16[64]\", s: \"bf16[64]\", o: \"i8[64]\"",
     "torch.ops.npu.npu_rms_norm_quant.default(x, g, b, s, o)", "'scale' [64] must have shape [1]"},
    {"x: \"bf16[8, 128]\", c: \"bf16[8, 128]\", s: \"bf16[8, 128]\"",
     "torch.ops.npu.npu_rotary_mul.default(x, c, s)", "'self' [8, 128] must be 4-D"},
    {"x: \"bf16[2, 4, 8, 15]\", c: \"bf16[1, 1, 8, 15]\", s: \"bf16[1, 1, 8, 15]\"",
     "torch.ops.npu.npu_rotary_mul.default(x, c, s)", "last dim must be even"},
    {"x: \"bf16[2, 4, 8, 16]\", c: \"bf16[1, 2, 8, 16]\", s: \"bf16[1, 1, 8, 16]\"",
     "torch.ops.npu.npu_rotary_mul.default(x, c, s)",
     "'r1' [1, 2, 8, 16] must be 4-D and broadcast"},
    {"x: \"bf16[4, 64]\"",
     "torch.ops.npu.npu_dynamic_mx_quant.default(x, dst_type = 292, block_size = 48)",
     "multiple of 32"},
    {"x: \"bf16[4, 63]\"", "torch.ops.npu.npu_dynamic_mx_quant.default(x)", "even last dim"},
    {"x: \"bf16[5, 130]\"", "torch.ops.npu.npu_swiglu_mx_quant.default(x, activate_dim = 0)",
     "size 5 along activate_dim"},
    {"x: \"bf16[4, 64]\"",
     "torch.ops.npu.npu_dynamic_mx_quant.default(x, dst_type = torch.bfloat16)",
     "MX quantization makes"},
    {"x: \"bf16[4, 64]\", g: \"bf16[32]\"",
     "torch.ops.npu.npu_rms_norm_dynamic_mx_quant.default(x, g, dst_type = 292)", "gamma"},
    {"x: \"bf16[4, 255]\"", "torch.ops.npu.npu_dequant_swiglu_quant.default(x)",
     "last dim must be even"},
    {"x: \"bf16[256]\"", "torch.ops.npu.npu_dequant_swiglu_quant.default(x)",
     "must be at least 2-D"},
    {"q: \"f16[1, 4, 8, 64]\", k: \"f16[1, 4, 8, 64]\", v: \"f16[1, 4, 8, 64]\"",
     "torch.ops.npu.npu_fusion_attention.default(q, k, v, 4, \"BSH\")", "input_layout 'BSH'"},
    {"q: \"f16[1, 4, 8, 64]\", k: \"f16[1, 3, 8, 64]\", v: \"f16[1, 3, 8, 64]\"",
     "torch.ops.npu.npu_fusion_attention.default(q, k, v, 4, \"BNSD\")",
     "key's head count 3 must divide query's 4"},
    {"q: \"f16[1, 4, 8, 64]\", k: \"f16[1, 4, 8, 64]\", v: \"f16[1, 4, 8, 64]\", m: \"f16[8, 8]\"",
     "torch.ops.npu.npu_fusion_attention.default(q, k, v, 4, \"BNSD\", atten_mask = m)",
     "'atten_mask' must be bool or uint8"},
    // --- issue 16
    {"x: \"f32[4]\", m: \"b8[4]\", v: \"f32[1]\"", "torch.ops.aten.masked_fill.Tensor(x, m, v)",
     "0-dim"},
    {"x: \"f32[4]\"", "torch.ops.aten.clamp.Tensor(x)", "at least one of"},
    {"", "torch.ops.aten.arange.start(5, 0)", "inconsistent with the sign"},
    {"", "torch.ops.aten.arange.start_step(0, 5, 0)", "non-zero"},
    {"x: \"i32[4]\"", "torch.ops.aten.one_hot.default(x, 3)", "int64"},
    {"x: \"f32[4]\"", "torch.ops.aten.histc.default(x, 0)", "'bins'"},
    {"x: \"f32[4]\"", "torch.ops.aten.histc.default(x, 4, 2, 1)", "'max'"},
    {"x: \"f32[4, 3]\"", "torch.ops.aten.cumsum.default(x, 2)", "dim"},
    // --- issue 16 batch 2
    {"x: \"f32[4, 3]\"", "torch.ops.aten._assert_tensor_metadata.default(x, dtype = torch.float16)",
     "dtype mismatch"},
    {"x: \"f32[4, 3]\"", "torch.ops.aten._assert_tensor_metadata.default(x, [4, 2])",
     "sizes mismatch"},
    {"x: \"f32[4]\"", "torch.ops.aten._local_scalar_dense.default(x)", "4 elements"},
    {"x: \"f32[4, 3]\", i: \"i64[2]\", v: \"f32[1]\"",
     "torch.ops.aten.index_fill.int_Tensor(x, 0, i, v)", "0-dim"},
    {"x: \"f32[4, 3]\", y: \"f32[4, 2]\"", "torch.ops.aten.stack.default([x, y])", "equal shapes"},
    {"x: \"f32[2, 6, 4]\"", "torch.ops.aten.group_norm.default(x, 4)", "divisible"},
    {"x: \"i64[4]\"", "torch.ops.aten.leaky_relu.default(x)", "cannot be safely cast"},
    {"x: \"f32[4, 8]\"", "torch.ops.aten.narrow.default(x, 1, 6, 4)", "exceeds"},
    {"x: \"f32[4, 8]\"", "torch.ops.aten.roll.default(x, [1, 2], [0])", "shifts"},
    {"x: \"f32[4, 8]\"", "torch.ops.aten.flip.default(x, [1, -1])", "repeats"},
};

TEST(ShapeInferenceTest, InconsistentInputsAreErrorsAtTheNode) {
  for (const ErrorCase& c : kErrors) {
    SCOPED_TRACE(c.expr);
    try {
      single_op(c.sig, c.expr);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(c.needle), std::string::npos) << msg;
      EXPECT_NE(msg.find("node 'out'"), std::string::npos) << msg;
      EXPECT_EQ(e.loc().file, "snippet.py");
      EXPECT_EQ(e.loc().line, 2);
    }
  }
}

// Every aten/npu-level dump of the corpus: annotations agree with what the
// meta functions infer from the annotated inputs.
TEST(ShapeInferenceTest, RealDumpsAgreeWithAnnotations) {
  std::filesystem::path dir = std::filesystem::path(EQFUSE_TEST_DATA) / "fx-dumps";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "no corpus at " << dir;
  int compared = 0, graphs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    Graph g;
    try {
      g = parse_fx(text.str(), entry.path().filename().string());
    } catch (const Error&) {
      continue;  // Dynamo-level and tabular dumps are rejected by the parser by design
    }
    ++graphs;
    resolve_ops(g, builtin());
    Graph whole = g;
    ASSERT_NO_THROW(infer_types(whole, builtin())) << entry.path();
    auto type_of_node = [&g](NodeRef r) -> const ValueType& { return g.node(r).type; };
    for (const Node& n : g.nodes()) {
      if (n.kind != NodeKind::Call || n.op == kNoOp || !n.type_annotated) continue;
      const OpInfo& info = builtin().info(n.op);
      ValueType inferred = info.meta(CallContext(info.schema, n.args, type_of_node));
      ValueType annotated = n.type;
      annotated.tensor.strides.reset();
      annotated.tensor.device.reset();
      EXPECT_EQ(describe(inferred), describe(annotated))
          << entry.path().filename() << ":" << n.meta.loc.line << " " << n.name;
      ++compared;
    }
  }
  EXPECT_GE(graphs, 20);
  EXPECT_GE(compared, 5000);
  RecordProperty("compared_nodes", compared);
}

// Inference checks only what the op's schema and torch's device-independent meta
// guarantee (torch/_meta_registrations.py, torch/_refs, torch/_decomp, the op run on
// "meta" tensors), never one backend's kernel limits: graphs traced for CUDA or NPU use
// dtypes torch's CPU kernels refuse. Each expectation is what torch 2.13 gives on meta
// tensors.
const Case kTorchMetaAccepts[] = {
    // histc: any dtype, counts in the input's dtype (the CPU kernel alone wants floats). An
    // MoE router counts int32 expert ids: torch.histc(topk_ids.int(), bins=E, min=0, max=E-1).
    {"ids: \"i32[s0, 2]\"", "torch.ops.aten.histc.default(ids, 8, 0, 7)", "i32[8]"},
    {"x: \"i64[s0]\"", "torch.ops.aten.histc.default(x)", "i64[100]"},
    {"x: \"u8[16]\"", "torch.ops.aten.histc.default(x, 4, 0, 255)", "u8[4]"},
    {"x: \"b8[16]\"", "torch.ops.aten.histc.default(x, 2, 0, 1)", "b8[2]"},
    {"x: \"bf16[16]\"", "torch.ops.aten.histc.default(x, 4, -1.0, 1.0)", "bf16[4]"},
    // index_add: int64, int32 (and any other) indices; the source's dtype is not checked.
    {"x: \"f32[8, s0]\", i: \"i32[3]\", s: \"f32[3, s0]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s)", "f32[8, s0]"},
    {"x: \"bf16[8, 4]\", i: \"i64[3]\", s: \"bf16[3, 4]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s)", "bf16[8, 4]"},
    {"x: \"bf16[8, 4]\", i: \"i32[3]\", s: \"bf16[3, 4]\"",
     "torch.ops.aten.index_add_.default(x, 0, i, s)", "bf16[8, 4]"},
    {"x: \"f32[8, 4]\", i: \"i64[3]\", s: \"bf16[3, 4]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s)", "f32[8, 4]"},
    {"x: \"f32[8, 4]\", i: \"i16[3]\", s: \"f32[3, 4]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s)", "f32[8, 4]"},
    // gather / scatter / scatter_add / scatter_reduce: int32 or int64 indices.
    {"x: \"f32[4, 8]\", i: \"i32[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter.src(x, 1, i, s)", "f32[4, 8]"},
    {"x: \"bf16[4, 8]\", i: \"i32[4, 2]\"", "torch.ops.aten.scatter.value(x, 1, i, 1.0)",
     "bf16[4, 8]"},
    {"x: \"bf16[s0, 8]\", i: \"i32[s0, 2]\", s: \"bf16[s0, 2]\"",
     "torch.ops.aten.scatter_add.default(x, 1, i, s)", "bf16[s0, 8]"},
    {"x: \"f32[s0, 8]\", i: \"i32[s0, 2]\", s: \"f32[s0, 2]\"",
     "torch.ops.aten.scatter_add_.default(x, 1, i, s)", "f32[s0, 8]"},
    {"x: \"bf16[4, 8]\", i: \"i64[4, 2]\", s: \"bf16[4, 2]\"",
     "torch.ops.aten.scatter_add.default(x, 1, i, s)", "bf16[4, 8]"},
    {"x: \"f32[4, 8]\", i: \"i32[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter_reduce.two(x, 1, i, s, 'amax')", "f32[4, 8]"},
    {"x: \"f32[s0, 8]\", i: \"i32[s0, 2]\"", "torch.ops.aten.gather.default(x, 1, i)",
     "f32[s0, 2]"},
    // index_select: any index dtype and rank (dim becomes index.numel()).
    {"x: \"f32[8, 4]\", i: \"i16[5]\"", "torch.ops.aten.index_select.default(x, 0, i)",
     "f32[5, 4]"},
    {"x: \"f32[8, 4]\", i: \"i64[2, 3]\"", "torch.ops.aten.index_select.default(x, 1, i)",
     "f32[8, 6]"},
    // index_fill: any index dtype.
    {"x: \"f32[4, 3]\", i: \"i32[2]\"", "torch.ops.aten.index_fill.int_Scalar(x, 0, i, 1.0)",
     "f32[4, 3]"},
    // index_put: values of another dtype, index tensors of any dtype.
    {"x: \"f32[8, 4]\", i: \"i64[3]\", v: \"bf16[3, 4]\"",
     "torch.ops.aten.index_put.default(x, [i], v, True)", "f32[8, 4]"},
    {"x: \"f32[8, 4]\", i: \"i16[3]\", v: \"f32[3, 4]\"",
     "torch.ops.aten.index_put_.default(x, [i], v)", "f32[8, 4]"},
    // repeat_interleave.Tensor: repeats of any dtype and rank.
    {"r: \"i16[4]\"", "torch.ops.aten.repeat_interleave.Tensor(r, output_size = 10)", "i16[10]"},
    {"r: \"i64[2, 2]\"", "torch.ops.aten.repeat_interleave.Tensor(r, output_size = 10)", "i64[10]"},
    // Activations of integer and bool tensors keep the dtype, when the scalar arguments
    // cast safely to the input's kind (bool < int < float).
    {"x: \"i32[s0, 8]\"", "torch.ops.aten.leaky_relu.default(x, 0)", "i32[s0, 8]"},
    {"x: \"b8[4]\"", "torch.ops.aten.leaky_relu.default(x, True)", "b8[4]"},
    {"x: \"i64[4]\"", "torch.ops.aten.softplus.default(x)", "i64[4]"},
    {"x: \"b8[4]\"", "torch.ops.aten.softplus.default(x)", "b8[4]"},
    {"x: \"i32[4]\"", "torch.ops.aten.softplus.default(x, 2, 20.0)", "i32[4]"},
    {"x: \"i32[4]\"", "torch.ops.aten.hardswish.default(x)", "i32[4]"},
    {"x: \"u8[4]\"", "torch.ops.aten.hardsigmoid.default(x)", "u8[4]"},
    {"x: \"i64[4]\"", "torch.ops.aten.mish.default(x)", "i64[4]"},
    {"x: \"b8[4]\"", "torch.ops.aten.elu.default(x, True, True, True)", "b8[4]"},
    {"x: \"i32[4]\"", "torch.ops.aten.silu.default(x)", "i32[4]"},
    {"x: \"i64[4]\"", "torch.ops.aten.gelu.default(x, approximate = 'tanh')", "i64[4]"},
    // Bitwise ops of floats are typed like any elementwise op.
    {"x: \"f32[4]\", y: \"i32[4]\"", "torch.ops.aten.bitwise_and.Tensor(x, y)", "f32[4]"},
    {"x: \"bf16[4]\"", "torch.ops.aten.bitwise_not.default(x)", "bf16[4]"},
    {"x: \"f32[4]\"", "torch.ops.aten.bitwise_or.Scalar(x, 1)", "f32[4]"},
    // masked_fill broadcasts self and mask (its result can be larger than self).
    {"x: \"f32[4]\", m: \"b8[3, 4]\"", "torch.ops.aten.masked_fill.Scalar(x, m, 0.0)", "f32[3, 4]"},
    {"x: \"f32[1, 4]\", m: \"b8[3, 1]\"", "torch.ops.aten.masked_fill.Scalar(x, m, 0.0)",
     "f32[3, 4]"},
    // Matmuls of mixed dtypes where torch's meta does not check (mm: self's dtype; mv:
    // promoted; addmm and linear with a bias: promoted with it).
    {"a: \"f32[3, 4]\", b: \"bf16[4, 5]\"", "torch.ops.aten.mm.default(a, b)", "f32[3, 5]"},
    {"a: \"bf16[2, 3, 4]\", b: \"f32[4, 5]\"", "torch.ops.aten.matmul.default(a, b)",
     "bf16[2, 3, 5]"},
    {"a: \"bf16[3, 4]\", b: \"f32[4]\"", "torch.ops.aten.matmul.default(a, b)", "f32[3]"},
    {"x: \"bf16[2, 3, 4]\", w: \"f32[5, 4]\"", "torch.ops.aten.linear.default(x, w)",
     "bf16[2, 3, 5]"},
    {"x: \"bf16[2, 3, 4]\", w: \"bf16[5, 4]\", b: \"f32[5]\"",
     "torch.ops.aten.linear.default(x, w, b)", "f32[2, 3, 5]"},
    {"s: \"f32[5]\", a: \"bf16[3, 4]\", b: \"bf16[4, 5]\"", "torch.ops.aten.addmm.default(s, a, b)",
     "f32[3, 5]"},
    {"s: \"f32[]\", a: \"bf16[3, 4]\", b: \"bf16[4, 5]\"", "torch.ops.aten.addmm.default(s, a, b)",
     "bf16[3, 5]"},
    // complex64 promotes with real dtypes (complex RoPE).
    {"x: \"f32[4]\", y: \"c64[4]\"", "torch.ops.aten.mul.Tensor(x, y)", "c64[4]"},
    {"x: \"c64[4]\", y: \"bf16[4]\"", "torch.ops.aten.add.Tensor(x, y)", "c64[4]"},
    {"x: \"f32[4]\", y: \"c64[]\"", "torch.ops.aten.mul.Tensor(x, y)", "c64[4]"},
    {"x: \"f32[4]\", y: \"c64[4]\"", "torch.ops.aten.cat.default([x, y])", "c64[8]"},
    {"x: \"c64[4]\"", "torch.ops.aten.exp.default(x)", "c64[4]"},
    {"x: \"c64[4, 2]\"", "torch.ops.aten.mean.dim(x, [0])", "c64[2]"},
    {"x: \"c64[4, 2]\"", "torch.ops.aten.var_mean.correction(x, [0])", "tuple(f32[2], c64[2])"},
    // The fused attention forms do not check dtypes (sdpa does, before dispatching).
    {"q: \"bf16[1, 2, 8, 16]\", k: \"f32[1, 2, 8, 16]\", v: \"bf16[1, 2, 8, 16]\"",
     "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v)",
     "tuple(bf16[1, 2, 8, 16], f32[1, 2, 8])"},
    {"q: \"bf16[1, 2, 8, 16]\", k: \"bf16[1, 2, 8, 16]\", v: \"bf16[1, 2, 8, 16]\", "
     "m: \"i32[8, 8]\"",
     "torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, "
     "attn_mask = m)",
     "tuple(bf16[1, 2, 8, 16], f32[1, 2, 8])"},
};

TEST(ShapeInferenceTest, AcceptsWhatTorchsMetaAccepts) {
  for (const Case& c : kTorchMetaAccepts) {
    SCOPED_TRACE(c.expr);
    try {
      Graph g = single_op(c.sig, c.expr);
      EXPECT_EQ(type_of(g, "out"), c.expected);
    } catch (const Error& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// What torch's meta itself refuses stays an error (the message names the problem).
const ErrorCase kTorchMetaRefuses[] = {
    {"x: \"f32[4]\"", "torch.ops.aten.histc.default(x, 0)", "'bins'"},
    {"x: \"i32[4]\"", "torch.ops.aten.histc.default(x, 4, 3, 1)", "'max'"},
    {"x: \"f32[4, 8]\", i: \"i16[4, 2]\", s: \"f32[4, 2]\"",
     "torch.ops.aten.scatter_add.default(x, 1, i, s)", "int32 or int64"},
    {"x: \"f32[4, 8]\", i: \"f32[4, 2]\"", "torch.ops.aten.gather.default(x, 1, i)",
     "int32 or int64"},
    {"x: \"f32[4, 8]\", i: \"i32[4, 2]\", s: \"bf16[4, 2]\"",
     "torch.ops.aten.scatter_add.default(x, 1, i, s)", "must have the dtype of 'self'"},
    {"x: \"f32[8, 4]\", i: \"i32[3, 1]\", s: \"f32[3, 4]\"",
     "torch.ops.aten.index_add.default(x, 0, i, s)", "0-D or 1-D"},
    {"x: \"f32[8]\", i: \"i16[3]\"", "torch.ops.aten.index.Tensor(x, [i])", "integer or bool"},
    {"x: \"i32[4]\"", "torch.ops.aten.leaky_relu.default(x, 0.2)", "cannot be safely cast"},
    {"x: \"b8[4]\"", "torch.ops.aten.leaky_relu.default(x, 0)", "cannot be safely cast"},
    {"x: \"i32[4]\"", "torch.ops.aten.softplus.default(x, 2.0)", "cannot be safely cast"},
    {"x: \"i32[4]\"", "torch.ops.aten.elu.default(x)", "cannot be safely cast"},
    {"x: \"i32[4]\"", "torch.ops.aten.one_hot.default(x, 3)", "int64"},
    {"a: \"bf16[2, 3, 4]\", b: \"f32[2, 4, 5]\"", "torch.ops.aten.bmm.default(a, b)", "same dtype"},
    {"a: \"bf16[2, 3, 4]\", b: \"f32[2, 4, 5]\"", "torch.ops.aten.matmul.default(a, b)",
     "same dtype"},
    {"a: \"bf16[4]\", b: \"f32[4]\"", "torch.ops.aten.matmul.default(a, b)", "same dtype"},
    {"q: \"bf16[1, 2, 8, 16]\", k: \"f32[1, 2, 8, 16]\", v: \"bf16[1, 2, 8, 16]\"",
     "torch.ops.aten.scaled_dot_product_attention.default(q, k, v)", "dtype of 'query'"},
    {"q: \"bf16[1, 2, 8, 16]\", k: \"bf16[1, 2, 8, 16]\", v: \"bf16[1, 2, 8, 16]\", "
     "m: \"i32[8, 8]\"",
     "torch.ops.aten.scaled_dot_product_attention.default(q, k, v, m)", "'attn_mask'"},
    {"x: \"i32[4]\"", "torch.ops.aten.mean.default(x)", "floating"},
};

TEST(ShapeInferenceTest, RefusesWhatTorchsMetaRefuses) {
  for (const ErrorCase& c : kTorchMetaRefuses) {
    SCOPED_TRACE(c.expr);
    try {
      single_op(c.sig, c.expr);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
    }
  }
}

// native_layer_norm's mean/rstd of a half input: fp32 in graphs traced for CUDA or NPU,
// the input's dtype in CPU graphs (torch's ref casts them only on CPU). An annotated
// device decides; without one either annotation is accepted and kept.
TEST(ShapeInferenceTest, LayerNormStatisticsFollowTheTracedDevice) {
  auto stats = [](const std::string& x) {
    Graph g = single_op("x: \"" + x + "\", w: \"bf16[64]\"",
                        "torch.ops.aten.native_layer_norm.default(x, [64], w, None, 1e-05)");
    return type_of(g, "out");
  };
  EXPECT_EQ(stats("bf16[4, 64][64, 1]npu:0"), "tuple(bf16[4, 64], f32[4, 1], f32[4, 1])");
  EXPECT_EQ(stats("bf16[4, 64][64, 1]cuda:0"), "tuple(bf16[4, 64], f32[4, 1], f32[4, 1])");
  EXPECT_EQ(stats("bf16[4, 64][64, 1]cpu"), "tuple(bf16[4, 64], bf16[4, 1], bf16[4, 1])");
  EXPECT_EQ(stats("bf16[4, 64]"), "tuple(bf16[4, 64], tensor(?), tensor(?))");
  for (const char* dtype : {"f32", "bf16"}) {
    SCOPED_TRACE(dtype);
    std::string text = std::string(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[4, 64]", w: "bf16[64]"):
        ln = torch.ops.aten.native_layer_norm.default(x, [64], w, None, 1e-05)
        y: "bf16[4, 64]" = ln[0]
        mean: ")FX") + dtype +
                       R"FX([4, 1]" = ln[1]
        return (y, mean)
)FX";
    Graph g = typed_graph(text);
    EXPECT_EQ(type_of(g, "mean"), std::string(dtype) + "[4, 1]");
    // The annotation reaches the call's tuple type, which the interpreter computes.
    EXPECT_EQ(type_of(g, "ln"), "tuple(bf16[4, 64], " + std::string(dtype) + "[4, 1], tensor(?))");
  }
}

// ---- sizes that leave int64 (fuzz findings): an error at the node, never a wrapped size ----

std::string error_of(const std::string& text) {
  try {
    typed_graph(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(ShapeInferenceOverflow, AnInputWhoseBytesLeaveInt64IsNamed) {
  // Was: reinplace's byte count wrapped to 0 (2^32 x 2^32 elements).
  EXPECT_EQ(error_of("def forward(self, x: \"f16[4294967296, 4294967296]\"):\n"
                     "    return (x,)\n"),
            "size of input 'x' f16[4294967296, 4294967296] does not fit in 63 bits");
  // Was: view(x, [-1]) on f16[2^62, 4] inferred f16[0].
  EXPECT_EQ(error_of(single_op_text("x: \"f16[4611686018427387904, 4]\"",
                                    "torch.ops.aten.view.default(x, [-1])")),
            "size of input 'x' f16[4611686018427387904, 4] does not fit in 63 bits");
  // The largest byte count that fits is accepted.
  EXPECT_NO_THROW(typed_graph(
      single_op_text("x: \"i8[9223372036854775807]\"", "torch.ops.aten.view.default(x, [-1])")));
}

TEST(ShapeInferenceOverflow, AResultWhoseSizeLeavesInt64NamesTheNode) {
  std::string view =
      error_of(single_op_text("x: \"i8[4611686018427387904]\"",
                              "torch.ops.aten.view.default(x, [4611686018427387904, 4])"));
  EXPECT_NE(view.find("node 'out' (aten::view)"), std::string::npos) << view;
  EXPECT_NE(view.find("does not fit in 63 bits"), std::string::npos) << view;
  std::string expand =
      error_of(single_op_text("x: \"i8[1, 4611686018427387904]\"",
                              "torch.ops.aten.expand.default(x, [4, 4611686018427387904])"));
  EXPECT_NE(expand.find("'out'"), std::string::npos) << expand;
  EXPECT_NE(expand.find("does not fit in 63 bits"), std::string::npos) << expand;
  std::string flatten = error_of(single_op_text("x: \"i8[0, 4611686018427387904, 4]\"",
                                                "torch.ops.aten.flatten.using_ints(x, 1, 2)"));
  EXPECT_NE(flatten.find("node 'out' (aten::flatten"), std::string::npos) << flatten;
}

TEST(ShapeInferenceOverflow, SplitNearTheLimitKeepsItsPieces) {
  Graph g = single_op("x: \"i8[9223372036854775807]\"",
                      "torch.ops.aten.split.Tensor(x, 9223372036854775806)");
  const ValueType& t = g.node(*g.find("out")).type;
  ASSERT_EQ(t.kind, ValueType::Kind::Tuple);
  ASSERT_EQ(t.elements.size(), 2u);
  EXPECT_EQ(to_annotation(t.elements[1]), "i8[1]");
}

}  // namespace
}  // namespace eqfuse
