// The reinplace section of an explanation (pipeline/explain/reinplace.hpp).
#include "pipeline/explain/reinplace.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "pipeline/optimize.hpp"

namespace eqfuse {

namespace {

std::string why_not_run(const OptimizeResult& r) {
  if (r.stats.mode != exec_mode_name(ExecMode::ReduceOverhead))
    return fmt::format(
        "the reinplace passes do not run in {} mode; they run only in reduce-overhead "
        "(TorchAir's aclgraph mode)",
        r.stats.mode);
  return "the reinplace passes were turned off for this run (OptimizeOptions::reinplace_passes)";
}

// "256 bytes", or "16384*s0 bytes (16777216 at the symbol hints)".
std::string bytes_text(const SymInt& expr, int64_t at_hints) {
  if (expr.is_constant()) return fmt::format("{} bytes", at_hints);
  return fmt::format("{} bytes ({} at the symbol hints)", expr.to_string(), at_hints);
}

// "pass A: 1 of 2 candidate(s) in place"
std::string pass_count(const ReinplaceLog& log, ReinplacePass pass) {
  size_t all = 0, done = 0;
  for (const ReinplaceDecision& d : log.decisions) {
    if (d.pass != pass) continue;
    ++all;
    done += d.success ? 1 : 0;
  }
  return fmt::format("pass {}: {} of {} candidate(s) in place", reinplace_pass_letter(pass), done,
                     all);
}

}  // namespace

ReinplaceExplanation explain_reinplace(const OptimizeResult& r, const SymbolHints& hints) {
  ReinplaceExplanation e;
  e.mode = r.stats.mode;
  e.ran = r.stats.reinplace_ran;
  e.log = r.reinplace_log;  // recover_view_inplace's lines even when the passes did not run
  e.remove_cat = r.stats.remove_cat_log;
  if (!e.ran) {
    e.not_run = why_not_run(r);
    return e;
  }
  for (const ReinplaceDecision& d : e.log.decisions)
    e.saved_bytes.push_back(d.success ? hints.evaluate(d.saved_bytes()) : 0);
  e.total_saved = memory_traffic_saved(e.log).total_bytes();
  e.total_saved_bytes = hints.evaluate(e.total_saved);
  return e;
}

std::string reinplace_saved_text(const ReinplaceDecision& d, int64_t at_hints) {
  std::string total = bytes_text(d.saved_bytes(), at_hints);
  if (d.copy_bytes == SymInt(0)) return total;
  return fmt::format("{} (output buffer {}, copy_ read + write {})", total,
                     d.output_buffer_bytes.to_string(), d.copy_bytes.to_string());
}

std::string_view reinplace_pass_letter(ReinplacePass p) {
  return p == ReinplacePass::InplaceableOps ? "A" : "B";
}

std::string reinplace_decision_sentence(const ReinplaceDecision& d, int64_t saved_bytes) {
  std::string_view kind = reinplace_reason_name(d.kind);
  // An auto_functionalized call is decomposed into its op whether or not a
  // slot was cloned; "kept" would misread it.
  if (d.kind == ReinplaceReason::AutoFunctionalizedCloned)
    return fmt::format("{}: {} -> {} on clones ({}): {}", d.node, d.target, d.inplace_target, kind,
                       d.reason);
  if (!d.success) {
    std::string instead = d.inplace_target.empty() ? "" : ", not " + d.inplace_target;
    return fmt::format("{}: kept {}{} ({}): {}", d.node, d.target, instead, kind, d.reason);
  }
  std::vector<std::string> gone = d.removed_nodes();
  std::string removed = gone.empty() ? "" : fmt::format("; removed {}", fmt::join(gone, ", "));
  return fmt::format("{}: {} -> {} in place ({}): {}{}; saves {}", d.node, d.target,
                     d.inplace_target, kind, d.reason, removed,
                     reinplace_saved_text(d, saved_bytes));
}

std::string reinplace_summary_sentence(const ReinplaceExplanation& e) {
  if (!e.ran) return e.not_run;
  ReinplaceSavings s = memory_traffic_saved(e.log);
  return fmt::format("{}; {}; {} copy_ removed; {} of memory traffic saved",
                     pass_count(e.log, ReinplacePass::InplaceableOps),
                     pass_count(e.log, ReinplacePass::InputMutatedOps), s.removed_copies,
                     bytes_text(e.total_saved, e.total_saved_bytes));
}

std::string format_reinplace_text(const ReinplaceExplanation& e) {
  std::string out = fmt::format("reinplace passes: {}\n", reinplace_summary_sentence(e));
  for (const std::string& line : e.remove_cat) out += fmt::format("  {}\n", line);
  // recover_view_inplace runs in every mode, the passes only in reduce-overhead.
  for (const std::string& line : e.log.recover_view_inplace) out += fmt::format("  {}\n", line);
  if (!e.ran) return out;
  for (const std::string& note : e.log.notes) out += fmt::format("  {}\n", note);
  if (e.log.decisions.empty()) out += "  no candidates\n";
  for (size_t i = 0; i < e.log.decisions.size(); ++i) {
    const ReinplaceDecision& d = e.log.decisions[i];
    out += fmt::format("  {} {}\n", reinplace_pass_letter(d.pass),
                       reinplace_decision_sentence(d, e.saved_bytes[i]));
  }
  return out;
}

nlohmann::ordered_json reinplace_to_json(const ReinplaceExplanation& e) {
  using OJson = nlohmann::ordered_json;
  ReinplaceSavings s = memory_traffic_saved(e.log);
  OJson j = {{"ran", e.ran},
             {"mode", e.mode},
             {"not_run", e.not_run},
             {"remove_cat_ops", e.remove_cat},
             {"recover_view_inplace", e.log.recover_view_inplace},
             {"notes", e.log.notes},
             {"candidates", e.log.decisions.size()},
             {"reinplaced", s.reinplaced_nodes},
             {"removed_copies", s.removed_copies},
             {"saved_bytes", e.total_saved_bytes},
             {"saved_bytes_expr", e.total_saved.to_string()}};
  j["decisions"] = OJson::array();
  for (size_t i = 0; i < e.log.decisions.size(); ++i) {
    const ReinplaceDecision& d = e.log.decisions[i];
    OJson related = OJson::array();
    for (const ReinplaceNodeRef& n : d.related)
      related.push_back({{"node", n.name}, {"stream", n.stream}});
    j["decisions"].push_back({{"pass", reinplace_pass_name(d.pass)},
                              {"node", d.node},
                              {"op", d.target},
                              {"inplace_op", d.inplace_target},
                              {"reinplaced", d.success},
                              {"kind", reinplace_reason_name(d.kind)},
                              {"reason", d.reason},
                              {"related", related},
                              {"writes", d.written},
                              {"removed", d.removed_nodes()},
                              {"stream_check", d.stream_check},
                              {"saved_bytes", e.saved_bytes[i]},
                              {"saved_bytes_expr", d.success ? d.saved_bytes().to_string() : "0"},
                              {"text", reinplace_decision_sentence(d, e.saved_bytes[i])}});
  }
  return j;
}

}  // namespace eqfuse
