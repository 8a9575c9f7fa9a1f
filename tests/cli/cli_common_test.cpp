// ctest-label: golden
// Options every command shares (cli/cli_common.cpp): `--ops FILE` declares
// custom ops, so a .rules file whose replacement calls one works from the CLI;
// user rules (--rules, a config's "rules") are proven as they load
// (docs/rules.md "User rules are proven at load").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::CliRun;
using testing_support::run_eqfuse;
using testing_support::write_scratch;

const char* kOps =
    "mylib::add_relu(Tensor self, Tensor other) -> Tensor | kind=elementwise "
    "meta=like:aten::add.Tensor\n";

const char* kRules = R"(rule user/add-relu =>
    labels: user, fusion
    description: add then relu is one custom kernel

    def search(a: "f16[4, 8]", b: "f16[4, 8]"):
        add = torch.ops.aten.add.Tensor(a, b)
        relu = torch.ops.aten.relu.default(add)
        return (relu,)

    def replace(a, b):
        fused = torch.ops.mylib.add_relu.default(a, b)
        return (fused,)
)";

const char* kGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, 8]", y: "f16[8]"):
        add: "f16[s0, 8]" = torch.ops.aten.add.Tensor(x, y)
        relu: "f16[s0, 8]" = torch.ops.aten.relu.default(add)
        return (relu,)
)";

TEST(OpsOption, ACustomFusedOpDeclaredInTextIsUsedAndTyped) {
  const std::string ops = write_scratch("my.schemas", kOps).string();
  const std::string rules = write_scratch("my.rules", kRules).string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  const std::string out = write_scratch("out.fx", "").string();
  CliRun r = run_eqfuse(
      fmt::format("optimize '{}' --ops '{}' --rules '{}' -o '{}'", graph, ops, rules, out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("user/add-relu x1"));
  // The interpreter has no kernel for the custom op: used, but not silently.
  EXPECT_THAT(r.err, HasSubstr("eqfuse: note: rule 'user/add-relu' not checked: op "
                               "mylib::add_relu has no reference kernel\n"));
  // The fused call is typed by add's rule (broadcasting [s0, 8] with [8]).
  CliRun printed = run_eqfuse(fmt::format("print '{}' --ops '{}'", out, ops));
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_THAT(printed.out,
              HasSubstr("add_relu: \"f16[s0, 8]\" = torch.ops.mylib.add_relu.default(x, y)"));
  EXPECT_THAT(printed.err, Not(HasSubstr("without a schema")));

  CliRun listed = run_eqfuse(fmt::format("ops --ops '{}' --filter add_relu", ops));
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("mylib::add_relu"));
  // Without the declaration the rule file cannot name the op.
  CliRun missing = run_eqfuse(fmt::format("optimize '{}' --rules '{}' -o '{}'", graph, rules, out));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("mylib::add_relu"));
}

// The config file can name the catalog too ("ops", relative to the config).
TEST(OpsOption, ConfigNamesTheCatalog) {
  write_scratch("cfg.schemas", kOps);
  const std::string config = write_scratch("ops_cfg.json", R"({"ops": "cfg.schemas"})").string();
  const std::string rules = write_scratch("my.rules", kRules).string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  CliRun r = run_eqfuse(
      fmt::format("optimize '{}' --config '{}' --rules '{}' -o /dev/null", graph, config, rules));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("user/add-relu x1"));
  const std::string bad = write_scratch("bad_cfg.json", R"({"ops": 3})").string();
  CliRun b = run_eqfuse(fmt::format("optimize '{}' --config '{}'", graph, bad));
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_THAT(b.err, HasSubstr("ops: expected an op catalog file"));
}

TEST(OpsOption, BadCatalogsAreErrorsAtTheirLine) {
  const std::string bad =
      write_scratch("bad.schemas", "mylib::f(Tensor x) -> Tensor | kind=other out0=y\n").string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  CliRun r = run_eqfuse(fmt::format("print '{}' --ops '{}'", graph, bad));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.schemas:1:"));
  EXPECT_THAT(r.err, HasSubstr("no argument 'y'"));
}

// x + y + y is not x * y. Before the load-time check this rule turned the
// graph's 2 kernels into 1 and exited 0 with a wrong graph.
const std::string kUnsoundRule = testing_support::slurp_file(
    std::filesystem::path(EQFUSE_TEST_DATA) / "rules" / "add_twice_is_not_mul.rules");

