// The rule format, the library's validation, toggles and
// register_replacement (rewrites/).
#include <gtest/gtest.h>

#include <set>
#include <type_traits>
#include <utility>

#include "graph/value_type.hpp"
#include "rewrites/register_replacement.hpp"
#include "rewrites/rule.hpp"
#include "rewrites/rule_example.hpp"
#include "rewrites/rule_file.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

// A valid one-rule file; tests break one thing at a time.
std::string add_relu_rule(std::string_view where = "a.shape == b.shape",
                          std::string_view dir = "<=>") {
  return std::string("rule test/add-to-sub ") + std::string(dir) +
         "\n"
         "    labels: test, fusion\n"
         "    description: a + b is b + a\n"
         "    where: " +
         std::string(where) +
         "\n"
         "\n"
         "    def search(a: \"f32[4, 8]\", b: \"f32[4, 8]\"):\n"
         "        add = torch.ops.aten.add.Tensor(a, b)\n"
         "        return (add,)\n"
         "\n"
         "    def replace(a, b):\n"
         "        add = torch.ops.aten.add.Tensor(b, a)\n"
         "        return (add,)\n";
}

Error load_error(const std::string& text) {
  RuleLibrary lib(builtin_registry());
  try {
    lib.load_text(text, "t.rules");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected an error for:\n" << text;
  return Error("none");
}

TEST(RuleFile, ParsesMetadataAndBothFunctions) {
  std::vector<RuleDef> rules = parse_rules_file(add_relu_rule(), "t.rules");
  ASSERT_EQ(rules.size(), 1u);
  const RuleDef& r = rules[0];
  EXPECT_EQ(r.name, "test/add-to-sub");
  EXPECT_TRUE(r.bidirectional);
  EXPECT_EQ(r.labels, (std::vector<std::string>{"test", "fusion"}));
  EXPECT_EQ(r.description, "a + b is b + a");
  ASSERT_EQ(r.where.size(), 1u);
  EXPECT_EQ(r.where[0].text(), "a.shape == b.shape");
  EXPECT_EQ(r.where[0].loc().line, 4);
  EXPECT_EQ(r.where[0].loc().column, 12);
  EXPECT_EQ(r.loc.line, 1);
  EXPECT_EQ(r.search.placeholders().size(), 2u);
  EXPECT_EQ(r.replace.output_values().size(), 1u);
}

TEST(RuleFile, OneDirectionalArrow) {
  std::vector<RuleDef> rules = parse_rules_file(add_relu_rule("a.rank == 2", "=>"), "t.rules");
  EXPECT_FALSE(rules.at(0).bidirectional);
}

TEST(RuleFile, UnknownKeyIsLocated) {
  std::string text = add_relu_rule();
  text.insert(text.find("    description"), "    colour: blue\n");
  Error e = load_error(text);
  EXPECT_EQ(e.loc().line, 3);
  EXPECT_EQ(e.loc().column, 5);
  EXPECT_NE(std::string(e.what()).find("unknown key 'colour'"), std::string::npos);
}

TEST(RuleFile, BadDirectionIsLocated) {
  Error e = load_error(add_relu_rule("a.rank == 2", "->"));
  EXPECT_EQ(e.loc().line, 1);
  EXPECT_NE(std::string(e.what()).find("`<=>` or `=>`"), std::string::npos);
}

TEST(RuleFile, MissingReplaceIsAnError) {
  std::string text = add_relu_rule();
  text.resize(text.find("    def replace"));
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("has no `def replace`"), std::string::npos);
}

TEST(RuleFile, FxSyntaxErrorPointsIntoTheRulesFile) {
  std::string text = add_relu_rule();
  size_t at = text.find("torch.ops.aten.add.Tensor(a, b)");
  text.replace(at, 31, "torch.ops.aten.add.Tensor(a, b");
  Error e = load_error(text);
  EXPECT_EQ(e.loc().file, "t.rules");
  // Calls may span lines (as in FX dumps), so the missing ')' is noticed at
  // the next statement, like Python's own parser does.
  EXPECT_EQ(e.loc().line, 8);
  EXPECT_NE(std::string(e.what()).find("expected ',' or ')'"), std::string::npos) << e.what();
}

