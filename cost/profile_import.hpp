// Importers that turn profiler output into calibration measurements
// (cost/calibrate.hpp), each profiled op joined to the node of the FX graph
// that was run (formats, join rules and timing policy: docs/profile-import.md).
//
//   LoadedGraph in = load_graph(read_file_or_stdin("llama.fx"), "llama.fx", reg);
//   ImportOptions o{.mode = ExecMode::ReduceOverhead, .graph = &in.graph, .registry = &reg};
//   ImportResult r = import_measurements_file("kernel_details.csv", o);
//   for (const std::string& note : r.notes) std::cerr << note << "\n";
//   CalibrationResult fit = calibrate_profile(profile, r.rows, reg);
//
// Read: eqfuse's own measurement files, torch.profiler's Chrome trace
// (export_chrome_trace, record_shapes=True) and key_averages table
// (group_by_input_shape=True), Ascend msprof op_summary_*.csv and torch_npu's
// kernel_details.csv.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "cost/calibrate.hpp"
#include "graph/exec_mode.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

enum class ProfileFormat {
  EqfuseMeasurements,   // op,inputs,mode,measured_us CSV or its JSON form
  TorchProfilerTrace,   // Chrome trace JSON ("traceEvents")
  TorchKeyAverages,     // key_averages(group_by_input_shape=True).table()
  MsprofOpSummary,      // op_summary_*.csv
  MsprofKernelDetails,  // torch_npu's kernel_details.csv
};
// "eqfuse-measurements", "torch-trace", "torch-key-averages",
// "msprof-op-summary", "msprof-kernel-details".
std::string_view profile_format_name(ProfileFormat f);

// The format of `text`, from its first lines. Throws Error at origin:1
// listing the known formats when none fits.
ProfileFormat detect_profile_format(std::string_view text, std::string_view origin);

struct ImportOptions {
  ExecMode mode = ExecMode::Eager;  // the run mode (profiles do not say)
  const Graph* graph = nullptr;     // the FX graph profiled (every format but eqfuse's own)
  const OpRegistry* registry = nullptr;
  // Extra Ascend kernel-type tables (the user's), read after the built-in
  // cost/kernel_types.txt; a later line for a type replaces an earlier one.
  std::vector<std::string> kernel_type_files;
  // Ascend CSVs: the idle gap before a task counts as its launch cost up to
  // this many µs; longer gaps are host stalls or step boundaries.
  double max_wait_us = 100;
};

struct ImportResult {
  std::vector<Measurement> rows;
  // Counted skips and averages, one line each ("12 profile events matched
  // no graph node (first: aten::empty, trace.json traceEvents[3])").
  std::vector<std::string> notes;
  ProfileFormat format = ProfileFormat::EqfuseMeasurements;
};

// Reads `text` (named `origin` in messages) in the detected format. Throws
// Error for malformed input (with file:line or the JSON path), negative or
// NaN durations, and a profile of which no event matches the graph; single
// unusable rows are skipped and counted in the notes.
ImportResult import_measurements(std::string_view text, std::string_view origin,
                                 const ImportOptions& options);
ImportResult import_measurements_file(const std::string& path, const ImportOptions& options);

}  // namespace eqfuse
