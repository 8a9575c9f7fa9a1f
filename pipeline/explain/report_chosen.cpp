// The chosen fusions of an explain report: every fused kernel of the output
// graph, the rule that made it, the input nodes it replaces, its cost next to
// theirs, the input relations it assumes, and the proof chain from an input
// term to the fused term.
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <set>
#include <tuple>

#include "bridge/from_graph.hpp"
#include "egraph/explain.hpp"
#include "pipeline/explain/report_internal.hpp"

namespace eqfuse::explain_detail {
namespace {

// The run's assumptions of `rule` whose inputs the site's replaced nodes all read.
std::vector<std::string> site_assumptions(const Ctx& c, const std::string& rule,
                                          const std::vector<size_t>& region) {
  std::set<std::string> read;
  for (size_t i : region)
    for (const Arg& a : c.st.input.nodes()[i].args)
      if (a.is_node()) read.insert(c.st.input.node(a.node()).name);
  std::vector<std::string> out;
  for (const UsedAssumption& u : c.r.stats.assumptions) {
    if (u.rule != rule) continue;
    bool all = read.contains(u.assumption.derived);
    for (const std::string& s : u.assumption.sources) all = all && read.contains(s);
    if (all) out.push_back(u.assumption.text());
  }
  return out;
}

// Input node indices the fused node replaces (see the file comment).
std::vector<size_t> input_region(const Ctx& c, Id fused_cls, const absl::flat_hash_set<Id>& stop) {
  const Graph& in = c.st.input;
  std::set<size_t> seen;
  std::deque<size_t> todo;
  // The input nodes of the covered classes (inputs_at: per class, so this
  // does not scan the whole input for every fused node).
  for (Id cls : covered_classes(c, fused_cls)) {
    auto it = c.inputs_at.find(cls);
    if (it == c.inputs_at.end()) continue;
    for (size_t i : it->second) seen.insert(i);
  }
  todo.assign(seen.begin(), seen.end());
  while (!todo.empty()) {
    size_t i = todo.front();
    todo.pop_front();
    for (NodeRef a : node_inputs(in.nodes()[i])) {
      size_t ai = static_cast<size_t>(a.index);
      Id cls = c.st.loaded.node_class.at(ai);
      if (cls == kNoId || stop.count(c.g.find(cls)) || c.input_kept(ai)) continue;
      if (seen.insert(ai).second) todo.push_back(ai);
    }
  }
  // Graph inputs and constants stay inputs even when the fused graph no longer
  // reads them (vllm.quantize's unused `scale`): nothing to replace.
  std::vector<size_t> out;
  for (size_t i : seen) {
    const NodeKind kind = in.nodes()[i].kind;
    if (!c.input_kept(i) && kind != NodeKind::Placeholder && kind != NodeKind::GetAttr)
      out.push_back(i);
  }
  return out;
}

// The first input node covered by the fused node, and the e-node in that
// node's class that denotes the fused value (the fused node or its projection).
std::pair<Id, Id> proof_ends(const Ctx& c, Id fused, Id fused_cls,
                             const std::vector<size_t>& region) {
  for (size_t i : region) {
    Id start = c.st.loaded.node_class[i];
    Id cls = c.g.find(start);
    if (cls == fused_cls) return {start, fused};
    for (Id n : c.g.class_nodes(cls))
      if (c.is_getitem(n) && c.g.find(c.g.node(n).children[0]) == fused_cls) return {start, n};
  }
  return {kNoId, kNoId};
}

void add_proof(const Ctx& c, Explainer& ex, Id fused, Id fused_cls,
               const std::vector<size_t>& region, const ExplainOptions& opt, ChosenFusion& out) {
  auto [from, to] = proof_ends(c, fused, fused_cls, region);
  if (from == kNoId) {
    out.proof_note = "no input node holds the fused value";
    return;
  }
  try {
    Explanation e = ex.explain(from, to, opt.term_depth);
    for (const ExplanationStep& s : e.steps) {
      if (out.proof.size() >= opt.max_proof_steps) {
        out.proof_note = fmt::format("{} more steps not shown", e.steps.size() - out.proof.size());
        break;
      }
      std::string rule = s.rule;
      if (s.backward) rule += " (reverse)";
      if (s.coarse) rule += " (coarse)";
      out.proof.push_back({rule, e.terms.to_string(s.term, opt.term_depth, loaded_head_name)});
    }
  } catch (const Error& err) {
    out.proof_note = err.what();
  }
}

// Output nodes with a fused op, per op, in program order.
std::map<std::string, std::vector<NodeCost>> fused_output_nodes(const Ctx& c) {
  std::map<std::string, std::vector<NodeCost>> out;
  for (const NodeCost& nc : c.r.after.nodes) {
    const Node& n = c.r.graph.node(nc.node);
    if (c.credit.is_fused_op(n.target)) out[n.target].push_back(nc);
  }
  return out;
}
}  // namespace

std::vector<ChosenFusion> chosen_fusions(const Ctx& c, const ExplainOptions& opt) {
  std::map<size_t, const NodeCost*> input_cost;
  if (opt.costs)
    for (const NodeCost& nc : c.r.before.nodes)
      input_cost[static_cast<size_t>(nc.node.index)] = &nc;
  std::unique_ptr<Explainer> ex;
  if (opt.proofs) ex = std::make_unique<Explainer>(c.g, c.st.rules.rewrites);
  // Fused e-nodes ordered like the emitter places them: where the first
  // input node they replace was; paired per op with the output nodes.
  std::vector<std::tuple<size_t, Id, Id, std::vector<size_t>>> fused;
  for (const auto& [cls, n] : c.chosen) {
    if (!c.is_fused(n)) continue;
    std::vector<size_t> region = input_region(c, cls, needed_anyway(c, input_classes(c, n)));
    size_t first = region.empty() ? SIZE_MAX : region.front();
    fused.emplace_back(first, n, cls, std::move(region));
  }
  std::sort(fused.begin(), fused.end());
  auto outputs = fused_output_nodes(c);
  std::map<std::string, size_t> used;
  std::vector<ChosenFusion> out;
  for (const auto& [first, n, cls, region] : fused) {
    ChosenFusion f;
    f.op = c.op_name(n);
    f.rule = c.credit.rule_of(n);
    if (opt.costs) {
      f.cost = c.cost(n);
      const CostSum extra = new_operands_cost(c, n, /*chosen_side=*/true);
      f.cost.launch_us += extra.launch_us;
      f.cost.fixed_us += extra.fixed_us;
      f.cost.memory_us += extra.memory_us;
      f.cost.compute_us += extra.compute_us;
      f.cost.total_us += extra.total_us;
    }
    size_t k = used[f.op]++;
    const auto& outs = outputs[f.op];
    f.node = k < outs.size() ? c.r.graph.node(outs[k].node).name : c.name_of(cls);
    for (size_t i : region) {
      f.replaces.push_back(c.st.input.nodes()[i].name);
      if (!opt.costs) continue;
      auto it = input_cost.find(i);
      if (it == input_cost.end() || !it->second->cost.is_kernel) continue;
      f.replaced_kernels.push_back(c.st.input.nodes()[i].name);
      f.unfused.add(it->second->cost);
    }
    f.assumes = site_assumptions(c, f.rule, region);
    if (ex) add_proof(c, *ex, n, cls, region, opt, f);
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace eqfuse::explain_detail
