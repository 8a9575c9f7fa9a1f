// The e-graph: hashconsed e-nodes grouped into e-classes, with egg-style
// deferred rebuilding.
//
// Storage is data-oriented: e-node i lives in one 32-byte record (op,
// payload, class hint, stamp and its children: inline for arity <= 2, the
// common case, otherwise a slice of one shared pool), so a hashcons probe
// touches one cache line per candidate; node ids and class ids
// share one counter because every node that is new to the hashcons creates
// its own class, so `Id` of a class is the id of the node that created it.
// Each class root owns a list of its node ids (sorted by op after rebuild,
// so the matcher can binary-search an operator) and a list of parent node
// ids (nodes having the class as a child); both keep up to two ids inline
// (id_list.hpp), since most classes are created and merged away within one
// iteration. Two bitmaps mark retired nodes and class roots, so rebuild
// filters class lists and visits the roots without loading records.
// add() and merge() are inline for nodes of arity <= 2: applying a rule is
// mostly adds of nodes that already exist and unions that are no-ops.
//
// merge() only links the union-find and queues the parents of the absorbed
// class; rebuild() restores the invariants in one batch: parents are
// re-canonicalised and re-hashed, congruent duplicates are unioned and
// retired ("dead" nodes), analysis facts are propagated upward, class node
// lists are re-sorted and the operator index (op -> classes containing a
// node with that op) is rebuilt. Searching is only valid on a clean graph
// (after rebuild); the Runner guarantees this.
//
// Every union carries a Reason (rule + substitution, congruence, or
// "given"); effective unions are logged (cheaply: the substitution is only
// copied when the union actually merges two classes). The log is what
// analysis-conflict messages use and what explanations build on.
//
// Usage:
//   EGraph g;
//   Id x = g.add(ENode::leaf("x"));
//   Id two = g.add(ENode::constant(Constant::integer(2)));
//   Id mul = g.add(ENode(Symbol::intern("*"), {x, two}));
//   g.merge(mul, g.add(ENode(Symbol::intern("<<"), {x, g.add_constant(Constant::integer(1))})));
//   g.rebuild();
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "egraph/analysis.hpp"
#include "egraph/enode.hpp"
#include "egraph/hashcons.hpp"
#include "egraph/id.hpp"
#include "egraph/id_list.hpp"
#include "egraph/union_find.hpp"

namespace eqfuse {

// Why two classes were unioned. Transient: the substitution is borrowed.
struct Reason {
  enum class Kind : uint8_t { Given, Rule, Congruence };
  Kind kind = Kind::Given;
  uint32_t rule = 0;          // id from EGraph::register_rule (Kind::Rule)
  std::span<const Id> subst;  // rule-variable values, in the rule's var order
  static Reason given() { return {}; }
  static Reason by_rule(uint32_t rule, std::span<const Id> subst) {
    return {Kind::Rule, rule, subst};
  }
};

// One effective union as recorded in the log. `a`/`b` are the ids passed
// to merge (node ids, i.e. specific terms), not class roots.
struct UnionRecord {
  Id a = kNoId;
  Id b = kNoId;
  Reason::Kind kind = Reason::Kind::Given;
  uint32_t rule = 0;
  uint32_t subst_offset = 0;  // into EGraph::subst_arena()
  uint32_t subst_size = 0;
};

class EGraph {
 public:
  // `analysis` (optional, not owned) must outlive the e-graph.
  explicit EGraph(Analysis* analysis = nullptr) : analysis_(analysis) {}
  EGraph(const EGraph&) = delete;
  EGraph& operator=(const EGraph&) = delete;

  // ---- building -------------------------------------------------------
  // Adds a node (children are canonicalised first) and returns its class.
  // An existing equal node returns its (canonical) class.
  Id add(Symbol op, std::span<const Id> children, uint64_t payload = 0) {
    // Inline for the common arities, children passed by value: applying a
    // rule is mostly adds of nodes that already exist (one hash, one probe).
    switch (children.size()) {
      case 0:
        return add_small(op, payload, 0, kNoId, kNoId);
      case 1:
        return add_small(op, payload, 1, uf_.find_compress(children[0]), kNoId);
      case 2:
        return add_small(op, payload, 2, uf_.find_compress(children[0]),
                         uf_.find_compress(children[1]));
      default:
        return add_large(op, children, payload);
    }
  }
  Id add(const ENode& n) { return add(n.op, as_span(n.children), n.payload); }
  Id add_constant(const Constant& c) { return add(c.op(), {}, c.bits); }
  // Capacity hint: room for `ids` node ids in total (a runner passes its
  // node limit, capped), so the arrays do not regrow and recopy while
  // saturating. Changes no ids and no behaviour.
  void reserve(size_t ids);
  // Parses and adds a ground s-expression term, e.g. "(+ x (* y 2))".
  Id add_expr(std::string_view sexpr);
  // Finds the class of a node without adding it.
  std::optional<Id> lookup(Symbol op, std::span<const Id> children, uint64_t payload = 0) const {
    if (children.size() > kInlineArity) return lookup_large(op, children, payload);
    Id k0 = children.size() > 0 ? uf_.find(children[0]) : kNoId;
    Id k1 = children.size() > 1 ? uf_.find(children[1]) : kNoId;
    auto arity = static_cast<uint32_t>(children.size());
    Id hit = find_small(op, payload, arity, k0, k1, small_hash(op, payload, arity, k0, k1));
    if (hit == kNoId) return std::nullopt;
    return uf_.find(nodes_[hit].hint);
  }
  std::optional<Id> lookup(const ENode& n) const {
    return lookup(n.op, as_span(n.children), n.payload);
  }

