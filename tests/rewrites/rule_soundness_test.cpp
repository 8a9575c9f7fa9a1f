// ctest-label: numeric
// Every default rule is an equality: on random values (and random sizes
// for symbolic dims) of its example inputs, the search side and the replace
// side compute the same outputs in the reference interpreter. Rules whose
// fused kernel rounds differently (quantization after a fused norm, x / (1/s)
// vs x * s) are compared in ToleranceMode::Rounding: int8 may differ by one
// step, floats at input precision; every other rule must agree exactly.
// The check is prove_rule (rewrites/rule_check.hpp), which user rules go
// through at load with the Rounding criterion; the built-in ones are proven
// here instead, under the stricter modes above.
#include <gtest/gtest.h>

#include "interp/equivalence.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_check.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;
using testing_support::builtin_rules;

// Fusions whose fused kernel skips an intermediate rounding of the unfused
// chain (the fused op keeps y in float before quantizing or casting).
bool needs_rounding_mode(const RuleDef& r) {
  return r.has_label("fusion") || r.name == "layout/upcast-chain";
}

class RuleSoundness : public ::testing::TestWithParam<std::string> {};

TEST_P(RuleSoundness, SearchEqualsReplaceOnRandomInputs) {
  const RuleLibrary& lib = builtin_rules();
  const RuleDef* rule = lib.find(GetParam());
  ASSERT_NE(rule, nullptr);
  // An `inexact` rule rounds in another order than its chain: it is held to the user
  // rules' criterion, a few units in the last place of its inputs' magnitude (a bias
  // shared out over the ranks is rounded with each rank's partial sum, not the total).
  EquivalenceOptions opt =
      rule->has_label("inexact") ? user_rule_check_options() : EquivalenceOptions{};
  opt.trials = 4;
  opt.seed = 7;
  opt.mode = needs_rounding_mode(*rule) ? ToleranceMode::Rounding : ToleranceMode::Strict;
  RuleProof p = prove_rule(*rule, builtin_registry(), opt);
  EXPECT_EQ(p.verdict, RuleProof::Verdict::Sound) << rule->name << ": " << p.detail;
  EXPECT_EQ(p.trials_run, 4);
}

// The `inexact` label (docs/rules.md): with the fused norm-quant kernels
// rounding y like the unfused chain (ToleranceMode::Rounding), every other fusion
// gives the unfused chain's int8 values exactly; and every inexact rule really is
// one: under reference numerics its replacement gives other values than its search
// on random inputs (x / (1 / s) vs x * s, a gamma rounded to the half type).
TEST(RuleSoundness, OnlyInexactRulesMoveAQuantizedValue) {
  for (const RuleDef& rule : builtin_rules().rules()) {
    // An assumption rule divides by the scale where the chain multiplies by its
    // reciprocal, as the peer it follows does: it may move a value by one step too.
    const bool inexact = rule.has_label("inexact") || rule.has_label("assumption");
    if (!rule.has_label("fusion") && !inexact) continue;
    EquivalenceOptions opt;
    opt.trials = 8;
    opt.seed = 7;
    opt.mode = inexact ? ToleranceMode::Reference : ToleranceMode::Rounding;
    opt.quantized_max_diff = 0;
    RuleProof p = prove_rule(rule, builtin_registry(), opt);
    EXPECT_EQ(p.verdict, inexact ? RuleProof::Verdict::Unsound : RuleProof::Verdict::Sound)
        << rule.name << ": " << p.detail;
  }
}

// An `assumption` rule is proven on inputs that hold its `assume:` lines; the
// assumption carries weight: on inputs drawn freely the same check refutes it.
TEST(RuleSoundness, AssumptionRulesNeedTheirAssumption) {
  size_t seen = 0;
  for (const RuleDef& rule : builtin_rules().rules()) {
    if (!rule.has_label("assumption")) continue;
    ++seen;
    EXPECT_FALSE(rule.assumes.empty()) << rule.name;
    EquivalenceOptions opt;
    opt.trials = 4;
    opt.seed = 7;
    opt.mode = ToleranceMode::Rounding;
    EXPECT_EQ(prove_rule(rule, builtin_registry(), opt).verdict, RuleProof::Verdict::Sound)
        << rule.name;
    RuleDef unassumed = rule;
    unassumed.assumes.clear();
    EXPECT_EQ(prove_rule(unassumed, builtin_registry(), opt).verdict, RuleProof::Verdict::Unsound)
        << rule.name;
  }
  EXPECT_GE(seen, 1u);
}

std::vector<std::string> rule_names() {
  std::vector<std::string> names;
  for (const RuleDef& r : builtin_rules().rules()) names.push_back(r.name);
  return names;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s;
  for (char c : info.param) s += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(DefaultRules, RuleSoundness, ::testing::ValuesIn(rule_names()), test_name);

}  // namespace
}  // namespace eqfuse
