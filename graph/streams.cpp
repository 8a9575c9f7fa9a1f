#include "graph/streams.hpp"

#include <set>
#include <string>
#include <vector>

namespace eqfuse {
namespace {

// The label a scope_enter opens: the value paired with `_user_stream_label`
// in its (keys, values) list arguments, or nullopt when the key is absent.
std::optional<std::string> opened_label(const Node& enter) {
  if (enter.args.size() < 2 || !enter.args[0].is_list() || !enter.args[1].is_list())
    return std::nullopt;
  const auto& keys = enter.args[0].as_list().items;
  const auto& values = enter.args[1].as_list().items;
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
    const auto* key = std::get_if<std::string>(&keys[i].value);
    if (!key || *key != kUserStreamLabelKey) continue;
    if (const auto* v = std::get_if<std::string>(&values[i].value)) return *v;
    if (const auto* n = std::get_if<int64_t>(&values[i].value)) return std::to_string(*n);
  }
  return std::nullopt;
}

}  // namespace

void assign_stream_labels(Graph& g) {
  std::vector<std::string> stack;  // innermost scope label last
  for (Node& n : g.nodes()) {
    const bool is_call = n.kind == NodeKind::Call;
    if (is_call && n.target == kScopeEnterTarget) {
      auto label = opened_label(n);
      stack.push_back(label ? *label : (stack.empty() ? std::string() : stack.back()));
      n.meta.stream = stack.back();
      continue;
    }
    n.meta.stream = stack.empty() ? std::string() : stack.back();
    if (is_call && n.target == kScopeExitTarget) {
      if (stack.empty())
        fail(n.meta.loc, "'{}' closes a stream scope that was never opened", n.name);
      stack.pop_back();
    }
  }
}

std::vector<std::string> stream_labels(const Graph& g) {
  std::set<std::string> labels;
  for (const Node& n : g.nodes())
    if (!n.meta.stream.empty()) labels.insert(n.meta.stream);
  return {labels.begin(), labels.end()};
}

}  // namespace eqfuse
