// ctest-label: numeric
// torch_npu kernels (docs/reference/torchair-passes.md §7) against hand-computed values.
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

// Outputs 0 and 1 of `g` (a fused op and the chain it replaces) agree exactly under
// reference numerics (round_like_unfused); with `device_differs`, the device numerics
// tell them apart on these inputs.
void expect_same_under_reference(const Graph& g, const std::vector<RuntimeValue>& in,
                                 bool device_differs) {
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  EXPECT_EQ(vals(same.outputs[0]), vals(same.outputs[1]));
  if (!device_differs) return;
  RunResult device = run(g, in);
  EXPECT_NE(vals(device.outputs[0]), vals(device.outputs[1]));
}

TEST(NpuKernels, AddRmsNormAndRmsNorm) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f32[1, 2]", x2: "f32[1, 2]", gamma: "f32[2]"):
        r = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, 0.0)
        y: "f32[1, 2]" = r[0]
        rstd: "f32[1, 1]" = r[1]
        x: "f32[1, 2]" = r[2]
        n = torch.ops.npu.npu_rms_norm.default(x, gamma, epsilon = 0.0)
        ny: "f32[1, 2]" = n[0]
        return (y, rstd, x, ny)
)FX");
  // x = [1,2] + [2,2] = [3,4]; mean(x^2) = 12.5; rstd = 1/sqrt(12.5) = 0.2828427125;
  // y = x * rstd * gamma with gamma [1, 2] = [0.8485281374, 2.2627416998].
  RunResult r = run(g, {f32({1, 2}, {1, 2}), f32({1, 2}, {2, 2}), f32({2}, {1, 2})});
  expect_near(vals(r.outputs[0]), {0.8485281374, 2.2627416998});
  EXPECT_EQ(r.outputs[1].tensor().shape(), (Dims{1, 1}));
  expect_near(vals(r.outputs[1]), {0.2828427125});
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{3, 4}));
  expect_near(vals(r.outputs[3]), {0.8485281374, 2.2627416998});
}

// The device normalizes the fp32 sum x1 + x2; an unfused add stores it in
// bf16 first. Under reference numerics the fused kernel does the same, so
// `add` + npu_rms_norm and npu_add_rms_norm agree exactly.
TEST(NpuKernels, AddRmsNormNormalizesTheStoredSumUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[1, 2]", x2: "bf16[1, 2]", gamma: "bf16[2]"):
        r = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, 0.0)
        y: "bf16[1, 2]" = r[0]
        add: "bf16[1, 2]" = torch.ops.aten.add.Tensor(x1, x2)
        n = torch.ops.npu.npu_rms_norm.default(add, gamma, epsilon = 0.0)
        ny: "bf16[1, 2]" = n[0]
        return (y, ny)
)FX");
  // 1 + 2^-8 lies halfway between two bf16 values: the stored sum is 1 (ties to even).
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {1, 2}, {1, 3}),
                               tensor(DType::BFloat16, {1, 2}, {0.00390625, 0}),
                               tensor(DType::BFloat16, {2}, {1, 1})};
  expect_same_under_reference(g, in, true);
}

TEST(NpuKernels, DynamicQuantPerTokenRoundsHalfToEven) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[2, 4]", s: "f16[4]"):
        q = torch.ops.npu.npu_dynamic_quant.default(x)
        y: "i8[2, 4]" = q[0]
        scale: "f32[2]" = q[1]
        qs = torch.ops.npu.npu_dynamic_quant.default(x, smooth_scales = s)
        ys: "i8[2, 4]" = qs[0]
        return (y, scale, ys)
)FX");
  // Row 0: max|x| = 127 -> scale 1; q = rne([127, 2.5, -3.5, 0.5]) = [127, 2, -4, 0].
  // Row 1: max|x| = 254 -> scale 2; q = rne([-127, 0.5, 1.5, 2]) = [-127, 0, 2, 2].
  // Smooth [1, 2, 1, 1]: row 0 -> [127, 5, -3.5, 0.5] -> scale 1 -> [127, 5, -4, 0];
  // row 1 -> [-254, 2, 3, 4] -> scale 2 -> [-127, 1, 2 (1.5 -> 2), 2].
  RunResult r = run(g, {tensor(DType::Float16, {2, 4}, {127, 2.5, -3.5, 0.5, -254, 1, 3, 4}),
                        tensor(DType::Float16, {4}, {1, 2, 1, 1})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{127, 2, -4, 0, -127, 0, 2, 2}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 2}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{127, 5, -4, 0, -127, 1, 2, 2}));
}

TEST(NpuKernels, QuantizeDivModeZeroPointsAndDtypes) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[1, 3]", s: "f32[1]", zp: "i32[1]"):
        q: "i8[1, 3]" = torch.ops.npu.npu_quantize.default(x, s, None, 1, -1)
        qz: "i8[1, 3]" = torch.ops.npu.npu_quantize.default(x, s, zp, 12, -1)
        qm: "i8[1, 3]" = torch.ops.npu.npu_quantize.default(x, s, None, 1, -1, False)
        qu: "u8[1, 3]" = torch.ops.npu.npu_quantize.default(x, s, None, 13, -1)
        return (q, qz, qm, qu)
)FX");
  // x = [1.25, -0.75, 100], scale 0.5, div_mode: x/s = [2.5, -1.5, 200] -> rne [2, -2, 127
  // (clamped)]. zp 1: [3.5, -0.5, 201] -> [4, 0, 127]. div_mode False: x*s = [0.625, -0.375, 50] ->
  // [1, 0, 50]. uint8: [2, 0 (clamped from -2), 200].
  RunResult r = run(g, {f32({1, 3}, {1.25, -0.75, 100}), f32({1}, {0.5}),
                        Tensor::from_ints(DType::Int32, {1}, std::vector<int64_t>{1})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{2, -2, 127}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{4, 0, 127}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{1, 0, 50}));
  EXPECT_EQ(r.outputs[3].tensor().dtype(), DType::UInt8);
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{2, 0, 200}));
}

TEST(NpuKernels, AddRmsNormDynamicQuantFromItsDefinition) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[1, 2]", x2: "f16[1, 2]", gamma: "f16[2]", s1: "f16[2]", s2: "f16[2]"):
        f = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, gamma, smooth_scale1 = s1, smooth_scale2 = s2, epsilon = 0.0)
        y1: "i8[1, 2]" = f[0]
        y2: "i8[1, 2]" = f[1]
        x: "f16[1, 2]" = f[2]
        sc1: "f32[1]" = f[3]
        sc2: "f32[1]" = f[4]
        m = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, gamma, smooth_scale1 = s1, epsilon = 0.0, output_mask = [True, False])
        my2: "i8[0]" = m[1]
        msc2: "f32[0]" = m[4]
        return (y1, y2, x, sc1, sc2, my2, msc2)
)FX");
  // x = [1,1] + [0,-2] = [1,-1]; mean(x^2) = 1 -> rstd 1; y = x*gamma = [1, -0.5] with gamma [1,
  // 0.5]. smooth1 [1,1]: scale1 = 1/127; y1 = rne([127, -63.5]) = [127, -64] (tie -> even). smooth2
  // [2,2]: [2, -1] -> scale2 = 2/127; y2 = [127, -64].
  RunResult r =
      run(g, {tensor(DType::Float16, {1, 2}, {1, 1}), tensor(DType::Float16, {1, 2}, {0, -2}),
              tensor(DType::Float16, {2}, {1, 0.5}), tensor(DType::Float16, {2}, {1, 1}),
              tensor(DType::Float16, {2}, {2, 2})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{127, -64}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{127, -64}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1, -1}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{static_cast<double>(1.0f / 127.0f)}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{static_cast<double>(2.0f / 127.0f)}));
  // Masked-off outputs are empty (shape (0,)).
  EXPECT_EQ(r.outputs[5].tensor().shape(), (Dims{0}));
  EXPECT_EQ(r.outputs[6].tensor().shape(), (Dims{0}));
}

