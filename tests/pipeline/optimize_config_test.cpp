// Tests of pipeline/optimize_config: the OptimizeOptions keys
// (apply_config_json) and the whole-file reader both the CLI and Python use
// (apply_optimize_config: op catalogs, .rules files, vllm-ascend's section,
// the reinplace section).
#include "pipeline/optimize_config.hpp"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(OptimizeConfig, ConfigJsonAcceptsTorchAirKeys) {
  OptimizeOptions opt;
  apply_config_json(opt, R"({"experimental_config": {"pattern_fusion_pass": false},
                             "mode": "max-autotune", "disable_rules": ["layout"]})",
                    "cfg.json");
  EXPECT_FALSE(opt.rules.pattern_fusion_pass);
  EXPECT_TRUE(opt.rules.remove_noop_ops);
  EXPECT_EQ(opt.rules.mode, ExecMode::MaxAutotune);
  EXPECT_EQ(opt.rules.disable, std::vector<std::string>{"layout"});
  apply_config_json(opt, R"({"experimental_config": {"remove_noop_ops": false}})", "cfg.json");
  EXPECT_FALSE(opt.rules.remove_noop_ops);
  opt.rules.remove_noop_ops = true;
  apply_config_json(opt, R"({"remove_noop_ops": false})", "cfg.json");
  EXPECT_FALSE(opt.rules.remove_noop_ops);
  apply_config_json(opt, R"({"frozen_inputs": ["w*", "bias"]})", "cfg.json");
  EXPECT_EQ(opt.frozen_inputs, (std::vector<std::string>{"w*", "bias"}));
  EXPECT_THROW(apply_config_json(opt, R"({"frozen_inputs": "w*"})", "cfg.json"), Error);
  try {
    apply_config_json(opt, R"({"fusion": true})", "cfg.json");
    ADD_FAILURE() << "unknown key accepted";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cfg.json: config key 'fusion': unknown key"));
  }
}

TEST(OptimizeConfig, ConfigJsonPointsFileKeysToTheWholeFileReader) {
  OptimizeOptions opt;
  for (const char* text :
       {R"({"rules": "a.rules"})", R"({"ops": ["a.schemas"]})",
        R"({"additional_config": {"ascend_compilation_config": {"fuse_norm_quant": true}}})"}) {
    try {
      apply_config_json(opt, text, "cfg.json");
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("read by apply_optimize_config")) << text;
    }
  }
}

TEST(OptimizeConfig, WholeFileRegistersOpsAndNamesRuleFilesBesideTheConfig) {
  const std::filesystem::path dir = testing_support::scratch_dir("optimize_config");
  std::filesystem::create_directories(dir / "sub");
  {
    std::ofstream(dir / "sub" / "my.schemas")
        << "mylib::twice(Tensor x) -> Tensor | kind=elementwise\n";
  }
  const std::string origin = (dir / "sub" / "config.json").string();
  OpRegistry reg = OpRegistry::with_builtin_ops();
  OptimizeOptions opt;
  OptimizeConfigFiles files = apply_optimize_config(opt, reg, R"({
      "ops": "my.schemas", "rules": ["a.rules", "/abs/b.rules"],
      "disable_rules": ["layout"], "mode": "eager",
      "additional_config": {"ascend_compilation_config": {"fuse_norm_quant": false,
                                                          "enable_npugraph_ex": true}},
      "debug": {"aclgraph": {"disable_reinplace_inplaceable_ops_pass": true}}})",
                                                    origin);
  EXPECT_TRUE(reg.find("mylib::twice"));
  EXPECT_THAT(files.op_files, ElementsAre((dir / "sub" / "my.schemas").string()));
  EXPECT_THAT(files.rule_files, ElementsAre((dir / "sub" / "a.rules").string(), "/abs/b.rules"));
  // The config's own toggles first, then vllm-ascend's switches.
  EXPECT_THAT(opt.rules.disable, ElementsAre("layout", "fuse_norm_quant"));
  EXPECT_EQ(opt.rules.mode, ExecMode::Eager);
  EXPECT_TRUE(opt.reinplace.disable_reinplace_inplaceable_ops_pass);
  ASSERT_EQ(files.notes.size(), 1u);
  EXPECT_THAT(files.notes[0], HasSubstr("enable_npugraph_ex"));
}

TEST(OptimizeConfig, WholeFileErrorsNameTheConfigAndTheKey) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {R"({"rules": 3})", "cfg.json: rules: expected a .rules file or a list of them"},
           {R"({"ops": [1]})", "cfg.json: ops: expected file names"},
           {R"({"ops": "absent.schemas"})", "cannot read 'absent.schemas'"},
           {R"({"mode": "fast"})", "cfg.json: config key 'mode'"},
           {R"({"additional_config": {"ascend_compilation_config": {"fuse_nothing": true}}})",
            "fuse_nothing"},
           {R"([1, 2])", "cfg.json: a config file holds one JSON object"}}) {
    OptimizeOptions opt;
    try {
      apply_optimize_config(opt, reg, c.text, "cfg.json");
      ADD_FAILURE() << "accepted " << c.text;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(c.message)) << c.text;
    }
  }
}

