// Structural near misses for `eqfuse explain` (NearMiss in
// pipeline/explain/report.hpp): places where a fusion rule's search pattern
// almost matched the saturated e-graph, so no condition ever ran and the
// RejectionLog has nothing to say about the fusion.
//
//   std::vector<NearMiss> m = find_near_misses(*result.state, reg, site_name, value_name);
//
// Two kinds, merged per (rule, site):
//  * literal: every op of the pattern matches but a literal argument (a
//    dtype, transpose dims, dst_type, an int list, a defaulted None) differs
//    from the rule's. Found by matching the search pattern with its
//    literals relaxed to variables (rewrites/rule.hpp compile_search_pattern)
//    against the saturated e-graph (C5: a cast to bf16 where rule (c) needs
//    float32; D10: transpose(-1, -2) where rule (d) needs dims 0 and 1);
//  * behind a layout rule: the pattern would match had a layout rule whose
//    condition failed rewritten the site (B4: the view before the dynamic
//    quant is not a flatten, so layout/dynamic-quant-through-view refused to
//    move the quant next to the norm). Found by replaying the right side of
//    each rejected layout match (Rejection::values) in an overlay of the
//    e-graph (new nodes and merges that the e-graph itself never sees) and
//    matching the fusion pattern there. The fusion's own conditions are not
//    evaluated on that hypothetical form.
//
// Not near misses: sites where the exact pattern matches (the rule fired
// there, or one of its conditions refused it, which the rejection list
// reports) and sites whose class already holds the rule's fused op. Only
// enabled fusion-labelled rules with one anchor are examined. This runs
// only from explain_run, so `eqfuse optimize` without --explain pays nothing.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/egraph.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize_state.hpp"

namespace eqfuse {

// The input node name at a class, preferring a node whose op is `op`.
using SiteNamer = std::function<std::string(Id cls, std::string_view op)>;

std::vector<NearMiss> find_near_misses(const OptimizeState& st, const OpRegistry& reg,
                                       const SiteNamer& site_name);

}  // namespace eqfuse
