// ctest-label: golden
// Rules switched by the names other frameworks give their passes: labels
// (--disable-rule add_rms_norm_fusion), MindSpore's --graph-kernel-flags,
// vllm-ascend's additional_config.ascend_compilation_config keys in --config,
// and `eqfuse rules --graph-kernel-passes` (docs/rules.md "Passes of other
// frameworks").
#include <algorithm>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing_support::CliRun;
using testing_support::run_eqfuse;
using testing_support::write_scratch;

// add -> npu_rms_norm: mindspore/add-rms-norm (MindSpore add_rms_norm_fusion)
// fuses it into npu_add_rms_norm.
std::string add_rms_norm_graph() {
  return write_scratch("add_rms_norm.fx", R"(class GraphModule(torch.nn.Module):
    def forward(self, x1: "f16[s0, 64]", x2: "f16[s0, 64]", gamma: "f16[64]"):
        add: "f16[s0, 64]" = torch.ops.aten.add.Tensor(x1, x2)
        npu_rms_norm = torch.ops.npu.npu_rms_norm.default(add, gamma, 1e-06)
        y: "f16[s0, 64]" = npu_rms_norm[0]
        return (y, add)
)")
      .string();
}

// The line of `eqfuse rules` output for one rule.
std::string rule_line(const std::string& listing, const std::string& rule) {
  const size_t at = listing.find(" " + rule + " ");
  if (at == std::string::npos) return "";
  const size_t begin = listing.rfind('\n', at) + 1;
  return listing.substr(begin, listing.find('\n', at) - begin);
}

TEST(RulesCli, RulesCarryTheirPeerPassNames) {
  CliRun r = run_eqfuse("rules");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(rule_line(r.out, "mindspore/add-rms-norm"), HasSubstr("add_rms_norm_fusion"));
  EXPECT_THAT(rule_line(r.out, "npu/swiglu"), HasSubstr("inference_swiglu_fusion"));
  const std::string e = rule_line(r.out, "torchair/add-rms-norm-quant");
  EXPECT_THAT(e, HasSubstr("add_rms_norm_quant_fusion"));
  EXPECT_THAT(e, HasSubstr("AddRMSNormQuantFusionPass"));
  EXPECT_THAT(e, HasSubstr("fuse_norm_quant"));
  EXPECT_THAT(e, HasSubstr("pattern_fusion_pass"));
  EXPECT_THAT(rule_line(r.out, "noop/clone"), HasSubstr("remove_noop_ops"));
}

// `rules --show` prints a rule with its conditions and computed values.
TEST(RulesCli, ShowPrintsWhereAndLetLines) {
  CliRun r = run_eqfuse("rules --show layout/div-by-power-of-two-is-mul");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("rule layout/div-by-power-of-two-is-mul =>\n"));
  EXPECT_THAT(r.out, HasSubstr("  where: is_number(divisor) and is_power_of_two(abs(divisor))\n"));
  EXPECT_THAT(r.out, HasSubstr("  let: reciprocal = 1.0 / divisor\n"));
  EXPECT_THAT(r.out, HasSubstr("torch.ops.aten.mul.Tensor(x, reciprocal)"));
}

TEST(RulesCli, DisableRuleByMindSporeNameTurnsTheRuleOff) {
  CliRun r = run_eqfuse("rules --disable-rule add_rms_norm_fusion");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(rule_line(r.out, "mindspore/add-rms-norm"),
              HasSubstr("disabled by --disable-rule add_rms_norm_fusion"));
  EXPECT_THAT(rule_line(r.out, "torchair/add-rms-norm-cast"), ::testing::StartsWith("on "));

  const std::string g = add_rms_norm_graph();
  CliRun fused = run_eqfuse("optimize '" + g + "'");
  ASSERT_EQ(fused.exit_code, 0) << fused.err;
  EXPECT_THAT(fused.out, HasSubstr("npu_add_rms_norm.default"));
  CliRun off = run_eqfuse("optimize '" + g + "' --disable-rule add_rms_norm_fusion");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, Not(HasSubstr("npu_add_rms_norm")));
  EXPECT_THAT(off.out, HasSubstr("npu_rms_norm.default"));
}

