// Fusions possible but not chosen: a fused e-node in (or projected into) a
// class the extraction used, with another node chosen, and the reason in
// plain words with numbers (an intermediate used elsewhere, a tie, the input
// kept as a whole, or simply a higher cost).
#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>

#include "pipeline/explain/report_internal.hpp"

namespace eqfuse::explain_detail {
namespace {

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

}  // namespace

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

namespace {

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

}  // namespace

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

}  // namespace eqfuse::explain_detail
