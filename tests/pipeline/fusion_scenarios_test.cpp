// ctest-label: golden
// The fusion acceptance scenarios (tests/scenarios/fusion/scenarios.json,
// docs/reference/torchair-passes.md §8 and issue 4/5): each FX file is
// optimized with `optimize_graph` under the scenario's mode and toggles; the
// output must contain exactly the expected ops, none of the excluded ones, at
// most `kernels_max` kernels, and be equivalent to the input under the
// reference interpreter.
// Negative scenarios ("why": a condition fails, or the intermediate is used
// elsewhere and the fusion must lose on cost) are checked the same way.
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pipeline/optimize.hpp"
#include "graph/equivalence.hpp"
#include "graph/fx_printer.hpp"
#include "graph/load.hpp"
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
  EquivalenceOptions eo;
  eo.trials = 2;
  eo.mode = ToleranceMode::Rounding;
  EquivalenceResult eq = equivalent(in, r.graph, builtin_registry(), eo);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

std::string scenario_name(const ::testing::TestParamInfo<Json>& info) {
  return testing_support::scenario_test_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(Spec, FusionScenario, ::testing::ValuesIn(scenarios()), scenario_name);

}  // namespace
}  // namespace eqfuse
