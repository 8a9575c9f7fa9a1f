// ctest-label: numeric
// Reference kernels of interp/kernels_elementwise.cpp added for issue 16
// (remainder, floor_divide, bitwise and logical ops, isnan/isinf/isfinite,
// clamp variants, where with scalars, masked_fill.Tensor, arange, new_*,
// one_hot) against hand-computed values. Every output is annotated, so the
// interpreter also checks each result's dtype and shape.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::expect_near;
using testing::f32;
using testing::graph_from;
using testing::ints;
using testing::run;
using testing::tensor;
using testing::vals;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor i64(Dims shape, std::vector<int64_t> v) {
  return Tensor::from_ints(DType::Int64, std::move(shape), v);
}
Tensor of_ints(DType d, Dims shape, std::vector<int64_t> v) {
  return Tensor::from_ints(d, std::move(shape), v);
}

// The error message of running `g`, or "" when it runs.
std::string run_error(const Graph& g, std::vector<RuntimeValue> inputs) {
  try {
    run(g, std::move(inputs));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ElementwiseKernels, RemainderTakesTheSignOfTheDivisor) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]", i: "i64[3]", a: "f32[3]", b: "f32[3]"):
        r1: "f32[4]" = torch.ops.aten.remainder.Scalar(x, 2)
        r2: "i64[3]" = torch.ops.aten.remainder.Scalar(i, -2)
        r3: "f32[3]" = torch.ops.aten.remainder.Tensor(a, b)
        r4: "f32[3]" = torch.ops.aten.remainder.Scalar(i, 2.5)
        return (r1, r2, r3, r4)
)FX");
  RunResult r = run(g, {f32({4}, {-3, 3, -0.0, 5.5}), i64({3}, {-3, 3, 5}), f32({3}, {1, -1, 1}),
                        f32({3}, {0, kInf, -kInf})});
  // Python: -3 % 2 = 1, 3 % 2 = 1, -0.0 % 2 = -0.0 (fmod keeps the sign of a zero), 5.5 % 2 = 1.5.
  std::vector<double> r1 = vals(r.outputs[0]);
  EXPECT_EQ(r1, (std::vector<double>{1, 1, 0, 1.5}));
  EXPECT_TRUE(std::signbit(r1[2]));
  // -3 % -2 = -1, 3 % -2 = -1, 5 % -2 = -1 (sign of the divisor).
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{-1, -1, -1}));
  // 1 % 0 = nan; -1 % inf = inf (fmod gives -1, plus the divisor); 1 % -inf = -inf.
  std::vector<double> r3 = vals(r.outputs[2]);
  EXPECT_TRUE(std::isnan(r3[0]));
  EXPECT_EQ(r3[1], kInf);
  EXPECT_EQ(r3[2], -kInf);
  // int64 tensor % Python float -> float32: -3 % 2.5 = 2, 3 % 2.5 = 0.5, 5 % 2.5 = 0.
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{2, 0.5, 0}));
}

TEST(ElementwiseKernels, IntegerRemainderByZeroIsAnError) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[2]"):
        r = torch.ops.aten.remainder.Scalar(i, 0)
        return (r,)
)FX");
  EXPECT_NE(run_error(g, {i64({2}, {1, 2})}), "");
}

