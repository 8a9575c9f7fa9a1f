// ctest-label: numeric
// Reference kernels of graph/kernels_reduction.cpp added for issue 16
// (cumsum, prod, any, all, histc) against hand-computed values. Every output
// is annotated, so the interpreter also checks each result's dtype and shape.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::f32;
using testing::graph_from;
using testing::ints;
using testing::run;
using testing::tensor;
using testing::vals;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Tensor of_ints(DType d, Dims shape, std::vector<int64_t> v) {
  return Tensor::from_ints(d, std::move(shape), v);
}

std::string run_error(const Graph& g, std::vector<RuntimeValue> inputs) {
  try {
    run(g, std::move(inputs));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ReductionKernels, CumsumOverAMiddleDimAndDtypes) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 2]", b: "b8[4]", i: "i32[3]", n: "f32[3]", s: "i8[2, 2]"):
        c1: "f32[2, 3, 2]" = torch.ops.aten.cumsum.default(x, 1)
        c2: "i64[4]" = torch.ops.aten.cumsum.default(b, 0)
        c3: "f64[3]" = torch.ops.aten.cumsum.default(i, 0, dtype = torch.float64)
        c4: "f32[3]" = torch.ops.aten.cumsum.default(n, -1)
        c5: "i64[2, 2]" = torch.ops.aten.cumsum.default(s, -1)
        return (c1, c2, c3, c4, c5)
)FX");
  std::vector<double> iota(12);
  for (size_t k = 0; k < iota.size(); ++k) iota[k] = static_cast<double>(k);
  RunResult r = run(g, {f32({2, 3, 2}, iota), of_ints(DType::Bool, {4}, {1, 1, 0, 1}),
                        of_ints(DType::Int32, {3}, {1, 2, 3}), f32({3}, {1, kNaN, 1}),
                        of_ints(DType::Int8, {2, 2}, {100, 100, -128, -1})});
  // x[i, :, k] for (i, k) = (0,0): 0 2 4 -> 0 2 6; (0,1): 1 3 5 -> 1 4 9;
  // (1,0): 6 8 10 -> 6 14 24; (1,1): 7 9 11 -> 7 16 27.
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{0, 1, 2, 4, 6, 9, 6, 7, 14, 16, 24, 27}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{1, 2, 2, 3}));  // bool -> int64
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{1, 3, 6}));
  std::vector<double> c4 = vals(r.outputs[3]);
  EXPECT_EQ(c4[0], 1);
  EXPECT_TRUE(std::isnan(c4[1]) && std::isnan(c4[2]));
  // int8 promotes to int64, so 100 + 100 does not wrap.
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{100, 200, -128, -129}));
}

TEST(ReductionKernels, ProdIncludingEmptyDims) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, s: "i8[3]", e: "f32[2, 0]", x: "f32[2, 3]", b: "b8[2]"):
        p1: "i64[]" = torch.ops.aten.prod.default(s)
        p2: "f32[2]" = torch.ops.aten.prod.dim_int(e, 1)
        p3: "f32[1, 3]" = torch.ops.aten.prod.dim_int(x, 0, True)
        p4: "i64[]" = torch.ops.aten.prod.default(b)
        p5: "f64[2]" = torch.ops.aten.prod.dim_int(x, -1, dtype = torch.float64)
        return (p1, p2, p3, p4, p5)
)FX");
  RunResult r = run(g, {of_ints(DType::Int8, {3}, {2, 3, -4}), f32({2, 0}, {}),
                        f32({2, 3}, {1, 2, 3, 4, 5, 6}), of_ints(DType::Bool, {2}, {1, 1})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{-24}));
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 1}));  // empty product
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{4, 10, 18}));
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{1}));
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{6, 120}));
}

