// The rule format, the library's validation, toggles and
// register_replacement (rewrites/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
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

// A rule computing a replace-side literal: x * c => x / (1 / c) for a power of two c.
std::string let_rule(std::string_view let, std::string_view dir = "=>",
                     std::string_view search_operand = "c") {
  return "rule test/mul-as-div " + std::string(dir) +
         "\n"
         "    labels: test\n"
         "    example: c = 4.0\n"
         "    where: is_power_of_two(c)\n"
         "    let: " +
         std::string(let) +
         "\n"
         "\n"
         "    def search(x: \"f32[4, 8]\", c, r):\n"
         "        mul = torch.ops.aten.mul.Tensor(x, " +
         std::string(search_operand) +
         ")\n"
         "        return (mul,)\n"
         "\n"
         "    def replace(x, c, r):\n"
         "        div = torch.ops.aten.div.Tensor(x, r)\n"
         "        return (div,)\n";
}

TEST(RuleFile, LetComputesAReplaceOnlyInput) {
  RuleLibrary lib(builtin_registry());
  lib.load_text(let_rule("r = 1 / c"), "t.rules");
  const RuleDef& r = lib.rules().at(0);
  ASSERT_EQ(r.lets.size(), 1u);
  EXPECT_EQ(r.lets[0].name, "r");
  EXPECT_EQ(r.lets[0].expr.text(), "1 / c");
  EXPECT_EQ(r.lets[0].expr.loc().line, 5);
  EXPECT_EQ(r.lets[0].expr.loc().column, 14);
  // The example computes it: the replace side divides by 0.25.
  std::optional<RuleExample> ex = instantiate_example(r, builtin_registry());
  ASSERT_TRUE(ex);
  bool found = false;
  for (const Node& n : ex->replace.nodes())
    if (n.kind == NodeKind::Call) found = n.args.at(1) == Arg(0.25);
  EXPECT_TRUE(found);
}

TEST(RuleFile, LetMistakesAreLocatedErrors) {
  auto message = [](const std::string& text) { return std::string(load_error(text).what()); };
  EXPECT_THAT(message(let_rule("r = 1 / c", "<=>")),
              testing::HasSubstr("must be written with `=>`"));
  EXPECT_THAT(message(let_rule("q = 1 / c")), testing::HasSubstr("`let: q` names no input"));
  EXPECT_THAT(message(let_rule("r = 1 / c", "=>", "r")),
              testing::HasSubstr("`let: r` is used by search"));
  EXPECT_THAT(message(let_rule("r = 1 / y")), testing::HasSubstr("y"));
  EXPECT_THAT(message(let_rule("r == 1 / c")),
              testing::HasSubstr("expected `let: name = expression`"));
  EXPECT_THAT(message(let_rule("r = c / 0")), testing::HasSubstr("division by zero"));
  Error located = load_error(let_rule("r = c / 0"));
  EXPECT_EQ(located.loc().line, 5);
}

// `conditions NAME:` blocks hold where lines that rules of the file pull in with `uses:`,
// at the place of the `uses:` line, keeping their own source locations.
std::string shared_block(std::string_view name = "same_shape") {
  return "conditions " + std::string(name) +
         ":\n"
         "    where: a.shape == b.shape\n"
         "    where: a.rank == 2\n"
         "\n";
}

TEST(RuleFile, SharedConditionsGoWhereUsesStands) {
  std::string rule = add_relu_rule("a.dtype == b.dtype");
  rule.insert(rule.find("    where:"), "    where: a.rank >= 1\n    uses: same_shape\n");
  std::vector<RuleDef> rules = parse_rules_file(shared_block() + rule, "t.rules");
  ASSERT_EQ(rules.size(), 1u);
  std::vector<std::string> texts;
  for (const CondExpr& c : rules[0].where) texts.push_back(c.text());
  EXPECT_EQ(texts, (std::vector<std::string>{"a.rank >= 1", "a.shape == b.shape", "a.rank == 2",
                                             "a.dtype == b.dtype"}));
  EXPECT_EQ(rules[0].where[1].loc().line, 2);  // in the block
  RuleLibrary lib(builtin_registry());
  EXPECT_NO_THROW(lib.load_text(shared_block() + rule, "t.rules"));
}

