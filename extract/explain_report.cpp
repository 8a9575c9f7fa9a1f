// explain_run and its text/JSON renderings (extract/explain_report.hpp).
#include "extract/explain_report.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "extract/optimize_state.hpp"

namespace eqfuse {
namespace {

// Input node name of each canonical class that an input node landed in.
std::map<Id, std::string> class_names(const OptimizeState& st, const Graph& input) {
  std::map<Id, std::string> out;
  for (size_t i = 0; i < input.nodes().size(); ++i) {
    if (i >= st.loaded.node_class.size()) break;
    Id cls = st.loaded.node_class[i];
    if (cls == kNoId) continue;
    out.emplace(st.egraph->find(cls), input.nodes()[i].name);
  }
  return out;
}

// op -> fusion rule that introduces it (first in library order).
std::map<std::string, std::string> fused_op_rules(const RuleLibrary& lib) {
  std::map<std::string, std::string> out;
  for (const RuleDef& r : lib.rules()) {
    if (!r.has_label("fusion")) continue;
    std::set<std::string> in_search;
    for (const Node& n : r.search.nodes())
      if (n.kind == NodeKind::Call) in_search.insert(n.target);
    for (const Node& n : r.replace.nodes())
      if (n.kind == NodeKind::Call && !in_search.count(n.target)) out.emplace(n.target, r.name);
  }
  return out;
}

std::vector<ChosenFusion> chosen_fusions(const OptimizeResult& r, const OpRegistry& reg) {
  const OptimizeState& st = *r.state;
  std::map<std::string, std::string> rule_of = fused_op_rules(*st.library);
  std::vector<ChosenFusion> out;
  for (const NodeCost& nc : r.after.nodes) {
    const Node& n = r.graph.node(nc.node);
    auto it = rule_of.find(n.target);
    if (it == rule_of.end()) continue;
    out.push_back({it->second, n.name, n.target, nc.cost});
  }
  (void)reg;
  return out;
}

}  // namespace

ExplainReport explain_run(const OptimizeResult& r, const OpRegistry& reg) {
  const OptimizeState& st = *r.state;
  ExplainReport rep;
  rep.mode = r.stats.mode;
  rep.device = r.stats.device;
  rep.cost_before_us = r.stats.cost_before_us;
  rep.cost_after_us = r.stats.cost_after_us;
  rep.rules = r.stats.rules;
  rep.chosen = chosen_fusions(r, reg);
  std::map<Id, std::string> names = class_names(st, st.input);
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const Rejection& rej : st.rules.rejections->entries) {
    Id root = rej.root == kNoId ? kNoId : st.egraph->find(rej.root);
    auto it = names.find(root);
    std::string at = it != names.end() ? it->second : fmt::format("e-class {}", root);
    if (!seen.insert({rej.rule, at, rej.condition}).second) continue;
    rep.rejected.push_back({rej.rule, at, rej.condition, rej.detail});
  }
  return rep;
}

std::string format_explanation_text(const ExplainReport& rep) {
  std::string out = fmt::format("explain: {} on {}, modeled {:.1f} us -> {:.1f} us\n", rep.mode,
                                rep.device, rep.cost_before_us, rep.cost_after_us);
  out += "chosen fusions:\n";
  if (rep.chosen.empty()) out += "  none\n";
  for (const ChosenFusion& c : rep.chosen)
    out += fmt::format(
        "  {} = {} by {}: {:.2f} us (launch {:.2f}, fixed {:.2f}, memory {:.2f}, compute "
        "{:.2f})\n",
        c.node, c.op, c.rule, c.cost.total_us, c.cost.launch_us, c.cost.fixed_us, c.cost.memory_us,
        c.cost.compute_us);
  out += "rejected by a condition:\n";
  if (rep.rejected.empty()) out += "  none\n";
  for (const RejectedMatch& m : rep.rejected)
    out += fmt::format("  {} at {}: `{}` failed{}\n", m.rule, m.at, m.condition,
                       m.detail.empty() ? "" : " (" + m.detail + ")");
  out += fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8}\n", "rule", "candidates", "fired", "chosen",
                     "rejected");
  for (const RuleRunStats& s : rep.rules) {
    if (!s.enabled) {
      out += fmt::format("{:<46} off: {}\n", s.rule, s.toggle_reason);
      continue;
    }
    out += fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8}\n", s.rule, s.matches, s.applications,
                       s.chosen, s.rejected);
  }
  return out;
}

std::string explanation_to_json(const ExplainReport& rep) {
  nlohmann::ordered_json j;
  j["mode"] = rep.mode;
  j["device"] = rep.device;
  j["cost_before_us"] = rep.cost_before_us;
  j["cost_after_us"] = rep.cost_after_us;
  j["chosen"] = nlohmann::ordered_json::array();
  for (const ChosenFusion& c : rep.chosen)
    j["chosen"].push_back({{"rule", c.rule},
                           {"node", c.node},
                           {"op", c.op},
                           {"total_us", c.cost.total_us},
                           {"launch_us", c.cost.launch_us},
                           {"memory_us", c.cost.memory_us},
                           {"compute_us", c.cost.compute_us}});
  j["rejected"] = nlohmann::ordered_json::array();
  for (const RejectedMatch& m : rep.rejected)
    j["rejected"].push_back(
        {{"rule", m.rule}, {"at", m.at}, {"condition", m.condition}, {"detail", m.detail}});
  j["rules"] = nlohmann::ordered_json::array();
  for (const RuleRunStats& s : rep.rules)
    j["rules"].push_back({{"rule", s.rule},
                          {"enabled", s.enabled},
                          {"toggle", s.toggle_reason},
                          {"candidates", s.matches},
                          {"fired", s.applications},
                          {"chosen", s.chosen},
                          {"rejected", s.rejected},
                          {"rejected_by", s.rejected_by}});
  return j.dump(2);
}

}  // namespace eqfuse
