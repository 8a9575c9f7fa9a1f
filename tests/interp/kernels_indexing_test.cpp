// ctest-label: numeric
// Reference kernels of issue 16's indexing, scatter, sort, norm, attention
// and dropout ops against hand-computed values. Where the comment says
// "torch", the numbers were checked once against PyTorch on CPU.
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

Tensor i64(Dims shape, std::vector<int64_t> v) {
  return Tensor::from_ints(DType::Int64, std::move(shape), v);
}

std::vector<double> iota(int64_t n) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<double>(i);
  return v;
}

// x = arange(24).reshape(2, 3, 4).
TEST(IndexingKernels, IndexWithNoneAdjacentAndSeparatedIndexTensors) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 4]", i: "i64[2]", j: "i64[2]", p: "i64[2, 1]", q: "i64[3]", m: "b8[2, 3]"):
        adjacent: "f32[2, 2]" = torch.ops.aten.index.Tensor(x, [None, i, j])
        separated: "f32[2, 3]" = torch.ops.aten.index.Tensor(x, [i, None, j])
        broadcast: "f32[2, 3, 3]" = torch.ops.aten.index.Tensor(x, [p, None, q])
        masked = torch.ops.aten.index.Tensor(x, [m])
        return (adjacent, separated, broadcast, masked)
)FX");
  RunResult r =
      run(g, {f32({2, 3, 4}, iota(24)), i64({2}, {0, -1}), i64({2}, {1, -1}), i64({2, 1}, {0, 1}),
              i64({3}, {1, 3, -1}), tensor(DType::Bool, {2, 3}, {1, 0, 1, 0, 0, 1})});
  // x[:, [0, -1], [1, -1]]: B = [2] stays in place of dims 1-2 -> [2, 2].
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1, 11, 13, 23}));
  // x[[0, -1], :, [1, -1]]: separated, so B = [2] goes first -> [2, 3].
  EXPECT_EQ(r.outputs[1].tensor().shape(), (Dims{2, 3}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 5, 9, 15, 19, 23}));
  // Index tensors [2, 1] and [3] broadcast to B = [2, 3], then dim 1 (torch).
  EXPECT_EQ(r.outputs[2].tensor().shape(), (Dims{2, 3, 3}));
  EXPECT_EQ(vals(r.outputs[2]),
            (std::vector<double>{1, 5, 9, 3, 7, 11, 3, 7, 11, 13, 17, 21, 15, 19, 23, 15, 19, 23}));
  // A bool mask over dims 0-1 selects rows (0,0), (0,2), (1,2).
  EXPECT_EQ(r.outputs[3].tensor().shape(), (Dims{3, 4}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{0, 1, 2, 3, 8, 9, 10, 11, 20, 21, 22, 23}));
}

TEST(IndexingKernels, IndexOutOfRangeIsAnErrorNamingTheNode) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]", i: "i64[1]"):
        bad: "f32[1]" = torch.ops.aten.index.Tensor(x, [i])
        return (bad,)
)FX");
  try {
    run(g, {f32({3}, {1, 2, 3}), i64({1}, {-4})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'bad'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("out of bounds"), std::string::npos) << e.what();
  }
}

TEST(IndexingKernels, IndexPutAccumulatesDuplicatesAndWrapsNegativeIndices) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]", i: "i64[3]", v: "f32[3]", j: "i64[2]", w: "f32[2]"):
        acc: "f32[4]" = torch.ops.aten.index_put.default(x, [i], v, True)
        put: "f32[4]" = torch.ops.aten.index_put.default(x, [j], w)
        inplace: "f32[4]" = torch.ops.aten.index_put_.default(x, [j], w, True)
        return (acc, put, inplace)
)FX");
  RunResult r = run(g, {f32({4}, {1, 1, 1, 1}), i64({3}, {0, 2, 0}), f32({3}, {1, 2, 3}),
                        i64({2}, {3, -4}), f32({2}, {5, 6})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{5, 1, 3, 1}));  // 1 + 1 + 3 at 0
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{6, 1, 1, 5}));  // -4 is index 0
  // The in-place form ran last and adds w at [3, 0].
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{7, 1, 1, 6}));
}

