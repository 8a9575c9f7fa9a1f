// The calibration report as a standalone HTML page (`eqfuse calibrate
// --report FILE.html`): the fitted parameters and overrides, fit quality
// per mode, a predicted-vs-measured scatter plot (inline SVG, log-log, one
// colour per mode) for the training rows and the validation rows, the
// per-op error table, the worst rows, and whole-graph predictions and
// leave-one-graph-out results when given.
//
//   CalibrationReport r{.fit = &fit, .validation = validation_rows};
//   write(calibration_html(r));
#pragma once
#include <span>
#include <string>
#include <vector>

#include "cost/calibrate.hpp"
#include "cost/graph_timings.hpp"

namespace eqfuse {

struct CalibrationReport {
  const CalibrationResult* fit = nullptr;
  std::vector<RowFit> validation;             // rows the fit did not see (may be empty)
  std::vector<GraphPrediction> whole_graphs;  // with the fitted profile
  std::vector<HeldOutGraph> held_out;         // leave-one-graph-out
};

std::string calibration_html(const CalibrationReport& report);

// The scatter plot alone (an <svg> element): measured on x, model on y,
// both log scale, the y = x diagonal and ±25 % bands.
std::string scatter_svg(std::span<const RowFit> rows, std::string_view title);

}  // namespace eqfuse
