// One entry point for reading a graph the way the CLI and tools do:
//
//   OpRegistry reg = OpRegistry::with_builtin_ops();
//   LoadedGraph in = load_graph(read_file_or_stdin(path), path, reg,
//                               {.input_types = parse_input_types(spec)});
//   // in.graph is resolved (calls normalized) and typed; in.opaque_ops
//   // lists the targets the registry does not know (left opaque).
//
// The format is taken from the content: text whose first non-blank
// character is '{' is the eqfuse-graph JSON format (graph_json.hpp), and
// anything else is FX text (fx_parser.hpp). Every failure is an
// eqfuse::Error with a location.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/io/input_types.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

enum class GraphFormat { Fx, Json };
std::string_view graph_format_name(GraphFormat f);  // "fx", "json"

struct LoadOptions {
  InputTypes input_types;  // applied to placeholders before inference
  bool infer = true;       // run infer_types after resolve_ops
};

struct LoadedGraph {
  Graph graph;
  GraphFormat format = GraphFormat::Fx;
  std::vector<std::string> opaque_ops;  // sorted, unique
};

// The format `text` is in (see above).
GraphFormat detect_graph_format(std::string_view text);

// Parses, applies input types, resolves ops and infers types.
LoadedGraph load_graph(std::string_view text, std::string_view file_name, const OpRegistry& reg,
                       const LoadOptions& options = {});

// Reads a whole file, or standard input for "-". Throws Error naming the
// path (and the OS reason) when it cannot be read.
std::string read_file_or_stdin(const std::string& path);

}  // namespace eqfuse