// a = [[1, 2, 3], [4, 5, 6]].
TEST(IndexingKernels, GatherScatterAndIndexAdd) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[2, 3]", gi: "i64[2, 2]", si: "i64[2, 3]", src: "f32[2, 3]", ri: "i64[2, 2]", rs: "f32[2, 2]", ai: "i64[3]", asrc: "f32[3, 3]", ci: "i64[2, 1]", cs: "f32[2, 1]"):
        gathered: "f32[2, 2]" = torch.ops.aten.gather.default(a, 1, gi)
        added: "f32[2, 3]" = torch.ops.aten.scatter_add.default(a, 1, si, src)
        mean_new: "f32[2, 3]" = torch.ops.aten.scatter_reduce.two(a, 1, ri, rs, 'mean', include_self = False)
        mean_all: "f32[2, 3]" = torch.ops.aten.scatter_reduce.two(a, 1, ri, rs, 'mean')
        amax: "f32[2, 3]" = torch.ops.aten.scatter_reduce.two(a, 1, ri, rs, 'amax', include_self = False)
        index_add: "f32[2, 3]" = torch.ops.aten.index_add.default(a, 0, ai, asrc, alpha = 2)
        scattered: "f32[2, 3]" = torch.ops.aten.scatter.src(a, 1, ci, cs)
        filled: "f32[2, 3]" = torch.ops.aten.scatter.value(a, 1, ci, 0.5)
        return (gathered, added, mean_new, mean_all, amax, index_add, scattered, filled)
)FX");
  RunResult r =
      run(g, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2, 2}, {2, 0, 1, 1}),
              i64({2, 3}, {0, 0, 2, 1, 1, 1}), f32({2, 3}, {1, 2, 3, 4, 5, 6}),
              i64({2, 2}, {0, 0, 2, 2}), f32({2, 2}, {10, 20, 7, 9}), i64({3}, {1, 1, 0}),
              f32({3, 3}, {1, 1, 1, 2, 2, 2, 3, 3, 3}), i64({2, 1}, {2, 0}), f32({2, 1}, {9, 8})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{3, 1, 5, 5}));
  // Duplicates add up: row 0 gets 1 + 2 at column 0; row 1 gets 4 + 5 + 6 at 1.
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{4, 2, 6, 4, 20, 6}));
  // Values from torch: mean without self (10 + 20) / 2; with self (1 + 10 + 20) / 3.
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{15, 2, 3, 4, 5, 8}));
  expect_near(vals(r.outputs[3]), {31.0 / 3, 2, 3, 4, 5, 22.0 / 3}, 1e-6);
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{20, 2, 3, 4, 5, 9}));
  // Row 1 += 2 * ([1,1,1] + [2,2,2]); row 0 += 2 * [3,3,3].
  EXPECT_EQ(vals(r.outputs[5]), (std::vector<double>{7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(vals(r.outputs[6]), (std::vector<double>{1, 2, 9, 8, 5, 6}));
  EXPECT_EQ(vals(r.outputs[7]), (std::vector<double>{1, 2, 0.5, 0.5, 5, 6}));
}

// int32 indices (what MoE routers hand over on GPU and NPU) address like int64 ones, for
// bf16 and fp32 values alike.
TEST(IndexingKernels, Int32IndicesWithBf16AndFp32Values) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "bf16[2, 3]", gi: "i32[2, 2]", si: "i32[2, 3]", src: "bf16[2, 3]", ai: "i32[3]", asrc: "bf16[3, 3]", f: "f32[2, 3]", fi: "i64[3]", fsrc: "f32[3, 3]"):
        gathered: "bf16[2, 2]" = torch.ops.aten.gather.default(a, 1, gi)
        added: "bf16[2, 3]" = torch.ops.aten.scatter_add.default(a, 1, si, src)
        scattered: "bf16[2, 3]" = torch.ops.aten.scatter.src(a, 1, si, src)
        index_add: "bf16[2, 3]" = torch.ops.aten.index_add.default(a, 0, ai, asrc, alpha = 2)
        index_add_64: "f32[2, 3]" = torch.ops.aten.index_add.default(f, 0, fi, fsrc)
        scatter_add_f32: "f32[2, 3]" = torch.ops.aten.scatter_add.default(f, 1, si, f)
        return (gathered, added, scattered, index_add, index_add_64, scatter_add_f32)
)FX");
  auto i32 = [](Dims shape, std::vector<int64_t> v) {
    return Tensor::from_ints(DType::Int32, std::move(shape), v);
  };
  auto bf16 = [](Dims shape, std::vector<double> v) {
    return tensor(DType::BFloat16, std::move(shape), std::move(v));
  };
  RunResult r = run(
      g, {bf16({2, 3}, {1, 2, 3, 4, 5, 6}), i32({2, 2}, {2, 0, 1, 1}),
          i32({2, 3}, {0, 0, 2, 1, 1, 1}), bf16({2, 3}, {1, 2, 3, 4, 5, 6}), i32({3}, {1, 1, 0}),
          bf16({3, 3}, {1, 1, 1, 2, 2, 2, 3, 3, 3}), f32({2, 3}, {1, 2, 3, 4, 5, 6}),
          i64({3}, {1, 1, 0}), f32({3, 3}, {1, 1, 1, 2, 2, 2, 3, 3, 3})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{3, 1, 5, 5}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{4, 2, 6, 4, 20, 6}));
  // Duplicate targets: the last write wins (row 0 col 0 gets 2, row 1 col 1 gets 6).
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{2, 2, 3, 4, 6, 6}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{7, 8, 9, 10, 11, 12}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(vals(r.outputs[5]), (std::vector<double>{4, 2, 6, 4, 20, 6}));
  for (size_t k = 0; k < 4; ++k) EXPECT_EQ(r.outputs[k].tensor().dtype(), DType::BFloat16);
}

