// The default rules on small graphs: after saturation, the fused form is
// (or, for negative cases, is not) in the e-class of the original outputs,
// and layout rules stay bounded.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "egraph/runner.hpp"
#include "graph/io/load.hpp"
#include "rewrites/rule.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;
using testing_support::builtin_rules;

struct Saturated {
  std::unique_ptr<TensorAnalysis> types = std::make_unique<TensorAnalysis>(builtin_registry());
  std::unique_ptr<EGraph> g = std::make_unique<EGraph>(types.get());
  LoadedEGraph loaded;
  Graph graph;
  RunReport report;
  CompiledRules rules;

  // True if output `i`'s class holds a projection of (or is) a node with op `op`.
  bool output_has(size_t i, std::string_view op) const {
    Symbol want = Symbol::intern(op);
    static const Symbol getitem = Symbol::intern(graph_ops::kGetItem);
    Id cls = g->find(loaded.outputs.at(i));
    for (Id n : g->class_nodes(cls)) {
      NodeView v = g->node(n);
      if (v.op == want) return true;
      if (v.op == getitem) {
        for (Id m : g->class_nodes(g->find(v.children[0])))
          if (g->node(m).op == want) return true;
      }
    }
    return false;
  }
  size_t egraph_count(std::string_view op) const {
    Symbol want = Symbol::intern(op);
    size_t n = 0;
    for (Id c : g->class_ids())
      for (Id m : g->class_nodes(c))
        if (g->node(m).op == want) ++n;
    return n;
  }
  bool egraph_has(std::string_view op) const { return egraph_count(op) > 0; }
};

Saturated saturate(std::string_view fx, RuleConfig cfg = {}) {
  Saturated s;
  s.graph = load_graph(fx, "test.fx", builtin_registry()).graph;
  s.loaded = load_into_egraph(s.graph, builtin_registry(), *s.g);
  s.g->rebuild();
  std::vector<std::string> streams{""};
  for (const Node& n : s.graph.nodes())
    if (!n.meta.stream.empty() &&
        std::find(streams.begin(), streams.end(), n.meta.stream) == streams.end())
      streams.push_back(n.meta.stream);
  s.rules = builtin_rules().compile(cfg, streams, s.types.get());
  s.report = Runner(*s.g, {.limits = {.iterations = 20, .nodes = 20'000}}).run(s.rules.rewrites);
  s.g->check_invariants();
  return s;
}

constexpr std::string_view kDynamicQuant = R"(
def forward(self, x1: "f16[2, 3, 64]", x2: "f16[2, 3, 64]", gamma: "f16[64]", smooth: "f16[64]"):
    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    getitem = npu_add_rms_norm[0]
    getitem_2 = npu_add_rms_norm[2]
    npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = smooth)
    getitem_3 = npu_dynamic_quant[0]
    getitem_4 = npu_dynamic_quant[1]
    return (getitem_3, getitem_2, getitem_4)
)";

TEST(RuleSaturation, RuleAPutsTheFusedOpInEveryOutputClass) {
  Saturated s = saturate(kDynamicQuant);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_TRUE(s.output_has(i, "npu::npu_add_rms_norm_dynamic_quant")) << "output " << i;
  EXPECT_EQ(s.report.stop, StopReason::Saturated);
}

TEST(RuleSaturation, PatternFusionPassOffMeansNoFusedOp) {
  RuleConfig cfg;
  cfg.pattern_fusion_pass = false;
  Saturated s = saturate(kDynamicQuant, cfg);
  EXPECT_FALSE(s.egraph_has("npu::npu_add_rms_norm_dynamic_quant"));
}

TEST(RuleSaturation, UnsupportedDtypeIsRejectedAndLogged) {
  std::string fx(kDynamicQuant);
  for (size_t p = fx.find("f16"); p != std::string::npos; p = fx.find("f16", p))
    fx.replace(p, 3, "f32");
  Saturated s = saturate(fx);
  EXPECT_FALSE(s.egraph_has("npu::npu_add_rms_norm_dynamic_quant"));
  bool logged = false;
  for (const Rejection& r : s.rules.rejections->entries)
    logged |= r.rule == "torchair/add-rms-norm-dynamic-quant" &&
              r.condition.find("x1.dtype in") != std::string::npos;
  EXPECT_TRUE(logged);
}

TEST(RuleSaturation, FlattenVariantIsDerived) {
  // TorchAir rule (b): y.flatten(0, 1) -> dynamic_quant -> scale.view(-1, 1).
  constexpr std::string_view fx = R"(
def forward(self, x1: "f16[2, 3, 64]", x2: "f16[2, 3, 64]", gamma: "f16[64]"):
    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    getitem = npu_add_rms_norm[0]
    getitem_2 = npu_add_rms_norm[2]
    view = torch.ops.aten.view.default(getitem, [6, 64])
    npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)
    getitem_3 = npu_dynamic_quant[0]
    getitem_4 = npu_dynamic_quant[1]
    view_1 = torch.ops.aten.view.default(getitem_4, [-1, 1])
    return (getitem_2, getitem_3, view_1)
)";
  Saturated s = saturate(fx);
  EXPECT_TRUE(s.output_has(0, "npu::npu_add_rms_norm_dynamic_quant"));
  EXPECT_TRUE(s.egraph_has("npu::npu_add_rms_norm_dynamic_quant"));
}

