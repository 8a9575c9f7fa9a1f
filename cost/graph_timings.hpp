// Whole-graph timings and what the cost model predicts for them: the
// whole-graph file (`eqfuse calibrate --whole-graph`, `eqfuse cost
// --compare`), the prediction per graph and mode, the fit of the per-node
// and per-graph overheads that only whole graphs show, fit-quality
// statistics and leave-one-graph-out validation (docs/cost-model.md,
// "Whole graphs" and "Validation").
//
//   std::vector<TimedGraph> graphs = load_timed_graphs("whole_graph_times.json", reg);
//   for (const GraphPrediction& p : predict_graphs(profile, graphs, reg, {}))
//     fmt::print("{} {}: {} vs {}\n", p.graph, exec_mode_name(p.mode), p.predicted_us,
//                p.measured_us);
//   std::vector<HeldOutGraph> cv = leave_one_graph_out(base, rows, graphs, reg, {});
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cost/calibrate.hpp"

namespace eqfuse {

// One graph with its measured whole-graph times (the mean of its runs per mode).
struct GraphTiming {
  ExecMode mode = ExecMode::Eager;
  double measured_us = 0;  // mean over runs
  double min_us = 0, max_us = 0;
  size_t runs = 0;
};

struct TimedGraph {
  std::string name;  // as the timings file names it ("llama.fx")
  std::string path;  // resolved against the timings file's folder
  Graph graph;
  std::vector<GraphTiming> timings;
};

// Reads {"graphs": {"<file>": [{"eager_us": T, "graph_replay_us": T, ...}, ...]}}:
// one object per run; keys "<mode>_us" for every mode name and alias
// ("reduce-overhead_us", "aclgraph_us", ...) plus "graph_replay_us"
// (= reduce-overhead). Graph files are relative to the timings file. Errors
// name the file and the JSON path.
std::vector<TimedGraph> load_timed_graphs(const std::string& path, const OpRegistry& reg);
std::vector<TimedGraph> parse_timed_graphs(std::string_view json_text, std::string_view origin,
                                           const OpRegistry& reg);

struct GraphPrediction {
  std::string graph;
  ExecMode mode = ExecMode::Eager;
  double measured_us = 0;
  double predicted_us = 0;  // the DAG cost: what extraction minimises
  double simulated_us = 0;  // the two-queue simulation (report figure)
  size_t call_nodes = 0, kernels = 0;
  double error() const { return (predicted_us - measured_us) / measured_us; }
};

// The prediction for every (graph, mode) timing.
std::vector<GraphPrediction> predict_graphs(const DeviceProfile& profile,
                                            std::span<const TimedGraph> graphs,
                                            const OpRegistry& reg, const SymbolHints& hints);

// Fits the costs that single-op rows cannot show: per mode with a host side
// host_node_us.<mode> (the host time per call node of running a graph
// from Python), otherwise per_graph_us.<mode>; minimises the relative error
// of the whole-graph predictions. Returns the parameters changed.
std::vector<FittedParam> fit_graph_overheads(DeviceProfile& profile,
                                             std::span<const TimedGraph> graphs,
                                             const OpRegistry& reg, const SymbolHints& hints);

// Relative-error statistics of a set of rows (after the fit).
struct FitQuality {
  size_t rows = 0;
  double median = 0, p90 = 0, max = 0, rel_rms = 0;  // of |model - measured| / measured
  double mean_signed = 0;                            // bias: > 0 the model is slow
};
FitQuality fit_quality(std::span<const RowFit> rows);

// Per op and mode: the rows' quality, sorted by op.
struct OpQuality {
  std::string op;
  ExecMode mode = ExecMode::Eager;
  FitQuality quality;
};
std::vector<OpQuality> quality_by_op(std::span<const RowFit> rows);
// Quality per mode, kernels and free ops apart, in kAllExecModes order
// (kernels first); groups without rows are left out.
struct ModeQuality {
  ExecMode mode;
  bool kernel;
  FitQuality quality;
};
std::vector<ModeQuality> quality_by_mode(std::span<const RowFit> rows);

// Leave-one-graph-out: for each graph, fit on the rows that the other
// graphs' nodes use (a row belongs to every graph with a node of its
// signature; rows of no graph always train) and on the other graphs'
// whole-graph times, then predict this graph's rows and whole times.
struct HeldOutGraph {
  std::string graph;
  std::vector<RowFit> rows;    // this graph's rows under the profile fitted without it
  size_t unseen_rows = 0;      // rows no other graph uses (the fit never saw their kernel)
  FitQuality kernels, unseen;  // kernel rows: all, and the unseen ones
  std::vector<GraphPrediction> whole;
};
std::vector<HeldOutGraph> leave_one_graph_out(const DeviceProfile& base,
                                              std::span<const Measurement> rows,
                                              std::span<const TimedGraph> graphs,
                                              const OpRegistry& reg,
                                              const CalibrateOptions& options);

std::string format_predictions(std::span<const GraphPrediction> predictions);
std::string format_quality(std::span<const RowFit> rows, std::string_view title);
std::string format_held_out(std::span<const HeldOutGraph> held_out);

}  // namespace eqfuse
