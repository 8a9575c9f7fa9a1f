#include "egraph/explain.hpp"

#include <algorithm>
#include <limits>

#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {

// ---- TermBank ---------------------------------------------------------------

uint32_t TermBank::intern(Symbol op, uint64_t payload, std::span<const uint32_t> children) {
  Key key{{op.id(), payload}, {children.begin(), children.end()}};
  auto it = ids_.find(key);
  if (it != ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(terms_.size());
  terms_.push_back({op, payload, key.second});
  ids_.emplace(std::move(key), id);
  return id;
}

uint32_t TermBank::with_child(uint32_t t, size_t i, uint32_t child) {
  if (terms_[t].children[i] == child) return t;
  std::vector<uint32_t> ch = terms_[t].children;
  ch[i] = child;
  return intern(terms_[t].op, terms_[t].payload, ch);
}

uint32_t TermBank::elided() {
  if (elided_ == UINT32_MAX) {
    elided_ = static_cast<uint32_t>(terms_.size());
    terms_.push_back({Symbol(), 0, {}, true});
  }
  return elided_;
}

std::string TermBank::to_string(uint32_t t, int depth, const TermHeadNamer& name) const {
  const ProofTerm& p = terms_[t];
  if (p.elided) return "…";
  if (is_constant_op(p.op))
    return Constant{static_cast<ConstKind>(p.op.id()), p.payload}.to_string();
  std::string head;
  if (name) {
    head = name(p.op, p.payload);
  } else {
    head = p.op.str();
    if (p.payload != 0) head += fmt::format("@{}", p.payload);
  }
  if (p.children.empty()) return head;
  if (depth == 0) return "…";
  std::string s = "(";
  s.append(head);
  for (uint32_t c : p.children) {
    s.push_back(' ');
    s.append(to_string(c, depth < 0 ? -1 : depth - 1, name));
  }
  s.push_back(')');
  return s;
}

std::string Explanation::to_string(int depth) const {
  std::string out;
  for (const ExplanationStep& s : steps) {
    out += terms.to_string(s.term, depth);
    if (!s.rule.empty()) {
      out += fmt::format("    ; {}{}{}", s.backward ? "<= " : "=> ", s.rule,
                         s.coarse ? " (coarse)" : "");
      if (!s.path.empty()) out += fmt::format(" at [{}]", fmt::join(s.path, ","));
    }
    out += '\n';
  }
  return out;
}

// ---- proof construction -----------------------------------------------------

namespace {

constexpr uint32_t kGivenRule = std::numeric_limits<uint32_t>::max();

struct Step {
  uint32_t rule = kGivenRule;  // index into Impl::rule_names, or kGivenRule
  bool backward = false;
  bool coarse = false;
  std::vector<uint32_t> rpath;  // path from the root, innermost index first
  std::vector<uint32_t> subst;  // terms, in the rule's variable order
};

// terms[k] --steps[k]--> terms[k+1].
struct Proof {
  std::vector<uint32_t> terms;
  std::vector<Step> steps;
  static Proof trivial(uint32_t t) { return {{t}, {}}; }
};

Proof reversed(const Proof& p) {
  Proof r;
  r.terms.assign(p.terms.rbegin(), p.terms.rend());
  r.steps.assign(p.steps.rbegin(), p.steps.rend());
  for (Step& s : r.steps) s.backward = !s.backward;
  return r;
}

// Appends q (which must start where p ends).
void append(Proof& p, const Proof& q) {
  p.terms.insert(p.terms.end(), q.terms.begin() + 1, q.terms.end());
  p.steps.insert(p.steps.end(), q.steps.begin(), q.steps.end());
}

// Cuts loops: whenever a term reappears, the steps in between are dropped.
void remove_loops(Proof& p) {
  if (p.steps.empty()) return;
  absl::flat_hash_map<uint32_t, size_t> pos;
  Proof out = Proof::trivial(p.terms[0]);
  pos[p.terms[0]] = 0;
  for (size_t k = 0; k < p.steps.size(); ++k) {
    uint32_t t = p.terms[k + 1];
    auto it = pos.find(t);
    if (it != pos.end()) {
      size_t keep = it->second;
      for (size_t j = keep + 1; j < out.terms.size(); ++j) pos.erase(out.terms[j]);
      out.terms.resize(keep + 1);
      out.steps.resize(keep);
      continue;
    }
    pos[t] = out.terms.size();
    out.terms.push_back(t);
    out.steps.push_back(std::move(p.steps[k]));
  }
  p = std::move(out);
}

// Union-find without path compression whose links remember when they were
// made: find_at(u, t) is u's root using only unions logged before t.
class PersistentUnionFind {
 public:
  explicit PersistentUnionFind(size_t n) : parent_(n), time_(n, kNever), size_(n, 1) {
    for (size_t i = 0; i < n; ++i) parent_[i] = static_cast<Id>(i);
  }
  Id find_at(Id u, uint32_t t) const {
    while (parent_[u] != u && time_[u] < t) u = parent_[u];
    return u;
  }
  Id find(Id u) const { return find_at(u, kNever); }
  // Unions the sets of a and b at time t; returns false if already one set.
  bool link(Id a, Id b, uint32_t t) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    if (size_[a] > size_[b]) std::swap(a, b);
    parent_[a] = b;
    time_[a] = t;
    size_[b] += size_[a];
    return true;
  }
  size_t size_of(Id u) const { return size_[find(u)]; }

 private:
  static constexpr uint32_t kNever = std::numeric_limits<uint32_t>::max();
  std::vector<Id> parent_;
  std::vector<uint32_t> time_;
  std::vector<uint32_t> size_;
};

const Pattern* equality_lhs(const Rewrite& r, const Equality& eq);

// Matching state of one pattern under one substitution at one time.
struct MatchCtx {
  const Pattern* pattern = nullptr;
  std::vector<Id> binding;  // pattern var -> node id
  uint32_t time = 0;
  // (class at `time`, pattern node) -> matching node or kNoId.
  absl::flat_hash_map<std::pair<Id, uint32_t>, Id> memo;
};

}  // namespace

