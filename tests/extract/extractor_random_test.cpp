// ctest-label: property
// Every extractor against exhaustive search on random small cyclic e-graphs:
// all results valid, ilp equal to the exhaustive optimum (and proven), the
// heuristics never below it, greedy-dag never above bottom-up, and
// bottom-up's tree cost equal to the exhaustive tree-cost optimum.
#include <limits>
#include <random>

#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "extract/checker.hpp"
#include "extract/extractor.hpp"
#include "tests/support/random_problems.hpp"

namespace eqfuse {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Random e-graphs (tests/support/random_problems.hpp): small integer costs
// including zeros, one or two roots.
using testing_support::random_problem;

struct Optimum {
  double dag = kInf;
  double tree = kInf;
};

// Enumerates every choice of one node per class (the odometer over classes).
Optimum exhaustive(const ExtractionProblem& p) {
  Optimum best;
  std::vector<std::size_t> idx(p.num_classes(), 0);
  std::vector<NodeId> choice(p.num_classes());
  while (true) {
    for (ClassId c = 0; c < p.num_classes(); ++c) choice[c] = p.class_nodes(c)[idx[c]];
    if (check_extraction(p, choice).valid) {
      best.dag = std::min(best.dag, dag_cost(p, choice));
      best.tree = std::min(best.tree, tree_cost(p, choice));
    }
    ClassId c = 0;
    while (c < p.num_classes() && ++idx[c] == p.class_nodes(c).size()) idx[c++] = 0;
    if (c == p.num_classes()) break;
  }
  return best;
}

TEST(ExtractRandom, AllExtractorsAgainstExhaustiveSearch) {
  std::mt19937 rng(12345);
  int with_solution = 0, greedy_optimal = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const ExtractionProblem p = random_problem(rng, 2 + trial % 6);
    const Optimum opt = exhaustive(p);
    SCOPED_TRACE("trial " + std::to_string(trial));
    if (opt.dag == kInf) {
      // No acyclic extraction exists: every extractor must say so.
      for (const auto& name : extractor_names()) EXPECT_THROW(extract(p, name), Error) << name;
      continue;
    }
    ++with_solution;
    ExtractOptions o;
    o.time_limit_s = 10;
    const Extraction bu = extract(p, "bottom-up", o);
    const Extraction gd = extract(p, "greedy-dag", o);
    const Extraction ilp = extract(p, "ilp", o);
    const Extraction au = extract(p, "auto", o);
    for (const Extraction* e : {&bu, &gd, &ilp, &au}) {
      const CheckResult check = check_extraction(p, e->choice);
      EXPECT_TRUE(check.valid) << check.message;
      EXPECT_DOUBLE_EQ(e->dag_cost, dag_cost(p, e->choice));
      EXPECT_GE(e->dag_cost, opt.dag - 1e-9);
    }
    EXPECT_DOUBLE_EQ(bu.tree_cost, opt.tree);
    EXPECT_DOUBLE_EQ(ilp.dag_cost, opt.dag);
    EXPECT_TRUE(ilp.optimal);
    EXPECT_DOUBLE_EQ(au.dag_cost, opt.dag);
    EXPECT_LE(gd.dag_cost, bu.dag_cost + 1e-9);
    if (gd.dag_cost <= opt.dag + 1e-9) ++greedy_optimal;
  }
  // The generator must produce mostly solvable, non-trivial problems.
  EXPECT_GT(with_solution, 250);
  // Not a correctness bound, a regression guard on heuristic quality.
  EXPECT_GT(greedy_optimal, with_solution * 8 / 10);
}

// maxsat-style e-graphs have negative costs: the heuristics lose their
// optimality guarantees but must stay valid, and ilp must stay exact.
TEST(ExtractRandom, NegativeCostsKeepIlpExact) {
  std::mt19937 rng(4242);
  int solved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const ExtractionProblem p = random_problem(rng, 2 + trial % 6, {.min_cost = -3});
    const Optimum opt = exhaustive(p);
    if (opt.dag == kInf) continue;
    ++solved;
    SCOPED_TRACE("trial " + std::to_string(trial));
    for (const auto& name : extractor_names()) {
      const Extraction e = extract(p, name);
      EXPECT_TRUE(check_extraction(p, e.choice).valid) << name;
      EXPECT_GE(e.dag_cost, opt.dag - 1e-9) << name;
    }
    const Extraction ilp = extract(p, "ilp");
    EXPECT_DOUBLE_EQ(ilp.dag_cost, opt.dag);
    EXPECT_TRUE(ilp.optimal);
  }
  EXPECT_GT(solved, 120);
}

TEST(ExtractRandom, GreedyWithoutImprovementIsStillValid) {
  std::mt19937 rng(777);
  ExtractOptions o;
  o.local_improvement = false;
  for (int trial = 0; trial < 200; ++trial) {
    const ExtractionProblem p = random_problem(rng, 3 + trial % 5);
    if (exhaustive(p).dag == kInf) continue;
    const Extraction gd = extract(p, "greedy-dag", o);
    EXPECT_TRUE(check_extraction(p, gd.choice).valid) << "trial " << trial;
  }
}

}  // namespace
}  // namespace eqfuse
