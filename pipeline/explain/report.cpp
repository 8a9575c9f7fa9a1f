// explain_run and its text/JSON renderings (pipeline/explain/report.hpp).
//
// Vocabulary used below: an "extracted class" is a canonical e-class the
// extraction chose a node for; the "region" of a fused node is what it
// would replace: walking from the classes its outputs cover towards the
// inputs, stopping at the fused node's own inputs (and at anything those
// inputs depend on, which is needed either way).
#include "pipeline/explain/report.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "bridge/arg_encoding.hpp"
#include "bridge/from_graph.hpp"
#include "egraph/explain.hpp"
#include "pipeline/egraph_cost.hpp"
#include "pipeline/explain/near_miss.hpp"
#include "pipeline/fusion_credit.hpp"
#include "pipeline/optimize_state.hpp"

namespace eqfuse {

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

// Everything the analyses below look up, computed once per report.
struct Ctx {
  const OptimizeResult& r;
  const OptimizeState& st;
  const EGraph& g;
  const OpRegistry& reg;
  FusionCredit credit;  // which rule made a fused node
  // Canonical class -> input node indices, in input order (looked up, never iterated).
  absl::flat_hash_map<Id, std::vector<size_t>> inputs_at;
  std::map<Id, Id> chosen;  // extracted class -> chosen e-node (iterated in class order)
  // Class -> extracted classes using it (looked up, never iterated).
  absl::flat_hash_map<Id, std::vector<Id>> users;
  absl::flat_hash_set<Id> roots;

  Ctx(const OptimizeResult& res, const OpRegistry& registry)
      : r(res), st(*res.state), g(*res.state->egraph), reg(registry), credit(*res.state) {
    for (size_t i = 0; i < st.input.nodes().size() && i < st.loaded.node_class.size(); ++i)
      if (st.loaded.node_class[i] != kNoId) inputs_at[g.find(st.loaded.node_class[i])].push_back(i);
    for (Id cls : st.problem.eclass_of) {
      Id n = st.problem.chosen_node(st.extraction, cls);
      if (n != kNoId) chosen.emplace(cls, n);
    }
    for (const auto& [cls, n] : chosen)
      for (Id child : g.node(n).children) users[g.find(child)].push_back(cls);
    for (Id root : st.loaded.roots) roots.insert(g.find(root));
  }

