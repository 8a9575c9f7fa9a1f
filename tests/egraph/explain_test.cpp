// Explanations: chains of rewrite steps between equal terms, re-checked
// step by step with verify_explanation (an independent ground matcher).
#include "egraph/explain.hpp"

#include <gtest/gtest.h>

#include "bridge/from_graph.hpp"
#include "egraph/runner.hpp"
#include "egraph/workloads.hpp"

namespace eqfuse {
namespace {

std::string first_term(const Explanation& e) {
  return e.terms.to_string(e.steps.front().term);
}
std::string last_term(const Explanation& e) {
  return e.terms.to_string(e.steps.back().term);
}

// Left-nested sum of x{n-1} .. x0: the reverse of ac_term(n).
std::string reversed_ac_term(int n) {
  std::string s = fmt::format("x{}", n - 1);
  for (int i = n - 2; i >= 0; --i) s = fmt::format("(+ {} x{})", s, i);
  return s;
}

RunReport saturate(EGraph& g, const std::vector<Rewrite>& rules, size_t iterations) {
  RunnerConfig cfg;
  cfg.limits.iterations = iterations;
  cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
  return Runner(g, cfg).run(rules);
}

TEST(Explain, GivenUnionLiftedThroughCongruence) {
  EGraph g;
  Id fa = g.add_expr("(f (g a) c)");
  Id fb = g.add_expr("(f (g b) c)");
  g.merge(g.add_expr("a"), g.add_expr("b"));
  g.rebuild();
  ASSERT_EQ(g.find(fa), g.find(fb));
  Explanation e = explain(g, fa, fb);
  ASSERT_EQ(e.num_rewrites(), 1u);
  EXPECT_EQ(first_term(e), "(f (g a) c)");
  EXPECT_EQ(last_term(e), "(f (g b) c)");
  EXPECT_EQ(e.steps[1].rule, "given");
  EXPECT_EQ(e.steps[1].path, (std::vector<uint32_t>{0, 0}));
  EXPECT_EQ(verify_explanation(e, {}), std::nullopt);
}

TEST(Explain, SingleRuleStepNamesRuleAndSubstitution) {
  EGraph g;
  Id start = g.add_expr("(* (+ x y) 2)");
  auto rules = parse_rules("comm-add", "(+ ?a ?b) => (+ ?b ?a)");
  saturate(g, rules, 5);
  Explainer ex(g, rules);
  Explanation e = ex.explain_terms("(* (+ x y) 2)", "(* (+ y x) 2)");
  ASSERT_EQ(e.num_rewrites(), 1u);
  const ExplanationStep& s = e.steps[1];
  EXPECT_EQ(s.rule, "comm-add");
  EXPECT_EQ(s.path, std::vector<uint32_t>{0});
  ASSERT_EQ(s.subst.size(), 2u);
  EXPECT_EQ(s.subst[0].first, "a");
  EXPECT_EQ(e.terms.to_string(s.subst[0].second), "x");
  EXPECT_EQ(e.terms.to_string(s.subst[1].second), "y");
  EXPECT_EQ(verify_explanation(e, rules), std::nullopt);
  // The node id returned for a fresh term denotes exactly that term.
  EXPECT_EQ(ex.node_term(start), "(* (+ x y) 2)");
  // Backwards is the same chain reversed, with flipped directions.
  Explanation back = ex.explain_terms("(* (+ y x) 2)", "(* (+ x y) 2)");
  ASSERT_EQ(back.num_rewrites(), 1u);
  EXPECT_EQ(verify_explanation(back, rules), std::nullopt);
}

TEST(Explain, AcChainConnectsRightNestedToReversedLeftNested) {
  for (int n : {3, 4, 5}) {
    EGraph g;
    Id start = g.add_expr(ac_term(n));
    auto rules = ac_rules();
    saturate(g, rules, 100);
    Explainer ex(g, rules);
    Explanation e = ex.explain_terms(ac_term(n), reversed_ac_term(n));
    EXPECT_EQ(first_term(e), ac_term(n));
    EXPECT_EQ(last_term(e), reversed_ac_term(n));
    EXPECT_GT(e.num_rewrites(), 0u);
    EXPECT_EQ(verify_explanation(e, rules), std::nullopt) << e.to_string();
    EXPECT_EQ(ex.node_term(start), ac_term(n));
  }
}

TEST(Explain, EveryNodeOfTheMathRootClassIsExplained) {
  EGraph g;
  Id start = g.add_expr(kMathStartTerm);
  auto rules = math_rules();
  saturate(g, rules, 8);
  Explainer ex(g, rules);
  size_t explained = 0;
  for (Id n = 0; n < g.num_ids(); ++n) {
    if (g.find(n) != g.find(start)) continue;
    Explanation e = ex.explain(start, n);
    ASSERT_EQ(verify_explanation(e, rules), std::nullopt) << e.to_string();
    EXPECT_EQ(first_term(e), kMathStartTerm);
    EXPECT_EQ(last_term(e), ex.node_term(n));
    ++explained;
  }
  EXPECT_GT(explained, 10u);
}

TEST(Explain, IsDeterministic) {
  auto run = [] {
    EGraph g;
    Id start = g.add_expr(kMathStartTerm);
    auto rules = math_rules();
    saturate(g, rules, 6);
    Id other = g.class_nodes(g.find(start)).back();
    return explain(g, start, other, rules).to_string();
  };
  EXPECT_EQ(run(), run());
}

TEST(Explain, MultiOutputRuleStepsOnTargetVariables) {
  EGraph g;
  Id f = g.add_expr("(f a)");
  Id gg = g.add_expr("(g a)");
  std::vector<Rewrite> rules;
  rules.push_back(
      Rewrite::parse("fuse", "?m = (f ?x), ?n = (g ?x)", "?m = (fst (fg ?x)), ?n = (snd (fg ?x))"));
  saturate(g, rules, 3);
  Explainer ex(g, rules);
  Explanation e1 = ex.explain_terms("(f a)", "(fst (fg a))");
  Explanation e2 = ex.explain_terms("(snd (fg a))", "(g a)");
  EXPECT_EQ(e1.num_rewrites(), 1u);
  EXPECT_EQ(e2.num_rewrites(), 1u);
  EXPECT_EQ(e1.steps[1].rule, "fuse");
  EXPECT_TRUE(e2.steps[1].backward);
  EXPECT_EQ(verify_explanation(e1, rules), std::nullopt);
  EXPECT_EQ(verify_explanation(e2, rules), std::nullopt);
  (void)f;
  (void)gg;
}

// A step of a rule with a computed variable names it in the substitution and verifies.
TEST(Explain, ComputedVariableAppearsInTheStep) {
  EGraph g;
  g.add_expr("(f (/ a 8.0))");
  ComputedVar r{
      "r", {"c"}, [](EGraph& eg, std::span<const Id> c) -> std::optional<Id> {
        return eg.add_constant(Constant::floating(1.0 / eg.constant_of(c[0])->as_float()));
      }};
  std::vector<Rewrite> rules;
  rules.emplace_back("div-as-mul", MultiPattern::parse("(/ ?x ?c)"), std::vector<ComputedVar>{r},
                     std::vector<Equality>{{"", Pattern::parse("(* ?x ?r)"), std::nullopt}});
  saturate(g, rules, 3);
  Explainer ex(g, rules);
  Explanation e = ex.explain_terms("(f (/ a 8.0))", "(f (* a 0.125))");
  ASSERT_EQ(e.num_rewrites(), 1u);
  const ExplanationStep& s = e.steps[1];
  EXPECT_EQ(s.rule, "div-as-mul");
  ASSERT_EQ(s.subst.size(), 3u);
  EXPECT_EQ(s.subst[2].first, "r");
  EXPECT_EQ(e.terms.to_string(s.subst[2].second), "0.125");
  EXPECT_EQ(verify_explanation(e, rules), std::nullopt);
}

// The live node with operator `op` whose last child is in the class of `last`.
Id node_with(const EGraph& g, std::string_view op, Id last) {
  for (Id n = 0; n < g.num_ids(); ++n) {
    if (!g.node_alive(n) || g.node_op(n).str() != op) continue;
    NodeView v = g.node(n);
    if (!v.children.empty() && g.find(v.children.back()) == g.find(last)) return n;
  }
  return kNoId;
}

std::string creator(const EGraph& g, Id n) {
  std::optional<uint32_t> rule = creating_rule(g, n);
  return rule ? g.rule_name(*rule) : "none";
}

// Like torchair/bmm-transpose and its perm_x1 variant: two rules make the
// same operator; each node is credited to the rule that added it.
TEST(CreatingRule, NamesTheRuleThatAddedTheNodeNotAnotherMakingItsOp) {
  EGraph g;
  g.add_expr("(t (m (t a) b))");
  Id p0 = g.add_expr("p0"), p1 = g.add_expr("p1");
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse("fuse", "(t (m ?x ?y))", "(tm ?x ?y p0)"));
  rules.push_back(Rewrite::parse("absorb", "(tm (t ?x) ?y p0)", "(tm ?x ?y p1)"));
  saturate(g, rules, 5);
  Id fused = node_with(g, "tm", p0), absorbed = node_with(g, "tm", p1);
  ASSERT_NE(fused, kNoId);
  ASSERT_NE(absorbed, kNoId);
  EXPECT_EQ(g.find(fused), g.find(absorbed));
  EXPECT_EQ(creator(g, fused), "fuse");
  EXPECT_EQ(creator(g, absorbed), "absorb");
}

TEST(CreatingRule, FindsANodeAddedInsideProjections) {
  EGraph g;
  g.add_expr("(f a)");
  g.add_expr("(g a)");
  std::vector<Rewrite> rules;
  rules.push_back(
      Rewrite::parse("fuse", "?m = (f ?x), ?n = (g ?x)", "?m = (fst (fg ?x)), ?n = (snd (fg ?x))"));
  saturate(g, rules, 3);
  Id fg = node_with(g, "fg", g.add_expr("a"));
  ASSERT_NE(fg, kNoId);
  EXPECT_EQ(creator(g, fg), "fuse");
}

TEST(CreatingRule, NoneWhenTheFirstUnionIsNotARules) {
  EGraph g;
  Id h = g.add_expr("(h c)");
  g.merge(h, g.add_expr("(k c)"));
  Id lone = g.add_expr("(q c)");
  g.rebuild();
  EXPECT_EQ(creating_rule(g, h), std::nullopt);     // a given union
  EXPECT_EQ(creating_rule(g, lone), std::nullopt);  // never unioned
}

// The one-pass index answers what the per-node scan answers, for every node
// of a saturated e-graph (loaded, rule-made, congruence- and given-merged).
TEST(CreatingRule, IndexOfEveryNodeAgreesWithThePerNodeScan) {
  EGraph g;
  g.add_expr("(* (+ x 0) (* 1 (+ y (* x 1))))");
  Id h = g.add_expr("(h c)");
  g.merge(h, g.add_expr("(k c)"));
  auto rules = math_rules();
  saturate(g, rules, 4);
  std::vector<uint32_t> index = creating_rules(g);
  ASSERT_EQ(index.size(), g.num_ids());
  size_t made_by_rules = 0;
  for (Id n = 0; n < g.num_ids(); ++n) {
    std::optional<uint32_t> scan = creating_rule(g, n);
    EXPECT_EQ(index[n], scan ? *scan : kNoCreatingRule) << "node " << n;
    made_by_rules += scan.has_value();
  }
  EXPECT_GT(made_by_rules, 5u);
}

TEST(Explain, WithoutRulesStepsAreCoarseButPositioned) {
  EGraph g;
  Id start = g.add_expr("(* (+ x 0) 1)");
  auto rules = math_rules();
  saturate(g, rules, 4);
  Id x = g.add_expr("x");
  ASSERT_EQ(g.find(start), g.find(x));
  Explanation e = explain(g, start, x);  // no rules given
  EXPECT_GT(e.num_rewrites(), 0u);
  for (size_t k = 1; k < e.steps.size(); ++k) EXPECT_TRUE(e.steps[k].coarse);
  EXPECT_EQ(verify_explanation(e, {}), std::nullopt);
  Explanation precise = explain(g, start, x, rules);
  for (size_t k = 1; k < precise.steps.size(); ++k) EXPECT_FALSE(precise.steps[k].coarse);
  EXPECT_EQ(verify_explanation(precise, rules), std::nullopt) << precise.to_string();
}

TEST(Explain, VerifierRejectsForgedSteps) {
  EGraph g;
  g.add_expr("(+ x y)");
  auto rules = parse_rules("comm-add", "(+ ?a ?b) => (+ ?b ?a)");
  saturate(g, rules, 3);
  Explanation e = Explainer(g, rules).explain_terms("(+ x y)", "(+ y x)");
  ASSERT_EQ(e.num_rewrites(), 1u);
  Explanation forged = e;
  forged.steps[1].term = forged.terms.intern(Symbol::intern("z"), 0, {});
  EXPECT_NE(verify_explanation(forged, rules), std::nullopt);
  Explanation wrong_rule = e;
  wrong_rule.steps[1].rule = "no-such-rule";
  EXPECT_NE(verify_explanation(wrong_rule, rules), std::nullopt);
}

TEST(Explain, RejectsUnequalOrAbsentTerms) {
  EGraph g;
  Id a = g.add_expr("(+ a b)");
  Id b = g.add_expr("(* a b)");
  g.rebuild();
  EXPECT_THROW(explain(g, a, b), Error);
  Explainer ex(g);
  EXPECT_THROW(ex.explain_terms("(+ a b)", "(- a b)"), Error);
  EXPECT_THROW(ex.explain_terms("(+ a ?b)", "(+ a b)"), Error);
}

TEST(Explain, PrintsDepthLimitedTerms) {
  EGraph g;
  g.add_expr("(+ x0 (+ x1 (+ x2 x3)))");
  auto rules = ac_rules();
  saturate(g, rules, 100);
  Explanation e = Explainer(g, rules).explain_terms(ac_term(4), reversed_ac_term(4));
  std::string text = e.to_string(2);
  EXPECT_NE(text.find("…"), std::string::npos);
  EXPECT_NE(text.find("    ; "), std::string::npos);
}

// An explanation copied to a depth prints, at that depth or less, exactly as
// the whole one does, and holds fewer terms: what keeps explaining every site
// of a large graph linear (pipeline/explain/report asks for its print depth).
TEST(Explain, DepthLimitedCopyPrintsAsTheWholeOneAtThatDepth) {
  EGraph g;
  Id start = g.add_expr(kMathStartTerm);
  auto rules = math_rules();
  saturate(g, rules, 8);
  Explainer ex(g, rules);
  size_t compared = 0;
  for (Id n = 0; n < g.num_ids(); ++n) {
    if (g.find(n) != g.find(start)) continue;
    Explanation whole = ex.explain(start, n);
    for (int depth : {0, 1, 2, 4}) {
      Explanation cut = ex.explain(start, n, depth);
      ASSERT_EQ(cut.steps.size(), whole.steps.size());
      for (size_t k = 0; k < whole.steps.size(); ++k) {
        EXPECT_EQ(cut.terms.to_string(cut.steps[k].term, depth),
                  whole.terms.to_string(whole.steps[k].term, depth));
        EXPECT_EQ(cut.terms.to_string(cut.steps[k].term),
                  whole.terms.to_string(whole.steps[k].term, depth));
        EXPECT_EQ(cut.steps[k].rule, whole.steps[k].rule);
      }
      ++compared;
    }
  }
  EXPECT_GT(compared, 40u);
  // A deep term: two levels kept, the rest one elided term.
  EGraph chain;
  Id a = chain.add_expr("(f (f (f (f (f x)))))");
  Explanation e = Explainer(chain).explain(a, a, 2);
  EXPECT_EQ(e.terms.to_string(e.steps.front().term), "(f (f …))");
  EXPECT_EQ(e.terms.size(), 3u);
}

// Heads print `op@payload` by default; a namer (here the graph loader's)
// turns payloads into names: inputs, opaque ops at their node, stream labels.
TEST(TermBankNames, HeadNamerNamesLoadedGraphPayloads) {
  TermBank bank;
  auto sym = [](std::string_view s) { return Symbol::intern(s); };
  uint32_t x = bank.intern(sym(graph_ops::kPlaceholder), sym("arg0_1").id(), {});
  uint32_t opaque =
      bank.intern(sym("opaque:npu::attention"), sym("attention_3").id(), std::vector<uint32_t>{x});
  uint32_t on_stream =
      bank.intern(sym("aten::relu"), sym("stream2").id(), std::vector<uint32_t>{opaque});
  uint32_t plain = bank.intern(sym("aten::neg"), 0, std::vector<uint32_t>{on_stream});
  EXPECT_EQ(bank.to_string(plain, -1, loaded_head_name),
            "(aten::neg (aten::relu@stream2 (npu::attention@attention_3 arg0_1)))");
  EXPECT_EQ(bank.to_string(x), fmt::format("placeholder@{}", sym("arg0_1").id()));
}

}  // namespace
}  // namespace eqfuse