TEST(NpuKernels, AddRmsNormCastAndQuant) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[1, 2]", x2: "bf16[1, 2]", gamma: "bf16[2]", s: "f32[2]", zp: "i32[2]"):
        c = torch.ops.npu.npu_add_rms_norm_cast.default(x1, x2, gamma, 0.0)
        yf: "f32[1, 2]" = c[0]
        y: "bf16[1, 2]" = c[1]
        q = torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, gamma, s, None, epsilon = 0.0)
        q1: "i8[1, 2]" = q[0]
        qz = torch.ops.npu.npu_add_rms_norm_quant.default(x1, x2, gamma, s, zp, epsilon = 0.0)
        qz1: "i8[1, 2]" = qz[0]
        qx: "bf16[1, 2]" = qz[2]
        return (yf, y, q1, qz1, qx)
)FX");
  // x = [1,-1], rstd = 1, gamma [1, 0.3] -> y = [1, -0.3]; bf16(-0.3) = -0.30078125.
  // y_fp32 = float32(y) = [1, -0.30078125]. Quant with scales 0.25: y/0.25 = [4, -1.2] -> [4, -1];
  // zero points 1: [5, -0.2] -> [5, 0].
  RunResult r =
      run(g, {tensor(DType::BFloat16, {1, 2}, {1, 1}), tensor(DType::BFloat16, {1, 2}, {0, -2}),
              tensor(DType::BFloat16, {2}, {1, 0.30078125}), f32({2}, {0.25, 0.25}),
              Tensor::from_ints(DType::Int32, {2}, std::vector<int64_t>{1, 1})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, -0.30078125}));
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, -0.30078125}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{4, -1}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{5, 0}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{1, -1}));
}

// vllm-ascend's _C_ascend.npu_add_rms_norm_bias and vllm.quantize by hand.
TEST(NpuKernels, AddRmsNormBiasAndVllmQuantize) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[1, 2]", x2: "bf16[1, 2]", gamma: "bf16[2]", beta: "bf16[2]", s: "bf16[2]", r: "bf16[2]", o: "bf16[2]", big: "bf16[2]"):
        n = torch.ops._C_ascend.npu_add_rms_norm_bias.default(x1, x2, gamma, beta, 0.0)
        y: "bf16[1, 2]" = n[0]
        rstd: "f32[1, 1]" = n[1]
        x: "bf16[1, 2]" = n[2]
        m = torch.ops._C_ascend.npu_add_rms_norm_bias.default(x1, x2, gamma, None, 0.0)
        y0: "bf16[1, 2]" = m[0]
        q: "i8[1, 2]" = torch.ops.vllm.quantize.default(y, s, r, o)
        sat: "i8[1, 2]" = torch.ops.vllm.quantize.default(y, s, big, o)
        return (y, rstd, x, y0, q, sat)
)FX");
  // x = [1, -1], rstd = 1 (eps 0); y = x * gamma [1, 0.5] + beta [0.25, -0.5] = [1.25, -1];
  // without beta y = [1, -0.5]. quantize reads the reciprocal scale, not s:
  // [1.25 * 2 + 0.5, -1 * 2.5 + 1] = [3, -1.5] -> [3, -2] (half to even);
  // with 200: [250.5, -199] saturates to [127, -128].
  RunResult res =
      run(g, {tensor(DType::BFloat16, {1, 2}, {1, 1}), tensor(DType::BFloat16, {1, 2}, {0, -2}),
              tensor(DType::BFloat16, {2}, {1, 0.5}), tensor(DType::BFloat16, {2}, {0.25, -0.5}),
              tensor(DType::BFloat16, {2}, {100, 100}), tensor(DType::BFloat16, {2}, {2, 2.5}),
              tensor(DType::BFloat16, {2}, {0.5, 1}), tensor(DType::BFloat16, {2}, {200, 200})});
  EXPECT_EQ(vals(res.outputs[0]), (std::vector<double>{1.25, -1}));
  EXPECT_EQ(res.outputs[1].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(res.outputs[1]), (std::vector<double>{1}));
  EXPECT_EQ(vals(res.outputs[2]), (std::vector<double>{1, -1}));
  EXPECT_EQ(vals(res.outputs[3]), (std::vector<double>{1, -0.5}));
  EXPECT_EQ(res.outputs[4].tensor().dtype(), DType::Int8);
  EXPECT_EQ(ints(res.outputs[4]), (std::vector<int64_t>{3, -2}));
  EXPECT_EQ(ints(res.outputs[5]), (std::vector<int64_t>{127, -128}));
}

// npu_add_rms_norm_bias -> npu_dynamic_quant equals npu_add_rms_norm_dynamic_quant
// with beta under reference numerics (y stored in bf16 before quantizing); the
// device quantizes the unrounded y. 1 * 1 + 2^-8 is a bf16 tie: the chain's y[0]
// is 1, and so is the fused op's under reference numerics.
TEST(NpuKernels, AddRmsNormBiasDynamicQuantMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[1, 4]", x2: "bf16[1, 4]", gamma: "bf16[4]", beta: "bf16[4]"):
        n = torch.ops._C_ascend.npu_add_rms_norm_bias.default(x1, x2, gamma, beta, 0.0)
        y: "bf16[1, 4]" = n[0]
        x: "bf16[1, 4]" = n[2]
        d = torch.ops.npu.npu_dynamic_quant.default(y)
        q: "i8[1, 4]" = d[0]
        s: "f32[1]" = d[1]
        f = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, gamma, epsilon = 0.0, output_mask = [True, False], beta = beta)
        fq: "i8[1, 4]" = f[0]
        fx: "bf16[1, 4]" = f[2]
        fs: "f32[1]" = f[3]
        return (q, s, x, fq, fs, fx)
)FX");
  // x = [1, -1, 1, -1]: rstd 1, y = x * [1, 1, 1, 3] + [2^-8, 0, 0, 0] = [1 + 2^-8, -1, 1, -3].
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {1, 4}, {1, -1, 1, -1}),
                               tensor(DType::BFloat16, {1, 4}, {0, 0, 0, 0}),
                               tensor(DType::BFloat16, {4}, {1, 1, 1, 3}),
                               tensor(DType::BFloat16, {4}, {0.00390625, 0, 0, 0})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(vals(same.outputs[i]), vals(same.outputs[i + 3])) << i;
  // y = [1, -1, 1, -3] / (3 / 127) = [42.33, -42.33, 42.33, -127] -> [42, -42, 42, -127].
  EXPECT_EQ(ints(same.outputs[3]), (std::vector<int64_t>{42, -42, 42, -127}));
  EXPECT_EQ(vals(same.outputs[5]), (std::vector<double>{1, -1, 1, -1}));
}

