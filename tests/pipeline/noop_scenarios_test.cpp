// ctest-label: golden
// The no-op removal scenarios (tests/scenarios/noop, README.md there;
// docs/reference/torchair-passes.md §1.1 step 2 and §8.7): inductor's
// remove_noop_ops as rules
// (rewrites/library/noop.rules). Each file is optimized with the default
// toggles, where the no-op must be gone (or kept, for the guarded clone
// cases) and the output equivalent to the input under the reference
// interpreter, and with remove_noop_ops off, where it must stay.
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/fusion_scenarios.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

namespace fs = std::filesystem;
using Json = nlohmann::json;

int64_t count_of(const Graph& g, const std::string& op) {
  std::map<std::string, int64_t> ops = call_target_counts(g);
  return ops.contains(op) ? ops.at(op) : 0;
}

class NoopScenario : public ::testing::TestWithParam<Json> {
 protected:
  void SetUp() override {
    fs::path file = testing_support::kNoopScenarioDir / GetParam().at("file").get<std::string>();
    input_ = load_graph(read_file_or_stdin(file.string()), file.string(), builtin_registry()).graph;
    op_ = GetParam().at("op").get<std::string>();
    ASSERT_GT(count_of(input_, op_), 0) << "the scenario's input has no " << op_;
  }

  Graph input_;
  std::string op_;
};

TEST_P(NoopScenario, OptimizeRemovesTheNoopAndStaysEquivalent) {
  const Json& s = GetParam();
  OptimizeOptions opt;
  OptimizeResult r = optimize_graph(input_, builtin_registry(), opt);
  SCOPED_TRACE(s.at("description").get<std::string>() + "\n" +
               print_fx(r.graph, &builtin_registry()));
  if (s.at("removed").get<bool>())
    EXPECT_EQ(count_of(r.graph, op_), 0);
  else
    EXPECT_EQ(count_of(r.graph, op_), count_of(input_, op_)) << s.at("why").get<std::string>();
  EXPECT_LE(r.stats.kernels_after, r.stats.kernels_before);
  EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us + 1e-6);
  EquivalenceOptions eo;
  eo.trials = 3;
  EquivalenceResult eq = equivalent(input_, r.graph, builtin_registry(), eo);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

TEST_P(NoopScenario, RemoveNoopOpsOffKeepsTheNoop) {
  const Json& s = GetParam();
  OptimizeOptions opt;
  apply_config_json(opt, R"({"experimental_config": {"remove_noop_ops": false}})", "test");
  OptimizeResult r = optimize_graph(input_, builtin_registry(), opt);
  SCOPED_TRACE(print_fx(r.graph, &builtin_registry()));
  if (s.at("kept_when_off").get<bool>()) {
    EXPECT_EQ(count_of(r.graph, op_), count_of(input_, op_));
  } else {
    EXPECT_EQ(count_of(r.graph, op_), 0) << s.at("why_not_kept_when_off").get<std::string>();
  }
  for (const RuleRunStats& rule : r.stats.rules)
    if (rule.rule.starts_with("noop/")) {
      EXPECT_FALSE(rule.enabled) << rule.rule;
      EXPECT_EQ(rule.toggle_reason, "remove_noop_ops is off");
    }
}

std::string scenario_name(const ::testing::TestParamInfo<Json>& info) {
  return testing_support::scenario_test_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(
    Spec, NoopScenario,
    ::testing::ValuesIn(testing_support::scenario_entries(testing_support::kNoopScenarioDir)),
    scenario_name);

}  // namespace
}  // namespace eqfuse
