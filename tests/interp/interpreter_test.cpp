// ctest-label: numeric
// Interpreter behaviour: aliasing and in-place ops, mutated inputs,
// uninterpreted functions, symbolic bindings, errors naming nodes.
#include "interp/interpreter.hpp"

#include <gtest/gtest.h>

#include "interp/random_inputs.hpp"
#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::f32;
using testing::graph_from;
using testing::ints;
using testing::registry;
using testing::run;
using testing::tensor;
using testing::vals;

TEST(Interpreter, InPlaceOpThroughAViewMutatesTheInput) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]", y: "f32[2]"):
        row: "f32[2]" = torch.ops.aten.select.int(x, 0, 1)
        add_: "f32[2]" = torch.ops.aten.add_.Tensor(row, y)
        mul: "f32[2, 2]" = torch.ops.aten.mul.Tensor(x, 2)
        return (mul,)
)FX");
  Tensor x = f32({2, 2}, {1, 2, 3, 4});
  RunResult r = run(g, {x, f32({2}, {10, 20})});
  // Row 1 becomes [13, 24]; mul reads the updated x.
  EXPECT_EQ(r.outputs[0].tensor().values(), (std::vector<double>{2, 4, 26, 48}));
  ASSERT_EQ(r.mutated_inputs.size(), 1u);
  EXPECT_EQ(r.mutated_inputs[0].first, 0u);
  EXPECT_EQ(r.mutated_inputs[0].second.values(), (std::vector<double>{1, 2, 13, 24}));
  // The caller's tensor is untouched: inputs are copied.
  EXPECT_EQ(x.values(), (std::vector<double>{1, 2, 3, 4}));
}

TEST(Interpreter, CopyEpilogueIntoInput) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]", y: "f32[2]"):
        add: "f32[2]" = torch.ops.aten.add.Tensor(x, y)
        copy_: "f32[2]" = torch.ops.aten.copy_.default(x, add)
        return (add,)
)FX");
  RunResult r = run(g, {f32({2}, {1, 2}), f32({2}, {3, 4})});
  ASSERT_EQ(r.mutated_inputs.size(), 1u);
  EXPECT_EQ(r.mutated_inputs[0].second.values(), (std::vector<double>{4, 6}));
  EXPECT_EQ(r.output_names, (std::vector<std::string>{"add"}));
}

TEST(Interpreter, OpaqueOpsAreDeterministicUninterpretedFunctions) {
  const char* text = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        foo: "bf16[s0, 3]" = torch.ops.mylib.foo.default(x, 3)
        bar: "bf16[s0, 3]" = torch.ops.mylib.foo.default(x, 4)
        return (foo, bar)
)FX";
  Graph g = graph_from(text);
  Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  RunResult a = run(g, {x}, {{"s0", 5}});
  RunResult b = run(graph_from(text), {x}, {{"s0", 5}});
  const Tensor& foo = a.outputs[0].tensor();
  EXPECT_EQ(foo.dtype(), DType::BFloat16);
  EXPECT_EQ(foo.shape(), (Dims{5, 3}));                     // symbolic dim from the bindings
  EXPECT_EQ(foo.values(), b.outputs[0].tensor().values());  // same inputs -> same outputs
  // A different attribute or different input contents give different values.
  EXPECT_NE(foo.values(), a.outputs[1].tensor().values());
  RunResult c = run(g, {f32({2, 3}, {1, 2, 3, 4, 5, 7})}, {{"s0", 5}});
  EXPECT_NE(foo.values(), c.outputs[0].tensor().values());
  for (double v : foo.values()) {
    EXPECT_GE(v, -2.0);
    EXPECT_LE(v, 2.0);
  }
}

TEST(Interpreter, OpaqueOpWithoutTypeIsAnErrorNamingIt) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]"):
        foo = torch.ops.mylib.foo.default(x)
        return (foo,)
)FX");
  try {
    run(g, {f32({2}, {1, 2})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("'foo'"), std::string::npos) << m;
    EXPECT_NE(m.find("uninterpreted"), std::string::npos) << m;
  }
}

