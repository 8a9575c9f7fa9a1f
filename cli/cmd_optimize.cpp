// `eqfuse optimize IN [-o OUT] [--format fx|json] [--mode M] [--device D]
//   [--extractor E] [--time-limit S] [--node-limit N] [--iter-limit N]
//   [--disable-rule X]... [--enable-rule X]... [--config FILE] [--multi-stream P] [--rules FILE]...
//   [--stats-json FILE] [--dump-dir DIR] [--input-types T] [--explain] [--quiet]`
//
// Runs the whole pipeline (pipeline/optimize.hpp): load, saturate with the
// enabled rules, extract the cheapest graph under the NPU cost model, emit.
// The optimized graph goes to stdout (or -o), the summary to stderr.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "extract/extractor.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "pipeline/buckets.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse::cli {

namespace {

struct OptimizeCliOptions {
  std::string file;
  std::string output;
  std::string format = "fx";
  std::string input_types;
  ToggleOptions toggles;
  std::string extractor;
  double time_limit = -1;
  long node_limit = -1;
  long iter_limit = -1;
  std::string stats_json;
  std::string dump_dir;
  std::string buckets;
  bool explain = false;
  bool quiet = false;
  bool view_to_reshape = false;
};

// EQFUSE_DEBUG=1 (as TorchAir's TORCH_COMPILE_DEBUG): dump every stage into
// <EQFUSE_DEBUG_DIR, default eqfuse_debug>/<input name>/ unless --dump-dir
// chooses a directory.
std::string debug_dump_dir(const std::string& input) {
  const char* env = std::getenv("EQFUSE_DEBUG");
  if (env == nullptr || std::string_view(env) != "1") return {};
  const char* base = std::getenv("EQFUSE_DEBUG_DIR");
  const std::string stem = input == "-" ? "stdin" : std::filesystem::path(input).stem().string();
  return (std::filesystem::path(base != nullptr && *base != 0 ? base : "eqfuse_debug") / stem)
      .string();
}

// The toggles (config file, then flags), then the optimize-only flags. The
// config's reinplace section may register ops (those wrapped by
// auto_functionalized, say), so this runs before the graph is loaded.
OptimizeOptions build_options(const OptimizeCliOptions& o, OpRegistry& reg) {
  OptimizeOptions opt = options_from_toggles(o.toggles, reg);
  if (!o.extractor.empty()) opt.extractor = o.extractor == "tree" ? "bottom-up" : o.extractor;
  if (o.time_limit >= 0) {
    opt.limits.seconds = o.time_limit;
    opt.extract_time_limit_s = o.time_limit;
    opt.phase_time_limit_s = o.time_limit;
  }
  if (o.node_limit >= 0) {
    opt.limits.nodes = static_cast<size_t>(o.node_limit);
    opt.node_limit_follows_input = false;
  }
  if (o.iter_limit >= 0) opt.limits.iterations = static_cast<size_t>(o.iter_limit);
  opt.dump_dir = o.dump_dir.empty() ? debug_dump_dir(o.file) : o.dump_dir;
  opt.view_to_reshape = o.view_to_reshape;
  // The dumps include the decisions (004_explain.txt), which need the records.
  opt.record_explanations = o.explain || !opt.dump_dir.empty();
  return opt;
}

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

int run_optimize(const OptimizeCliOptions& o) {
  const Clock::time_point start = Clock::now();
  OpRegistry reg = cli_registry();
  OptimizeOptions opt = build_options(o, reg);
  if (!o.buckets.empty()) parse_buckets(o.buckets);  // a bad spec fails before any work
  LoadedGraph in = load_input(o.file, reg, o.input_types);
  if (!o.buckets.empty()) check_bucket_sizes(in.graph, opt.hints, parse_buckets(o.buckets));
  std::unique_ptr<RuleLibrary> lib = user_rule_library(o.toggles, reg);
  if (lib) opt.library = lib.get();
  for (const std::string& path : {o.output, o.stats_json}) check_output_path(path);
  if (!opt.dump_dir.empty() && std::filesystem::exists(opt.dump_dir) &&
      !std::filesystem::is_directory(opt.dump_dir))
    throw Error(fmt::format("--dump-dir '{}' is a file, not a directory", opt.dump_dir));
  const Clock::time_point parsed = Clock::now();
  OptimizeResult& r = keep_until_exit(optimize_graph(in.graph, reg, opt));
  r.stats.phase_ms["parse"] = ms_between(start, parsed);
  Clock::time_point t0 = Clock::now();
  add_input_notes(r.stats, in.graph);
  annotate_fusions(r, reg);  // `# eqfuse: <rule> fuses <nodes>` above each fused node
  if (o.format == "json")
    write_output(o.output, save_graph_json(r.graph, 2, &reg));
  else
    write_output(o.output, print_fx(r.graph, &reg));
  r.stats.phase_ms["write"] = ms_between(t0, Clock::now());
  if (o.explain || !opt.dump_dir.empty()) {
    t0 = Clock::now();
    const std::string report = format_explanation_text(explain_run(r, reg));
    if (o.explain) fmt::print(stderr, "{}", report);
    if (!opt.dump_dir.empty()) {
      write_output((std::filesystem::path(opt.dump_dir) / "004_explain.txt").string(), report);
      if (!o.quiet) fmt::print(stderr, "eqfuse: stage dumps written to {}/\n", opt.dump_dir);
    }
    r.stats.phase_ms["explain"] = ms_between(t0, Clock::now());
  }
  r.stats.phase_ms["total"] = ms_between(start, Clock::now());
  if (!o.stats_json.empty()) write_output(o.stats_json, stats_to_json(r.stats) + "\n");
  if (!o.quiet) fmt::print(stderr, "{}", format_summary(r.stats));
  if (!o.buckets.empty())
    fmt::print(stderr, "{}",
               format_buckets(optimize_buckets(in.graph, reg, opt, parse_buckets(o.buckets))));
  return kOk;
}

}  // namespace