TEST(RuleFile, SharedConditionMistakesAreLocatedErrors) {
  auto message = [](const std::string& text) { return std::string(load_error(text).what()); };
  std::string uses_typo = add_relu_rule();
  uses_typo.insert(uses_typo.find("    where:"), "    uses: same_shap\n");
  EXPECT_THAT(message(shared_block() + uses_typo),
              testing::HasSubstr("no conditions named 'same_shap' in this file (did you mean "
                                 "'same_shape'?)"));
  EXPECT_EQ(load_error(shared_block() + uses_typo).loc().line, 8);  // the uses: line
  EXPECT_THAT(message(shared_block() + add_relu_rule()),
              testing::HasSubstr("conditions 'same_shape' are not used by any rule"));
  EXPECT_THAT(message("conditions broken:\n    description: no\n\n" + add_relu_rule()),
              testing::HasSubstr("conditions 'broken' hold only `where:` lines"));
  std::string twice = add_relu_rule();
  twice.insert(twice.find("    where:"), "    uses: same_shape\n");
  EXPECT_THAT(message(shared_block() + shared_block() + twice),
              testing::HasSubstr("conditions 'same_shape' are defined twice"));
  EXPECT_THAT(message("conditions bad name:\n    where: a.rank == 2\n"),
              testing::HasSubstr("invalid conditions name"));
}

// Fuzz finding (fuzz_rules): a repeated rule name whose second rule had
// `uses:` after more where lines than the first inserted past the first
// rule's list. The uses now go to their own rule; the repeat is the
// library's located error.
TEST(RuleFile, UsesGoToTheirOwnRuleWhenANameRepeats) {
  std::string first = add_relu_rule();
  std::string second = add_relu_rule("a.dtype == b.dtype");
  second.insert(second.find("    where:"),
                "    where: a.rank >= 1\n    where: b.rank >= 1\n    uses: same_shape\n");
  std::vector<RuleDef> rules = parse_rules_file(shared_block() + first + second, "t.rules");
  ASSERT_EQ(rules.size(), 2u);
  EXPECT_EQ(rules[1].where.size(), rules[0].where.size() + 4);
  EXPECT_THAT(std::string(load_error(shared_block() + first + second).what()),
              testing::HasSubstr("duplicate rule name"));
}

// `assume:` (rewrites/rule.hpp RuleDef::assumes): a - n is a + a only when n == -a.
// The rule is proven on inputs that hold the assumption.
std::string assume_rule(std::string_view assume, std::string_view labels = "test, fusion",
                        std::string_view extra_input = "") {
  return "rule test/sub-neg-is-add =>\n"
         "    labels: " +
         std::string(labels) +
         "\n"
         "    assume: " +
         std::string(assume) +
         "\n"
         "\n"
         "    def search(a: \"f32[4, 8]\", n: \"f32[4, 8]\"" +
         std::string(extra_input) +
         "):\n"
         "        sub = torch.ops.aten.sub.Tensor(a, n)\n"
         "        return (sub,)\n"
         "\n"
         "    def replace(a, n" +
         (extra_input.empty() ? std::string() : std::string(", b")) +
         "):\n"
         "        add = torch.ops.aten.add.Tensor(a, a)\n"
         "        return (add,)\n";
}

