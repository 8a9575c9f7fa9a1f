// ctest-label: unit
// Peer presets (pipeline/presets.hpp): the embedded list, find_preset's error, what
// apply_preset sets, and which built-in rules each preset runs (RuleConfig::only,
// ::assume) with the reasons `eqfuse rules` shows.
#include "pipeline/presets.hpp"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "rewrites/config.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_rules;

TEST(Presets, TheFourPeersAreListedByNameWithWhatTheyRunAndWhereFrom) {
  std::vector<std::string> names;
  for (const Preset& p : presets()) {
    names.push_back(p.name);
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_FALSE(p.source.empty()) << p.name;
    const nlohmann::json config = nlohmann::json::parse(p.config);
    EXPECT_TRUE(config.is_object()) << p.name;
    EXPECT_FALSE(config.contains("preset")) << p.name;  // a preset is a base, not a chain
    EXPECT_EQ(&find_preset(p.name), &p);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"npugraph_ex", "torchair-ge", "vllm", "vllm-ascend"}));
}

TEST(Presets, AnUnknownNameIsAnErrorListingThePresets) {
  try {
    find_preset("vllm-ascnd");
    ADD_FAILURE() << "found vllm-ascnd";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown preset 'vllm-ascnd' (did you mean 'vllm-ascend'?) (presets: npugraph_ex, "
              "torchair-ge, vllm, vllm-ascend)");
  }
  try {
    find_preset("tensorrt");
    ADD_FAILURE() << "found tensorrt";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("unknown preset 'tensorrt' (presets: "));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("did you mean")));
  }
  OptimizeOptions o;
  EXPECT_THROW(apply_preset(o, ""), Error);
  EXPECT_TRUE(o.rules.preset.empty());
}

TEST(Presets, ApplyPresetSetsThePeersSwitches) {
  OptimizeOptions ascend;
  apply_preset(ascend, "vllm-ascend");
  EXPECT_EQ(ascend.rules.preset, "vllm-ascend");
  EXPECT_EQ(ascend.rules.mode, ExecMode::ReduceOverhead);
  EXPECT_THAT(ascend.rules.only, ::testing::Contains("AddRMSNormQuantFusionPass"));
  EXPECT_EQ(ascend.rules.assume, std::vector<std::string>{"AddRMSNormQuantFusionPass"});
  EXPECT_TRUE(ascend.remove_cat_ops);
  EXPECT_TRUE(ascend.reinplace_passes);
  // vllm-ascend calls npugraph_ex with inplace_pass off.
  EXPECT_TRUE(ascend.reinplace.disable_reinplace_inplaceable_ops_pass);
  EXPECT_FALSE(ascend.reinplace.disable_reinplace_input_mutated_ops_pass);

  OptimizeOptions ge;
  apply_preset(ge, "torchair-ge");
  EXPECT_EQ(ge.rules.preset, "torchair-ge");
  EXPECT_EQ(ge.rules.mode, ExecMode::MaxAutotune);
  EXPECT_EQ(ge.rules.only, (std::vector<std::string>{"pattern_fusion_pass", "remove_noop_ops"}));
  EXPECT_TRUE(ge.rules.assume.empty());

  OptimizeOptions vllm;
  apply_preset(vllm, "vllm");
  EXPECT_FALSE(vllm.reinplace_passes);
  EXPECT_FALSE(vllm.remove_cat_ops);
  EXPECT_TRUE(vllm.rules.assume.empty());

  OptimizeOptions npu;
  apply_preset(npu, "npugraph_ex");
  EXPECT_TRUE(npu.reinplace_passes);
  EXPECT_TRUE(npu.remove_cat_ops);
  EXPECT_FALSE(npu.reinplace.disable_reinplace_inplaceable_ops_pass);
  EXPECT_FALSE(npu.reinplace.disable_reinplace_input_mutated_ops_pass);
}

