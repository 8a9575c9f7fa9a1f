#include "egraph/workloads.hpp"

#include <sys/resource.h>

#include <fmt/format.h>

namespace eqfuse {

std::vector<Rewrite> ac_rules() {
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"));
  rules.push_back(Rewrite::parse("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"));
  return rules;
}

std::vector<Rewrite> math_rules() {
  const std::pair<const char*, const char*> table[][1] = {
      {{"comm-add", "(+ ?a ?b) => (+ ?b ?a)"}},
      {{"comm-mul", "(* ?a ?b) => (* ?b ?a)"}},
      {{"assoc-add", "(+ ?a (+ ?b ?c)) => (+ (+ ?a ?b) ?c)"}},
      {{"assoc-mul", "(* ?a (* ?b ?c)) => (* (* ?a ?b) ?c)"}},
      {{"sub-canon", "(- ?a ?b) => (+ ?a (* -1 ?b))"}},
      {{"zero-add", "(+ ?a 0) => ?a"}},
      {{"zero-mul", "(* ?a 0) => 0"}},
      {{"one-mul", "(* ?a 1) => ?a"}},
      {{"cancel-sub", "(- ?a ?a) => 0"}},
      {{"distribute", "(* ?a (+ ?b ?c)) => (+ (* ?a ?b) (* ?a ?c))"}},
      {{"factor", "(+ (* ?a ?b) (* ?a ?c)) => (* ?a (+ ?b ?c))"}},
      {{"pow-mul", "(* (pow ?a ?b) (pow ?a ?c)) => (pow ?a (+ ?b ?c))"}},
      {{"pow1", "(pow ?x 1) => ?x"}},
      {{"pow2", "(pow ?x 2) => (* ?x ?x)"}},
  };
  std::vector<Rewrite> rules;
  for (const auto& row : table) {
    for (auto& r : parse_rules(row[0].first, row[0].second)) rules.push_back(std::move(r));
  }
  return rules;
}

std::string ac_term(int n) {
  if (n < 1) throw Error(fmt::format("ac workload needs at least one leaf, got {}", n));
  std::string s = fmt::format("x{}", n - 1);
  for (int i = n - 2; i >= 0; --i) s = fmt::format("(+ x{} {})", i, s);
  return s;
}

namespace {

// The process's resource use so far (user/system CPU time, minor faults).
struct Usage {
  double user_seconds = 0;
  double system_seconds = 0;
  long minor_page_faults = 0;
};

Usage process_usage() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6;
  };
  return {seconds(ru.ru_utime), seconds(ru.ru_stime), ru.ru_minflt};
}

WorkloadResult run_workload(const std::string& term, const std::vector<Rewrite>& rules,
                            const WorkloadOptions& opts, size_t default_iterations) {
  EGraph g;
  g.add_expr(term);
  RunnerConfig cfg;
  cfg.scheduler.kind = opts.scheduler;
  cfg.limits.iterations = opts.iterations != 0 ? opts.iterations : default_iterations;
  cfg.limits.nodes = 50'000'000;
  cfg.limits.seconds = 600;
  cfg.threads = opts.threads;
  Runner runner(g, cfg);
  Usage before = process_usage();
  RunReport rep = runner.run(rules);
  Usage after = process_usage();
  WorkloadResult r;
  r.enodes = g.num_nodes();
  r.eclasses = g.num_classes();
  r.iterations = rep.iterations.size();
  r.stop_reason = std::string(stop_reason_name(rep.stop));
  r.seconds = rep.seconds;
  r.search_seconds = rep.search_seconds;
  r.apply_seconds = rep.apply_seconds;
  r.rebuild_seconds = rep.rebuild_seconds;
  r.user_seconds = after.user_seconds - before.user_seconds;
  r.system_seconds = after.system_seconds - before.system_seconds;
  r.minor_page_faults = after.minor_page_faults - before.minor_page_faults;
  return r;
}

}  // namespace

WorkloadResult run_ac_workload(int n, const WorkloadOptions& opts) {
  return run_workload(ac_term(n), ac_rules(), opts, 1'000'000);
}

WorkloadResult run_math_workload(const WorkloadOptions& opts) {
  return run_workload(kMathStartTerm, math_rules(), opts, 8);
}

}  // namespace eqfuse