TEST(RuleSaturation, CastViewVariantIsDerivedForBothSpellings) {
  for (std::string_view cast : {"torch.ops.aten._to_copy.default(view, dtype = torch.float32)",
                                "torch.ops.npu._npu_dtype_cast.default(view, torch.float32)"}) {
    std::string fx = R"(
def forward(self, x1: "bf16[2, 3, 64]", x2: "bf16[2, 3, 64]", gamma: "bf16[64]"):
    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    getitem = npu_add_rms_norm[0]
    getitem_2 = npu_add_rms_norm[2]
    view = torch.ops.aten.view.default(getitem, [-1, 64])
    cast = )" + std::string(cast) +
                     R"(
    return (cast, getitem_2)
)";
    Saturated s = saturate(fx);
    EXPECT_TRUE(s.output_has(1, "npu::npu_add_rms_norm_cast")) << cast;
  }
}

// `transpose(bmm(a, b), dims)` in f16 with a: [64, 4, k] and b: [64, k, 128].
std::string bmm_transpose_fx(int k, std::string_view dims) {
  return fmt::format(R"(
def forward(self, a: "f16[64, 4, {0}]", b: "f16[64, {0}, 128]"):
    bmm = torch.ops.aten.bmm.default(a, b)
    transpose = torch.ops.aten.transpose.int(bmm, {1})
    return (transpose,)
)",
                     k, dims);
}

TEST(RuleSaturation, BmmTransposeInEveryTransposeSpelling) {
  for (std::string_view dims : {"0, 1", "1, 0", "-3, -2"}) {
    Saturated s = saturate(bmm_transpose_fx(512, dims));
    EXPECT_TRUE(s.output_has(0, "npu::npu_transpose_batchmatmul")) << dims;
  }
}

TEST(RuleSaturation, BmmTransposeRejectsUnalignedKAndOtherDims) {
  EXPECT_FALSE(saturate(bmm_transpose_fx(511, "1, 0")).egraph_has("npu::npu_transpose_batchmatmul"))
      << "k = 511 is not aligned";
  for (std::string_view dims : {"0, 2", "0, 0"}) {
    EXPECT_FALSE(saturate(bmm_transpose_fx(512, dims)).egraph_has("npu::npu_transpose_batchmatmul"))
        << dims;
  }
  RuleConfig ge;
  ge.mode = ExecMode::MaxAutotune;
  EXPECT_FALSE(
      saturate(bmm_transpose_fx(512, "1, 0"), ge).egraph_has("npu::npu_transpose_batchmatmul"))
      << "max-autotune (GE) mode";
}

TEST(RuleSaturation, QuantRuleChecksAlignmentAndZeroPointDtype) {
  auto graph = [](std::string_view last, std::string_view zp) {
    return "def forward(self, x1: \"bf16[2, " + std::string(last) + "]\", x2: \"bf16[2, " +
           std::string(last) + "]\", gamma: \"bf16[" + std::string(last) + "]\", scales: \"bf16[" +
           std::string(last) + "]\", zp: \"" + std::string(zp) + "[" + std::string(last) +
           "]\"):\n" +
           "    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)\n"
           "    getitem = npu_add_rms_norm[0]\n"
           "    getitem_2 = npu_add_rms_norm[2]\n"
           "    npu_quantize = torch.ops.npu.npu_quantize.default(getitem, scales, zp, "
           "torch.qint8, -1)\n"
           "    return (npu_quantize, getitem_2)\n";
  };
  EXPECT_TRUE(saturate(graph("16", "bf16")).output_has(0, "npu::npu_add_rms_norm_quant"));
  EXPECT_FALSE(saturate(graph("3", "bf16")).egraph_has("npu::npu_add_rms_norm_quant"));
  EXPECT_FALSE(saturate(graph("16", "i8")).egraph_has("npu::npu_add_rms_norm_quant"));
  EXPECT_FALSE(saturate(graph("16", "u8")).egraph_has("npu::npu_add_rms_norm_quant"));
  EXPECT_FALSE(saturate(graph("s1", "bf16")).egraph_has("npu::npu_add_rms_norm_quant"));
}