TEST(ElementwiseKernels, FloorDivideRoundsTowardMinusInfinity) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[2]", j: "i64[2]", x: "f32[4]", d: "f64[1]"):
        q1: "i64[2]" = torch.ops.aten.floor_divide.default(i, j)
        q2: "f32[4]" = torch.ops.aten.floor_divide.Scalar(x, -3)
        q3: "f64[1]" = torch.ops.aten.floor_divide.Scalar(d, 0.1)
        q4: "f64[1]" = torch.ops.aten.div.Tensor_mode(d, 0.1, rounding_mode = 'floor')
        q5: "f32[2]" = torch.ops.aten.floor_divide.Scalar(i, 2.5)
        return (q1, q2, q3, q4, q5)
)FX");
  RunResult r = run(g, {i64({2}, {-7, 7}), i64({2}, {2, 2}), f32({4}, {0.0, -1, -7, 7}),
                        tensor(DType::Float64, {1}, {1.0})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{-4, 3}));
  // 0 // -3 = -0.0 (sign of 0 / -3), -1 // -3 = +0.0, -7 // -3 = 2, 7 // -3 = -3.
  std::vector<double> q2 = vals(r.outputs[1]);
  EXPECT_EQ(q2, (std::vector<double>{0, 0, 2, -3}));
  EXPECT_TRUE(std::signbit(q2[0]));
  EXPECT_FALSE(std::signbit(q2[1]));
  // 1 // 0.1 is 9 in Python and torch: 0.1 is slightly above 1/10, so
  // fmod(1, 0.1) = 0.0999..., although 1 / 0.1 rounds to exactly 10.
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{9}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{9}));
  // -7 / 2.5 = -2.8 -> -3; 7 / 2.5 = 2.8 -> 2.
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{-3, 2}));
}

TEST(ElementwiseKernels, BitwiseOpsOnBoolsAndIntegers) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "i32[2]", p: "b8[3]", q: "b8[3]", s: "i8[2]", u: "u8[2]", l: "i64[2]"):
        and_s: "i32[2]" = torch.ops.aten.bitwise_and.Scalar(a, 10)
        or_b: "b8[3]" = torch.ops.aten.bitwise_or.Tensor(p, q)
        xor_p: "i16[2]" = torch.ops.aten.bitwise_xor.Tensor(s, u)
        not_b: "b8[3]" = torch.ops.aten.bitwise_not.default(p)
        not_u: "u8[2]" = torch.ops.aten.bitwise_not.default(u)
        not_l: "i64[2]" = torch.ops.aten.bitwise_not.default(l)
        and_bi: "i64[3]" = torch.ops.aten.bitwise_and.Scalar(p, 3)
        xor_b: "b8[3]" = torch.ops.aten.bitwise_xor.Tensor(p, q)
        return (and_s, or_b, xor_p, not_b, not_u, not_l, and_bi, xor_b)
)FX");
  RunResult r = run(g, {of_ints(DType::Int32, {2}, {12, -1}), of_ints(DType::Bool, {3}, {1, 0, 0}),
                        of_ints(DType::Bool, {3}, {1, 1, 0}), of_ints(DType::Int8, {2}, {5, -1}),
                        of_ints(DType::UInt8, {2}, {3, 255}), i64({2}, {0, -3})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{8, 10}));  // 1100 & 1010, -1 & 10
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 1, 0}));
  // int8 ^ uint8 -> int16: 5 ^ 3 = 6; 0xFFFF ^ 0x00FF = 0xFF00 = -256.
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{6, -256}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{0, 1, 1}));  // ~ on bool is not
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{252, 0}));   // ~3, ~255 in uint8
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{-1, 2}));    // ~0, ~-3
  EXPECT_EQ(ints(r.outputs[6]), (std::vector<int64_t>{1, 0, 0}));  // bool & int -> int64
  EXPECT_EQ(ints(r.outputs[7]), (std::vector<int64_t>{0, 1, 0}));
}

// No kernel computes bitwise ops of floats (torch's meta types them): an untyped call is
// an error naming the node, since its uninterpreted value needs a type.
TEST(ElementwiseKernels, BitwiseOpsOfFloatsAreNotComputed) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]"):
        r = torch.ops.aten.bitwise_and.Scalar(x, 1)
        return (r,)
)FX");
  std::string error = run_error(g, {f32({2}, {1, 2})});
  EXPECT_NE(error.find("node 'r'"), std::string::npos) << error;
  EXPECT_NE(error.find("uninterpreted function"), std::string::npos) << error;
}

