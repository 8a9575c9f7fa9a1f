// find_near_misses (pipeline/explain/near_miss.hpp): relaxed-literal matches
// and fusion patterns that a rejected layout rule kept from matching.
#include "pipeline/explain/near_miss.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>

#include <fmt/format.h>

#include "bridge/from_graph.hpp"
#include "egraph/ematch.hpp"

namespace eqfuse {
namespace {

// The op at the root of a (multi-)pattern's first part.
std::string_view root_op(const MultiPattern& p) {
  return p.parts().front().pattern.root_node().op.str();
}

// An enabled fusion rule with its search pattern, exact and relaxed, for
// one stream.
struct FusionSearch {
  const RuleDef* rule;
  SearchPattern exact, relaxed;
  Matcher exact_matcher, relaxed_matcher;
  std::set<std::string> fused_ops;  // what the rule introduces

  FusionSearch(const RuleDef& r, const OpRegistry& reg, const std::string& stream)
      : rule(&r),
        exact(compile_search_pattern(r, reg, stream, false)),
        relaxed(compile_search_pattern(r, reg, stream, true)),
        exact_matcher(exact.pattern),
        relaxed_matcher(relaxed.pattern),
        fused_ops(r.introduced_ops()) {}
  std::string_view anchor_op() const { return root_op(exact.pattern); }
};

// A single-op pattern (vllm/quantize-mul-as-div) is an op rewritten in
// place, not a fusion of several: with its literal relaxed it would match
// every call of that op.
size_t search_calls(const RuleDef& r) {
  return static_cast<size_t>(std::count_if(r.search.nodes().begin(), r.search.nodes().end(),
                                           [](const Node& n) { return n.kind == NodeKind::Call; }));
}

std::vector<std::unique_ptr<FusionSearch>> fusion_searches(const OptimizeState& st,
                                                           const OpRegistry& reg) {
  std::set<std::string> enabled(st.rules.base_name.begin(), st.rules.base_name.end());
  std::vector<std::unique_ptr<FusionSearch>> out;
  for (const RuleDef& r : st.library->rules()) {
    if (!r.has_label("fusion") || !enabled.count(r.name) || search_calls(r) < 2) continue;
    for (const std::string& stream : st.rules.streams)
      out.push_back(std::make_unique<FusionSearch>(r, reg, stream));
  }
  return out;
}

// True when class `cls`, or a projection of it, already holds one of the
// rule's fused ops: the rule fused this site (perhaps through another
// spelling), so nothing was missed.
bool holds_fused_op(const EGraph& g, Id cls, const std::set<std::string>& ops) {
  auto fused = [&](Id c) {
    for (Id n : g.class_nodes(g.find(c))) {
      if (ops.count(std::string(g.node_op(n).str()))) return true;
      if (g.node_op(n).str() != graph_ops::kGetItem) continue;
      for (Id m : g.class_nodes(g.find(g.node(n).children[0])))
        if (ops.count(std::string(g.node_op(m).str()))) return true;
    }
    return false;
  };
  if (fused(cls)) return true;
  for (Id parent : g.class_parents(g.find(cls)))
    if (g.node_alive(parent) && g.node_op(parent).str() == graph_ops::kGetItem &&
        fused(g.find(parent)))
      return true;
  return false;
}

bool matches_exactly(const EGraph& g, const FusionSearch& f, Id cls) {
  std::vector<Id> out;
  return f.exact_matcher.search_class(g, g.find(cls), out) > 0;
}

// Pattern variable i -> index into a match's values (after the root slot).
std::vector<uint32_t> var_slots(const Pattern& p, const MultiPattern& in) {
  std::vector<uint32_t> out;
  for (const std::string& v : p.vars()) out.push_back(*in.var_index(v));
  return out;
}

// ---- literal near misses --------------------------------------------------

// How a bound class reads in a report: its constant, else its input name
// and type.
std::string value_text(const OptimizeState& st, const SiteNamer& site_name, Id cls) {
  const EGraph& g = *st.egraph;
  CondValue v = class_cond_value(g, st.types.get(), cls);
  if (g.constant_of(cls)) return v.to_string();
  return fmt::format("{} ({})", site_name(cls, ""), v.to_string());
}

std::vector<LiteralMismatch> mismatches(const OptimizeState& st, const SiteNamer& site_name,
                                        const FusionSearch& f, std::span<const Id> match) {
  const EGraph& g = *st.egraph;
  const MultiPattern& mp = f.relaxed.pattern;
  std::span<const Id> values = match.subspan(1);
  std::vector<LiteralMismatch> out;
  for (const SearchLiteral& lit : f.relaxed.literals) {
    Id cls = g.find(values[*mp.var_index(lit.var)]);
    std::optional<Constant> c = g.constant_of(cls);
    if (c && *c == lit.value) continue;
    std::optional<Id> owner = lit.owner.lookup_mapped(g, values, var_slots(lit.owner, mp));
    out.push_back({owner ? site_name(*owner, lit.op) : lit.node, lit.arg,
                   value_text(st, site_name, cls), constant_cond_value(lit.value).to_string()});
  }
  return out;
}

// Per root class of a relaxed match: the fewest literal differences; a root
// with an exact match (no difference) is dropped, and so is a root that holds
// the fused op of any enabled fusion (`covered`): another rule fused that site,
// so a rule that differs from it in a literal (npu_quantize's div_mode for
// mindspore/rms-norm-quant where torchair/add-rms-norm-quant fused) missed nothing.
void literal_near_misses(const OptimizeState& st, const SiteNamer& site_name, const FusionSearch& f,
                         const std::set<std::string>& covered, std::vector<NearMiss>& out) {
  if (f.relaxed.literals.empty()) return;
  const EGraph& g = *st.egraph;
  std::vector<Id> matches;
  f.relaxed_matcher.search(g, matches);
  size_t stride = f.relaxed_matcher.stride();
  std::map<Id, std::vector<LiteralMismatch>> best;
  std::set<Id> exact;
  for (size_t off = 0; off < matches.size(); off += stride) {
    std::span<const Id> match(matches.data() + off, stride);
    Id root = g.find(match[0]);
    if (exact.count(root)) continue;
    std::vector<LiteralMismatch> diff = mismatches(st, site_name, f, match);
    if (diff.empty()) {
      exact.insert(root);
      best.erase(root);
      continue;
    }
    auto it = best.find(root);
    if (it == best.end() || diff.size() < it->second.size()) best[root] = std::move(diff);
  }
  for (auto& [root, diff] : best) {
    if (holds_fused_op(g, root, covered)) continue;
    out.push_back({f.rule->name, site_name(root, f.anchor_op()), std::move(diff), "", "", ""});
  }
}

// ---- near misses behind a rejected layout rule -------------------------------

// The e-graph plus hypothetical nodes and merges (a rejected rewrite's right
// side), without touching the e-graph. Classes are e-graph classes or fresh
// ids from num_ids() up; merged classes are represented by the smallest id.
class Overlay {
 public:
  explicit Overlay(const EGraph& g) : g_(g), next_(static_cast<Id>(g.num_ids())) {}

