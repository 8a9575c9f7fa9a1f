// Finding the graphs in a TORCH_COMPILE_DEBUG tree (`torch_compile_debug/
// run_*/...`), so a directory can be given wherever a graph file is read:
//
//   * AOT / Inductor: `fx_graph_readable.py`, `fx_graph_runnable.py`,
//     `fx_graph_transformed.py` (under `torchinductor/model__<id>_<phase>_<n>/`
//     or `aot_torchinductor/...`);
//   * TorchAir / npugraph_ex: the per-pass dumps under a `torchair/` or
//     `npugraph_ex/` folder, `NNN_aot_<phase>_graph_after_<pass>.txt`
//     (any .txt/.py file there whose name contains "graph").
//
// A folder holding both fx_graph_readable.py and fx_graph_runnable.py lists
// the readable one only; the runnable one still provides the example-input
// types (graph/io/runnable_inputs.hpp) of every graph in that folder.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace eqfuse {

struct DebugGraph {
  std::string path;      // the file, as `dir` joined with `relative`
  std::string relative;  // relative to the directory searched, '/'-separated
  std::string runnable;  // fx_graph_runnable.py of the same folder, if any
  size_t nodes = 0;      // node count; 0 when the file does not parse
  std::string error;     // why the file does not parse (empty if it does)
};

// The graphs under `dir`, sorted by relative path. Symlinked folders are not
// followed; unreadable entries are skipped.
std::vector<DebugGraph> find_debug_graphs(const std::string& dir);

// "  1  run_x/.../fx_graph_readable.py  (12 nodes)" lines, one per graph.
std::string list_debug_graphs(const std::vector<DebugGraph>& graphs);

// The index of the graph chosen by `spec`: a number from 1 to the count, or
// a part of the relative path matching exactly one graph. An empty spec
// chooses the only graph. Otherwise throws eqfuse::Error (the message does
// not list the graphs: show list_debug_graphs beside it).
size_t select_debug_graph(const std::vector<DebugGraph>& graphs, std::string_view spec,
                          std::string_view dir);

// Whether `file_name` (no folder) is one of the AOT dump names above.
bool is_aot_graph_file(std::string_view file_name);

}  // namespace eqfuse
