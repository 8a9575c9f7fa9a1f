#include "egraph/egraph.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {

std::string Constant::to_string() const {
  switch (kind) {
    case ConstKind::Int:
      return fmt::format("{}", as_int());
    case ConstKind::Float: {
      std::string s = fmt::format("{}", as_float());
      if (s.find_first_of(".eni") == std::string::npos) s += ".0";
      return s;
    }
    case ConstKind::Bool:
      return as_bool() ? "true" : "false";
    case ConstKind::DType:
      return fmt::format("torch.{}", dtype_torch_name(as_dtype()));
    case ConstKind::String:
      return fmt::format("\"{}\"", as_string());
    case ConstKind::IntList:
      return fmt::format("[{}]", fmt::join(as_int_list(), ","));
    case ConstKind::None:
      return "None";
  }
  return "?";
}

bool EGraph::same_node(Id n, Symbol op, uint64_t payload, std::span<const Id> children) const {
  const NodeRec& r = nodes_[n];
  if (r.op != op || r.payload != payload || r.arity != children.size()) return false;
  const Id* mine = children_of(r).data();
  for (size_t i = 0; i < children.size(); ++i) {
    if (mine[i] != children[i]) return false;
  }
  return true;
}

Id EGraph::hashcons_find(uint32_t h, Symbol op, uint64_t payload, std::span<const Id> ch) const {
  return table_.find(h, [&](Id n) { return same_node(n, op, payload, ch); });
}

Id EGraph::add_large(Symbol op, std::span<const Id> children, uint64_t payload) {
  ChildVec canon(children.size());
  for (size_t i = 0; i < children.size(); ++i) canon[i] = uf_.find_compress(children[i]);
  uint32_t h = hash_node(op, payload, as_span(canon));
  Id hit = hashcons_find(h, op, payload, as_span(canon));
  if (hit != kNoId) return class_of_hit(hit);
  return add_new(op, as_span(canon), payload, h);
}

Id EGraph::add_new(Symbol op, std::span<const Id> canon, uint64_t payload, uint32_t h) {
  Id id = uf_.make_set();
  if ((id & 63) == 0) {
    dead_.push_back(0);
    root_.push_back(0);
  }
  root_[id >> 6] |= uint64_t{1} << (id & 63);
  NodeRec rec;
  rec.op = op;
  rec.arity = static_cast<uint32_t>(canon.size());
  rec.payload = payload;
  rec.hint = id;
  rec.stamp = epoch_;
  // Element loops, not range inserts: two ids are not worth a memcpy call.
  if (canon.size() <= kInlineArity) {
    for (size_t i = 0; i < canon.size(); ++i) rec.kids[i] = canon[i];
  } else {
    rec.kids[0] = static_cast<uint32_t>(children_.size());
    children_.insert(children_.end(), canon.begin(), canon.end());
  }
  nodes_.push_back(rec);
  class_stamp_.push_back(epoch_);
  original_first_.push_back(static_cast<uint32_t>(original_children_.size()));
  for (Id c : canon) original_children_.push_back(c);
  classes_.emplace_back();
  classes_[id].nodes.push_back(id);
  for (size_t i = 0; i < canon.size(); ++i) {
    // A child class that occurs twice gets the parent once.
    if (std::find(canon.begin(), canon.begin() + i, canon[i]) == canon.begin() + i) {
      classes_[canon[i]].parents.push_back(id);
    }
  }
  table_.insert(h, id);
  ++num_classes_;
  ++version_;
  index_stale_ = true;
  if (analysis_ != nullptr) {
    analysis_->make(*this, id, node(id));
    analysis_->modify(*this, id);
  }
  return id;
}

void EGraph::reserve(size_t ids) {
  uf_.reserve(ids);
  nodes_.reserve(ids);
  classes_.reserve(ids);
  class_stamp_.reserve(ids);
  dead_.reserve(ids / 64 + 1);
  root_.reserve(ids / 64 + 1);
  original_first_.reserve(ids);
  original_children_.reserve(ids * kInlineArity);
  // Every effective union retires a class, so there are fewer than `ids`.
  union_log_.reserve(ids);
}

std::optional<Id> EGraph::lookup_large(Symbol op, std::span<const Id> children,
                                       uint64_t payload) const {
  ChildVec canon(children.size());
  for (size_t i = 0; i < children.size(); ++i) canon[i] = uf_.find(children[i]);
  Id hit = hashcons_find(hash_node(op, payload, as_span(canon)), op, payload, as_span(canon));
  if (hit == kNoId) return std::nullopt;
  return uf_.find(nodes_[hit].hint);
}