// Every name a preset selects or accepts is a rule or label of the built-in library
// (check_selectors would refuse it otherwise), and each preset leaves fusions on.
TEST(Presets, EveryPresetSelectsKnownRulesAndRunsSomeFusion) {
  const RuleLibrary& lib = builtin_rules();
  for (const Preset& p : presets()) {
    OptimizeOptions o;
    apply_preset(o, p.name);
    EXPECT_NO_THROW(lib.check_selectors(o.rules)) << p.name;
    size_t fusions_on = 0;
    for (const RuleDef& r : lib.rules())
      if (r.has_label("fusion") && rule_toggle(r.name, r.labels, o.rules).enabled) ++fusions_on;
    EXPECT_GT(fusions_on, 0u) << p.name;
  }
}

RuleToggle toggle_under(std::string_view preset, std::string_view rule) {
  OptimizeOptions o;
  apply_preset(o, preset);
  const RuleDef* r = builtin_rules().find(rule);
  EXPECT_NE(r, nullptr) << rule;
  return r == nullptr ? RuleToggle{} : rule_toggle(r->name, r->labels, o.rules);
}

TEST(Presets, EachPresetRunsItsPeersPassesOnly) {
  const char* kScale = "vllm/add-rms-norm-bias-quantize-scale";
  // vllm-ascend accepts the assumption its norm-quant pass makes.
  RuleToggle scale = toggle_under("vllm-ascend", kScale);
  EXPECT_TRUE(scale.enabled);
  EXPECT_EQ(scale.reason, "assumption accepted by --preset vllm-ascend");
  EXPECT_TRUE(toggle_under("vllm-ascend", "vllm/qknorm-rope").enabled);
  EXPECT_EQ(toggle_under("vllm-ascend", "mindspore/add-rms-norm").reason,
            "not a pass of --preset vllm-ascend");
  // vLLM runs fuse_norm_quant but makes no such assumption.
  EXPECT_THAT(toggle_under("vllm", kScale).reason, ::testing::StartsWith("assumption: "));
  EXPECT_TRUE(toggle_under("vllm", "torchair/add-rms-norm-quant").enabled);
  EXPECT_EQ(toggle_under("vllm", "torchair/bmm-transpose").reason, "not a pass of --preset vllm");
  // npugraph_ex: TorchAir's pattern_fusion_pass and remove_noop_ops.
  EXPECT_TRUE(toggle_under("npugraph_ex", "torchair/bmm-transpose").enabled);
  EXPECT_TRUE(toggle_under("npugraph_ex", "noop/clone").enabled);
  EXPECT_EQ(toggle_under("npugraph_ex", kScale).reason, "not a pass of --preset npugraph_ex");
  EXPECT_EQ(toggle_under("npugraph_ex", "vllm/qknorm-rope").reason,
            "not a pass of --preset npugraph_ex");
  // torchair-ge: the same passes, without the two GE skips.
  EXPECT_EQ(toggle_under("torchair-ge", "torchair/bmm-transpose").reason,
            "excluded in max-autotune (GE) mode, as in TorchAir");
  EXPECT_TRUE(toggle_under("torchair-ge", "torchair/add-rms-norm-cast").enabled);
  // Layout rules change nothing on their own and run under every preset.
  for (const Preset& p : presets())
    EXPECT_TRUE(toggle_under(p.name, "layout/noop-view").enabled) << p.name;
}

// A preset is the base: switches applied after it adjust it.
TEST(Presets, LaterSwitchesAdjustThePreset) {
  OptimizeOptions o;
  apply_preset(o, "npugraph_ex");
  o.rules.enable.push_back("mindspore/add-rms-norm");
  o.rules.disable.push_back("torchair/bmm-transpose");
  const RuleDef* ms = builtin_rules().find("mindspore/add-rms-norm");
  const RuleDef* bmm = builtin_rules().find("torchair/bmm-transpose");
  ASSERT_NE(ms, nullptr);
  ASSERT_NE(bmm, nullptr);
  EXPECT_TRUE(rule_toggle(ms->name, ms->labels, o.rules).enabled);
  EXPECT_EQ(rule_toggle(bmm->name, bmm->labels, o.rules).reason,
            "disabled by --disable-rule torchair/bmm-transpose");
}

}  // namespace
}  // namespace eqfuse
