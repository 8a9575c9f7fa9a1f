// Sensitivity of the optimizer's fusion decisions to device-profile
// parameters (`eqfuse sensitivity`): for each parameter, re-optimize the
// graph at values swept over a range, and for every decision that changes
// (a rule's fused-kernel count, or how many of a fused op the output
// holds) find the break-even value by bisection. Every fusion rule that
// fired in the e-graph is a decision, so one whose count stays the same is
// listed as "never flips in range" with its constant state (always fused /
// never fused). This tells a user which profile numbers matter for a graph
// before measuring them (docs/cost-model.md, "Sensitivity").
//
//   SensitivityOptions so;
//   so.params = {parse_sensitivity_param("launch_us.reduce-overhead=0.5:8")};
//   SensitivityReport rep = analyze_sensitivity(graph, reg, optimize_options, so);
//   std::cout << format_sensitivity_text(rep);
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/optimize.hpp"

namespace eqfuse {

// "NAME" or "NAME=LO:HI". Without a range the sweep is x0.25 .. x4 of the
// current value, clipped to the parameter's domain (param_domain: eff_mem
// 0.75 sweeps 0.1875 .. 1). Throws Error on a malformed range; the name and
// the range's domain are checked against the profile by
// analyze_sensitivity, before any optimizer run.
struct SensitivityParam {
  std::string name;
  std::optional<double> lo, hi;
};
SensitivityParam parse_sensitivity_param(std::string_view spec);

struct SensitivityOptions {
  std::vector<SensitivityParam> params;
  size_t steps = 9;             // sweep points over [lo, hi] (geometric when both > 0)
  double rel_tolerance = 1e-4;  // bisection stops when the bracket is this narrow (relative)
  size_t max_bisections = 40;
};

// Decision name -> count: "rule:<rule name>" for every fusion rule that
// fired (RuleRunStats::fusion with fusing_applications > 0; its fused
// kernels in the output, 0 when none was chosen) and "op:<qualified name>" (nodes of
// an op the input graph does not have; in-place ops from the reinplace
// passes are not counted).
using DecisionCounts = std::map<std::string, size_t>;

struct SweepPoint {
  double value = 0;
  double cost_us = 0;  // modeled cost of the optimized graph
  DecisionCounts decisions;
};

struct DecisionFlip {
  // The count changes between break_even -/+ the tolerance; for a symbolic
  // dim (whole sizes), break_even is the first size with the new count.
  double break_even = 0;
  size_t below = 0, above = 0;
};

struct DecisionSensitivity {
  std::string decision;
  size_t at_current = 0;
  std::vector<DecisionFlip> flips;  // ascending; empty: never flips in range
  bool changes() const { return !flips.empty(); }
  // "flips", or the constant state: "always fused" / "never fused".
  std::string_view state() const;
};

struct ParamSensitivity {
  std::string param;
  double current = 0, lo = 0, hi = 0;
  std::vector<SweepPoint> sweep;  // ascending values
  std::vector<DecisionSensitivity> decisions;
};

struct SensitivityReport {
  std::string device, mode;
  size_t optimize_runs = 0;
  std::vector<ParamSensitivity> params;
};

// The decisions of one optimization of `input`.
DecisionCounts decisions_of(const OptimizeResult& r, const Graph& input, const OpRegistry& reg);

// Throws Error, before optimizing anything, for unknown parameters (naming
// the profile and its parameters), empty ranges and ranges that leave the
// parameter's domain (a negative launch cost, an efficiency above 1).
SensitivityReport analyze_sensitivity(const Graph& input, const OpRegistry& reg,
                                      const OptimizeOptions& base,
                                      const SensitivityOptions& options);

// A table per parameter, then a summary of the decisions that change
// across each range; JSON with keys documented in docs/cli.md.
std::string format_sensitivity_text(const SensitivityReport& r);
std::string sensitivity_to_json(const SensitivityReport& r);

}  // namespace eqfuse