bool EGraph::merge_roots(Id a0, Id b0, Id a, Id b, const Reason& why) {
  // The class with more parents stays root, so fewer parents are re-queued.
  size_t pa = classes_[a].parents.size();
  size_t pb = classes_[b].parents.size();
  Id root = (pa > pb || (pa == pb && a < b)) ? a : b;
  Id other = root == a ? b : a;

  bool root_changed = false;
  if (analysis_ != nullptr) {
    try {
      root_changed = analysis_->merge(*this, root, other);
    } catch (const AnalysisConflict& e) {
      raise_conflict(e, a0, b0, why);
    }
  }
  uf_.link(other, root);
  root_[other >> 6] &= ~(uint64_t{1} << (other & 63));
  ClassRec& r = classes_[root];
  ClassRec& o = classes_[other];
  if (analysis_ != nullptr) {
    if (root_changed)
      analysis_pending_.insert(analysis_pending_.end(), r.parents.begin(), r.parents.end());
    analysis_pending_.insert(analysis_pending_.end(), o.parents.begin(), o.parents.end());
  }
  pending_.insert(pending_.end(), o.parents.begin(), o.parents.end());
  for (Id n : o.nodes) nodes_[n].stamp = epoch_;  // their class changed
  class_stamp_[root] = epoch_;
  r.nodes.append(o.nodes);
  r.parents.append(o.parents);
  o.nodes.reset();
  o.parents.reset();
  o.nodes_sorted = o.parents_sorted = 0;
  dirty_classes_.push_back(root);
  --num_classes_;
  ++version_;
  index_stale_ = true;

  UnionRecord rec{a0,
                  b0,
                  why.kind,
                  why.rule,
                  static_cast<uint32_t>(subst_arena_.size()),
                  static_cast<uint32_t>(why.subst.size())};
  subst_arena_.insert(subst_arena_.end(), why.subst.begin(), why.subst.end());
  union_log_.push_back(rec);
  return true;
}

void EGraph::raise_conflict(const AnalysisConflict& e, Id a, Id b, const Reason& why) const {
  throw Error(fmt::format("analysis conflict merging #{} {} with #{} {}: {}; caused by {}", a,
                          term_string(a), b, term_string(b), e.what(), describe(why)));
}

void EGraph::recanonicalize(Id n) {
  NodeRec& r = nodes_[n];
  if (is_dead(n)) return;
  // The hash of the key n is filed under, before its children change.
  table_.erase(hash_node(r.op, r.payload, children_of(r)), n);
  Id* ch = children_of(r).data();
  bool changed = false;
  for (uint32_t i = 0; i < r.arity; ++i) {
    Id c = uf_.find_compress(ch[i]);
    changed |= c != ch[i];
    ch[i] = c;
  }
  if (changed) {
    r.stamp = epoch_;
    class_stamp_[uf_.find_compress(n)] = epoch_;
  }
  std::span<const Id> view(ch, r.arity);
  uint32_t h = hash_node(r.op, r.payload, view);
  Id hit = hashcons_find(h, r.op, r.payload, view);
  if (hit == kNoId) {
    table_.insert(h, n);
    return;
  }
  // n is now congruent to an existing node: retire one and union classes.
  // The older node (smaller id) survives, so a node of the input graph is
  // never replaced by a rule-made duplicate of itself (extraction prefers
  // input nodes on ties, and names them after the input).
  Id keep = hit, retire = n;
  if (n < hit) {
    table_.erase(h, hit);  // the same key, so the same hash
    table_.insert(h, n);
    keep = n;
    retire = hit;
  }
  dead_[retire >> 6] |= uint64_t{1} << (retire & 63);
  for (Id c : view) dirty_classes_.push_back(c);
  dirty_classes_.push_back(uf_.find_compress(retire));
  merge(keep, retire, Reason{Reason::Kind::Congruence, 0, {}});
}

