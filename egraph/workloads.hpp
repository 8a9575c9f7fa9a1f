// The two reference workloads with exactly known results, as library calls
// (used by bench/egraph_bench.cpp, the tests and `eqfuse bench`).
//
//   ac N  commutativity `(+ ?a ?b) => (+ ?b ?a)` and associativity
//         `(+ ?a (+ ?b ?c)) => (+ (+ ?a ?b) ?c)` over the right-nested sum
//         (+ x0 (+ x1 (... x{N-1}))), run to saturation. Expected result:
//         2^N - 1 e-classes and 3^N - 2^(N+1) + 1 + N e-nodes.
//   math  14 unconditional arithmetic rules from
//         (+ (* x (+ y z)) (* (+ x 1) (- y 2))) for 8 iterations with the
//         simple scheduler; egg ends at 600 e-nodes / 71 e-classes.
//
//   WorkloadResult r = run_ac_workload(10);          // simple scheduler
//   fmt::print("{} {} {}\n", r.enodes, r.eclasses, r.seconds);
//
// `seconds` is saturation time only (Runner::run), excluding e-graph setup.
// Wall time on the shared 2-core machine includes waiting for a core, so the
// result also carries the process's CPU time and minor page faults over the
// same span (getrusage): the figures to compare between runs and processes.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "egraph/rewrite.hpp"
#include "egraph/runner.hpp"

namespace eqfuse {

struct WorkloadResult {
  size_t enodes = 0;
  size_t eclasses = 0;
  size_t iterations = 0;
  std::string stop_reason;  // stop_reason_name()
  double seconds = 0;
  double search_seconds = 0;
  double apply_seconds = 0;
  double rebuild_seconds = 0;
  // Over Runner::run, for the whole process (search threads included).
  double user_seconds = 0;
  double system_seconds = 0;   // mostly the kernel's page-fault work
  long minor_page_faults = 0;  // first touches of fresh memory
};

struct WorkloadOptions {
  SchedulerConfig::Kind scheduler = SchedulerConfig::Kind::Simple;
  size_t iterations = 0;  // 0 = workload default (ac: unlimited, math: 8)
  unsigned threads = 1;
};

std::vector<Rewrite> ac_rules();
std::vector<Rewrite> math_rules();
// The right-nested sum of n leaves x0..x{n-1}, as an s-expression.
std::string ac_term(int n);
inline constexpr const char* kMathStartTerm = "(+ (* x (+ y z)) (* (+ x 1) (- y 2)))";

WorkloadResult run_ac_workload(int n, const WorkloadOptions& opts = {});
WorkloadResult run_math_workload(const WorkloadOptions& opts = {});

}  // namespace eqfuse
