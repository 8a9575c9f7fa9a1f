// `eqfuse cost A [B] [--mode M] [--device D] [--hint s0=N]... [--json] [-o OUT]
//   [--input-types T]`, `eqfuse cost --measured TIMES.json [--mode M] [--device D]`
//
// Prices a graph under the NPU cost model, one line per kernel; with a
// second graph, compares the two node by node (cost/cost_report.hpp,
// docs/cost-model.md "Reading a breakdown"); with --measured, predicts every
// graph of a whole-graph timings file and compares with its measured times
// (cost/graph_timings.hpp).
#include <charconv>
#include <memory>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "cli/cli_common.hpp"
#include "cost/cost_report.hpp"
#include "cost/graph_timings.hpp"

#include <nlohmann/json.hpp>

namespace eqfuse::cli {

namespace {

struct CostCliOptions {
  std::string file_a, file_b;
  std::string mode, device, input_types, output, measured;
  std::vector<std::string> hints;
  std::vector<std::string> frozen;  // --frozen-inputs
  int world_size = 0;               // --world-size: comm.world_size of the profile
  bool json = false;
};

DeviceProfile profile_of(const CostCliOptions& o) {
  DeviceProfile p = load_device_profile(o.device.empty() ? kDefaultDevice : o.device);
  if (o.world_size > 0) p.set("comm.world_size", o.world_size);
  return p;
}

std::string predictions_json(std::span<const GraphPrediction> predictions) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const GraphPrediction& p : predictions)
    list.push_back({{"graph", p.graph},
                    {"mode", exec_mode_name(p.mode)},
                    {"call_nodes", p.call_nodes},
                    {"kernels", p.kernels},
                    {"measured_us", p.measured_us},
                    {"predicted_us", p.predicted_us},
                    {"error", p.error()},
                    {"simulated_us", p.simulated_us}});
  return nlohmann::ordered_json{{"graphs", list}}.dump(2) + "\n";
}

// Predicted against measured whole-graph times, every mode of the file
// (or only --mode).
int run_measured(const CostCliOptions& o, const OpRegistry& reg, const SymbolHints& hints) {
  if (!o.file_a.empty())
    throw Error("--measured compares the graphs its file names: give no graph argument");
  remember_input(o.measured);
  std::vector<TimedGraph> graphs = load_timed_graphs(o.measured, reg);
  if (!o.mode.empty()) {
    ExecMode only = parse_exec_mode(o.mode);
    for (TimedGraph& g : graphs)
      std::erase_if(g.timings, [&](const GraphTiming& t) { return t.mode != only; });
  }
  DeviceProfile profile = profile_of(o);
  std::vector<GraphPrediction> p = predict_graphs(profile, graphs, reg, hints);
  write_output(o.output, o.json ? predictions_json(p)
                                : fmt::format("whole graphs on {}:\n{}", profile.name,
                                              format_predictions(p)));
  return kOk;
}

int run_cost(const CostCliOptions& o) {
  OpRegistry reg = cli_registry();
  SymbolHints hints;
  for (const std::string& h : o.hints) add_hint(hints, h);
  if (!o.measured.empty()) return run_measured(o, reg, hints);
  if (o.file_a.empty()) throw Error("cost needs a graph A (or --measured TIMES.json)");
  ExecMode mode = o.mode.empty() ? ExecMode::ReduceOverhead : parse_exec_mode(o.mode);
  NpuCostModel model(profile_of(o), mode, hints);
  model.set_frozen_inputs(o.frozen);
  LoadedGraph a = load_input(o.file_a, reg, o.input_types);
  check_frozen_inputs(a.graph, o.frozen);
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
  add_graph_option(cmd);
  cmd->add_option("A", o->file_a, "Graph (FX text or JSON, '-' for stdin)");
  cmd->add_option("B", o->file_b, "Second graph to compare with A (e.g. A optimized)");
  cmd->add_option("--mode", o->mode,
                  "Execution mode: eager | max-autotune | reduce-overhead (default)");
  cmd->add_option("--device", o->device,
                  "Device profile: a built-in name (default ascend910b2) or a JSON file");
  cmd->add_option("--hint", o->hints,
                  "Value of a symbolic dim, e.g. s0=16 (default 1024; repeatable)");
  cmd->add_option("--input-types", o->input_types, "Input types for untyped dumps, or a file");
  cmd->add_option("--world-size", o->world_size,
                  "Ranks of the tensor-parallel group, for collectives that do not size their "
                  "group (default: the profile's comm.world_size)")
      ->check(CLI::Range(1, 1'000'000));
  cmd->add_option("--frozen-inputs", o->frozen,
                  "Graph inputs that are the same on every call (placeholder names or get_attr "
                  "targets, * and ? wildcards, comma-separated or repeated): nodes computed from "
                  "them alone are priced once (docs/cost-model.md \"Frozen inputs\")")
      ->delimiter(',');
  cmd->add_option("--measured", o->measured,
                  "Whole-graph timings (JSON, docs/cost-model.md \"Whole graphs\"): predict each "
                  "graph it names and compare with the measured time");
  cmd->add_flag("--json", o->json, "JSON output (keys: docs/cli.md)");
  cmd->add_option("-o,--output", o->output, "Write the report here instead of stdout");
  cmd->callback([o, &action] { action = [o] { return run_cost(*o); }; });
}

}  // namespace eqfuse::cli
