// The reinplace section of an explanation (`eqfuse explain`): every
// candidate the reduce-overhead reinplace passes considered
// (passes/reinplace.hpp) on the extracted graph, rewritten or kept, the
// reason as a stable kind plus a sentence naming nodes, and the bytes of
// memory traffic saved. It is read from the passes' own decision log
// (OptimizeResult::reinplace_log), never recomputed.
//
//   ReinplaceExplanation re = explain_reinplace(result, hints);  // explain_run does this
//   std::cout << format_reinplace_text(re);
//   json["reinplace"] = reinplace_to_json(re);                    // keys: docs/explain.md
//
// In modes other than reduce-overhead the passes do not run; the section
// says so (`not_run`) and lists no decisions.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cost/cost_model.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse {

struct OptimizeResult;

struct ReinplaceExplanation {
  bool ran = false;
  std::string mode;
  std::string not_run;                  // why the passes did not run ("" when they ran)
  ReinplaceLog log;                     // pass-level notes and one decision per candidate
  std::vector<std::string> remove_cat;  // remove_cat_ops, run before the passes: one line per cat
  std::vector<int64_t> saved_bytes;     // per decision, symbols at the cost model's hints
  SymInt total_saved;                   // over the rewritten decisions
  int64_t total_saved_bytes = 0;        // the same at the hints
};

ReinplaceExplanation explain_reinplace(const OptimizeResult& r, const SymbolHints& hints);

// "A" for reinplace_inplaceable_ops, "B" for reinplace_input_mutated_ops
// (the names docs/reinplace.md uses).
std::string_view reinplace_pass_letter(ReinplacePass p);

// One line per decision: "add: aten::add.Tensor -> aten::add_.Tensor in place
// (dead_intermediate): writes into 'clone', which is dead afterwards; saves
// 256 bytes" or "add_3: kept aten::add.Tensor, not aten::add_.Tensor
// (multi_stream_users): ...".
std::string reinplace_decision_sentence(const ReinplaceDecision& d, int64_t saved_bytes);
// What a rewritten decision saves: "768 bytes (output buffer 256, copy_ read
// + write 512)"; symbolic sizes also at the hints.
std::string reinplace_saved_text(const ReinplaceDecision& d, int64_t at_hints);
// "pass A: 1 of 2 candidate(s) in place; pass B: 1 of 1 candidate(s) in place;
// 1 copy_ removed; 1024 bytes of memory traffic saved", or why the passes did
// not run.
std::string reinplace_summary_sentence(const ReinplaceExplanation& e);

// The "reinplace:" block of the text report.
std::string format_reinplace_text(const ReinplaceExplanation& e);
// The "reinplace" object of the JSON report.
nlohmann::ordered_json reinplace_to_json(const ReinplaceExplanation& e);

}  // namespace eqfuse
