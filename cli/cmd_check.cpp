// `eqfuse check A B [--trials N] [--seed S] [--input-types T]`: numeric
// equivalence of two graphs with the reference interpreter.
// (Wired to graph/equivalence.hpp once it lands.)
#include <memory>

#include "cli/cli_common.hpp"

namespace eqfuse::cli {

namespace {
struct CheckOptions {
  std::string a, b;
  int trials = 3;
  uint64_t seed = 0;
  std::string input_types;
};

int run_check(const CheckOptions& o) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  LoadedGraph a = load_input(o.a, reg, o.input_types);
  LoadedGraph b = load_input(o.b, reg, o.input_types);
  throw Error("check: numeric equivalence is not available in this build yet");
}
}  // namespace

void add_check_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<CheckOptions>();
  CLI::App* cmd = app.add_subcommand(
      "check", "Check that two graphs compute the same outputs (reference interpreter).");
  cmd->add_option("A", o->a, "First graph")->required();
  cmd->add_option("B", o->b, "Second graph")->required();
  cmd->add_option("--trials", o->trials, "Random input sets to try")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the random inputs")->capture_default_str();
  cmd->add_option("--input-types", o->input_types,
                  "Input types for both graphs (see 'eqfuse print --help')");
  cmd->callback([o, &action] { action = [o] { return run_check(*o); }; });
}

}  // namespace eqfuse::cli