TEST(RuleFile, AssumeLinesAreParsedAndLocated) {
  std::vector<RuleDef> rules = parse_rules_file(assume_rule("n == neg(a)"), "t.rules");
  ASSERT_EQ(rules.size(), 1u);
  ASSERT_EQ(rules[0].assumes.size(), 1u);
  const InputAssumption& a = rules[0].assumes[0];
  EXPECT_EQ(a.derived, "n");
  EXPECT_EQ(a.op, "aten::neg");
  EXPECT_EQ(a.sources, std::vector<std::string>{"a"});
  EXPECT_EQ(a.loc.file, "t.rules");
  EXPECT_EQ(a.loc.line, 3);
  EXPECT_EQ(a.loc.column, 13);  // where the value starts
  // The parser only reads the rule; the library adds the label.
  EXPECT_EQ(rules[0].labels, (std::vector<std::string>{"test", "fusion"}));
}

TEST(RuleLibrary, AnAssumptionRuleIsLabelledProvenUnderItAndOffUntilAccepted) {
  RuleLibrary lib(builtin_registry());
  lib.load_text(assume_rule("n == neg(a)"), "t.rules");
  lib.load_text(add_relu_rule(), "t.rules");
  const RuleDef* r = lib.find("test/sub-neg-is-add");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->labels, (std::vector<std::string>{"test", "fusion", "assumption"}));
  EXPECT_EQ(r->load_check, LoadCheck::Proven);
  EXPECT_FALSE(lib.find("test/add-to-sub")->has_label("assumption"));
  // A rule that already names the label does not carry it twice.
  RuleLibrary labelled(builtin_registry());
  labelled.load_text(assume_rule("n == neg(a)", "test, assumption, fusion"), "t.rules");
  EXPECT_EQ(labelled.rules().at(0).labels,
            (std::vector<std::string>{"test", "assumption", "fusion"}));
  auto compiled = [&](const RuleConfig& cfg) {
    const std::vector<std::string> streams{""};
    CompiledRules c = lib.compile(cfg, streams, nullptr);
    return std::count(c.base_name.begin(), c.base_name.end(), "test/sub-neg-is-add");
  };
  RuleConfig cfg;
  EXPECT_EQ(compiled(cfg), 0);
  cfg.enable = {"fusion"};
  EXPECT_EQ(compiled(cfg), 0);
  cfg.enable = {"assumption"};
  EXPECT_EQ(compiled(cfg), 1);
  cfg = {};
  cfg.assume = {"test"};
  EXPECT_EQ(compiled(cfg), 1);
}

// Without the assumption the same rule is wrong, and the load check says so.
TEST(RuleLibrary, TheAssumptionIsWhatMakesTheRuleSound) {
  std::string text = assume_rule("n == neg(a)");
  text.erase(text.find("    assume:"), std::string("    assume: n == neg(a)\n").size());
  EXPECT_THAT(std::string(load_error(text).what()),
              testing::HasSubstr("rule 'test/sub-neg-is-add' is unsound"));
  // A wrong assumption does not make it sound either.
  EXPECT_THAT(std::string(load_error(assume_rule("n == abs(a)")).what()),
              testing::HasSubstr("is unsound"));
}

