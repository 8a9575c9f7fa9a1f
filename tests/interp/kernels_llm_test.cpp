// ctest-label: numeric
// Reference kernels of issue 16's second batch (interp/kernels_llm.cpp)
// against hand-computed values. Where the comment says "torch", the numbers
// were checked once against PyTorch on CPU.
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

constexpr double kInf = std::numeric_limits<double>::infinity();

Tensor i64(Dims shape, std::vector<int64_t> v) {
  return Tensor::from_ints(DType::Int64, std::move(shape), v);
}

std::vector<double> iota(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
  return v;
}

// Runs `g` and expects an eqfuse::Error whose message holds every needle.
void expect_error(const Graph& g, std::vector<RuntimeValue> inputs,
                  std::initializer_list<const char*> needles) {
  try {
    run(g, std::move(inputs));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    for (const char* n : needles)
      EXPECT_NE(std::string(e.what()).find(n), std::string::npos) << e.what();
  }
}

// ---- assertions -------------------------------------------------------------

const char* kAssertMetadata = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x):
        check = torch.ops.aten._assert_tensor_metadata.default(x, [2, 3], None, torch.float32)
        return (x,)
)FX";

TEST(LlmKernels, AssertTensorMetadataPassesOnAgreement) {
  Graph g = graph_from(kAssertMetadata);
  RunResult r = run(g, {f32({2, 3}, iota(6))});
  EXPECT_EQ(vals(r.outputs[0]), iota(6));
}

TEST(LlmKernels, AssertTensorMetadataMismatchNamesTheNode) {
  Graph g = graph_from(kAssertMetadata);
  expect_error(g, {tensor(DType::Float16, {2, 3}, iota(6))}, {"'check'", "dtype mismatch"});
  expect_error(g, {f32({3, 2}, iota(6))}, {"'check'", "sizes mismatch", "[3, 2]"});
}

const char* kAssertScalar = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, m, n):
        ok = torch.ops.aten._local_scalar_dense.default(m)
        assert_1 = torch.ops.aten._assert_scalar.default(ok, "Runtime assertion failed for expression u0 > 0")
        size = torch.ops.aten._local_scalar_dense.default(n)
        constrain = torch.ops.aten.sym_constrain_range_for_size.default(size, min = 2, max = 8)
        range_1 = torch.ops.aten.sym_constrain_range.default(size, max = 6)
        return (size,)
)FX";

TEST(LlmKernels, AssertScalarAndRangeConstraintsPassWhenTrue) {
  Graph g = graph_from(kAssertScalar);
  RunResult r = run(g, {tensor(DType::Bool, {}, {1}), i64({}, {5})});
  ASSERT_TRUE(r.outputs[0].is_int());
  EXPECT_EQ(r.outputs[0].as_int(), 5);
}

TEST(LlmKernels, FailingAssertScalarReportsItsMessageAndNode) {
  Graph g = graph_from(kAssertScalar);
  expect_error(g, {tensor(DType::Bool, {}, {0}), i64({}, {5})},
               {"'assert_1'", "Runtime assertion failed for expression u0 > 0"});
  expect_error(g, {tensor(DType::Bool, {}, {1}), i64({}, {1})}, {"'constrain'", "[2, 8]"});
  expect_error(g, {tensor(DType::Bool, {}, {1}), i64({}, {7})}, {"'range_1'", "outside"});
}

// ---- data-dependent results ---------------------------------------------------

TEST(LlmKernels, LocalScalarDenseGivesPythonScalars) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a, b: "bf16[]", c: "b8[]"):
        i = torch.ops.aten._local_scalar_dense.default(a)
        f = torch.ops.aten._local_scalar_dense.default(b)
        t = torch.ops.aten._local_scalar_dense.default(c)
        return (i, f, t)
)FX");
  RunResult r = run(g, {tensor(DType::Int32, {1}, {-7}), tensor(DType::BFloat16, {}, {2.5}),
                        tensor(DType::Bool, {}, {1})});
  ASSERT_TRUE(r.outputs[0].is_int());
  EXPECT_EQ(r.outputs[0].as_int(), -7);
  ASSERT_TRUE(r.outputs[1].is_double());
  EXPECT_EQ(std::get<double>(r.outputs[1].v), 2.5);
  ASSERT_TRUE(r.outputs[2].is_bool());
  EXPECT_TRUE(std::get<bool>(r.outputs[2].v));
  expect_error(g,
               {tensor(DType::Int32, {2}, {1, 2}), tensor(DType::BFloat16, {}, {2.5}),
                tensor(DType::Bool, {}, {1})},
               {"'i'", "2 elements"});
}

