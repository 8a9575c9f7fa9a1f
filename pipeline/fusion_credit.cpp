// FusionCredit (pipeline/fusion_credit.hpp).
#include "pipeline/fusion_credit.hpp"

#include "egraph/explain.hpp"
#include "pipeline/optimize_state.hpp"

namespace eqfuse {

FusionCredit::FusionCredit(const OptimizeState& st) : st_(st) {
  for (const RuleDef& r : st.library->rules()) {
    if (!r.has_label("fusion")) continue;
    for (const std::string& op : r.introduced_ops()) first_rule_.emplace(op, r.name);
  }
  for (const RuleDef& r : st.library->rules())
    if (is_fusion_rule(r)) fusion_rules_.insert(r.name);
  for (size_t i = 0; i < st.rules.rewrites.size(); ++i)
    base_of_rewrite_.emplace(st.rules.rewrites[i].name(), st.rules.base_name[i]);
}

bool FusionCredit::is_fusion_rule(const RuleDef& rule) const {
  if (!rule.has_label("fusion")) return false;
  for (const Node& n : rule.replace.nodes())
    if (n.kind == NodeKind::Call && is_fused_op(n.target)) return true;
  return false;
}

bool FusionCredit::is_new_fused_node(Id node) const {
  return node >= st_.input_node_ids && is_fused_op(st_.egraph->node_op(node).str());
}

std::string FusionCredit::rule_of(Id node) const {
  const EGraph& g = *st_.egraph;
  if (std::optional<uint32_t> rule = creating_rule(g, node)) {
    auto base = base_of_rewrite_.find(g.rule_name(*rule));
    if (base != base_of_rewrite_.end() && fusion_rules_.count(base->second)) return base->second;
  }
  auto first = first_rule_.find(std::string(g.node_op(node).str()));
  return first == first_rule_.end() ? std::string() : first->second;
}

}  // namespace eqfuse
