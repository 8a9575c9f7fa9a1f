// ctest-label: numeric
// Reference kernels checked against hand-computed values. Each test runs a
// small FX graph through the interpreter; the expected numbers are worked
// out in the comments.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

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

TEST(Kernels, ArithmeticWithBroadcastAndPromotion) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]", y: "f32[2]", i: "i64[2]", j: "i64[2]"):
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(x, y, alpha = 2)
        sub: "f32[2, 2]" = torch.ops.aten.sub.Tensor(x, y)
        mul: "f32[2, 2]" = torch.ops.aten.mul.Tensor(x, y)
        adds: "f32[2]" = torch.ops.aten.add.Scalar(i, 0.5)
        div: "f32[2]" = torch.ops.aten.div.Tensor(i, j)
        fdiv: "i64[2]" = torch.ops.aten.div.Tensor_mode(i, j, rounding_mode = 'floor')
        tdiv: "i64[2]" = torch.ops.aten.div.Tensor_mode(i, j, rounding_mode = 'trunc')
        pw: "f32[2]" = torch.ops.aten.pow.Tensor_Scalar(y, 2)
        return (add, sub, mul, adds, div, fdiv, tdiv, pw)
)FX");
  // x = [[1,2],[3,4]], y = [10,20] broadcast over rows.
  RunResult r = run(g, {f32({2, 2}, {1, 2, 3, 4}), f32({2}, {10, 20}),
                        Tensor::from_ints(DType::Int64, {2}, std::vector<int64_t>{-7, 7}),
                        Tensor::from_ints(DType::Int64, {2}, std::vector<int64_t>{2, 2})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{21, 42, 23, 44}));  // x + 2y
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{-9, -18, -7, -16}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{10, 40, 30, 80}));
  // int64 tensor + Python float -> float32 (torch promotion).
  EXPECT_EQ(r.outputs[3].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{-6.5, 7.5}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{-3.5, 3.5}));  // true division
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{-4, 3}));     // floor(-3.5) = -4
  EXPECT_EQ(ints(r.outputs[6]), (std::vector<int64_t>{-3, 3}));     // trunc(-3.5) = -3
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{100, 400}));
}

TEST(Kernels, LowPrecisionRoundsOnceAtTheOpBoundary) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "bf16[2]", b: "bf16[2]", c: "f16[1]", d: "f16[1]"):
        add: "bf16[2]" = torch.ops.aten.add.Tensor(a, b)
        mixed: "f32[2]" = torch.ops.aten.add.Tensor(a, c)
        h: "f16[1]" = torch.ops.aten.add.Tensor(c, d)
        return (add, mixed, h)
)FX");
  double tiny = std::ldexp(1.0, -8);  // exact in bf16
  RunResult r = run(
      g, {tensor(DType::BFloat16, {2}, {1.0, 1.0}), tensor(DType::BFloat16, {2}, {tiny, 3 * tiny}),
          tensor(DType::Float16, {1}, {1.0}), tensor(DType::Float16, {1}, {std::ldexp(1.0, -11)})});
  // 1 + 2^-8 is a bf16 tie -> 1 (even); 1 + 3*2^-8 is a tie -> 1 + 2^-6.
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1.0, 1.0 + std::ldexp(1.0, -6)}));
  // bf16 + fp16 promotes to fp32: exact sum 1 + 1 = 2 and 1 + 1 = 2 (broadcast c).
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{2.0, 2.0}));
  // fp16: 1 + 2^-11 is a tie -> 1.
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1.0}));
}

// torch.floor/ceil/trunc/round on floats (round: half to even) and on
// integers, where they return the tensor unchanged.
TEST(Kernels, RoundingOps) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[6]", i: "i64[2]"):
        floor: "f32[6]" = torch.ops.aten.floor.default(x)
        ceil: "f32[6]" = torch.ops.aten.ceil.default(x)
        trunc: "f32[6]" = torch.ops.aten.trunc.default(x)
        round_1: "f32[6]" = torch.ops.aten.round.default(x)
        round_2: "i64[2]" = torch.ops.aten.round.default(i)
        floor_1: "i64[2]" = torch.ops.aten.floor.default(i)
        return (floor, ceil, trunc, round_1, round_2, floor_1)
)FX");
  RunResult r = run(g, {f32({6}, {-1.5, -0.5, 0.5, 1.5, 2.5, 2.7}),
                        Tensor::from_ints(DType::Int64, {2}, std::vector<int64_t>{-3, 7})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{-2, -1, 0, 1, 2, 2}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{-1, -0.0, 1, 2, 3, 3}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{-1, -0.0, 0, 1, 2, 2}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{-2, -0.0, 0, 2, 2, 3}));
  EXPECT_EQ(r.outputs[4].tensor().dtype(), DType::Int64);
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{-3, 7}));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{-3, 7}));
}

