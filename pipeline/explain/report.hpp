// Explanations of an optimize run (`eqfuse optimize --explain`, `eqfuse
// explain`): what each fusion rule did and why.
//
//   OptimizeResult r = optimize_graph(g, reg, opt);
//   ExplainReport rep = explain_run(r, reg);
//   std::cerr << format_explanation_text(rep);
//   std::string json = explanation_to_json(rep);  // stable keys: docs/explain.md
//
// The report has these parts:
//  * chosen fusions: every fused kernel of the output graph (an op a fusion
//    rule introduces), the rule that produced it, the input nodes it
//    replaces, its cost next to the input kernels it replaces (launch,
//    fixed, memory, compute, total µs) and the proof chain (rewrite steps
//    from an input term to the fused term, egraph/explain.hpp);
//  * fusions possible but not chosen: a fused e-node in (or projected into)
//    a class the extraction used, with another node chosen; the reason in
//    plain words with numbers ("intermediate used elsewhere" when an
//    intermediate of the unfused form has another user, else "costs more");
//  * rejected matches: structural matches refused by a `where` condition,
//    with the condition and the values that failed it (the rewrites'
//    RejectionLog), located at the input node that roots the match;
//  * near misses: a fusion pattern whose ops all match but a literal
//    argument differs (a cast to bf16 where the rule needs float32), or
//    that a rejected layout rule kept from matching
//    (pipeline/explain/near_miss.hpp);
//  * rules switched off (mode exclusions, toggles) with the reason, and
//    cross-stream near misses: an input edge between two ops of one fusion
//    rule's pattern whose ends are on different streams (rules compile per
//    stream, so such a fusion never matches);
//  * a per-rule table: candidates (matches), fired (effective unions),
//    chosen (fused kernels in the output), rejected (by condition);
//  * the reinplace passes (reduce-overhead only): every candidate, the
//    in-place op it became or why it was kept, and the bytes saved
//    (pipeline/explain/reinplace.hpp).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "cost/cost_model.hpp"
#include "pipeline/explain/reinplace.hpp"
#include "pipeline/optimize.hpp"

namespace eqfuse {

// A cost side of a comparison: one kernel or the sum over several.
struct CostSum {
  size_t kernels = 0;
  double launch_us = 0, fixed_us = 0, memory_us = 0, compute_us = 0, total_us = 0;
  void add(const CostBreakdown& c);
};

struct ProofStep {
  std::string rule;  // empty for the starting term
  std::string term;  // the whole term after the step (depth-limited)
};

struct ChosenFusion {
  std::string rule;                           // base rule name
  std::string node;                           // output node name
  std::string op;                             // fused op
  CostBreakdown cost;                         // of the fused kernel
  std::vector<std::string> replaces;          // input node names that disappear
  std::vector<std::string> replaced_kernels;  // the kernels among them
  CostSum unfused;                            // those kernels, as in the input graph
  // The input relations this site relies on (an `assumption` rule: RuleDef::assumes,
  // over the graph inputs the replaced nodes read), e.g. "arg5_1 == reciprocal(arg4_1)".
  std::vector<std::string> assumes;
  std::vector<ProofStep> proof;  // empty when not explained
  std::string proof_note;        // why the proof is missing, if it is
};

struct UnchosenFusion {
  std::string rule, op;
  std::string for_node;                     // input name of an output the fused node would produce
  std::string kind;                         // "intermediate_used_elsewhere" | "costs_more" | "tie"
  std::string intermediate;                 // kind intermediate_used_elsewhere: the shared value
  std::string used_by;                      // ... and one other user of it
  std::vector<std::string> must_still_run;  // unfused kernels that would stay
  double fused_total_us = 0;                // fused kernel + kernels that would still run
  double unfused_us = 0;                    // the chosen kernels it would replace
  std::string reason;                       // one plain sentence with the numbers
};

struct RejectedMatch {
  std::string rule;
  std::string at;         // input node name rooting the match (or "e-class N")
  std::string condition;  // as written in the rule
  std::string detail;     // the values that failed it
};

// An argument of a near miss whose value differs from the rule's literal.
struct LiteralMismatch {
  std::string node;    // the graph node carrying it (input name when there is one)
  std::string arg;     // schema argument name ("dtype", "dim1", "output_mask[1]")
  std::string found;   // its value in the graph ("torch.bfloat16", "-1")
  std::string needed;  // the literal the rule's pattern has
};

// A fusion rule's pattern that almost matched (pipeline/explain/near_miss.hpp):
// every op matched but some literal arguments differ, and/or the pattern
// would match had a layout rule rewritten the site, but that rule's
// condition failed there.
struct NearMiss {
  std::string rule;
  std::string at;                         // input node rooting the almost-match
  std::vector<LiteralMismatch> literals;  // empty: only a layout rule stood in the way
  std::string layout_rule;                // "" when no layout rule is involved
  std::string layout_condition, layout_detail;
};

struct CrossStreamNearMiss {
  std::string rule;
  std::string producer, producer_stream;  // "" = default stream
  std::string consumer, consumer_stream;
};

struct ExplainReport {
  std::string mode, device;
  double cost_before_us = 0, cost_after_us = 0;
  std::string extractor, extraction_quality;  // optimize.hpp extraction_quality()
  std::string kept_input;                     // OptimizeStats::kept_input
  std::vector<std::string> frozen_inputs;     // OptimizeStats::frozen_inputs
  std::vector<ChosenFusion> chosen;
  std::vector<UnchosenFusion> not_chosen;
  std::vector<RejectedMatch> rejected;
  std::vector<NearMiss> near_misses;
  std::vector<CrossStreamNearMiss> cross_stream;
  std::vector<RuleRunStats> rules;  // disabled ones carry their toggle reason
  ReinplaceExplanation reinplace;   // what the reinplace passes did after extraction
};

struct ExplainOptions {
  bool proofs = true;  // build proof chains (egraph/explain.hpp)
  bool costs = true;   // price each chosen fusion and what it replaces (off: names only)
  int term_depth = 4;  // depth limit of printed proof terms
  size_t max_proof_steps = 40;
};

ExplainReport explain_run(const OptimizeResult& r, const OpRegistry& reg,
                          const ExplainOptions& options = {});
std::string format_explanation_text(const ExplainReport& rep);

// Sets the note of every fused node of r.graph (printed as a
// `# eqfuse: <rule> fuses <input nodes>` line above it in FX output).
void annotate_fusions(OptimizeResult& r, const OpRegistry& reg);
// Stable keys, docs/explain.md.
std::string explanation_to_json(const ExplainReport& rep);

// "off: <reason>" lines are emitted for these; exposed for the HTML page.
// ": <values>" after "`<condition>` failed": the evaluator's detail without
// the condition text it starts with when that is the whole condition.
std::string failure_detail(std::string_view condition, std::string_view detail);
std::string rejection_sentence(const RejectedMatch& m);
std::string cross_stream_sentence(const CrossStreamNearMiss& c);
std::string near_miss_sentence(const NearMiss& m);
// Near misses of `rule` in the report (the per-rule table's "near" column).
size_t near_miss_count(const ExplainReport& rep, std::string_view rule);

}  // namespace eqfuse
