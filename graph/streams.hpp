// Stream labels: which NPU stream each node runs on.
//
// TorchAir marks multi-stream regions with scope nodes:
//   torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream1'])
//   ... nodes on stream "stream1" ...
//   torch.ops.air.scope_exit.default()
// assign_stream_labels() walks the graph in program order and sets
// Node::meta.stream to the label of the innermost enclosing scope that
// carries `_user_stream_label`; nodes outside any such scope get "" (the
// default stream). Scopes without that key (e.g. core-limit scopes) inherit
// the enclosing label, so nesting works with a stack. The scope_enter node
// itself gets the label it opens and scope_exit the label it closes.
// Fusion rules must not mix nodes with different labels.
#pragma once
#include <string>
#include <vector>

#include "graph/graph.hpp"

namespace eqfuse {

inline constexpr std::string_view kScopeEnterTarget = "air::scope_enter";
inline constexpr std::string_view kScopeExitTarget = "air::scope_exit";
inline constexpr std::string_view kUserStreamLabelKey = "_user_stream_label";

// Recomputes meta.stream for every node (idempotent). An unmatched
// scope_exit throws Error at its location.
void assign_stream_labels(Graph& g);

// The non-default stream labels the graph's nodes use, sorted ("" is the
// default stream and is not listed).
std::vector<std::string> stream_labels(const Graph& g);

}  // namespace eqfuse