struct Explainer::Impl {
  const EGraph& g;
  absl::flat_hash_map<std::string, const Rewrite*> rules_by_name;
  std::vector<UnionRecord> log;
  PersistentUnionFind puf;
  std::vector<Id> fparent;      // proof forest parent (kNoId at a root)
  std::vector<uint32_t> fedge;  // log index of the edge to fparent
  std::vector<uint32_t> depth;
  std::vector<std::vector<Id>> members;  // final class root -> every node id, dead ones too
  TermBank bank;
  std::vector<uint32_t> term;  // node id -> term
  std::vector<std::shared_ptr<const Proof>> edge_memo;

  Impl(const EGraph& graph, std::span<const Rewrite> rules)
      : g(graph), log(graph.union_log()), puf(graph.num_ids()) {
    for (const Rewrite& r : rules) rules_by_name.emplace(r.name(), &r);
    build_terms();
    build_forest();
    for (Id n = 0; n < g.num_ids(); ++n) members[g.find(n)].push_back(n);
    edge_memo.resize(log.size());
  }

  uint32_t now() const { return static_cast<uint32_t>(log.size()); }

  void build_terms() {
    term.resize(g.num_ids());
    std::vector<uint32_t> ch;
    // Original children always have smaller ids: one pass in id order.
    for (Id n = 0; n < g.num_ids(); ++n) {
      ch.clear();
      for (Id c : g.original_children(n)) ch.push_back(term[c]);
      term[n] = bank.intern(g.node_op(n), g.node(n).payload, ch);
    }
  }

  // Re-roots x's proof tree at x by reversing the parent pointers above it.
  void reroot(Id x) {
    Id prev = kNoId;
    uint32_t prev_edge = 0;
    while (x != kNoId) {
      Id next = fparent[x];
      uint32_t next_edge = fedge[x];
      fparent[x] = prev;
      fedge[x] = prev_edge;
      prev = x;
      prev_edge = next_edge;
      x = next;
    }
  }

