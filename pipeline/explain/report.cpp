// explain_run and annotate_fusions (pipeline/explain/report.hpp): the
// report's parts gathered from an optimize run. The fusions are analysed in
// report_chosen.cpp and report_unchosen.cpp (shared context:
// report_internal.hpp); the renderings are in report_text.cpp and
// report_json.cpp.
#include "pipeline/explain/report.hpp"

#include <set>
#include <tuple>

#include <fmt/format.h>

#include "pipeline/explain/near_miss.hpp"
#include "pipeline/explain/report_internal.hpp"

namespace eqfuse {

using explain_detail::chosen_fusions;
using explain_detail::Ctx;
using explain_detail::explain_unchosen;
using explain_detail::unchosen_candidates;

void CostSum::add(const CostBreakdown& c) {
  if (!c.is_kernel) return;
  ++kernels;
  launch_us += c.launch_us;
  fixed_us += c.fixed_us;
  memory_us += c.memory_us;
  compute_us += c.compute_us;
  total_us += c.total_us;
}

namespace {

// ---- rejections and cross-stream near misses --------------------------------

std::vector<RejectedMatch> rejected_matches(const Ctx& c) {
  std::vector<RejectedMatch> out;
  std::set<std::tuple<std::string, std::string, std::string>> seen;
  for (const Rejection& rej : c.st.rules.rejections->entries) {
    Id root = c.st.rules.rejection_root(c.g, rej);
    const Rewrite* rw = c.st.rules.find(rej.rewrite);
    std::string at =
        rw == nullptr
            ? c.name_of(root)
            : c.site_name(root,
                          rw->searcher().pattern().parts().front().pattern.root_node().op.str());
    if (!seen.insert({rej.rule, at, rej.condition}).second) continue;
    out.push_back({rej.rule, at, rej.condition, rej.detail});
  }
  return out;
}

std::set<std::string> search_ops(const RuleDef& r) {
  std::set<std::string> out;
  for (const Node& n : r.search.nodes())
    if (n.kind == NodeKind::Call) out.insert(n.target);
  return out;
}

// The call node behind an input (looking through getitem projections).
const Node& producer_call(const Graph& g, NodeRef r) {
  const Node* n = &g.node(r);
  while (n->kind == NodeKind::GetItem) n = &g.node(n->getitem_source());
  return *n;
}

std::vector<CrossStreamNearMiss> cross_stream_near_misses(const Ctx& c) {
  std::vector<CrossStreamNearMiss> out;
  const Graph& in = c.st.input;
  for (const RuleDef& rule : c.st.library->rules()) {
    if (!rule.has_label("fusion")) continue;
    std::set<std::string> ops = search_ops(rule);
    if (ops.size() < 2) continue;
    for (const Node& consumer : in.nodes()) {
      if (consumer.kind != NodeKind::Call || !ops.count(consumer.target)) continue;
      std::set<std::string> seen;
      for (NodeRef a : node_inputs(consumer)) {
        const Node& producer = producer_call(in, a);
        if (producer.kind != NodeKind::Call || !ops.count(producer.target)) continue;
        if (producer.meta.stream == consumer.meta.stream || !seen.insert(producer.name).second)
          continue;
        out.push_back(
            {rule.name, producer.name, producer.meta.stream, consumer.name, consumer.meta.stream});
      }
    }
  }
  return out;
}

}  // namespace

ExplainReport explain_run(const OptimizeResult& r, const OpRegistry& reg,
                          const ExplainOptions& options) {
  Ctx c(r, reg);
  ExplainReport rep;
  rep.mode = r.stats.mode;
  rep.device = r.stats.device;
  rep.cost_before_us = r.stats.cost_before_us;
  rep.cost_after_us = r.stats.cost_after_us;
  rep.extractor = r.stats.extractor;
  rep.extraction_quality = extraction_quality(r.stats);
  rep.kept_input = r.stats.kept_input;
  rep.frozen_inputs = r.stats.frozen_inputs;
  rep.rules = r.stats.rules;
  rep.chosen = chosen_fusions(c, options);
  for (Id n : unchosen_candidates(c)) rep.not_chosen.push_back(explain_unchosen(c, n));
  rep.rejected = rejected_matches(c);
  rep.near_misses = find_near_misses(
      c.st, reg, [&c](Id cls, std::string_view op) { return c.site_name(cls, op); });
  rep.cross_stream = cross_stream_near_misses(c);
  rep.reinplace = explain_reinplace(r, c.st.model->hints());
  return rep;
}

void annotate_fusions(OptimizeResult& r, const OpRegistry& reg) {
  if (!r.state) return;
  std::vector<ChosenFusion> chosen;
  {
    Ctx c(r, reg);
    chosen = chosen_fusions(c, ExplainOptions{.proofs = false, .costs = false});
  }
  for (const ChosenFusion& f : chosen) {
    std::optional<NodeRef> n = r.graph.find(f.node);
    if (!n) continue;
    std::string replaced;
    for (const std::string& name : f.replaces) replaced += (replaced.empty() ? "" : ", ") + name;
    std::string& note = r.graph.node(*n).meta.note;
    note = replaced.empty() ? fmt::format("{}: a new kernel, in place of no input node", f.rule)
                            : fmt::format("{} fuses {}", f.rule, replaced);
    // A reader of the output graph sees what the kernel relies on.
    for (const std::string& a : f.assumes) note += fmt::format(", assuming {}", a);
  }
}

}  // namespace eqfuse