TEST(RuleFile, ExampleLiterals) {
  std::string text = add_relu_rule();
  text.insert(text.find("    where"),
              "    example: eps = 1e-06, dims = [0, -1], dt = torch.int8\n");
  std::vector<RuleDef> rules = parse_rules_file(text, "t.rules");
  const auto& ex = rules.at(0).example_values;
  EXPECT_EQ(std::get<double>(ex.at("eps").value), 1e-6);
  EXPECT_EQ(ex.at("dims"), Arg::list({Arg(int64_t{0}), Arg(int64_t{-1})}));
  EXPECT_EQ(std::get<DType>(ex.at("dt").value), DType::Int8);
}

TEST(RuleLibrary, UnknownOpIsLocatedAtTheNode) {
  std::string text = add_relu_rule();
  text.replace(text.find("aten.add.Tensor(b, a)"), 21, "aten.frobnicate.default(b, a)");
  Error e = load_error(text);
  EXPECT_EQ(e.loc().line, 11);
  EXPECT_NE(std::string(e.what()).find("unknown op 'aten::frobnicate'"), std::string::npos);
}

TEST(RuleLibrary, OutputCountsMustMatch) {
  std::string text = add_relu_rule();
  text.replace(text.rfind("return (add,)"), 13, "return (add, add)");
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("search returns 1 values but replace returns 2"),
            std::string::npos);
}

TEST(RuleLibrary, InputOnlyInReplaceIsUnbound) {
  std::string text =
      "rule test/unbound =>\n"
      "    def search(a: \"f32[4]\", b: \"f32[4]\"):\n"
      "        neg = torch.ops.aten.neg.default(a)\n"
      "        return (neg,)\n"
      "    def replace(a, b):\n"
      "        add = torch.ops.aten.add.Tensor(a, b)\n"
      "        return (add,)\n";
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("input 'b' is used by replace but not by search"),
            std::string::npos);
}

TEST(RuleLibrary, BidirectionalRuleMustUseEveryInputOnBothSides) {
  std::string text =
      "rule test/drop <=>\n"
      "    def search(a: \"f32[4]\", b: \"f32[4]\"):\n"
      "        add = torch.ops.aten.add.Tensor(a, b)\n"
      "        return (add,)\n"
      "    def replace(a, b):\n"
      "        neg = torch.ops.aten.neg.default(a)\n"
      "        return (neg,)\n";
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("write the rule with `=>`"), std::string::npos);
}

TEST(RuleLibrary, BareInputSearchOutputIsRejected) {
  std::string text =
      "rule test/everything =>\n"
      "    def search(a: \"f32[4]\"):\n"
      "        return (a,)\n"
      "    def replace(a):\n"
      "        neg = torch.ops.aten.neg.default(a)\n"
      "        return (neg,)\n";
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("would match every e-class"), std::string::npos);
}

TEST(RuleLibrary, OutputTypesMustAgreeOnTheExample) {
  std::string text =
      "rule test/wrong-dtype =>\n"
      "    def search(a: \"f16[4]\"):\n"
      "        neg = torch.ops.aten.neg.default(a)\n"
      "        return (neg,)\n"
      "    def replace(a):\n"
      "        cast = torch.ops.aten._to_copy.default(a, dtype = torch.float32)\n"
      "        return (cast,)\n";
  Error e = load_error(text);
  EXPECT_NE(std::string(e.what()).find("output 0 of search is f16[4] but output 0 of replace is "
                                       "f32[4]"),
            std::string::npos)
      << e.what();
}

TEST(RuleLibrary, ConditionMustHoldOnTheExample) {
  Error e = load_error(add_relu_rule("a.rank == 3"));
  EXPECT_EQ(e.loc().line, 4);
  EXPECT_NE(std::string(e.what()).find("a.rank == 3"), std::string::npos);
}