TEST(NpuKernels, TransposeBatchMatmulSwigluQuantMatmul) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[2, 1, 2]", w: "f32[1, 2, 1]", s: "f32[1, 4]", x1: "i8[1, 2]", x2: "i8[2, 1]", qs: "f32[1]", qsi: "i64[1]", pt: "f32[1]", off: "f32[1]"):
        tb: "f32[2, 1, 1]" = torch.ops.npu.npu_transpose_batchmatmul.default(a, w, perm_x1 = [1, 0, 2])
        sw: "f32[1, 2]" = torch.ops.npu.npu_swiglu.default(s)
        qbf: "bf16[1, 1]" = torch.ops.npu.npu_quant_matmul.default(x1, x2, qs, output_dtype = 15)
        qi8: "i8[1, 1]" = torch.ops.npu.npu_quant_matmul.default(x1, x2, qs, offset = off)
        qpt: "f16[1, 1]" = torch.ops.npu.npu_quant_matmul.default(x1, x2, qsi, pertoken_scale = pt, output_dtype = 5)
        return (tb, sw, qbf, qi8, qpt)
)FX");
  // a (M=2,B=1,K=2) = [[[1,2]],[[3,4]]] permuted to (1,2,2); w = [[[1],[1]]]: row sums [3, 7];
  // output permuted by [1,0,2] -> (2,1,1) = [3, 7].
  // swiglu([1,2,3,4]): silu(1)*3 = 2.1931757358, silu(2)*4 = 7.0463766236.
  // quant matmul: [1,2]@[[3],[4]] = 11; * 0.5 = 5.5 (bf16 exact); int8 with offset 0.5: 6;
  // int64 scale carrying fp32 bits of 0.5, pertoken 2: 11 * 0.5 * 2 = 11.
  int64_t half_bits = static_cast<int64_t>(std::bit_cast<uint32_t>(0.5f));
  RunResult r =
      run(g, {f32({2, 1, 2}, {1, 2, 3, 4}), f32({1, 2, 1}, {1, 1}), f32({1, 4}, {1, 2, 3, 4}),
              Tensor::from_ints(DType::Int8, {1, 2}, std::vector<int64_t>{1, 2}),
              Tensor::from_ints(DType::Int8, {2, 1}, std::vector<int64_t>{3, 4}), f32({1}, {0.5}),
              Tensor::from_ints(DType::Int64, {1}, std::vector<int64_t>{half_bits}), f32({1}, {2}),
              f32({1}, {0.5})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{3, 7}));
  expect_near(vals(r.outputs[1]), {2.1931757358, 7.0463766236}, 1e-6);
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{5.5}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{6}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{11}));
}

// A float bias: the device adds it before its one bf16 rounding; reference
// numerics round the product first, as npu_quant_matmul + aten.add does.
TEST(NpuKernels, QuantMatmulFloatBiasRoundsLikeTheChainUnderReference) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "i8[1, 2]", x2: "i8[2, 1]", qs: "f32[1]", bias: "bf16[1]"):
        fused: "bf16[1, 1]" = torch.ops.npu.npu_quant_matmul.default(x1, x2, qs, bias = bias, output_dtype = 15)
        mm: "bf16[1, 1]" = torch.ops.npu.npu_quant_matmul.default(x1, x2, qs, output_dtype = 15)
        chain: "bf16[1, 1]" = torch.ops.aten.add.Tensor(mm, bias)
        return (fused, chain)
)FX");
  // [1, 2] @ [[3], [4]] = 11; * 0.35546875 = 3.91015625, between the bf16 neighbours
  // 3.90625 and 3.921875 (step 2^-6). Device: 3.91015625 + 2^-7 = 3.91796875 -> 3.921875.
  // Chain: bf16(3.91015625) = 3.90625; + 2^-7 = 3.9140625, a tie -> even 3.90625.
  std::vector<RuntimeValue> in{Tensor::from_ints(DType::Int8, {1, 2}, std::vector<int64_t>{1, 2}),
                               Tensor::from_ints(DType::Int8, {2, 1}, std::vector<int64_t>{3, 4}),
                               f32({1}, {0.35546875}), tensor(DType::BFloat16, {1}, {0.0078125})};
  RunResult device = run(g, in);
  EXPECT_EQ(vals(device.outputs[0]), (std::vector<double>{3.921875}));
  EXPECT_EQ(vals(device.outputs[1]), (std::vector<double>{3.90625}));
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  EXPECT_EQ(vals(same.outputs[0]), (std::vector<double>{3.90625}));
  EXPECT_EQ(vals(same.outputs[1]), (std::vector<double>{3.90625}));
}

TEST(NpuKernels, AddRmsNormV2MutatesItsInputs) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f32[1, 2]", x2: "f32[1, 2]", gamma: "f32[2]"):
        rstd: "f32[1, 1]" = torch.ops.npu.npu_add_rms_norm_v2.default(x1, x2, gamma, 0.0)
        return (rstd,)
)FX");
  // x1 <- y = [0.8485281374, 2.2627416998] (see AddRmsNorm), x2 <- x = [3, 4].
  RunResult r = run(g, {f32({1, 2}, {1, 2}), f32({1, 2}, {2, 2}), f32({2}, {1, 2})});
  expect_near(vals(r.outputs[0]), {0.2828427125});
  ASSERT_EQ(r.mutated_inputs.size(), 2u);
  EXPECT_EQ(r.mutated_inputs[0].first, 0u);
  expect_near(r.mutated_inputs[0].second.values(), {0.8485281374, 2.2627416998});
  EXPECT_EQ(r.mutated_inputs[1].first, 1u);
  EXPECT_EQ(r.mutated_inputs[1].second.values(), (std::vector<double>{3, 4}));
}

TEST(NpuKernels, AddLayerNormByHand) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f32[2, 4]", x2: "f32[2, 4]", gamma: "f32[4]", beta: "f32[4]"):
        r = torch.ops.npu.npu_add_layer_norm.default(x1, x2, gamma, beta, 0.0, True)
        y: "f32[2, 4]" = r[0]
        mean: "f32[2, 1]" = r[1]
        rstd: "f32[2, 1]" = r[2]
        x: "f32[2, 4]" = r[3]
        n = torch.ops.npu.npu_add_layer_norm.default(x1, x2, gamma, beta, 0.0)
        nx: "f32[2, 4]" = n[3]
        return (y, mean, rstd, x, nx)
)FX");
  // Row 0: x = [1,2,3,4] + [1,0,1,0] = [2,2,4,4]; mean 3, var 1, rstd 1;
  //   y = [-1,-1,1,1] * gamma [1,2,1,0.5] + beta [0,1,0,-1] = [-1, -1, 1, -0.5].
  // Row 1: x = [0,0,0,4]; mean 1, var (1+1+1+9)/4 = 3, rstd = 1/sqrt(3) = 0.5773502692;
  //   y = [-r, -2r + 1, -r, 3r/2 - 1] = [-0.5773502692, -0.1547005384, -0.5773502692,
  //   -0.1339745962].
  RunResult r =
      run(g, {f32({2, 4}, {1, 2, 3, 4, 0, 0, 0, 4}), f32({2, 4}, {1, 0, 1, 0, 0, 0, 0, 0}),
              f32({4}, {1, 2, 1, 0.5}), f32({4}, {0, 1, 0, -1})});
  expect_near(vals(r.outputs[0]),
              {-1, -1, 1, -0.5, -0.5773502692, -0.1547005384, -0.5773502692, -0.1339745962});
  EXPECT_EQ(r.outputs[1].tensor().shape(), (Dims{2, 1}));
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{3, 1}));
  expect_near(vals(r.outputs[2]), {1, 0.5773502692});
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{2, 2, 4, 4, 0, 0, 0, 4}));
  // additional_output=False: x is not written (zeros, as the interpreter's `empty`).
  EXPECT_EQ(vals(r.outputs[4]), std::vector<double>(8, 0.0));
}