  void build_forest() {
    size_t n = g.num_ids();
    fparent.assign(n, kNoId);
    fedge.assign(n, 0);
    members.resize(n);
    for (uint32_t i = 0; i < log.size(); ++i) {
      Id a = log[i].a, b = log[i].b;
      if (puf.size_of(a) > puf.size_of(b)) std::swap(a, b);
      if (!puf.link(a, b, i)) continue;  // not effective (cannot happen for a valid log)
      reroot(a);                         // the smaller tree
      fparent[a] = b;
      fedge[a] = i;
    }
    depth.assign(n, std::numeric_limits<uint32_t>::max());
    std::vector<Id> chain;
    for (Id x = 0; x < n; ++x) {
      Id y = x;
      while (depth[y] == std::numeric_limits<uint32_t>::max() && fparent[y] != kNoId) {
        chain.push_back(y);
        y = fparent[y];
      }
      if (depth[y] == std::numeric_limits<uint32_t>::max()) depth[y] = 0;
      for (auto it = chain.rbegin(); it != chain.rend(); ++it) depth[*it] = depth[fparent[*it]] + 1;
      chain.clear();
    }
  }

  bool eq_at(Id u, Id v, uint32_t t) const { return puf.find_at(u, t) == puf.find_at(v, t); }

  std::string rule_name(uint32_t rule) const { return g.rule_name(rule); }

  // ---- proofs ----

  // Embeds a proof about child `i` into the context term `ctx`.
  Proof embed(const Proof& sub, uint32_t ctx, uint32_t i) {
    Proof p;
    p.terms.reserve(sub.terms.size());
    for (uint32_t t : sub.terms) p.terms.push_back(bank.with_child(ctx, i, t));
    p.steps = sub.steps;
    for (Step& s : p.steps) s.rpath.push_back(i);
    return p;
  }

  // Proof from term(x) to term(fparent[x]).
  Proof up_edge(Id x) {
    uint32_t e = fedge[x];
    const Proof& p = edge_proof(e);
    return log[e].a == x ? p : reversed(p);
  }

  Proof path_proof(Id u, Id v) {
    if (term[u] == term[v]) return Proof::trivial(term[u]);
    if (g.find(u) != g.find(v)) {
      throw Error(fmt::format("explain: #{} and #{} are not in the same e-class", u, v));
    }
    std::vector<Id> up_u, up_v;
    Id x = u, y = v;
    while (depth[x] > depth[y]) up_u.push_back(x), x = fparent[x];
    while (depth[y] > depth[x]) up_v.push_back(y), y = fparent[y];
    while (x != y) {
      up_u.push_back(x), x = fparent[x];
      up_v.push_back(y), y = fparent[y];
    }
    Proof p = Proof::trivial(term[u]);
    for (Id w : up_u) append(p, up_edge(w));
    for (auto it = up_v.rbegin(); it != up_v.rend(); ++it) append(p, reversed(up_edge(*it)));
    remove_loops(p);
    return p;
  }

  const Proof& edge_proof(uint32_t e) {
    if (!edge_memo[e]) edge_memo[e] = std::make_shared<const Proof>(build_edge_proof(e));
    return *edge_memo[e];
  }

  Proof build_edge_proof(uint32_t e) {
    const UnionRecord& rec = log[e];
    switch (rec.kind) {
      case Reason::Kind::Congruence:
        return congruence_proof(rec.a, rec.b);
      case Reason::Kind::Rule:
        if (auto p = rule_proof(e)) return std::move(*p);
        return jump(rec, /*coarse=*/true);
      case Reason::Kind::Given:
        break;
    }
    return jump(rec, /*coarse=*/false);
  }