TEST(LlmKernels, NonzeroListsCoordinatesRowMajor) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        nz = torch.ops.aten.nonzero.default(x)
        padded: "i64[4, 2]" = torch.ops.aten.nonzero_static.default(x, size = 4)
        cut: "i64[1, 2]" = torch.ops.aten.nonzero_static.default(x, size = 1, fill_value = 9)
        return (nz, padded, cut)
)FX");
  RunResult r = run(g, {f32({2, 3}, {0, 2, 0, NAN, 0, -1})});
  // torch: NaN is nonzero.
  EXPECT_EQ(r.outputs[0].tensor().shape(), (Dims{3, 2}));
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 1, 1, 0, 1, 2}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{0, 1, 1, 0, 1, 2, -1, -1}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{0, 1}));
}

TEST(LlmKernels, RepeatInterleave) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, r: "i64[3]", x: "f32[2, 2]"):
        idx = torch.ops.aten.repeat_interleave.Tensor(r)
        rows: "f32[4, 2]" = torch.ops.aten.repeat_interleave.self_int(x, 2, 0)
        cols: "f32[2, 6]" = torch.ops.aten.repeat_interleave.self_int(x, 3, -1)
        flat: "f32[8]" = torch.ops.aten.repeat_interleave.self_int(x, 2)
        return (idx, rows, cols, flat)
)FX");
  RunResult r = run(g, {i64({3}, {1, 0, 2}), f32({2, 2}, {1, 2, 3, 4})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 2, 2}));  // torch
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 2, 1, 2, 3, 4, 3, 4}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{1, 1, 2, 2, 3, 3, 4, 4}));
}

// ---- reductions -----------------------------------------------------------------

TEST(LlmKernels, SafeSoftmaxZeroesFullyMaskedRows) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        p: "f32[2, 3]" = torch.ops.aten._safe_softmax.default(x, -1)
        q: "f64[2, 3]" = torch.ops.aten._safe_softmax.default(x, 0, torch.float64)
        return (p, q)
)FX");
  RunResult r = run(g, {f32({2, 3}, {1, 2, 3, -kInf, -kInf, -kInf})});
  // Row 0: torch.softmax([1, 2, 3]); row 1 (all -inf): 0 where softmax gives NaN.
  expect_near(vals(r.outputs[0]), {0.0900305733, 0.2447284758, 0.6652409434, 0, 0, 0});
  // Along dim 0 every column holds one finite value: 1 there, 0 for -inf.
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 1, 1, 0, 0, 0}));
}

TEST(LlmKernels, LogsumexpIsStableAndHandlesInfinities) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]", y: "f32[2, 2]", n: "i64[3]"):
        rows: "f32[2]" = torch.ops.aten.logsumexp.default(x, [1])
        all_1: "f32[1, 1]" = torch.ops.aten.logsumexp.default(x, [0, 1], True)
        inf: "f32[2]" = torch.ops.aten.logsumexp.default(y, [1])
        ints: "f32[]" = torch.ops.aten.logsumexp.default(n, [0])
        return (rows, all_1, inf, ints)
)FX");
  RunResult r = run(g, {f32({2, 3}, {0, 1, 2, 3, -1, -kInf}), f32({2, 2}, {-kInf, -kInf, 1, kInf}),
                        i64({3}, {1, 2, 3})});
  expect_near(vals(r.outputs[0]), {2.4076058864593506, 3.0181498527526855});  // torch
  expect_near(vals(r.outputs[1]), {3.4519143104553223});                      // torch
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{-kInf, kInf}));
  EXPECT_EQ(r.outputs[3].tensor().dtype(), DType::Float32);
  expect_near(vals(r.outputs[3]), {3.4076058864593506});  // torch
}

