// Running the optimize pipeline with explanations from tests: an FX text or
// a file under the source root in, the input graph, the optimize result and
// the explanation report out.
//
//   Explained e = explain_text(fx, "case.fx");
//   Explained f = explain_source_file("tests/scenarios/fusion/C5_cast_to_bf16_not_float32.fx");
//   EXPECT_FALSE(e.report.near_misses.empty());
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "graph/io/load.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse::testing_support {

struct Explained {
  Graph input;
  OptimizeResult result;
  ExplainReport report;
};

inline Explained explain_text(const std::string& text, const std::string& name,
                              OptimizeOptions opt) {
  const OpRegistry& reg = builtin_registry();
  Explained e{load_graph(text, name, reg).graph, {}, {}};
  opt.record_explanations = true;
  e.result = optimize_graph(e.input, reg, opt);
  e.report = explain_run(e.result, reg);
  return e;
}

inline Explained explain_text(const std::string& text, const std::string& name,
                              ExecMode mode = ExecMode::ReduceOverhead) {
  OptimizeOptions opt;
  opt.rules.mode = mode;
  return explain_text(text, name, opt);
}

// `rel_path` is relative to the source root.
inline Explained explain_source_file(const std::string& rel_path, const OptimizeOptions& opt) {
  std::string path = std::string(EQFUSE_SOURCE_DIR) + "/" + rel_path;
  return explain_text(read_file_or_stdin(path), path, opt);
}

inline Explained explain_source_file(const std::string& rel_path,
                                     ExecMode mode = ExecMode::ReduceOverhead) {
  OptimizeOptions opt;
  opt.rules.mode = mode;
  return explain_source_file(rel_path, opt);
}

// Calls of `op` (qualified name) in the graph.
inline int64_t count_calls(const Graph& g, const std::string& op) {
  std::map<std::string, int64_t> counts = call_target_counts(g);
  auto it = counts.find(op);
  return it == counts.end() ? 0 : it->second;
}

}  // namespace eqfuse::testing_support