TEST(ElementwiseKernels, LogicalOpsTreatNonzeroAndNaNAsTrue) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]", i: "i64[3]", z: "f32[4]"):
        a: "b8[3]" = torch.ops.aten.logical_and.default(x, i)
        o: "b8[3]" = torch.ops.aten.logical_or.default(x, i)
        e: "b8[3]" = torch.ops.aten.logical_xor.default(x, i)
        n: "b8[4]" = torch.ops.aten.logical_not.default(z)
        return (a, o, e, n)
)FX");
  RunResult r = run(g, {f32({3}, {0, kNaN, 2}), i64({3}, {1, 0, 3}), f32({4}, {0, -0.0, kNaN, 2})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 0, 1}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{1, 1, 0, 0}));  // -0.0 is false
}

TEST(ElementwiseKernels, NanInfFiniteTests) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[5]", i: "i64[2]"):
        is_nan: "b8[5]" = torch.ops.aten.isnan.default(x)
        is_inf: "b8[5]" = torch.ops.aten.isinf.default(x)
        is_fin: "b8[5]" = torch.ops.aten.isfinite.default(x)
        inf_i: "b8[2]" = torch.ops.aten.isinf.default(i)
        fin_i: "b8[2]" = torch.ops.aten.isfinite.default(i)
        return (is_nan, is_inf, is_fin, inf_i, fin_i)
)FX");
  RunResult r = run(g, {f32({5}, {1, kInf, -kInf, kNaN, -0.0}), i64({2}, {1, -2})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 0, 0, 1, 0}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{0, 1, 1, 0, 0}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{1, 0, 0, 0, 1}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{1, 1}));
}

TEST(ElementwiseKernels, ClampVariantsPromoteBroadcastAndPropagateNaN) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[3]", x: "f32[3]", lo: "f32[3]", hi: "f32[3]", lo1: "f32[1]", hi1: "f32[1]", c: "i64[2, 1]", h: "i64[3]", s: "i32[2]"):
        c1: "f32[3]" = torch.ops.aten.clamp.default(i, 0.5)
        c2: "f32[3]" = torch.ops.aten.clamp_min.Tensor(x, lo)
        c3: "f32[3]" = torch.ops.aten.clamp.Tensor(x, None, hi)
        c4: "f32[3]" = torch.ops.aten.clamp.Tensor(x, lo1, hi1)
        c5: "i64[2, 3]" = torch.ops.aten.clamp_max.Tensor(c, h)
        c6: "i32[2]" = torch.ops.aten.clamp_max.default(s, 4)
        c7: "f32[3]" = torch.ops.aten.clamp_min.default(x, 2)
        c8: "f32[3]" = torch.ops.aten.clamp_max.Tensor(x, hi1)
        return (c1, c2, c3, c4, c5, c6, c7, c8)
)FX");
  RunResult r = run(g, {i64({3}, {0, 1, 2}), f32({3}, {1, kNaN, 3}), f32({3}, {kNaN, 0, 5}),
                        f32({3}, {kNaN, 0, 0}), f32({1}, {2}), f32({1}, {1}), i64({2, 1}, {1, 7}),
                        i64({3}, {0, 5, 10}), of_ints(DType::Int32, {2}, {1, 9})});
  // An int64 tensor clamped by a float scalar becomes float32.
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{0.5, 1, 2}));
  // NaN in x or in a tensor bound gives NaN.
  std::vector<double> c2 = vals(r.outputs[1]);
  EXPECT_TRUE(std::isnan(c2[0]) && std::isnan(c2[1]));
  EXPECT_EQ(c2[2], 5);
  std::vector<double> c3 = vals(r.outputs[2]);
  EXPECT_TRUE(std::isnan(c3[0]) && std::isnan(c3[1]));
  EXPECT_EQ(c3[2], 0);
  // min > max: every element becomes max (min(max(x, 2), 1) = 1); NaN stays.
  std::vector<double> c4 = vals(r.outputs[3]);
  EXPECT_EQ(c4[0], 1);
  EXPECT_TRUE(std::isnan(c4[1]));
  EXPECT_EQ(c4[2], 1);
  // [[1], [7]] clamped by max [0, 5, 10], broadcast to [2, 3].
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{0, 1, 1, 0, 5, 7}));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{1, 4}));
  std::vector<double> c7 = vals(r.outputs[6]);
  EXPECT_EQ(c7[0], 2);
  EXPECT_TRUE(std::isnan(c7[1]));
  EXPECT_EQ(c7[2], 3);
  std::vector<double> c8 = vals(r.outputs[7]);
  EXPECT_EQ(c8[0], 1);
  EXPECT_TRUE(std::isnan(c8[1]));
  EXPECT_EQ(c8[2], 1);
}

