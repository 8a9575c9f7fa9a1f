#include "cli/cli_common.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <utility>

#include <fmt/format.h>

#include "base/atomic_file.hpp"
#include "base/memory_budget.hpp"
#include "graph/io/debug_dir.hpp"
#include "graph/io/fx_parser.hpp"
#include "graph/io/runnable_inputs.hpp"
#include "pipeline/optimize_config.hpp"
#include "pipeline/presets.hpp"

namespace eqfuse::cli {

void add_toggle_options(CLI::App* cmd, ToggleOptions& t, bool pipeline) {
  cmd->add_option("--mode", t.mode,
                  "Execution mode: eager | max-autotune | reduce-overhead (default)");
  if (pipeline)
    cmd->add_option("--device", t.device,
                    "Device profile: a built-in name (default ascend910b2) or a JSON file");
  cmd->add_option("--preset", t.preset,
                  "A peer's default pass set, as that peer runs it: vllm-ascend | npugraph_ex | "
                  "torchair-ge | vllm (`eqfuse rules --presets` lists them); other options "
                  "apply on top");
  cmd->add_option("--disable-rule", t.disable, "Disable a rule or a label (repeatable)");
  cmd->add_option("--enable-rule", t.enable,
                  "Enable an off-by-default (opt-in, inexact or assumption) rule by name or label "
                  "(repeatable)");
  cmd->add_option("--graph-kernel-flags", t.graph_kernel_flags,
                  "MindSpore-style pass switches, e.g. \"--disable_pass=add_rms_norm_fusion "
                  "--enable_pass=inference_swiglu_fusion\" (names: eqfuse rules "
                  "--graph-kernel-passes)");
  cmd->add_option("--config", t.config,
                  "JSON config file (TorchAir key names accepted; a \"reinplace\" section as for "
                  "`eqfuse reinplace`)");
  if (pipeline) add_multi_stream_option(cmd, t.multi_stream);
  if (pipeline) {
    cmd->add_option("--rules", t.rule_files, "Load extra rules from a .rules file (repeatable)");
    cmd->add_option("--hint", t.hints,
                    "Value of a symbolic dim for the cost model, e.g. --hint s0=16 (repeatable; "
                    "unhinted symbols count as 1024)");
    cmd->add_option("--frozen-inputs", t.frozen,
                    "Graph inputs that are the same on every call (weights under freezing): "
                    "placeholder names or get_attr targets, * and ? wildcards, comma-separated "
                    "or repeated; what is computed from them alone is priced once")
        ->delimiter(',');
    add_memory_limit_option(cmd, t.memory_limit);
    cmd->add_option("--world-size", t.world_size,
                    "Ranks of the tensor-parallel group, for the price of collectives that do not "
                    "size their group (all_reduce); default: the device profile's comm.world_size")
        ->check(CLI::Range(1, 1'000'000));
  }
}

void add_memory_limit_option(CLI::App* cmd, std::string& text) {
  cmd->add_option("--memory-limit", text,
                  fmt::format("Resident memory the run may use, e.g. 8G or 512M (0: no limit; "
                              "default 3/4 of this machine's, here {}); past it eqfuse stops with "
                              "the best result so far, or an error naming where",
                              format_memory_size(default_memory_limit_bytes())))
      ->type_name("SIZE");
}

namespace {

// The .rules files a config's top-level "rules" names (one command per process):
// read by user_rule_library with the --rules files.
std::vector<std::string>& config_rule_files() {
  static std::vector<std::string> files;
  return files;
}

}  // namespace

OptimizeOptions options_from_toggles(const ToggleOptions& t, OpRegistry& reg) {
  OptimizeOptions opt;
  if (!t.preset.empty()) apply_preset(opt, t.preset);  // the base the rest adjusts
  remember_input(t.config);
  const std::string config = t.config.empty() ? "" : read_file_or_stdin(t.config);
  if (!config.empty()) {
    OptimizeConfigFiles files = apply_optimize_config(opt, reg, config, t.config);
    for (const std::string& path : files.op_files) remember_input(path);
    for (std::string& path : files.rule_files) {
      remember_input(path);
      config_rule_files().push_back(std::move(path));
    }
    for (const std::string& note : files.notes) fmt::print(stderr, "eqfuse: note: {}\n", note);
  }
  if (!t.preset.empty() && opt.rules.preset != t.preset)
    throw Error(fmt::format("--preset {} and the config's \"preset\": \"{}\" disagree: give one",
                            t.preset, opt.rules.preset));
  apply_multi_stream(opt.reinplace, t.multi_stream);  // the config's section is applied above
  if (!t.mode.empty()) opt.rules.mode = parse_exec_mode(t.mode);
  if (!t.device.empty()) opt.device = t.device;
  if (t.world_size > 0) opt.world_size = t.world_size;
  opt.rules.disable.insert(opt.rules.disable.end(), t.disable.begin(), t.disable.end());
  opt.rules.enable.insert(opt.rules.enable.end(), t.enable.begin(), t.enable.end());
  apply_graph_kernel_flags(opt.rules, t.graph_kernel_flags);
  for (const std::string& h : t.hints) add_hint(opt.hints, h);
  opt.frozen_inputs.insert(opt.frozen_inputs.end(), t.frozen.begin(), t.frozen.end());
  if (!t.memory_limit.empty())
    opt.memory_limit_bytes = parse_memory_size(t.memory_limit, "--memory-limit");
  return opt;
}

void load_user_rules(RuleLibrary& lib, const std::vector<std::string>& files) {
  std::vector<std::string> all = config_rule_files();
  all.insert(all.end(), files.begin(), files.end());
  for (const std::string& f : all) lib.load_text(read_file_or_stdin(f), f);
  // Rules the load-time check could not run are used, but not silently.
  for (const std::string& note : lib.load_notes()) fmt::print(stderr, "eqfuse: note: {}\n", note);
}

std::unique_ptr<RuleLibrary> user_rule_library(const ToggleOptions& t, const OpRegistry& reg) {
  if (t.rule_files.empty() && config_rule_files().empty()) return nullptr;
  auto lib = std::make_unique<RuleLibrary>(RuleLibrary::builtin(reg));
  load_user_rules(*lib, t.rule_files);
  return lib;
}

void add_hint(SymbolHints& hints, std::string_view spec) {
  size_t eq = spec.find('=');
  std::string_view name = eq == spec.npos ? spec : trim_blanks(spec.substr(0, eq));
  std::string_view value = eq == spec.npos ? std::string_view{} : trim_blanks(spec.substr(eq + 1));
  int64_t v = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (name.empty() || value.empty() || ec != std::errc{} || end != value.data() + value.size() ||
      v < 1)
    throw Error(fmt::format("--hint '{}': expected SYMBOL=N with N >= 1, e.g. s0=16", spec));
  hints.values[std::string(name)] = v;
}

namespace {
// The --ops files of this invocation (one command per process).
std::vector<std::string>& ops_files() {
  static std::vector<std::string> files;
  return files;
}
}  // namespace

void add_ops_option(CLI::App* cmd) {
  cmd->add_option("--ops", ops_files(),
                  "Op catalog declaring custom ops: torch schemas with kind and shape rule "
                  "(meta=like:OP, outN=ARG; docs/ops.md); repeatable");
}

OpRegistry cli_registry() {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  for (const std::string& path : ops_files()) reg.load_catalog(read_file_or_stdin(path), path);
  return reg;
}

InputTypes read_input_types(const std::string& spec) {
  if (spec.empty()) return {};
  std::error_code ec;
  if (std::filesystem::is_regular_file(spec, ec))
    return parse_input_types_any(read_file_or_stdin(spec), spec);
  return parse_input_types_any(spec, "--input-types");
}

namespace {

// The --graph value of this invocation (one command per process).
std::string& graph_choice() {
  static std::string choice;
  return choice;
}

constexpr std::string_view kRunnableName = "fx_graph_runnable.py";

// The file to read for `path` and the runnable dump whose example inputs
// type it (empty: none). A directory is searched for its graphs.
std::pair<std::string, std::string> resolve_input_path(const std::string& path) {
  std::error_code ec;
  if (path == "-") return {path, {}};
  if (!std::filesystem::is_directory(path, ec)) {
    const std::filesystem::path p(path);
    if (!is_aot_graph_file(p.filename().string())) return {path, {}};
    const std::filesystem::path runnable = p.parent_path() / kRunnableName;
    return {path, std::filesystem::is_regular_file(runnable, ec) ? runnable.string() : ""};
  }
  const std::vector<DebugGraph> graphs = find_debug_graphs(path);
  size_t i = 0;
  try {
    i = select_debug_graph(graphs, graph_choice(), path);
  } catch (const Error&) {
    if (!graphs.empty())
      fmt::print(stderr, "eqfuse: the graphs in {}:\n{}", path, list_debug_graphs(graphs));
    throw;
  }
  fmt::print(stderr, "eqfuse: using {} (graph {} of {})\n", graphs[i].path, i + 1, graphs.size());
  return {graphs[i].path, graphs[i].runnable};
}

// Adds to `types` the example-input types of `runnable` (or of `text` itself
// when it holds load_args / rand_strided lines) for the placeholders that
// have neither an annotation nor an entry in `types`.
void add_runnable_types(InputTypes& types, std::string_view text, const std::string& name,
                        const std::string& runnable) {
  if (detect_graph_format(text) != GraphFormat::Fx) return;
  std::string runnable_text;
  std::string origin = runnable;
  if (!runnable.empty() && runnable != name) {
    remember_input(runnable);
    runnable_text = read_file_or_stdin(runnable);
  } else if (!runnable.empty() || text.find("reader.tensor(") != text.npos ||
             text.find("rand_strided(") != text.npos) {
    runnable_text = text;
    origin = name;
  } else {
    return;
  }
  const std::vector<RunnableInput> inputs = parse_runnable_inputs(runnable_text, origin);
  if (inputs.empty()) return;
  size_t added = 0;
  for (InputType& t : runnable_input_types_for(parse_fx(text, name), inputs)) {
    bool given = false;
    for (const InputType& u : types) given = given || u.name == t.name;
    if (given) continue;
    types.push_back(std::move(t));
    ++added;
  }
  if (added > 0)
    fmt::print(stderr, "eqfuse: types of {} input{} taken from the example inputs in {}\n", added,
               added == 1 ? "" : "s", origin);
}

}  // namespace

void add_graph_option(CLI::App* cmd) {
  cmd->add_option("--graph", graph_choice(),
                  "For a TORCH_COMPILE_DEBUG directory input: which graph to read, by number or "
                  "by a part of its path (the choices are listed when there are several)");
}

LoadedGraph load_input(const std::string& path, const OpRegistry& reg,
                       const std::string& input_types_spec) {
  LoadOptions options;
  options.input_types = read_input_types(input_types_spec);
  const auto [file, runnable] = resolve_input_path(path);
  remember_input(file);
  const std::string text = read_file_or_stdin(file);
  const std::string name = file == "-" ? "<stdin>" : file;
  add_runnable_types(options.input_types, text, name, runnable);
  LoadedGraph loaded = load_graph(text, name, reg, options);
  note_opaque_ops(name, loaded.opaque_ops);
  if (const size_t untyped = count_untyped_inputs(loaded.graph); untyped > 0)
    fmt::print(stderr,
               "eqfuse: warning: {} input{} unknown shape{}: fusion conditions cannot be "
               "evaluated; pass --input-types or a runnable dump\n",
               untyped, untyped == 1 ? " has an" : "s have", untyped == 1 ? "" : "s");
  if (const size_t lifted = count_lifted_float_inputs(loaded.graph); lifted > 0)
    fmt::print(stderr, "eqfuse: note: {}\n", lifted_floats_note(lifted));
  return loaded;
}

size_t count_lifted_float_inputs(const Graph& g) {
  bool symbolic = false;
  size_t lifted = 0;
  for (NodeRef p : g.placeholders()) {
    const ValueType& t = g.node(p).type;
    symbolic = symbolic || t.kind == ValueType::Kind::SymInt;
    if (t.is_tensor() && t.tensor.dtype == DType::Float64 && t.tensor.has_shape() &&
        t.tensor.shape->empty())
      ++lifted;
  }
  return symbolic ? lifted : 0;
}

std::string lifted_floats_note(size_t lifted) {
  return fmt::format(
      "{} input{} 0-dim float64 tensor{}, as torch.compile(dynamic=True) passes Python floats "
      "(RMSNorm's epsilon, the attention scale); fusions that need such a value as a constant "
      "cannot apply. Compile with torch._dynamo.config.specialize_float = True to keep them "
      "in the graph",
      lifted, lifted == 1 ? " is a" : "s are", lifted == 1 ? "" : "s");
}

size_t count_untyped_inputs(const Graph& g) {
  size_t n = 0;
  for (NodeRef p : g.placeholders()) {
    const ValueType& t = g.node(p).type;
    if (!t.is_known() || (t.is_tensor() && !t.tensor.has_shape())) ++n;
  }
  return n;
}

void add_input_notes(OptimizeStats& stats, const Graph& g) {
  if (const size_t lifted = count_lifted_float_inputs(g); lifted > 0)
    stats.notes.push_back(lifted_floats_note(lifted));
  const size_t untyped = count_untyped_inputs(g);
  if (untyped == 0) return;
  stats.notes.push_back(fmt::format(
      "{} input{} unknown shape{}: fusion conditions were not evaluated (pass --input-types "
      "or a runnable dump)",
      untyped, untyped == 1 ? " has an" : "s have", untyped == 1 ? "" : "s"));
}

void note_opaque_ops(std::string_view path, const std::vector<std::string>& ops) {
  if (ops.empty()) return;
  fmt::print(stderr,
             "{}: note: {} op{} without a schema kept opaque (passed through unchanged): {}\n",
             path, ops.size(), ops.size() == 1 ? "" : "s", fmt::join(ops, ", "));
}

void apply_reinplace_settings(ReinplaceOptions& opt, OpRegistry& reg, std::string_view config_text,
                              std::string_view config_origin, std::string_view multi_stream) {
  if (!config_text.empty()) apply_reinplace_config_json(opt, reg, config_text, config_origin);
  apply_multi_stream(opt, multi_stream);
}

void apply_multi_stream(ReinplaceOptions& opt, std::string_view multi_stream) {
  if (!multi_stream.empty())
    opt.multi_stream =
        multi_stream == "per-node" ? MultiStreamPolicy::PerNode : MultiStreamPolicy::SkipGraph;
}

void add_multi_stream_option(CLI::App* cmd, std::string& target) {
  cmd->add_option("--multi-stream", target,
                  "Reinplace policy for multi-stream graphs: skip-graph (default: left alone, as "
                  "TorchAir documents) or per-node (TorchAir's per-node stream check)")
      ->check(CLI::IsMember({"skip-graph", "per-node"}));
}

namespace {

std::vector<std::string>& inputs_read() {
  static std::vector<std::string> paths;
  return paths;
}

}  // namespace

CLI::Validator seconds_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double v = 0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) return "expected a number of seconds, got '" + text + "'";
        } catch (const std::exception&) {
          return "expected a number of seconds, got '" + text + "'";
        }
        if (!(v >= 0 && v <= 1e6)) return "expected seconds from 0 to 1e6, got " + text;
        return {};
      },
      "SECONDS");
}

OptimizeResult& keep_until_exit(OptimizeResult&& result) {
  static OptimizeResult* kept = nullptr;
  delete kept;  // a second call in one process (tests) frees the first
  kept = new OptimizeResult(std::move(result));
  return *kept;
}

void remember_input(const std::string& path) {
  if (!path.empty() && path != "-") inputs_read().push_back(path);
}

void check_output_path(const std::string& path) {
  if (path.empty() || path == "-") return;
  std::error_code ec;
  for (const std::string& input : inputs_read())
    if (std::filesystem::equivalent(path, input, ec))
      throw Error(fmt::format("refusing to write '{}': it is the input file '{}'", path, input));
  if (std::filesystem::is_directory(path, ec))
    throw Error(fmt::format("cannot write '{}': it is a directory", path));
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::is_directory(parent, ec))
    throw Error(fmt::format("cannot write '{}': no directory '{}'", path, parent.string()));
}

void write_output(const std::string& path, std::string_view text) {
  check_output_path(path);
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return;
  }
  write_file_atomically(path, text);
}

}  // namespace eqfuse::cli