TEST(RuleSaturation, CrossStreamMatchesNeverFuse) {
  // The cast runs on stream '2', the add_rms_norm on the default stream.
  constexpr std::string_view fx = R"(
def forward(self, x1: "f16[2, 64]", x2: "f16[2, 64]", gamma: "f16[64]"):
    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    getitem = npu_add_rms_norm[0]
    getitem_2 = npu_add_rms_norm[2]
    scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
    cast = torch.ops.aten._to_copy.default(getitem, dtype = torch.float32)
    scope_exit = torch.ops.air.scope_exit.default()
    return (cast, getitem_2)
)";
  Saturated s = saturate(fx);
  EXPECT_FALSE(s.egraph_has("npu::npu_add_rms_norm_cast"));
}

TEST(RuleSaturation, SameNonDefaultStreamFuses) {
  constexpr std::string_view fx = R"(
def forward(self, x1: "f16[2, 64]", x2: "f16[2, 64]", gamma: "f16[64]"):
    scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
    npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
    getitem = npu_add_rms_norm[0]
    getitem_2 = npu_add_rms_norm[2]
    cast = torch.ops.aten._to_copy.default(getitem, dtype = torch.float32)
    scope_exit = torch.ops.air.scope_exit.default()
    return (cast, getitem_2)
)";
  Saturated s = saturate(fx);
  EXPECT_TRUE(s.output_has(1, "npu::npu_add_rms_norm_cast"));
}

TEST(RuleSaturation, ExamplesSaturateWithinBoundedGrowth) {
  for (const char* name : {"deepseek_layer.fx", "seed_add_rms_norm_dynamic_quant.fx",
                           "matmul_transpose.fx", "add_rms_norm_cast.fx"}) {
    std::string path = std::string(EQFUSE_SOURCE_DIR) + "/examples/" + name;
    Saturated s = saturate(read_file_or_stdin(path));
    EXPECT_EQ(s.report.stop, StopReason::Saturated) << name;
    // Layout rules may add a few spellings per node, never a blow-up.
    EXPECT_LT(s.g->num_nodes(), 8 * s.graph.size() + 64) << name;
  }
}

// mindspore/matmul-split-*: three matmuls of one activation by constant weights
// gain the concatenated form; computed weights and the fused matmul's own
// concatenated weight never match, so saturation stays small.
constexpr std::string_view kThreeProjections = R"(
def forward(self, x: "bf16[16, 64]"):
    wq: "bf16[64, 64]" = self.wq
    wk: "bf16[32, 64]" = self.wk
    wv: "bf16[32, 64]" = self.wv
    t = torch.ops.aten.t.default(wq)
    mm = torch.ops.aten.mm.default(x, t)
    t_1 = torch.ops.aten.t.default(wk)
    mm_1 = torch.ops.aten.mm.default(x, t_1)
    t_2 = torch.ops.aten.t.default(wv)
    mm_2 = torch.ops.aten.mm.default(x, t_2)
    return (mm, mm_1, mm_2)
)";

TEST(RuleSaturation, MatmulSplitJoinsConstantWeightsOnce) {
  Saturated s = saturate(kThreeProjections);
  EXPECT_EQ(s.report.stop, StopReason::Saturated);
  EXPECT_TRUE(s.egraph_has("aten::cat"));
  EXPECT_TRUE(s.egraph_has("aten::split_with_sizes"));
  // One cat of three (the ordered set) and three of two (each ordered pair).
  EXPECT_EQ(s.egraph_count("aten::cat"), 4u);
}

TEST(RuleSaturation, MatmulSplitLeavesComputedWeightsAlone) {
  std::string fx(kThreeProjections);
  // wk is computed from wq: not a leaf, so only the (wq, wv) pair joins.
  fx.replace(fx.find("    wk: \"bf16[32, 64]\" = self.wk\n"),
             std::string_view("    wk: \"bf16[32, 64]\" = self.wk\n").size(),
             "    wk0: \"bf16[32, 64]\" = self.wk\n"
             "    wk = torch.ops.aten.mul.Tensor(wk0, 2)\n");
  Saturated s = saturate(fx);
  EXPECT_EQ(s.egraph_count("aten::cat"), 1u);
}

}  // namespace
}  // namespace eqfuse