// The device normalizes the fp32 sum; the unfused aten.add stores it in bf16
// first. Under reference numerics the fused kernel does the same, so add +
// native_layer_norm and npu_add_layer_norm agree exactly (y and x).
TEST(NpuKernels, AddLayerNormMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[1, 3]", x2: "bf16[1, 3]", gamma: "bf16[3]", beta: "bf16[3]"):
        add: "bf16[1, 3]" = torch.ops.aten.add.Tensor(x1, x2)
        ln = torch.ops.aten.native_layer_norm.default(add, [3], gamma, beta, 0.0)
        ln_y: "bf16[1, 3]" = ln[0]
        r = torch.ops.npu.npu_add_layer_norm.default(x1, x2, gamma, beta, 0.0, True)
        y: "bf16[1, 3]" = r[0]
        x: "bf16[1, 3]" = r[3]
        return (ln_y, add, y, x)
)FX");
  // 1 + 2^-8 lies halfway between two bf16 values: the stored sum is 1 (ties
  // to even), so the chain normalizes [1, 3, 2] (mean 2, rstd sqrt(1.5)) and
  // y = [-1.2247, 1.2247, 0] -> bf16 [-1.2265625, 1.2265625, 0]. The device's
  // mean is 2.0013 and its y[2] is not 0.
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {1, 3}, {1, 3, 2}),
                               tensor(DType::BFloat16, {1, 3}, {0.00390625, 0, 0}),
                               tensor(DType::BFloat16, {3}, {1, 1, 1}),
                               tensor(DType::BFloat16, {3}, {0, 0, 0})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  EXPECT_EQ(vals(same.outputs[0]), vals(same.outputs[2]));
  EXPECT_EQ(vals(same.outputs[2]), (std::vector<double>{-1.2265625, 1.2265625, 0}));
  EXPECT_EQ(vals(same.outputs[1]), vals(same.outputs[3]));
  RunResult device = run(g, in);
  EXPECT_NE(vals(device.outputs[2]), vals(device.outputs[0]));
  EXPECT_EQ(vals(device.outputs[3]), (std::vector<double>{1, 3, 2}));
}

// fp32: every output of the chain (y, mean, rstd, the add) equals the fused
// op's, bit for bit, under reference numerics.
TEST(NpuKernels, AddLayerNormStatsMatchNativeLayerNormInFp32) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f32[2, 5]", x2: "f32[2, 5]", gamma: "f32[5]", beta: "f32[5]"):
        add: "f32[2, 5]" = torch.ops.aten.add.Tensor(x1, x2)
        ln = torch.ops.aten.native_layer_norm.default(add, [5], gamma, beta, 1e-05)
        a: "f32[2, 5]" = ln[0]
        b: "f32[2, 1]" = ln[1]
        c: "f32[2, 1]" = ln[2]
        r = torch.ops.npu.npu_add_layer_norm.default(x1, x2, gamma, beta, 1e-05, True)
        y: "f32[2, 5]" = r[0]
        mean: "f32[2, 1]" = r[1]
        rstd: "f32[2, 1]" = r[2]
        x: "f32[2, 5]" = r[3]
        return (a, b, c, add, y, mean, rstd, x)
)FX");
  // 1 + 2^-24 ties to 1 in fp32: the stored sum, not the exact one, is normalized.
  std::vector<RuntimeValue> in{
      f32({2, 5}, {1, 0.1, -3.25, 7, 1e-3, -2, 0.5, 0.3, 11, -0.7}),
      f32({2, 5}, {5.9604644775390625e-08, 0.2, 1.5, -6.5, 4, 0.25, 0.125, -0.3, 1, 0.7}),
      f32({5}, {1, -0.5, 2, 0.25, 1.5}), f32({5}, {0.1, 0, -1, 0.5, 2})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult r = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(vals(r.outputs[i]), vals(r.outputs[i + 4])) << i;
}

// vllm.npu_rotary_embedding by hand: cos_sin_cache row 1 is [cos 0.5, 1 | sin 0.25, 0].
// neox pairs the halves: (1, 3) -> (1*0.5 - 3*0.25, 3*0.5 + 1*0.25) = (-0.25, 1.75) and
// (2, 4) -> (2, 4); GPT-J pairs neighbours: (1, 2) -> (0, 1.25), (3, 4) -> (3, 4).
// npu_rms_norm under reference numerics rounds like LlamaRMSNorm's eager chain (x * rstd
// stored in bf16, then times gamma), so the two agree exactly; the device keeps x * rstd
// in fp32 and rounds once, which moves some elements by a bf16 ulp.
TEST(NpuKernels, RmsNormRoundsLikeTheEagerChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[4, 32]", gamma: "bf16[32]"):
        up: "f32[4, 32]" = torch.ops.aten._to_copy.default(x, dtype = torch.float32)
        sq: "f32[4, 32]" = torch.ops.aten.pow.Tensor_Scalar(up, 2)
        mean: "f32[4, 1]" = torch.ops.aten.mean.dim(sq, [-1], True)
        add: "f32[4, 1]" = torch.ops.aten.add.Tensor(mean, 1e-06)
        rsqrt: "f32[4, 1]" = torch.ops.aten.rsqrt.default(add)
        normed: "f32[4, 32]" = torch.ops.aten.mul.Tensor(up, rsqrt)
        down: "bf16[4, 32]" = torch.ops.aten._to_copy.default(normed, dtype = torch.bfloat16)
        chain: "bf16[4, 32]" = torch.ops.aten.mul.Tensor(gamma, down)
        n = torch.ops.npu.npu_rms_norm.default(x, gamma, 1e-06)
        fused: "bf16[4, 32]" = n[0]
        return (chain, fused)
)FX");
  std::vector<double> x(128), gamma(32);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.7 * static_cast<double>(i)) * 3.1;
  for (size_t i = 0; i < gamma.size(); ++i) gamma[i] = 0.55 + 0.037 * static_cast<double>(i);
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {4, 32}, x),
                               tensor(DType::BFloat16, {32}, gamma)};
  expect_same_under_reference(g, in, true);
}

