// FusionCredit (pipeline/fusion_credit.hpp).
#include "pipeline/fusion_credit.hpp"

#include "egraph/explain.hpp"
#include "pipeline/optimize_state.hpp"

namespace eqfuse {
namespace {

// A view or size query a rule adds launches nothing: not a fused kernel.
bool is_free_op(const OpRegistry& reg, const std::string& op) {
  std::optional<OpId> id = reg.find(op);
  return id && reg.info(*id).traits.kind == OpKind::Free;
}

// The ops whose calls produce a rule's replace outputs, directly or
// through projections.
std::set<std::string> output_producer_ops(const RuleDef& r) {
  std::set<std::string> out;
  for (NodeRef o : r.replace.output_values()) {
    const Node* n = &r.replace.node(o);
    if (n->kind == NodeKind::GetItem) n = &r.replace.node(n->getitem_source());
    if (n->kind == NodeKind::Call) out.insert(n->target);
  }
  return out;
}

// The op of a rule's fused node: the introduced op that produces its outputs,
// e.g. npu_add_rms_norm_quant, or mindspore/matmul-split's split_with_sizes,
// whose projections stand where the separate matmuls were. A rule whose
// outputs come from ops its search has too (vllm/quantize-mul-as-div:
// npu_quantize) is credited by the kernels it introduces (reciprocal).
std::set<std::string> fused_ops_of(const RuleDef& r, const OpRegistry& reg) {
  const std::set<std::string> introduced = r.introduced_ops();
  std::set<std::string> producers;
  for (const std::string& op : output_producer_ops(r))
    if (introduced.count(op)) producers.insert(op);
  if (!producers.empty()) return producers;
  std::set<std::string> kernels;
  for (const std::string& op : introduced)
    if (!is_free_op(reg, op)) kernels.insert(op);
  return kernels;
}

}  // namespace

FusionCredit::FusionCredit(const OptimizeState& st) : st_(st) {
  const OpRegistry& reg = st.library->registry();
  for (const RuleDef& r : st.library->rules()) {
    if (!r.has_label("fusion")) continue;
    std::set<std::string> fused = fused_ops_of(r, reg);
    for (const std::string& op : fused) first_rule_.emplace(op, r.name);
    // What the rule's own fused nodes may be: its fused ops and the ops that
    // produce its outputs (torchair/transpose-batchmatmul-perm-x1 rewrites an
    // npu_transpose_batchmatmul its search already has).
    std::set<std::string> own = output_producer_ops(r);
    own.insert(fused.begin(), fused.end());
    fused_by_rule_.emplace(r.name, std::move(own));
    // A rule that introduces no kernel but folds ops into one its search has
    // too (mindspore/quant-matmul-bias: the add goes into npu_quant_matmul's
    // bias) absorbs into its output producers, which its search has (none is
    // introduced). Credited only to nodes that rule made: other rules rewrite
    // those ops without fusing anything.
    if (fused.empty())
      for (const std::string& op : output_producer_ops(r)) absorbing_[op].insert(r.name);
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

bool FusionCredit::is_fused_op(std::string_view op) const {
  return first_rule_.count(std::string(op)) > 0 || absorbing_.count(std::string(op)) > 0;
}

bool FusionCredit::is_new_fused_node(Id node) const {
  if (node < st_.input_node_ids) return false;
  const std::string op(st_.egraph->node_op(node).str());
  const std::string by = creating_base_rule(node);
  if (first_rule_.count(op)) {
    // A kernel a fusion rule adds beside its fused op (the reciprocal of
    // vllm/add-rms-norm-bias-quantize) is another rule's fused op at most:
    // the site is credited once, by its fused op.
    auto made_by = fused_by_rule_.find(by);
    return made_by == fused_by_rule_.end() || made_by->second.count(op) > 0;
  }
  auto absorbing = absorbing_.find(op);
  if (absorbing == absorbing_.end()) return false;
  return absorbing->second.count(by) > 0;
}

std::string FusionCredit::creating_base_rule(Id node) const {
  const EGraph& g = *st_.egraph;
  if (!creating_rule_ready_) {
    creating_rule_ = creating_rules(g);
    creating_rule_ready_ = true;
  }
  const uint32_t rule = node < creating_rule_.size() ? creating_rule_[node] : kNoCreatingRule;
  if (rule == kNoCreatingRule) return {};
  auto base = base_of_rewrite_.find(g.rule_name(rule));
  return base == base_of_rewrite_.end() ? std::string() : base->second;
}

std::string FusionCredit::rule_of(Id node) const {
  const EGraph& g = *st_.egraph;
  std::string by = creating_base_rule(node);
  if (!by.empty() && fusion_rules_.count(by)) return by;
  auto first = first_rule_.find(std::string(g.node_op(node).str()));
  return first == first_rule_.end() ? std::string() : first->second;
}

}  // namespace eqfuse