TEST(RuleLibrary, ConditionNamesAreChecked) {
  Error e = load_error(add_relu_rule("c.rank == 2"));
  EXPECT_EQ(e.loc().line, 4);
  EXPECT_NE(std::string(e.what()).find("c"), std::string::npos);
}

TEST(RuleLibrary, DuplicateNamesUnlessSkipped) {
  RuleLibrary lib(builtin_registry());
  lib.load_text(add_relu_rule(), "a.rules");
  EXPECT_THROW(lib.load_text(add_relu_rule(), "b.rules"), Error);
  EXPECT_NO_THROW(lib.load_text(add_relu_rule(), "b.rules", /*skip_duplicates=*/true));
  EXPECT_EQ(lib.rules().size(), 1u);
}

TEST(RuleLibrary, BuiltinLoadsWithUniqueNamesAndDocumentedRules) {
  RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  std::set<std::string> names;
  for (const RuleDef& r : lib.rules()) {
    EXPECT_TRUE(names.insert(r.name).second) << r.name;
    EXPECT_FALSE(r.description.empty()) << r.name;
    EXPECT_FALSE(r.labels.empty()) << r.name;
    EXPECT_TRUE(instantiate_example(r, builtin_registry()).has_value())
        << r.name << " needs example types for every input";
  }
  for (const char* must :
       {"torchair/add-rms-norm-dynamic-quant", "torchair/add-rms-norm-cast",
        "torchair/bmm-transpose", "torchair/add-rms-norm-quant", "mindspore/add-rms-norm",
        "npu/swiglu", "layout/dynamic-quant-through-view", "layout/cast-through-view"})
    EXPECT_TRUE(names.count(must)) << must;
}

TEST(RuleLibrary, CompilesBothDirectionsPerStream) {
  RuleLibrary lib(builtin_registry());
  lib.load_text(add_relu_rule(), "t.rules");
  std::vector<std::string> streams{"", "2"};
  CompiledRules c = lib.compile(RuleConfig{}, streams, nullptr);
  std::vector<std::string> names;
  for (const Rewrite& r : c.rewrites) names.push_back(r.name());
  EXPECT_EQ(names, (std::vector<std::string>{"test/add-to-sub", "test/add-to-sub-rev",
                                             "test/add-to-sub@2", "test/add-to-sub-rev@2"}));
  EXPECT_EQ(c.base_name[3], "test/add-to-sub");
}

TEST(RuleToggle, FollowsTorchAirConventions) {
  std::vector<std::string> fusion_no_ge{"torchair", "fusion", "no-ge"};
  std::vector<std::string> layout{"layout"};
  std::vector<std::string> opt_in{"experimental", "opt-in", "fusion"};
  RuleConfig cfg;
  EXPECT_TRUE(rule_toggle("torchair/bmm-transpose", fusion_no_ge, cfg).enabled);
  cfg.mode = ExecMode::MaxAutotune;
  EXPECT_FALSE(rule_toggle("torchair/bmm-transpose", fusion_no_ge, cfg).enabled);
  EXPECT_TRUE(rule_toggle("layout/noop-view", layout, cfg).enabled);
  cfg = {};
  cfg.pattern_fusion_pass = false;
  EXPECT_FALSE(rule_toggle("torchair/bmm-transpose", fusion_no_ge, cfg).enabled);
  EXPECT_TRUE(rule_toggle("layout/noop-view", layout, cfg).enabled);
  cfg = {};
  std::vector<std::string> noop{"noop", "torchair"};
  EXPECT_TRUE(rule_toggle("noop/clone", noop, cfg).enabled);
  cfg.remove_noop_ops = false;  // TorchAir's remove_noop_ops: only `noop` rules go
  EXPECT_EQ(rule_toggle("noop/clone", noop, cfg).reason, "remove_noop_ops is off");
  EXPECT_FALSE(rule_toggle("noop/clone", noop, cfg).enabled);
  EXPECT_TRUE(rule_toggle("layout/noop-view", layout, cfg).enabled);
  EXPECT_TRUE(rule_toggle("torchair/bmm-transpose", fusion_no_ge, cfg).enabled);
  cfg = {};
  EXPECT_FALSE(rule_toggle("x/exp", opt_in, cfg).enabled);
  cfg.enable = {"experimental"};
  EXPECT_TRUE(rule_toggle("x/exp", opt_in, cfg).enabled);
  cfg.disable = {"x/exp"};  // disable wins
  RuleToggle t = rule_toggle("x/exp", opt_in, cfg);
  EXPECT_FALSE(t.enabled);
  EXPECT_EQ(t.reason, "disabled by --disable-rule x/exp");
  cfg = {};
  cfg.disable = {"layout"};
  EXPECT_FALSE(rule_toggle("layout/noop-view", layout, cfg).enabled);
}

