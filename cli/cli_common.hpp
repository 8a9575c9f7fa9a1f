// Shared pieces of the `eqfuse` subcommands: how each subcommand is
// registered, reading input graphs and --input-types, writing output, and
// the exit-code convention (docs/cli.md):
//   0 success, 1 a check/verification found a difference,
//   2 bad input or usage (eqfuse::Error, printed as file:line:col + caret),
//   3 internal error (an unexpected exception; a bug worth reporting).
//
// Each cli/cmd_*.cpp defines one `add_<name>_command(CLI::App&, Action&)`
// that declares the subcommand's options and, in its callback, stores what
// to run in `Action`; main() runs it inside the error handler.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "graph/io/input_types.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "passes/reinplace.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse::cli {

inline constexpr std::string_view kVersion = "0.1.0";

enum ExitCode : int { kOk = 0, kMismatch = 1, kInputError = 2, kInternalError = 3 };

// What the chosen subcommand does once options are parsed; returns the exit code.
using Action = std::function<int()>;

void add_print_command(CLI::App& app, Action& action);
void add_check_command(CLI::App& app, Action& action);
void add_ops_command(CLI::App& app, Action& action);
void add_bench_command(CLI::App& app, Action& action);
void add_optimize_command(CLI::App& app, Action& action);
void add_rules_command(CLI::App& app, Action& action);
void add_extract_command(CLI::App& app, Action& action);
void add_reinplace_command(CLI::App& app, Action& action);
void add_explain_command(CLI::App& app, Action& action);
void add_calibrate_command(CLI::App& app, Action& action);
void add_sensitivity_command(CLI::App& app, Action& action);
void add_cost_command(CLI::App& app, Action& action);

// The options that choose which rules run and what they are priced on,
// shared by optimize, explain, rules and sensitivity so they spell and
// combine them the same way.
struct ToggleOptions {
  std::string mode, device, config, multi_stream;
  std::string preset;  // --preset NAME (pipeline/presets.hpp)
  std::vector<std::string> disable, enable;
  std::string graph_kernel_flags;       // MindSpore's "--disable_pass=a,b --enable_pass=c"
  std::vector<std::string> rule_files;  // --rules (pipeline commands)
  std::vector<std::string> hints;       // --hint s0=N (pipeline commands)
  std::vector<std::string> frozen;      // --frozen-inputs patterns (pipeline commands)
  std::string memory_limit;             // --memory-limit SIZE (pipeline commands)
  int world_size = 0;                   // --world-size N (pipeline commands)
};

// Declares --mode, --preset, --disable-rule, --enable-rule, --graph-kernel-flags and --config on
// `cmd`; for the commands that run the pipeline (`pipeline`; not `rules`, which prices and
// reinplaces nothing) also --device and --multi-stream.
void add_toggle_options(CLI::App* cmd, ToggleOptions& t, bool pipeline = true);

// The optimize options they describe: the config file first (its optimize
// keys, then its reinplace section, whose catalog lines are registered into
// `reg`, so call this before loading the graph), then the command-line
// flags on top (flags win).
OptimizeOptions options_from_toggles(const ToggleOptions& t, OpRegistry& reg);

// The --rules files and the config's "rules" (options_from_toggles, which must
// run first, reads them) on top of the default library (null when none); the
// caller keeps it alive and points OptimizeOptions::library at it. Each rule
// is proven on random inputs as it loads (rewrites/rule_check.hpp): an unsound
// one is an Error (exit 2); one that cannot be run is a note on stderr.
std::unique_ptr<RuleLibrary> user_rule_library(const ToggleOptions& t, const OpRegistry& reg);
// Loads the config's "rules", then `files`, into `lib`, printing load_notes().
void load_user_rules(RuleLibrary& lib, const std::vector<std::string>& files);

// --memory-limit SIZE on `cmd`, into `text` (parse with parse_memory_size).
void add_memory_limit_option(CLI::App* cmd, std::string& text);

// "s0=16": a value for a symbolic dim, added to `hints`; an Error otherwise.
void add_hint(SymbolHints& hints, std::string_view spec);

