// `eqfuse bench ac N [--scheduler simple|backoff]` and
// `eqfuse bench math [--iters K]`: the e-graph reference workloads
// (egraph/workloads.hpp). Each prints one JSON line with enodes,
// eclasses, iterations, stop_reason, seconds (saturation wall time only) and
// the CPU time and page faults of the same span.
#include <memory>

#include <nlohmann/json.hpp>

#include "cli/cli_common.hpp"
#include "egraph/workloads.hpp"

namespace eqfuse::cli {

namespace {
struct BenchOptions {
  int n = 0;
  std::string scheduler = "simple";
  size_t iters = 0;
  unsigned threads = 1;
};

std::string result_line(std::string_view workload, const WorkloadResult& r) {
  nlohmann::ordered_json j;
  j["workload"] = workload;
  j["enodes"] = r.enodes;
  j["eclasses"] = r.eclasses;
  j["iterations"] = r.iterations;
  j["stop_reason"] = r.stop_reason;
  j["seconds"] = r.seconds;
  j["search_seconds"] = r.search_seconds;
  j["apply_seconds"] = r.apply_seconds;
  j["rebuild_seconds"] = r.rebuild_seconds;
  j["user_seconds"] = r.user_seconds;
  j["system_seconds"] = r.system_seconds;
  j["minor_page_faults"] = r.minor_page_faults;
  return j.dump() + "\n";
}

WorkloadOptions workload_options(const BenchOptions& o) {
  WorkloadOptions w;
  w.scheduler =
      o.scheduler == "backoff" ? SchedulerConfig::Kind::Backoff : SchedulerConfig::Kind::Simple;
  w.iterations = o.iters;
  w.threads = o.threads;
  return w;
}
}  // namespace

void add_bench_command(CLI::App& app, Action& action) {
  CLI::App* bench = app.add_subcommand("bench", "Run an e-graph reference workload.");
  bench->require_subcommand(1);

  auto ac = std::make_shared<BenchOptions>();
  CLI::App* ac_cmd = bench->add_subcommand(
      "ac", "Commutativity + associativity of + over N leaves, to saturation.");
  ac_cmd->add_option("N", ac->n, "Number of leaves (1..14)")->required()->check(CLI::Range(1, 14));
  ac_cmd->add_option("--scheduler", ac->scheduler, "Rule scheduler")
      ->check(CLI::IsMember({"simple", "backoff"}))
      ->capture_default_str();
  ac_cmd->add_option("--iters", ac->iters, "Iteration limit (0 = to saturation)");
  ac_cmd->add_option("--threads", ac->threads, "Search threads")->check(CLI::Range(1u, 64u));
  ac_cmd->callback([ac, &action] {
    action = [ac] {
      write_output("", result_line("ac", run_ac_workload(ac->n, workload_options(*ac))));
      return kOk;
    };
  });

  auto math = std::make_shared<BenchOptions>();
  CLI::App* math_cmd =
      bench->add_subcommand("math", "egg's 14 arithmetic rules from one start term.");
  math_cmd->add_option("--iters", math->iters, "Iterations (0 = workload default, 8)");
  math_cmd->add_option("--scheduler", math->scheduler, "Rule scheduler")
      ->check(CLI::IsMember({"simple", "backoff"}))
      ->capture_default_str();
  math_cmd->add_option("--threads", math->threads, "Search threads")->check(CLI::Range(1u, 64u));
  math_cmd->callback([math, &action] {
    action = [math] {
      write_output("", result_line("math", run_math_workload(workload_options(*math))));
      return kOk;
    };
  });
}

}  // namespace eqfuse::cli