TEST(RulesCli, GraphKernelFlagsDisableAndEnableMindSporePasses) {
  CliRun r = run_eqfuse(
      "rules --graph-kernel-flags='--disable_pass=add_rms_norm_fusion,inference_swiglu_fusion'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(rule_line(r.out, "mindspore/add-rms-norm"), HasSubstr("disabled by"));
  EXPECT_THAT(rule_line(r.out, "npu/swiglu"), HasSubstr("disabled by"));

  // Optimize takes the same flag; disable wins over enable.
  const std::string g = add_rms_norm_graph();
  CliRun off = run_eqfuse("optimize '" + g +
                          "' --graph-kernel-flags='--enable_pass=add_rms_norm_fusion "
                          "--disable_pass=add_rms_norm_fusion'");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, Not(HasSubstr("npu_add_rms_norm")));

  // A MindSpore pass eqfuse has no rule for: accepted, with a note saying why.
  CliRun fa = run_eqfuse("rules --graph-kernel-flags=--disable_pass=shape_reshape");
  EXPECT_EQ(fa.exit_code, 0) << fa.err;
  EXPECT_THAT(fa.err, HasSubstr("shape_reshape: MindSpore pass with no eqfuse rule"));
  EXPECT_THAT(fa.err, HasSubstr("docs/rules.md"));

  // FlashAttentionFusionV1 names the attention rules: disabling it keeps them off.
  CliRun attn = run_eqfuse("rules --graph-kernel-flags=--disable_pass=FlashAttentionFusionV1");
  ASSERT_EQ(attn.exit_code, 0) << attn.err;
  EXPECT_THAT(rule_line(attn.out, "torchair/npu-fusion-attention"), HasSubstr("disabled by"));
}

// The matmul epilogue rules target npu_fused_matmul, an Ascend 950 op: off by default,
// on by MindSpore's pass name (each turns on its own rules only) or by `ascend950`.
TEST(RulesCli, GraphKernelFlagsEnableTheOptInMatmulEpilogues) {
  CliRun none = run_eqfuse("rules");
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_THAT(rule_line(none.out, "mindspore/matmul-elem-bias-relu"), HasSubstr("opt-in rule"));
  CliRun relu = run_eqfuse("rules --graph-kernel-flags=--enable_pass=matmul_elem_relu_fusion");
  ASSERT_EQ(relu.exit_code, 0) << relu.err;
  EXPECT_THAT(rule_line(relu.out, "mindspore/matmul-elem-bias-relu"), StartsWith("on "));
  EXPECT_THAT(rule_line(relu.out, "mindspore/matmul-elem-bias-gelu"), HasSubstr("opt-in rule"));
  CliRun all = run_eqfuse("rules --enable-rule ascend950");
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_THAT(rule_line(all.out, "mindspore/matmul-elem-bias-add-commuted"), StartsWith("on "));
  // The inexact biasadd rule is not one of them: ascend950 does not turn it on.
  EXPECT_THAT(rule_line(all.out, "mindspore/matmul-elem-biasadd"), StartsWith("off "));
}

TEST(RulesCli, GraphKernelFlagsErrorsNameTheBadPart) {
  CliRun typo = run_eqfuse("rules --graph-kernel-flags=--disable_pass=add_rms_norm_fusio");
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("--disable_pass=add_rms_norm_fusio"));
  EXPECT_THAT(typo.err, HasSubstr("did you mean 'add_rms_norm_fusion'"));

  CliRun flag = run_eqfuse("rules --graph-kernel-flags='--disable-pass=add_rms_norm_fusion'");
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_THAT(flag.err, HasSubstr("'--disable-pass=add_rms_norm_fusion'"));
  EXPECT_THAT(flag.err, HasSubstr("expected --disable_pass=NAMES or --enable_pass=NAMES"));

  CliRun other = run_eqfuse("rules --graph-kernel-flags='--opt_level=2'");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("'--opt_level=2'"));

  CliRun empty = run_eqfuse(
      "rules --graph-kernel-flags='--enable_pass=add_rms_norm_fusion,,inference_swiglu_fusion'");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("empty pass name"));

  // Unknown names through --disable-rule keep their did-you-mean error.
  CliRun rule = run_eqfuse("rules --disable-rule add_rms_norm_fusio");
  EXPECT_EQ(rule.exit_code, 2);
  EXPECT_THAT(rule.err, HasSubstr("did you mean 'add_rms_norm_fusion'"));
}

