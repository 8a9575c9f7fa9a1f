// Entry point of the `eqfuse` command-line tool: declares the subcommands
// (cli/cmd_*.cpp), parses the command line with CLI11 and runs the chosen
// subcommand under one error handler that maps failures to exit codes
// (cli/cli_common.hpp, docs/cli.md).
#include <algorithm>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/suggest.hpp"
#include "cli/cli_common.hpp"

namespace {

using namespace eqfuse::cli;

int run_guarded(const Action& action) {
  try {
    return action();
  } catch (const eqfuse::Error& e) {
    fmt::print(stderr, "{}\n", e.render());
    return kInputError;
  } catch (const std::bad_alloc&) {
    // Too big for this machine rather than a bug: a resource error, like a
    // bad input, with what to try.
    fmt::print(stderr,
               "eqfuse: error: out of memory: the input needs more memory than is available "
               "(bind smaller sizes with --bind for check, lower --node-limit for optimize)\n");
    return kInputError;
  } catch (const std::length_error&) {
    fmt::print(stderr,
               "eqfuse: error: out of memory: a value is larger than any buffer can hold\n");
    return kInputError;
  } catch (const std::exception& e) {
    fmt::print(stderr, "eqfuse: internal error: {}\n", e.what());
    return kInternalError;
  }
}

// The first argument that is not an option must name a subcommand; CLI11
// alone reports a typo as "A subcommand is required". Returns the message
// for an unknown one (with the nearest command), or "" when fine.
std::string unknown_subcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return {};
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    names.push_back(sub->get_name());
  std::string word = argv[1];
  if (std::find(names.begin(), names.end(), word) != names.end()) return {};
  std::string hint = eqfuse::did_you_mean(word, names);
  return fmt::format("unknown command '{}'{}; commands: {}", word, hint, fmt::join(names, ", "));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "eqfuse: optimizes PyTorch FX graphs for Ascend NPUs by equality saturation.\n"
      "Input graphs are FX text (print_readable or graph() form) or eqfuse-graph JSON;\n"
      "the format is taken from the content. Exit codes: 0 ok, 1 difference found,\n"
      "2 bad input or usage, 3 internal error.",
      "eqfuse"};
  app.set_version_flag("--version", std::string(kVersion));
  app.require_subcommand(1);
  app.fallthrough(false);

  Action action;
  add_optimize_command(app, action);
  add_rules_command(app, action);
  add_print_command(app, action);
  add_check_command(app, action);
  add_ops_command(app, action);
  add_bench_command(app, action);
  add_extract_command(app, action);
  add_reinplace_command(app, action);
  add_explain_command(app, action);
  add_calibrate_command(app, action);
  add_sensitivity_command(app, action);
  add_cost_command(app, action);

  if (std::string message = unknown_subcommand(app, argc, argv); !message.empty()) {
    fmt::print(stderr, "eqfuse: error: {}\nRun 'eqfuse --help' for usage.\n", message);
    return kInputError;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    fmt::print(stderr, "eqfuse: error: {}\nRun 'eqfuse --help' for usage.\n", e.what());
    return kInputError;
  }
  if (!action) {
    fmt::print(stderr, "eqfuse: error: no subcommand given\n");
    return kInputError;
  }
  return run_guarded(action);
}
