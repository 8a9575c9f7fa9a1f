// The report of one optimize run: the stderr summary of `eqfuse optimize`,
// the extraction-quality phrase and the --stats-json object (declared in
// pipeline/optimize.hpp).
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "pipeline/optimize.hpp"

namespace eqfuse {

std::string extraction_quality(const OptimizeStats& s) {
  std::string out = s.extraction_optimal
                        ? "proven optimal"
                        : (s.extraction_gap >= 1.0
                               ? std::string("not proven optimal, no lower bound")
                               : fmt::format("not proven optimal, within {:.2f}% of a lower bound",
                                             100.0 * s.extraction_gap));
  if (!s.extraction_stopped_by.empty()) out += "; stopped by " + s.extraction_stopped_by;
  return out;
}

std::string format_summary(const OptimizeStats& s) {
  std::string out;
  double saved = s.cost_before_us - s.cost_after_us;
  double change_pct = s.cost_before_us > 0 ? -100.0 * saved / s.cost_before_us : 0.0;
  // A change that rounds to zero prints as "+0.0%", never "-0.0%".
  if (std::abs(change_pct) < 0.05) change_pct = 0.0;
  out += fmt::format("eqfuse: {} on {}\n", s.mode, s.device);
  out += fmt::format("  kernels      {} -> {}\n", s.kernels_before, s.kernels_after);
  out += fmt::format("  modeled time {:.1f} us -> {:.1f} us ({:+.1f}%)\n", s.cost_before_us,
                     s.cost_after_us, change_pct);
  if (s.fusions.empty()) {
    out += "  fusions      none\n";
  } else {
    for (const auto& [rule, n] : s.fusions) out += fmt::format("  fusion       {} x{}\n", rule, n);
  }
  for (const UsedAssumption& a : s.assumptions) {
    out += fmt::format("  assumed      {} (by {}; `check` draws inputs that hold it)\n",
                       a.assumption.text(), a.rule);
  }
  out += fmt::format("  saturation   {} after {} iteration{}, {} e-nodes, {} e-classes\n",
                     s.stop_reason, s.iterations, s.iterations == 1 ? "" : "s", s.egraph_nodes,
                     s.egraph_classes);
  if (s.reinplace_ran) {
    double kb = s.reinplace_saved_bytes / 1e3;
    out +=
        fmt::format("  reinplace    {} op{} in place, {} copy_ removed, {} traffic saved\n",
                    s.reinplaced_nodes, s.reinplaced_nodes == 1 ? "" : "s", s.removed_copies,
                    kb < 1e3 ? fmt::format("{:.1f} KB", kb) : fmt::format("{:.1f} MB", kb / 1e3));
    const ReinplaceCounters& af = s.auto_functionalized;
    if (af.decomposed_calls > 0)
      out += fmt::format(
          "  auto_func    {} call{} decomposed, {} missed reinplacing opportunit{} ({} bytes "
          "cloned)\n",
          af.decomposed_calls, af.decomposed_calls == 1 ? "" : "s", af.missed,
          af.missed == 1 ? "y" : "ies", af.missed_bytes);
  }
  if (s.removed_cats > 0)
    out += fmt::format("  remove_cat   {} cat{} written in place (remove_cat_ops)\n",
                       s.removed_cats, s.removed_cats == 1 ? "" : "s");
  out += fmt::format("  extraction   {} ({})\n", s.extractor, extraction_quality(s));
  if (!s.frozen_inputs.empty())
    out += fmt::format("  frozen       {} input{} priced once (weights)\n", s.frozen_inputs.size(),
                       s.frozen_inputs.size() == 1 ? "" : "s");
  for (const std::string& note : s.notes) out += fmt::format("  note         {}\n", note);
  if (!s.kept_input.empty()) out += fmt::format("  kept input   {}\n", s.kept_input);
  std::string phases;
  for (const char* p : kPhaseOrder) {
    auto it = s.phase_ms.find(p);
    if (it == s.phase_ms.end()) continue;
    if (!phases.empty()) phases += ", ";
    phases += fmt::format("{} {:.1f}", p, it->second);
  }
  out += fmt::format("  time (ms)    {}\n", phases);
  return out;
}

std::string stats_to_json(const OptimizeStats& s) {
  nlohmann::ordered_json j;
  j["kernels_before"] = s.kernels_before;
  j["kernels_after"] = s.kernels_after;
  j["cost_before_us"] = s.cost_before_us;
  j["cost_after_us"] = s.cost_after_us;
  j["fusions"] = nlohmann::ordered_json::object();
  for (const auto& [rule, n] : s.fusions) j["fusions"][rule] = n;
  j["assumptions"] = nlohmann::ordered_json::array();
  for (const UsedAssumption& a : s.assumptions)
    j["assumptions"].push_back({{"rule", a.rule}, {"assumption", a.assumption.text()}});
  j["notes"] = s.notes;
  j["extractor"] = s.extractor;
  j["extraction_optimal"] = s.extraction_optimal;
  j["extraction_gap"] = s.extraction_gap;
  j["extraction_stopped_by"] = s.extraction_stopped_by;
  j["kept_input"] = s.kept_input;
  j["stop_reason"] = s.stop_reason;
  j["egraph_nodes"] = s.egraph_nodes;
  j["egraph_classes"] = s.egraph_classes;
  j["iterations"] = s.iterations;
  j["phase_ms"] = nlohmann::ordered_json::object();
  for (const auto& [phase, ms] : s.phase_ms) j["phase_ms"][phase] = ms;
  j["device"] = s.device;
  j["mode"] = s.mode;
  j["reinplace"] = {{"ran", s.reinplace_ran},
                    {"reinplaced_nodes", s.reinplaced_nodes},
                    {"removed_copies", s.removed_copies},
                    {"saved_bytes", s.reinplace_saved_bytes},
                    {"auto_functionalized",
                     {{"decomposed_calls", s.auto_functionalized.decomposed_calls},
                      {"missed", s.auto_functionalized.missed},
                      {"missed_bytes", s.auto_functionalized.missed_bytes},
                      {"cloned_tensors", s.auto_functionalized.cloned_tensors}}}};
  j["remove_cat_ops"] = {{"removed_cats", s.removed_cats}, {"log", s.remove_cat_log}};
  j["frozen_inputs"] = s.frozen_inputs;
  nlohmann::ordered_json rules = nlohmann::ordered_json::array();
  for (const RuleRunStats& r : s.rules) {
    nlohmann::ordered_json e;
    e["rule"] = r.rule;
    e["enabled"] = r.enabled;
    e["toggle"] = r.toggle_reason;
    e["matches"] = r.matches;
    e["applications"] = r.applications;
    e["rejected"] = r.rejected;
    e["rejected_by"] = r.rejected_by;
    e["chosen"] = r.chosen;
    rules.push_back(std::move(e));
  }
  j["rules"] = std::move(rules);
  return j.dump();
}

}  // namespace eqfuse