TEST(Kernels, UnaryActivations) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2]", p: "f32[2]"):
        neg: "f32[2]" = torch.ops.aten.neg.default(x)
        relu: "f32[2]" = torch.ops.aten.relu.default(x)
        silu: "f32[2]" = torch.ops.aten.silu.default(x)
        sig: "f32[2]" = torch.ops.aten.sigmoid.default(x)
        gelu: "f32[2]" = torch.ops.aten.gelu.default(x)
        gelu_t: "f32[2]" = torch.ops.aten.gelu.default(x, approximate = 'tanh')
        tanh: "f32[2]" = torch.ops.aten.tanh.default(x)
        rsqrt: "f32[2]" = torch.ops.aten.rsqrt.default(p)
        sqrt: "f32[2]" = torch.ops.aten.sqrt.default(p)
        exp: "f32[2]" = torch.ops.aten.exp.default(x)
        return (neg, relu, silu, sig, gelu, gelu_t, tanh, rsqrt, sqrt, exp)
)FX");
  RunResult r = run(g, {f32({2}, {-1, 1}), f32({2}, {4, 0.25})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, -1}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{0, 1}));
  // silu(x) = x * sigmoid(x); sigmoid(1) = 1/(1+e^-1) = 0.7310585786.
  expect_near(vals(r.outputs[2]), {-0.2689414214, 0.7310585786});
  expect_near(vals(r.outputs[3]), {0.2689414214, 0.7310585786});
  // gelu(1) = 0.5 * (1 + erf(1/sqrt 2)) = 0.8413447461; gelu(-1) = -0.1586552539.
  expect_near(vals(r.outputs[4]), {-0.1586552539, 0.8413447461});
  // tanh approx: 0.5 * (1 + tanh(0.7978845608 * 1.044715)) = 0.8411919906.
  expect_near(vals(r.outputs[5]), {-0.1588080094, 0.8411919906});
  expect_near(vals(r.outputs[6]), {-0.7615941560, 0.7615941560});
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{0.5, 2}));
  EXPECT_EQ(vals(r.outputs[8]), (std::vector<double>{2, 0.5}));
  expect_near(vals(r.outputs[9]), {0.3678794412, 2.7182818285});
}

// log1p and expm1 (seen in real model graphs): accurate near 0, where
// log(1 + x) and exp(x) - 1 lose the small term.
TEST(Kernels, Log1pAndExpm1) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]"):
        l: "f32[3]" = torch.ops.aten.log1p.default(x)
        e: "f32[3]" = torch.ops.aten.expm1.default(x)
        back: "f32[3]" = torch.ops.aten.expm1.default(l)
        return (l, e, back)
)FX");
  RunResult r = run(g, {f32({3}, {0, 1, 1e-7})});
  // log1p(1) = ln 2; expm1(1) = e - 1; at 1e-7 both are 1e-7 to within 5e-15.
  expect_near(vals(r.outputs[0]), {0, 0.6931471806, 9.9999995e-8});
  expect_near(vals(r.outputs[1]), {0, 1.7182818285, 1.00000005e-7});
  expect_near(vals(r.outputs[2]), {0, 1, 1e-7});
  EXPECT_EQ(g.node(g.output_values()[0]).type.tensor.dtype, DType::Float32);
}

