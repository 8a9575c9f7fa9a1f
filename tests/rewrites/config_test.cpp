// ctest-label: unit
// The peers' own config sections (rewrites/config.hpp take_peer_config): vLLM's
// compilation_config.pass_config beside vllm-ascend's ascend_compilation_config, each
// read as its peer means it.
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "rewrites/config.hpp"
#include "rewrites/rule.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string error_of(std::string_view text) {
  RuleConfig cfg;
  try {
    take_peer_config(text, "peer.json", cfg);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(PeerConfig, VllmPassConfigSwitchesItsLabelsWithoutAssuming) {
  RuleConfig cfg;
  PeerConfig out = take_peer_config(
      R"({"compilation_config": {"pass_config": {"fuse_norm_quant": true,
          "enable_qk_norm_rope_fusion": false}}, "mode": "reduce-overhead"})",
      "vllm.json", cfg);
  EXPECT_THAT(cfg.enable, ElementsAre("fuse_norm_quant"));
  EXPECT_THAT(cfg.disable, ElementsAre("enable_qk_norm_rope_fusion"));
  EXPECT_TRUE(cfg.assume.empty());  // vLLM's norm-quant makes no scale assumption
  EXPECT_EQ(out.rest, R"({"mode":"reduce-overhead"})");
  // The dotted spelling at the top level is the same section.
  RuleConfig dotted;
  take_peer_config(R"({"compilation_config.pass_config": {"eliminate_noops": false}})", "v.json",
                   dotted);
  EXPECT_THAT(dotted.disable, ElementsAre("eliminate_noops"));
}

TEST(PeerConfig, VllmAscendTrueAcceptsItsAssumptionsVllmDoesNot) {
  RuleConfig cfg;
  take_peer_config(R"({"additional_config": {"ascend_compilation_config":
                        {"fuse_norm_quant": true}}})",
                   "ascend.json", cfg);
  EXPECT_THAT(cfg.assume, ElementsAre("fuse_norm_quant"));
  const RuleDef* rule =
      testing_support::builtin_rules().find("vllm/add-rms-norm-bias-quantize-scale");
  ASSERT_NE(rule, nullptr);
  EXPECT_TRUE(rule_toggle(rule->name, rule->labels, cfg).enabled);
  RuleConfig vllm;
  take_peer_config(R"({"compilation_config": {"pass_config": {"fuse_norm_quant": true}}})",
                   "vllm.json", vllm);
  EXPECT_FALSE(rule_toggle(rule->name, rule->labels, vllm).enabled);
}

TEST(PeerConfig, BadKeysAndValuesNameTheKey) {
  EXPECT_THAT(error_of(R"({"compilation_config": {"pass_config": {"fuse_norm_qaunt": true}}})"),
              HasSubstr("peer.json: compilation_config.pass_config.fuse_norm_qaunt: unknown key "
                        "(did you mean 'fuse_norm_quant'?)"));
  EXPECT_THAT(error_of(R"({"compilation_config": {"pass_config": {"enable_sp": 1}}})"),
              HasSubstr("compilation_config.pass_config.enable_sp: expected true or false, got 1"));
  EXPECT_THAT(error_of(R"({"compilation_config": {"pass_config": [1]}})"),
              HasSubstr("compilation_config.pass_config: expected an object"));
  // vllm-ascend's backend keys belong to its own section only.
  EXPECT_THAT(error_of(R"({"compilation_config": {"pass_config": {"enable_npugraph_ex": true}}})"),
              HasSubstr("unknown key"));
}

TEST(PeerConfig, APassWithoutRulesIsANoteNotAnError) {
  RuleConfig cfg;
  take_peer_config(R"({"compilation_config": {"pass_config": {"enable_sp": false}}})", "v.json",
                   cfg);
  std::vector<std::string> notes = testing_support::builtin_rules().check_selectors(cfg);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_THAT(notes[0], HasSubstr("--disable-rule enable_sp: vLLM pass with no eqfuse rule"));
  EXPECT_THAT(notes[0], HasSubstr("needs an op for a rank's slice of a replicated tensor"));
}

}  // namespace
}  // namespace eqfuse
