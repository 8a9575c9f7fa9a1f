// The JSON rendering of an explain report (`eqfuse explain --format json`);
// its keys are stable and documented in docs/explain.md.
#include <nlohmann/json.hpp>

#include "pipeline/explain/report.hpp"

namespace eqfuse {

namespace {

using OJson = nlohmann::ordered_json;

OJson cost_json(const CostBreakdown& c) {
  return {{"launch_us", c.launch_us},
          {"fixed_us", c.fixed_us},
          {"memory_us", c.memory_us},
          {"compute_us", c.compute_us},
          {"total_us", c.total_us}};
}

OJson cost_json(const CostSum& c) {
  return {{"kernels", c.kernels},     {"launch_us", c.launch_us},   {"fixed_us", c.fixed_us},
          {"memory_us", c.memory_us}, {"compute_us", c.compute_us}, {"total_us", c.total_us}};
}

OJson chosen_json(const ChosenFusion& c) {
  OJson j = {{"rule", c.rule},
             {"node", c.node},
             {"op", c.op},
             {"total_us", c.cost.total_us},
             {"launch_us", c.cost.launch_us},
             {"memory_us", c.cost.memory_us},
             {"compute_us", c.cost.compute_us}};
  j["replaces"] = c.replaces;
  j["replaced_kernels"] = c.replaced_kernels;
  j["assumes"] = c.assumes;
  j["fused"] = cost_json(c.cost);
  j["unfused"] = cost_json(c.unfused);
  j["proof"] = OJson::array();
  for (const ProofStep& s : c.proof) j["proof"].push_back({{"rule", s.rule}, {"term", s.term}});
  j["proof_note"] = c.proof_note;
  return j;
}

OJson unchosen_json(const UnchosenFusion& u) {
  return {{"rule", u.rule},
          {"op", u.op},
          {"for", u.for_node},
          {"kind", u.kind},
          {"intermediate", u.intermediate},
          {"used_by", u.used_by},
          {"must_still_run", u.must_still_run},
          {"fused_total_us", u.fused_total_us},
          {"unfused_us", u.unfused_us},
          {"reason", u.reason}};
}

OJson near_miss_json(const NearMiss& m) {
  OJson literals = OJson::array();
  for (const LiteralMismatch& d : m.literals)
    literals.push_back(
        {{"node", d.node}, {"arg", d.arg}, {"found", d.found}, {"needed", d.needed}});
  return {{"rule", m.rule},
          {"at", m.at},
          {"literals", std::move(literals)},
          {"layout_rule", m.layout_rule},
          {"layout_condition", m.layout_condition},
          {"layout_detail", m.layout_detail},
          {"reason", near_miss_sentence(m)}};
}

}  // namespace

std::string explanation_to_json(const ExplainReport& rep) {
  OJson j;
  j["mode"] = rep.mode;
  j["device"] = rep.device;
  j["cost_before_us"] = rep.cost_before_us;
  j["cost_after_us"] = rep.cost_after_us;
  j["extraction"] = {{"extractor", rep.extractor},
                     {"quality", rep.extraction_quality},
                     {"kept_input", rep.kept_input}};
  j["frozen_inputs"] = rep.frozen_inputs;
  j["chosen"] = OJson::array();
  for (const ChosenFusion& c : rep.chosen) j["chosen"].push_back(chosen_json(c));
  j["not_chosen"] = OJson::array();
  for (const UnchosenFusion& u : rep.not_chosen) j["not_chosen"].push_back(unchosen_json(u));
  j["rejected"] = OJson::array();
  for (const RejectedMatch& m : rep.rejected)
    j["rejected"].push_back({{"rule", m.rule},
                             {"at", m.at},
                             {"condition", m.condition},
                             {"detail", m.detail},
                             {"reason", rejection_sentence(m)}});
  j["near_misses"] = OJson::array();
  for (const NearMiss& m : rep.near_misses) j["near_misses"].push_back(near_miss_json(m));
  j["cross_stream"] = OJson::array();
  for (const CrossStreamNearMiss& c : rep.cross_stream)
    j["cross_stream"].push_back({{"rule", c.rule},
                                 {"producer", c.producer},
                                 {"producer_stream", c.producer_stream},
                                 {"consumer", c.consumer},
                                 {"consumer_stream", c.consumer_stream},
                                 {"reason", cross_stream_sentence(c)}});
  j["rules"] = OJson::array();
  for (const RuleRunStats& s : rep.rules)
    j["rules"].push_back({{"rule", s.rule},
                          {"enabled", s.enabled},
                          {"toggle", s.toggle_reason},
                          {"candidates", s.matches},
                          {"fired", s.applications},
                          {"chosen", s.chosen},
                          {"rejected", s.rejected},
                          {"rejected_by", s.rejected_by},
                          {"near_misses", near_miss_count(rep, s.rule)},
                          {"load_check", s.load_check}});
  j["reinplace"] = reinplace_to_json(rep.reinplace);
  return j.dump(2);
}

}  // namespace eqfuse
