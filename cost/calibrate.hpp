// Calibration of a device profile from measured kernel times
// (`eqfuse calibrate`). A measurement is one op application with its input
// types, the execution mode and the time a profiler reported; the fit
// adjusts the profile parameters the NPU cost model reads so the model's
// per-kernel totals match the measurements (format and method:
// docs/cost-model.md, "Calibration").
//
//   std::vector<Measurement> rows = load_measurements("910b2.csv");
//   CalibrationResult fit = calibrate_profile(load_device_profile("ascend910b2"), rows, reg);
//   std::cout << format_calibration(fit);
//   write(device_profile_to_json(fit.profile));
//
// Fitted: launch_us.<mode> for every mode in the data, t_dev_fixed_us.<class>
// (t_dev_fixed_us.vector is held by default: end-to-end times alone cannot
// tell the launch gap from the fixed device time), eff_mem, eff_cube and
// eff_vec, plus per-op fixed_us overrides for ops with enough rows that the
// roofline fits badly. Bounded linear least squares, see calibrate.cpp.
#pragma once
#include <cstddef>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
#include "base/diagnostics.hpp"
#include "graph/exec_mode.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

// One measured kernel.
struct Measurement {
  std::string op;  // qualified op name: "npu::npu_add_rms_norm", "aten::mul.Tensor"
  // The op's arguments in schema order, as FX text: tensors as their FX
  // annotation ("bf16[128, 4096]"), literals verbatim ("1e-06", "[1, 0]"),
  // keywords as "name=value" ("dtype=torch.float32").
  std::vector<std::string> inputs;
  ExecMode mode = ExecMode::Eager;
  double measured_us = 0;
  SourceLoc where;  // file and line of the row, for messages
};

// Reads measurements: JSON when the first non-blank character is '{' or
// '[', CSV otherwise. Errors name `origin`, the line and the column (CSV) or
// the JSON path at fault.
std::vector<Measurement> parse_measurements(std::string_view text, std::string_view origin);
std::vector<Measurement> load_measurements(const std::string& path);

struct CalibrateOptions {
  // Parameters kept at their base value (see the header comment).
  std::set<std::string, std::less<>> hold = {"t_dev_fixed_us.vector"};
  size_t min_rows_for_override = 3;  // rows an op needs for a fixed_us override
  double override_rel_rms = 0.25;    // ... and the roofline's relative RMS above this
  SymbolHints hints;                 // for symbolic dims in the inputs
};

struct FittedParam {
  std::string name;  // profile parameter
  double before = 0, after = 0;
  std::string status;  // "fitted", "clamped to [lo, hi]", "held", "no data"
};

struct FittedOverride {
  std::string op;
  double fixed_us = 0;
  size_t rows = 0;
  double roofline_rel_rms = 0;  // how badly the roofline fitted these rows
};

struct RowFit {
  size_t index = 0;  // into the measurement list
  std::string op;
  ExecMode mode = ExecMode::Eager;
  double measured_us = 0, before_us = 0, after_us = 0;  // model with the base / fitted profile
  SourceLoc where;
};

struct CalibrationResult {
  DeviceProfile profile;  // the fitted profile (base parameters and overrides kept otherwise)
  std::vector<FittedParam> params;
  std::vector<FittedOverride> overrides;
  std::vector<RowFit> rows;
  double rms_before_us = 0, rms_after_us = 0;    // absolute
  double rel_rms_before = 0, rel_rms_after = 0;  // relative to the measured time
  size_t dominance_iterations = 0;               // memory/compute-bound re-linearizations
};

// Fits `base` to `rows`. Throws Error naming the row for unknown ops,
// inputs that do not type-check and ops that launch no kernel.
CalibrationResult calibrate_profile(const DeviceProfile& base, std::span<const Measurement> rows,
                                    const OpRegistry& reg, const CalibrateOptions& options = {});

// Parameters (before -> after), overrides, residuals and the `worst` rows.
std::string format_calibration(const CalibrationResult& r, size_t worst = 5);

}  // namespace eqfuse