  std::string op_name(Id n) const { return std::string(g.node_op(n).str()); }
  // A fused op the rewrites added (the input's own fused ops are not fusions).
  bool is_fused(Id n) const { return credit.is_new_fused_node(n); }
  bool is_getitem(Id n) const { return g.node_op(n).str() == graph_ops::kGetItem; }
  bool extracted(Id cls) const { return chosen.count(cls) > 0; }
  CostBreakdown cost(Id n) const {
    if (st.folded.contains(n)) {
      CostBreakdown c;
      c.note = std::string(kFoldedNote);
      return c;
    }
    return enode_cost(g, *st.types, reg, *st.model, n);
  }
  // The input name of a class, else a description of its chosen node
  // ("npu_add_rms_norm_quant[2]" for a projection of a new node).
  std::string name_of(Id cls) const {
    auto it = inputs_at.find(cls);
    if (it != inputs_at.end()) return st.input.nodes()[it->second.front()].name;
    auto ch = chosen.find(cls);
    if (ch == chosen.end()) return fmt::format("e-class {}", cls);
    NodeView n = g.node(ch->second);
    if (is_getitem(ch->second) && n.children.size() == 2) {
      std::optional<Constant> index = g.constant_of(g.find(n.children[1]));
      return fmt::format("{}[{}]", name_of(g.find(n.children[0])),
                         index ? index->to_string() : "?");
    }
    return short_name(op_name(ch->second));
  }
  // The input node at a class, preferring one whose op is `op` (a class
  // can hold several input nodes, e.g. a no-op cast and its operand).
  std::string site_name(Id cls, std::string_view op) const {
    auto it = inputs_at.find(cls);
    if (it != inputs_at.end())
      for (size_t i : it->second)
        if (st.input.nodes()[i].target == op) return st.input.nodes()[i].name;
    return name_of(cls);
  }
  static std::string short_name(const std::string& op) {
    size_t colon = op.find("::");
    return colon == std::string::npos ? op : op.substr(colon + 2);
  }
  // Same op, payload and (canonical) children: the same term up to equality.
  bool same_enode(Id a, Id b) const {
    NodeView x = g.node(a), y = g.node(b);
    if (x.op != y.op || x.payload != y.payload || x.children.size() != y.children.size())
      return false;
    for (size_t i = 0; i < x.children.size(); ++i)
      if (g.find(x.children[i]) != g.find(y.children[i])) return false;
    return true;
  }
  // An input node survives when its e-node is the one chosen for its class.
  bool input_kept(size_t i) const {
    Id n = st.loaded.node_class.at(i);
    if (n == kNoId) return true;
    auto it = chosen.find(g.find(n));
    return it != chosen.end() && same_enode(it->second, n);
  }
};

// The classes a fused node's inputs are: its children, looking through
// prim::list nodes (tensor lists).
std::set<Id> input_classes(const Ctx& c, Id fused) {
  std::set<Id> out;
  for (Id child : c.g.node(fused).children) {
    Id cls = c.g.find(child);
    out.insert(cls);
    for (Id n : c.g.class_nodes(cls))
      if (c.op_name(n) == graph_ops::kList)
        for (Id item : c.g.node(n).children) out.insert(c.g.find(item));
  }
  return out;
}

// Classes the extracted graph needs to compute `seeds`: the seeds and their
// chosen descendants. Seeds the extraction does not compute are looked
// through (their nodes' children, a few levels) so a fused node needing a
// new view still stops at the view's operand.
//
// Only the neighbourhood matters: the caller's walk over the replaced input
// nodes stops at input nodes the output keeps, which every class needed far
// below the seeds is. So the walk stops kNeededDepth chosen levels down;
// without that bound it visits everything below the seeds, for every fused
// node (quadratic on a stack of decoder blocks).
constexpr int kNeededDepth = 16;

absl::flat_hash_set<Id> needed_anyway(const Ctx& c, const std::set<Id>& seeds) {
  absl::flat_hash_set<Id> out;
  struct Item {
    Id cls;
    int depth;         // look-through levels
    int chosen_depth;  // chosen levels below the seeds
  };
  std::deque<Item> todo;
  for (Id s : seeds) todo.push_back({s, 0, 0});
  while (!todo.empty()) {
    auto [cls, depth, chosen_depth] = todo.front();
    todo.pop_front();
    if (!out.insert(cls).second) continue;
    auto it = c.chosen.find(cls);
    if (it != c.chosen.end()) {
      if (chosen_depth >= kNeededDepth) continue;
      for (Id ch : c.g.node(it->second).children)
        todo.push_back({c.g.find(ch), depth, chosen_depth + 1});
    } else if (depth < 3) {
      for (Id n : c.g.class_nodes(cls))
        for (Id ch : c.g.node(n).children) todo.push_back({c.g.find(ch), depth + 1, chosen_depth});
    }
  }
  return out;
}

bool is_reshaping_view(std::string_view op) {
  return op == "aten::view" || op == "aten::reshape" || op == "aten::_unsafe_view";
}

// Extracted classes whose value the fused node (in class `fused_cls`) would
// provide: its own class and the classes holding a projection of it. When no
// input node holds the fused value itself (a rule that moved an elementwise op
// under a view: relu(view(addmm)) => view(npu_fused_matmul)), the classes of
// views of it count too.
std::vector<Id> covered_classes(const Ctx& c, Id fused_cls) {
  std::vector<Id> out;
  if (c.extracted(fused_cls)) out.push_back(fused_cls);
  const bool holds_input = c.inputs_at.count(fused_cls) > 0;
  for (Id parent : c.g.class_parents(fused_cls)) {
    if (!c.g.node_alive(parent)) continue;
    const bool view_of_fused = !holds_input && is_reshaping_view(c.g.node_op(parent).str()) &&
                               c.g.find(c.g.node(parent).children[0]) == fused_cls;
    if (!c.is_getitem(parent) && !view_of_fused) continue;
    Id cls = c.g.find(parent);
    if (c.extracted(cls) && std::find(out.begin(), out.end(), cls) == out.end()) out.push_back(cls);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The extracted classes between `covered` and the fused node's inputs.
std::set<Id> extracted_region(const Ctx& c, const std::vector<Id>& covered,
                              const absl::flat_hash_set<Id>& stop) {
  std::set<Id> region(covered.begin(), covered.end());
  std::deque<Id> todo(covered.begin(), covered.end());
  while (!todo.empty()) {
    Id cls = todo.front();
    todo.pop_front();
    for (Id ch : c.g.node(c.chosen.at(cls)).children) {
      Id child = c.g.find(ch);
      if (stop.count(child) || !c.extracted(child)) continue;
      if (c.g.node(c.chosen.at(child)).children.empty()) continue;  // leaves are free
      if (region.insert(child).second) todo.push_back(child);
    }
  }
  return region;
}

// ---- chosen fusions -------------------------------------------------------

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

// The kernels a fused node brings with it. For a chosen one: the classes
// below it that hold no input node, which the same rewrite made
// (mindspore/matmul-split's wide matmul and the weights' concatenation under
// its split). For one not chosen: the classes below it the extraction did not
// compute, which it would need (the mul feeding an npu_add_rms_norm that
// would replace a muls_add). Each is priced by its chosen node, else its
// cheapest; the walk stops at classes paid for either way.
void add_new_operands(const Ctx& c, Id fused, bool chosen_side, std::set<Id>& seen, CostSum& sum,
                      int depth = 8) {
  if (depth == 0) return;
  for (Id child : c.g.node(fused).children) {
    Id cls = c.g.find(child);
    const bool paid_anyway = chosen_side ? c.inputs_at.count(cls) > 0 : c.extracted(cls);
    if (paid_anyway || !seen.insert(cls).second) continue;
    Id best = kNoId;
    if (auto it = c.chosen.find(cls); it != c.chosen.end()) {
      best = it->second;
    } else {
      double best_us = 0;
      for (Id n : c.g.class_nodes(cls)) {
        double us = c.cost(n).total_us;
        if (best == kNoId || us < best_us) best = n, best_us = us;
      }
    }
    if (best == kNoId) continue;
    sum.add(c.cost(best));
    add_new_operands(c, best, chosen_side, seen, sum, depth - 1);
  }
}

CostSum new_operands_cost(const Ctx& c, Id fused, bool chosen_side) {
  std::set<Id> seen;
  CostSum sum;
  add_new_operands(c, fused, chosen_side, seen, sum);
  return sum;
}

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

// ---- fusions possible but not chosen ---------------------------------------

// True when the candidate's outputs are already produced by a chosen node
// of the same fused op (another spelling of a chosen fusion, e.g. with a
// different layout of its inputs): not a separate decision.
// The node chosen at extracted class `cls`, or, when that is a projection,
// the chosen node it projects (the multi-output kernel that computes it).
Id chosen_producer(const Ctx& c, Id cls) {
  Id n = c.chosen.at(cls);
  if (!c.is_getitem(n)) return n;
  auto source = c.chosen.find(c.g.find(c.g.node(n).children[0]));
  return source == c.chosen.end() ? n : source->second;
}

bool variant_of_chosen(const Ctx& c, Id fused) {
  Id cls = c.g.find(fused);
  for (Id covered : covered_classes(c, cls))
    if (c.g.node_op(chosen_producer(c, covered)) == c.g.node_op(fused)) return true;
  return false;
}

// Fused e-nodes not chosen whose value (or a projection of it) sits in an
// extracted class; the cheapest per (op, class).
std::vector<Id> unchosen_candidates(const Ctx& c) {
  std::map<std::pair<std::string, Id>, Id> best;
  auto consider = [&](Id n) {
    Id cls = c.g.find(n);
    auto it = c.chosen.find(cls);
    if (it != c.chosen.end() && c.same_enode(it->second, n)) return;
    auto key = std::make_pair(c.op_name(n), cls);
    auto [pos, fresh] = best.emplace(key, n);
    if (!fresh && c.cost(n).total_us < c.cost(pos->second).total_us) pos->second = n;
  };
  for (const auto& [cls, chosen_node] : c.chosen) {
    for (Id n : c.g.class_nodes(cls)) {
      if (c.is_fused(n)) consider(n);
      if (!c.is_getitem(n)) continue;
      for (Id m : c.g.class_nodes(c.g.find(c.g.node(n).children[0])))
        if (c.is_fused(m)) consider(m);
    }
  }
  std::vector<Id> out;
  for (const auto& [key, n] : best)
    if (!variant_of_chosen(c, n)) out.push_back(n);
  std::sort(out.begin(), out.end());
  return out;
}

// A region class with a user outside the region (or a graph output): the
// unfused producer of that value has to run even with the fused kernel.
std::pair<Id, Id> shared_intermediate(const Ctx& c, const std::set<Id>& region,
                                      const std::vector<Id>& covered) {
  for (Id cls : region) {
    if (std::find(covered.begin(), covered.end(), cls) != covered.end()) continue;
    if (c.roots.count(cls)) return {cls, kNoId};
    auto it = c.users.find(cls);
    if (it == c.users.end()) continue;
    for (Id user : it->second)
      if (!region.count(user)) return {cls, user};
  }
  return {kNoId, kNoId};
}

// Region classes `from` depends on (within the region), `from` included.
std::set<Id> region_closure(const Ctx& c, Id from, const std::set<Id>& region) {
  std::set<Id> out{from};
  std::deque<Id> todo{from};
  while (!todo.empty()) {
    Id cls = todo.front();
    todo.pop_front();
    for (Id ch : c.g.node(c.chosen.at(cls)).children) {
      Id child = c.g.find(ch);
      if (region.count(child) && out.insert(child).second) todo.push_back(child);
    }
  }
  return out;
}

std::string kernel_ops(const Ctx& c, const std::set<Id>& classes) {
  std::set<std::string> ops;
  for (Id cls : classes)
    if (c.cost(c.chosen.at(cls)).is_kernel) {
      std::string op = c.op_name(c.chosen.at(cls));
      ops.insert(op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2));
    }
  std::string out;
  for (const std::string& op : ops) out += (out.empty() ? "" : " + ") + op;
  return out.empty() ? "nodes" : out;
}

std::string user_name(const Ctx& c, Id user) {
  return user == kNoId ? "the graph output" : c.name_of(user);
}

UnchosenFusion explain_unchosen(const Ctx& c, Id fused) {
  Id cls = c.g.find(fused);
  std::vector<Id> covered = covered_classes(c, cls);
  std::set<Id> region = extracted_region(c, covered, needed_anyway(c, input_classes(c, fused)));
  UnchosenFusion u;
  u.op = c.op_name(fused);
  u.rule = c.credit.rule_of(fused);
  u.for_node = covered.empty() ? c.name_of(cls) : c.name_of(covered.front());
  for (Id r : region) u.unfused_us += c.cost(c.chosen.at(r)).total_us;
  u.fused_total_us =
      c.cost(fused).total_us + new_operands_cost(c, fused, /*chosen_side=*/false).total_us;
  std::string short_op =
      u.op.substr(u.op.find("::") == std::string::npos ? 0 : u.op.find("::") + 2);
  auto [shared, user] = shared_intermediate(c, region, covered);
  if (shared != kNoId) {
    std::set<Id> stay = region_closure(c, shared, region);
    for (Id s : stay) {
      CostBreakdown k = c.cost(c.chosen.at(s));
      u.fused_total_us += k.total_us;
      if (k.is_kernel) u.must_still_run.push_back(c.name_of(s));
    }
    u.kind = "intermediate_used_elsewhere";
    u.intermediate = c.name_of(shared);
    u.used_by = user_name(c, user);
    // What must keep running may itself be a chosen fusion (a muls_add that
    // would take the add an npu_add_rms_norm_dynamic_quant already computes):
    // then it is "the chosen" kernel, not an unfused intermediate.
    const bool stays_fused = std::any_of(stay.begin(), stay.end(),
                                         [&](Id s) { return c.is_fused(chosen_producer(c, s)); });
    if (stays_fused)
      u.reason = fmt::format(
          "{} not used for {}: the chosen {} is also used by {}, so {} must still run; {:.2f} us "
          "with {} vs {:.2f} us as chosen",
          short_op, u.for_node, u.intermediate, u.used_by, kernel_ops(c, stay), u.fused_total_us,
          short_op, u.unfused_us);
    else
      u.reason = fmt::format(
          "{} not used for {}: its intermediate {} is also used by {}, so the unfused {} must "
          "still run; fused total {:.2f} us vs unfused {:.2f} us",
          short_op, u.for_node, u.intermediate, u.used_by, kernel_ops(c, stay), u.fused_total_us,
          u.unfused_us);
  } else if (std::abs(u.fused_total_us - u.unfused_us) < 0.005) {
    u.kind = "tie";
    u.reason = fmt::format(
        "{} not used for {}: it costs the same as the unfused {} ({:.2f} us); the input's own "
        "nodes are kept on ties",
        short_op, u.for_node, kernel_ops(c, region), u.unfused_us);
  } else if (u.fused_total_us < u.unfused_us && c.st.rejected_output) {
    // Cheaper here, but optimize returned the input: the emitted graph as a whole
    // (emission, reinplace) modeled costlier than the input.
    u.kind = "kept_input";
    u.reason = fmt::format(
        "{} not used for {}: cheaper here ({:.2f} us vs {:.2f} us for the unfused {}), but the "
        "optimized graph as a whole modeled costlier than the input, which was kept",
        short_op, u.for_node, u.fused_total_us, u.unfused_us, kernel_ops(c, region));
  } else {
    u.kind = "costs_more";
    u.reason =
        fmt::format("{} not used for {}: costs more: {:.2f} us vs {:.2f} us for the unfused {}",
                    short_op, u.for_node, u.fused_total_us, u.unfused_us, kernel_ops(c, region));
  }
  return u;
}

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

std::string stream_label(const std::string& s) {
  return s.empty() ? "the default stream" : fmt::format("stream '{}'", s);
}

}  // namespace

size_t near_miss_count(const ExplainReport& rep, std::string_view rule) {
  return static_cast<size_t>(std::count_if(rep.near_misses.begin(), rep.near_misses.end(),
                                           [&](const NearMiss& m) { return m.rule == rule; }));
}

std::string failure_detail(std::string_view condition, std::string_view detail) {
  // The detail starts with the failing part of the condition; when that is
  // the whole condition, it is not said twice.
  if (std::string whole = std::string(condition) + ": "; detail.starts_with(whole))
    detail.remove_prefix(whole.size());
  return detail.empty() ? "" : ": " + std::string(detail);
}

std::string rejection_sentence(const RejectedMatch& m) {
  return fmt::format("{} rejected at {}: `{}` failed{}", m.rule, m.at, m.condition,
                     failure_detail(m.condition, m.detail));
}

std::string cross_stream_sentence(const CrossStreamNearMiss& c) {
  return fmt::format(
      "{} cannot fuse {} into {}: {} runs on {} and {} on {}; rules match within one stream",
      c.rule, c.producer, c.consumer, c.producer, stream_label(c.producer_stream), c.consumer,
      stream_label(c.consumer_stream));
}

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

namespace {

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out.empty() ? "-" : out;
}

std::string format_chosen(const ChosenFusion& f) {
  std::string out = fmt::format(
      "  {} = {} by {}: {:.2f} us (launch {:.2f}, fixed {:.2f}, memory {:.2f}, compute {:.2f})\n",
      f.node, f.op, f.rule, f.cost.total_us, f.cost.launch_us, f.cost.fixed_us, f.cost.memory_us,
      f.cost.compute_us);
  out += fmt::format("    replaces {} (kernels: {})\n", join(f.replaces), join(f.replaced_kernels));
  for (const std::string& a : f.assumes)
    out += fmt::format("    assumes {} (a relation of the inputs the graph cannot show)\n", a);
  out += fmt::format("    {:<10} {:>10} {:>16}\n", "us", "fused",
                     fmt::format("unfused ({})", f.unfused.kernels));
  auto row = [&](const char* what, double fused, double unfused) {
    out += fmt::format("    {:<10} {:>10.2f} {:>16.2f}\n", what, fused, unfused);
  };
  row("launch", f.cost.launch_us, f.unfused.launch_us);
  row("fixed", f.cost.fixed_us, f.unfused.fixed_us);
  row("memory", f.cost.memory_us, f.unfused.memory_us);
  row("compute", f.cost.compute_us, f.unfused.compute_us);
  row("total", f.cost.total_us, f.unfused.total_us);
  if (!f.proof.empty()) out += "    proof:\n";
  for (const ProofStep& s : f.proof)
    out += s.rule.empty() ? fmt::format("      {}\n", s.term)
                          : fmt::format("      = {}   [{}]\n", s.term, s.rule);
  if (!f.proof_note.empty()) out += fmt::format("    proof note: {}\n", f.proof_note);
  return out;
}

std::string format_rule_table(const ExplainReport& rep) {
  std::string out = fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8} {:>5}\n", "rule", "candidates",
                                "fired", "chosen", "rejected", "near");
  for (const RuleRunStats& s : rep.rules) {
    if (!s.enabled) {
      out += fmt::format("{:<46} off: {}\n", s.rule, s.toggle_reason);
      continue;
    }
    std::string why;
    for (const auto& [cond, n] : s.rejected_by) why += fmt::format(" [{}x `{}`]", n, cond);
    out += fmt::format("{:<46} {:>10} {:>6} {:>6} {:>8} {:>5}{}\n", s.rule, s.matches,
                       s.applications, s.chosen, s.rejected, near_miss_count(rep, s.rule), why);
  }
  return out;
}