TEST(LlmKernels, MinDimTakesTheFirstMinimumAndPropagatesNan) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "i64[2, 3]", y: "f32[2, 4]"):
        m = torch.ops.aten.min.dim(x, 1, True)
        values: "i64[2, 1]" = m[0]
        indices: "i64[2, 1]" = m[1]
        f = torch.ops.aten.min.dim(y, -1)
        fv: "f32[2]" = f[0]
        fi: "i64[2]" = f[1]
        return (values, indices, fv, fi)
)FX");
  RunResult r = run(g, {i64({2, 3}, {3, 1, 1, 2, 5, 0}), f32({2, 4}, {3, 1, 1, NAN, 2, 0, 0, 5})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{1, 0}));  // torch
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 2}));
  std::vector<double> fv = vals(r.outputs[2]);
  EXPECT_TRUE(std::isnan(fv[0]));
  EXPECT_EQ(fv[1], 0);
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{3, 1}));  // torch
}

// ---- creation, indexing and layout ------------------------------------------------

TEST(LlmKernels, FillAndStridedCreation) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "i32[2, 2]", v: "f32[]"):
        a: "i32[2, 2]" = torch.ops.aten.fill.Scalar(x, 7)
        b: "i32[2, 2]" = torch.ops.aten.fill.Tensor(x, v)
        e: "bf16[2, 3]" = torch.ops.aten.empty_strided.default([2, 3], [3, 1], dtype = torch.bfloat16)
        n: "i32[3]" = torch.ops.aten.new_empty_strided.default(x, [3], [1])
        c: "i32[2, 2]" = torch.ops.aten.fill_.Scalar(x, -1)
        return (a, b, e, n, c, x)
)FX");
  Tensor x = tensor(DType::Int32, {2, 2}, {1, 2, 3, 4});
  RunResult r = run(g, {x, f32({}, {2.75})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{7, 7, 7, 7}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{2, 2, 2, 2}));  // cast to int32
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>(6, 0.0)));       // modelled as zeros
  EXPECT_EQ(r.outputs[3].tensor().dtype(), DType::Int32);
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{-1, -1, -1, -1}));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{-1, -1, -1, -1}));  // mutated input
}

TEST(LlmKernels, IndexFillWrapsNegativeIndices) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3, 4]", i: "i64[2]", v: "f32[]"):
        cols: "f32[3, 4]" = torch.ops.aten.index_fill.int_Scalar(x, 1, i, 2.0)
        rows: "f32[3, 4]" = torch.ops.aten.index_fill.int_Tensor(x, 0, i, v)
        return (cols, rows)
)FX");
  RunResult r =
      run(g, {f32({3, 4}, std::vector<double>(12, 0.0)), i64({2}, {-1, 0}), f32({}, {5})});
  // torch: x.index_fill(1, [-1, 0], 2.0)
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{2, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 2}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{5, 5, 5, 5, 0, 0, 0, 0, 5, 5, 5, 5}));
  expect_error(g, {f32({3, 4}, std::vector<double>(12, 0.0)), i64({2}, {4, 0}), f32({}, {5})},
               {"'cols'", "out of range"});
}

TEST(LlmKernels, FlipRollNarrowStack) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "i64[2, 3]", y: "i64[2, 3]"):
        f: "i64[2, 3]" = torch.ops.aten.flip.default(x, [0, -1])
        r1: "i64[2, 3]" = torch.ops.aten.roll.default(x, [1])
        r2: "i64[2, 3]" = torch.ops.aten.roll.default(x, [1, -1], [0, 1])
        n: "i64[2, 2]" = torch.ops.aten.narrow.default(x, 1, -2, 2)
        s: "i64[2, 2, 3]" = torch.ops.aten.stack.default([x, y], 1)
        return (f, r1, r2, n, s)
)FX");
  RunResult r = run(g, {i64({2, 3}, {0, 1, 2, 3, 4, 5}), i64({2, 3}, {6, 7, 8, 9, 10, 11})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{5, 0, 1, 2, 3, 4}));  // torch
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{4, 5, 3, 1, 2, 0}));  // torch
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{1, 2, 4, 5}));
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{0, 1, 2, 6, 7, 8, 3, 4, 5, 9, 10, 11}));
}