  // One step straight from term(a) to term(b).
  Proof jump(const UnionRecord& rec, bool coarse) {
    Step s;
    s.coarse = coarse;
    if (rec.kind == Reason::Kind::Rule) {
      s.rule = rec.rule;
      for (uint32_t k = 0; k < rec.subst_size; ++k)
        s.subst.push_back(term[g.subst_arena()[rec.subst_offset + k]]);
    }
    return {{term[rec.a], term[rec.b]}, {std::move(s)}};
  }

  Proof congruence_proof(Id a, Id b) {
    auto ca = g.original_children(a);
    auto cb = g.original_children(b);
    Proof p = Proof::trivial(term[a]);
    for (uint32_t i = 0; i < ca.size(); ++i) {
      Proof sub = path_proof(ca[i], cb[i]);
      if (sub.steps.empty()) continue;
      append(p, embed(sub, p.terms.back(), i));
    }
    return p;
  }

  // ---- re-deriving rule applications ----

  Id find_match(MatchCtx& m, Id n, uint32_t pn) {
    const PatternNode& node = m.pattern->nodes()[pn];
    if (node.is_var) {
      Id want = m.binding[node.var];
      return want != kNoId && eq_at(n, want, m.time) ? n : kNoId;
    }
    auto key = std::make_pair(puf.find_at(n, m.time), pn);
    if (auto it = m.memo.find(key); it != m.memo.end()) return it->second;
    // No cycle guard needed: recursion goes strictly down the pattern.
    Id found = kNoId;
    if (matches_node(m, n, pn)) {
      found = n;
    } else {
      for (Id cand : members[g.find(n)]) {
        if (cand != n && g.node_op(cand) == node.op && eq_at(n, cand, m.time) &&
            matches_node(m, cand, pn)) {
          found = cand;
          break;
        }
      }
    }
    m.memo[key] = found;
    return found;
  }

  bool matches_node(MatchCtx& m, Id cand, uint32_t pn) {
    const PatternNode& node = m.pattern->nodes()[pn];
    NodeView v = g.node(cand);
    if (v.op != node.op || v.payload != node.payload || v.children.size() != node.arity)
      return false;
    auto och = g.original_children(cand);
    auto pch = m.pattern->children(node);
    for (uint32_t i = 0; i < node.arity; ++i) {
      if (find_match(m, och[i], pch[i]) == kNoId) return false;
    }
    return true;
  }

  // Proof from term(n) to the instance of pattern node pn (vars -> term of
  // their binding), using only unions before m.time. Requires a match.
  Proof to_pattern(MatchCtx& m, Id n, uint32_t pn) {
    const PatternNode& node = m.pattern->nodes()[pn];
    if (node.is_var) return path_proof(n, m.binding[node.var]);
    Id at = find_match(m, n, pn);
    Proof p = path_proof(n, at);
    auto och = g.original_children(at);
    auto pch = m.pattern->children(node);
    for (uint32_t i = 0; i < node.arity; ++i) {
      Proof sub = to_pattern(m, och[i], pch[i]);
      if (!sub.steps.empty()) append(p, embed(sub, p.terms.back(), i));
    }
    return p;
  }

  // The binding of a pattern's variables from a rule substitution.
  std::vector<Id> bind(const Rewrite& r, const Pattern& p, std::span<const Id> subst) const {
    std::vector<Id> out;
    for (const std::string& v : p.vars()) {
      auto idx = r.subst_index(v);
      out.push_back(idx && *idx < subst.size() ? subst[*idx] : kNoId);
    }
    return out;
  }