TEST(IndexingKernels, IntegerScatterReduceMeanFloors) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "i64[2, 3]", i: "i64[2, 2]", s: "i64[2, 2]"):
        m: "i64[2, 3]" = torch.ops.aten.scatter_reduce.two(a, 1, i, s, 'mean')
        return (m,)
)FX");
  RunResult r = run(
      g, {i64({2, 3}, {1, 2, 3, 4, 5, 6}), i64({2, 2}, {0, 0, 2, 2}), i64({2, 2}, {10, 20, 7, 9})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{10, 2, 3, 4, 5, 7}));  // torch
}

// Ties keep the lower index first (torch CPU's own tie order depends on its
// selection algorithm; torch 1.13 returns [2, 4] for the first case).
TEST(IndexingKernels, TopkTiesTakeTheLowerIndexFirst) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[5]", y: "f32[6]", n: "f32[3]"):
        top = torch.ops.aten.topk.default(x, 2)
        tv: "f32[2]" = top[0]
        ti: "i64[2]" = top[1]
        low = torch.ops.aten.topk.default(y, 3, -1, False)
        lv: "f32[3]" = low[0]
        li: "i64[3]" = low[1]
        withnan = torch.ops.aten.topk.default(n, 2)
        nv: "f32[2]" = withnan[0]
        ni: "i64[2]" = withnan[1]
        return (tv, ti, lv, li, nv, ni)
)FX");
  RunResult r = run(
      g, {f32({5}, {1, 3, 3, 2, 3}), f32({6}, {1, 3, 3, 2, 3, 1}), f32({3}, {2, std::nan(""), 1})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{3, 3}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1, 1, 2}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{0, 5, 3}));
  // NaN counts as the largest value (torch).
  EXPECT_TRUE(std::isnan(vals(r.outputs[4])[0]));
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{1, 0}));
}

TEST(IndexingKernels, SortIsStableInBothDirections) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[5]", n: "f32[3]", m: "i64[3, 2]"):
        up = torch.ops.aten.sort.stable(x, stable = True)
        uv: "f32[5]" = up[0]
        ui: "i64[5]" = up[1]
        down = torch.ops.aten.sort.default(x, -1, True)
        dv: "f32[5]" = down[0]
        di: "i64[5]" = down[1]
        nan_up = torch.ops.aten.sort.default(n)
        nu: "i64[3]" = nan_up[1]
        cols: "i64[3, 2]" = torch.ops.aten.argsort.default(m, 0, True)
        return (uv, ui, dv, di, nu, cols)
)FX");
  RunResult r = run(g, {f32({5}, {2, 1, 2, 1, 0}), f32({3}, {2, std::nan(""), 1}),
                        i64({3, 2}, {5, 1, 7, 1, 5, 0})});
  // Values and indices from torch.
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{0, 1, 1, 2, 2}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{4, 1, 3, 0, 2}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{2, 2, 1, 1, 0}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{0, 2, 1, 3, 4}));
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{2, 0, 1}));  // NaN last
  // Column 0: 7 > 5 = 5 -> rows 1, 0, 2; column 1: 1 = 1 > 0 -> rows 0, 1, 2.
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{1, 0, 0, 1, 2, 2}));
}

