// The price of communication (cost/collective_cost.hpp): the α-β time of each collective
// against hand-computed values and docs/reference/collectives-cost.md §5's cross-check,
// the group size (from the op, else the profile's comm.world_size), links shared by a
// smaller group, rings and nodes, and the MC2 kernels: one launch, the matmul pipelined
// with the communication from min_split_rows rows up, so that the fused form loses at a
// few tokens and wins at many.
#include "cost/collective_cost.hpp"

#include <gtest/gtest.h>

#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cost_fixtures.hpp"

namespace eqfuse {
namespace {

using cost_detail::comm_time_us;
using testing_support::builtin_registry;

using testing_support::b2;
using testing_support::node_cost;
using testing_support::parse;

double graph_us(const std::string& text, const CostModel& model) {
  return graph_cost(parse(text), builtin_registry(), model).total_us;
}

// A row-parallel linear of `tokens` rows (hidden 8192 out, 4096/TP in), all_reduced.
std::string row_parallel(int tokens, bool fused) {
  const std::string t = std::to_string(tokens);
  std::string g = "class G(torch.nn.Module):\n    def forward(self, x: \"bf16[" + t +
                  ", 1024]\", w: \"bf16[1024, 8192]\"):\n";
  if (fused) {
    g += "        r: \"bf16[" + t +
         ", 8192]\" = torch.ops.npu.npu_mm_all_reduce_base.default(x, w, '0')\n";
  } else {
    g += "        mm: \"bf16[" + t + ", 8192]\" = torch.ops.aten.mm.default(x, w)\n";
    g += "        ar: \"bf16[" + t +
         ", 8192]\" = torch.ops._c10d_functional.all_reduce.default(mm, 'sum', '0')\n";
    g += "        r: \"bf16[" + t +
         ", 8192]\" = torch.ops._c10d_functional.wait_tensor.default(ar)\n";
  }
  return g + "        return (r,)\n";
}

TEST(CommTime, AllReduceOnTheA2MeshMatchesTheReferenceCrossCheck) {
  const CommParams c = comm_params_of(b2());
  // collectives-cost.md §5: 256 KiB over 8 ranks gives
  // 15 + 2 x 0.5 + 2 * 7/8 * 262144 B / (196 GB/s x 0.65) = 19.6 µs.
  const double expected = 15 + 2 * 0.5 + 2.0 * 7 / 8 * 262144 / (196 * 0.65 * 1e3);
  EXPECT_NEAR(comm_time_us(c, "all_reduce", 262144, 8), expected, 1e-9);
  EXPECT_NEAR(expected, 19.6, 0.05);
  // 64 MiB: about 938 µs (the CANN fit says 931).
  EXPECT_NEAR(comm_time_us(c, "all_reduce", 64.0 * (1 << 20), 8), 938, 1.0);
}

TEST(CommTime, GatherAndScatterMoveHalfAnAllReduceInOnePhase) {
  const CommParams c = comm_params_of(b2());
  const double bytes = 1 << 22;
  const double bw = 196 * 0.65 * 1e3;
  EXPECT_NEAR(comm_time_us(c, "all_gather", bytes, 8), 15 + 0.5 + 7.0 / 8 * bytes / bw, 1e-9);
  EXPECT_NEAR(comm_time_us(c, "reduce_scatter", bytes, 8), 15 + 0.5 + 7.0 / 8 * bytes / bw, 1e-9);
  EXPECT_NEAR(comm_time_us(c, "broadcast", bytes, 8), 15 + 0.5 + bytes / bw, 1e-9);
}

TEST(CommTime, ASmallerGroupDrivesFewerLinksOfTheMesh) {
  const CommParams c = comm_params_of(b2());
  const double bytes = 1 << 24;
  // 4 ranks use 3 of the 7 links: 84 GB/s of the 196.
  const double bw4 = 196.0 * 3 / 7 * 0.65 * 1e3;
  EXPECT_NEAR(comm_time_us(c, "all_reduce", bytes, 4), 15 + 1 + 2 * 0.75 * bytes / bw4, 1e-9);
  EXPECT_GT(comm_time_us(c, "all_reduce", bytes, 2), comm_time_us(c, "all_reduce", bytes, 8));
}

TEST(CommTime, RingsTakeAStepPerPeerAndNodesUseTheirNics) {
  CommParams c = comm_params_of(b2());
  EXPECT_EQ(comm_time_us(c, "all_reduce", 1 << 20, 1), 0.0);  // no peers
  const double mesh = comm_time_us(c, "all_reduce", 1024, 8);
  c.ring = 1;
  EXPECT_NEAR(comm_time_us(c, "all_reduce", 1024, 8) - mesh, 2 * 6 * 0.5, 1e-9);
  c.ring = 0;
  // 16 ranks leave the 8-NPU node: RoCE at 25 GB/s x 0.9, α 1.5 µs.
  const double bytes = 1 << 24;
  EXPECT_NEAR(comm_time_us(c, "all_reduce", bytes, 16),
              15 + 2 * 1.5 + 2.0 * 15 / 16 * bytes / (25 * 0.9 * 1e3), 1e-9);
}

TEST(CollectiveCost, AnAllReduceNodeIsOneLaunchPlusItsCommunication) {
  NpuCostModel model(b2(), ExecMode::ReduceOverhead);
  Graph g = parse(row_parallel(16, false));
  CostBreakdown c = node_cost(g, "ar", model);
  const double comm = comm_time_us(comm_params_of(b2()), "all_reduce", 16 * 8192 * 2, 8);
  EXPECT_TRUE(c.is_kernel);
  EXPECT_EQ(c.kernel_count, 1u);
  EXPECT_NEAR(c.device_us, c.launch_us + comm, 1e-9);
  EXPECT_NE(c.note.find("all_reduce of 256 KiB over 8 ranks"), std::string::npos) << c.note;
  // wait_tensor launches nothing.
  EXPECT_FALSE(node_cost(g, "r", model).is_kernel);
}

TEST(CollectiveCost, TheGroupSizeComesFromTheOpElseFromTheProfile) {
  DeviceProfile p = b2();
  p.set("comm.world_size", 2);
  NpuCostModel model(p, ExecMode::ReduceOverhead);
  Graph g = parse(
      "class G(torch.nn.Module):\n    def forward(self, x: \"bf16[16, 1024]\"):\n"
      "        ar: \"bf16[16, 1024]\" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', "
      "'0')\n"
      "        ag: \"bf16[64, 1024]\" = "
      "torch.ops._c10d_functional.all_gather_into_tensor.default(x, 4, '0')\n"
      "        return (ar, ag)\n");
  EXPECT_NE(node_cost(g, "ar", model).note.find("over 2 ranks"), std::string::npos);
  CostBreakdown ag = node_cost(g, "ag", model);
  EXPECT_NE(ag.note.find("all_gather of 128 KiB over 4 ranks"), std::string::npos) << ag.note;
}

TEST(CollectiveCost, Mc2LosesAtAFewTokensAndWinsAtMany) {
  NpuCostModel model(b2(), ExecMode::ReduceOverhead);
  // 16 tokens: below two 128-row tiles nothing overlaps, and the communication runs
  // 1.15x slower inside the kernel, which one saved launch does not repay.
  EXPECT_GT(graph_us(row_parallel(16, true), model), graph_us(row_parallel(16, false), model));
  // 4096 tokens: the matmul hides most of the communication.
  EXPECT_LT(graph_us(row_parallel(4096, true), model), graph_us(row_parallel(4096, false), model));
}

TEST(CollectiveCost, Mc2PricesItsMatmulAndPipelinesIt) {
  NpuCostModel model(b2(), ExecMode::ReduceOverhead);
  Graph fused = parse(row_parallel(4096, true));
  Graph plain = parse(row_parallel(4096, false));
  CostBreakdown mc2 = node_cost(fused, "r", model);
  CostBreakdown mm = node_cost(plain, "mm", model);
  CostBreakdown ar = node_cost(plain, "ar", model);
  EXPECT_EQ(mc2.kernel_class, KernelClass::Cube);
  EXPECT_DOUBLE_EQ(mc2.flops, 2.0 * 4096 * 1024 * 8192);
  const double t_mm = mm.device_us - mm.launch_us;
  const double t_comm = 1.15 * (ar.device_us - ar.launch_us);
  const double expected = std::max(t_mm, t_comm) + 0.2 * std::min(t_mm, t_comm);
  EXPECT_NEAR(mc2.device_us - mc2.launch_us, expected, 0.05 * expected);
  EXPECT_NE(mc2.note.find("overlap 0.8"), std::string::npos) << mc2.note;
  // The breakdown's columns add up to the device time (explain and `eqfuse cost` print
  // them): the communication's startup as fixed, the rest as compute.
  for (const CostBreakdown& c : {mc2, ar}) {
    EXPECT_NEAR(c.launch_us + c.fixed_us + c.compute_us, c.device_us, 1e-9);
    EXPECT_EQ(c.memory_us, 0.0);
  }
  EXPECT_EQ(ar.fixed_us, 15.0);
}

TEST(CollectiveCost, AProfileOverrideFixesTheTime) {
  DeviceProfile p = parse_device_profile(
      R"({"name": "t", "base": "ascend910b2", "overrides": {"_c10d_functional::all_reduce": {"fixed_us": 7, "source": "measured"}}})",
      "t.json");
  NpuCostModel model(p, ExecMode::ReduceOverhead);
  CostBreakdown c = node_cost(parse(row_parallel(16, false)), "ar", model);
  EXPECT_NEAR(c.device_us, c.launch_us + 7, 1e-9);
}

TEST(CollectiveCost, CommParametersAreCheckedWhenAProfileLoads) {
  EXPECT_THROW(
      parse_device_profile(
          R"({"name": "t", "base": "ascend910b2", "params": {"comm.algorithm_efficiency": {"value": 1.5, "source": "x"}}})",
          "t.json"),
      Error);
  EXPECT_THROW(
      parse_device_profile(
          R"({"name": "t", "base": "ascend910b2", "params": {"comm.world_size": {"value": 0, "source": "x"}}})",
          "t.json"),
      Error);
}

}  // namespace
}  // namespace eqfuse