TEST(ElementwiseKernels, WhereWithScalarsPromotesLikeTorch) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, c: "b8[2]", y: "i64[2]", h: "i32[2]", c2: "b8[2, 1]"):
        w1: "f32[2]" = torch.ops.aten.where.Scalar(c, 1.0, 0.0)
        w2: "i64[2]" = torch.ops.aten.where.Scalar(c, 1, 0)
        w3: "f32[2]" = torch.ops.aten.where.ScalarSelf(c, 1.5, y)
        w4: "i32[2]" = torch.ops.aten.where.ScalarOther(c, h, 3)
        w5: "b8[2]" = torch.ops.aten.where.Scalar(c, True, False)
        w6: "i32[2, 2]" = torch.ops.aten.where.ScalarOther(c2, h, -1)
        return (w1, w2, w3, w4, w5, w6)
)FX");
  RunResult r = run(g, {of_ints(DType::Bool, {2}, {1, 0}), i64({2}, {1, 2}),
                        of_ints(DType::Int32, {2}, {1, 2}), of_ints(DType::Bool, {2, 1}, {0, 1})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, 0}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1.5, 2}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{-1, -1, 1, 2}));
}

TEST(ElementwiseKernels, MaskedFillTensorTakesAZeroDimValue) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]", m: "b8[2]", v: "f32[]"):
        out: "f32[2, 2]" = torch.ops.aten.masked_fill.Tensor(x, m, v)
        return (out,)
)FX");
  RunResult r = run(g, {f32({2, 2}, {1, 2, 3, 4}), of_ints(DType::Bool, {2}, {1, 0}),
                        Tensor::scalar(DType::Float32, 9)});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{9, 2, 9, 4}));
  Graph bad = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]", m: "b8[2]", v: "f32[1]"):
        out = torch.ops.aten.masked_fill.Tensor(x, m, v)
        return (out,)
)FX");
  EXPECT_NE(
      run_error(bad, {f32({2, 2}, {1, 2, 3, 4}), of_ints(DType::Bool, {2}, {1, 0}), f32({1}, {9})})
          .find("0-dim"),
      std::string::npos);
}

// Out of place, masked_fill broadcasts self and mask (ATen expands both): a larger
// mask makes a larger result.
TEST(ElementwiseKernels, MaskedFillBroadcastsSelfAndMask) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[1, 3]", m: "b8[2, 1]"):
        out: "f32[2, 3]" = torch.ops.aten.masked_fill.Scalar(x, m, -1.0)
        return (out,)
)FX");
  RunResult r = run(g, {f32({1, 3}, {1, 2, 3}), of_ints(DType::Bool, {2, 1}, {0, 1})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, 2, 3, -1, -1, -1}));
}

// Bitwise ops of floats (torch's meta types them, its kernels refuse them) and silu of
// an integer tensor are uninterpreted functions of the node's type, not errors.
TEST(ElementwiseKernels, DtypesNoKernelCoversAreUninterpreted) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]", i: "i32[3]"):
        a: "f32[3]" = torch.ops.aten.bitwise_and.Tensor(x, i)
        n: "f32[3]" = torch.ops.aten.bitwise_not.default(x)
        s: "i32[3]" = torch.ops.aten.silu.default(i)
        return (a, n, s)
)FX");
  std::vector<RuntimeValue> in{f32({3}, {1, 2, 3}), of_ints(DType::Int32, {3}, {1, 2, 3})};
  RunResult r = run(g, in);
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Float32);
  EXPECT_EQ(r.outputs[2].tensor().dtype(), DType::Int32);
  InterpreterOptions strict;
  strict.allow_opaque = false;
  try {
    Interpreter(testing::registry(), strict).run(g, in);
    ADD_FAILURE() << "no error in strict mode";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("node 'a'"), std::string::npos) << e.what();
  }
}