TEST(RuleLibrary, AssumeMistakesAreLocatedErrors) {
  Error not_input = load_error(assume_rule("q == neg(a)"));
  EXPECT_THAT(not_input.what(),
              testing::HasSubstr("rule 'test/sub-neg-is-add': `assume: q == neg(a)` names 'q', "
                                 "which is not an input"));
  EXPECT_EQ(not_input.loc().file, "t.rules");
  EXPECT_EQ(not_input.loc().line, 3);
  EXPECT_EQ(not_input.loc().column, 13);
  EXPECT_THAT(load_error(assume_rule("n == neg(x)")).what(),
              testing::HasSubstr("names 'x', which is not an input"));
  Error unused = load_error(assume_rule("n == neg(b)", "test, fusion", ", b: \"f32[4, 8]\""));
  EXPECT_THAT(unused.what(), testing::HasSubstr("`assume: n == neg(b)` names 'b', which search "
                                                "does not use, so no match binds it"));
  EXPECT_EQ(unused.loc().line, 3);
  Error unknown_op = load_error(assume_rule("n == frobnicate(a)"));
  EXPECT_THAT(unknown_op.what(), testing::HasSubstr("unknown op 'aten::frobnicate'"));
  EXPECT_EQ(unknown_op.loc().line, 3);
  // A malformed assumption is an error at its fault, column 13 + 2.
  Error syntax = load_error(assume_rule("n = neg(a)"));
  EXPECT_THAT(syntax.what(), testing::HasSubstr("expected `==` after the input name"));
  EXPECT_EQ(syntax.loc().line, 3);
  EXPECT_EQ(syntax.loc().column, 15);
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

// ---- the registry (rewrites/library/registry.txt) ---------------------------------

// The family of a rule: its name up to the '/' ("torchair").
std::string family_of(std::string_view rule_name) {
  return std::string(rule_name.substr(0, rule_name.find('/')));
}

// The built-in files load in the registry's order, which keeps the order the
// rules had when they were loaded by a file glob (layout, noop, then the former
// related.rules, then torchair): rule order decides ties, so it is part of the
// behaviour.
TEST(RuleRegistry, BuiltinFilesLoadInTheListedOrder) {
  std::vector<std::string> paths;
  for (const EmbeddedFile* f :
       rule_files_in_registry_order(eqfuse_default_rules(), kBuiltinRuleRegistry))
    paths.emplace_back(f->path);
  EXPECT_EQ(paths, (std::vector<std::string>{
                       "rewrites/library/layout.rules", "rewrites/library/noop.rules",
                       "rewrites/library/mindspore.rules", "rewrites/library/npu.rules",
                       "rewrites/library/collectives.rules", "rewrites/library/vllm.rules",
                       "rewrites/library/torchair.rules"}));
  // One file per family: every rule lives in the file named after its
  // family, carries the family as a label, and the families come in file order.
  std::vector<std::string> families;
  for (const RuleDef& r : testing_support::builtin_rules().rules()) {
    const std::string family = family_of(r.name);
    EXPECT_EQ(r.loc.file, "rewrites/library/" + family + ".rules") << r.name;
    EXPECT_TRUE(r.has_label(family)) << r.name;
    if (families.empty() || families.back() != family) families.push_back(family);
  }
  EXPECT_EQ(families, (std::vector<std::string>{"layout", "noop", "mindspore", "npu", "collectives",
                                                "vllm", "torchair"}));
  for (const EmbeddedFile& f : eqfuse_default_rules()) {
    if (f.path != kBuiltinRuleRegistry) continue;
    for (const RuleRegistryEntry& e : parse_rule_registry(f.contents, f.path))
      EXPECT_FALSE(e.description.empty()) << e.file;
  }
}

// A rule folder as the embedded one is: its registry plus .rules files.
std::vector<EmbeddedFile> rule_folder(std::string_view registry,
                                      std::vector<std::string_view> rule_files) {
  std::vector<EmbeddedFile> files{{"lib/registry.txt", registry}};
  for (std::string_view f : rule_files) files.push_back({f, "# no rules\n"});
  return files;
}

std::string registry_error(std::span<const EmbeddedFile> files) {
  try {
    rule_files_in_registry_order(files, "lib/registry.txt");
  } catch (const Error& e) {
    return e.render();
  }
  ADD_FAILURE() << "expected a registry error";
  return "";
}

TEST(RuleRegistry, OrderIsTheRegistrysNotTheFolders) {
  std::vector<EmbeddedFile> files =
      rule_folder("# comment\nb.rules  second family\n\na.rules  first family\n",
                  {"lib/a.rules", "lib/b.rules"});
  std::vector<std::string> paths;
  for (const EmbeddedFile* f : rule_files_in_registry_order(files, "lib/registry.txt"))
    paths.emplace_back(f->path);
  EXPECT_EQ(paths, (std::vector<std::string>{"lib/b.rules", "lib/a.rules"}));
  std::vector<RuleRegistryEntry> entries = parse_rule_registry(files[0].contents, "r.txt");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].description, "second family");
  EXPECT_EQ(entries[1].line, 4);
}