// npu_rms_norm_quant: x = [3, 4] has rstd 1/sqrt(12.5); y = x * rstd + beta =
// [1.3485, 0.6314]; round(y * 10 + 1) = [14, 7]. Under reference numerics it equals the
// npu_rms_norm + add + npu_quantize(div_mode=False) chain it replaces.
TEST(NpuKernels, RmsNormQuantByHandAndLikeTheChain) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[2, 2]", gamma: "f16[2]", beta: "f16[2]", s: "f16[1]", o: "i8[1]"):
        fused: "i8[2, 2]" = torch.ops.npu.npu_rms_norm_quant.default(x, gamma, beta, s, o, 0.0)
        n = torch.ops.npu.npu_rms_norm.default(x, gamma, 0.0)
        y: "f16[2, 2]" = n[0]
        add: "f16[2, 2]" = torch.ops.aten.add.Tensor(y, beta)
        chain: "i8[2, 2]" = torch.ops.npu.npu_quantize.default(add, s, o, 1, -1, False)
        return (fused, chain)
)FX");
  std::vector<RuntimeValue> in{tensor(DType::Float16, {2, 2}, {3, 4, -1.7, 0.3}),
                               tensor(DType::Float16, {2}, {1, 1}),
                               tensor(DType::Float16, {2}, {0.5, -0.5}),
                               tensor(DType::Float16, {1}, {10}), tensor(DType::Int8, {1}, {1})};
  RunResult device = run(g, in);
  EXPECT_EQ(vals(device.outputs[0])[0], 14);
  EXPECT_EQ(vals(device.outputs[0])[1], 7);
  expect_same_under_reference(g, in, false);
}

// npu_rotary_mul: x * r1 + rotate(x) * r2; 'half' rotates [1, 2, 3, 4] to [-3, -4, 1, 2],
// 'interleave' to [-2, 1, -4, 3]; r1 and r2 broadcast over the leading dims.
TEST(NpuKernels, RotaryMulHalfAndInterleaveByHand) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 1, 1, 4]", r1: "f32[1, 1, 1, 4]", r2: "f32[1, 1, 1, 4]"):
        half: "f32[2, 1, 1, 4]" = torch.ops.npu.npu_rotary_mul.default(x, r1, r2)
        inter: "f32[2, 1, 1, 4]" = torch.ops.npu.npu_rotary_mul.default(x, r1, r2, "interleave")
        return (half, inter)
)FX");
  RunResult r = run(g, {f32({2, 1, 1, 4}, {1, 2, 3, 4, 0, 0, 0, 1}),
                        f32({1, 1, 1, 4}, {1, 1, 1, 1}), f32({1, 1, 1, 4}, {2, 2, 2, 2})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{-5, -6, 5, 8, 0, -2, 0, 1}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{-3, 4, -5, 10, 0, 0, -2, 1}));
}

TEST(NpuKernels, RotaryEmbeddingNeoxAndGptjByHand) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, pos: "i64[1]", q: "f32[1, 4]", k: "f32[1, 1, 4]", cache: "f32[2, 4]"):
        a = torch.ops.vllm.npu_rotary_embedding.default(pos, q, k, cache, 4, 4, True)
        aq: "f32[1, 4]" = a[0]
        ak: "f32[1, 1, 4]" = a[1]
        b = torch.ops.vllm.npu_rotary_embedding.default(pos, q, k, cache, 4, 4, False)
        bq: "f32[1, 4]" = b[0]
        return (aq, ak, bq)
)FX");
  RunResult r = run(g, {tensor(DType::Int64, {1}, {1}), f32({1, 4}, {1, 2, 3, 4}),
                        f32({1, 1, 4}, {1, 2, 3, 4}), f32({2, 4}, {1, 1, 0, 0, 0.5, 1, 0.25, 0})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{-0.25, 2, 1.75, 4}));
  EXPECT_EQ(r.outputs[1].tensor().shape(), (Dims{1, 1, 4}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{-0.25, 2, 1.75, 4}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{0, 1.25, 3, 4}));
}

// vllm.qkv_rmsnorm_rope equals the chain it replaces (split, per-head npu_rms_norm,
// optional bias add, npu_rotary_embedding) bit for bit under reference numerics.
// By hand: token 0 (position 2: cos 0.5, sin 0.25) has q head 0 = [2, 2, 2, 2], normed
// to 1s, rotated to [0.25, 0.25, 0.75, 0.75]; token 1 (position 0: cos 1, sin 0) has
// k = [3, 4, 0, 0], rms 2.5, times k's weight [1, 0.5, 2, 1]: [1.2, 0.8, 0, 0] -> bf16
// [1.203125, 0.80078125, 0, 0], not rotated.
TEST(NpuKernels, QkvRmsNormRopeMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, qkv: "bf16[2, 16]", qw: "bf16[4]", kw: "bf16[4]", cache: "bf16[3, 4]", pos: "i64[2]", qb: "bf16[4]", kb: "bf16[4]"):
        split = torch.ops.aten.split_with_sizes.default(qkv, [8, 4, 4], -1)
        q: "bf16[2, 8]" = split[0]
        k: "bf16[2, 4]" = split[1]
        v: "bf16[2, 4]" = split[2]
        qh: "bf16[2, 2, 4]" = torch.ops.aten.view.default(q, [2, 2, 4])
        qr = torch.ops.npu.npu_rms_norm.default(qh, qw, 1e-06)
        qn: "bf16[2, 2, 4]" = qr[0]
        kh: "bf16[2, 1, 4]" = torch.ops.aten.view.default(k, [2, 1, 4])
        kr = torch.ops.npu.npu_rms_norm.default(kh, kw, 1e-06)
        kn: "bf16[2, 1, 4]" = kr[0]
        qf: "bf16[2, 8]" = torch.ops.aten.view.default(qn, [2, 8])
        kf: "bf16[2, 4]" = torch.ops.aten.view.default(kn, [2, 4])
        rope = torch.ops.vllm.npu_rotary_embedding.default(pos, qf, kf, cache, 4, 4, True)
        cq: "bf16[2, 8]" = rope[0]
        ck: "bf16[2, 4]" = rope[1]
        qbn: "bf16[2, 2, 4]" = torch.ops.aten.add.Tensor(qn, qb)
        kbn: "bf16[2, 1, 4]" = torch.ops.aten.add.Tensor(kn, kb)
        qbf: "bf16[2, 8]" = torch.ops.aten.view.default(qbn, [2, 8])
        kbf: "bf16[2, 4]" = torch.ops.aten.view.default(kbn, [2, 4])
        rope_b = torch.ops.vllm.npu_rotary_embedding.default(pos, qbf, kbf, cache, 4, 4, True)
        cqb: "bf16[2, 8]" = rope_b[0]
        ckb: "bf16[2, 4]" = rope_b[1]
        f = torch.ops.vllm.qkv_rmsnorm_rope.default(qkv, cache, pos, qw, kw, 8, 4, 4, 1e-06)
        fq: "bf16[2, 8]" = f[0]
        fk: "bf16[2, 4]" = f[1]
        fv: "bf16[2, 4]" = f[2]
        fb = torch.ops.vllm.qkv_rmsnorm_rope.default(qkv, cache, pos, qw, kw, 8, 4, 4, 1e-06, qb, kb)
        fqb: "bf16[2, 8]" = fb[0]
        fkb: "bf16[2, 4]" = fb[1]
        return (cq, ck, v, cqb, ckb, fq, fk, fv, fqb, fkb)
)FX");
  std::vector<RuntimeValue> in{
      tensor(DType::BFloat16, {2, 16},
             {2,    2, 2,  2, 1, -1, 0.5, 3, 1, 2, 3, 4, 5,  6,  7,  8,  //
              0.25, 1, -2, 1, 4, 4,  -4,  1, 3, 4, 0, 0, -1, -2, -3, -4}),
      tensor(DType::BFloat16, {4}, {1, 1, 1, 1}),
      tensor(DType::BFloat16, {4}, {1, 0.5, 2, 1}),
      tensor(DType::BFloat16, {3, 4}, {1, 1, 0, 0, 0, 1, 1, 0, 0.5, 0.5, 0.25, 0.25}),
      tensor(DType::Int64, {2}, {2, 0}),
      tensor(DType::BFloat16, {4}, {0.125, -1, 3, 0.3}),
      tensor(DType::BFloat16, {4}, {-0.7, 0.01, 2, 1})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult r = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(vals(r.outputs[i]), vals(r.outputs[i + 5])) << i;
  std::vector<double> fq = vals(r.outputs[5]), fk = vals(r.outputs[6]);
  EXPECT_EQ(std::vector<double>(fq.begin(), fq.begin() + 4),
            (std::vector<double>{0.25, 0.25, 0.75, 0.75}));
  EXPECT_EQ(std::vector<double>(fk.begin() + 4, fk.end()),
            (std::vector<double>{1.203125, 0.80078125, 0, 0}));
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{5, 6, 7, 8, -1, -2, -3, -4}));
}