  Id find(Id c) const {
    if (c < g_.num_ids()) c = g_.find(c);
    for (auto it = rep_.find(c); it != rep_.end(); it = rep_.find(c)) c = it->second;
    return c;
  }

  // A class with no node: a value nothing is known about (a computed variable).
  Id unknown_class() { return next_++; }

  // Adds the term of `p` (variable i is values[slots[i]]) and returns its class.
  Id add(const Pattern& p, std::span<const Id> values, std::span<const uint32_t> slots) {
    std::vector<Id> ids(p.nodes().size());
    for (size_t i = 0; i < p.nodes().size(); ++i) {
      const PatternNode& n = p.nodes()[i];
      if (n.is_var) {
        ids[i] = find(values[slots[n.var]]);
        continue;
      }
      std::vector<Id> kids;
      for (uint32_t c : p.children(n)) kids.push_back(ids[c]);
      ids[i] = add_node({n.op, n.payload, std::move(kids)});
    }
    return ids.back();
  }

  void merge(Id a, Id b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (b < a) std::swap(a, b);
    rep_[b] = a;
    auto& into = members_[a];
    if (into.empty()) into.push_back(a);
    auto from = members_.find(b);
    if (from == members_.end()) {
      into.push_back(b);
    } else {
      into.insert(into.end(), from->second.begin(), from->second.end());
      members_.erase(from);
    }
    auto extra = extra_.find(b);
    if (extra != extra_.end()) {
      auto& dst = extra_[a];
      dst.insert(dst.end(), extra->second.begin(), extra->second.end());
      extra_.erase(b);
    }
  }