// bf16 layer norm computed at (at least) fp32 precision and rounded once to
// bf16 (torch 2.x CPU); mean and rstd in bf16 too.
TEST(NnKernels, LayerNormInBf16RoundsOnceAtTheBoundary) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[2, 4]", w: "bf16[4]", b: "bf16[4]"):
        ln = torch.ops.aten.native_layer_norm.default(x, [4], w, b, 1e-05)
        y: "bf16[2, 4]" = ln[0]
        mean: "bf16[2, 1]" = ln[1]
        rstd: "bf16[2, 1]" = ln[2]
        plain: "bf16[2, 4]" = torch.ops.aten.layer_norm.default(x, [4], w, b)
        return (y, mean, rstd, plain)
)FX");
  RunResult r = run(g, {tensor(DType::BFloat16, {2, 4}, {1, 2, 3, 4, 0.5, -1, 2, 7}),
                        tensor(DType::BFloat16, {4}, {1, 0.5, 2, -1}),
                        tensor(DType::BFloat16, {4}, {0, 1, 0, 0.25})});
  // Row 0: mean 2.5, var 1.25, rstd 0.894424 -> y = (x - 2.5) * rstd * w + b.
  std::vector<double> y = {-1.34375,   0.77734375, 0.89453125,    -1.09375,
                           -0.5390625, 0.48046875, -0.0830078125, -1.3671875};
  EXPECT_EQ(vals(r.outputs[0]), y);
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::BFloat16);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{2.5, 2.125}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{0.89453125, 0.33203125}));
  EXPECT_EQ(vals(r.outputs[3]), y);
}

// A graph traced for CUDA or NPU keeps the statistics of a bf16 layer norm in fp32
// (torch's meta casts them to the input's dtype only on CPU): the annotation, carried
// to the call by type inference, is what the kernel computes.
TEST(NnKernels, LayerNormStatisticsTakeTheTracedDtype) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[2, 4]", w: "bf16[4]", b: "bf16[4]"):
        ln = torch.ops.aten.native_layer_norm.default(x, [4], w, b, 1e-05)
        y: "bf16[2, 4]" = ln[0]
        mean: "f32[2, 1]" = ln[1]
        rstd: "f32[2, 1]" = ln[2]
        return (y, mean, rstd)
)FX");
  infer_types(g, testing::registry());
  RunResult r = run(g, {tensor(DType::BFloat16, {2, 4}, {1, 2, 3, 4, 0.5, -1, 2, 7}),
                        tensor(DType::BFloat16, {4}, {1, 0.5, 2, -1}),
                        tensor(DType::BFloat16, {4}, {0, 1, 0, 0.25})});
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::Float32);
  EXPECT_EQ(r.outputs[2].tensor().dtype(), DType::Float32);
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{2.5, 2.125}));
  expect_near(vals(r.outputs[2]), {1 / std::sqrt(1.25 + 1e-5), 1 / std::sqrt(9.046875 + 1e-5)},
              1e-6);
  EXPECT_EQ(vals(r.outputs[0]),
            (std::vector<double>{-1.34375, 0.77734375, 0.89453125, -1.09375, -0.5390625, 0.48046875,
                                 -0.0830078125, -1.3671875}));
}

