// ctest-label: numeric
// User rules are proven at load (rewrites/rule_check.hpp): an unsound `.rules`
// rule or register_replacement is refused with its counterexample, `trust:
// true` / check = false skips the check, a rule that cannot be run gets a note,
// and the built-in library is not re-checked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include <fmt/format.h>

#include "graph/op_registry.hpp"
#include "rewrites/register_replacement.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_check.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_registry;
using testing_support::builtin_rules;

// x + y + y is not x * y: the rule of the bug report.
const std::string kUnsound = testing_support::slurp_file(std::filesystem::path(EQFUSE_TEST_DATA) /
                                                         "rules" / "add_twice_is_not_mul.rules");

std::string with_trust(std::string_view value) {
  std::string text = kUnsound;
  text.insert(text.find("    def search"), fmt::format("    trust: {}\n", value));
  return text;
}

Error load_error(RuleLibrary& lib, std::string_view text, std::string_view file) {
  try {
    lib.load_text(text, file);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "loaded:\n" << text;
  return Error("");
}

TEST(RuleCheck, AnUnsoundRuleFileIsRefusedWithItsCounterexample) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  const Error e = load_error(lib, kUnsound, "bad.rules");
  EXPECT_EQ(e.loc().file, "bad.rules");
  EXPECT_EQ(e.loc().line, 1);
  EXPECT_EQ(e.loc().column, 6);
  const std::string m = e.what();
  EXPECT_THAT(m, HasSubstr("rule 'user/bad' is unsound (`trust: true` skips this check)"));
  // The first difference: which output, where, both values, the tolerance.
  EXPECT_THAT(m, ::testing::ContainsRegex(
                     R"(output 0 at \[[0-9, ]+\]: search -?[0-9.e+-]+, replace -?[0-9.e+-]+ )"
                     R"(\(tolerance rtol 1e-05 atol 1e-06\))"));
  // Both outputs and the inputs, with their types and (clipped) values.
  EXPECT_THAT(m, ::testing::ContainsRegex(R"(search: f32\[[2-5], 8\] \[[^]]*, \.\.\.\])"));
  EXPECT_THAT(m, ::testing::ContainsRegex(R"(replace: f32\[[2-5], 8\] \[)"));
  EXPECT_THAT(m, ::testing::ContainsRegex(R"(inputs: x = f32\[[2-5], 8\] \[[^]]*\]; y = f32)"));
  // All of it survives the clipping of long messages.
  EXPECT_THAT(e.render(), Not(HasSubstr("more characters")));
  EXPECT_EQ(lib.find("user/bad"), nullptr);
}

TEST(RuleCheck, TheVerdictIsDeterministic) {
  RuleLibrary a = RuleLibrary::builtin(builtin_registry());
  RuleLibrary b = RuleLibrary::builtin(builtin_registry());
  EXPECT_EQ(std::string(load_error(a, kUnsound, "bad.rules").what()),
            std::string(load_error(b, kUnsound, "bad.rules").what()));
}

TEST(RuleCheck, TrustTrueLoadsTheRuleUnchecked) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  lib.load_text(with_trust("true"), "trusted.rules");
  const RuleDef* r = lib.find("user/bad");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->load_check, LoadCheck::Trusted);
  EXPECT_EQ(r->load_check_text(), "trusted, not checked at load");
  EXPECT_TRUE(lib.load_notes().empty());
  // `trust: false` is the default: checked.
  RuleLibrary other = RuleLibrary::builtin(builtin_registry());
  EXPECT_THAT(load_error(other, with_trust("false"), "t.rules").what(), HasSubstr("is unsound"));
  const Error bad = load_error(other, with_trust("yes"), "t.rules");
  EXPECT_THAT(bad.what(), HasSubstr("`trust:` takes true or false, got 'yes'"));
  EXPECT_EQ(bad.loc().line, 3);
}

// (x + y) + z as x + (y + z), and (x + y + z) * w distributed, in `dtype`.
std::string reordering_rules(std::string_view dtype) {
  return fmt::format(R"(rule user/add-assoc-{0} <=>
    labels: user
    def search(x: "{0}[s0, 64]", y: "{0}[s0, 64]", z: "{0}[s0, 64]"):
        add = torch.ops.aten.add.Tensor(x, y)
        add_1 = torch.ops.aten.add.Tensor(add, z)
        return (add_1,)

    def replace(x, y, z):
        add = torch.ops.aten.add.Tensor(y, z)
        add_1 = torch.ops.aten.add.Tensor(x, add)
        return (add_1,)

rule user/distribute-{0} =>
    def search(x: "{0}[16, 128]", y: "{0}[16, 128]", z: "{0}[16, 128]", w: "{0}[16, 128]"):
        add = torch.ops.aten.add.Tensor(x, y)
        add_1 = torch.ops.aten.add.Tensor(add, z)
        mul = torch.ops.aten.mul.Tensor(add_1, w)
        return (mul,)

    def replace(x, y, z, w):
        mul = torch.ops.aten.mul.Tensor(x, w)
        mul_1 = torch.ops.aten.mul.Tensor(y, w)
        mul_2 = torch.ops.aten.mul.Tensor(z, w)
        add = torch.ops.aten.add.Tensor(mul, mul_1)
        add_1 = torch.ops.aten.add.Tensor(add, mul_2)
        return (add_1,)
)",
                     dtype);
}

