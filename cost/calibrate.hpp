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
// Fitted: launch_us.<mode> for every mode in the data, the eager host side
// (host_us.eager per kernel, host_free_us.eager per op that launches
// nothing), t_dev_fixed_us.<class> (t_dev_fixed_us.vector is held by
// default: end-to-end times alone cannot tell the launch gap from the fixed
// device time), eff_mem, eff_cube and eff_vec, plus per-op, per-mode
// overrides (fixed_us.<mode> or host_us.<mode>) for ops with enough rows that
// the class parameters fit badly. Each kernel row is max(host, device) (the
// launch pipeline, docs/cost-model.md); robust (Huber-weighted) bounded
// linear least squares, see calibrate.cpp.
#pragma once
#include <cstddef>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostics.hpp"
#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
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
  // Where the time comes from, free text: the CSV column `kernel_name`,
  // an importer's "graph:node" or kernel name. Text before the first ':' is
  // the row's group (the graph it was measured in) for held-out splits.
  std::string label;
  SourceLoc where;  // file and line of the row, for messages
};

// Reads measurements: JSON when the first non-blank character is '{' or
// '[', CSV otherwise. Errors name `origin`, the line and the column (CSV) or
// the JSON path at fault.
std::vector<Measurement> parse_measurements(std::string_view text, std::string_view origin);
std::vector<Measurement> load_measurements(const std::string& path);

struct CalibrateOptions {
  // Parameters kept at their base value (see the header comment). The host
  // side is fitted in eager only: graph replay dispatches nothing per kernel.
  std::set<std::string, std::less<>> hold = {"t_dev_fixed_us.vector", "host_us.max-autotune",
                                             "host_us.reduce-overhead", "host_free_us.max-autotune",
                                             "host_free_us.reduce-overhead"};
  size_t min_rows_for_override = 3;  // rows an (op, mode) needs for an override
  double override_rel_rms = 0.25;    // ... and the class fit's relative RMS above this
  // Robust fitting: rows whose relative residual exceeds this weigh
  // huber_rel / |residual| (Huber), so a few outliers cannot pull the fit.
  double huber_rel = 0.2;
  SymbolHints hints;  // for symbolic dims in the inputs
};

struct FittedParam {
  std::string name;  // profile parameter
  double before = 0, after = 0;
  std::string status;  // "fitted", "clamped to bound", "held", "no data"
};

// A per-op, per-mode override the fit added: `what` is "fixed_us" (device
// time) or "host_us" (host dispatch), the profile field fixed_us.<mode> /
// host_us.<mode> of the op's override.
struct FittedOverride {
  std::string op;
  ExecMode mode = ExecMode::Eager;
  std::string what;
  double value = 0;
  size_t rows = 0;
  double class_rel_rms = 0;  // how badly the class parameters fitted these rows
};

struct RowFit {
  size_t index = 0;  // into the measurement list
  std::string op;
  ExecMode mode = ExecMode::Eager;
  bool kernel = true;  // false: an op that launches nothing (its host dispatch was timed)
  double measured_us = 0, before_us = 0, after_us = 0;  // model with the base / fitted profile
  std::string label;
  SourceLoc where;
};

// Rows of one kind that were not used, counted (never a hard stop).
struct SkippedRows {
  std::string reason;
  size_t count = 0;
  std::string first;  // "file:line op" of the first such row
};

struct CalibrationResult {
  DeviceProfile profile;  // the fitted profile (base parameters and overrides kept otherwise)
  std::vector<FittedParam> params;
  std::vector<FittedOverride> overrides;
  std::vector<RowFit> rows;  // the rows used
  std::vector<SkippedRows> skipped;
  double rms_before_us = 0, rms_after_us = 0;    // absolute
  double rel_rms_before = 0, rel_rms_after = 0;  // relative to the measured time
  size_t side_iterations = 0;                    // host/memory/compute re-linearizations
};

// Fits `base` to `rows`. Rows it cannot use (unknown op, inputs that do not
// type-check, an op launching nothing timed in a graph mode) are skipped
// and counted in `skipped`; only no usable row at all is an Error.
CalibrationResult calibrate_profile(const DeviceProfile& base, std::span<const Measurement> rows,
                                    const OpRegistry& reg, const CalibrateOptions& options = {});

// The model's time for each usable row under `profile` (validation on rows
// the fit did not see); `skipped` receives the unusable ones.
std::vector<RowFit> evaluate_profile(const DeviceProfile& profile,
                                     std::span<const Measurement> rows, const OpRegistry& reg,
                                     const SymbolHints& hints, std::vector<SkippedRows>* skipped);

// A key equal for two op applications with the same op and argument types
// ("aten::mm(f32[16, 128], f32[128, 128])"): joins rows to graph nodes.
std::string row_signature(const Measurement& m, const OpRegistry& reg);
std::string node_signature(const Graph& g, NodeRef n, const OpRegistry& reg);

// Parameters (before -> after), overrides, skipped rows, residuals and the
// `worst` rows.
std::string format_calibration(const CalibrationResult& r, size_t worst = 5);

}  // namespace eqfuse
