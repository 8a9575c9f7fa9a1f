// Explanations of an optimize run (`eqfuse optimize --explain`, `eqfuse
// explain`): what each fusion rule did and why.
//
//   OptimizeResult r = optimize_graph(g, reg, opt);
//   ExplainReport rep = explain_run(r, reg);
//   std::cerr << format_explanation_text(rep);
//
// The report has three parts:
//  * chosen fusions: every fused kernel of the output graph (an op a fusion
//    rule introduces), the rule that produced it, and its cost breakdown;
//  * rejected matches: structural matches refused by a `where` condition,
//    with the condition and the values that failed it (the rewrites'
//    RejectionLog), located at the input node that roots the match;
//  * a per-rule table: candidates (matches), fired (effective unions),
//    chosen (fused kernels in the output), rejected (by condition).
#pragma once
#include <string>
#include <vector>

#include "cost/cost_model.hpp"
#include "extract/optimize.hpp"

namespace eqfuse {

struct ChosenFusion {
  std::string rule;    // base rule name
  std::string node;    // output node name
  std::string op;      // fused op
  CostBreakdown cost;  // of the fused kernel
};

struct RejectedMatch {
  std::string rule;
  std::string at;         // input node name rooting the match (or "class N")
  std::string condition;  // as written in the rule
  std::string detail;     // the values that failed it
};

struct ExplainReport {
  std::string mode, device;
  double cost_before_us = 0, cost_after_us = 0;
  std::vector<ChosenFusion> chosen;
  std::vector<RejectedMatch> rejected;
  std::vector<RuleRunStats> rules;
};

ExplainReport explain_run(const OptimizeResult& r, const OpRegistry& reg);
std::string format_explanation_text(const ExplainReport& rep);
// Stable keys, docs/explain.md.
std::string explanation_to_json(const ExplainReport& rep);

}  // namespace eqfuse