// ---- group norm ---------------------------------------------------------------------

TEST(LlmKernels, GroupNormNormalizesEachGroupOfChannels) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 4, 2]", w: "f32[4]", b: "f32[4]"):
        gn = torch.ops.aten.native_group_norm.default(x, w, b, 2, 4, 2, 2, 1e-05)
        y: "f32[2, 4, 2]" = gn[0]
        mean: "f32[2, 2]" = gn[1]
        rstd: "f32[2, 2]" = gn[2]
        plain: "f32[2, 4, 2]" = torch.ops.aten.group_norm.default(x, 2)
        return (y, mean, rstd, plain)
)FX");
  RunResult r =
      run(g, {f32({2, 4, 2}, iota(16)), f32({4}, {1, 2, 0.5, -1}), f32({4}, {0, 1, 0, 2})});
  // torch.ops.aten.native_group_norm(arange(16.).view(2, 4, 2), w, b, 2, 4, 2, 2, 1e-5)
  expect_near(
      vals(r.outputs[0]),
      {-1.3416354656, -0.4472118020, 1.8944237232, 3.6832709312, -0.6708177328, -0.2236059010,
       1.5527881383, 0.6583644747, -1.3416352272, -0.4472115636, 1.8944242001, 3.6832714081,
       -0.6708177328, -0.2236059010, 1.5527881383, 0.6583644747},
      1e-5);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1.5, 5.5, 9.5, 13.5}));
  expect_near(vals(r.outputs[2]), std::vector<double>(4, 0.8944236636), 1e-6);
  std::vector<double> plain;
  for (int i = 0; i < 4; ++i)
    plain.insert(plain.end(), {-1.3416354656, -0.4472118318, 0.4472118318, 1.3416354656});
  expect_near(vals(r.outputs[3]), plain, 1e-5);
}

TEST(LlmKernels, GroupNormRejectsIndivisibleChannels) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x):
        bad = torch.ops.aten.group_norm.default(x, 4)
        return (bad,)
)FX");
  expect_error(g, {f32({1, 6, 1}, iota(6))}, {"'bad'", "divisible"});
}

// ---- elementwise -----------------------------------------------------------------------

TEST(LlmKernels, Activations) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, v: "f32[6]"):
        leaky: "f32[6]" = torch.ops.aten.leaky_relu.default(v, 0.2)
        elu: "f32[6]" = torch.ops.aten.elu.default(v, 1.5, 2.0, 0.5)
        softplus: "f32[6]" = torch.ops.aten.softplus.default(v, 2, 10)
        hardswish: "f32[6]" = torch.ops.aten.hardswish.default(v)
        hardsigmoid: "f32[6]" = torch.ops.aten.hardsigmoid.default(v)
        mish: "f32[6]" = torch.ops.aten.mish.default(v)
        return (leaky, elu, softplus, hardswish, hardsigmoid, mish)
)FX");
  RunResult r = run(g, {f32({6}, {-3, -1, 0, 0.5, 2, 25})});
  // All torch.
  expect_near(vals(r.outputs[0]), {-0.6000000238, -0.2000000030, 0, 0.5, 2, 25});
  expect_near(vals(r.outputs[1]), {-2.3306095600, -1.1804080009, 0, 1, 4, 50});
  expect_near(vals(r.outputs[2]), {0.0012378426035866141, 0.06346400082111359, 0.3465735912322998,
                                   0.65663081407547, 2.0090749263763428, 25});
  expect_near(vals(r.outputs[3]), {0, -0.3333333433, 0, 0.2916666567, 1.6666666269, 25});
  expect_near(vals(r.outputs[4]), {0, 0.3333333433, 0.5, 0.5833333135, 0.8333333135, 1});
  expect_near(vals(r.outputs[5]), {-0.14564746618270874, -0.3034014403820038, 0,
                                   0.37524524331092834, 1.9439589977264404, 25});
}