void EGraph::process_pending() {
  while (!pending_.empty() || !analysis_pending_.empty()) {
    while (!pending_.empty()) {
      // Parents lie far apart in the node array: start loading the record
      // popped a few steps from now (a hint; merges may push others first).
      if (pending_.size() > kPendingAhead)
        __builtin_prefetch(&nodes_[pending_[pending_.size() - 1 - kPendingAhead]]);
      Id n = pending_.back();
      pending_.pop_back();
      recanonicalize(n);
    }
    while (!analysis_pending_.empty() && pending_.empty()) {
      Id n = analysis_pending_.back();
      analysis_pending_.pop_back();
      if (is_dead(n)) continue;
      Id cls = uf_.find_compress(n);
      bool changed = false;
      try {
        changed = analysis_->refine(*this, cls, node(n));
      } catch (const AnalysisConflict& e) {
        throw Error(fmt::format("analysis conflict propagating into #{} {} from node #{}: {}", cls,
                                term_string(cls), n, e.what()));
      }
      if (changed) {
        const auto& ps = classes_[cls].parents;
        analysis_pending_.insert(analysis_pending_.end(), ps.begin(), ps.end());
        dirty_classes_.push_back(cls);
      }
    }
  }
}

template <typename Less>
void EGraph::settle_list(detail::IdList& list, uint32_t& sorted, Less less, bool unique) {
  Id* ids = list.data();
  uint32_t write = 0;
  uint32_t kept_sorted = 0;
  for (uint32_t i = 0; i < list.size(); ++i) {
    if (is_dead(ids[i])) continue;
    if (i < sorted) ++kept_sorted;
    ids[write++] = ids[i];
  }
  list.truncate(write);
  if (kept_sorted < write) {
    Id* mid = ids + kept_sorted;
    std::sort(mid, ids + write, less);
    if (kept_sorted != 0 && less(*mid, *(mid - 1))) {
      // Merge from the back with the new run in scratch_, so nothing is allocated
      // once scratch_ has grown.
      scratch_.assign(mid, ids + write);
      size_t i = kept_sorted, j = scratch_.size(), k = write;
      while (j > 0) {
        if (i > 0 && less(scratch_[j - 1], ids[i - 1])) {
          ids[--k] = ids[--i];
        } else {
          ids[--k] = scratch_[--j];
        }
      }
    }
  }
  if (unique) list.truncate(static_cast<uint32_t>(std::unique(ids, ids + write) - ids));
  sorted = list.size();
}

void EGraph::rebuild_classes() {
  // The queue holds an entry per union and per congruence child, mostly
  // repeats: keep the first of each canonical class by marking, then sort
  // only the distinct ones (the order a sort + unique of the queue gives).
  std::vector<Id> dirty;
  dirty.swap(dirty_unique_);  // its capacity; a nested rebuild starts empty
  dirty.clear();
  if (dirty_mark_.size() < uf_.size()) dirty_mark_.resize(uf_.size());
  for (Id c : dirty_classes_) {
    c = uf_.find_compress(c);
    if (dirty_mark_[c] == 0) {
      dirty_mark_[c] = 1;
      dirty.push_back(c);
    }
  }
  dirty_classes_.clear();
  for (Id c : dirty) dirty_mark_[c] = 0;
  std::sort(dirty.begin(), dirty.end());
  auto by_op_then_id = [&](Id x, Id y) {
    Symbol ox = nodes_[x].op, oy = nodes_[y].op;
    return ox != oy ? ox < oy : x < y;
  };
  for (Id c : dirty) {
    ClassRec& cr = classes_[c];
    settle_list(cr.nodes, cr.nodes_sorted, by_op_then_id, false);
    settle_list(cr.parents, cr.parents_sorted, std::less<Id>(), true);
  }
  if (analysis_ != nullptr) {
    for (Id c : dirty) analysis_->modify(*this, uf_.find_compress(c));
  }
  dirty.swap(dirty_unique_);
}

void EGraph::rebuild_op_index() {
  for (auto& [op, list] : op_index_) list.clear();
  for_each_root([&](Id c) {
    // The lists are sorted by op here (rebuild_classes ran): jump from one
    // op's run to the next instead of visiting every node.
    const Id* p = classes_[c].nodes.begin();
    const Id* end = classes_[c].nodes.end();
    while (p != end) {
      Symbol op = nodes_[*p].op;
      op_index_[op.id()].push_back(c);
      if (nodes_[end[-1]].op == op) break;
      p = std::partition_point(p, end, [&](Id n) { return nodes_[n].op == op; });
    }
  });
  index_stale_ = false;
}

