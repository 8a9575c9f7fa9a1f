// Pricing e-nodes: an e-node costs exactly what the FX node it was loaded
// from costs (same query from the tensor analysis facts), structural nodes
// are free, and transposes keep their dims through the constant children.
#include "pipeline/egraph_cost.hpp"

#include <filesystem>

#include <gtest/gtest.h>

#include "bridge/from_graph.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

// A graph loaded into a fresh e-graph with the tensor analysis.
struct Loaded {
  Graph graph;
  TensorAnalysis types{builtin_registry()};
  EGraph egraph{&types};
  LoadedEGraph loaded;

  explicit Loaded(const std::string& text)
      : graph(load_graph(text, "t.fx", builtin_registry()).graph) {
    loaded = load_into_egraph(graph, builtin_registry(), egraph);
    egraph.rebuild();
  }

  // The e-node graph node `name` became (the node of its class with the
  // op the loader encodes it with).
  Id enode_of(const std::string& name) const {
    const Node& n = graph.node(*graph.find(name));
    std::string op = n.op == kNoOp ? std::string(graph_ops::kOpaquePrefix) + n.target
                                   : builtin_registry().info(n.op).schema.qualified_name();
    Id cls = egraph.find(loaded.class_of(*graph.find(name)));
    for (Id id : egraph.class_nodes(cls))
      if (egraph.node_op(id).str() == op) return id;
    ADD_FAILURE() << "no e-node for " << name;
    return kNoId;
  }
};

NpuCostModel ro_model() {
  return NpuCostModel(load_device_profile("ascend910b2"), ExecMode::ReduceOverhead);
}

// Every call node of the graph costs the same as its e-node.
void expect_same_costs(const Loaded& l, const CostModel& model) {
  std::vector<ValueType> storage;
  size_t compared = 0;
  for (size_t i = 0; i < l.graph.size(); ++i) {
    const Node& n = l.graph.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind != NodeKind::Call) continue;
    CostBreakdown fx = model.cost(
        query_for_node(l.graph, NodeRef{static_cast<int32_t>(i)}, builtin_registry(), storage));
    CostBreakdown en = enode_cost(l.egraph, l.types, builtin_registry(), model, l.enode_of(n.name));
    EXPECT_EQ(fx.is_kernel, en.is_kernel) << n.name;
    EXPECT_NEAR(fx.total_us, en.total_us, 1e-9) << n.name;
    EXPECT_DOUBLE_EQ(fx.bytes, en.bytes) << n.name;
    EXPECT_DOUBLE_EQ(fx.flops, en.flops) << n.name;
    ++compared;
  }
  EXPECT_GT(compared, 0u);
}

TEST(EGraphCost, DeepSeekLayerENodesCostWhatTheirNodesCost) {
  Loaded l(
      read_file_or_stdin(std::filesystem::path(EQFUSE_SOURCE_DIR) / "examples/deepseek_layer.fx"));
  expect_same_costs(l, ro_model());
  expect_same_costs(l, NpuCostModel(load_device_profile("h100"), ExecMode::Eager));
}

TEST(EGraphCost, StructuralNodesAreFree) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[16, 64]", x2: "bf16[16, 64]", g: "bf16[64]"):
        arn = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)
        y: "bf16[16, 64]" = arn[0]
        cat: "bf16[32, 64]" = torch.ops.aten.cat.default([y, x1])
        return (cat,)
)");
  NpuCostModel m = ro_model();
  size_t kernels = 0;
  for (Id cls : l.egraph.class_ids()) {
    for (Id n : l.egraph.class_nodes(cls)) {
      CostBreakdown c = enode_cost(l.egraph, l.types, builtin_registry(), m, n);
      std::string_view op = l.egraph.node_op(n).str();
      if (c.is_kernel) {
        ++kernels;
        EXPECT_TRUE(op == "npu::npu_add_rms_norm" || op == "aten::cat") << op;
      } else {
        EXPECT_EQ(c.total_us, 0) << op;
      }
    }
  }
  EXPECT_EQ(kernels, 2u);
  // cat reads its tensor list (a prim::list child) and writes the result.
  CostBreakdown cat = enode_cost(l.egraph, l.types, builtin_registry(), m, l.enode_of("cat"));
  EXPECT_DOUBLE_EQ(cat.bytes, (16 * 64 * 2) * 2 + 32 * 64 * 2);
}

TEST(EGraphCost, TransposeDimsComeFromConstantChildren) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, a: "bf16[64, 128]", b: "bf16[1, 64, 128]"):
        moves: "bf16[128, 64]" = torch.ops.aten.transpose.int(a, 0, 1)
        same: "bf16[64, 128]" = torch.ops.aten.transpose.int(a, 1, -1)
        ones: "bf16[64, 1, 128]" = torch.ops.aten.permute.default(b, [1, 0, 2])
        real: "bf16[128, 1, 64]" = torch.ops.aten.permute.default(b, [2, 0, 1])
        return (moves, same, ones, real)
)");
  NpuCostModel m = ro_model();
  auto cost = [&](const char* name) {
    return enode_cost(l.egraph, l.types, builtin_registry(), m, l.enode_of(name));
  };
  EXPECT_TRUE(cost("moves").is_kernel);
  EXPECT_NEAR(cost("moves").total_us, 2 + 4 + 2.0 * 64 * 128 * 2 / 1.2e6, 1e-9);
  EXPECT_FALSE(cost("same").is_kernel);
  EXPECT_FALSE(cost("ones").is_kernel);
  EXPECT_TRUE(cost("real").is_kernel);
  expect_same_costs(l, m);
}

TEST(EGraphCost, OpaqueENodesAreKernels) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, a: "bf16[128, 256]"):
        m: "bf16[128, 256]" = torch.ops.mylib.mystery.default(a)
        return (m,)
)");
  CostBreakdown c = enode_cost(l.egraph, l.types, builtin_registry(), ro_model(), l.enode_of("m"));
  EXPECT_TRUE(c.is_kernel);
  EXPECT_DOUBLE_EQ(c.bytes, 2 * 128 * 256 * 2);
  EXPECT_DOUBLE_EQ(c.flops, 0);
}

}  // namespace
}  // namespace eqfuse
