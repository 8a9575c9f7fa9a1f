// ctest-label: numeric
// Reference kernels of interp/kernels_reduction.cpp added for issue 16
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

// Integer inputs are counted as torch's CUDA kernel counts them (torch's CPU kernel
// refuses them; graphs traced for CUDA or NPU have them): integer min and max, element
// v in bin (v - min) * bins / (max - min), the last bin closed, counts in self's dtype.
TEST(ReductionKernels, HistcCountsIntegerInputsAsTheCudaKernelDoes) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, ids: "i32[6, 2]", v: "i64[10]", c: "i32[3]", s: "i8[4]"):
        h1: "i32[4]" = torch.ops.aten.histc.default(ids, 4, 0, 3)
        h2: "i64[4]" = torch.ops.aten.histc.default(v, 4, 0, 9)
        h3: "i32[2]" = torch.ops.aten.histc.default(c, 2)
        h4: "i64[3]" = torch.ops.aten.histc.default(v, 3, 0.5, 6.9)
        h5: "i8[2]" = torch.ops.aten.histc.default(s, 2, -128, 127)
        return (h1, h2, h3, h4, h5)
)FX");
  RunResult r = run(
      g, {of_ints(DType::Int32, {6, 2}, {0, 3, 1, 3, 3, 2, 0, 0, 1, 3, 2, 3}),
          of_ints(DType::Int64, {10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}),
          of_ints(DType::Int32, {3}, {5, 5, 5}), of_ints(DType::Int8, {4}, {-128, -1, 0, 127})});
  // An MoE router's tokens per expert: bins = E, min = 0, max = E - 1 count each id.
  EXPECT_EQ(ints(r.outputs[0]), (std::vector<int64_t>{3, 2, 2, 5}));
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Int32);
  // v * 4 / 9: 0 1 2 -> 0, 3 4 -> 1, 5 6 -> 2, 7 8 -> 3, 9 -> 4 joins the last bin.
  EXPECT_EQ(ints(r.outputs[1]), (std::vector<int64_t>{3, 2, 2, 3}));
  // min == max == 0: the data's range [5, 5], widened to [4, 6]; 5 is in the second bin.
  EXPECT_EQ(ints(r.outputs[2]), (std::vector<int64_t>{0, 3}));
  // Float bounds truncate to [0, 6]: v / 2 per bin, 6 joins the last one, 7..9 are outside.
  EXPECT_EQ(ints(r.outputs[3]), (std::vector<int64_t>{2, 2, 3}));
  // The whole int8 range in two bins.
  EXPECT_EQ(ints(r.outputs[4]), (std::vector<int64_t>{2, 2}));
}

// histc of a bool tensor has a meta (its dtype) but no kernel anywhere: the node is an
// uninterpreted function, not an error.
TEST(ReductionKernels, HistcOfBoolIsAnUninterpretedFunction) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, b: "b8[4]"):
        h: "b8[2]" = torch.ops.aten.histc.default(b, 2, 0, 1)
        return (h,)
)FX");
  std::vector<RuntimeValue> in{of_ints(DType::Bool, {4}, {1, 0, 1, 1})};
  RunResult r = run(g, in);
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Bool);
  EXPECT_EQ(r.outputs[0].tensor().shape(), (Dims{2}));
  InterpreterOptions strict;
  strict.allow_opaque = false;
  try {
    Interpreter(testing::registry(), strict).run(g, in);
    ADD_FAILURE() << "no error in strict mode";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("aten::histc"), std::string::npos) << e.what();
  }
}

// Mixed-dtype matmuls that torch's meta types but no kernel computes (mm keeps self's
// dtype, addmm promotes with self) are uninterpreted functions of the node's type.
TEST(ReductionKernels, MixedDtypeMatmulsAreUninterpretedFunctions) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f32[2, 3]", b: "bf16[3, 2]", s: "f32[2]", c: "bf16[2, 3]"):
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(a, b)
        addmm: "f32[2, 2]" = torch.ops.aten.addmm.default(s, c, b)
        return (mm, addmm)
)FX");
  RunResult r =
      run(g, {f32({2, 3}, {1, 2, 3, 4, 5, 6}), tensor(DType::BFloat16, {3, 2}, {1, 0, 0, 1, 1, 1}),
              f32({2}, {0, 0}), tensor(DType::BFloat16, {2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(r.outputs[0].tensor().dtype(), DType::Float32);
  EXPECT_EQ(r.outputs[1].tensor().dtype(), DType::Float32);
}

}  // namespace
}  // namespace eqfuse