const char* kAddTwiceGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 8]", y: "f32[4, 8]"):
        add: "f32[4, 8]" = torch.ops.aten.add.Tensor(x, y)
        add_1: "f32[4, 8]" = torch.ops.aten.add.Tensor(add, y)
        return (add_1,)
)";

void expect_refused(const CliRun& r, const std::string& rules_file) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(rules_file + ":1:6: error: rule 'user/bad' is unsound (`trust: "
                                            "true` skips this check): output 0 at ["));
  EXPECT_THAT(r.err, ::testing::ContainsRegex(R"(: search -?[0-9.e+-]+, replace -?[0-9.e+-]+ )"));
  EXPECT_THAT(r.err, HasSubstr("\n  search: f32["));
  EXPECT_THAT(r.err, HasSubstr("\n  replace: f32["));
  EXPECT_THAT(r.err, HasSubstr("\n  inputs: x = f32["));
}

TEST(UserRules, AnUnsoundRuleFileIsRefusedWithExit2) {
  const std::string rules = write_scratch("bad.rules", kUnsoundRule).string();
  const std::string graph = write_scratch("add_twice.fx", kAddTwiceGraph).string();
  CliRun r = run_eqfuse(fmt::format("optimize '{}' --rules '{}' -o /dev/null", graph, rules));
  expect_refused(r, rules);
  expect_refused(run_eqfuse(fmt::format("rules --rules '{}'", rules)), rules);
  expect_refused(run_eqfuse(fmt::format("explain '{}' --rules '{}'", graph, rules)), rules);
}

// A config's "rules" (relative to the config) load like --rules, proven alike.
TEST(UserRules, ConfigRulesAreProvenToo) {
  const std::string rules = write_scratch("cfg_bad.rules", kUnsoundRule).string();
  const std::string config =
      write_scratch("rules_cfg.json", R"({"rules": ["cfg_bad.rules"]})").string();
  const std::string graph = write_scratch("add_twice.fx", kAddTwiceGraph).string();
  expect_refused(run_eqfuse(fmt::format("optimize '{}' --config '{}' -o /dev/null", graph, config)),
                 rules);
  expect_refused(run_eqfuse(fmt::format("rules --config '{}'", config)), rules);
  // A sound rule named there loads, and the listing says it was proven.
  write_scratch("cfg_good.rules", kRules);
  write_scratch("cfg_good.schemas", kOps);
  const std::string good =
      write_scratch("rules_good.json", R"({"ops": "cfg_good.schemas", "rules": "cfg_good.rules"})")
          .string();
  CliRun listed = run_eqfuse(fmt::format("rules --config '{}'", good));
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("[not checked at load: op mylib::add_relu has no reference "
                                    "kernel]"));
  const std::string bad = write_scratch("rules_bad.json", R"({"rules": 3})").string();
  CliRun b = run_eqfuse(fmt::format("rules --config '{}'", bad));
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_THAT(b.err, HasSubstr("rules: expected a .rules file or a list of them"));
}

// `trust: true` is the opt-out: the rule loads unchecked, and the listing and
// explain say so.
TEST(UserRules, TrustTrueLoadsTheRuleAndSaysSo) {
  std::string text = kUnsoundRule;
  text.insert(text.find("    def search"), "    trust: true\n");
  const std::string rules = write_scratch("trusted.rules", text).string();
  const std::string graph = write_scratch("add_twice.fx", kAddTwiceGraph).string();
  CliRun r = run_eqfuse(fmt::format("optimize '{}' --rules '{}' -o /dev/null", graph, rules));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("user/bad x1"));
  CliRun listed = run_eqfuse(fmt::format("rules --rules '{}' --json", rules));
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr(R"("load_check": "trusted, not checked at load")"));
  CliRun shown = run_eqfuse(fmt::format("rules --rules '{}' --show user/bad", rules));
  EXPECT_THAT(shown.out, HasSubstr("  load check: trusted, not checked at load\n"));
  CliRun explained = run_eqfuse(fmt::format("explain '{}' --rules '{}'", graph, rules));
  ASSERT_EQ(explained.exit_code, 0) << explained.err;
  EXPECT_THAT(explained.out, HasSubstr("user rules:\n  user/bad: trusted, not checked at load\n"));
  // Built-in rules are not listed there.
  CliRun plain = run_eqfuse(fmt::format("explain '{}'", graph));
  EXPECT_THAT(plain.out, Not(HasSubstr("user rules:")));
}

