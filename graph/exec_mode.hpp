// Execution modes of TorchAir / npugraph_ex, shared by the rule toggles
// (max-autotune excludes rules (d) and (e)), the cost model (launch cost
// per mode) and the reinplace passes (reduce-overhead only).
//
//   ExecMode m = parse_exec_mode("reduce-overhead");   // throws Error on a bad name
//   std::string_view s = exec_mode_name(m);           // "reduce-overhead"
#pragma once
#include <array>
#include <string_view>

namespace eqfuse {

enum class ExecMode {
  Eager,           // op-by-op host dispatch (no graph capture)
  MaxAutotune,     // TorchAir GE graph mode
  ReduceOverhead,  // aclgraph capture and replay (npugraph_ex)
};

inline constexpr std::array<ExecMode, 3> kAllExecModes = {ExecMode::Eager, ExecMode::MaxAutotune,
                                                          ExecMode::ReduceOverhead};

// "eager", "max-autotune", "reduce-overhead".
std::string_view exec_mode_name(ExecMode m);
// Accepts the names above (also "ge" for max-autotune and "aclgraph" /
// "npugraph_ex" for reduce-overhead); throws eqfuse::Error listing the valid
// names otherwise.
ExecMode parse_exec_mode(std::string_view name);

}  // namespace eqfuse
