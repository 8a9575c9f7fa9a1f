// Which fusion rule made each fused kernel of an optimize run: the one
// source of truth for `eqfuse optimize`'s per-rule `chosen` counts and
// `fusions`, and for `eqfuse explain`'s "rule" of chosen and unchosen
// fusions.
//
//   FusionCredit credit(*result.state);
//   if (credit.is_new_fused_node(n)) std::string rule = credit.rule_of(n);
//
// A fused op can come from several rules: torchair/bmm-transpose makes
// npu_transpose_batchmatmul with perm_x1 [0, 1, 2], and
// torchair/transpose-batchmatmul-perm-x1 rewrites that into another
// npu_transpose_batchmatmul with perm_x1 [1, 0, 2]. Naming the rule by the
// op would credit both to the first; instead the e-graph's union log says
// which rule application added the e-node (egraph/explain.hpp
// creating_rule), mapped back to the rule's base name (no "-rev", no
// "@stream"). The op's first introducing rule in library order is only the
// fallback, for a node no fusion rule's union added.
#pragma once
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/id.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse {

struct OptimizeState;

class FusionCredit {
 public:
  // `st` must outlive this object.
  explicit FusionCredit(const OptimizeState& st);

  // An op some rule labelled "fusion" introduces (calls in its replace side
  // but not in its search side): a fused kernel.
  // Or the op a rule folds others into without introducing a kernel
  // (mindspore/quant-matmul-bias: npu_quant_matmul takes the add as its bias).
  bool is_fused_op(std::string_view op) const;
  // Labelled "fusion" and its replace side calls a fused op: it introduces
  // one, or turns one into another form of it (the perm_x1 rule).
  bool is_fusion_rule(const RuleDef& rule) const;
  // A fused-op e-node a rewrite added (the input's own fused ops are not
  // fusions).
  bool is_new_fused_node(Id node) const;
  // Base name of the fusion rule whose application added `node` (a new
  // fused node), else of the first rule in library order introducing its
  // op; "" when neither exists.
  std::string rule_of(Id node) const;

 private:
  const OptimizeState& st_;
  // Base name of the rule whose application added `node`; "" if none.
  std::string creating_base_rule(Id node) const;

  std::map<std::string, std::string> first_rule_;           // fused op -> first introducing rule
  std::map<std::string, std::set<std::string>> absorbing_;  // absorbing op -> its rules
  std::map<std::string, std::set<std::string>>
      fused_by_rule_;                                   // fusion rule -> ops of its fused nodes
  std::map<std::string, std::string> base_of_rewrite_;  // compiled rewrite -> base rule name
  // creating_rules of the e-graph, computed on the first question (one pass
  // over the union log, not one per node asked about).
  mutable std::vector<uint32_t> creating_rule_;
  mutable bool creating_rule_ready_ = false;
  std::set<std::string> fusion_rules_;  // base names, is_fusion_rule
};

}  // namespace eqfuse