// --preset NAME (every toggle command): a peer's pass set as the base the other options
// adjust; an unknown name is a usage error with the list, and a config naming another
// preset is refused rather than silently combined.
const char* kV26 = "tests/scenarios/fusion/V26_add_rms_norm_bias_quantize_vllm_ascend_preset.fx";

TEST(PresetOption, AnUnknownPresetIsAnErrorOnEveryCommandThatTakesIt) {
  for (const std::string& cmd :
       {std::string("optimize ") + kV26, std::string("explain ") + kV26, std::string("rules")}) {
    CliRun r = run_eqfuse(cmd + " --preset vllm-ascnd");
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_THAT(r.err, HasSubstr("unknown preset 'vllm-ascnd' (did you mean 'vllm-ascend'?) "
                                 "(presets: npugraph_ex, torchair-ge, vllm, vllm-ascend)"))
        << cmd;
    EXPECT_EQ(r.out, "") << cmd;
  }
}

TEST(PresetOption, ThePresetFusesAndTheSummarySaysWhatItAssumed) {
  CliRun plain = run_eqfuse(std::string("optimize ") + kV26);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_THAT(plain.out, Not(HasSubstr("npu_add_rms_norm_quant")));
  EXPECT_THAT(plain.err, Not(HasSubstr("assumed")));

  CliRun ascend = run_eqfuse(std::string("optimize ") + kV26 + " --preset vllm-ascend");
  ASSERT_EQ(ascend.exit_code, 0) << ascend.err;
  EXPECT_THAT(ascend.out, HasSubstr("torch.ops.npu.npu_add_rms_norm_quant.default("));
  EXPECT_THAT(ascend.err, HasSubstr("fusion       vllm/add-rms-norm-bias-quantize-scale x1"));
  EXPECT_THAT(ascend.err, HasSubstr("assumed      arg5_1 == reciprocal(arg4_1) (by "
                                    "vllm/add-rms-norm-bias-quantize-scale"));

  // A --disable-rule applies on top of the preset.
  CliRun off = run_eqfuse(std::string("optimize ") + kV26 +
                          " --preset vllm-ascend --disable-rule fuse_norm_quant");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, Not(HasSubstr("npu_add_rms_norm_quant")));
  EXPECT_THAT(off.err, Not(HasSubstr("assumed")));
}

TEST(PresetOption, TheConfigsPresetKeyWorksAloneAndMustAgreeWithTheFlag) {
  const std::string ascend =
      write_scratch("preset_ascend.json", R"({"preset": "vllm-ascend"})").string();
  const std::string vllm = write_scratch("preset_vllm.json", R"({"preset": "vllm"})").string();
  const std::string bad = write_scratch("preset_bad.json", R"({"preset": "vllm_ascend"})").string();
  CliRun from_config = run_eqfuse(std::string("optimize ") + kV26 + " --config '" + ascend + "'");
  ASSERT_EQ(from_config.exit_code, 0) << from_config.err;
  EXPECT_THAT(from_config.err, HasSubstr("assumed      arg5_1 == reciprocal(arg4_1)"));
  // The same preset twice is one preset.
  CliRun same = run_eqfuse(std::string("optimize ") + kV26 + " --preset vllm-ascend --config '" +
                           ascend + "'");
  EXPECT_EQ(same.exit_code, 0) << same.err;
  CliRun differ = run_eqfuse("rules --preset vllm-ascend --config '" + vllm + "'");
  EXPECT_EQ(differ.exit_code, 2);
  EXPECT_THAT(differ.err, HasSubstr("--preset vllm-ascend and the config's \"preset\": \"vllm\" "
                                    "disagree: give one"));
  CliRun unknown = run_eqfuse("rules --config '" + bad + "'");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("config key 'preset': unknown preset 'vllm_ascend' (did you "
                                     "mean 'vllm-ascend'?)"));
}

// explain prints, per fused site, the input relation it relies on.
TEST(PresetOption, ExplainNamesTheAssumptionOfTheSite) {
  CliRun r = run_eqfuse(std::string("explain ") + kV26 + " --preset vllm-ascend");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("assumes arg5_1 == reciprocal(arg4_1)"));
}

}  // namespace
}  // namespace eqfuse