// `--input-types` value: the text form, or the path of a file holding the
// text or JSON form. Empty -> no types.
InputTypes read_input_types(const std::string& spec);

// `--ops FILE` (repeatable): op catalogs (docs/ops.md) declaring custom ops,
// loaded on top of the built-in ones by cli_registry().
void add_ops_option(CLI::App* cmd);
OpRegistry cli_registry();

// `--graph N|NAME`: which graph of a TORCH_COMPILE_DEBUG directory input to
// read (graph/io/debug_dir.hpp); declared by every command that calls
// load_input. Ignored for file inputs.
void add_graph_option(CLI::App* cmd);

// Reads FILE ("-" = stdin) and loads it with the built-in registry (+ input
// types), printing the opaque-ops note on stderr. FILE may be a directory
// (a TORCH_COMPILE_DEBUG tree): its only graph, or the one --graph names, is
// read and "eqfuse: using PATH (graph i of n)" is printed. The example inputs
// of an fx_graph_runnable.py in the graph's folder (or of the file itself)
// type the placeholders that have no annotation and no --input-types entry.
// Inputs left without a shape are reported by a warning on stderr.
LoadedGraph load_input(const std::string& path, const OpRegistry& reg,
                       const std::string& input_types_spec);

// How many placeholders of `g` have no known type or shape.
size_t count_untyped_inputs(const Graph& g);
// In a graph with symbolic sizes, the 0-dim float64 inputs: the Python floats
// torch.compile(dynamic=True) lifts into inputs (torch >= 2.6 does not specialize them).
size_t count_lifted_float_inputs(const Graph& g);
std::string lifted_floats_note(size_t lifted);
// Appends to `stats.notes` the note on untyped inputs of `g` (none when all
// are typed), for optimize's summary and --stats-json.
void add_input_notes(OptimizeStats& stats, const Graph& g);

// "note: 2 ops without a schema are kept opaque: foo::bar, mylib::baz"
void note_opaque_ops(std::string_view path, const std::vector<std::string>& ops);

// The reinplace side of a JSON config and of --multi-stream, for `reinplace`
// (`optimize` and `explain` read their config with apply_optimize_config,
// then apply_multi_stream): the config text's "reinplace"
// section (catalog lines registered into `reg`, table entries,
// multi_stream) and debug.aclgraph.* keys, then `multi_stream` ("skip-graph"
// | "per-node") on top. Empty `config_text` / `multi_stream`: not given.
void apply_reinplace_settings(ReinplaceOptions& opt, OpRegistry& reg, std::string_view config_text,
                              std::string_view config_origin, std::string_view multi_stream);
// --multi-stream ("skip-graph" | "per-node"; empty: not given) on top of `opt`.
void apply_multi_stream(ReinplaceOptions& opt, std::string_view multi_stream);
// Declares `--multi-stream skip-graph|per-node` on `cmd`, stored in `target`.
void add_multi_stream_option(CLI::App* cmd, std::string& target);

// A CLI11 check for a time limit: a number of seconds from 0 to 1e6 (NaN,
// infinities and negative values are refused, with the value in the message).
CLI::Validator seconds_validator();

// Writes `text` to stdout, or to `path` when non-empty ("-" = stdout).
// Refuses (eqfuse::Error, exit 2) a path that names a file this process read
// as an input (remember_input): the input is never overwritten.
void write_output(const std::string& path, std::string_view text);
// The optimize result of a command (the e-graph: millions of small
// allocations on a large input), kept until the process exits instead of
// being freed piece by piece, which took a tenth of the wall time on a
// 4,000-block stack. One per command; reachable, so leak checkers stay quiet.
OptimizeResult& keep_until_exit(OptimizeResult&& result);
// Records a file the command reads, so no output may replace it. load_input
// records its FILE; commands record their other inputs (profiles, configs).
void remember_input(const std::string& path);
// Throws the error write_output would for `path`, before any work is done:
// commands check every output path (graph, --stats-json, reports) up front,
// so a bad one fails before the first file is written.
void check_output_path(const std::string& path);

}  // namespace eqfuse::cli