  // Unions the classes of a and b. Returns true if they were different.
  // Throws eqfuse::Error if the analysis rejects the merge.
  bool merge(Id a, Id b, const Reason& why = Reason::given()) {
    // Inline test first: most unions a saturating rule asks for exist already.
    Id ra = uf_.find_compress(a);
    Id rb = uf_.find_compress(b);
    return ra != rb && merge_roots(a, b, ra, rb, why);
  }
  // Restores congruence closure, analysis facts, sorted class lists and the
  // operator index. Returns the number of unions it performed.
  size_t rebuild();
  bool clean() const { return pending_.empty() && analysis_pending_.empty() && !index_stale_; }

  // ---- queries --------------------------------------------------------
  Id find(Id id) const { return uf_.find(id); }
  Id find_compress(Id id) { return uf_.find_compress(id); }
  size_t num_nodes() const { return table_.size(); }  // live (canonical) e-nodes
  size_t num_classes() const { return num_classes_; }
  size_t num_ids() const { return uf_.size(); }  // ids ever handed out
  bool is_root(Id id) const { return uf_.find(id) == id; }
  // Canonical class ids in increasing order.
  std::vector<Id> class_ids() const;

  NodeView node(Id n) const {
    const NodeRec& r = nodes_[n];
    return {r.op, r.payload, children_of(r)};
  }
  Symbol node_op(Id n) const { return nodes_[n].op; }
  // Starts loading node n's record into the cache (a hint; no effect on results).
  void prefetch_node(Id n) const { __builtin_prefetch(&nodes_[n]); }
  // The children node `n` was added with (class ids canonical at that
  // moment). Never rewritten by rebuild, so every node id denotes one fixed
  // term; explanations (egraph/explain.hpp) rely on this.
  std::span<const Id> original_children(Id n) const {
    return {original_children_.data() + original_first_[n], nodes_[n].arity};
  }
  bool node_alive(Id n) const { return !is_dead(n); }
  // Live node ids of a class root (sorted by op, then id, after rebuild).
  std::span<const Id> class_nodes(Id root) const { return classes_[root].nodes; }
  // Parent node ids of a class root (may contain dead ids before rebuild).
  std::span<const Id> class_parents(Id root) const { return classes_[root].parents; }
  // Nodes of a clean class root whose op is `op` (binary search).
  std::span<const Id> class_nodes_with_op(Id root, Symbol op) const;
  // Classes containing at least one node with operator `op`, ascending.
  // Valid after rebuild().
  std::span<const Id> classes_with_op(Symbol op) const;
  // A constant stored in the class, if any.
  std::optional<Constant> constant_of(Id cls) const;
  // A small term for the class (first node, depth-limited) for messages.
  std::string term_string(Id cls, int depth = 3) const;

  Analysis* analysis() const { return analysis_; }

  // ---- justifications -------------------------------------------------
  // Registers a rule so unions can name it; idempotent per name.
  uint32_t register_rule(std::string_view name, std::span<const std::string> var_names);
  const std::string& rule_name(uint32_t rule) const { return rules_[rule].name; }
  const std::vector<UnionRecord>& union_log() const { return union_log_; }
  std::span<const Id> subst_arena() const { return subst_arena_; }
  // "rule 'assoc' on ?a=#3 ?b=#4", "congruence", "given union".
  std::string describe(const Reason& why) const;
  std::string describe(const UnionRecord& rec) const;

  // ---- checks and accounting ------------------------------------------
  // Throws eqfuse::Error describing the first violated invariant: hashcons
  // canonical and complete, congruence closed, class/parent lists exact,
  // operator index complete, analysis consistent. Requires clean().
  void check_invariants() const;
  size_t approx_memory_bytes() const;
  // Bumped on every new node and every effective union.
  uint64_t version() const { return version_; }

