// The FX graph passes that run on the extracted graph, as one ordered list:
// what the e-graph cannot express (buffers shared by a cat's producers,
// in-place writes) is done on the emitted graph by the passes of passes/.
// The list is the one place that says which pass runs, when, and in what
// order, as rewrites/library/registry.txt does for the rule files.
#pragma once
#include <span>
#include <string_view>

#include "pipeline/optimize.hpp"

namespace eqfuse {

struct PostExtractionPass {
  std::string_view phase;  // its time in OptimizeStats::phase_ms (summary, --stats-json)
  // Whether it runs under these options; a pass that does not run records no phase.
  bool (*runs)(const OptimizeOptions& opt);
  void (*run)(OptimizeResult& result, const OpRegistry& reg, const OptimizeOptions& opt);
};

// In the order optimize_graph runs them.
std::span<const PostExtractionPass> post_extraction_passes();

}  // namespace eqfuse
