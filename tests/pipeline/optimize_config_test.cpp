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

}  // namespace
}  // namespace eqfuse
