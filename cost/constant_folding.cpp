// Frozen inputs (docs/cost-model.md "Frozen inputs"): the patterns and their
// check, which ops a runtime may fold, and which nodes of a graph are constant
// (computed once, not per call). Apart from graph_cost.cpp, which only asks
// constant_nodes which calls to price as folded.
#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "cost/cost_model.hpp"
#include "cost/cost_model_internal.hpp"

namespace eqfuse {
namespace {

// Per node of `g`: the calls that write its memory in place (directly or through views
// of it).
std::vector<std::vector<int32_t>> in_place_writers(const Graph& g, const OpRegistry& reg) {
  std::vector<std::vector<int32_t>> writers(g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    const OpSchema& schema = reg.info(n.op).schema;
    for (size_t a = 0; a < schema.args.size() && a < n.args.size(); ++a) {
      if (!schema.args[a].mutates() || !n.args[a].is_node()) continue;
      for (NodeRef r = n.args[a].node();;) {  // the written value and the bases it views
        writers[static_cast<size_t>(r.index)].push_back(static_cast<int32_t>(i));
        const Node& v = g.node(r);
        if (v.kind != NodeKind::Call || v.op == kNoOp || !reg.info(v.op).traits.is_view ||
            v.args.empty() || !v.args[0].is_node())
          break;
        r = v.args[0].node();
      }
    }
  }
  return writers;
}

// Whether the in-place call `n` writes only memory the graph itself made (no graph
// input, through views or not): such a write, done once from constant values, is part
// of computing a constant. A write into an input changes it on every call.
bool writes_only_intermediates(const Graph& g, const OpRegistry& reg, const Node& n) {
  const OpSchema& schema = reg.info(n.op).schema;
  for (size_t a = 0; a < schema.args.size() && a < n.args.size(); ++a) {
    if (!schema.args[a].mutates() || !n.args[a].is_node()) continue;
    for (NodeRef r = n.args[a].node();;) {
      const Node& v = g.node(r);
      if (v.kind == NodeKind::Placeholder || v.kind == NodeKind::GetAttr) return false;
      if (v.kind != NodeKind::Call || v.op == kNoOp || !reg.info(v.op).traits.is_view ||
          v.args.empty() || !v.args[0].is_node())
        break;
      r = v.args[0].node();
    }
  }
  return true;
}

}  // namespace

namespace cost_detail {

// Per node of `g`: its value is the same on every call (a frozen input, or a foldable
// call of such values and literals). A frozen input written in place is not; an
// intermediate is not when a call that is not itself constant writes it (the
// reinplace passes turn `arange(n) + 0` into an in-place add of constants, which stays
// constant). All false when the model folds nothing.
std::vector<bool> constant_nodes(const Graph& g, const OpRegistry& reg, const CostModel& model) {
  std::vector<bool> constant(g.size(), false);
  if (!model.folds_constants()) return constant;
  const std::vector<std::vector<int32_t>> writers = in_place_writers(g, reg);
  std::vector<bool> excluded(g.size(), false);  // written by a call that is not constant
  for (bool changed = true; changed;) {         // monotone: each round only excludes more
    for (size_t i = 0; i < g.size(); ++i) {
      const Node& n = g.node(NodeRef{static_cast<int32_t>(i)});
      constant[i] = false;
      if (excluded[i]) continue;
      switch (n.kind) {
        case NodeKind::Placeholder:
        case NodeKind::GetAttr:
          constant[i] = writers[i].empty() &&
                        model.is_frozen_input(n.kind == NodeKind::GetAttr ? n.target : n.name);
          break;
        case NodeKind::GetItem:
        case NodeKind::Call: {
          if (n.kind == NodeKind::Call) {
            if (n.op == kNoOp) break;
            const OpInfo& info = reg.info(n.op);
            const bool in_place_on_own = info.schema.mutates_any() &&
                                         writes_only_intermediates(g, reg, n) &&
                                         is_foldable_op(&info, /*allow_in_place=*/true);
            if (!is_foldable_op(&info) && !in_place_on_own) break;
          }
          bool all = true;
          for (NodeRef a : node_inputs(n)) all = all && constant[static_cast<size_t>(a.index)];
          constant[i] = all;
          break;
        }
        default:
          break;
      }
    }
    changed = false;
    for (size_t i = 0; i < g.size(); ++i) {
      if (excluded[i]) continue;
      for (int32_t w : writers[i]) {
        if (constant[static_cast<size_t>(w)]) continue;
        excluded[i] = true;
        changed = true;
        break;
      }
    }
  }
  return constant;
}

}  // namespace cost_detail

bool wildcard_match(std::string_view pattern, std::string_view text) {
  size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1, t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

// Every frozen-input pattern must name a graph input: one that matches nothing is a
// typo that would silently fold nothing.
void check_frozen_inputs(const Graph& input, const std::vector<std::string>& patterns) {
  if (patterns.empty()) return;
  std::vector<std::string> inputs;
  for (size_t i = 0; i < input.size(); ++i) {
    const Node& n = input.node(NodeRef{static_cast<int32_t>(i)});
    if (n.kind == NodeKind::Placeholder) inputs.push_back(n.name);
    if (n.kind == NodeKind::GetAttr) inputs.push_back(n.target);
  }
  for (const std::string& p : patterns) {
    if (p.empty()) throw Error("frozen inputs: an empty pattern");
    if (std::none_of(inputs.begin(), inputs.end(),
                     [&](const std::string& name) { return wildcard_match(p, name); })) {
      std::string list;
      for (const std::string& name : inputs) list += (list.empty() ? "" : ", ") + name;
      throw Error(fmt::format("frozen inputs: '{}' matches no graph input (inputs: {})", p,
                              list.empty() ? "none" : list));
    }
  }
}

bool CostModel::is_frozen_input(std::string_view name) const {
  return std::any_of(frozen_.begin(), frozen_.end(),
                     [&](const std::string& p) { return wildcard_match(p, name); });
}

bool is_foldable_op(const OpInfo* info, bool allow_in_place) {
  if (info == nullptr || (info->schema.mutates_any() && !allow_in_place)) return false;
  // Random draws differ per call; dropout draws its mask.
  static const std::set<std::string, std::less<>> kRandom = {
      "rand",         "randn",           "randint",        "rand_like",       "randn_like",
      "randint_like", "randperm",        "bernoulli",      "normal",          "uniform",
      "multinomial",  "poisson",         "exponential",    "geometric",       "cauchy",
      "log_normal",   "dropout",         "native_dropout", "feature_dropout", "alpha_dropout",
      "rrelu",        "rrelu_with_noise"};
  return !kRandom.contains(info->schema.name);
}
}  // namespace eqfuse
