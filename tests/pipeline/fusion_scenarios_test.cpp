// ctest-label: golden
// The fusion acceptance scenarios (tests/scenarios/fusion/scenarios.json,
// docs/reference/torchair-passes.md §8 and issue 4/5): each FX file is
// optimized with `optimize_graph` under the scenario's mode and toggles; the
// output must contain exactly the expected ops, none of the excluded ones, at
// most `kernels_max` kernels, and be equivalent to the input under the
// reference interpreter.
// Negative scenarios ("why": a condition fails, or the intermediate is used
// elsewhere and the fusion must lose on cost) are checked the same way.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "graph/value_type.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/register_replacement.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_check.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/fusion_scenarios.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

namespace fs = std::filesystem;
using Json = nlohmann::json;

const fs::path kDir = testing_support::kFusionScenarioDir;

std::vector<Json> scenarios() {
  return testing_support::fusion_scenarios();
}

OptimizeOptions options_for(const Json& s) {
  return testing_support::fusion_scenario_options(s);
}

class FusionScenario : public ::testing::TestWithParam<Json> {};

TEST_P(FusionScenario, OptimizesAsExpectedAndStaysEquivalent) {
  const Json& s = GetParam();
  fs::path file = kDir / s.at("file").get<std::string>();
  Graph in = load_graph(read_file_or_stdin(file.string()), file.string(), builtin_registry()).graph;
  OptimizeResult r = optimize_graph(in, builtin_registry(), options_for(s));
  std::map<std::string, int64_t> ops = call_target_counts(r.graph);
  SCOPED_TRACE(s.at("description").get<std::string>() + "\n" +
               print_fx(r.graph, &builtin_registry()));
  const Json& ex = s.at("expected");
  for (const auto& [op, count] : ex.at("output_has").items())
    EXPECT_EQ(ops[op], count.get<int>()) << op;
  for (const auto& op : ex.at("output_lacks")) EXPECT_EQ(ops[op.get<std::string>()], 0) << op;
  if (ex.contains("kernels_max")) {
    EXPECT_LE(r.stats.kernels_after, ex.at("kernels_max").get<size_t>());
  }
  EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us + 1e-6);
  // The fused kernels are credited to the scenario's rules: a positive
  // scenario fuses with them and nothing else, a negative one with none.
  std::set<std::string> listed;
  for (const auto& rule : s.at("rules")) listed.insert(rule.get<std::string>());
  if (s.at("kind") == "positive") {
    EXPECT_FALSE(r.stats.fusions.empty()) << "no fused kernel credited";
    for (const auto& [rule, n] : r.stats.fusions)
      EXPECT_TRUE(listed.contains(rule)) << rule << " x" << n << " is not a rule of the scenario";
  } else {
    for (const std::string& rule : listed)
      EXPECT_FALSE(r.stats.fusions.contains(rule)) << rule << " fused in a negative scenario";
  }
  // A site fused by an `inexact` rule rounds in another order than its chain: the check
  // allows what the rule's own proof does (rewrites/rule_check.hpp, user rules' criterion).
  const bool inexact =
      std::any_of(r.stats.fusions.begin(), r.stats.fusions.end(), [](const auto& f) {
        const RuleDef* rule = testing_support::builtin_rules().find(f.first);
        return rule != nullptr && rule->has_label("inexact");
      });
  EquivalenceOptions eo = inexact ? user_rule_check_options() : EquivalenceOptions{};
  eo.trials = 2;
  eo.world_size = testing_support::scenario_world_size(s);
  if (s.contains("replicated"))
    for (const auto& name : s.at("replicated")) eo.replicated_inputs.push_back(name);
  eo.mode = ToleranceMode::Rounding;
  // A site fused under a peer's assumption is equal on inputs that hold it.
  for (const UsedAssumption& a : r.stats.assumptions) eo.assumptions.push_back(a.assumption);
  EquivalenceResult eq = equivalent(in, r.graph, builtin_registry(), eo);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