// npu_fusion_attention by hand, f32, one batch and head, S = T = 2, D = 2, scale 1:
// q = [[1, 0], [0, 1]], k = [[1, 0], [0, 0]] give scores [[1, 0], [0, 0]]; softmax rows
// [e, 1] / (e + 1) and [0.5, 0.5]; v = [[2, 0], [0, 4]]. With atten_mask leaving out
// (0, 1) the first row keeps only key 0: [2, 0]. softmax_max holds the row maxima, eight
// copies each.
TEST(NpuKernels, FusionAttentionByHand) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, q: "f32[1, 1, 2, 2]", k: "f32[1, 1, 2, 2]", v: "f32[1, 1, 2, 2]", m: "b8[2, 2]"):
        a = torch.ops.npu.npu_fusion_attention.default(q, k, v, 1, "BNSD")
        out: "f32[1, 1, 2, 2]" = a[0]
        mx: "f32[1, 1, 2, 8]" = a[1]
        b = torch.ops.npu.npu_fusion_attention.default(q, k, v, 1, "BNSD", atten_mask = m)
        masked: "f32[1, 1, 2, 2]" = b[0]
        return (out, mx, masked)
)FX");
  Tensor mask = tensor(DType::Bool, {2, 2}, {0, 1, 0, 0});
  RunResult r = run(g, {f32({1, 1, 2, 2}, {1, 0, 0, 1}), f32({1, 1, 2, 2}, {1, 0, 0, 0}),
                        f32({1, 1, 2, 2}, {2, 0, 0, 4}), mask});
  const double e = std::exp(1.0);
  expect_near(vals(r.outputs[0]), {2 * e / (e + 1), 4 / (e + 1), 1, 2});
  std::vector<double> mx = vals(r.outputs[1]);
  ASSERT_EQ(mx.size(), 16u);
  EXPECT_EQ(mx[0], 1);
  EXPECT_EQ(mx[7], 1);
  EXPECT_EQ(mx[8], 0);
  expect_near(vals(r.outputs[2]), {2, 0, 1, 2});
}

// pse_type 0 adds pse after the scale, pse_type 1 (and v1) before it: with scale 0.5,
// scores [[1, 0]] and pse [[0, 2]], pse_type 0 gives logits [0.5, 2], pse_type 1 [0.5, 1].
TEST(NpuKernels, FusionAttentionPseTypeOrdersScaleAndAdd) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, q: "f32[1, 1, 1, 2]", k: "f32[1, 1, 2, 2]", v: "f32[1, 1, 2, 2]", p: "f32[1, 1, 1, 2]"):
        a = torch.ops.npu.npu_fusion_attention_v2.default(q, k, v, 1, "BNSD", pse = p, scale = 0.5, pse_type = 0)
        after: "f32[1, 1, 1, 2]" = a[0]
        b = torch.ops.npu.npu_fusion_attention_v2.default(q, k, v, 1, "BNSD", pse = p, scale = 0.5, pse_type = 1)
        before: "f32[1, 1, 1, 2]" = b[0]
        return (after, before)
)FX");
  RunResult r = run(g, {f32({1, 1, 1, 2}, {1, 0}), f32({1, 1, 2, 2}, {1, 0, 0, 1}),
                        f32({1, 1, 2, 2}, {1, 0, 0, 1}), f32({1, 1, 1, 2}, {0, 2})});
  auto weights = [](double a, double b) {
    double ea = std::exp(a), eb = std::exp(b);
    return std::vector<double>{ea / (ea + eb), eb / (ea + eb)};
  };
  expect_near(vals(r.outputs[0]), weights(0.5, 2));
  expect_near(vals(r.outputs[1]), weights(0.5, 1));
}

// A deterministic spread of bf16-representable values for the attention checks below.
Tensor spread(DType d, Dims shape, int seed) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  std::vector<double> v(static_cast<size_t>(n));
  uint32_t x = 2463534242u + static_cast<uint32_t>(seed);
  for (double& e : v) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    e = (static_cast<double>(x % 2001) - 1000.0) / 256.0;
  }
  return tensor(d, shape, v);
}

