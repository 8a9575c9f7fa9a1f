// What the HTML explanation (pipeline/explain/html.hpp) shows about a graph,
// apart from drawing it: node labels without repetition ("bmm_1" rather
// than "bmm_1 / bmm"), HTML escaping, readable proof terms, and the grouping
// of a large graph into layers or fixed-size regions for the page's
// clickable overview.
//
//   std::vector<std::string> lines = node_label_lines(node);  // {"add", "add_"}
//   Regions r = group_regions(graph);  // r.of_node[i]: region of node i
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/html_text.hpp"
#include "graph/graph.hpp"

namespace eqfuse::html_detail {

using eqfuse::escape_html;  // base/html_text.hpp

// Text for a double-quoted DOT string: `"` and `\` escaped.
std::string escape_dot(std::string_view s);

// "npu::npu_add_rms_norm.default" -> "npu_add_rms_norm"
std::string short_op(std::string_view target);

// True when printing `op` under the node name `name` adds nothing: the name
// is the op, or the op with FX's "_<n>" uniquifying suffix ("bmm_3").
bool op_repeats_name(std::string_view name, std::string_view op);

// A node's label: its name, then its op only when the op says something
// the name does not (placeholders and outputs have no op line).
std::vector<std::string> node_label_lines(const Node& n);

// A proof term with namespaces and overload names dropped
// ("(aten::bmm.default x y)" -> "(bmm x y)"): the rule names next to each
// step say where ops come from.
std::string readable_term(std::string_view term);

// The layer number a node name carries ("layers.12.mlp", "layer_3",
// "blocks.4", "l12_getitem"); nullopt when it has none.
std::optional<int64_t> layer_number(std::string_view name);

// Groups of nodes in program order. The scheme is "layer" when most node
// names carry a layer number, "block" when most end in a "_<n>" suffix
// that grows along the program (a generated stack: "arn_0", ..., "arn_1"),
// else "region": fixed runs of `region_size` nodes.
struct Regions {
  std::string scheme;               // "layer" | "block" | "region"
  std::vector<size_t> of_node;      // region index of every node
  std::vector<std::string> titles;  // "layer 3", "block 12", "nodes 64-127"
  std::vector<size_t> sizes;        // nodes in each region
};

inline constexpr size_t kDefaultRegionSize = 64;

Regions group_regions(const Graph& g, size_t region_size = kDefaultRegionSize);

}  // namespace eqfuse::html_detail