  // ---- change stamps (semi-naive matching) ----------------------------
  // Every node carries the epoch in which it was created, re-canonicalised
  // with different children, or moved to another class; a class root
  // carries the newest stamp of its nodes. A match made only of nodes
  // stamped before epoch E existed, unchanged, when the graph was searched
  // at epoch E, so a rule fully applied then need not see it again.
  uint32_t epoch() const { return epoch_; }
  // Starts a new epoch; changes from now on get the new stamp.
  uint32_t advance_epoch() { return ++epoch_; }
  uint32_t node_stamp(Id n) const { return nodes_[n].stamp; }
  uint32_t class_stamp(Id root) const { return class_stamp_[root]; }

 private:
  // Children of nodes with arity <= kInlineArity live in the record itself
  // (no second cache miss when the hashcons compares a candidate); larger
  // nodes keep an offset into children_.
  static constexpr uint32_t kInlineArity = 2;
  struct NodeRec {
    Symbol op;
    uint32_t arity = 0;
    uint64_t payload = 0;
    // An id in the node's class, usually its root when last looked up: a
    // hashcons hit finds the class from the record it has just compared
    // (and a hot root) instead of the node's own union-find entry.
    Id hint = kNoId;
    uint32_t stamp = 0;                      // epoch of the last change (see node_stamp)
    Id kids[kInlineArity] = {kNoId, kNoId};  // inline children, or kids[0] = pool offset
  };
  static_assert(sizeof(Id) * kInlineArity >= sizeof(uint32_t));
  std::span<const Id> children_of(const NodeRec& r) const {
    const Id* p = r.arity <= kInlineArity ? r.kids : children_.data() + r.kids[0];
    return {p, r.arity};
  }
  std::span<Id> children_of(NodeRec& r) {
    Id* p = r.arity <= kInlineArity ? r.kids : children_.data() + r.kids[0];
    return {p, r.arity};
  }
  struct ClassRec {
    detail::IdList nodes;
    detail::IdList parents;
    // How many leading entries of each list are already in their rebuilt
    // order: a rebuild sorts only what came after and merges it in.
    uint32_t nodes_sorted = 0;
    uint32_t parents_sorted = 0;
  };
  struct RuleInfo {
    std::string name;
    std::vector<std::string> vars;
  };

  // 64x64->128-bit multiply folded to 64 bits (high ^ low half): one
  // multiply mixes every input bit into the low bits the hashcons indexes by.
  static uint64_t fold_multiply(uint64_t a, uint64_t b) {
    unsigned __int128 p = static_cast<unsigned __int128>(a) * b;
    return static_cast<uint64_t>(p) ^ static_cast<uint64_t>(p >> 64);
  }
  // One multiply for the head and one per two children: the apply phase
  // hashes every right-side node of every match (millions on ac workloads).
  static uint64_t hash_head(Symbol op, uint64_t payload, size_t arity) {
    return fold_multiply(payload ^ 0x9E3779B97F4A7C15ull,
                         (uint64_t{op.id()} | (uint64_t{arity} << 32)) ^ 0xbf58476d1ce4e5b9ull);
  }
  static uint64_t hash_step(uint64_t h, uint64_t two_children) {
    return fold_multiply(h ^ two_children ^ 0x94d049bb133111ebull, 0xff51afd7ed558ccdull);
  }
  static uint32_t hash_node(Symbol op, uint64_t payload, std::span<const Id> children) {
    uint64_t h = hash_head(op, payload, children.size());
    size_t i = 0;
    for (; i + 2 <= children.size(); i += 2)
      h = hash_step(h, children[i] | (uint64_t{children[i + 1]} << 32));
    if (i < children.size()) h = hash_step(h, children[i]);
    return static_cast<uint32_t>(h);
  }
  // hash_node() of a node of arity <= kInlineArity, children `k0`, `k1`
  // (kNoId where absent, as the record stores them).
  static uint32_t small_hash(Symbol op, uint64_t payload, uint32_t arity, Id k0, Id k1) {
    uint64_t h = hash_head(op, payload, arity);
    if (arity == 1) h = hash_step(h, k0);
    if (arity == 2) h = hash_step(h, k0 | (uint64_t{k1} << 32));
    return static_cast<uint32_t>(h);
  }
  // The node with that key, or kNoId: the compare is a few integer compares.
  Id find_small(Symbol op, uint64_t payload, uint32_t arity, Id k0, Id k1, uint32_t hash) const {
    return table_.find(hash, [&](Id n) {
      const NodeRec& r = nodes_[n];
      return (r.op == op) & (r.arity == arity) & (r.payload == payload) & (r.kids[0] == k0) &
             (r.kids[1] == k1);
    });
  }
  // add() of a node of arity <= kInlineArity with canonical children `k0`,
  // `k1` (kNoId where absent), passed by value so hash_node's loop unrolls.
  Id add_small(Symbol op, uint64_t payload, uint32_t arity, Id k0, Id k1) {
    uint32_t h = small_hash(op, payload, arity, k0, k1);
    Id hit = find_small(op, payload, arity, k0, k1, h);
    if (hit != kNoId) return class_of_hit(hit);
    const Id kids[kInlineArity] = {k0, k1};
    return add_new(op, {kids, arity}, payload, h);
  }
  // The class of node `n` through its hint, refreshed to the root.
  Id class_of_hit(Id n) {
    NodeRec& r = nodes_[n];
    Id cls = uf_.find_compress(r.hint);
    if (cls != r.hint) r.hint = cls;
    return cls;
  }
  // add() of a node with more than kInlineArity children; add_new() once
  // the lookup missed (children canonical, `hash` their hash).
  Id add_large(Symbol op, std::span<const Id> children, uint64_t payload);
  std::optional<Id> lookup_large(Symbol op, std::span<const Id> children, uint64_t payload) const;
  Id add_new(Symbol op, std::span<const Id> canon, uint64_t payload, uint32_t hash);
  // merge() once the roots `a` and `b` of `a0` and `b0` are known to differ.
  bool merge_roots(Id a0, Id b0, Id a, Id b, const Reason& why);
  bool same_node(Id n, Symbol op, uint64_t payload, std::span<const Id> children) const;
  Id hashcons_find(uint32_t h, Symbol op, uint64_t payload, std::span<const Id> ch) const;
  static constexpr size_t kPendingAhead = 4;  // process_pending's prefetch distance
  void process_pending();
  void recanonicalize(Id n);
  void rebuild_classes();
  // Drops dead entries of `list`, sorts what follows its first `sorted`
  // entries by `less`, merges the two runs (deduplicated when `unique`) and
  // records the whole list as sorted.
  template <typename Less>
  void settle_list(detail::IdList& list, uint32_t& sorted, Less less, bool unique);
  void rebuild_op_index();
  [[noreturn]] void raise_conflict(const AnalysisConflict& e, Id a, Id b, const Reason& why) const;

