// `eqfuse calibrate --measurements FILE [--device BASE] [-o NEW.json]
//   [--whole-graph TIMES.json] [--leave-one-graph-out] [--validate FILE]
//   [--report FILE.html] [--hold PARAM]... [--fit PARAM]... [--worst N]`
//
// Fits a device profile to measured kernel times (cost/calibrate.hpp,
// docs/cost-model.md "Calibration"): prints the parameters before -> after,
// skipped rows, the residuals, fit quality and the worst rows on stdout;
// with --whole-graph also fits the per-node / per-graph overheads and
// compares whole-graph predictions with measured times; writes the fitted
// profile JSON to -o (nothing is written without -o).
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "cost/calibrate.hpp"
#include "cost/calibration_report.hpp"
#include "cost/graph_timings.hpp"
#include "cost/profile_import.hpp"
#include "graph/io/load.hpp"

namespace eqfuse::cli {

namespace {

struct CalibrateCliOptions {
  std::string measurements;
  std::string device{kDefaultDevice};
  std::string output, report, whole_graph, validate;
  std::string graph;           // the FX graph a profiler export was taken from
  std::string mode = "eager";  // the run mode of a profiler export
  std::vector<std::string> kernel_types;
  bool leave_one_graph_out = false;
  std::vector<std::string> hold, fit, hints;
  size_t worst = 5;
};

CalibrateOptions fit_options(const CalibrateCliOptions& o, const DeviceProfile& base) {
  CalibrateOptions opt;
  for (const auto& p : o.hold) {
    base.get(p);  // an unknown name is an error naming the profile
    opt.hold.insert(p);
  }
  for (const auto& p : o.fit) {
    base.get(p);
    opt.hold.erase(p);
  }
  for (const auto& h : o.hints) add_hint(opt.hints, h);
  return opt;
}

// Measurements from any supported file: eqfuse's own format, or a profiler
// export joined to --graph (docs/profile-import.md). Notes go to stderr.
std::vector<Measurement> read_measurements(const std::string& path, const CalibrateCliOptions& o,
                                           const OpRegistry& reg) {
  std::string text = read_file_or_stdin(path);
  ProfileFormat format = ProfileFormat::EqfuseMeasurements;
  try {
    format = detect_profile_format(text, path);
  } catch (const Error&) {
    // JSON that is not a trace: the measurement reader names what is wrong
    // with it (a syntax error's line and column, a missing key).
    std::string_view t = trim_blanks(text);
    if (t.empty() || (t.front() != '{' && t.front() != '[')) throw;
  }
  if (format == ProfileFormat::EqfuseMeasurements) return parse_measurements(text, path);
  if (o.graph.empty())
    throw Error(fmt::format("{} is a {} export: give the FX graph that was profiled with --graph",
                            path, profile_format_name(format)));
  LoadedGraph g = load_graph(read_file_or_stdin(o.graph), o.graph, reg);
  ImportOptions io{.mode = parse_exec_mode(o.mode),
                   .graph = &g.graph,
                   .registry = &reg,
                   .kernel_type_files = o.kernel_types};
  ImportResult r = import_measurements(text, path, io);
  fmt::print(stderr, "eqfuse: {}: read as {}, {} row(s) joined to {}\n", path,
             profile_format_name(r.format), r.rows.size(), o.graph);
  for (const std::string& note : r.notes) fmt::print(stderr, "note: {}\n", note);
  return r.rows;
}

int run_calibrate(const CalibrateCliOptions& o) {
  OpRegistry reg = cli_registry();
  for (const std::string* in : {&o.device, &o.measurements, &o.whole_graph, &o.validate, &o.graph})
    if (!in->empty()) remember_input(*in);  // a built-in profile name matches no file
  check_output_path(o.output);
  check_output_path(o.report);
  if (o.leave_one_graph_out && o.whole_graph.empty())
    throw Error("--leave-one-graph-out needs --whole-graph TIMES.json (the graphs to hold out)");
  DeviceProfile base = load_device_profile(o.device);
  std::vector<Measurement> rows = read_measurements(o.measurements, o, reg);
  CalibrateOptions opt = fit_options(o, base);
  std::vector<TimedGraph> graphs;
  if (!o.whole_graph.empty()) graphs = load_timed_graphs(o.whole_graph, reg);

  CalibrationResult r = calibrate_profile(base, rows, reg, opt);
  CalibrationReport report{.fit = &r};
  if (!graphs.empty()) {
    for (FittedParam& p : fit_graph_overheads(r.profile, graphs, reg, opt.hints))
      r.params.push_back(std::move(p));
    report.whole_graphs = predict_graphs(r.profile, graphs, reg, opt.hints);
  }
  fmt::print("{}", format_calibration(r, o.worst));
  fmt::print(
      "\n{}",
      format_quality(r.rows, "fit quality on the training rows (|model - measured| / measured)"));
  if (!o.validate.empty()) {
    std::vector<Measurement> held = read_measurements(o.validate, o, reg);
    std::vector<SkippedRows> skipped;
    report.validation = evaluate_profile(r.profile, held, reg, opt.hints, &skipped);
    for (const SkippedRows& s : skipped)
      fmt::print("note: validation: skipped {} row(s): {} (first: {})\n", s.count, s.reason,
                 s.first);
    fmt::print("\n{}", format_quality(report.validation, "validation rows (not seen by the fit)"));
  }
  if (!graphs.empty()) fmt::print("\nwhole graphs:\n{}", format_predictions(report.whole_graphs));
  if (o.leave_one_graph_out) {
    report.held_out = leave_one_graph_out(base, rows, graphs, reg, opt);
    fmt::print("\n{}", format_held_out(report.held_out));
  }
  if (!o.output.empty()) write_output(o.output, device_profile_to_json(r.profile) + "\n");
  if (!o.report.empty()) write_output(o.report, calibration_html(report));
  return kOk;
}

}  // namespace

void add_calibrate_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CalibrateCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit a device profile (host dispatch and launch gap per mode, effective bandwidth, compute "
      "efficiency, fixed device time, per-op overrides) to measured kernel times by robust "
      "bounded least squares, and validate it.");
  add_ops_option(cmd);
  cmd->add_option("--measurements,--profile", o->measurements,
                  "Measured kernel times: eqfuse CSV (op,inputs,mode,measured_us[,kernel_name]) or "
                  "JSON, a torch.profiler trace or key_averages table, or an msprof op_summary / "
                  "kernel_details CSV (with --graph); --profile is the old spelling")
      ->required();
  cmd->add_option("--device", o->device, "Base profile: built-in name or JSON file")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "Write the fitted profile JSON here");
  cmd->add_option("--graph", o->graph,
                  "The FX graph a profiler export was taken from (joins events to nodes)");
  cmd->add_option(
         "--mode", o->mode,
         "Run mode of a profiler export: eager, reduce-overhead (aclgraph), max-autotune (ge)")
      ->capture_default_str();
  cmd->add_option("--kernel-types", o->kernel_types,
                  "Extra Ascend kernel-type -> FX op table (docs/profile-import.md) (repeatable)");
  cmd->add_option("--whole-graph", o->whole_graph,
                  "Whole-graph times (JSON: graphs -> runs of <mode>_us): fit the per-node / "
                  "per-graph overheads and compare predictions with them");
  cmd->add_flag("--leave-one-graph-out", o->leave_one_graph_out,
                "Validate: per graph of --whole-graph, fit without it and predict its kernels and "
                "whole time");
  cmd->add_option("--validate", o->validate,
                  "Held-out measurements (same formats): report the fitted model's error on them");
  cmd->add_option("--report", o->report,
                  "Write an HTML report (fit quality, predicted-vs-measured scatter plots, per-op "
                  "errors, worst rows, whole graphs)");
  cmd->add_option("--hold", o->hold, "Keep this parameter at its base value (repeatable)");
  cmd->add_option("--fit", o->fit,
                  "Fit a parameter held by default (t_dev_fixed_us.vector, the host side of graph "
                  "modes) (repeatable)");
  cmd->add_option("--hint", o->hints, "Value for a symbolic dim in the rows, s0=N (repeatable)");
  cmd->add_option("--worst", o->worst, "Rows to list by residual")->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return run_calibrate(*o); }; });
}

}  // namespace eqfuse::cli