TEST(ElementwiseKernels, ArangeLengthsAndDtypes) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, n: "Sym(s0)"):
        a1: "i64[5]" = torch.ops.aten.arange.default(5)
        a2: "f32[4]" = torch.ops.aten.arange.start_step(5, 0, -1.5)
        a3: "f32[4]" = torch.ops.aten.arange.start_step(1, 2, 0.3)
        a4: "i64[2]" = torch.ops.aten.arange.start_step(0, 2.5, 1, dtype = torch.int64)
        a5: "i64[3]" = torch.ops.aten.arange.start(0.5, 3, dtype = torch.int64)
        a6: "i64[s0]" = torch.ops.aten.arange.default(n)
        a7: "i64[0]" = torch.ops.aten.arange.start(3, 3)
        a8: "i64[3]" = torch.ops.aten.arange.start_step(10, 3, -3)
        a9: "f16[3]" = torch.ops.aten.arange.default(3, dtype = torch.float16)
        return (a1, a2, a3, a4, a5, a6, a7, a8, a9)
)FX");
  RunResult r = run(g, {int64_t{3}});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  // ceil((0 - 5) / -1.5) = ceil(3.33) = 4 elements.
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{5, 3.5, 2, 0.5}));
  // ceil((2 - 1) / 0.3) = ceil(3.33) = 4; values 1 + 0.3 i rounded to float32.
  expect_near(vals(r.outputs[2]), {1.0, 1.3, 1.6, 1.9});
  EXPECT_EQ(vals(r.outputs[2])[1], static_cast<double>(1.3f));
  // Integer dtypes truncate the bounds first: [0, 2) and [0, 3).
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(r.outputs[6].tensor().numel(), 0);
  EXPECT_EQ(ints(r.outputs[7]), (std::vector<int64_t>{10, 7, 4}));  // ceil(7 / 3) = 3
  EXPECT_EQ(vals(r.outputs[8]), (std::vector<double>{0, 1, 2}));
}

TEST(ElementwiseKernels, ArangeRejectsAStepOfTheWrongSign) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self):
        a = torch.ops.aten.arange.start(5, 0)
        return (a,)
)FX");
  EXPECT_NE(run_error(g, {}).find("inconsistent"), std::string::npos);
}

TEST(ElementwiseKernels, NewTensorsTakeSelfsDtype) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[2]", h: "f16[1]"):
        z: "bf16[2, 3]" = torch.ops.aten.new_zeros.default(x, [2, 3])
        o: "i32[2]" = torch.ops.aten.new_ones.default(x, [2], dtype = torch.int32)
        f: "f16[2]" = torch.ops.aten.new_full.default(h, [2], 7)
        return (z, o, f)
)FX");
  RunResult r = run(g, {tensor(DType::BFloat16, {2}, {1, 2}), tensor(DType::Float16, {1}, {1})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>(6, 0.0)));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{7, 7}));
}

TEST(ElementwiseKernels, OneHot) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[3]", j: "i64[2, 1]"):
        a: "i64[3, 3]" = torch.ops.aten.one_hot.default(i)
        b: "i64[2, 1, 4]" = torch.ops.aten.one_hot.default(j, 4)
        return (a, b)
)FX");
  RunResult r = run(g, {i64({3}, {0, 2, 1}), i64({2, 1}, {3, 0})});
  // num_classes = -1: max + 1 = 3 classes.
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{1, 0, 0, 0, 0, 1, 0, 1, 0}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{0, 0, 0, 1, 1, 0, 0, 0}));
  Graph out_of_range = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[1]"):
        a = torch.ops.aten.one_hot.default(i, 2)
        return (a,)
)FX");
  EXPECT_NE(run_error(out_of_range, {i64({1}, {2})}).find("outside"), std::string::npos);
  Graph empty = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[0]"):
        a = torch.ops.aten.one_hot.default(i)
        return (a,)
)FX");
  EXPECT_NE(run_error(empty, {i64({0}, {})}).find("empty"), std::string::npos);
}

}  // namespace
}  // namespace eqfuse