std::vector<Arg> neg_of_add(GraphBuilder& b, std::span<const Arg> in) {
  Arg add = b.call("torch.ops.aten.add.Tensor", {in[0], in[1]});
  return {b.call("aten::neg", {add})};
}

std::vector<Arg> sub_form(GraphBuilder& b, std::span<const Arg> in) {
  Arg neg = b.call("aten::neg", {in[0]});
  return {b.call("aten::sub.Tensor", {neg, in[1]})};
}

TEST(RegisterReplacement, TracesIntoARule) {
  RuleLibrary lib(builtin_registry());
  std::vector<ExampleInput> ex{{"a", parse_annotation("f32[4]"), {}},
                               {"b", parse_annotation("f32[4]"), {}}};
  EXPECT_TRUE(register_replacement(lib, neg_of_add, sub_form, ex,
                                   {.name = "user/neg-add", .where = {"a.shape == b.shape"}}));
  const RuleDef* r = lib.find("user/neg-add");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->search.output_values().size(), 1u);
  EXPECT_EQ(r->inputs, (std::vector<std::string>{"a", "b"}));
  EXPECT_THROW(register_replacement(lib, neg_of_add, sub_form, ex, {.name = "user/neg-add"}),
               Error);
  EXPECT_FALSE(register_replacement(lib, neg_of_add, sub_form, ex,
                                    {.name = "user/neg-add", .skip_duplicates = true}));
}

TEST(RegisterReplacement, WrongReplacementTypeIsRejected) {
  RuleLibrary lib(builtin_registry());
  std::vector<ExampleInput> ex{{"a", parse_annotation("f32[4]"), {}}};
  auto search = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::neg", {in[0]})};
  };
  auto to_half = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::_to_copy", {in[0]}, {{"dtype", Arg(DType::Float16)}})};
  };
  try {
    register_replacement(lib, search, to_half, ex, {.name = "user/bad", .bidirectional = false});
    ADD_FAILURE() << "expected a type error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("output 0 of search is f32[4]"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace eqfuse

namespace eqfuse {
namespace {

// A library keeps a reference to its registry: a temporary registry would
// dangle (heap-use-after-free), so the API refuses one at compile time.
template <class R>
concept BuiltinAcceptsRegistry = requires(R&& r) {
  RuleLibrary::builtin(std::forward<R>(r));
};

TEST(RuleLibraryApi, ATemporaryRegistryDoesNotCompile) {
  static_assert(!std::is_constructible_v<RuleLibrary, OpRegistry>);
  static_assert(!BuiltinAcceptsRegistry<OpRegistry>);
  static_assert(std::is_constructible_v<RuleLibrary, const OpRegistry&>);
  static_assert(BuiltinAcceptsRegistry<const OpRegistry&>);
  const OpRegistry reg = OpRegistry::with_builtin_ops();
  EXPECT_FALSE(RuleLibrary::builtin(reg).rules().empty());
}

}  // namespace
}  // namespace eqfuse