TEST(RuleRegistry, AnUnlistedRuleFileIsAnError) {
  std::vector<EmbeddedFile> files =
      rule_folder("a.rules  first family\n", {"lib/a.rules", "lib/extra.rules"});
  EXPECT_THAT(registry_error(files),
              ::testing::HasSubstr("lib/extra.rules is not listed in lib/registry.txt"));
}

TEST(RuleRegistry, AListedFileThatDoesNotExistIsAnError) {
  std::vector<EmbeddedFile> files =
      rule_folder("a.rules  first family\ngone.rules  a removed family\n", {"lib/a.rules"});
  EXPECT_THAT(registry_error(files),
              ::testing::HasSubstr("lib/registry.txt:2:1: error: the registry lists "
                                   "'gone.rules', but lib/gone.rules does not exist"));
}

TEST(RuleRegistry, MalformedLinesAndAMissingRegistryAreErrors) {
  for (auto [text, message] : std::vector<std::pair<std::string_view, std::string_view>>{
           {"a.rules  x\na.rules  again\n", "r.txt:2:1: error: 'a.rules' is listed twice"},
           {"a.rules\n", "r.txt:1:8: error: 'a.rules' has no description"},
           {"sub/a.rules  x\n", "r.txt:1:1: error: 'sub/a.rules' is not a rule file name"},
           {"a.txt  x\n", "r.txt:1:1: error: 'a.txt' is not a rule file name"}}) {
    try {
      parse_rule_registry(text, "r.txt");
      ADD_FAILURE() << "no error for: " << text;
    } catch (const Error& e) {
      EXPECT_THAT(e.render(), ::testing::HasSubstr(message)) << text;
    }
  }
  std::vector<EmbeddedFile> no_registry{{"lib/a.rules", ""}};
  EXPECT_THAT(registry_error(no_registry),
              ::testing::HasSubstr("the rule registry lib/registry.txt is missing"));
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

// `inexact` rules (not bit-exact with the unfused chain) are off unless
// enabled by name or by the label `inexact`; their other labels do not
// enable them, and disabling still wins.
TEST(RuleToggle, InexactRulesAreOffUnlessAskedForByNameOrLabel) {
  std::vector<std::string> inexact{"vllm", "fusion", "npu", "inexact"};
  RuleConfig cfg;
  RuleToggle off = rule_toggle("x/mul-as-div", inexact, cfg);
  EXPECT_FALSE(off.enabled);
  EXPECT_EQ(off.reason,
            "inexact: not bit-exact with the unfused chain (enable with --enable-rule inexact or "
            "the rule's name)");
  cfg.enable = {"vllm", "fusion", "opt-in"};
  EXPECT_FALSE(rule_toggle("x/mul-as-div", inexact, cfg).enabled);
  cfg.enable = {"x/mul-as-div"};
  EXPECT_EQ(rule_toggle("x/mul-as-div", inexact, cfg).reason,
            "enabled by --enable-rule x/mul-as-div");
  cfg.enable = {"inexact"};
  EXPECT_EQ(rule_toggle("x/mul-as-div", inexact, cfg).reason, "enabled by --enable-rule inexact");
  EXPECT_TRUE(rule_toggle("x/mul-as-div", inexact, cfg).enabled);
  cfg.disable = {"vllm"};  // disable wins
  EXPECT_FALSE(rule_toggle("x/mul-as-div", inexact, cfg).enabled);
  // An opt-in rule that is also inexact needs `inexact` or its name.
  std::vector<std::string> both{"experimental", "opt-in", "inexact"};
  cfg = {};
  cfg.enable = {"experimental"};
  EXPECT_FALSE(rule_toggle("x/both", both, cfg).enabled);
  cfg.enable = {"inexact"};
  EXPECT_TRUE(rule_toggle("x/both", both, cfg).enabled);
  // Other rules do not care.
  EXPECT_EQ(rule_toggle("torchair/bmm-transpose", {"torchair", "fusion"}, cfg).reason, "default");
}

// In the built-in library, the inexact rules are the division by a rounded reciprocal,
// MindSpore's add-cast-rms-norm-cast (gamma rounded to the half type), its
// matmul-elem-biasadd (addmm rounds once where mm + bias rounds twice), its
// qbmm_allreduce_add (a bias shared out over the ranks) and vllm-ascend's
// two rewrites that trust scale * scale_reciprocal == 1 (docs/rules.md
// "The `inexact` label" says why the fusions with a more precise fused kernel are not):
// off by default, on by name and by label.
TEST(RuleToggle, TheBuiltinInexactRuleIsOffByDefault) {
  const RuleLibrary& lib = testing_support::builtin_rules();
  std::vector<std::string> inexact;
  for (const RuleDef& r : lib.rules())
    if (r.has_label("inexact")) inexact.push_back(r.name);
  EXPECT_EQ(inexact,
            (std::vector<std::string>{
                "layout/div-is-mul-by-reciprocal", "mindspore/add-cast-rms-norm-cast",
                "mindspore/matmul-elem-biasadd", "collectives/quant-matmul-all-reduce-bias",
                "vllm/quantize-mul-as-div", "vllm/add-rms-norm-bias-quantize"}));
  const RuleDef* r = lib.find("vllm/quantize-mul-as-div");
  ASSERT_NE(r, nullptr);
  auto compiled = [&](const RuleConfig& cfg) {
    const std::vector<std::string> streams{""};
    CompiledRules c = lib.compile(cfg, streams, nullptr);
    return std::count(c.base_name.begin(), c.base_name.end(), r->name);
  };
  RuleConfig cfg;
  EXPECT_FALSE(rule_toggle(r->name, r->labels, cfg).enabled);
  EXPECT_EQ(compiled(cfg), 0);
  cfg.enable = {"vllm/quantize-mul-as-div"};
  EXPECT_TRUE(rule_toggle(r->name, r->labels, cfg).enabled);
  EXPECT_EQ(compiled(cfg), 2);  // both directions
  cfg.enable = {"inexact"};
  EXPECT_EQ(compiled(cfg), 2);
  cfg.enable = {"vllm"};
  EXPECT_EQ(compiled(cfg), 0);
}

// `assumption` rules (equal only under an `assume:` relation of their inputs) are off
// unless the assumption is accepted (RuleConfig::assume: a rule name or any label) or the
// rule is enabled by name or by the label `assumption`; enabling another of its labels,
// `fusion` included, does not turn it on.
// A rule both `assumption` and `inexact` needs both accepted: the preset's
// assumption alone does not bring in a rewrite that also changes results.
TEST(RuleToggle, AnAcceptedAssumptionStillNeedsTheRulesOtherSwitches) {
  const std::vector<std::string> labels{"vllm", "fusion", "assumption", "inexact",
                                        "fuse_norm_quant"};
  RuleConfig cfg;
  cfg.assume = {"fuse_norm_quant"};
  RuleToggle t = rule_toggle("x/both", labels, cfg);
  EXPECT_FALSE(t.enabled);
  EXPECT_THAT(t.reason, testing::HasSubstr("inexact"));
  cfg.enable = {"inexact"};
  EXPECT_TRUE(rule_toggle("x/both", labels, cfg).enabled);
  const std::vector<std::string> opt_in{"fusion", "assumption", "opt-in", "ascend950"};
  cfg = {};
  cfg.assume = {"x/opt"};
  EXPECT_FALSE(rule_toggle("x/opt", opt_in, cfg).enabled);
  cfg.enable = {"ascend950"};
  EXPECT_TRUE(rule_toggle("x/opt", opt_in, cfg).enabled);
}

TEST(RuleToggle, AssumptionRulesAreOffUntilTheAssumptionIsAccepted) {
  const std::vector<std::string> labels{"vllm", "fusion", "assumption", "AddRMSNormQuantFusionPass",
                                        "fuse_norm_quant"};
  RuleConfig cfg;
  RuleToggle off = rule_toggle("x/scale", labels, cfg);
  EXPECT_FALSE(off.enabled);
  EXPECT_EQ(off.reason,
            "assumption: equal only under a relation of its inputs the graph cannot show (accept "
            "it with --preset, vllm-ascend's fuse_norm_quant: true, or --enable-rule assumption "
            "or the rule's name)");
  cfg.enable = {"vllm", "fusion", "AddRMSNormQuantFusionPass", "fuse_norm_quant", "opt-in"};
  EXPECT_FALSE(rule_toggle("x/scale", labels, cfg).enabled);
  cfg.enable = {"assumption"};
  EXPECT_EQ(rule_toggle("x/scale", labels, cfg).reason, "enabled by --enable-rule assumption");
  EXPECT_TRUE(rule_toggle("x/scale", labels, cfg).enabled);
  cfg.enable = {"x/scale"};
  EXPECT_EQ(rule_toggle("x/scale", labels, cfg).reason, "enabled by --enable-rule x/scale");
  cfg = {};
  cfg.assume = {"fuse_norm_quant"};
  RuleToggle accepted = rule_toggle("x/scale", labels, cfg);
  EXPECT_TRUE(accepted.enabled);
  EXPECT_EQ(accepted.reason, "assumption accepted (fuse_norm_quant)");
  cfg.assume = {"x/scale"};
  EXPECT_EQ(rule_toggle("x/scale", labels, cfg).reason, "assumption accepted (x/scale)");
  cfg.assume = {"QKNormRopeFusionPass"};  // another pass's assumptions
  EXPECT_FALSE(rule_toggle("x/scale", labels, cfg).enabled);
  cfg.assume = {"AddRMSNormQuantFusionPass"};
  cfg.preset = "vllm-ascend";
  EXPECT_EQ(rule_toggle("x/scale", labels, cfg).reason,
            "assumption accepted by --preset vllm-ascend");
  // The switches that turn fusions off still win.
  cfg.disable = {"vllm"};
  EXPECT_EQ(rule_toggle("x/scale", labels, cfg).reason, "disabled by --disable-rule vllm");
  cfg.disable.clear();
  cfg.pattern_fusion_pass = false;
  EXPECT_FALSE(rule_toggle("x/scale", labels, cfg).enabled);
  // Accepting assumptions turns on no other off-by-default rule.
  cfg = {};
  cfg.assume = {"experimental", "fusion"};
  EXPECT_EQ(rule_toggle("x/exp", {"experimental", "opt-in", "fusion"}, cfg).reason,
            "opt-in rule (enable with --enable-rule)");
  EXPECT_EQ(rule_toggle("torchair/bmm-transpose", {"torchair", "fusion"}, cfg).reason, "default");
}

// `only` (a peer's pass list, config "only_rules"): fusion and no-op rules run only
// when it or `enable` selects them; layout rules always run; it turns on no
// off-by-default rule and does not override a disable.
TEST(RuleToggle, OnlyRestrictsTheFusionAndNoopRulesToTheSelectedOnes) {
  const std::vector<std::string> pattern{"torchair", "fusion", "pattern_fusion_pass"};
  const std::vector<std::string> other{"mindspore", "fusion", "add_rms_norm_fusion"};
  const std::vector<std::string> noop{"noop", "torchair"};
  const std::vector<std::string> layout{"layout"};
  RuleConfig cfg;
  cfg.only = {"pattern_fusion_pass", "noop/clone"};
  EXPECT_EQ(rule_toggle("torchair/a", pattern, cfg).reason, "default");
  RuleToggle off = rule_toggle("mindspore/b", other, cfg);
  EXPECT_FALSE(off.enabled);
  EXPECT_EQ(off.reason, "not selected by only_rules");
  EXPECT_TRUE(rule_toggle("noop/clone", noop, cfg).enabled);  // by name
  EXPECT_FALSE(rule_toggle("noop/view", noop, cfg).enabled);
  EXPECT_TRUE(rule_toggle("layout/noop-view", layout, cfg).enabled);
  cfg.preset = "npugraph_ex";
  EXPECT_EQ(rule_toggle("mindspore/b", other, cfg).reason, "not a pass of --preset npugraph_ex");
  // `enable` adds to the list, by name or label.
  cfg.enable = {"mindspore/b"};
  EXPECT_TRUE(rule_toggle("mindspore/b", other, cfg).enabled);
  cfg.enable = {"add_rms_norm_fusion"};
  EXPECT_TRUE(rule_toggle("mindspore/b", other, cfg).enabled);
  cfg.enable.clear();
  cfg.disable = {"torchair/a"};
  EXPECT_EQ(rule_toggle("torchair/a", pattern, cfg).reason,
            "disabled by --disable-rule torchair/a");
  cfg.disable.clear();
  // Selected is not enabled: opt-in, inexact and assumption rules keep their own gate.
  EXPECT_EQ(
      rule_toggle("x/exp", {"experimental", "opt-in", "fusion", "pattern_fusion_pass"}, cfg).reason,
      "opt-in rule (enable with --enable-rule)");
  EXPECT_FALSE(
      rule_toggle("x/div", {"vllm", "fusion", "inexact", "pattern_fusion_pass"}, cfg).enabled);
  EXPECT_FALSE(
      rule_toggle("x/scale", {"vllm", "fusion", "assumption", "pattern_fusion_pass"}, cfg).enabled);
  // An accepted assumption does not bring in a rule the list leaves out.
  cfg.assume = {"fuse_norm_quant"};
  EXPECT_EQ(rule_toggle("x/scale", {"vllm", "fusion", "assumption", "fuse_norm_quant"}, cfg).reason,
            "not a pass of --preset npugraph_ex");
  cfg.only.push_back("fuse_norm_quant");
  EXPECT_TRUE(
      rule_toggle("x/scale", {"vllm", "fusion", "assumption", "fuse_norm_quant"}, cfg).enabled);
}

// The built-in rule that divides by the scale as vllm-ascend does states its assumption
// and compiles only once it is accepted.
TEST(RuleToggle, TheBuiltinAssumptionRuleCompilesOnlyWhenItsAssumptionIsAccepted) {
  const RuleLibrary& lib = testing_support::builtin_rules();
  const RuleDef* r = lib.find("vllm/add-rms-norm-bias-quantize-scale");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->has_label("assumption"));
  ASSERT_EQ(r->assumes.size(), 1u);
  EXPECT_EQ(r->assumes[0].text(), "scale_reciprocal == reciprocal(scale)");
  for (const RuleDef& rule : lib.rules())
    EXPECT_EQ(rule.has_label("assumption"), !rule.assumes.empty()) << rule.name;
  auto compiled = [&](const RuleConfig& cfg) {
    const std::vector<std::string> streams{""};
    CompiledRules c = lib.compile(cfg, streams, nullptr);
    return std::count(c.base_name.begin(), c.base_name.end(), r->name);
  };
  RuleConfig cfg;
  EXPECT_EQ(compiled(cfg), 0);
  cfg.enable = {"fuse_norm_quant", "vllm"};
  EXPECT_EQ(compiled(cfg), 0);
  cfg = {};
  cfg.assume = {"fuse_norm_quant"};
  EXPECT_EQ(compiled(cfg), 1);  // one direction
  cfg = {};
  cfg.assume = {"AddRMSNormQuantFusionPass"};
  EXPECT_EQ(compiled(cfg), 1);
  cfg.mode = ExecMode::MaxAutotune;  // no `no-ge` label: GE keeps it
  EXPECT_EQ(compiled(cfg), 1);
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
concept BuiltinAcceptsRegistry = requires(R&& r) { RuleLibrary::builtin(std::forward<R>(r)); };

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