  Analysis* analysis_ = nullptr;
  UnionFind uf_;
  std::vector<NodeRec> nodes_;
  // Bit n: node n was retired as a congruent duplicate. A bitmap, not a
  // record field, so rebuild filters class lists without loading records.
  std::vector<uint64_t> dead_;
  bool is_dead(Id n) const { return ((dead_[n >> 6] >> (n & 63)) & 1) != 0; }
  // Bit c: id c is a class root. Scanning it visits the ~1,000 roots of a
  // saturated ac workload without testing the ~270,000 ids ever handed out.
  std::vector<uint64_t> root_;
  template <typename F>
  void for_each_root(F&& f) const {
    for (size_t w = 0; w < root_.size(); ++w) {
      for (uint64_t bits = root_[w]; bits != 0; bits &= bits - 1)
        f(static_cast<Id>(w * 64 + static_cast<size_t>(std::countr_zero(bits))));
    }
  }
  std::vector<Id> children_;              // children of nodes with arity > kInlineArity
  std::vector<Id> original_children_;     // every node's children as added, never rewritten
  std::vector<uint32_t> original_first_;  // node -> offset into original_children_
  std::vector<ClassRec> classes_;
  detail::HashconsTable table_;
  size_t num_classes_ = 0;
  uint64_t version_ = 0;
  uint32_t epoch_ = 0;
  std::vector<uint32_t> class_stamp_;

  std::vector<Id> pending_;           // nodes whose children may be stale
  std::vector<Id> analysis_pending_;  // nodes to re-analyse
  std::vector<Id> dirty_classes_;     // classes whose lists need cleanup
  std::vector<Id> dirty_unique_;      // rebuild_classes' scratch: dirty_classes_ deduplicated
  std::vector<uint8_t> dirty_mark_;   // rebuild_classes' scratch: class already in dirty_unique_
  bool index_stale_ = false;
  absl::flat_hash_map<uint32_t, std::vector<Id>> op_index_;

  std::vector<RuleInfo> rules_;
  absl::flat_hash_map<std::string, uint32_t> rule_ids_;
  std::vector<UnionRecord> union_log_;
  std::vector<Id> subst_arena_;
  std::vector<Id> scratch_;
};

template <typename D>
bool TypedAnalysis<D>::consistent(const EGraph& g, Id cls) const {
  D copy = data_[cls];
  for (Id n : g.class_nodes(cls)) {
    if (merge_data(copy, make_data(g, g.node(n)))) return false;
  }
  return true;
}

}  // namespace eqfuse