// Under reference numerics the fused kernel equals the eager chain TorchAir's pattern
// matches (bmm stored in bf16, scale and mask adds stored in bf16, fp32 softmax, cast
// back) bit for bit, also with key and value shared by two query heads each (GQA) and in
// the BSND layout; the device numerics (fp32 throughout) differ from it.
TEST(NpuKernels, FusionAttentionMatchesTheEagerChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, q: "bf16[2, 4, 8, 16]", k: "bf16[2, 2, 8, 16]", v: "bf16[2, 2, 8, 16]", m: "bf16[2, 1, 8, 8]"):
        a = torch.ops.npu.npu_fusion_attention_v2.default(q, k, v, 4, "BNSD", pse = m, scale = 0.25, pse_type = 0)
        fused: "bf16[2, 4, 8, 16]" = a[0]
        uk: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(k, 2)
        ek: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(uk, [2, 2, 2, 8, 16])
        rk: "bf16[2, 4, 8, 16]" = torch.ops.aten.reshape.default(ek, [2, 4, 8, 16])
        uv: "bf16[2, 2, 1, 8, 16]" = torch.ops.aten.unsqueeze.default(v, 2)
        ev: "bf16[2, 2, 2, 8, 16]" = torch.ops.aten.expand.default(uv, [2, 2, 2, 8, 16])
        rv: "bf16[2, 4, 8, 16]" = torch.ops.aten.reshape.default(ev, [2, 4, 8, 16])
        kt: "bf16[2, 4, 16, 8]" = torch.ops.aten.transpose.int(rk, 2, 3)
        s: "bf16[2, 4, 8, 8]" = torch.ops.aten.matmul.default(q, kt)
        sc: "bf16[2, 4, 8, 8]" = torch.ops.aten.mul.Tensor(s, 0.25)
        sm: "bf16[2, 4, 8, 8]" = torch.ops.aten.add.Tensor(sc, m)
        up: "f32[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(sm, dtype = torch.float32)
        p: "f32[2, 4, 8, 8]" = torch.ops.aten._softmax.default(up, -1, False)
        down: "bf16[2, 4, 8, 8]" = torch.ops.aten._to_copy.default(p, dtype = torch.bfloat16)
        chain: "bf16[2, 4, 8, 16]" = torch.ops.aten.matmul.default(down, rv)
        qs: "bf16[2, 8, 4, 16]" = torch.ops.aten.transpose.int(q, 1, 2)
        ks: "bf16[2, 8, 2, 16]" = torch.ops.aten.transpose.int(k, 1, 2)
        vs: "bf16[2, 8, 2, 16]" = torch.ops.aten.transpose.int(v, 1, 2)
        b = torch.ops.npu.npu_fusion_attention_v2.default(qs, ks, vs, 4, "BSND", pse = m, scale = 0.25, pse_type = 0)
        bsnd: "bf16[2, 8, 4, 16]" = b[0]
        back: "bf16[2, 4, 8, 16]" = torch.ops.aten.transpose.int(bsnd, 1, 2)
        return (fused, chain, back)
)FX");
  std::vector<RuntimeValue> in{
      spread(DType::BFloat16, {2, 4, 8, 16}, 1), spread(DType::BFloat16, {2, 2, 8, 16}, 2),
      spread(DType::BFloat16, {2, 2, 8, 16}, 3), spread(DType::BFloat16, {2, 1, 8, 8}, 4)};
  expect_same_under_reference(g, in, true);
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult r = Interpreter(testing::registry(), reference).run(g, in);
  EXPECT_EQ(vals(r.outputs[0]), vals(r.outputs[2]));
}

// What the kernel does not model is an error naming the argument, not a silent result.
TEST(NpuKernels, FusionAttentionRefusesWhatItDoesNotModel) {
  auto fails_with = [](const std::string& call, const std::string& message) {
    Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, q: "f32[1, 2, 2, 16]", k: "f32[1, 2, 2, 16]", v: "f32[1, 2, 2, 16]"):
        a = )FX" + call + R"FX(
        out: "f32[1, 2, 2, 16]" = a[0]
        return (out,)
)FX");
    Tensor x = spread(DType::Float32, {1, 2, 2, 16}, 5);
    try {
      run(g, {x, x, x});
      ADD_FAILURE() << "no error for " << call;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  fails_with(R"(torch.ops.npu.npu_fusion_attention.default(q, k, v, 2, "BNSD", keep_prob = 0.9))",
             "keep_prob");
  fails_with(R"(torch.ops.npu.npu_fusion_attention.default(q, k, v, 2, "BNSD", sparse_mode = 2))",
             "sparse_mode=2");
  fails_with(R"(torch.ops.npu.npu_fusion_attention.default(q, k, v, 3, "BNSD"))", "head_num");
}

// MX quantization (CANN's aclnnDynamicMxQuant doc): per block of 32, scale_alg 0 takes
// 2^(floor(log2(amax)) - 8) for float8_e4m3fn; y = x / scale saturated to 448; the e8m0 bits
// (exponent + 127) come back as uint8, two blocks per [.., 2] entry.
TEST(NpuKernels, DynamicMxQuantByHand) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[1, 96]", c: "f16[96, 1]"):
        m = torch.ops.npu.npu_dynamic_mx_quant.default(x, dst_type = torch.float8_e4m3fn)
        y: "f8e4m3fn[1, 96]" = m[0]
        s: "u8[1, 2, 2]" = m[1]
        m1 = torch.ops.npu.npu_dynamic_mx_quant.default(x, dst_type = 292, scale_alg = 1)
        y1: "f8e4m3fn[1, 96]" = m1[0]
        s1: "u8[1, 2, 2]" = m1[1]
        mc = torch.ops.npu.npu_dynamic_mx_quant.default(c, axis = 0, dst_type = torch.float8_e4m3fn)
        sc: "u8[2, 1, 2]" = mc[1]
        return (y, s, y1, s1, sc)
)FX");
  std::vector<double> x(96, 0.0), col(96, 0.0);
  x[0] = 3.0, x[1] = 0.5, x[2] = 0.3;  // block 0: amax 3 -> scale 2^-7 (bits 120)
  x[32] = 3.75;                        // block 1: 2^-7 too; 3.75 * 128 = 480 saturates to 448
  // block 2 stays zero: scale 2^-127 (bits 0), y 0; the fourth entry pads.
  for (int i = 0; i < 96; ++i) col[static_cast<size_t>(i)] = i < 32 ? 1.0 : i < 64 ? 2.0 : 4.0;
  RunResult r = run(g, {tensor(DType::Float16, {1, 96}, x), tensor(DType::Float16, {96, 1}, col)});
  std::vector<double> y = vals(r.outputs[0]);
  EXPECT_EQ(y[0], 384.0);
  EXPECT_EQ(y[1], 64.0);
  EXPECT_EQ(y[2], 40.0);  // fp16 0.3 * 128 = 38.398..., the nearest e4m3 value is 40
  EXPECT_EQ(y[32], 448.0);
  EXPECT_EQ(y[64], 0.0);
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{120, 120, 0, 0}));
  // scale_alg 1 rounds amax / 448 up to a power of two: block 1 gets 2^-6 (bits 121) and
  // 3.75 * 64 = 240 fits; block 0 keeps 2^-7 (3 / 448 lies in (2^-8, 2^-7]).
  EXPECT_EQ(vals(r.outputs[2])[32], 240.0);
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{120, 121, 0, 0}));
  // Along dim 0 the pairs interleave: entry [j, 0, k] is block 2j + k of the column.
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{119, 120, 121, 0}));
}

// Under reference numerics the fused MX norms store y in x's dtype before quantizing, as
// the unfused npu_add_rms_norm / npu_rms_norm hand it to npu_dynamic_mx_quant.
TEST(NpuKernels, NormDynamicMxQuantMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[3, 64]", x2: "bf16[3, 64]", gamma: "bf16[64]"):
        n = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, 1e-06)
        y: "bf16[3, 64]" = n[0]
        m = torch.ops.npu.npu_dynamic_mx_quant.default(y, dst_type = torch.float8_e5m2)
        q: "f8e5m2[3, 64]" = m[0]
        f = torch.ops.npu.npu_add_rms_norm_dynamic_mx_quant.default(x1, x2, gamma, dst_type = torch.float8_e5m2)
        fq: "f8e5m2[3, 64]" = f[0]
        s: "u8[3, 1, 2]" = m[1]
        fs: "u8[3, 1, 2]" = f[2]
        r = torch.ops.npu.npu_rms_norm.default(x1, gamma, 1e-06)
        ry: "bf16[3, 64]" = r[0]
        rm = torch.ops.npu.npu_dynamic_mx_quant.default(ry, dst_type = torch.float8_e5m2)
        rq: "f8e5m2[3, 64]" = rm[0]
        rf = torch.ops.npu.npu_rms_norm_dynamic_mx_quant.default(x1, gamma, dst_type = torch.float8_e5m2)
        rfq: "f8e5m2[3, 64]" = rf[0]
        return (q, fq, s, fs, rq, rfq)
)FX");
  std::vector<RuntimeValue> in{spread(DType::BFloat16, {3, 64}, 1),
                               spread(DType::BFloat16, {3, 64}, 2),
                               spread(DType::BFloat16, {64}, 3)};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 6; i += 2)
    EXPECT_EQ(vals(same.outputs[i]), vals(same.outputs[i + 1])) << i;
  EXPECT_EQ(same.outputs[1].tensor().dtype(), DType::Float8E5M2);
  EXPECT_EQ(same.outputs[3].tensor().dtype(), DType::UInt8);
}

