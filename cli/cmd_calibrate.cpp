// `eqfuse calibrate --profile MEASUREMENTS.{csv,json} [--device BASE] [-o NEW.json]
//   [--hold PARAM]... [--fit PARAM]... [--worst N]`
//
// Fits a device profile to measured kernel times (cost/calibrate.hpp,
// docs/cost-model.md "Calibration"): prints the parameters before -> after,
// the residuals and the worst rows on stdout and writes the fitted profile
// JSON to -o (nothing is written without -o).
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "cost/calibrate.hpp"

namespace eqfuse::cli {

namespace {

struct CalibrateCliOptions {
  std::string measurements;
  std::string device{kDefaultDevice};
  std::string output;
  std::vector<std::string> hold, fit;
  size_t worst = 5;
};

int run_calibrate(const CalibrateCliOptions& o) {
  OpRegistry reg = cli_registry();
  remember_input(o.device);  // a profile file (a built-in name matches no file)
  remember_input(o.measurements);
  check_output_path(o.output);
  DeviceProfile base = load_device_profile(o.device);
  std::vector<Measurement> rows = load_measurements(o.measurements);
  CalibrateOptions opt;
  for (const auto& p : o.hold) {
    base.get(p);  // an unknown name is an error naming the profile
    opt.hold.insert(p);
  }
  for (const auto& p : o.fit) opt.hold.erase(p);
  CalibrationResult r = calibrate_profile(base, rows, reg, opt);
  fmt::print("{}", format_calibration(r, o.worst));
  if (!o.output.empty()) write_output(o.output, device_profile_to_json(r.profile) + "\n");
  return kOk;
}

}  // namespace

void add_calibrate_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CalibrateCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "calibrate",
      "Fit a device profile (launch cost per mode, effective bandwidth, compute efficiency, "
      "fixed device time, per-op overrides) to measured kernel times by bounded least squares.");
  add_ops_option(cmd);
  cmd->add_option("--profile", o->measurements,
                  "Measurements: CSV (op,inputs,mode,measured_us) or JSON; see docs/cost-model.md")
      ->required();
  cmd->add_option("--device", o->device, "Base profile: built-in name or JSON file")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "Write the fitted profile JSON here");
  cmd->add_option("--hold", o->hold, "Keep this parameter at its base value (repeatable)");
  cmd->add_option("--fit", o->fit,
                  "Fit a parameter held by default (t_dev_fixed_us.vector) (repeatable)");
  cmd->add_option("--worst", o->worst, "Rows to list by residual")->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return run_calibrate(*o); }; });
}

}  // namespace eqfuse::cli