TEST(RulesCli, VllmAscendConfigKeysSwitchTheLabelledRules) {
  const std::string cfg = write_scratch("vllm.json", R"({"additional_config":
      {"ascend_compilation_config": {"fuse_norm_quant": false, "fuse_qknorm_rope": false,
                                     "fuse_allreduce_rms": true, "fuse_muls_add": false,
                                     "enable_npugraph_ex": true}}})")
                              .string();
  CliRun r = run_eqfuse("rules --config '" + cfg + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(rule_line(r.out, "torchair/add-rms-norm-quant"),
              HasSubstr("disabled by --disable-rule fuse_norm_quant"));
  EXPECT_THAT(rule_line(r.out, "torchair/add-rms-norm-dynamic-quant"), HasSubstr("disabled by"));
  EXPECT_THAT(rule_line(r.out, "mindspore/add-rms-norm"), ::testing::StartsWith("on "));
  // fuse_allreduce_rms names the matmul + all_reduce + add + RMSNorm rules (on by default).
  EXPECT_THAT(rule_line(r.out, "collectives/mm-all-reduce-add-rms-norm"),
              ::testing::StartsWith("on "));
  EXPECT_THAT(rule_line(r.out, "vllm/qknorm-rope"),
              HasSubstr("disabled by --disable-rule fuse_qknorm_rope"));
  EXPECT_THAT(rule_line(r.out, "vllm/muls-add"),
              HasSubstr("disabled by --disable-rule fuse_muls_add"));
  EXPECT_THAT(r.err, HasSubstr("enable_npugraph_ex chooses vllm-ascend's backend"));

  // The dotted top-level spelling, mixed with TorchAir keys.
  const std::string dotted = write_scratch("dotted.json", R"({"mode": "reduce-overhead",
      "additional_config.ascend_compilation_config": {"fuse_norm_quant": false}})")
                                 .string();
  CliRun d = run_eqfuse("rules --config '" + dotted + "'");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_THAT(rule_line(d.out, "torchair/add-rms-norm-quant"), HasSubstr("disabled by"));

  const std::string bad = write_scratch("bad.json", R"({"additional_config":
      {"ascend_compilation_config": {"fuse_norm_qaunt": false}}})")
                              .string();
  CliRun b = run_eqfuse("rules --config '" + bad + "'");
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_THAT(b.err, HasSubstr("additional_config.ascend_compilation_config.fuse_norm_qaunt"));
  EXPECT_THAT(b.err, HasSubstr("did you mean 'fuse_norm_quant'"));

  const std::string nonbool = write_scratch("nonbool.json", R"({"additional_config":
      {"ascend_compilation_config": {"fuse_norm_quant": "no"}}})")
                                  .string();
  CliRun nb = run_eqfuse("rules --config '" + nonbool + "'");
  EXPECT_EQ(nb.exit_code, 2);
  EXPECT_THAT(nb.err, HasSubstr("expected true or false"));
}

TEST(RulesCli, GraphKernelPassesListsMindSporesPassesWithOnOff) {
  CliRun r = run_eqfuse("rules --graph-kernel-passes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::StartsWith("graph kernel passes: FlashAttentionFusionV1,"
                                           "FlashAttentionFusionV2,add_layer_norm_fusion,"));
  EXPECT_THAT(r.out, HasSubstr(",inference_qbmm_allreduce_add_fusion,"));
  EXPECT_THAT(r.out, HasSubstr("on  add_rms_norm_fusion"));
  EXPECT_THAT(r.out, HasSubstr("mindspore/add-rms-norm"));
  EXPECT_THAT(r.out, HasSubstr("on  inference_swiglu_fusion"));
  // FX has one layer norm op for MindSpore's LayerNorm / V3 / Ext: each of the three
  // pass names switches all three add-layer-norm rules.
  for (const std::string pass :
       {"add_layer_norm_fusion", "add_layer_norm_v3_fusion", "add_layer_norm_ext_fusion"}) {
    const size_t at = r.out.find("\non  " + pass + " ");
    ASSERT_NE(at, std::string::npos) << pass;
    EXPECT_THAT(r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1),
                ::testing::EndsWith("mindspore/add-layer-norm, mindspore/add-layer-norm-half, "
                                    "mindspore/add-layer-norm-functional"));
  }
  EXPECT_THAT(r.out, HasSubstr("off shape_reshape "));
  EXPECT_THAT(r.out, HasSubstr("no FX equivalent"));
  // MindSpore's two collective passes (tensor parallelism): MatMulAllReduce on by default,
  // qbmm_allreduce_add an inexact rule, off until enabled.
  EXPECT_THAT(rule_line(r.out, "MatMulAllReduce"), HasSubstr("collectives/mm-all-reduce"));
  EXPECT_THAT(rule_line(r.out, "inference_qbmm_allreduce_add_fusion"),
              ::testing::AllOf(::testing::StartsWith("off"),
                               HasSubstr("collectives/quant-matmul-all-reduce-bias")));
  // One line per pass (22 passes) after the header.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1 + 22);

  CliRun off = run_eqfuse(
      "rules --graph-kernel-passes --graph-kernel-flags=--disable_pass=add_rms_norm_fusion");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, HasSubstr("off add_rms_norm_fusion"));

  CliRun ln = run_eqfuse("rules --graph-kernel-flags=--disable_pass=add_layer_norm_ext_fusion");
  ASSERT_EQ(ln.exit_code, 0) << ln.err;
  EXPECT_THAT(rule_line(ln.out, "mindspore/add-layer-norm"),
              HasSubstr("disabled by --disable-rule add_layer_norm_ext_fusion"));

  CliRun json = run_eqfuse("rules --graph-kernel-passes --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(json.out, HasSubstr("\"pass\": \"add_rms_norm_fusion\""));
}