// q, k, v: [1, 1, 3, 2]; scale 1/sqrt(2).
TEST(NnKernels, CausalAttentionEqualsAnExplicitTrilMask) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, q: "f32[1, 1, 3, 2]", k: "f32[1, 1, 3, 2]", v: "f32[1, 1, 3, 2]", m: "b8[3, 3]", fm: "f32[3, 3]"):
        causal: "f32[1, 1, 3, 2]" = torch.ops.aten.scaled_dot_product_attention.default(q, k, v, is_causal = True)
        masked: "f32[1, 1, 3, 2]" = torch.ops.aten.scaled_dot_product_attention.default(q, k, v, m)
        additive: "f32[1, 1, 3, 2]" = torch.ops.aten.scaled_dot_product_attention.default(q, k, v, fm)
        flash = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, 0.0, True)
        fo: "f32[1, 1, 3, 2]" = flash[0]
        lse: "f32[1, 1, 3]" = flash[1]
        return (causal, masked, additive, fo, lse)
)FX");
  const double inf = std::numeric_limits<double>::infinity();
  RunResult r = run(g, {f32({1, 1, 3, 2}, {0.5, -1, 1.5, 0.25, -0.75, 2}),
                        f32({1, 1, 3, 2}, {1, 0.5, -0.5, 1, 0.25, -1.5}),
                        f32({1, 1, 3, 2}, {1, 2, 3, 4, -1, 0.5}),
                        tensor(DType::Bool, {3, 3}, {1, 0, 0, 1, 1, 0, 1, 1, 1}),
                        f32({3, 3}, {0, -inf, -inf, 0, 0, -inf, 0, 0, 0})});
  // From torch (fp64): row 0 sees only v[0]; rows 1-2 mix.
  std::vector<double> want = {
      1.0, 2.0, 1.3640755575412244, 2.3640755575412244, 2.5786124540581894, 3.5864938043595487};
  expect_near(vals(r.outputs[0]), want, 1e-6);
  EXPECT_EQ(vals(r.outputs[1]), vals(r.outputs[0]));
  EXPECT_EQ(vals(r.outputs[2]), vals(r.outputs[0]));
  EXPECT_EQ(vals(r.outputs[3]), vals(r.outputs[0]));
  expect_near(vals(r.outputs[4]), {0.0, 1.34998764719021, 1.8962059861598362}, 1e-6);
}

TEST(NnKernels, BaddbmmScalesBothTerms) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, s: "f32[1, 2, 2]", a: "f32[1, 2, 3]", b: "f32[1, 3, 2]"):
        out: "f32[1, 2, 2]" = torch.ops.aten.baddbmm.default(s, a, b, beta = 0.5, alpha = 2)
        return (out,)
)FX");
  RunResult r = run(g, {f32({1, 2, 2}, {1, 2, 3, 4}), f32({1, 2, 3}, {1, 0, 2, 0, 1, -1}),
                        f32({1, 3, 2}, {1, 1, 2, 0, 0, 3})});
  // a @ b = [[1, 7], [2, -3]]; 0.5 * s + 2 * (a @ b) (torch).
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{2.5, 15, 5.5, -4}));
}

// Rows 0-1 of a use group 0's matrix, row 2 group 1's; row 3 is in no group.
TEST(NnKernels, GroupedMmMultipliesEachRowGroupWithItsMatrix) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[4, 2]", b: "f32[2, 2, 1]", o: "i32[2]"):
        out: "f32[4, 1]" = torch.ops.aten._grouped_mm.default(a, b, o)
        return (out,)
)FX");
  RunResult r = run(g, {f32({4, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), f32({2, 2, 1}, {1, 1, 10, 0}),
                        Tensor::from_ints(DType::Int32, {2}, std::vector<int64_t>{2, 3})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{3, 7, 50, 0}));
}

TEST(NnKernels, DropoutInEvalModeIsTheIdentity) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]"):
        nd = torch.ops.aten.native_dropout.default(x, 0.5, False)
        out: "f32[3]" = nd[0]
        mask: "b8[3]" = nd[1]
        d: "f32[3]" = torch.ops.aten.dropout.default(x, 0.5, False)
        p0: "f32[3]" = torch.ops.aten.dropout.default(x, 0.0, True)
        return (out, mask, d, p0)
)FX");
  RunResult r = run(g, {f32({3}, {1.5, -2, 0.25})});
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{1.5, -2, 0.25}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1.5, -2, 0.25}));
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{1.5, -2, 0.25}));
}

TEST(NnKernels, TrainingDropoutHasNoDeterministicKernel) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[3]"):
        nd = torch.ops.aten.native_dropout.default(x, 0.5, True)
        out: "f32[3]" = nd[0]
        return (out,)
)FX");
  try {
    run(g, {f32({3}, {1, 2, 3})});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::native_dropout"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("random"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace eqfuse
