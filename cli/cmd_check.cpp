// `eqfuse check A B [--trials N] [--seed S] [--mode strict|rounding]
// [--bind s0=4] [--assume "X == op(Y)"] [--input-types T] [--inputs FILE]
// [--world-size N [--replicated X,...]]`: numeric equivalence of
// two graphs with the reference interpreter (interp/equivalence.hpp). Exit 0 when every output (and
// every mutated input) agrees on every trial, 1 on the first difference (named on stdout), 2 when
// the graphs cannot be loaded or compared.
#include <algorithm>
#include <charconv>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/memory_budget.hpp"
#include "cli/cli_common.hpp"
#include "interp/equivalence.hpp"
#include "interp/input_values.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse::cli {

namespace {
struct CheckOptions {
  std::string a, b;
  int trials = 3;
  uint64_t seed = 0;
  std::string mode = "reference";
  std::vector<std::string> binds;
  std::string input_types;
  std::string inputs;  // given input values (JSON or .safetensors)
  std::string memory_limit;
  std::vector<std::string> assume;      // "arg5_1 == reciprocal(arg4_1)" (input_assumptions.hpp)
  int world_size = 1;                   // > 1: a simulated tensor-parallel group
  std::vector<std::string> replicated;  // inputs every rank shares
};

// "s0=4" -> {"s0", 4}.
std::pair<std::string, int64_t> parse_binding(const std::string& text) {
  size_t eq = text.find('=');
  int64_t value = 0;
  if (eq != std::string::npos && eq > 0) {
    const char* first = text.data() + eq + 1;
    const char* last = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && ptr == last && first != last && value >= 0)
      return {text.substr(0, eq), value};
  }
  throw Error(
      fmt::format("--bind expects SYMBOL=SIZE with a size >= 0, e.g. s0=4; got '{}'", text));
}

// What the real fused numerics change, per output (information, not a
// verdict: a fused kernel that keeps an intermediate in fp32 rounds less).
void print_deviations(const std::vector<OutputDeviation>& deviations) {
  if (deviations.empty()) {
    fmt::print("real fused numerics: identical outputs\n");
    return;
  }
  fmt::print("real fused numerics (trial 0), where outputs differ:\n");
  for (const OutputDeviation& d : deviations) {
    fmt::print("  {}: max abs err {:g}, max rel err {:g}", d.label, d.max_abs, d.max_rel);
    if (d.argmax_agreement >= 0)
      fmt::print(", argmax of the last dim agrees on {:.1f}% of rows", 100 * d.argmax_agreement);
    fmt::print("\n");
  }
}

// Ops without a reference kernel: compared, not computed.
void print_structural(const std::vector<std::pair<std::string, int>>& ops) {
  if (ops.empty()) return;
  std::vector<std::string> parts;
  for (const auto& [op, calls] : ops) parts.push_back(fmt::format("{} x{}", op, calls));
  fmt::print("compared structurally (no reference kernel: same op on equivalent inputs): {}\n",
             fmt::join(parts, ", "));
}

