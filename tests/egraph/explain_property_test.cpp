// ctest-label: property
// Property tests for explanations: on random arithmetic terms saturated
// with the math rules, and on the ac workload, every chain connects its
// endpoints, every step is a valid instance of its rule, and chain sizes
// stay bounded.
#include <chrono>
#include <random>

#include <gtest/gtest.h>

#include "egraph/explain.hpp"
#include "egraph/runner.hpp"
#include "egraph/workloads.hpp"

namespace eqfuse {
namespace {

std::string random_term(std::mt19937& rng, int depth) {
  static const char* leaves[] = {"a", "b", "c", "0", "1", "2"};
  static const char* ops[] = {"+", "*", "-", "pow"};
  if (depth == 0 || rng() % 4 == 0) return leaves[rng() % 6];
  const char* op = ops[rng() % 4];
  return fmt::format("({} {} {})", op, random_term(rng, depth - 1), random_term(rng, depth - 1));
}

std::string reversed_ac_term(int n) {
  std::string s = fmt::format("x{}", n - 1);
  for (int i = n - 2; i >= 0; --i) s = fmt::format("(+ {} x{})", s, i);
  return s;
}

void saturate(EGraph& g, const std::vector<Rewrite>& rules, size_t iterations, size_t nodes) {
  RunnerConfig cfg;
  cfg.limits.iterations = iterations;
  cfg.limits.nodes = nodes;
  cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
  Runner(g, cfg).run(rules);
}

TEST(ExplainProperty, RandomMathTermsGiveValidChains) {
  auto rules = math_rules();
  std::mt19937 rng(12345);
  size_t chains = 0, steps = 0, longest = 0;
  for (int trial = 0; trial < 25; ++trial) {
    EGraph g;
    std::vector<Id> starts;
    for (int k = 0; k < 3; ++k) starts.push_back(g.add_expr(random_term(rng, 4)));
    saturate(g, rules, 5, 3000);
    g.check_invariants();
    Explainer ex(g, rules);
    // Pairs of node ids in the class of each start term, sampled.
    for (Id s : starts) {
      std::vector<Id> same;
      for (Id n = 0; n < g.num_ids(); ++n)
        if (g.find(n) == g.find(s)) same.push_back(n);
      for (int k = 0; k < 6; ++k) {
        Id a = same[rng() % same.size()];
        Id b = same[rng() % same.size()];
        Explanation e = ex.explain(a, b);
        ASSERT_EQ(verify_explanation(e, rules), std::nullopt) << e.to_string();
        ASSERT_EQ(e.terms.to_string(e.steps.front().term), ex.node_term(a));
        ASSERT_EQ(e.terms.to_string(e.steps.back().term), ex.node_term(b));
        for (size_t i = 1; i < e.steps.size(); ++i) ASSERT_FALSE(e.steps[i].coarse);
        ++chains;
        steps += e.num_rewrites();
        longest = std::max(longest, e.num_rewrites());
      }
    }
  }
  EXPECT_EQ(chains, 25u * 3 * 6);
  RecordProperty("steps", static_cast<int>(steps));
  std::printf("random math: %zu chains, %zu steps, longest %zu\n", chains, steps, longest);
}

TEST(ExplainProperty, AcChainsAreValidAndBounded) {
  for (int n : {6, 7, 8}) {
    EGraph g;
    g.add_expr(ac_term(n));
    auto rules = ac_rules();
    saturate(g, rules, 1000, 1'000'000);
    auto t0 = std::chrono::steady_clock::now();
    Explainer ex(g, rules);
    Explanation e = ex.explain_terms(ac_term(n), reversed_ac_term(n));
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_EQ(verify_explanation(e, rules), std::nullopt);
    EXPECT_EQ(e.terms.to_string(e.steps.back().term), reversed_ac_term(n));
    // Reversing the sum needs n-1 commutations (one per level); chains must
    // stay polynomial (naive congruence expansion grows exponentially).
    EXPECT_EQ(e.num_rewrites(), static_cast<size_t>(n - 1));
    EXPECT_LE(e.num_rewrites(), static_cast<size_t>(4 * n * n));
    // Every pair of nodes in the root class: bounded chains.
    Id root = g.find(g.add_expr(ac_term(n)));
    size_t longest = 0, pairs = 0;
    std::vector<Id> same;
    for (Id k = 0; k < g.num_ids(); ++k)
      if (g.find(k) == root) same.push_back(k);
    std::mt19937 rng(n);
    for (int k = 0; k < 200; ++k) {
      Explanation p = ex.explain(same[rng() % same.size()], same[rng() % same.size()]);
      ASSERT_EQ(verify_explanation(p, rules), std::nullopt);
      longest = std::max(longest, p.num_rewrites());
      ++pairs;
    }
    EXPECT_LE(longest, static_cast<size_t>(4 * n * n));
    std::printf("ac %d: %zu nodes, reverse chain %zu steps (%.3f s), longest of %zu pairs %zu\n", n,
                g.num_nodes(), e.num_rewrites(), secs, pairs, longest);
  }
}

}  // namespace
}  // namespace eqfuse