TEST(ReductionKernels, AnyAndAllOverDims) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]", n: "f32[2]", u: "u8[2]", e: "f32[2, 0]", i: "i64[2, 3]"):
        a1: "b8[2]" = torch.ops.aten.any.dim(x, 1)
        a2: "b8[2]" = torch.ops.aten.all.dim(x, 1)
        a3: "b8[]" = torch.ops.aten.all.default(n)
        a4: "u8[]" = torch.ops.aten.any.default(u)
        a5: "b8[2]" = torch.ops.aten.any.dim(e, 1)
        a6: "b8[2]" = torch.ops.aten.all.dim(e, 1)
        a7: "b8[1, 3]" = torch.ops.aten.all.dim(i, 0, True)
        a8: "b8[]" = torch.ops.aten.any.default(x)
        return (a1, a2, a3, a4, a5, a6, a7, a8)
)FX");
  RunResult r = run(g, {f32({2, 3}, {0, 0, 0, 0, kNaN, 1}), f32({2}, {1, kNaN}),
                        of_ints(DType::UInt8, {2}, {0, 2}), f32({2, 0}, {}),
                        of_ints(DType::Int64, {2, 3}, {1, 2, 3, 0, 1, 1})});
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{1}));     // NaN counts as true
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{1}));     // uint8 keeps uint8
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{0, 0}));  // any of nothing
  EXPECT_EQ(ints(r.outputs[5]), (std::vector<int64_t>{1, 1}));  // all of nothing
  EXPECT_EQ(ints(r.outputs[6]), (std::vector<int64_t>{0, 1, 1}));
  EXPECT_EQ(ints(r.outputs[7]), (std::vector<int64_t>{1}));
}

TEST(ReductionKernels, HistcBinsAndEdges) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[5]", b: "f32[8]", c: "f32[2]", d: "f32[5]", e: "f64[4]"):
        h1: "f32[4]" = torch.ops.aten.histc.default(a, 4)
        h2: "f32[4]" = torch.ops.aten.histc.default(b, 4, 0, 4)
        h3: "f32[2]" = torch.ops.aten.histc.default(c, 2)
        h4: "f32[3]" = torch.ops.aten.histc.default(d, 3, 0, 3)
        h5: "f64[2]" = torch.ops.aten.histc.default(e, 2, 0.0, 1.0)
        return (h1, h2, h3, h4, h5)
)FX");
  RunResult r =
      run(g, {f32({5}, {1, 2, 1, 4, 5}), f32({8}, {0, 1, 2, 3, 4, -1, 5, kNaN}), f32({2}, {3, 3}),
              f32({5}, {0, 1, 2, 3, 4}), tensor(DType::Float64, {4}, {0.0, 1.0, 0.5, 0.49999})});
  // min == max == 0: the data's range [1, 5], edges 1 2 3 4 5; 5 falls in the last bin.
  EXPECT_EQ(vals(r.outputs[0]), (std::vector<double>{2, 1, 0, 2}));
  // Values outside [0, 4] and NaN are ignored (torch >= 1.13.1, pytorch#85853; older CPU
  // builds counted NaN in bin 0); 4 is in the last (closed) bin.
  EXPECT_EQ(vals(r.outputs[1]), (std::vector<double>{1, 1, 1, 2}));
  // A constant input widens its range to [2, 4]: 3 is in the second bin.
  EXPECT_EQ(vals(r.outputs[2]), (std::vector<double>{0, 2}));
  // Edges 0 1 2 3: 3 joins the last bin, 4 is outside.
  EXPECT_EQ(vals(r.outputs[3]), (std::vector<double>{1, 1, 2}));
  // Edges 0 0.5 1: 0.5 opens the second bin, 0.49999 stays in the first.
  EXPECT_EQ(vals(r.outputs[4]), (std::vector<double>{2, 2}));
}

TEST(ReductionKernels, HistcRejectsAnInvertedRange) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[1]"):
        h = torch.ops.aten.histc.default(a, 3, 2, 1)
        return (h,)
)FX");
  EXPECT_NE(run_error(g, {f32({1}, {1})}).find("max must be larger than min"), std::string::npos);
}

}  // namespace
}  // namespace eqfuse