// npu_swiglu_mx_quant against npu_swiglu + npu_dynamic_mx_quant: the same under reference
// numerics (the swiglu stored in bf16 first), also along dim 0 and with scale_alg 1.
TEST(NpuKernels, SwigluMxQuantMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[64, 192]"):
        s: "bf16[64, 96]" = torch.ops.npu.npu_swiglu.default(x, -1)
        m = torch.ops.npu.npu_dynamic_mx_quant.default(s, dst_type = 292, scale_alg = 1)
        q: "f8e4m3fn[64, 96]" = m[0]
        ms: "u8[64, 2, 2]" = m[1]
        f = torch.ops.npu.npu_swiglu_mx_quant.default(x, activate_left = True, dst_type = 292, scale_alg = 1)
        fq: "f8e4m3fn[64, 96]" = f[0]
        fs: "u8[64, 2, 2]" = f[1]
        m0 = torch.ops.npu.npu_dynamic_mx_quant.default(s, axis = 0, dst_type = 292)
        q0: "f8e4m3fn[64, 96]" = m0[0]
        s0: "u8[1, 96, 2]" = m0[1]
        f0 = torch.ops.npu.npu_swiglu_mx_quant.default(x, activate_left = True, axis = 0, dst_type = 292)
        fq0: "f8e4m3fn[64, 96]" = f0[0]
        fs0: "u8[1, 96, 2]" = f0[1]
        return (q, fq, ms, fs, q0, fq0, s0, fs0)
)FX");
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  std::vector<RuntimeValue> in{spread(DType::BFloat16, {64, 192}, 7)};
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 8; i += 2)
    EXPECT_EQ(vals(same.outputs[i]), vals(same.outputs[i + 1])) << i;
}

TEST(NpuKernels, DynamicMxQuantRefusesWhatItDoesNotModel) {
  auto fails_with = [](const std::string& input, const std::string& call,
                       const std::string& message) {
    Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: ")FX" +
                         input + R"FX("):
        m = )FX" + call + R"FX(
        y = m[0]
        return (y,)
)FX");
    try {
      run(g, {spread(g.node(g.placeholders()[0]).type.tensor.dtype, {2, 64}, 4)});
      ADD_FAILURE() << "no error for " << call;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  };
  const std::string q = "torch.ops.npu.npu_dynamic_mx_quant.default";
  // Packed fp4 (the default dst_type) is not modelled either: the kernel declines, and the
  // call is compared as an uninterpreted function (scenario V18), which needs y's type.
  fails_with("bf16[2, 64]", q + "(x)", "uninterpreted function");
  fails_with("bf16[2, 64]", q + "(x, dst_type = 292, block_size = 48)", "multiple of 32");
  fails_with("f32[2, 64]", q + "(x, dst_type = torch.float8_e4m3fn)", "float16 or bfloat16");
  fails_with("bf16[2, 64]", q + "(x, dst_type = torch.float8_e4m3fn, scale_alg = 2)",
             "scale_alg must be 0 or 1");
  fails_with("bf16[2, 64]", q + "(x, dst_type = torch.float8_e4m3fn, round_mode = 'floor')",
             "round_mode 'rint'");
  fails_with("bf16[2, 64]", q + "(x, dst_type = torch.int8)", "not an MX element type");
}

// npu_fused_matmul (aclnnFusedMatmul): op(x @ x2 + bias, x3). 1 + 2^-8 lies halfway between
// two bf16 values: the chain's mm stores 1 (ties to even) and adding x3 = 2^-8 ties back to
// 1; the device adds x3 before its one rounding and stores 1.0078125. Under reference
// numerics the fused call rounds like the chain.
TEST(NpuKernels, FusedMatmulMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[1, 2]", w: "bf16[2, 2]", b: "bf16[2]", r: "bf16[1, 2]"):
        mm: "bf16[1, 2]" = torch.ops.aten.mm.default(x, w)
        add: "bf16[1, 2]" = torch.ops.aten.add.Tensor(mm, r)
        fused: "bf16[1, 2]" = torch.ops.npu.npu_fused_matmul.default(x, w, x3 = r, fused_op_type = 'add')
        addmm: "bf16[1, 2]" = torch.ops.aten.addmm.default(b, x, w)
        gelu: "bf16[1, 2]" = torch.ops.aten.gelu.default(addmm, approximate = 'tanh')
        fused_gelu: "bf16[1, 2]" = torch.ops.npu.npu_fused_matmul.default(x, w, bias = b, fused_op_type = 'gelu_tanh')
        relu: "bf16[1, 2]" = torch.ops.aten.relu.default(addmm)
        fused_relu: "bf16[1, 2]" = torch.ops.npu.npu_fused_matmul.default(x, w, bias = b, fused_op_type = 'relu')
        return (add, fused, gelu, fused_gelu, relu, fused_relu)
)FX");
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {1, 2}, {1, 1}),
                               tensor(DType::BFloat16, {2, 2}, {1, -3, 0.00390625, 0.5}),
                               tensor(DType::BFloat16, {2}, {0.25, 1}),
                               tensor(DType::BFloat16, {1, 2}, {0.00390625, 2})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  for (size_t i = 0; i < 6; i += 2) EXPECT_EQ(vals(same.outputs[i]), vals(same.outputs[i + 1]));
  EXPECT_EQ(vals(same.outputs[1]), (std::vector<double>{1, -0.5}));
  EXPECT_EQ(vals(same.outputs[5]), (std::vector<double>{1.25, 0}));  // relu(-2.5 + 1) = 0
  RunResult device = run(g, in);
  EXPECT_EQ(vals(device.outputs[1]), (std::vector<double>{1.0078125, -0.5}));
}

// fused_op_type "16cast32" (float32 logits of a half matmul) is not modeled: the node is
// then an uninterpreted function of its inputs (typed by the meta function), not a guess
// such as the plain product [4, 6].
TEST(NpuKernels, FusedMatmulLeavesWhatItDoesNotModelUninterpreted) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[1, 2]", w: "bf16[2, 2]"):
        fused: "f32[1, 2]" = torch.ops.npu.npu_fused_matmul.default(x, w, fused_op_type = '16cast32')
        return (fused,)
)FX");
  RunResult r = run(
      g, {tensor(DType::BFloat16, {1, 2}, {1, 1}), tensor(DType::BFloat16, {2, 2}, {1, 2, 3, 4})});
  ASSERT_TRUE(r.outputs[0].is_tensor());
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Float32);
  EXPECT_NE(vals(r.outputs[0]), (std::vector<double>{4, 6}));
}

}  // namespace
}  // namespace eqfuse
