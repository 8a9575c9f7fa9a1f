// The eqfuse-graph JSON format: a lossless, machine-friendly mirror of the
// FX graph IR (one JSON object per node: name, op kind, target, args,
// kwargs, meta). Documented with a full example in docs/graph-json.md.
//
//   std::string text = save_graph_json(g);
//   Graph back = load_graph_json(text, "model.json");   // back == g
//
// Loading validates everything (format tag, version, node kinds, that every
// node reference names an earlier node, getitem shapes, type strings) and
// throws eqfuse::Error whose message names the JSON path and the node,
// e.g. `nodes[4] (add_1).args[1]: unknown node 'foo'`. Malformed JSON text
// becomes an Error at the line/column nlohmann reports.
#pragma once
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "graph/graph.hpp"

namespace eqfuse {

inline constexpr std::string_view kGraphJsonFormat = "eqfuse-graph";
inline constexpr int kGraphJsonVersion = 1;

class OpRegistry;

// The document as a JSON value (keys in a stable, readable order). Calls
// are written with their args/kwargs as stored, except that when `reg` is
// given, calls normalized by resolve_ops() are written the way torch writes
// them (positional arguments up to the last non-default one, keyword-only
// arguments as kwargs when not default), so that loading the document and
// resolving it again gives the same graph.
nlohmann::ordered_json graph_to_json(const Graph& g, const OpRegistry* reg = nullptr);
// `indent` < 0 gives one line; otherwise pretty-printed. Ends with '\n'.
std::string save_graph_json(const Graph& g, int indent = 2, const OpRegistry* reg = nullptr);

// Builds a Graph from a parsed document. `file_name` only labels errors.
Graph graph_from_json(const nlohmann::ordered_json& doc, std::string_view file_name);
// Parses and loads JSON text.
Graph load_graph_json(std::string_view text, std::string_view file_name);

// True if `text` is a JSON object whose "format" is "eqfuse-graph"; never
// throws. Used to tell JSON input from FX text.
bool is_graph_json(std::string_view text);

// Arg and type encodings, exposed for tests and other JSON producers.
nlohmann::ordered_json arg_to_json(const Arg& arg, const Graph& g);
nlohmann::ordered_json type_to_json(const ValueType& t);
// Throws std::invalid_argument describing the problem (callers add the path).
ValueType type_from_json(const nlohmann::ordered_json& j);

}  // namespace eqfuse
