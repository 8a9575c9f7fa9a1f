// The equality-saturation loop.
//
// Each iteration: search every (unbanned) rule on the clean e-graph (in
// parallel across rules if threads > 1; results are kept per rule), then
// apply matches rule by rule in the given order (so ids are identical for
// any thread count), then rebuild(). Stops with:
//   Saturated       an iteration changed nothing and no rule is banned
//   IterationLimit  `iterations` iterations ran
//   NodeLimit       e-nodes reached `nodes`; checked after every applied
//                   match, so the limit is overshot by at most one right side
//   TimeLimit       wall time exceeded `seconds` (checked during apply too)
//   MemoryLimit     EGraph::approx_memory_bytes() exceeded `memory_bytes`, or
//                   the process's resident memory exceeded `process_memory_bytes`
//                   (base/memory_budget.hpp: the --memory-limit budget)
//
// Schedulers: Simple (every rule, every match, every iteration) and Backoff
// (egg's default): a rule producing more than match_limit << times_banned
// matches is banned for ban_length << times_banned iterations and its
// matches dropped; when nothing else changes, bans are lifted early instead
// of declaring saturation. Per-rule overrides change the limits or disable
// a rule.
//
//   Runner runner(g, {.limits = {.iterations = 8}});
//   RunReport rep = runner.run(rules);
#pragma once
#include <chrono>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"

namespace eqfuse {

enum class StopReason { Saturated, IterationLimit, NodeLimit, TimeLimit, MemoryLimit };
std::string_view stop_reason_name(StopReason r);

struct RunnerLimits {
  size_t iterations = 30;
  size_t nodes = 100'000;
  double seconds = 10.0;
  size_t memory_bytes = 0;          // 0 = unlimited
  size_t process_memory_bytes = 0;  // resident memory of the process; 0 = unlimited
};

struct RuleOverride {
  size_t match_limit = 0;  // 0 = scheduler default
  size_t ban_length = 0;   // 0 = scheduler default
  bool disabled = false;
};

struct SchedulerConfig {
  enum class Kind { Simple, Backoff };
  Kind kind = Kind::Backoff;
  size_t match_limit = 1000;
  size_t ban_length = 5;
  std::map<std::string, RuleOverride> overrides;  // by rule name
};

struct RunnerConfig {
  RunnerLimits limits;
  SchedulerConfig scheduler;
  unsigned threads = 1;  // > 1: search rules in parallel
  // Semi-naive search (see ematch.hpp): after a rule has been fully applied
  // it only looks for matches involving nodes changed since. Same final
  // e-graph, far fewer redundant applications; `matches` then counts new
  // matches only. Rules with conditions or custom appliers always search
  // everything (their outcome may depend on facts that evolve).
  bool semi_naive = true;
};

struct RuleIterationStats {
  size_t matches = 0;       // matches found by the search
  size_t applications = 0;  // effective unions from this rule's matches
  bool banned = false;      // skipped or dropped by the backoff scheduler
};

struct IterationReport {
  size_t enodes = 0;  // after rebuild
  size_t eclasses = 0;
  std::vector<RuleIterationStats> rules;  // same order as the rule list
  double search_seconds = 0;
  double apply_seconds = 0;
  double rebuild_seconds = 0;
  size_t rebuild_unions = 0;
};

struct RuleTotals {
  size_t matches = 0;
  size_t applications = 0;
  size_t times_banned = 0;
  std::vector<size_t> condition_failures;  // per condition, rule order
};

struct RunReport {
  StopReason stop = StopReason::Saturated;
  std::vector<IterationReport> iterations;
  std::vector<RuleTotals> rules;  // same order as the rule list
  double seconds = 0;             // total saturation time
  double search_seconds = 0, apply_seconds = 0, rebuild_seconds = 0;
  // Failed conditions as "rule/condition" -> count (non-zero only).
  std::map<std::string, size_t> condition_failures;
};

class Runner {
 public:
  Runner(EGraph& g, RunnerConfig config = {}) : g_(g), config_(std::move(config)) {}
  // Runs to a stop condition. The e-graph is clean (rebuilt) afterwards.
  RunReport run(const std::vector<Rewrite>& rules);

 private:
  struct RuleState {
    size_t times_banned = 0;
    size_t banned_until = 0;
    size_t match_limit = 0;
    size_t ban_length = 0;
    bool disabled = false;
    bool semi_naive = false;
    uint32_t applied_epoch = 0;  // changes stamped before this were seen
    uint32_t egraph_rule_id = 0;
  };
  std::optional<StopReason> check_limits(size_t iteration) const;
  void search_all(const std::vector<Rewrite>& rules, size_t iteration,
                  std::vector<std::vector<Id>>& results, IterationReport& it);
  // Returns a stop reason if a limit was hit while applying.
  std::optional<StopReason> apply_all(const std::vector<Rewrite>& rules,
                                      std::vector<std::vector<Id>>& results, IterationReport& it,
                                      RunReport& report);
  // apply_all for one rule, by whether it has conditions; `applied` counts
  // effective unions.
  std::optional<StopReason> apply_unconditional(const Rewrite& rw, uint32_t rule_id,
                                                const std::vector<Id>& ms, size_t& applied);
  std::optional<StopReason> apply_conditional(const Rewrite& rw, uint32_t rule_id,
                                              const std::vector<Id>& ms, size_t& applied,
                                              RuleTotals& totals);
  static constexpr size_t kTimeCheckEvery = 1024;  // matches between clock reads
  double elapsed() const;

  EGraph& g_;
  RunnerConfig config_;
  std::vector<RuleState> state_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace eqfuse
