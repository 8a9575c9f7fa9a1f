// `eqfuse print FILE [--format fx|json] [--input-types T] [-o OUT]`:
// loads a graph (format from the content), resolves and types it, and
// prints it as FX text (print_readable form) or eqfuse-graph JSON.
#include <memory>

#include "cli/cli_common.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"

namespace eqfuse::cli {

namespace {
struct PrintOptions {
  std::string file;
  std::string format = "fx";
  std::string input_types;
  std::string output;
  bool compact = false;
};

int run_print(const PrintOptions& o) {
  OpRegistry reg = cli_registry();
  LoadedGraph in = load_input(o.file, reg, o.input_types);
  if (o.format == "json") {
    write_output(o.output, save_graph_json(in.graph, o.compact ? -1 : 2, &reg));
  } else {
    write_output(o.output, print_fx(in.graph, &reg));
  }
  return kOk;
}
}  // namespace

void add_print_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<PrintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "print", "Read a graph (FX text or JSON, '-' for stdin), type it and print it.");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph file, or '-' for standard input")->required();
  cmd->add_option("--format", o->format, "Output format")
      ->check(CLI::IsMember({"fx", "json"}))
      ->capture_default_str();
  cmd->add_option("--input-types", o->input_types,
                  "Input types, e.g. 'arg0_1=bf16[s0, 4096]; arg1_1=Sym(s0)', or a file with "
                  "that text or a JSON object {\"arg0_1\": \"bf16[s0, 4096]\"}");
  cmd->add_option("-o,--output", o->output, "Write to this file instead of stdout");
  cmd->add_flag("--compact", o->compact, "JSON on one line");
  cmd->callback([o, &action] { action = [o] { return run_print(*o); }; });
}

}  // namespace eqfuse::cli