TEST(Kernels, ReductionsAndSoftmax) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]", b: "b8[3]", s: "f32[2]"):
        mean: "f32[2, 1]" = torch.ops.aten.mean.dim(x, [1], True)
        sum_1: "f32[2]" = torch.ops.aten.sum.dim_IntList(x, [0])
        sum_all: "f32[]" = torch.ops.aten.sum.default(x)
        sum_b: "i64[]" = torch.ops.aten.sum.default(b)
        amax: "f32[2]" = torch.ops.aten.amax.default(x, [-1])
        sm: "f32[2]" = torch.ops.aten._softmax.default(s, -1, False)
        return (mean, sum_1, sum_all, sum_b, amax, sm)
)FX");
  // x = [[1,2],[3,5]]; softmax([0, ln 3]) = [1/4, 3/4].
  RunResult r = run(g, {f32({2, 2}, {1, 2, 3, 5}), tensor(DType::Bool, {3}, {1, 0, 1}),
                        f32({2}, {0, std::log(3.0)})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1.5, 4}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{4, 7}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{11}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{2}));  // bool sum -> int64
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{2, 5}));
  expect_near(vals(r.outputs[5]), {0.25, 0.75});
}

TEST(Kernels, LayoutOpsAreViewsOrCopiesLikeTorch) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        t: "f32[3, 2]" = torch.ops.aten.transpose.int(x, 0, 1)
        c: "f32[3, 2]" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format)
        v: "f32[6]" = torch.ops.aten.view.default(c, [6])
        sl: "f32[2, 2]" = torch.ops.aten.slice.Tensor(x, 1, 1, 9223372036854775807)
        se: "f32[3]" = torch.ops.aten.select.int(x, 0, 1)
        cat: "f32[4, 3]" = torch.ops.aten.cat.default([x, x])
        sp = torch.ops.aten.split.Tensor(x, 2, 1)
        sp0: "f32[2, 2]" = sp[0]
        sp1: "f32[2, 1]" = sp[1]
        sws = torch.ops.aten.split_with_sizes.default(x, [1, 1])
        sws1: "f32[1, 3]" = sws[1]
        un: "f32[1, 3]" = torch.ops.aten.unsqueeze.default(se, 0)
        ex: "f32[2, 3]" = torch.ops.aten.expand.default(un, [2, -1])
        sq: "f32[3]" = torch.ops.aten.squeeze.dim(un, 0)
        pm: "f32[3, 2]" = torch.ops.aten.permute.default(x, [1, 0])
        tt: "f32[3, 2]" = torch.ops.aten.t.default(x)
        fl: "f32[6]" = torch.ops.aten.flatten.using_ints(x)
        rs: "f32[3, 2]" = torch.ops.aten.reshape.default(x, [-1, 2])
        ct: "f32[3, 2]" = torch.ops.aten.contiguous.default(pm)
        return (v, sl, se, cat, sp0, sp1, sws1, ex, sq, pm, tt, fl, rs, ct)
)FX");
  // x = [[0,1,2],[3,4,5]]
  RunResult r = run(g, {f32({2, 3}, {0, 1, 2, 3, 4, 5})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 2, 4, 5}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{0, 1, 3, 4}));
  EXPECT_EQ(vals(r.outputs[5]), (std::vector<double>{2, 5}));
  EXPECT_EQ(vals(r.outputs[6]), (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{3, 4, 5, 3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[8]), (std::vector<double>{3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[9]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(vals(r.outputs[10]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(vals(r.outputs[11]), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[12]), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(vals(r.outputs[13]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  // Views share the input's storage (the interpreter's own copy of x);
  // clone/cat/contiguous-of-a-permute do not.
  const Tensor& sl = r.outputs[1].tensor();
  EXPECT_TRUE(sl.shares_storage(r.outputs[2].tensor()));
  EXPECT_TRUE(sl.shares_storage(r.outputs[9].tensor()));
  EXPECT_FALSE(sl.shares_storage(r.outputs[0].tensor()));
  EXPECT_FALSE(sl.shares_storage(r.outputs[3].tensor()));
  EXPECT_FALSE(sl.shares_storage(r.outputs[13].tensor()));
}

TEST(Kernels, ViewOfNonContiguousIsAnErrorNamingTheNode) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        t: "f32[3, 2]" = torch.ops.aten.transpose.int(x, 0, 1)
        bad: "f32[6]" = torch.ops.aten.view.default(t, [6])
        return (bad,)
)FX");
  try {
    run(g, {f32({2, 3}, {0, 1, 2, 3, 4, 5})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'bad'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("reshape"), std::string::npos) << e.what();
    EXPECT_TRUE(e.loc().known());
  }
}

TEST(Kernels, MatmulFamily) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[2, 2]", b: "f32[2, 2]", bias: "f32[2]", w: "f32[3, 2]", wb: "f32[3]", v: "f32[2]"):
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(a, b)
        a3: "f32[1, 2, 2]" = torch.ops.aten.unsqueeze.default(a, 0)
        b3: "f32[1, 2, 2]" = torch.ops.aten.unsqueeze.default(b, 0)
        bmm: "f32[1, 2, 2]" = torch.ops.aten.bmm.default(a3, b3)
        dot: "f32[]" = torch.ops.aten.matmul.default(v, v)
        mv: "f32[2]" = torch.ops.aten.matmul.default(a, v)
        addmm: "f32[2, 2]" = torch.ops.aten.addmm.default(bias, a, b, alpha = 2)
        lin: "f32[2, 3]" = torch.ops.aten.linear.default(a, w, wb)
        return (mm, bmm, dot, mv, addmm, lin)
)FX");
  // a = [[1,2],[3,4]], b = [[5,6],[7,8]]: a@b = [[19,22],[43,50]].
  RunResult r = run(g, {f32({2, 2}, {1, 2, 3, 4}), f32({2, 2}, {5, 6, 7, 8}), f32({2}, {1, 1}),
                        f32({3, 2}, {1, 0, 0, 1, 1, 1}), f32({3}, {0, 0, 1}), f32({2}, {1, 2})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{19, 22, 43, 50}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{19, 22, 43, 50}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{5}));                // 1 + 4
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{5, 11}));            // [1+4, 3+8]
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{39, 45, 87, 101}));  // 1 + 2*(a@b)
  // x @ w^T + wb: rows [1,2] -> [1, 2, 3+1], [3,4] -> [3, 4, 7+1].
  EXPECT_EQ(vals(r.outputs[5]), (std::vector<double>{1, 2, 4, 3, 4, 8}));
}