std::string scenario_name(const ::testing::TestParamInfo<Json>& info) {
  return testing_support::scenario_test_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(Spec, FusionScenario, ::testing::ValuesIn(scenarios()), scenario_name);

// §8.2 Q16 (TorchAir's skip_duplicates test) is not a graph property, so it
// has no scenario file (README.md, "Upstream case → scenario(s)"): the user
// registers the epsilon/dtype form of rule (e) again, although the default
// library has it, with skip_duplicates, then compiles x1 + x2 without error.
// eqfuse keys duplicates by rule name (TorchAir: by the pattern's printed
// form), so the same pattern under a new name is a second rule, not an
// error; where the default rule applies it makes the same unions, and rule
// (e) scenarios still fuse.
std::vector<Arg> add_rms_norm_then_quantize(GraphBuilder& b, std::span<const Arg> in) {
  Arg norm = b.call("npu::npu_add_rms_norm", {in[0], in[1], in[2], in[5]});
  Arg quant =
      b.call("npu::npu_quantize", {b.getitem(norm, 0), in[3], in[4], in[6], Arg(int64_t{-1})});
  return {quant, b.getitem(norm, 2)};
}

std::vector<Arg> add_rms_norm_quant(GraphBuilder& b, std::span<const Arg> in) {
  Arg fused = b.call("npu::npu_add_rms_norm_quant", {in[0], in[1], in[2], in[3], in[4]},
                     {{"axis", Arg(int64_t{-1})}, {"epsilon", in[5]}});
  return {b.getitem(fused, 0), b.getitem(fused, 2)};
}

TEST(UpstreamQ16, ReRegisteringADefaultPatternWithSkipDuplicatesIsNoError) {
  const OpRegistry& reg = builtin_registry();
  RuleLibrary lib = RuleLibrary::builtin(reg);
  const std::vector<ExampleInput> ex{{"x1", parse_annotation("f16[2, 16]"), {}},
                                     {"x2", parse_annotation("f16[2, 16]"), {}},
                                     {"gamma", parse_annotation("f16[16]"), {}},
                                     {"scales", parse_annotation("f32[16]"), {}},
                                     {"zero_points", parse_annotation("i32[16]"), {}},
                                     {"epsilon", ValueType::unknown(), Arg(2e-6)},
                                     {"dtype", ValueType::unknown(), Arg(int64_t{1})}};
  ReplacementOptions again{
      .name = "torchair/add-rms-norm-quant", .bidirectional = false, .skip_duplicates = true};
  EXPECT_FALSE(
      register_replacement(lib, add_rms_norm_then_quantize, add_rms_norm_quant, ex, again));
  again.skip_duplicates = false;
  EXPECT_THROW(register_replacement(lib, add_rms_norm_then_quantize, add_rms_norm_quant, ex, again),
               Error);
  ReplacementOptions renamed{
      .name = "user/add-rms-norm-quant-eps", .bidirectional = false, .skip_duplicates = true};
  EXPECT_TRUE(
      register_replacement(lib, add_rms_norm_then_quantize, add_rms_norm_quant, ex, renamed));

  OptimizeOptions opt;
  opt.library = &lib;
  const Graph add = load_graph(R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 16]", arg1_1: "f16[2, 16]"):
        add: "f16[2, 16]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        return (add,)
)",
                               "q16.fx", reg)
                        .graph;
  OptimizeResult r;
  ASSERT_NO_THROW(r = optimize_graph(add, reg, opt));
  EXPECT_EQ(call_target_counts(r.graph)["aten::add.Tensor"], 1);

  const fs::path e1 = kDir / "E1_add_rms_norm_quant_bf16.fx";
  const Graph quant = load_graph(read_file_or_stdin(e1.string()), e1.string(), reg).graph;
  r = optimize_graph(quant, reg, opt);
  EXPECT_EQ(call_target_counts(r.graph)["npu::npu_add_rms_norm_quant"], 1);
}

}  // namespace
}  // namespace eqfuse