TEST(Interpreter, SymbolsBindFromInputsAndSymSizeFeedsViews) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, n: "Sym(s0)", x: "f32[s0, 2]"):
        sz: "Sym(s0)" = torch.ops.aten.sym_size.int(x, 0)
        mul = sz * 2
        v: "f32[2*s0]" = torch.ops.aten.view.default(x, [mul])
        return (v, mul)
)FX");
  RunResult r = run(g, {int64_t{3}, f32({3, 2}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(r.outputs[0].tensor().shape(), (Dims{6}));
  ASSERT_TRUE(r.outputs[1].is_int());
  EXPECT_EQ(r.outputs[1].as_int(), 6);
}

TEST(Interpreter, AnnotationMismatchIsReported) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]"):
        neg: "f16[2]" = torch.ops.aten.neg.default(x)
        return (neg,)
)FX");
  try {
    run(g, {f32({2}, {1, 2})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'neg'"), std::string::npos) << e.what();
  }
  InterpreterOptions lax;
  lax.check_types = false;
  std::vector<RuntimeValue> in = {f32({2}, {1, 2})};
  EXPECT_NO_THROW(Interpreter(testing::registry(), lax).run(g, in));
}

TEST(Interpreter, FunctionalAndInPlaceVariantsAgreeWithoutAKernel) {
  // npu_kv_rmsnorm_rope_cache_v2 has no reference kernel: both variants
  // evaluate one uninterpreted function; the in-place one writes the cache
  // results into its arguments.
  Graph functional = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, kv: "bf16[1, 1, 2, 8]", gamma: "bf16[4]", cos: "bf16[1, 1, 2, 4]", sin: "bf16[1, 1, 2, 4]", index: "i64[2]", kc: "bf16[4, 1, 4]", ckc: "bf16[4, 1, 4]"):
        f = torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2_functional.default(kv, gamma, cos, sin, index, kc, ckc)
        k_rope: "bf16[1, 1, 2, 4]" = f[0]
        kc_out: "bf16[4, 1, 4]" = f[2]
        ckc_out: "bf16[4, 1, 4]" = f[3]
        copy_: "bf16[4, 1, 4]" = torch.ops.aten.copy_.default(kc, kc_out)
        copy__1: "bf16[4, 1, 4]" = torch.ops.aten.copy_.default(ckc, ckc_out)
        return (k_rope,)
)FX");
  Graph inplace = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, kv: "bf16[1, 1, 2, 8]", gamma: "bf16[4]", cos: "bf16[1, 1, 2, 4]", sin: "bf16[1, 1, 2, 4]", index: "i64[2]", kc: "bf16[4, 1, 4]", ckc: "bf16[4, 1, 4]"):
        f = torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2.default(kv, gamma, cos, sin, index, kc, ckc)
        k_rope: "bf16[1, 1, 2, 4]" = f[0]
        return (k_rope,)
)FX");
  SplitMix64 rng(3);
  std::vector<RuntimeValue> in;
  for (NodeRef p : functional.placeholders()) {
    const TensorType& t = functional.node(p).type.tensor;
    Dims shape;
    for (const SymInt& d : *t.shape) shape.push_back(*d.constant());
    in.emplace_back(random_tensor(t.dtype, shape, rng));
  }
  RunResult a = run(functional, in);
  RunResult b = run(inplace, in);
  EXPECT_EQ(a.outputs[0].tensor().values(), b.outputs[0].tensor().values());
  ASSERT_EQ(a.mutated_inputs.size(), 2u);
  ASSERT_EQ(b.mutated_inputs.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(a.mutated_inputs[k].first, b.mutated_inputs[k].first);
    EXPECT_EQ(a.mutated_inputs[k].second.values(), b.mutated_inputs[k].second.values());
  }
}

// get_attr constants listed in attr_values take the listed value (a fresh
// copy each time: an in-place write leaves the list as it was); others stay
// uninterpreted values seeded by their target.
TEST(Interpreter, GetAttrTakesAGivenValueByTarget) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]"):
        _tensor_constant0: "i64[2]" = self._tensor_constant0
        _param_constant0: "f32[2]" = self._param_constant0
        add_: "i64[2]" = torch.ops.aten.add_.Tensor(_tensor_constant0, 1)
        add: "f32[2]" = torch.ops.aten.add.Tensor(x, _param_constant0)
        return (add_, add, _param_constant0)
)FX");
  const AttrValues attrs = {{"_tensor_constant0", tensor(DType::Int64, {2}, {5, 7})}};
  InterpreterOptions io;
  io.attr_values = &attrs;
  const std::vector<RuntimeValue> in = {f32({2}, {0, 0})};
  RunResult r = Interpreter(registry(), io).run(g, in);
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{6, 8}));
  EXPECT_EQ(ints(attrs.at("_tensor_constant0")), (std::vector<int64_t>{5, 7}));
  RunResult again = Interpreter(registry(), io).run(g, in);
  EXPECT_EQ(ints(again.outputs[0]), (std::vector<int64_t>{6, 8}));
  // Unlisted: as without attr_values.
  RunResult plain = run(g, in);
  EXPECT_EQ(vals(r.outputs[2]), vals(plain.outputs[2]));
  EXPECT_NE(ints(plain.outputs[0]), (std::vector<int64_t>{6, 8}));
}

}  // namespace
}  // namespace eqfuse