void add_optimize_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<OptimizeCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "optimize",
      "Fuse operators by equality saturation and extract the cheapest graph under the NPU "
      "cost model. Prints the optimized graph; the summary goes to stderr.");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("-o,--output", o->output, "Write the optimized graph here instead of stdout");
  cmd->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"fx", "json"}))
      ->capture_default_str();
  cmd->add_option("--input-types", o->input_types,
                  "Input types for untyped dumps, e.g. 'arg0_1=bf16[s0, 4096]', or a file");
  add_toggle_options(cmd, o->toggles);
  std::vector<std::string> extractors = extractor_names();
  extractors.push_back("tree");
  cmd->add_option("--extractor", o->extractor,
                  "tree | greedy-dag | faster-greedy-dag | ilp | auto (default: exact by "
                  "components)")
      ->check(CLI::IsMember(extractors));
  // Limits are checked here: a negative, NaN or infinite value was silently
  // ignored (or overflowed the deadline arithmetic) before.
  cmd->add_option("--time-limit", o->time_limit,
                  "Seconds for each phase: saturation, exact extraction, emit, reinplace "
                  "(default 10)")
      ->check(seconds_validator());
  cmd->add_option(
         "--node-limit", o->node_limit,
         "E-node limit for saturation (default: 200000 or 4 times the e-nodes the input loads "
         "into, whichever is larger; a value given here is exact)")
      ->check(CLI::Range(0L, 1'000'000'000L));
  cmd->add_option("--iter-limit", o->iter_limit, "Iteration limit for saturation (default 30)")
      ->check(CLI::Range(0L, 1'000'000L));
  cmd->add_option("--stats-json", o->stats_json, "Write the summary as JSON to this file");
  cmd->add_option("--dump-dir", o->dump_dir, "Write per-stage dumps (graphs, e-graph) here");
  cmd->add_option("--buckets", o->buckets,
                  "Also optimize at each value of a symbolic dim, e.g. s0=1,16,256,4096, and "
                  "print the fusion decisions per bucket, flagging those that flip");
  cmd->add_flag("--explain", o->explain,
                "Explain every fusion chosen or rejected: proof and cost side by side");
  cmd->add_flag("--view-to-reshape", o->view_to_reshape,
                "Turn every view of the output into a reshape, as TorchAir does after its "
                "fusions (by default only views a rewrite may have given a strided input)");
  cmd->add_flag("-q,--quiet", o->quiet, "No summary on stderr");
  cmd->callback([o, &action] { action = [o] { return run_optimize(*o); }; });
}

}  // namespace eqfuse::cli