// `rules --presets`: each peer preset with what it runs, where its defaults were read and
// its config, as text and as JSON.
TEST(RulesCli, PresetsListsEachPeerPresetWithItsSourceAndConfig) {
  CliRun r = run_eqfuse("rules --presets");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"npugraph_ex", "torchair-ge", "vllm", "vllm-ascend"})
    EXPECT_THAT("\n" + r.out, HasSubstr(std::string("\n") + name + "\n  ")) << name;
  EXPECT_THAT(r.out, StartsWith("npugraph_ex\n  npugraph_ex (TorchAir's aclgraph backend"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4 * 4);  // name, what, source, config
  EXPECT_THAT(r.out, HasSubstr("\"assume_rules\":[\"AddRMSNormQuantFusionPass\"]"));
  EXPECT_THAT(r.out, Not(HasSubstr("torchair/bmm-transpose")));  // not the rule list

  CliRun j = run_eqfuse("rules --presets --json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json list = nlohmann::json::parse(j.out);
  ASSERT_TRUE(list.is_array());
  ASSERT_EQ(list.size(), 4u);
  std::vector<std::string> names;
  for (const nlohmann::json& p : list) {
    names.push_back(p.at("name").get<std::string>());
    EXPECT_FALSE(p.at("description").get<std::string>().empty());
    EXPECT_FALSE(p.at("source").get<std::string>().empty());
    EXPECT_TRUE(p.at("config").is_object());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"npugraph_ex", "torchair-ge", "vllm", "vllm-ascend"}));
  EXPECT_EQ(list[3]["config"]["assume_rules"],
            nlohmann::json::array({"AddRMSNormQuantFusionPass"}));
  EXPECT_EQ(list[1]["config"]["mode"], "max-autotune");
}

// `rules --preset NAME`: the peer's passes on, the others off with the preset named, and
// the assumption rule on only where the preset accepts its assumption.
TEST(RulesCli, PresetSwitchesTheRulesAndSaysWhy) {
  const std::string kScale = "vllm/add-rms-norm-bias-quantize-scale";
  CliRun plain = run_eqfuse("rules");
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(rule_line(plain.out, kScale), StartsWith("off "));
  EXPECT_THAT(rule_line(plain.out, kScale),
              HasSubstr("assumption: equal only under a relation of its inputs"));

  CliRun ascend = run_eqfuse("rules --preset vllm-ascend");
  ASSERT_EQ(ascend.exit_code, 0) << ascend.err;
  EXPECT_THAT(rule_line(ascend.out, kScale), StartsWith("on "));
  EXPECT_THAT(rule_line(ascend.out, "mindspore/add-rms-norm"),
              HasSubstr("not a pass of --preset vllm-ascend"));
  EXPECT_THAT(rule_line(ascend.out, "layout/noop-view"), StartsWith("on "));

  CliRun ge = run_eqfuse("rules --preset torchair-ge");
  ASSERT_EQ(ge.exit_code, 0) << ge.err;
  EXPECT_THAT(rule_line(ge.out, "torchair/bmm-transpose"),
              HasSubstr("excluded in max-autotune (GE) mode"));
  EXPECT_THAT(rule_line(ge.out, kScale), HasSubstr("not a pass of --preset torchair-ge"));

  // Flags apply on top of the preset.
  CliRun more = run_eqfuse("rules --preset torchair-ge --enable-rule mindspore/add-rms-norm");
  ASSERT_EQ(more.exit_code, 0) << more.err;
  EXPECT_THAT(rule_line(more.out, "mindspore/add-rms-norm"), StartsWith("on "));
}

TEST(RulesCli, ShowPrintsTheAssumeLine) {
  CliRun r = run_eqfuse("rules --show vllm/add-rms-norm-bias-quantize-scale");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  assume: scale_reciprocal == reciprocal(scale)\n"));
  CliRun other = run_eqfuse("rules --show torchair/add-rms-norm-quant");
  ASSERT_EQ(other.exit_code, 0) << other.err;
  EXPECT_THAT(other.out, Not(HasSubstr("  assume: ")));
}

}  // namespace
}  // namespace eqfuse