TEST(Kernels, CastsCopiesCreationEmbedding) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]", w: "f32[3, 2]", idx: "i64[2]"):
        bf: "bf16[3]" = torch.ops.aten._to_copy.default(x, dtype = torch.bfloat16)
        i8: "i8[3]" = torch.ops.prims.convert_element_type.default(x, torch.int8)
        h: "f16[3]" = torch.ops.npu._npu_dtype_cast.default(x, 5)
        same: "f32[3]" = torch.ops.aten.to.dtype(x, torch.float32)
        full: "f32[2]" = torch.ops.aten.full.default([2], 1.5)
        fi: "i64[2]" = torch.ops.aten.full.default([2], 7)
        z: "bf16[2, 1]" = torch.ops.aten.zeros.default([2, 1], dtype = torch.bfloat16)
        o: "f32[2]" = torch.ops.aten.ones.default([2])
        emb: "f32[2, 2]" = torch.ops.aten.embedding.default(w, idx)
        return (bf, i8, h, same, full, fi, z, o, emb)
)FX");
  // x = [1 + 2^-8 (bf16 tie -> 1), 200.7 (int8: trunc 200, wraps to -56), -2.7 (-> -2)].
  RunResult r = run(g, {f32({3}, {1.00390625, 200.7, -2.7}), f32({3, 2}, {0, 1, 2, 3, 4, 5}),
                        Tensor::from_ints(DType::Int64, {2}, std::vector<int64_t>{2, 0})});
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::BFloat16);
  EXPECT_EQ(vals(r.outputs[0])[0], 1.0);
  EXPECT_EQ(vals(r.outputs[0])[1], 201.0);  // bf16 spacing is 1 in [128, 256): 200.7 -> 201
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, -56, -2}));
  EXPECT_EQ(r.outputs[2].tensor().dtype(), DType::Float16);
  EXPECT_EQ(vals(r.outputs[2]),
            (std::vector<double>{1.00390625, 200.75, -2.69921875}));  // fp16 RNE
  EXPECT_EQ(vals(r.outputs[3])[1], static_cast<double>(200.7f));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{1.5, 1.5}));
  EXPECT_EQ(r.outputs[5].tensor().dtype(), DType::Int64);
  EXPECT_EQ(vals(r.outputs[6]), (std::vector<double>{0, 0}));
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{1, 1}));
  EXPECT_EQ(vals(r.outputs[8]), (std::vector<double>{4, 5, 0, 1}));  // rows 2 and 0
}

}  // namespace
}  // namespace eqfuse
