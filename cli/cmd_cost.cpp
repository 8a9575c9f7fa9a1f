// `eqfuse cost A [B] [--mode M] [--device D] [--hint s0=N]... [--json] [-o OUT]
//   [--input-types T]`
//
// Prices a graph under the NPU cost model, one line per kernel; with a
// second graph, compares the two node by node (cost/cost_report.hpp,
// docs/cost-model.md "Reading a breakdown").
#include <charconv>
#include <memory>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "cli/cli_common.hpp"
#include "cost/cost_report.hpp"

namespace eqfuse::cli {

namespace {

struct CostCliOptions {
  std::string file_a, file_b;
  std::string mode, device, input_types, output;
  std::vector<std::string> hints;
  bool json = false;
};

int run_cost(const CostCliOptions& o) {
  OpRegistry reg = cli_registry();
  SymbolHints hints;
  for (const std::string& h : o.hints) add_hint(hints, h);
  ExecMode mode = o.mode.empty() ? ExecMode::ReduceOverhead : parse_exec_mode(o.mode);
  NpuCostModel model(load_device_profile(o.device.empty() ? kDefaultDevice : o.device), mode,
                     hints);
  LoadedGraph a = load_input(o.file_a, reg, o.input_types);
  if (o.file_b.empty()) {
    GraphCost c = graph_cost(a.graph, reg, model);
    write_output(o.output, o.json ? cost_table_to_json(a.graph, c, reg, model) + "\n"
                                  : format_cost_table(a.graph, c, reg, model));
    return kOk;
  }
  LoadedGraph b = load_input(o.file_b, reg, o.input_types);
  GraphCostDiff d = compare_graph_costs(a.graph, b.graph, reg, model);
  write_output(o.output, o.json ? cost_diff_to_json(d) + "\n" : format_cost_diff(d));
  return kOk;
}

}  // namespace

void add_cost_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CostCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "cost",
      "Price a graph under the NPU cost model, one line per kernel; with a second graph, "
      "compare the two node by node (nodes matched by name).");
  add_ops_option(cmd);
  cmd->add_option("A", o->file_a, "Graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("B", o->file_b, "Second graph to compare with A (e.g. A optimized)");
  cmd->add_option("--mode", o->mode,
                  "Execution mode: eager | max-autotune | reduce-overhead (default)");
  cmd->add_option("--device", o->device,
                  "Device profile: a built-in name (default ascend910b2) or a JSON file");
  cmd->add_option("--hint", o->hints,
                  "Value of a symbolic dim, e.g. s0=16 (default 1024; repeatable)");
  cmd->add_option("--input-types", o->input_types, "Input types for untyped dumps, or a file");
  cmd->add_flag("--json", o->json, "JSON output (keys: docs/cli.md)");
  cmd->add_option("-o,--output", o->output, "Write the report here instead of stdout");
  cmd->callback([o, &action] { action = [o] { return run_cost(*o); }; });
}

}  // namespace eqfuse::cli