size_t EGraph::rebuild() {
  size_t classes_before = num_classes_;
  do {
    process_pending();
    rebuild_classes();
  } while (!pending_.empty() || !analysis_pending_.empty() || !dirty_classes_.empty());
  if (index_stale_) rebuild_op_index();
  return classes_before >= num_classes_ ? classes_before - num_classes_ : 0;
}

std::vector<Id> EGraph::class_ids() const {
  std::vector<Id> out;
  out.reserve(num_classes_);
  for_each_root([&](Id c) { out.push_back(c); });
  return out;
}

std::span<const Id> EGraph::class_nodes_with_op(Id root, Symbol op) const {
  const auto& ns = classes_[root].nodes;
  if (ns.empty()) return {};
  // Most classes hold one operator: the ends decide without a search.
  Symbol first = nodes_[ns[0]].op;
  Symbol last = nodes_[ns[ns.size() - 1]].op;
  if (op < first || last < op) return {};
  if (first == op && last == op) return ns;
  auto lo = std::partition_point(ns.begin(), ns.end(), [&](Id n) { return nodes_[n].op < op; });
  auto hi = std::partition_point(lo, ns.end(), [&](Id n) { return nodes_[n].op == op; });
  return {ns.data() + (lo - ns.begin()), static_cast<size_t>(hi - lo)};
}

std::span<const Id> EGraph::classes_with_op(Symbol op) const {
  auto it = op_index_.find(op.id());
  if (it == op_index_.end()) return {};
  return it->second;
}

std::optional<Constant> EGraph::constant_of(Id cls) const {
  const ClassRec& cr = classes_[uf_.find(cls)];
  // The sorted prefix holds constants first (their ops have the smallest ids),
  // so its first live node decides it; nodes merged in since are scanned.
  for (size_t i = 0; i < cr.nodes_sorted; ++i) {
    const NodeRec& r = nodes_[cr.nodes[i]];
    if (is_dead(cr.nodes[i])) continue;
    if (is_constant_op(r.op)) return node(cr.nodes[i]).constant();
    if (r.op.id() > const_ops::kNone.id()) break;  // past every constant op
  }
  for (size_t i = cr.nodes_sorted; i < cr.nodes.size(); ++i) {
    const NodeRec& r = nodes_[cr.nodes[i]];
    if (!is_dead(cr.nodes[i]) && is_constant_op(r.op)) return node(cr.nodes[i]).constant();
  }
  return std::nullopt;
}

std::string EGraph::term_string(Id cls, int depth) const {
  Id root = uf_.find(cls);
  const auto& ns = classes_[root].nodes;
  Id best = kNoId;
  for (Id n : ns) {
    if (is_dead(n)) continue;
    if (best == kNoId || nodes_[n].arity < nodes_[best].arity) best = n;
  }
  if (best == kNoId) return fmt::format("#{}", root);
  NodeView v = node(best);
  if (auto c = v.constant()) return c->to_string();
  if (v.children.empty()) return std::string(v.op.str());
  if (depth <= 0) return "…";
  std::string s = fmt::format("({}", v.op.str());
  for (Id c : v.children) {
    s += ' ';
    s += term_string(c, depth - 1);
  }
  return s + ")";
}

uint32_t EGraph::register_rule(std::string_view name, std::span<const std::string> var_names) {
  auto it = rule_ids_.find(std::string(name));
  if (it != rule_ids_.end()) return it->second;
  auto id = static_cast<uint32_t>(rules_.size());
  rules_.push_back({std::string(name), {var_names.begin(), var_names.end()}});
  rule_ids_.emplace(std::string(name), id);
  return id;
}

std::string EGraph::describe(const Reason& why) const {
  switch (why.kind) {
    case Reason::Kind::Given:
      return "a given union";
    case Reason::Kind::Congruence:
      return "congruence";
    case Reason::Kind::Rule:
      break;
  }
  if (why.rule >= rules_.size()) return fmt::format("unregistered rule {}", why.rule);
  const RuleInfo& info = rules_[why.rule];
  std::string s = fmt::format("rule '{}'", info.name);
  if (!why.subst.empty()) s += " with match";
  for (size_t i = 0; i < why.subst.size(); ++i) {
    std::string_view var = i < info.vars.size() ? std::string_view(info.vars[i]) : "?";
    s += fmt::format(" ?{}=#{} {}", var, why.subst[i], term_string(why.subst[i], 2));
  }
  return s;
}

