// ctest-label: golden
// The bundled examples load (parse, resolve, type-check) and have the
// structure the docs promise: which TorchAir fusions (torchair-passes.md §3.1-§3.5) apply
// where in the DeepSeek-style layer, and where one must NOT apply.
#include <filesystem>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/graph_json.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

LoadedGraph load_example(const std::string& name, const OpRegistry& reg) {
  std::string path = (fs::path(EQFUSE_SOURCE_DIR) / "examples" / name).string();
  return load_graph(read_file_or_stdin(path), path, reg);
}

TEST(Examples, EveryExampleLoadsAndIsFullyTyped) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(EQFUSE_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".fx") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    LoadedGraph g = load_example(entry.path().filename().string(), reg);
    EXPECT_EQ(g.format, GraphFormat::Fx);
    ASSERT_TRUE(g.graph.output().has_value());
    for (const Node& n : g.graph.nodes()) {
      if (n.kind == NodeKind::Output) continue;
      EXPECT_TRUE(n.type.is_known()) << n.name;
      if (n.kind == NodeKind::Call && n.target != "npu::npu_multi_head_latent_attention") {
        EXPECT_NE(n.op, kNoOp) << n.name << " " << n.target;
      }
    }
    // JSON round trip of the resolved graph.
    Graph back = load_graph_json(save_graph_json(g.graph), "x.json");
    EXPECT_EQ(back, g.graph);
  }
  EXPECT_GE(count, 4);
}

class DeepSeekLayer : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = load_example("deepseek_layer.fx", reg_);
    users_ = loaded_.graph.users();
  }
  const Node& node(const std::string& name) const {
    auto r = loaded_.graph.find(name);
    EXPECT_TRUE(r.has_value()) << name;
    return loaded_.graph.node(*r);
  }
  std::vector<std::string> user_names(const std::string& name) const {
    std::vector<std::string> out;
    for (NodeRef u : users_.at(static_cast<size_t>(loaded_.graph.find(name)->index)))
      out.push_back(loaded_.graph.node(u).name);
    return out;
  }
  const Arg& arg(const std::string& node_name, const std::string& arg_name) const {
    const Node& n = node(node_name);
    const OpSchema& s = reg_.info(n.op).schema;
    return n.args.at(static_cast<size_t>(s.arg_index(arg_name)));
  }

  OpRegistry reg_ = OpRegistry::with_builtin_ops();
  LoadedGraph loaded_;
  std::vector<std::vector<NodeRef>> users_;
};

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

TEST_F(DeepSeekLayer, ShapesAndOpaqueAttention) {
  EXPECT_THAT(loaded_.opaque_ops, ElementsAre("npu::npu_multi_head_latent_attention"));
  EXPECT_EQ(node("arg1_1").type,
            ValueType::of_tensor(DType::BFloat16, {SymInt::symbol("s0"), 7168}));
  EXPECT_EQ(node("sym_size_int").type, ValueType::of_symint(SymInt::symbol("s0")));
  EXPECT_EQ(loaded_.graph.output_values().size(), 4u);
}

TEST_F(DeepSeekLayer, RuleE_AddRmsNormThenQuantize) {
  // input_layernorm: y feeds only npu_quantize (div_mode default, axis -1,
  // qint8); rstd unused; xOut consumed by the next norm.
  EXPECT_THAT(user_names("npu_add_rms_norm"), UnorderedElementsAre("getitem", "getitem_2"));
  EXPECT_THAT(user_names("getitem"), ElementsAre("npu_quantize"));
  EXPECT_EQ(arg("npu_quantize", "axis"), Arg(int64_t{-1}));
  EXPECT_EQ(arg("npu_quantize", "div_mode"), Arg(true));
  EXPECT_EQ(node("arg4_1").type, node("arg3_1").type);  // scales shape == gamma shape
}

TEST_F(DeepSeekLayer, RuleD_BmmTransposeTwice) {
  // pattern3: transpose(0,1) -> expand -> bmm -> transpose(0,1), single users.
  EXPECT_THAT(user_names("transpose"), ElementsAre("expand"));
  EXPECT_THAT(user_names("expand"), ElementsAre("bmm"));
  EXPECT_THAT(user_names("bmm"), ElementsAre("transpose_1"));
  // pattern: expand -> bmm -> transpose(0,1).
  EXPECT_THAT(user_names("bmm_1"), ElementsAre("transpose_2"));
  for (const char* t : {"transpose", "transpose_1", "transpose_2"}) {
    EXPECT_EQ(arg(t, "dim0"), Arg(int64_t{0})) << t;
    EXPECT_EQ(arg(t, "dim1"), Arg(int64_t{1})) << t;
  }
}

TEST_F(DeepSeekLayer, RuleC_CastAppliesButRuleA_MustNotFuse) {
  // post_attention_layernorm: y is used by the router's view -> cast AND by
  // the shared expert's dynamic quant. Rule (c) may fuse (y is a pattern
  // output); rule (a) must not (y has two users).
  EXPECT_THAT(user_names("getitem_16"), UnorderedElementsAre("view_2", "npu_dynamic_quant_2"));
  EXPECT_THAT(user_names("view_2"), ElementsAre("_to_copy"));
  EXPECT_EQ(arg("_to_copy", "dtype"), Arg(DType::Float32));
  EXPECT_THAT(user_names("npu_add_rms_norm_1"), UnorderedElementsAre("getitem_16", "getitem_18"));
}

TEST_F(DeepSeekLayer, RuleA_NextLayerNormWithSmoothScales) {
  EXPECT_THAT(user_names("npu_add_rms_norm_2"), UnorderedElementsAre("getitem_23", "getitem_25"));
  EXPECT_THAT(user_names("getitem_23"), ElementsAre("npu_dynamic_quant_4"));
  EXPECT_TRUE(arg("npu_dynamic_quant_4", "smooth_scales").is_node());
  EXPECT_THAT(user_names("npu_dynamic_quant_4"), UnorderedElementsAre("getitem_26", "getitem_27"));
}

TEST(Examples, SeedIsTheUnfusedFormOfTheDocDump) {
  // The doc dump's fused graph returns (reshape(y, [6, 4]), reshape(scale,
  // [-1, 1]), x_out); the unfused example has the same inputs and outputs.
  OpRegistry reg = OpRegistry::with_builtin_ops();
  LoadedGraph g = load_example("seed_add_rms_norm_dynamic_quant.fx", reg);
  std::vector<NodeRef> outs = g.graph.output_values();
  ASSERT_EQ(outs.size(), 3u);
  EXPECT_EQ(g.graph.node(outs[0]).type, ValueType::of_tensor(DType::Int8, {6, 4}));
  EXPECT_EQ(g.graph.node(outs[1]).type, ValueType::of_tensor(DType::Float32, {6, 1}));
  EXPECT_EQ(g.graph.node(outs[2]).type, ValueType::of_tensor(DType::Float16, {2, 3, 4}));
  EXPECT_EQ(g.graph.placeholders().size(), 3u);
}

}  // namespace
}  // namespace eqfuse