// torch's meta types the activations of integer tensors (self's dtype) but its CPU and
// CUDA kernels refuse them: there is nothing to compute, so the node is an uninterpreted
// function of its type; untyped, it is an error naming the node.
TEST(LlmKernels, ActivationsOfIntegerInputsAreUninterpreted) {
  Graph typed = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, v: "i64[2]"):
        act: "i64[2]" = torch.ops.aten.mish.default(v)
        leaky: "i64[2]" = torch.ops.aten.leaky_relu.default(v, 0)
        return (act, leaky)
)FX");
  RunResult r = run(typed, {i64({2}, {1, 2})});
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Int64);
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::Int64);
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, v):
        act = torch.ops.aten.mish.default(v)
        return (act,)
)FX");
  expect_error(g, {i64({2}, {1, 2})}, {"'act'", "aten::mish"});
}

TEST(LlmKernels, SignAtan2Erfinv) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, i: "i64[3]", f: "f32[4]", a: "f32[2, 1]", b: "f32[3]", p: "f64[5]"):
        si: "i64[3]" = torch.ops.aten.sign.default(i)
        sf: "f32[4]" = torch.ops.aten.sign.default(f)
        t: "f32[2, 3]" = torch.ops.aten.atan2.default(a, b)
        e: "f64[5]" = torch.ops.aten.erfinv.default(p)
        return (si, sf, t, e)
)FX");
  RunResult r =
      run(g, {i64({3}, {-3, 0, 7}), f32({4}, {NAN, -2, 0, 3}), f32({2, 1}, {1, -1}),
              f32({3}, {1, 0, -2}), tensor(DType::Float64, {5}, {-0.9, 0, 0.5, 0.999999, 1})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{-1, 0, 1}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{0, -1, 0, 1}));  // torch CPU: sign(NaN) = 0
  expect_near(vals(r.outputs[2]), {0.7853981852531433, 1.5707963705062866, 2.677945137023926,
                                   -0.7853981852531433, -1.5707963705062866, -2.677945137023926});
  std::vector<double> e = vals(r.outputs[3]);
  expect_near({e[0], e[1], e[2], e[3]},
              {-1.1630871536766743, 0.0, 0.4769362762044699, 3.458910737283175}, 1e-9);
  EXPECT_EQ(e[4], kInf);
}

}  // namespace
// vllm.muls_add: x * scale + y. Under reference numerics the product is
// stored in bf16 first (as aten.mul does), so it equals the unfused chain;
// the device numerics compute in fp32 and store once.
TEST(LlmKernels, MulsAddMatchesTheChainUnderReferenceNumerics) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[1, 3]", y: "bf16[1, 3]"):
        mul: "bf16[1, 3]" = torch.ops.aten.mul.Tensor(x, 3.0)
        add: "bf16[1, 3]" = torch.ops.aten.add.Tensor(mul, y)
        fused: "bf16[1, 3]" = torch.ops.vllm.muls_add.default(x, y, 3.0)
        return (add, fused)
)FX");
  // 1.0078125 * 3 = 3.0234375 lies halfway between two bf16 values: the
  // chain stores 3.03125 (ties to even) and adding -0.0078125 ties back to it;
  // the fp32 kernel keeps 3.0234375 and stores 3.015625.
  std::vector<RuntimeValue> in{tensor(DType::BFloat16, {1, 3}, {1.0078125, 2, -0.5}),
                               tensor(DType::BFloat16, {1, 3}, {-0.0078125, 0.25, 4})};
  InterpreterOptions reference;
  reference.round_like_unfused = true;
  RunResult same = Interpreter(testing::registry(), reference).run(g, in);
  EXPECT_EQ(vals(same.outputs[0]), vals(same.outputs[1]));
  EXPECT_EQ(vals(same.outputs[1]), (std::vector<double>{3.03125, 6.25, 2.5}));
  RunResult device = run(g, in);
  EXPECT_EQ(vals(device.outputs[1]), (std::vector<double>{3.015625, 6.25, 2.5}));
}

}  // namespace eqfuse
