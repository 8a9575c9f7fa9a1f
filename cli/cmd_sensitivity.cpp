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
  std::string input_types, output, range;
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
  for (const auto& p : o.params) {
    // --range LO:HI applies to every --param given without its own range.
    bool own_range = p.find('=') != std::string::npos;
    so.params.push_back(
        parse_sensitivity_param(own_range || o.range.empty() ? p : p + "=" + o.range));
  }
  SensitivityReport rep = analyze_sensitivity(in.graph, reg, opt, so);
  write_output(o.output, o.json ? sensitivity_to_json(rep) + "\n" : format_sensitivity_text(rep));
  return kOk;
}

}  // namespace

void add_sensitivity_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<SensitivityCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sensitivity",
      "Sweep device-profile parameters or symbolic dims and report, for each fusion decision, "
      "the break-even value where it flips (or 'never flips in range').");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("--param", o->params,
                  "NAME[=LO:HI]: a profile parameter, e.g. launch_us.reduce-overhead=0.5:8 "
                  "(default x0.25..x4), or a symbolic dim of the graph, e.g. s0=1:8192 (default "
                  "1..4x its hint) (repeatable)")
      ->required();
  cmd->add_option("--range", o->range, "LO:HI for the --param values given without a range");
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