// Reordered float math is a legitimate rewrite: the criterion is
// interp/equivalence.hpp's Rounding mode with tolerances of a few ulps, not
// bit-exactness; in half precision too, where the checker's default
// tolerances (about one ulp of the output) refused (x + y) + z = x + (y + z).
TEST(RuleCheck, ASoundRuleIsProvenAndMayReorderFloatMath) {
  for (const char* dtype : {"f32", "f16", "bf16"}) {
    RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
    lib.load_text(reordering_rules(dtype), "reorder.rules");
    for (const char* name : {"user/add-assoc-", "user/distribute-"}) {
      const RuleDef* r = lib.find(std::string(name) + dtype);
      ASSERT_NE(r, nullptr);
      EXPECT_EQ(r->load_check, LoadCheck::Proven) << r->name;
      EXPECT_EQ(r->load_check_text(), "proven at load on random inputs");
      // The reordering is not bit-exact: exactness would have refused it.
      EquivalenceOptions exact = user_rule_check_options();
      exact.mode = ToleranceMode::Reference;
      EXPECT_EQ(prove_rule(*r, builtin_registry(), exact).verdict, RuleProof::Verdict::Unsound)
          << r->name;
    }
  }
}

// Wrong math is refused in every float dtype, however coarse.
TEST(RuleCheck, AnUnsoundRuleIsRefusedInHalfPrecisionToo) {
  for (const char* dtype : {"f16", "bf16"}) {
    std::string text = kUnsound;
    for (size_t at; (at = text.find("f32")) != std::string::npos;) text.replace(at, 3, dtype);
    RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
    EXPECT_THAT(load_error(lib, text, "bad.rules").what(), HasSubstr("is unsound")) << dtype;
  }
}

TEST(RuleCheck, ARuleCallingAnOpWithoutAKernelIsNotedNotChecked) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  reg.load_catalog(
      "mylib::add_relu(Tensor self, Tensor other) -> Tensor | kind=elementwise "
      "meta=like:aten::add.Tensor",
      "test.ops");
  RuleLibrary lib = RuleLibrary::builtin(reg);
  lib.load_text(R"(rule user/add-relu =>
    def search(x: "f16[s0, 8]", y: "f16[s0, 8]"):
        add = torch.ops.aten.add.Tensor(x, y)
        relu = torch.ops.aten.relu.default(add)
        return (relu,)

    def replace(x, y):
        fused = torch.ops.mylib.add_relu.default(x, y)
        return (fused,)
)",
                "custom.rules");
  const RuleDef* r = lib.find("user/add-relu");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->load_check, LoadCheck::NotChecked);
  EXPECT_EQ(r->load_check_text(),
            "not checked at load: op mylib::add_relu has no reference kernel");
  EXPECT_THAT(lib.load_notes(),
              ::testing::ElementsAre(
                  "rule 'user/add-relu' not checked: op mylib::add_relu has no reference kernel"));
}

TEST(RuleCheck, AnInputOfNoKnownTypeIsNotedNotChecked) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  lib.load_text(R"(rule user/untyped =>
    def search(x, y: "f32[4]"):
        add = torch.ops.aten.add.Tensor(x, y)
        return (add,)

    def replace(x, y):
        add = torch.ops.aten.add.Tensor(y, x)
        return (add,)
)",
                "untyped.rules");
  EXPECT_THAT(lib.load_notes(),
              ::testing::ElementsAre(::testing::StartsWith(
                  "rule 'user/untyped' not checked: input 'x' has no example type")));
}

// The C++ API: register_replacement refuses the same rule, naming it; check = false
// adds it unchecked.
TEST(RuleCheck, RegisterReplacementRefusesAnUnsoundRule) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  auto search = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::add.Tensor", {b.call("aten::add.Tensor", {in[0], in[1]}), in[1]})};
  };
  auto replace = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::mul.Tensor", {in[0], in[1]})};
  };
  const std::vector<ExampleInput> ex{{"x", parse_annotation("f32[s0, 8]"), {}},
                                     {"y", parse_annotation("f32[s0, 8]"), {}}};
  try {
    register_replacement(lib, search, replace, ex, {.name = "user/bad", .bidirectional = false});
    ADD_FAILURE() << "registered";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "register_replacement(user/bad)");
    EXPECT_THAT(e.what(), HasSubstr("rule 'user/bad' is unsound (check = false skips this check)"));
    EXPECT_THAT(e.what(), HasSubstr("output 0 at ["));
    EXPECT_THAT(e.what(), HasSubstr("inputs: x = f32["));
  }
  EXPECT_EQ(lib.find("user/bad"), nullptr);
  EXPECT_TRUE(register_replacement(lib, search, replace, ex,
                                   {.name = "user/bad", .bidirectional = false, .check = false}));
  EXPECT_EQ(lib.find("user/bad")->load_check, LoadCheck::Trusted);
  // A sound one is proven.
  auto commuted = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::add.Tensor", {in[1], b.call("aten::add.Tensor", {in[0], in[1]})})};
  };
  EXPECT_TRUE(register_replacement(lib, search, commuted, ex, {.name = "user/commuted"}));
  EXPECT_EQ(lib.find("user/commuted")->load_check, LoadCheck::Proven);
}