  // True when the replay added a node the e-graph does not have. A replay
  // that only merges existing classes (layout/noop-view, cast-same-dtype)
  // claims two different values are equal; a pattern needing that is not a
  // near miss but another computation.
  bool added_nodes() const { return !extra_.empty(); }

  // Classes the overlay changed (holding a new node or a merge), and their
  // ancestors up to `depth` levels: where a pattern using the change can root.
  std::vector<Id> roots_near_changes(int depth) const {
    std::set<Id> seen;
    std::deque<std::pair<Id, int>> todo;
    for (const auto& [cls, nodes] : extra_) todo.push_back({find(cls), 0});
    for (const auto& [cls, members] : members_) todo.push_back({find(cls), 0});
    while (!todo.empty()) {
      auto [cls, d] = todo.front();
      todo.pop_front();
      if (!seen.insert(cls).second || d >= depth) continue;
      for (Id member : members(cls)) {
        if (member >= g_.num_ids()) continue;
        for (Id parent : g_.class_parents(g_.find(member)))
          if (g_.node_alive(parent)) todo.push_back({find(parent), d + 1});
      }
      for (const auto& [owner, nodes] : extra_)
        for (const HNode& n : nodes)
          if (std::any_of(n.children.begin(), n.children.end(),
                          [&](Id ch) { return find(ch) == cls; }))
            todo.push_back({find(owner), d + 1});
    }
    return {seen.begin(), seen.end()};
  }

  // True when the single pattern `p` matches at class `cls`.
  bool matches(const Pattern& p, Id cls) const {
    std::vector<Id> bound(p.vars().size(), kNoId);
    return match(p, p.root(), cls, bound, [](std::vector<Id>&) { return true; });
  }

 private:
  struct HNode {  // a hypothetical e-node
    Symbol op;
    uint64_t payload;
    std::vector<Id> children;
    bool operator==(const HNode&) const = default;
  };
  using Next = std::function<bool(std::vector<Id>&)>;

  Id add_node(HNode n) {
    bool all_real =
        std::all_of(n.children.begin(), n.children.end(), [&](Id c) { return c < g_.num_ids(); });
    if (all_real)
      if (std::optional<Id> hit = g_.lookup(n.op, n.children, n.payload)) return find(*hit);
    for (const auto& [cls, nodes] : extra_)
      if (std::find(nodes.begin(), nodes.end(), n) != nodes.end()) return find(cls);
    Id fresh = next_++;
    extra_[fresh].push_back(std::move(n));
    return fresh;
  }

  std::vector<Id> members(Id rep) const {
    auto it = members_.find(rep);
    return it == members_.end() ? std::vector<Id>{rep} : it->second;
  }