std::string EGraph::describe(const UnionRecord& rec) const {
  Reason r{rec.kind, rec.rule, {subst_arena_.data() + rec.subst_offset, rec.subst_size}};
  return describe(r);
}

size_t EGraph::approx_memory_bytes() const {
  // Per-node arrays count by size, not capacity: reserve() hands out
  // address space that is only touched as nodes arrive.
  size_t ids = nodes_.size();
  size_t bytes = ids * (sizeof(NodeRec) + sizeof(ClassRec) + 2 * sizeof(uint32_t) + sizeof(Id)) +
                 (children_.capacity() + original_children_.size()) * sizeof(Id) +
                 table_.memory_bytes() + subst_arena_.capacity() * sizeof(Id) +
                 union_log_.capacity() * sizeof(UnionRecord);
  // Class lists hold about one node entry and ~arity parent entries per node.
  bytes += nodes_.size() * sizeof(Id) * 3;
  return bytes;
}

void EGraph::check_invariants() const {
  auto bad = [](const std::string& what) { throw Error("e-graph invariant violated: " + what); };
  if (!clean()) bad("check_invariants() called before rebuild()");
  size_t live = 0;
  size_t roots = 0;
  std::vector<Id> owner(nodes_.size(), kNoId);
  for (Id c = 0; c < uf_.size(); ++c) {
    if (uf_.find(c) != c) {
      if (!classes_[c].nodes.empty()) bad(fmt::format("non-root #{} still owns nodes", c));
      continue;
    }
    ++roots;
    if (classes_[c].nodes.empty()) bad(fmt::format("class #{} is empty", c));
    Symbol prev;
    for (Id n : classes_[c].nodes) {
      if (is_dead(n)) bad(fmt::format("dead node #{} listed in class #{}", n, c));
      if (owner[n] != kNoId) bad(fmt::format("node #{} listed twice", n));
      owner[n] = c;
      if (uf_.find(n) != c)
        bad(fmt::format("node #{} listed in #{} but finds #{}", n, c, uf_.find(n)));
      if (nodes_[n].op < prev) bad(fmt::format("class #{} nodes not sorted by op", c));
      prev = nodes_[n].op;
    }
    for (Id p : classes_[c].parents) {
      if (is_dead(p)) bad(fmt::format("dead parent #{} in class #{}", p, c));
    }
  }
  if (roots != num_classes_) bad(fmt::format("class count {} != roots {}", num_classes_, roots));
  std::map<std::tuple<uint32_t, uint64_t, std::vector<Id>>, Id> seen;
  for (Id n = 0; n < nodes_.size(); ++n) {
    if (is_dead(n)) continue;
    ++live;
    if (owner[n] == kNoId) bad(fmt::format("live node #{} in no class", n));
    NodeView v = node(n);
    for (Id ch : v.children) {
      if (uf_.find(ch) != ch) bad(fmt::format("node #{} has non-canonical child #{}", n, ch));
      const auto& ps = classes_[ch].parents;
      if (std::find(ps.begin(), ps.end(), n) == ps.end()) {
        bad(fmt::format("node #{} missing from parents of #{}", n, ch));
      }
    }
    if (uf_.find(nodes_[n].hint) != owner[n]) bad(fmt::format("node #{} has a stale hint", n));
    if (hashcons_find(hash_node(v.op, v.payload, v.children), v.op, v.payload, v.children) != n) {
      bad(fmt::format("node #{} not in hashcons", n));
    }
    auto key = std::make_tuple(v.op.id(), v.payload,
                               std::vector<Id>(v.children.begin(), v.children.end()));
    auto [it, inserted] = seen.emplace(std::move(key), n);
    if (!inserted) bad(fmt::format("congruence not closed: #{} and #{} are equal", it->second, n));
    auto ops = classes_with_op(v.op);
    if (!std::binary_search(ops.begin(), ops.end(), owner[n])) {
      bad(fmt::format("operator index misses class #{} for op {}", owner[n], v.op.str()));
    }
  }
  if (live != table_.size())
    bad(fmt::format("hashcons size {} != live nodes {}", table_.size(), live));
  if (analysis_ != nullptr) {
    for (Id c = 0; c < uf_.size(); ++c) {
      if (uf_.find(c) == c && !analysis_->consistent(*this, c)) {
        bad(fmt::format("analysis fact of class #{} inconsistent with its nodes", c));
      }
    }
  }
}

}  // namespace eqfuse