int run_check(const CheckOptions& o) {
  OpRegistry reg = cli_registry();
  LoadedGraph a = load_input(o.a, reg, o.input_types);
  LoadedGraph b = load_input(o.b, reg, o.input_types);
  EquivalenceOptions options;
  options.trials = o.trials;
  options.seed = o.seed;
  options.memory_limit_bytes = o.memory_limit.empty()
                                   ? default_memory_limit_bytes()
                                   : parse_memory_size(o.memory_limit, "--memory-limit");
  options.mode = o.mode == "rounding" ? ToleranceMode::Rounding
                 : o.mode == "strict" ? ToleranceMode::Strict
                                      : ToleranceMode::Reference;
  // A binding must name a size some input is written in (a typo would
  // otherwise be ignored and the symbol chosen at random).
  std::vector<std::string> symbols = input_symbols(a.graph);
  for (std::string& s : input_symbols(b.graph)) symbols.push_back(std::move(s));
  std::sort(symbols.begin(), symbols.end());
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  for (const std::string& bind : o.binds) {
    auto [name, value] = parse_binding(bind);
    if (!std::binary_search(symbols.begin(), symbols.end(), name))
      throw Error(
          fmt::format("--bind {}: no input size uses '{}' (the inputs' symbols: {})", bind, name,
                      symbols.empty() ? "none" : fmt::format("{}", fmt::join(symbols, ", "))));
    options.bindings[name] = value;
  }
  for (const std::string& text : o.assume) {
    InputAssumption a = parse_input_assumption(text, SourceLoc{"--assume", 1, 1});
    check_input_assumption(a, reg);
    options.assumptions.push_back(std::move(a));
  }
  options.world_size = o.world_size;
  options.replicated_inputs = o.replicated;
  if (o.world_size == 1 && !o.replicated.empty())
    throw Error("--replicated names inputs the ranks share: give --world-size above 1");
  RandomInputs given;
  if (!o.inputs.empty()) {
    if (!o.assume.empty())
      throw Error("--assume and --inputs both given: given inputs are used as they are");
    if (!o.binds.empty())
      throw Error("--bind and --inputs both given: with --inputs the sizes come from the file");
    given = read_input_values(a.graph, o.inputs);
    options.given_inputs = &given;
  }
  EquivalenceResult r = equivalent(a.graph, b.graph, reg, options);
  if (!r.ok) {
    fmt::print("not equivalent: {}\n", r.first_mismatch);
    if (!r.first_differing_node.empty())
      fmt::print("first differing node of the same name: {}\n", r.first_differing_node);
    for (const std::string& call : r.unmatched_opaque_calls)
      fmt::print("no call of the first graph takes the inputs of {} (no reference kernel)\n", call);
    return kMismatch;
  }
  fmt::print("equivalent: {} trial{}{}, {} output{} compared ({})\n", r.trials_run,
             r.trials_run == 1 ? "" : "s",
             options.world_size > 1 ? fmt::format(" on {} ranks", options.world_size) : "",
             a.graph.output_values().size(), a.graph.output_values().size() == 1 ? "" : "s",
             options.mode == ToleranceMode::Reference ? "exact under reference numerics"
                                                      : tolerance_mode_name(options.mode));
  print_structural(r.structural_ops);
  if (options.world_size > 1) {
    fmt::print("real fused numerics: not measured across ranks (run without --world-size)\n");
  } else if (options.mode == ToleranceMode::Reference) {
    print_deviations(r.deviations);
    if (!r.deviation_not_propagated.empty())
      fmt::print(
          "  (not measured past ops without a kernel whose inputs it changed, which pass "
          "on the first graph's outputs: {})\n",
          fmt::join(r.deviation_not_propagated, ", "));
  }
  return kOk;
}
}  // namespace

void add_check_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Check that two graphs compute the same outputs (reference interpreter).");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("A", o->a, "First graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("B", o->b, "Second graph")->required();
  add_memory_limit_option(cmd, o->memory_limit);
  cmd->add_option("--trials", o->trials, "Random input sets to try")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the random inputs")->capture_default_str();
  cmd->add_option("--mode", o->mode,
                  "reference (default: fused kernels round like the chain they replace, and "
                  "outputs must agree exactly; the real fused numerics' deviation is reported), "
                  "strict (real numerics, per-dtype tolerances), or rounding (real numerics; "
                  "int8 may differ by 1, floats at input precision)")
      ->check(CLI::IsMember({"reference", "strict", "rounding"}))
      ->capture_default_str();
  cmd->add_option("--assume", o->assume,
                  "Draw inputs that hold a relation, e.g. --assume \"arg5_1 == "
                  "reciprocal(arg4_1)\" (what `optimize` prints as `assumed`; repeatable)");
  cmd->add_option("--world-size", o->world_size,
                  "Run both graphs as a simulated tensor-parallel group of N ranks, each on its "
                  "own inputs, and compare every rank's outputs (collectives computed exactly)")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  cmd->add_option("--replicated", o->replicated,
                  "With --world-size: inputs every rank holds the same value of (comma-separated)")
      ->delimiter(',');
  cmd->add_option("--bind", o->binds, "Fix a symbolic size, e.g. --bind s0=4 (repeatable)")
      ->delimiter(',');
  cmd->add_option("--inputs", o->inputs,
                  "Run once on these input values instead of random ones: a JSON object keyed "
                  "by input name (or an array in input order) of {\"dtype\", \"shape\", "
                  "\"data\"} tensors and numbers, or a .safetensors file (docs/interpreter.md)");
  cmd->add_option("--input-types", o->input_types,
                  "Input types for both graphs (see 'eqfuse print --help')");
  cmd->callback([o, &action] { action = [o] { return run_check(*o); }; });
}

}  // namespace eqfuse::cli