  // Backtracking match of pattern node `i` at class `cls`; `next` continues
  // with the bindings made so far and decides.
  bool match(const Pattern& p, uint32_t i, Id cls, std::vector<Id>& bound, const Next& next) const {
    const PatternNode& pn = p.nodes()[i];
    cls = find(cls);
    if (pn.is_var) {
      if (bound[pn.var] != kNoId) return bound[pn.var] == cls && next(bound);
      bound[pn.var] = cls;
      bool ok = next(bound);
      bound[pn.var] = kNoId;
      return ok;
    }
    auto try_node = [&](Symbol op, uint64_t payload, std::span<const Id> kids) {
      return op == pn.op && payload == pn.payload && kids.size() == pn.arity &&
             match_children(p, pn, 0, kids, bound, next);
    };
    for (Id member : members(cls)) {
      if (member < g_.num_ids())
        for (Id n : g_.class_nodes(g_.find(member))) {
          NodeView v = g_.node(n);
          if (try_node(v.op, v.payload, v.children)) return true;
        }
      auto extra = extra_.find(member);
      if (extra != extra_.end())
        for (const HNode& n : extra->second)
          if (try_node(n.op, n.payload, n.children)) return true;
    }
    return false;
  }

  bool match_children(const Pattern& p, const PatternNode& pn, size_t k, std::span<const Id> kids,
                      std::vector<Id>& bound, const Next& next) const {
    if (k == kids.size()) return next(bound);
    return match(p, p.children(pn)[k], kids[k], bound,
                 [&](std::vector<Id>& b) { return match_children(p, pn, k + 1, kids, b, next); });
  }

