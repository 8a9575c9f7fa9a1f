// The runner (egraph/runner.hpp): condition failures, node / iteration /
// time / memory limits, the backoff scheduler, determinism across threads.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/runner.hpp"
#include "egraph/workloads.hpp"
#include "tests/support/egraph_helpers.hpp"

namespace eqfuse {
namespace {

using test::simple_config;
using test::sym;

Condition is_int_constant(std::string var) {
  return {"is-const-" + var, {var}, [](const EGraph& g, std::span<const Id> ids) {
            auto c = g.constant_of(ids[0]);
            return c && c->kind == ConstKind::Int;
          }};
}

TEST(Runner, ConditionFailuresAreCounted) {
  EGraph g;
  g.add_expr("(+ (* x 2) (* 3 y))");
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse("const-first", "(* ?a ?b)", "(* ?b ?a)", {is_int_constant("b")}));
  Runner runner(g, simple_config(1));
  RunReport rep = runner.run(rules);
  EXPECT_EQ(rep.rules[0].matches, 2u);
  EXPECT_EQ(rep.rules[0].applications, 1u);  // only (* x 2) has a constant ?b
  EXPECT_EQ(rep.rules[0].condition_failures[0], 1u);
  EXPECT_EQ(rep.condition_failures.at("const-first/is-const-b"), 1u);
  EXPECT_EQ(rep.stop, StopReason::IterationLimit);
}

TEST(Runner, NodeLimitIsNotOvershotByAnIteration) {
  EGraph g;
  g.add_expr(ac_term(8));
  RunnerConfig cfg;
  cfg.limits.nodes = 500;
  cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
  RunReport rep = Runner(g, cfg).run(ac_rules());
  EXPECT_EQ(rep.stop, StopReason::NodeLimit);
  // Each applied match adds at most 2 nodes (assoc right side).
  EXPECT_LE(g.num_nodes(), 502u);
  EXPECT_GE(g.num_nodes(), 500u);
  g.check_invariants();
}

TEST(Runner, IterationAndTimeLimits) {
  EGraph g;
  g.add_expr(ac_term(6));
  RunnerConfig two;
  two.limits.iterations = 2;
  RunReport rep = Runner(g, two).run(ac_rules());
  EXPECT_EQ(rep.stop, StopReason::IterationLimit);
  EXPECT_EQ(rep.iterations.size(), 2u);
  EGraph g2;
  g2.add_expr(ac_term(9));
  RunnerConfig no_time;
  no_time.limits.seconds = 0.0;
  RunReport rep2 = Runner(g2, no_time).run(ac_rules());
  EXPECT_EQ(rep2.stop, StopReason::TimeLimit);
  EGraph g3;
  g3.add_expr(ac_term(9));
  RunnerConfig tiny_memory;
  tiny_memory.limits.memory_bytes = 1 << 16;
  RunReport rep3 = Runner(g3, tiny_memory).run(ac_rules());
  EXPECT_EQ(rep3.stop, StopReason::MemoryLimit);
}

TEST(Runner, BackoffBansNoisyRulesButStillSaturates) {
  EGraph g;
  g.add_expr(ac_term(6));
  RunnerConfig cfg;
  cfg.scheduler.kind = SchedulerConfig::Kind::Backoff;
  cfg.scheduler.match_limit = 8;
  cfg.scheduler.ban_length = 2;
  RunReport rep = Runner(g, cfg).run(ac_rules());
  EXPECT_EQ(rep.stop, StopReason::Saturated);
  EXPECT_GT(rep.rules[1].times_banned, 0u);  // assoc exceeds 8 matches quickly
  // Ban length doubles: a rule banned twice sits out 2 then 4 iterations.
  EXPECT_EQ(g.num_classes(), 63u);
  EXPECT_EQ(g.num_nodes(), 729u - 128u + 1u + 6u);
  // A per-rule override can disable a rule entirely.
  EGraph g2;
  g2.add_expr(ac_term(4));
  cfg.scheduler.overrides["assoc-add"].disabled = true;
  RunReport rep2 = Runner(g2, cfg).run(ac_rules());
  EXPECT_EQ(rep2.rules[1].matches, 0u);
  EXPECT_EQ(g2.num_classes(), 7u);  // commutativity alone adds no classes
}

// Snapshot of every class's sorted node list, ids included.
std::vector<std::string> snapshot(const EGraph& g) {
  std::vector<std::string> out;
  for (Id c : g.class_ids()) {
    std::string s = fmt::format("#{}:", c);
    for (Id n : g.class_nodes(c)) {
      NodeView v = g.node(n);
      s += fmt::format(" {}/{}({})", v.op.str(), v.payload, fmt::join(v.children, ","));
    }
    out.push_back(s);
  }
  return out;
}

TEST(Runner, DeterministicAcrossRunsAndThreads) {
  auto run = [](unsigned threads, bool semi) {
    EGraph g;
    g.add_expr(kMathStartTerm);
    RunnerConfig cfg;
    cfg.limits.iterations = 6;
    cfg.threads = threads;
    cfg.semi_naive = semi;
    cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
    Runner(g, cfg).run(math_rules());
    g.check_invariants();
    return snapshot(g);
  };
  auto base = run(1, true);
  EXPECT_EQ(run(1, true), base);
  EXPECT_EQ(run(2, true), base);
  EXPECT_EQ(run(4, true), base);
  // Semi-naive search yields the same e-graph up to ids: compare sizes.
  EXPECT_EQ(run(1, false).size(), base.size());
}

}  // namespace
}  // namespace eqfuse
