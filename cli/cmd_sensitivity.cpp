// `eqfuse sensitivity IN --param NAME[=LO:HI]... [--mode M] [--device D]
//   [--steps N] [--json] [-o FILE] [--input-types T] [--config FILE] [--disable-rule X]...
//   [--enable-rule X]...`
//
// For each profile parameter, re-optimizes IN over the range and reports
// for every fusion decision the break-even value where it flips, or "never
// flips in range" (pipeline/sensitivity.hpp, docs/cost-model.md).
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "pipeline/sensitivity.hpp"

namespace eqfuse::cli {

namespace {

struct SensitivityCliOptions {
  std::string file;
  std::vector<std::string> params;
  std::string input_types, output;
  ToggleOptions toggles;
  size_t steps = 9;
  bool json = false;
};

int run_sensitivity(const SensitivityCliOptions& o) {
  OpRegistry reg = cli_registry();
  OptimizeOptions opt = options_from_toggles(o.toggles, reg);
  LoadedGraph in = load_input(o.file, reg, o.input_types);
  std::unique_ptr<RuleLibrary> lib = user_rule_library(o.toggles, reg);
  if (lib) opt.library = lib.get();
  SensitivityOptions so;
  so.steps = o.steps;
  for (const auto& p : o.params) so.params.push_back(parse_sensitivity_param(p));
  SensitivityReport rep = analyze_sensitivity(in.graph, reg, opt, so);
  write_output(o.output, o.json ? sensitivity_to_json(rep) + "\n" : format_sensitivity_text(rep));
  return kOk;
}

}  // namespace

void add_sensitivity_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<SensitivityCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sensitivity",
      "Sweep device-profile parameters and report, for each fusion decision, the break-even "
      "value where it flips (or 'never flips in range').");
  add_ops_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("--param", o->params,
                  "NAME[=LO:HI], e.g. launch_us.reduce-overhead=0.5:8 (default x0.25..x4; "
                  "repeatable)")
      ->required();
  add_toggle_options(cmd, o->toggles);
  cmd->add_option("--steps", o->steps, "Sweep points per parameter")
      ->check(CLI::Range(2, 1000))
      ->capture_default_str();
  cmd->add_option("--input-types", o->input_types, "Input types for untyped dumps, or a file");
  cmd->add_flag("--json", o->json, "JSON output (keys: docs/cli.md)");
  cmd->add_option("-o,--output", o->output, "Write the report here instead of stdout");
  cmd->callback([o, &action] { action = [o] { return run_sensitivity(*o); }; });
}

}  // namespace eqfuse::cli
