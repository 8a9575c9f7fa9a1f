// The e-graph: hashconsed e-nodes grouped into e-classes, with egg-style
// deferred rebuilding.
//
// Storage is data-oriented: e-node i lives in one 32-byte record (op,
// payload, cached hash, stamp and its children: inline for arity <= 2, the
// common case, otherwise a slice of one shared pool), so a hashcons probe
// touches one cache line per candidate; node ids and class ids
// share one counter because every node that is new to the hashcons creates
// its own class, so `Id` of a class is the id of the node that created it.
// Each class root owns a list of its node ids (sorted by op after rebuild,
// so the matcher can binary-search an operator) and a list of parent node
// ids (nodes having the class as a child).
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
  Id add(Symbol op, std::span<const Id> children, uint64_t payload = 0);
  Id add(const ENode& n) { return add(n.op, as_span(n.children), n.payload); }
  Id add_constant(const Constant& c) { return add(c.op(), {}, c.bits); }
  // Capacity hint: room for `ids` node ids in total (a runner passes its
  // node limit, capped), so the arrays do not regrow and recopy while
  // saturating. Changes no ids and no behaviour.
  void reserve(size_t ids);
  // Hint that add(op, children, payload) follows soon: loads the hashcons
  // slot the lookup will probe. Children are used as given (no find()).
  void prefetch_add(Symbol op, std::span<const Id> children, uint64_t payload = 0) const {
    table_.prefetch(hash_node(op, payload, children));
  }
  // Second stage of the same hint, issued closer to the add(): once the
  // slot is cached, loads the node record the lookup will compare against.
  void prefetch_add_candidate(Symbol op, std::span<const Id> children, uint64_t payload = 0) const {
    Id n = table_.first_with_hash(hash_node(op, payload, children));
    if (n != kNoId) __builtin_prefetch(&nodes_[n]);
  }
  // Parses and adds a ground s-expression term, e.g. "(+ x (* y 2))".
  Id add_expr(std::string_view sexpr);
  // Finds the class of a node without adding it.
  std::optional<Id> lookup(Symbol op, std::span<const Id> children, uint64_t payload = 0) const;
  std::optional<Id> lookup(const ENode& n) const {
    return lookup(n.op, as_span(n.children), n.payload);
  }

  // Unions the classes of a and b. Returns true if they were different.
  // Throws eqfuse::Error if the analysis rejects the merge.
  bool merge(Id a, Id b, const Reason& why = Reason::given());
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
  // The children node `n` was added with (class ids canonical at that
  // moment). Never rewritten by rebuild, so every node id denotes one fixed
  // term; explanations (egraph/explain.hpp) rely on this.
  std::span<const Id> original_children(Id n) const {
    return {original_children_.data() + original_first_[n], nodes_[n].arity};
  }
  bool node_alive(Id n) const { return !nodes_[n].dead; }
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
    uint32_t arity : 31 = 0;
    uint32_t dead : 1 = 0;  // retired duplicate after congruence
    uint64_t payload = 0;
    uint32_t hash = 0;
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
    std::vector<Id> nodes;
    std::vector<Id> parents;
    // How many leading entries of each list are already in their rebuilt
    // order: a rebuild sorts only what came after and merges it in.
    uint32_t nodes_sorted = 0;
    uint32_t parents_sorted = 0;
  };
  struct RuleInfo {
    std::string name;
    std::vector<std::string> vars;
  };

  static uint32_t hash_node(Symbol op, uint64_t payload, std::span<const Id> children);
  bool same_node(Id n, Symbol op, uint64_t payload, std::span<const Id> children) const;
  Id hashcons_find(uint32_t h, Symbol op, uint64_t payload, std::span<const Id> ch) const;
  void process_pending();
  void recanonicalize(Id n);
  void rebuild_classes();
  // Drops dead entries of `list`, sorts what follows its first `sorted`
  // entries by `less`, merges the two runs (deduplicated when `unique`) and
  // records the whole list as sorted.
  template <typename Less>
  void settle_list(std::vector<Id>& list, uint32_t& sorted, Less less, bool unique);
  void rebuild_op_index();
  [[noreturn]] void raise_conflict(const AnalysisConflict& e, Id a, Id b, const Reason& why) const;

  Analysis* analysis_ = nullptr;
  UnionFind uf_;
  std::vector<NodeRec> nodes_;
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
