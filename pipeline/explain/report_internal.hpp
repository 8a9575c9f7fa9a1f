// Internals of the explain report shared by its source files: the lookup
// context every analysis reads (Ctx) and the analyses one file computes and
// another uses. Not part of the public API; include
// pipeline/explain/report.hpp instead.
//
//   report.cpp           explain_run, annotate_fusions, rejected matches and
//                        cross-stream near misses
//   report_regions.cpp   what a fused node covers, replaces and brings along
//   report_chosen.cpp    the chosen fusions (costs, replaced nodes, proofs)
//   report_unchosen.cpp  fusions possible but not chosen, and why
//   report_text.cpp      the text rendering and the one-line sentences
//   report_json.cpp      the JSON rendering (stable keys, docs/explain.md)
//
// Vocabulary: an "extracted class" is a canonical e-class the extraction
// chose a node for; the "region" of a fused node is what it would replace:
// walking from the classes its outputs cover towards the inputs, stopping at
// the fused node's own inputs (and at anything those inputs depend on, which
// is needed either way).
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "pipeline/egraph_cost.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/fusion_credit.hpp"
#include "pipeline/optimize_state.hpp"

namespace eqfuse::explain_detail {

// Everything the analyses look up, computed once per report.
struct Ctx {
  const OptimizeResult& r;
  const OptimizeState& st;
  const EGraph& g;
  const OpRegistry& reg;
  FusionCredit credit;  // which rule made a fused node
  // Canonical class -> input node indices, in input order (looked up, never iterated).
  absl::flat_hash_map<Id, std::vector<size_t>> inputs_at;
  std::map<Id, Id> chosen;  // extracted class -> chosen e-node (iterated in class order)
  // Class -> extracted classes using it (looked up, never iterated).
  absl::flat_hash_map<Id, std::vector<Id>> users;
  absl::flat_hash_set<Id> roots;

  Ctx(const OptimizeResult& res, const OpRegistry& registry)
      : r(res), st(*res.state), g(*res.state->egraph), reg(registry), credit(*res.state) {
    for (size_t i = 0; i < st.input.nodes().size() && i < st.loaded.node_class.size(); ++i)
      if (st.loaded.node_class[i] != kNoId) inputs_at[g.find(st.loaded.node_class[i])].push_back(i);
    for (Id cls : st.problem.eclass_of) {
      Id n = st.problem.chosen_node(st.extraction, cls);
      if (n != kNoId) chosen.emplace(cls, n);
    }
    for (const auto& [cls, n] : chosen)
      for (Id child : g.node(n).children) users[g.find(child)].push_back(cls);
    for (Id root : st.loaded.roots) roots.insert(g.find(root));
  }

  std::string op_name(Id n) const { return std::string(g.node_op(n).str()); }
  // A fused op the rewrites added (the input's own fused ops are not fusions).
  bool is_fused(Id n) const { return credit.is_new_fused_node(n); }
  bool is_getitem(Id n) const { return g.node_op(n).str() == graph_ops::kGetItem; }
  bool extracted(Id cls) const { return chosen.count(cls) > 0; }
  CostBreakdown cost(Id n) const {
    if (st.folded.contains(n)) {
      CostBreakdown c;
      c.note = std::string(kFoldedNote);
      return c;
    }
    return enode_cost(g, *st.types, reg, *st.model, n);
  }
  // The input name of a class, else a description of its chosen node
  // ("npu_add_rms_norm_quant[2]" for a projection of a new node).
  std::string name_of(Id cls) const {
    auto it = inputs_at.find(cls);
    if (it != inputs_at.end()) return st.input.nodes()[it->second.front()].name;
    auto ch = chosen.find(cls);
    if (ch == chosen.end()) return fmt::format("e-class {}", cls);
    NodeView n = g.node(ch->second);
    if (is_getitem(ch->second) && n.children.size() == 2) {
      std::optional<Constant> index = g.constant_of(g.find(n.children[1]));
      return fmt::format("{}[{}]", name_of(g.find(n.children[0])),
                         index ? index->to_string() : "?");
    }
    return short_name(op_name(ch->second));
  }
  // The input node at a class, preferring one whose op is `op` (a class
  // can hold several input nodes, e.g. a no-op cast and its operand).
  std::string site_name(Id cls, std::string_view op) const {
    auto it = inputs_at.find(cls);
    if (it != inputs_at.end())
      for (size_t i : it->second)
        if (st.input.nodes()[i].target == op) return st.input.nodes()[i].name;
    return name_of(cls);
  }
  static std::string short_name(const std::string& op) {
    size_t colon = op.find("::");
    return colon == std::string::npos ? op : op.substr(colon + 2);
  }
  // Same op, payload and (canonical) children: the same term up to equality.
  bool same_enode(Id a, Id b) const {
    NodeView x = g.node(a), y = g.node(b);
    if (x.op != y.op || x.payload != y.payload || x.children.size() != y.children.size())
      return false;
    for (size_t i = 0; i < x.children.size(); ++i)
      if (g.find(x.children[i]) != g.find(y.children[i])) return false;
    return true;
  }
  // An input node survives when its e-node is the one chosen for its class.
  bool input_kept(size_t i) const {
    Id n = st.loaded.node_class.at(i);
    if (n == kNoId) return true;
    auto it = chosen.find(g.find(n));
    return it != chosen.end() && same_enode(it->second, n);
  }
};

// ---- the region of a fused node (report_regions.cpp) ---------------------------

// The classes a fused node's inputs are (looking through prim::list nodes).
std::set<Id> input_classes(const Ctx& c, Id fused);
// Classes the extracted graph needs to compute `seeds` (a bounded walk down).
absl::flat_hash_set<Id> needed_anyway(const Ctx& c, const std::set<Id>& seeds);
// Extracted classes whose value the fused node (in class `fused_cls`) would provide.
std::vector<Id> covered_classes(const Ctx& c, Id fused_cls);
// The extracted classes between `covered` and the fused node's inputs.
std::set<Id> extracted_region(const Ctx& c, const std::vector<Id>& covered,
                              const absl::flat_hash_set<Id>& stop);
// The kernels a fused node brings with it, priced.
CostSum new_operands_cost(const Ctx& c, Id fused, bool chosen_side);

// ---- the fusions (report_chosen.cpp, report_unchosen.cpp) ----------------------

std::vector<ChosenFusion> chosen_fusions(const Ctx& c, const ExplainOptions& opt);
// Fused e-nodes not chosen whose value sits in an extracted class.
std::vector<Id> unchosen_candidates(const Ctx& c);
UnchosenFusion explain_unchosen(const Ctx& c, Id fused);

}  // namespace eqfuse::explain_detail