bool is_fusion_rule(const ExplainReport& rep, const std::string& rule) {
  for (const RuleRunStats& s : rep.rules)
    if (s.rule == rule) return s.fusion;
  return false;
}

}  // namespace

std::string format_explanation_text(const ExplainReport& rep) {
  std::string out = fmt::format("explain: {} on {}, modeled {:.1f} us -> {:.1f} us\n", rep.mode,
                                rep.device, rep.cost_before_us, rep.cost_after_us);
  out += fmt::format("extraction: {} ({})\n", rep.extractor, rep.extraction_quality);
  if (!rep.kept_input.empty()) out += fmt::format("kept the input graph: {}\n", rep.kept_input);
  if (!rep.frozen_inputs.empty())
    out += fmt::format("frozen inputs (priced once, not per call): {}\n",
                       fmt::join(rep.frozen_inputs, ", "));
  out += "chosen fusions:\n";
  if (rep.chosen.empty()) out += "  none\n";
  for (const ChosenFusion& c : rep.chosen) out += format_chosen(c);
  out += "possible but not chosen:\n";
  if (rep.not_chosen.empty()) out += "  none\n";
  for (const UnchosenFusion& u : rep.not_chosen) out += fmt::format("  {}\n", u.reason);
  // Fusion rules first: their refusals are the decisions a reader asks
  // about; layout rules refuse many matches as a matter of course (a view
  // that is not a no-op), listed apart so they do not bury them.
  std::string fusion_rejections, layout_rejections;
  for (const RejectedMatch& m : rep.rejected)
    (is_fusion_rule(rep, m.rule) ? fusion_rejections : layout_rejections) +=
        fmt::format("  {}\n", rejection_sentence(m));
  out += "rejected by a condition:\n";
  out += fusion_rejections.empty() ? "  none\n" : fusion_rejections;
  if (!layout_rejections.empty())
    out += "layout and other rules refused by a condition:\n" + layout_rejections;
  out += "near misses:\n";
  if (rep.near_misses.empty()) out += "  none\n";
  for (const NearMiss& m : rep.near_misses) out += fmt::format("  {}\n", near_miss_sentence(m));
  out += "rules off:\n";
  // One line per reason (the opt-in rules of a family share one), in library order.
  std::vector<std::pair<std::string, std::string>> off;  // reason -> rules
  for (const RuleRunStats& s : rep.rules) {
    if (s.enabled) continue;
    auto it = std::find_if(off.begin(), off.end(),
                           [&](const auto& r) { return r.first == s.toggle_reason; });
    if (it == off.end()) it = off.insert(off.end(), {s.toggle_reason, ""});
    it->second += (it->second.empty() ? "" : ", ") + s.rule;
  }
  for (const auto& [reason, rules] : off) out += fmt::format("  {}: {}\n", reason, rules);
  if (off.empty()) out += "  none\n";
  // User rules only (built-in ones are proven by the tests): what the load-time
  // soundness check found, so a trusted or unchecked rule is never silent.
  std::string checked;
  for (const RuleRunStats& s : rep.rules)
    if (!s.load_check.empty()) checked += fmt::format("  {}: {}\n", s.rule, s.load_check);
  if (!checked.empty()) out += "user rules:\n" + checked;
  out += "cross-stream near misses:\n";
  if (rep.cross_stream.empty()) out += "  none\n";
  for (const CrossStreamNearMiss& c : rep.cross_stream)
    out += fmt::format("  {}\n", cross_stream_sentence(c));
  out += format_rule_table(rep);
  out += format_reinplace_text(rep.reinplace);
  return out;
}

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