// "preset" is the base the file's other keys adjust, wherever it stands in the file.
TEST(OptimizeConfig, PresetIsAppliedFirstWhateverItsPlace) {
  OptimizeOptions opt;
  apply_config_json(opt, R"({"mode": "eager", "disable_rules": ["noop"], "preset": "torchair-ge"})",
                    "cfg.json");
  EXPECT_EQ(opt.rules.preset, "torchair-ge");
  EXPECT_EQ(opt.rules.mode, ExecMode::Eager);  // the file's mode, not the preset's max-autotune
  EXPECT_THAT(opt.rules.only, ElementsAre("pattern_fusion_pass", "remove_noop_ops"));
  EXPECT_THAT(opt.rules.disable, ElementsAre("noop"));
  OptimizeOptions first;
  apply_config_json(first, R"({"preset": "torchair-ge", "mode": "eager"})", "cfg.json");
  EXPECT_EQ(first.rules.mode, ExecMode::Eager);
  // The file's own only_rules add to the preset's.
  OptimizeOptions more;
  apply_config_json(more, R"({"only_rules": ["add_rms_norm_fusion"], "preset": "torchair-ge"})",
                    "cfg.json");
  EXPECT_THAT(more.rules.only,
              ElementsAre("pattern_fusion_pass", "remove_noop_ops", "add_rms_norm_fusion"));
}

TEST(OptimizeConfig, OnlyRulesAndAssumeRulesAreListsOfNames) {
  OptimizeOptions opt;
  apply_config_json(opt, R"({"only_rules": ["pattern_fusion_pass", "noop/clone"],
                             "assume_rules": ["fuse_norm_quant"]})",
                    "cfg.json");
  EXPECT_THAT(opt.rules.only, ElementsAre("pattern_fusion_pass", "noop/clone"));
  EXPECT_THAT(opt.rules.assume, ElementsAre("fuse_norm_quant"));
  EXPECT_TRUE(opt.rules.preset.empty());
  for (const char* text :
       {R"({"only_rules": "pattern_fusion_pass"})", R"({"assume_rules": [1]})"}) {
    try {
      apply_config_json(opt, text, "cfg.json");
      ADD_FAILURE() << "accepted " << text;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr("expected a list of names")) << text;
    }
  }
}

TEST(OptimizeConfig, AnUnknownPresetIsAnErrorNamingTheKey) {
  OptimizeOptions opt;
  try {
    apply_config_json(opt, R"({"preset": "vllm_ascend"})", "cfg.json");
    ADD_FAILURE() << "accepted an unknown preset";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cfg.json: config key 'preset': unknown preset 'vllm_ascend' "
                                    "(did you mean 'vllm-ascend'?)"));
  }
  try {
    apply_config_json(opt, R"({"preset": ["vllm"]})", "cfg.json");
    ADD_FAILURE() << "accepted a list";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cfg.json: config key 'preset': expected a preset name"));
  }
  EXPECT_TRUE(opt.rules.preset.empty());
}

// vllm-ascend's fuse_norm_quant: true is its pass with the assumption it makes;
// false only switches the rules off.
TEST(OptimizeConfig, VllmAscendFuseNormQuantAcceptsItsAssumption) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  OptimizeOptions on;
  apply_optimize_config(on, reg, R"({"additional_config": {"ascend_compilation_config":
                                      {"fuse_norm_quant": true, "fuse_qknorm_rope": false}}})",
                        "cfg.json");
  EXPECT_THAT(on.rules.enable, ElementsAre("fuse_norm_quant"));
  EXPECT_THAT(on.rules.assume, ElementsAre("fuse_norm_quant"));
  EXPECT_THAT(on.rules.disable, ElementsAre("fuse_qknorm_rope"));
  const RuleDef* scale =
      testing_support::builtin_rules().find("vllm/add-rms-norm-bias-quantize-scale");
  ASSERT_NE(scale, nullptr);
  EXPECT_EQ(rule_toggle(scale->name, scale->labels, on.rules).reason,
            "assumption accepted (fuse_norm_quant)");
  OptimizeOptions off;
  apply_optimize_config(off, reg, R"({"additional_config.ascend_compilation_config":
                                       {"fuse_norm_quant": false}})",
                        "cfg.json");
  EXPECT_TRUE(off.rules.assume.empty());
  EXPECT_FALSE(rule_toggle(scale->name, scale->labels, off.rules).enabled);
}

}  // namespace
}  // namespace eqfuse
