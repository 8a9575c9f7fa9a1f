#include "graph/exec_mode.hpp"

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {

std::string_view exec_mode_name(ExecMode m) {
  switch (m) {
    case ExecMode::Eager:
      return "eager";
    case ExecMode::MaxAutotune:
      return "max-autotune";
    case ExecMode::ReduceOverhead:
      return "reduce-overhead";
  }
  return "eager";
}

ExecMode parse_exec_mode(std::string_view name) {
  if (name == "eager") return ExecMode::Eager;
  if (name == "max-autotune" || name == "ge") return ExecMode::MaxAutotune;
  if (name == "reduce-overhead" || name == "aclgraph" || name == "npugraph_ex")
    return ExecMode::ReduceOverhead;
  throw Error(
      fmt::format("unknown mode '{}': expected eager, max-autotune or reduce-overhead", name));
}

}  // namespace eqfuse
