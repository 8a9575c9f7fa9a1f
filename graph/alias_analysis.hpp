// Storage (alias) analysis, use lists and liveness queries over a normalized,
// typed FX Graph, for the reinplace passes (passes/reinplace.hpp) and for
// loading graphs with in-place ops into the e-graph (bridge/from_graph.hpp).
//
//   AliasAnalysis aa(graph, registry);
//   const StorageSet& s = aa.storages_of(node);        // where node's value lives
//   bool input = aa.touches_input(node);               // a graph input or a view of one
//   std::vector<NodeRef> live = aa.uses_in_window(s, {.after = node.index});
//
// The analysis is static and conservative (it may say "aliases" where torch's
// fake tensors would not, never the reverse):
//  * placeholders and get_attr tensors each get a fresh *input* storage;
//  * a registered op's return annotated `Tensor(a)` / `Tensor(a!)` lives in the
//    storage of the argument annotated `(a...)`; ops flagged `view` in the
//    catalog alias argument 0; every other return gets a fresh storage;
//  * a getitem lives where the projected element lives (all elements of a
//    `Tensor(a)[]` list such as split share their base's storage);
//  * an opaque op (no schema) may return any of its tensor arguments, so its
//    value points to all their storages as well as to a fresh one;
//  * auto_functionalized / auto_functionalized_v2 are functional: each output
//    gets a fresh storage.
// Values are therefore *sets* of storages. Program order is node index order.
//
// A pass that rewrites the graph in place (the reinplace passes) keeps the
// analysis current with `update` / `remove` instead of rebuilding it: only the
// changed nodes and the nodes whose storages depend on them are re-analyzed.
// `difference` compares two analyses (storage ids aside) to check that.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

using StorageId = int32_t;
using StorageSet = std::vector<StorageId>;  // sorted, unique

class AliasAnalysis {
 public:
  // `removed` (optional, indexed by node) marks nodes a pass has deleted but
  // not yet compacted away: they own no storage and use nothing.
  AliasAnalysis(const Graph& g, const OpRegistry& reg, const std::vector<bool>* removed = nullptr);

  const Graph& graph() const { return g_; }
  // Every storage the node's value may live in (all tuple elements together).
  StorageSet storages_of(NodeRef n) const;
  // The storages of tuple element `index` (or of the whole value when the
  // node is not a tuple of separately stored outputs).
  const StorageSet& element_storages(NodeRef n, int64_t index) const;
  bool is_input_storage(StorageId s) const { return input_storage_.at(static_cast<size_t>(s)); }
  // The value may live in a graph input's (placeholder or get_attr) storage.
  bool touches_input(NodeRef n) const;
  // The two values may share a storage.
  bool may_alias(NodeRef a, NodeRef b) const;
  // Nodes whose value may live in storage `s`, in program order.
  const std::vector<NodeRef>& nodes_in(StorageId s) const { return nodes_in_.at(size_t(s)); }
  // The node makes no data of its own: a getitem, or a view of its argument.
  bool is_alias_node(NodeRef n) const { return alias_node_.at(static_cast<size_t>(n.index)); }
  // The tensor may have internal memory overlap (an expand, zero strides), so
  // writing it in place would write one element several times.
  bool may_overlap_internally(NodeRef n) const { return overlap_.at(size_t(n.index)); }
  // Users of the node in program order (removed nodes excluded).
  const std::vector<NodeRef>& users(NodeRef n) const { return users_.at(size_t(n.index)); }
  // A use that reads only metadata (sym_size, sym_numel, sym_stride,
  // sym_storage_offset, or a view whose users are all metadata-only): it
  // does not observe the data, so an in-place write cannot change it.
  bool is_metadata_only_use(NodeRef user) const;

  struct Window {
    int32_t after = -1;                // only users strictly after this node index
    int32_t before = INT32_MAX;        // and strictly before this one
    bool skip_alias_users = false;     // a view/getitem user is itself an alias: its users count
    bool skip_metadata_users = false;  // ignore metadata-only uses
  };
  // Users, inside the window, of every node living in any storage of `s`
  // (sorted, unique).
  std::vector<NodeRef> uses_in_window(const StorageSet& s, const Window& w) const;