  std::optional<Proof> rule_proof(uint32_t e) {
    const UnionRecord& rec = log[e];
    auto it = rules_by_name.find(rule_name(rec.rule));
    if (it == rules_by_name.end() || it->second->has_custom_applier()) return std::nullopt;
    const Rewrite& r = *it->second;
    std::span<const Id> subst = g.subst_arena().subspan(rec.subst_offset, rec.subst_size);
    if (subst.size() != r.subst_vars().size()) return std::nullopt;
    for (const Equality& eq : r.equalities()) {
      // The left side: the part rooted at the target (the first part for
      // the match root), or the bare target variable.
      const Pattern* lhs = equality_lhs(r, eq);
      if (lhs == nullptr) {
        auto idx = r.searcher().pattern().var_index(eq.target);
        if (!idx || subst[*idx] != rec.a) continue;
      }
      MatchCtx lm{lhs, lhs ? bind(r, *lhs, subst) : std::vector<Id>{}, e, {}};
      if (lhs != nullptr && find_match(lm, rec.a, lhs->root()) == kNoId) continue;
      MatchCtx rm{&eq.rhs, bind(r, eq.rhs, subst), e, {}};
      if (find_match(rm, rec.b, eq.rhs.root()) == kNoId) continue;

      Proof p = lhs ? to_pattern(lm, rec.a, lhs->root()) : Proof::trivial(term[rec.a]);
      Proof to_rhs = to_pattern(rm, rec.b, eq.rhs.root());
      Step s;
      s.rule = rec.rule;
      for (Id v : subst) s.subst.push_back(term[v]);
      p.terms.push_back(to_rhs.terms.back());
      p.steps.push_back(std::move(s));
      append(p, reversed(to_rhs));
      remove_loops(p);
      return p;
    }
    return std::nullopt;
  }

  // ---- output ----

  // Copies of terms already made, by (term, depth left): a term met at two
  // depths is cut at two places.
  using CopyMemo = absl::flat_hash_map<uint64_t, uint32_t>;

  // Term `t` of the bank copied into `out`, `depth` levels deep (-1: whole).
  uint32_t copy_term(uint32_t t, int depth, TermBank& out, CopyMemo& done) {
    const ProofTerm& p = bank.get(t);
    if (depth == 0 && !p.children.empty()) return out.elided();
    const uint64_t key = (uint64_t{t} << 32) | static_cast<uint32_t>(depth);
    if (auto it = done.find(key); it != done.end()) return it->second;
    std::vector<uint32_t> ch;
    ch.reserve(p.children.size());
    for (uint32_t c : p.children) ch.push_back(copy_term(c, depth < 0 ? -1 : depth - 1, out, done));
    uint32_t id = out.intern(p.op, p.payload, ch);
    done.emplace(key, id);
    return id;
  }

  Explanation to_explanation(const Proof& p, int depth) {
    Explanation e;
    CopyMemo done;
    e.steps.push_back({copy_term(p.terms[0], depth, e.terms, done), {}, false, false, {}, {}});
    for (size_t k = 0; k < p.steps.size(); ++k) {
      const Step& s = p.steps[k];
      ExplanationStep out;
      out.term = copy_term(p.terms[k + 1], depth, e.terms, done);
      out.rule = s.rule == kGivenRule ? "given" : rule_name(s.rule);
      out.backward = s.backward;
      out.coarse = s.coarse;
      out.path.assign(s.rpath.rbegin(), s.rpath.rend());
      const Rewrite* r = nullptr;
      if (s.rule != kGivenRule) {
        auto it = rules_by_name.find(out.rule);
        if (it != rules_by_name.end()) r = it->second;
      }
      for (size_t v = 0; v < s.subst.size(); ++v) {
        std::string name =
            r && v < r->subst_vars().size() ? r->subst_vars()[v] : fmt::format("v{}", v);
        out.subst.emplace_back(std::move(name), copy_term(s.subst[v], depth, e.terms, done));
      }
      e.steps.push_back(std::move(out));
    }
    return e;
  }

  // The node id of the class of a ground pattern (throws if absent).
  Id class_of(const Pattern& p, uint32_t pn) const {
    const PatternNode& node = p.nodes()[pn];
    std::vector<Id> ch;
    for (uint32_t c : p.children(node)) ch.push_back(class_of(p, c));
    auto hit = g.lookup(node.op, ch, node.payload);
    if (!hit) throw Error(fmt::format("explain: term {} is not in the e-graph", p.to_string()));
    return *hit;
  }
};

