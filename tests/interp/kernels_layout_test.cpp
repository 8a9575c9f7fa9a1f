// ctest-label: numeric
// Layout kernels added for real traces: 1.13's `_reshape_alias` (a strided
// view sharing storage) and the triangular masks `triu` / `tril`.
#include <gtest/gtest.h>

#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::f32;
using testing::graph_from;
using testing::run;
using testing::vals;

TEST(LayoutKernels, ReshapeAliasIsAStridedViewOfItsInput) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        r: "f32[3, 2]" = torch.ops.aten._reshape_alias.default(x, [3, 2], [2, 1])
        t: "f32[2, 3]" = torch.ops.aten._reshape_alias.default(x, [2, 3], [1, 2])
        return (r, t)
)FX");
  RunResult out = run(g, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  EXPECT_EQ(vals(out.outputs[0]), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  // Strides [1, 2] read the storage column-major: [[1, 3, 5], [2, 4, 6]].
  EXPECT_EQ(vals(out.outputs[1]), (std::vector<double>{1, 3, 5, 2, 4, 6}));
}

TEST(LayoutKernels, TriuAndTrilKeepOneSideOfTheShiftedDiagonal) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 3]"):
        u: "f32[2, 3, 3]" = torch.ops.aten.triu.default(x, 1)
        l: "f32[2, 3, 3]" = torch.ops.aten.tril.default(x)
        return (u, l)
)FX");
  std::vector<double> ones(18, 1.0);
  RunResult out = run(g, {f32({2, 3, 3}, ones)});
  const std::vector<double> upper{0, 1, 1, 0, 0, 1, 0, 0, 0};
  const std::vector<double> lower{1, 0, 0, 1, 1, 0, 1, 1, 1};
  std::vector<double> u = vals(out.outputs[0]), l = vals(out.outputs[1]);
  EXPECT_EQ(std::vector<double>(u.begin(), u.begin() + 9), upper);
  EXPECT_EQ(std::vector<double>(u.begin() + 9, u.end()), upper);  // per matrix of the batch
  EXPECT_EQ(std::vector<double>(l.begin(), l.begin() + 9), lower);
}

}  // namespace
}  // namespace eqfuse