TEST(RuleCheck, TheBuiltinLibraryIsNotCheckedAtLoad) {
  for (const RuleDef& r : builtin_rules().rules()) {
    EXPECT_EQ(r.load_check, LoadCheck::Builtin) << r.name;
    EXPECT_EQ(r.load_check_text(), "") << r.name;
  }
  EXPECT_TRUE(builtin_rules().load_notes().empty());
}

// The load-time criterion accepts every built-in rule (they are proven under
// stricter modes by rule_soundness_test), inexact ones included: it refuses
// wrong rules, not roundings.
TEST(RuleCheck, TheUserCriterionAcceptsEveryBuiltinRule) {
  for (const RuleDef& r : builtin_rules().rules()) {
    RuleProof p = prove_rule(r, builtin_registry(), user_rule_check_options());
    EXPECT_EQ(p.verdict, RuleProof::Verdict::Sound) << r.name << ": " << p.detail;
  }
}

// A rule over collectives is run as a simulated group (kRuleProofWorldSize ranks): the
// matmul fused with its all_reduce is proven, and a replacement that leaves the
// all_reduce out (right on one rank, wrong on a group) is refused.
std::string collective_rule(std::string_view name, std::string_view replace_body) {
  return fmt::format(R"(rule {} =>
    example: group = '0'

    def search(x: "f32[4, 8]", w: "f32[8, 6]", group):
        mm = torch.ops.aten.mm.default(x, w)
        ar = torch.ops._c10d_functional.all_reduce.default(mm, 'sum', group)
        wait = torch.ops._c10d_functional.wait_tensor.default(ar)
        return (wait,)

    def replace(x, w, group):
{}
)",
                     name, replace_body);
}

TEST(RuleCheck, ARuleOverCollectivesIsProvenAsAGroupOfRanks) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  lib.load_text(collective_rule("user/mc2",
                                "        r = torch.ops.npu.npu_mm_all_reduce_base."
                                "default(x, w, group)\n        return (r,)"),
                "mc2.rules");
  const RuleDef* rule = lib.find("user/mc2");
  ASSERT_NE(rule, nullptr);
  const RuleProof p = prove_rule(*rule, builtin_registry(), user_rule_check_options());
  EXPECT_EQ(p.verdict, RuleProof::Verdict::Sound) << p.detail;
}

TEST(RuleCheck, ARuleThatDropsACollectiveIsRefusedOnTheGroup) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  const Error e = load_error(
      lib,
      collective_rule("user/no-reduce",
                      "        mm = torch.ops.aten.mm.default(x, w)\n        return (mm,)"),
      "drop.rules");
  EXPECT_THAT(e.what(), HasSubstr("rule 'user/no-reduce' is unsound"));
  EXPECT_THAT(e.what(),
              HasSubstr(fmt::format("as a {}-rank group: rank 0: output 0", kRuleProofWorldSize)));
}

// `replicated:` inputs hold one value on every rank of the proof's group, and `world_size`
// is the group's size there: the mean of a replicated value over the group is the value.
// Without `replicated:` the same rule is refused (each rank draws its own x).
std::string mean_rule(std::string_view replicated) {
  return fmt::format(R"(rule user/mean =>
    example: group = '0'
    where: world_size == 4
{}
    def search(x: "f32[4, 8]", group):
        ar = torch.ops._c10d_functional.all_reduce.default(x, 'sum', group)
        wait = torch.ops._c10d_functional.wait_tensor.default(ar)
        mean = torch.ops.aten.mul.Tensor(wait, 0.25)
        return (mean,)

    def replace(x, group):
        return (x,)
)",
                     replicated);
}

TEST(RuleCheck, ReplicatedInputsAreTheSameOnEveryRankOfTheProof) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  lib.load_text(mean_rule("    replicated: x\n"), "mean.rules");
  ASSERT_NE(lib.find("user/mean"), nullptr);
  RuleLibrary other = RuleLibrary::builtin(builtin_registry());
  const Error e = load_error(other, mean_rule(""), "mean.rules");
  EXPECT_THAT(e.what(), HasSubstr("rule 'user/mean' is unsound"));
}

TEST(RuleCheck, ReplicatedNamesAnInput) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  const Error e = load_error(lib, mean_rule("    replicated: y\n"), "mean.rules");
  EXPECT_THAT(e.what(), HasSubstr("`replicated: y` names no input of the rule"));
}

}  // namespace
}  // namespace eqfuse