  // ---- keeping the analysis current while the graph changes ----
  // The `changed` nodes' op, arguments or type changed (nodes must not have
  // moved: no insertion). Re-analyzes them and every node whose storages or
  // overlap depend on them, and fixes use lists, so that the analysis answers
  // like one built afresh on the current graph. Costs what the change
  // touches, not the graph size.
  void update(const std::vector<NodeRef>& changed);
  // The node is deleted: it owns no storage and uses nothing.
  void remove(NodeRef r);
  // Empty when `other` (an analysis of the same graph) answers every query
  // the same way, storage ids aside (a storage is known by the node elements
  // it occurs in); otherwise the first difference found.
  std::string difference(const AliasAnalysis& other) const;

 private:
  StorageId fresh(NodeRef owner, bool input);
  void set_inputs(NodeRef r, std::vector<NodeRef> inputs);
  bool reanalyze(NodeRef r);
  void forget_metadata_memo(NodeRef r);
  void raise_last_use(StorageId s, NodeRef user);
  void note_use(NodeRef used, NodeRef user);
  using Occurrences = std::vector<std::pair<int32_t, int32_t>>;  // (node, element)
  std::vector<Occurrences> occurrences() const;
  std::vector<std::pair<Occurrences, bool>> renamed(const StorageSet& element,
                                                    const std::vector<Occurrences>& where) const;
  void analyze_node(NodeRef r);
  void analyze_call(NodeRef r, const Node& n);
  void analyze_opaque_call(NodeRef r, const Node& n);
  void analyze_auto_functionalized(NodeRef r, const Node& n);
  StorageSet storages_of_arg(const Arg& a) const;
  bool compute_overlap(const Node& n) const;

  const Graph& g_;
  const OpRegistry& reg_;
  std::vector<bool> removed_;
  std::vector<bool> input_storage_;
  std::vector<int32_t> owner_;  // per storage: the node it was made fresh for
  // Per storage: at least the index of the last user of a node living in it
  // (never lowered when uses go away), so that a liveness query after it
  // returns at once instead of walking a long chain of in-place writes.
  std::vector<int32_t> last_use_;
  // While a node is re-analyzed: its own old storages, handed out again by
  // fresh() so that an unchanged node keeps its ids and nothing downstream moves.
  StorageSet reuse_;
  // Per node: one storage set per tuple element (a single entry for a plain
  // tensor; `shared_elements_` when every element lives in entry 0).
  std::vector<std::vector<StorageSet>> elements_;
  std::vector<bool> shared_elements_;
  std::vector<bool> alias_node_;
  std::vector<bool> overlap_;
  std::vector<std::vector<NodeRef>> nodes_in_;
  std::vector<std::vector<NodeRef>> users_;
  std::vector<std::vector<NodeRef>> inputs_;        // per node: its inputs, sorted, unique
  mutable std::vector<int8_t> metadata_only_memo_;  // -1 unknown, 0 no, 1 yes
};

// The op name without its overload: "aten::sym_size.int" -> "aten::sym_size".
std::string_view op_base_name(std::string_view qualified);

// The node values a call may write in place: the arguments a registered op
// mutates (`Tensor(a!)`, the catalog's `mutates=`); for an opaque op named
// like an in-place op (`mylib::scale_`, `mylib::scale_.out`), its first
// tensor argument. Other opaque ops are assumed functional, as calls of a
// functionalized graph are. Empty for everything else.
std::vector<NodeRef> written_arguments(const Node& n, const OpRegistry& reg);

// A Python builtin (`operator.mul`, `operator.floordiv`, `math.ceil`,
// `torch.sym_int`) applied to numbers and SymInts only, such as the size
// arithmetic of a symbolic trace (`mul_200 = sym_size_int_6 * sym_size_int`).
// It stays an opaque call (no schema), but the interpreter evaluates it and
// infer_types types it, so resolve_ops does not list it as unknown; and it is
// pure host arithmetic: it reads and writes no memory, so, unlike other opaque
// calls, it has no side effect to keep in order (bridge/to_graph.cpp).
bool is_scalar_builtin_call(const Graph& g, const Node& n);

}  // namespace eqfuse