Explainer::Explainer(const EGraph& g, std::span<const Rewrite> rules)
    : impl_(std::make_unique<Impl>(g, rules)) {}
Explainer::~Explainer() = default;

Explanation Explainer::explain(Id a, Id b, int depth) {
  if (a >= impl_->g.num_ids() || b >= impl_->g.num_ids())
    throw Error(fmt::format("explain: unknown node id #{} or #{}", a, b));
  if (impl_->g.find(a) != impl_->g.find(b)) {
    throw Error(fmt::format("explain: {} and {} are not equal in the e-graph", node_term(a, 4),
                            node_term(b, 4)));
  }
  return impl_->to_explanation(impl_->path_proof(a, b), depth);
}

Explanation Explainer::explain_terms(std::string_view a, std::string_view b) {
  Pattern pa = Pattern::parse(a);
  Pattern pb = Pattern::parse(b);
  if (!pa.is_ground() || !pb.is_ground()) throw Error("explain: terms must not contain ?variables");
  Id ca = impl_->class_of(pa, pa.root());
  Id cb = impl_->class_of(pb, pb.root());
  if (impl_->g.find(ca) != impl_->g.find(cb)) {
    throw Error(fmt::format("explain: {} and {} are not equal in the e-graph", a, b));
  }
  MatchCtx ma{&pa, {}, impl_->now(), {}};
  MatchCtx mb{&pb, {}, impl_->now(), {}};
  Proof p = reversed(impl_->to_pattern(ma, ca, pa.root()));
  append(p, impl_->path_proof(ca, cb));
  append(p, impl_->to_pattern(mb, cb, pb.root()));
  remove_loops(p);
  return impl_->to_explanation(p, -1);
}

std::string Explainer::node_term(Id n, int depth) {
  return impl_->bank.to_string(impl_->term[n], depth);
}

Explanation explain(const EGraph& g, Id a, Id b, std::span<const Rewrite> rules) {
  return Explainer(g, rules).explain(a, b);
}

// ---- verification -----------------------------------------------------------

namespace {

// Matches pattern node pn against term t, extending `binding` (var -> term).
bool ground_match(const TermBank& bank, const Pattern& p, uint32_t pn, uint32_t t,
                  absl::flat_hash_map<std::string, uint32_t>& binding) {
  const PatternNode& node = p.nodes()[pn];
  if (node.is_var) {
    auto [it, inserted] = binding.emplace(p.vars()[node.var], t);
    return inserted || it->second == t;
  }
  const ProofTerm& term = bank.get(t);
  if (term.op != node.op || term.payload != node.payload || term.children.size() != node.arity)
    return false;
  auto pch = p.children(node);
  for (uint32_t i = 0; i < node.arity; ++i) {
    if (!ground_match(bank, p, pch[i], term.children[i], binding)) return false;
  }
  return true;
}

// Descends both terms along `path`; false if they differ off the path.
bool same_outside(const TermBank& bank, uint32_t& a, uint32_t& b, std::span<const uint32_t> path) {
  for (uint32_t i : path) {
    const ProofTerm& ta = bank.get(a);
    const ProofTerm& tb = bank.get(b);
    if (ta.op != tb.op || ta.payload != tb.payload || ta.children.size() != tb.children.size() ||
        i >= ta.children.size())
      return false;
    for (size_t k = 0; k < ta.children.size(); ++k) {
      if (k != i && ta.children[k] != tb.children[k]) return false;
    }
    a = ta.children[i];
    b = tb.children[i];
  }
  return true;
}

// The left side of an equality: the part rooted at its target (the first
// part for the match root), or nullptr when the target is a plain variable.
const Pattern* equality_lhs(const Rewrite& r, const Equality& eq) {
  if (eq.lhs) return &*eq.lhs;
  const auto& parts = r.searcher().pattern().parts();
  for (const auto& part : parts) {
    if (part.root_var == eq.target) return &part.pattern;
  }
  return eq.target.empty() ? &parts[0].pattern : nullptr;
}

bool rule_instance(const TermBank& bank, const Rewrite& r, uint32_t from, uint32_t to) {
  for (const Equality& eq : r.equalities()) {
    absl::flat_hash_map<std::string, uint32_t> binding;
    const Pattern* lhs = equality_lhs(r, eq);
    if (lhs == nullptr) {
      binding.emplace(eq.target, from);
    } else if (!ground_match(bank, *lhs, lhs->root(), from, binding)) {
      continue;
    }
    if (ground_match(bank, eq.rhs, eq.rhs.root(), to, binding)) return true;
  }
  return false;
}

}  // namespace

