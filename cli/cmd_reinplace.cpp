// `eqfuse reinplace IN [-o OUT] [--format fx|json]
//  [--disable-pass inplaceable|input-mutated|recover-view-inplace]
//  [--log] [--config FILE] [--mode M] [--multi-stream skip-graph|per-node] [--input-types T]`:
// runs TorchAir's recover_view_inplace_pattern and two reinplace passes of
// reduce-overhead mode
// (passes/reinplace.hpp, docs/reinplace.md) on any graph and prints the
// result; --log writes one line per decision and the memory traffic saved
// to stderr.
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse::cli {

namespace {
struct ReinplaceCliOptions {
  std::string file;
  std::string output;
  std::string format = "fx";
  std::vector<std::string> disable;
  bool log = false;
  std::string config;
  std::string mode;
  std::string multi_stream;
  std::string input_types;
};

ReinplaceOptions pass_options(const ReinplaceCliOptions& o, OpRegistry& reg) {
  ReinplaceOptions opt;
  std::string config = o.config.empty() ? "" : read_file_or_stdin(o.config);
  apply_reinplace_settings(opt, reg, config, o.config, o.multi_stream);
  if (!o.mode.empty()) opt.mode = parse_exec_mode(o.mode);
  for (const std::string& pass : o.disable) {
    if (pass == "recover-view-inplace")
      opt.recover_view_inplace = false;
    else
      (pass == "inplaceable" ? opt.disable_reinplace_inplaceable_ops_pass
                             : opt.disable_reinplace_input_mutated_ops_pass) = true;
  }
  return opt;
}

std::string savings_line(const ReinplaceSavings& s) {
  return fmt::format(
      "reinplace: {} node(s) in place, {} copy_ removed; memory traffic saved: {} bytes "
      "(output buffers {}, copy_ {})",
      s.reinplaced_nodes, s.removed_copies, s.total_bytes().to_string(),
      s.output_buffer_bytes.to_string(), s.copy_bytes.to_string());
}

int run_reinplace(const ReinplaceCliOptions& o) {
  OpRegistry reg = cli_registry();
  ReinplaceOptions opt = pass_options(o, reg);
  LoadedGraph in = load_input(o.file, reg, o.input_types);
  ReinplaceResult r = reinplace(in.graph, reg, opt);
  for (const std::string& line : r.log.lines()) {
    if (o.log || line.starts_with("warning:")) fmt::print(stderr, "{}\n", line);
  }
  if (o.log) fmt::print(stderr, "{}\n", savings_line(r.savings));
  ReinplaceCounters af = reinplace_counters(r.log);
  if (o.log && af.decomposed_calls > 0)
    fmt::print(stderr,
               "auto_functionalized: {} call(s) decomposed; missed reinplacing opportunities: {} "
               "({} bytes, {} tensor(s) cloned)\n",
               af.decomposed_calls, af.missed, af.missed_bytes, af.cloned_tensors);
  if (o.format == "json") {
    write_output(o.output, save_graph_json(r.graph, 2, &reg));
  } else {
    write_output(o.output, print_fx(r.graph, &reg));
  }
  return kOk;
}
}  // namespace

void add_reinplace_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ReinplaceCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reinplace",
      "Run TorchAir's reduce-overhead reinplace passes: out-of-place ops whose input dies "
      "become in-place, op + copy_ epilogues into graph inputs become in-place ops, and "
      "auto_functionalized calls become the in-place custom op (cloning only what must be).");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph file, or '-' for standard input")->required();
  cmd->add_option("-o,--output", o->output, "Write to this file instead of stdout");
  cmd->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"fx", "json"}))
      ->capture_default_str();
  cmd->add_option("--disable-pass", o->disable,
                  "Turn a pass off: inplaceable (debug.aclgraph.disable_reinplace_inplaceable_"
                  "ops_pass), input-mutated (..._input_mutated_ops_pass) or "
                  "recover-view-inplace (reinplace.recover_view_inplace); repeatable")
      ->check(CLI::IsMember({"inplaceable", "input-mutated", "recover-view-inplace"}));
  cmd->add_flag("--log", o->log,
                "Print every decision (node, target, reinplaced or why not) and the memory "
                "traffic saved on stderr");
  cmd->add_option("--config", o->config,
                  "JSON config: the debug.aclgraph.* flags, \"mode\", and a \"reinplace\" section "
                  "(ops, inplaceable_ops, multi_stream); see docs/reinplace.md");
  cmd->add_option("--mode", o->mode,
                  "Execution mode (the passes run only in reduce-overhead; others warn)");
  add_multi_stream_option(cmd, o->multi_stream);
  cmd->add_option("--input-types", o->input_types,
                  "Input types, e.g. 'arg0_1=bf16[s0, 4096]', or a file with them");
  cmd->callback([o, &action] { action = [o] { return run_reinplace(*o); }; });
}

}  // namespace eqfuse::cli