  const EGraph& g_;
  Id next_;
  std::map<Id, Id> rep_;                    // merged class -> its representative
  std::map<Id, std::vector<Id>> members_;   // representative -> merged classes
  std::map<Id, std::vector<HNode>> extra_;  // class -> hypothetical nodes
};

// The slots of p's variables in a rewrite's substitution (its searcher's variables, then its
// computed ones).
std::vector<uint32_t> subst_slots(const Pattern& p, const Rewrite& rw) {
  std::vector<uint32_t> out;
  for (const std::string& v : p.vars()) out.push_back(*rw.subst_index(v));
  return out;
}

// Replays a rejected match's equalities into the overlay. The rewrite's computed variables
// (a rule's `let:`) were not computed for a rejected match: each stands for an unknown value.
void replay(Overlay& ov, const EGraph& g, const Rewrite& rw, std::span<const Id> values) {
  std::vector<Id> subst(values.begin(), values.end());
  for (size_t i = 0; i < rw.computed_vars().size(); ++i) subst.push_back(ov.unknown_class());
  for (const Equality& eq : rw.equalities()) {
    std::optional<Id> lhs;
    if (eq.lhs) {
      lhs = eq.lhs->lookup_mapped(g, subst, subst_slots(*eq.lhs, rw));
    } else if (!eq.target.empty()) {
      lhs = subst[*rw.subst_index(eq.target)];
    }
    if (!lhs) continue;  // the left side is not in the e-graph (or is the root: none here)
    ov.merge(*lhs, ov.add(eq.rhs, subst, subst_slots(eq.rhs, rw)));
  }
}

int pattern_depth(const Pattern& p) {
  std::vector<int> depth(p.nodes().size(), 0);
  for (size_t i = 0; i < p.nodes().size(); ++i)
    for (uint32_t c : p.children(p.nodes()[i])) depth[i] = std::max(depth[i], depth[c] + 1);
  return depth.empty() ? 0 : depth.back();
}

void layout_near_misses(const OptimizeState& st, const SiteNamer& site_name,
                        const std::vector<std::unique_ptr<FusionSearch>>& fusions,
                        std::vector<NearMiss>& out) {
  const EGraph& g = *st.egraph;
  std::set<std::pair<std::string, std::vector<Id>>> replayed;
  for (const Rejection& rej : st.rules.rejections->entries) {
    const RuleDef* rule = st.library->find(rej.rule);
    const Rewrite* rw = st.rules.find(rej.rewrite);
    // A rule labelled no-near-miss states a fact that holds only under its conditions (type
    // promotion written out): a refused match is another computation, not a near miss.
    if (rule == nullptr || rule->has_label("fusion") || rule->has_label("no-near-miss") ||
        rw == nullptr || rej.values.size() != rw->vars().size())
      continue;
    std::vector<Id> values;
    for (Id v : rej.values) values.push_back(g.find(v));
    if (!replayed.insert({rej.rewrite, values}).second) continue;
    Overlay ov(g);
    replay(ov, g, *rw, values);
    if (!ov.added_nodes()) continue;
    Id site = st.rules.rejection_root(g, rej);
    for (const auto& f : fusions) {
      const MultiPattern& mp = f->exact.pattern;
      if (mp.parts().size() != 1) continue;
      const Pattern& p = mp.parts().front().pattern;
      for (Id root : ov.roots_near_changes(pattern_depth(p))) {
        bool real = root < g.num_ids();
        if (!ov.matches(p, root)) continue;
        if (real && (matches_exactly(g, *f, root) || holds_fused_op(g, root, f->fused_ops)))
          continue;
        if (site != kNoId && holds_fused_op(g, site, f->fused_ops)) continue;
        std::string at = site == kNoId ? site_name(root, f->anchor_op())
                                       : site_name(site, root_op(rw->searcher().pattern()));
        out.push_back({f->rule->name, at, {}, rej.rule, rej.condition, rej.detail});
        break;
      }
    }
  }
}

// One entry per (rule, site): literal differences and a layout rule together.
std::vector<NearMiss> merge_by_site(std::vector<NearMiss> all) {
  std::vector<NearMiss> out;
  for (NearMiss& m : all) {
    auto same = std::find_if(out.begin(), out.end(),
                             [&](const NearMiss& o) { return o.rule == m.rule && o.at == m.at; });
    if (same == out.end()) {
      out.push_back(std::move(m));
      continue;
    }
    if (same->literals.empty()) same->literals = std::move(m.literals);
    if (same->layout_rule.empty()) {
      same->layout_rule = std::move(m.layout_rule);
      same->layout_condition = std::move(m.layout_condition);
      same->layout_detail = std::move(m.layout_detail);
    }
  }
  return out;
}

}  // namespace

std::vector<NearMiss> find_near_misses(const OptimizeState& st, const OpRegistry& reg,
                                       const SiteNamer& site_name) {
  std::vector<std::unique_ptr<FusionSearch>> fusions = fusion_searches(st, reg);
  std::set<std::string> covered;
  for (const auto& f : fusions) covered.insert(f->fused_ops.begin(), f->fused_ops.end());
  std::vector<NearMiss> all;
  for (const auto& f : fusions) literal_near_misses(st, site_name, *f, covered, all);
  layout_near_misses(st, site_name, fusions, all);
  return merge_by_site(std::move(all));
}

std::string near_miss_sentence(const NearMiss& m) {
  std::string out = fmt::format("{} not applied at {}: ", m.rule, m.at);
  // One clause per node: "transpose's dim0 is -1 and dim1 is -2, the rule needs 0 and 1".
  for (size_t i = 0; i < m.literals.size();) {
    size_t end = i;
    while (end < m.literals.size() && m.literals[end].node == m.literals[i].node) ++end;
    std::vector<std::string> found, needed;
    for (size_t k = i; k < end; ++k) {
      found.push_back(fmt::format("{} is {}", m.literals[k].arg, m.literals[k].found));
      needed.push_back(m.literals[k].needed);
    }
    out += fmt::format("{}{}'s {}, the rule needs {}", i == 0 ? "" : "; ", m.literals[i].node,
                       fmt::join(found, " and "), fmt::join(needed, " and "));
    i = end;
  }
  if (!m.layout_rule.empty()) {
    out += m.literals.empty()
               ? fmt::format("it would match if {} had rewritten {}", m.layout_rule, m.at)
               : fmt::format("; {} would have rewritten it", m.layout_rule);
    out += fmt::format(", but `{}` failed", m.layout_condition);
    out += failure_detail(m.layout_condition, m.layout_detail);
  }
  return out;
}

}  // namespace eqfuse
