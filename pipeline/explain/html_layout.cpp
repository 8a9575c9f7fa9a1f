// Labels, readable terms and region grouping of the HTML explanation
// (pipeline/explain/html_layout.hpp).
#include "pipeline/explain/html_layout.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

namespace eqfuse::html_detail {
namespace {

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The number made by the digits at `at` (nullopt when there are none).
std::optional<int64_t> digits_at(std::string_view s, size_t at) {
  size_t end = at;
  while (end < s.size() && is_digit(s[end]) && end - at < 9) ++end;
  if (end == at) return std::nullopt;
  return std::stoll(std::string(s.substr(at, end - at)));
}

// "arn2_14" -> 14; nullopt without a trailing "_<digits>".
std::optional<int64_t> trailing_number(std::string_view name) {
  size_t us = name.rfind('_');
  if (us == std::string_view::npos || us + 1 == name.size()) return std::nullopt;
  for (size_t i = us + 1; i < name.size(); ++i)
    if (!is_digit(name[i])) return std::nullopt;
  return digits_at(name, us + 1);
}

using KeyFn = std::optional<int64_t> (*)(std::string_view);

// Each node's key, or nullopt; `keyed` counts the nodes that have one.
std::vector<std::optional<int64_t>> keys_of(const Graph& g, KeyFn key, size_t& keyed) {
  std::vector<std::optional<int64_t>> keys;
  keyed = 0;
  for (const Node& n : g.nodes()) {
    keys.push_back(n.kind == NodeKind::Output ? std::nullopt : key(n.name));
    keyed += keys.back().has_value();
  }
  return keys;
}

// Enough nodes keyed, at least two keys, and (when `monotone`) keys that
// almost never decrease along the program: "getitem_3" before
// "npu_rms_norm_1" is FX uniquifying names, not a stack of blocks.
bool keys_usable(const std::vector<std::optional<int64_t>>& keys, size_t keyed, bool monotone) {
  if (keys.empty() || 2 * keyed < keys.size()) return false;
  std::optional<int64_t> prev, first;
  size_t drops = 0;
  bool several = false;
  for (const auto& k : keys) {
    if (!k) continue;
    if (!first) first = k;
    several |= *k != *first;
    if (prev && *k < *prev) ++drops;
    prev = k;
  }
  // Placeholders listed up front (one per block) drop once to the first block.
  return several && (!monotone || drops * 50 <= keyed + 50);
}

// Regions by key; a node without a key joins the region of the keyed node
// before it (the first region when none came before).
Regions by_keys(const std::vector<std::optional<int64_t>>& keys, std::string_view scheme) {
  std::map<int64_t, size_t> index;
  for (const auto& k : keys)
    if (k) index.emplace(*k, 0);
  Regions r;
  r.scheme = scheme;
  for (auto& [key, i] : index) {
    i = r.titles.size();
    r.titles.push_back(fmt::format("{} {}", scheme, key));
  }
  r.sizes.assign(r.titles.size(), 0);
  std::optional<size_t> current;
  for (const auto& k : keys) {
    if (k) current = index.at(*k);
    r.of_node.push_back(current.value_or(0));  // nothing keyed yet: the first region
  }
  for (size_t i : r.of_node) ++r.sizes[i];
  return r;
}

Regions fixed_regions(size_t nodes, size_t region_size) {
  Regions r;
  r.scheme = "region";
  region_size = std::max<size_t>(region_size, 1);
  for (size_t i = 0; i < nodes; ++i) r.of_node.push_back(i / region_size);
  for (size_t start = 0; start < nodes; start += region_size) {
    size_t last = std::min(nodes, start + region_size) - 1;
    r.titles.push_back(fmt::format("nodes {}-{}", start, last));
    r.sizes.push_back(last - start + 1);
  }
  return r;
}

}  // namespace

std::string escape_dot(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

std::string short_op(std::string_view target) {
  size_t colon = target.rfind("::");
  if (colon != std::string_view::npos) target.remove_prefix(colon + 2);
  size_t dot = target.find('.');
  return std::string(target.substr(0, dot));
}

bool op_repeats_name(std::string_view name, std::string_view op) {
  if (name == op) return true;
  if (!name.starts_with(op) || name.size() < op.size() + 2 || name[op.size()] != '_') return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(op.size()) + 1, name.end(),
                     is_digit);
}

std::vector<std::string> node_label_lines(const Node& n) {
  switch (n.kind) {
    case NodeKind::Placeholder:
      return {n.name};
    case NodeKind::GetAttr:
      return {n.name, n.target};
    case NodeKind::GetItem:
      return {fmt::format("{}[{}]", n.name, n.getitem_index())};
    case NodeKind::Output:
      return {"output"};
    case NodeKind::Call: {
      std::string op = short_op(n.target);
      if (op_repeats_name(n.name, op)) return {n.name};
      return {n.name, op};
    }
  }
  return {n.name};
}

std::string readable_term(std::string_view term) {
  std::string out;
  size_t i = 0;
  while (i < term.size()) {
    // An op token follows "(": drop "ns::" and ".overload" from it.
    if (term[i] == '(' && i + 1 < term.size()) {
      size_t end = term.find_first_of(" ()", i + 1);
      if (end == std::string_view::npos) end = term.size();
      std::string_view op = term.substr(i + 1, end - i - 1);
      size_t at = op.find('@');  // "op@name" of an opaque op: keep the op part
      out += '(' + short_op(op.substr(0, at));
      i = end;
      continue;
    }
    out += term[i++];
  }
  return out;
}

std::optional<int64_t> layer_number(std::string_view name) {
  // "l12_..." as gen_layer_stack and dynamo ("l__self___layers_0") name them.
  if (name.size() > 2 && name[0] == 'l' && is_digit(name[1])) {
    size_t end = 1;
    while (end < name.size() && is_digit(name[end])) ++end;
    if (end < name.size() && name[end] == '_') return digits_at(name, 1);
  }
  for (std::string_view word : {"layers", "layer", "blocks", "block"}) {
    size_t at = name.find(word);
    if (at == std::string_view::npos) continue;
    size_t d = at + word.size();
    if (d < name.size() && (name[d] == '.' || name[d] == '_')) ++d;
    if (auto n = digits_at(name, d)) return n;
  }
  return std::nullopt;
}

Regions group_regions(const Graph& g, size_t region_size) {
  size_t keyed = 0;
  auto layers = keys_of(g, &layer_number, keyed);
  if (keys_usable(layers, keyed, false)) return by_keys(layers, "layer");
  auto blocks = keys_of(g, &trailing_number, keyed);
  if (keys_usable(blocks, keyed, true)) return by_keys(blocks, "block");
  return fixed_regions(g.size(), region_size);
}

}  // namespace eqfuse::html_detail
