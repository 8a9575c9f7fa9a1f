// Node-by-node cost comparison of two graphs (cost/cost_report.hpp): rows
// matched by node name, kernels only one graph has, a kernel that is a free
// view in the other graph, totals, and the text/JSON forms.
#include "cost/cost_report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

using ::testing::HasSubstr;

Graph parse(std::string_view text) {
  return load_graph(text, "test.fx", builtin_registry()).graph;
}

// bmm -> transpose, as the input gives it and as `eqfuse optimize` fuses it.
constexpr std::string_view kUnfused = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(arg0_1, arg1_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        relu: "f16[2, 4, 256]" = torch.ops.aten.relu.default(transpose)
        return (relu,)
)";
constexpr std::string_view kFused = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        npu_transpose_batchmatmul: "f16[2, 4, 256]" = torch.ops.npu.npu_transpose_batchmatmul.default(arg0_1, arg1_1, perm_x1 = [0, 1, 2])
        relu: "f16[2, 4, 256]" = torch.ops.aten.relu.default(npu_transpose_batchmatmul)
        return (relu,)
)";

NpuCostModel model() {
  return NpuCostModel(load_device_profile("ascend910b2"), ExecMode::ReduceOverhead);
}

const NodeCostDiff& row(const GraphCostDiff& d, std::string_view name) {
  for (const NodeCostDiff& r : d.rows)
    if (r.node == name) return r;
  ADD_FAILURE() << "no row " << name;
  static const NodeCostDiff none;
  return none;
}

TEST(CostReport, ComparesMatchedRemovedAndAddedKernels) {
  Graph a = parse(kUnfused), b = parse(kFused);
  NpuCostModel m = model();
  GraphCostDiff d = compare_graph_costs(a, b, builtin_registry(), m);
  EXPECT_EQ(d.model, "ascend910b2, reduce-overhead");
  ASSERT_EQ(d.rows.size(), 4u);  // A's kernels in order, then B's new one
  EXPECT_EQ(d.rows[0].node, "bmm");
  EXPECT_EQ(d.rows[1].node, "transpose");
  EXPECT_EQ(d.rows[2].node, "relu");
  EXPECT_EQ(d.rows[3].node, "npu_transpose_batchmatmul");

  const NodeCostDiff& bmm = row(d, "bmm");
  EXPECT_EQ(bmm.op_a, "aten::bmm");
  EXPECT_EQ(bmm.op_b, "");
  ASSERT_TRUE(bmm.a.has_value());
  EXPECT_FALSE(bmm.b.has_value());
  EXPECT_DOUBLE_EQ(bmm.delta_us(), -bmm.a->total_us);

  const NodeCostDiff& relu = row(d, "relu");  // unchanged: same cost on both sides
  EXPECT_EQ(relu.op_a, "aten::relu");
  EXPECT_EQ(relu.op_b, "aten::relu");
  ASSERT_TRUE(relu.a && relu.b);
  EXPECT_DOUBLE_EQ(relu.delta_us(), 0.0);

  const NodeCostDiff& fused = row(d, "npu_transpose_batchmatmul");
  EXPECT_EQ(fused.op_a, "");
  EXPECT_EQ(fused.op_b, "npu::npu_transpose_batchmatmul");
  ASSERT_TRUE(fused.b.has_value());

  // The rows account for the whole difference (the per-graph cost is in both).
  double sum = 0;
  for (const NodeCostDiff& r : d.rows) sum += r.delta_us();
  EXPECT_NEAR(sum, d.delta_us(), 1e-9);
  EXPECT_NEAR(d.a.total_us, graph_cost(a, builtin_registry(), m).total_us, 1e-12);
  EXPECT_DOUBLE_EQ(d.per_graph_us, 50.0);
  EXPECT_LT(d.delta_us(), 0);  // the fused form is cheaper on the built-in profile

  std::string text = format_cost_diff(d);
  EXPECT_THAT(text, HasSubstr("A 3 kernels, B 2 kernels"));
  EXPECT_THAT(text, HasSubstr("npu::npu_transpose_batchmatmul"));
  auto j = nlohmann::json::parse(cost_diff_to_json(d));
  EXPECT_EQ(j["rows"].size(), 4u);
  EXPECT_TRUE(j["rows"][0]["b"].is_null());
  EXPECT_EQ(j["rows"][3]["op_b"], "npu::npu_transpose_batchmatmul");
  EXPECT_DOUBLE_EQ(j["delta_us"].get<double>(), d.delta_us());
}

TEST(CostReport, SameGraphHasNoDifference) {
  Graph a = parse(kUnfused);
  NpuCostModel m = model();
  GraphCostDiff d = compare_graph_costs(a, a, builtin_registry(), m);
  ASSERT_EQ(d.rows.size(), 3u);
  for (const NodeCostDiff& r : d.rows) {
    EXPECT_EQ(r.op_a, r.op_b);
    EXPECT_DOUBLE_EQ(r.delta_us(), 0.0) << r.node;
  }
  EXPECT_DOUBLE_EQ(d.delta_us(), 0.0);
}

// A node that is a kernel in A and a free view of the same name in B is one
// row with an empty B side (not a removed plus an added row).
TEST(CostReport, KernelThatBecomesAViewIsOneRow) {
  Graph a = parse(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[4, 2, 8]"):
        t: "f16[2, 4, 8]" = torch.ops.aten.transpose.int(x, 1, 0)
        return (t,)
)");
  Graph b = parse(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[4, 2, 8]"):
        t: "f16[2, 4, 8]" = torch.ops.aten.view.default(x, [2, 4, 8])
        return (t,)
)");
  GraphCostDiff d = compare_graph_costs(a, b, builtin_registry(), model());
  ASSERT_EQ(d.rows.size(), 1u);
  EXPECT_EQ(d.rows[0].op_a, "aten::transpose.int");
  EXPECT_EQ(d.rows[0].op_b, "aten::view");
  EXPECT_TRUE(d.rows[0].a.has_value());
  EXPECT_FALSE(d.rows[0].b.has_value());
  EXPECT_EQ(d.b.kernels, 0u);
}

TEST(CostReport, TableListsEveryKernelWithItsBreakdown) {
  Graph a = parse(kUnfused);
  NpuCostModel m = model();
  GraphCost c = graph_cost(a, builtin_registry(), m);
  std::string text = format_cost_table(a, c, builtin_registry(), m);
  EXPECT_THAT(text, HasSubstr("cost on ascend910b2, reduce-overhead: 3 kernels"));
  EXPECT_THAT(text, HasSubstr("transpose priced as an implicit contiguous copy"));
  EXPECT_THAT(text, HasSubstr("per graph: 50.000 us"));
  auto j = nlohmann::json::parse(cost_table_to_json(a, c, builtin_registry(), m));
  ASSERT_EQ(j["kernels"].size(), 3u);
  EXPECT_EQ(j["kernels"][0]["node"], "bmm");
  EXPECT_EQ(j["kernels"][0]["class"], "cube");
  EXPECT_DOUBLE_EQ(j["kernels"][0]["bytes"].get<double>(), 2048 + 262144 + 4096);
  EXPECT_DOUBLE_EQ(j["totals"]["total_us"].get<double>(), c.total_us);
}

}  // namespace
}  // namespace eqfuse