namespace {

// Whether the term of node `t` contains node `n`. Children are added before
// their parents, so a term containing `n` has an id no smaller than `n`:
// only nodes added after `n` are walked. `without_n` remembers the terms
// already found not to contain it (terms are fixed, so this holds across
// union records and keeps shared subterms from being walked twice).
bool term_contains(const EGraph& g, Id t, Id n, absl::flat_hash_set<Id>& without_n) {
  if (t == n) return true;
  if (t < n || without_n.contains(t)) return false;
  for (Id child : g.original_children(t))
    if (term_contains(g, child, n, without_n)) return true;
  without_n.insert(t);
  return false;
}

}  // namespace

std::optional<uint32_t> creating_rule(const EGraph& g, Id n) {
  absl::flat_hash_set<Id> without_n;
  for (const UnionRecord& rec : g.union_log()) {
    if (rec.a < n && rec.b < n) continue;  // both terms older than `n`
    if (!term_contains(g, rec.a, n, without_n) && !term_contains(g, rec.b, n, without_n)) continue;
    if (rec.kind != Reason::Kind::Rule) return std::nullopt;
    return rec.rule;
  }
  return std::nullopt;
}

std::vector<uint32_t> creating_rules(const EGraph& g) {
  // The first record whose term contains a node claims it; a node claimed
  // earlier had its whole term claimed with it, so the walk stops there.
  constexpr uint32_t kUnclaimed = kNoCreatingRule - 1;
  std::vector<uint32_t> rule(g.num_ids(), kUnclaimed);
  std::vector<Id> stack;
  for (const UnionRecord& rec : g.union_log()) {
    const uint32_t by = rec.kind == Reason::Kind::Rule ? rec.rule : kNoCreatingRule;
    for (Id root : {rec.a, rec.b}) {
      stack.push_back(root);
      while (!stack.empty()) {
        const Id t = stack.back();
        stack.pop_back();
        if (rule[t] != kUnclaimed) continue;
        rule[t] = by;
        for (Id child : g.original_children(t))
          if (rule[child] == kUnclaimed) stack.push_back(child);
      }
    }
  }
  for (uint32_t& r : rule)
    if (r == kUnclaimed) r = kNoCreatingRule;
  return rule;
}

std::optional<std::string> verify_explanation(const Explanation& e,
                                              std::span<const Rewrite> rules) {
  for (size_t k = 1; k < e.steps.size(); ++k) {
    const ExplanationStep& s = e.steps[k];
    uint32_t before = e.steps[k - 1].term, after = s.term;
    auto where = [&] {
      return fmt::format("step {} ({} at [{}]): {} -> {}", k, s.rule, fmt::join(s.path, ","),
                         e.terms.to_string(before, 6), e.terms.to_string(after, 6));
    };
    if (!same_outside(e.terms, before, after, s.path))
      return "terms differ outside the rewritten position in " + where();
    if (s.coarse || s.rule == "given") continue;
    const Rewrite* rule = nullptr;
    for (const Rewrite& r : rules) {
      if (r.name() == s.rule) rule = &r;
    }
    if (rule == nullptr) return "unknown rule in " + where();
    bool ok = s.backward ? rule_instance(e.terms, *rule, after, before)
                         : rule_instance(e.terms, *rule, before, after);
    if (!ok) return "not an instance of the rule: " + where();
  }
  return std::nullopt;
}

}  // namespace eqfuse
