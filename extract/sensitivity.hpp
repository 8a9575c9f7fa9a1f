// Sensitivity of the optimizer's fusion decisions to device-profile
// parameters (`eqfuse sensitivity`): for each parameter, re-optimize the
// graph at values swept over a range, and for every decision that changes
// (a rule's fused-kernel count, or how many of a fused op the output
// holds) find the break-even value by bisection. This tells a user which
// profile numbers matter for a graph before measuring them
// (docs/cost-model.md, "Sensitivity").
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

#include "extract/optimize.hpp"

namespace eqfuse {

// "NAME" or "NAME=LO:HI". Without a range the sweep is x0.25 .. x4 of the
// current value. Throws Error on a malformed range.
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

// Decision name -> count: "rule:<rule name>" (fused kernels from the rule
// in the output, OptimizeStats::fusions) and "op:<qualified name>" (nodes
// of an op the input graph does not have).
using DecisionCounts = std::map<std::string, size_t>;

struct SweepPoint {
  double value = 0;
  double cost_us = 0;  // modeled cost of the optimized graph
  DecisionCounts decisions;
};

struct DecisionFlip {
  double break_even = 0;  // the count changes between break_even -/+ the tolerance
  size_t below = 0, above = 0;
};

struct DecisionSensitivity {
  std::string decision;
  size_t at_current = 0;
  std::vector<DecisionFlip> flips;  // ascending; empty: never flips in range
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

// Throws Error for unknown parameters (naming the profile) and empty ranges.
SensitivityReport analyze_sensitivity(const Graph& input, const OpRegistry& reg,
                                      const OptimizeOptions& base,
                                      const SensitivityOptions& options);

// A table per parameter; JSON with keys documented in docs/cli.md.
std::string format_sensitivity_text(const SensitivityReport& r);
std::string sensitivity_to_json(const SensitivityReport& r);

}  // namespace eqfuse
