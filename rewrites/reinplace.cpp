// The two reinplace passes (docs/reference/torchair-passes.md §6.2–§6.4). Each pass
// works on a private copy of the graph: candidates are rewritten in place in
// the copy (retargeted, uses rewired), deleted nodes are only marked, and the
// alias analysis is kept current after every change so that later candidates
// see the rewired graph exactly as TorchAir's passes do. The copy is
// compacted at the end.
//
// Keeping the analysis current is incremental (AliasAnalysis::update): a
// rewrite touches the rewritten node, the users it rewires and the nodes
// whose storages follow from them, so a pass costs O(nodes + rewrites x
// touched) rather than a full analysis per rewrite. Only decomposing an
// auto_functionalized call, which inserts nodes and so renumbers the graph,
// rebuilds the analysis. `ReinplaceOptions::check_alias_analysis` compares
// the kept analysis with a fresh one after every rewrite.
#include "rewrites/reinplace.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "graph/alias_analysis.hpp"
#include "graph/auto_functionalized.hpp"
#include "graph/graph_edit.hpp"
#include "graph/op_schema.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace {

// ---- small helpers -------------------------------------------------------------------

bool is_graph_input(const Node& n) {
  return n.kind == NodeKind::Placeholder || n.kind == NodeKind::GetAttr;
}

bool is_copy_(const Node& n) {
  return n.kind == NodeKind::Call && op_base_name(n.target) == "aten::copy_";
}

// Bytes of a tensor value; zero when the type is not a fully known tensor.
SymInt tensor_bytes(const ValueType& t) {
  if (!t.is_tensor() || t.tensor.dtype == DType::Unknown) return SymInt(0);
  std::optional<SymInt> numel = t.tensor.numel();
  if (!numel) return SymInt(0);
  return *numel * SymInt(dtype_itemsize(t.tensor.dtype));
}

// TorchAir spells targets `aten.add.Tensor`, `custom.sin_cos_functional.default`.
std::string torchair_target(std::string_view qualified) {
  std::string fx = fx_target_from_qualified_name(qualified);
  constexpr std::string_view prefix = "torch.ops.";
  return fx.starts_with(prefix) ? fx.substr(prefix.size()) : fx;
}

bool same_tensor_type(const ValueType& a, const ValueType& b) {
  return a.is_tensor() && b.is_tensor() && a.tensor.dtype != DType::Unknown &&
         a.tensor.dtype == b.tensor.dtype && a.tensor.shape && b.tensor.shape &&
         *a.tensor.shape == *b.tensor.shape;
}

void replace_refs_with_arg(Arg& a, NodeRef from, const Arg& to) {
  if (a.is_node()) {
    if (a.node() == from) a = to;
    return;
  }
  if (a.is_list()) {
    for (Arg& item : std::get<ArgList>(a.value).items) replace_refs_with_arg(item, from, to);
  }
}

// References at or after `from` move `by` places (nodes were inserted).
void shift_refs(Arg& a, int32_t from, int32_t by) {
  if (a.is_node()) {
    if (a.node().index >= from) a = Arg(NodeRef{a.node().index + by});
    return;
  }
  if (a.is_list()) {
    for (Arg& item : std::get<ArgList>(a.value).items) shift_refs(item, from, by);
  }
}

// ---- the working copy ------------------------------------------------------------------

bool has_scope_nodes(const Graph& g) {
  return std::any_of(g.nodes().begin(), g.nodes().end(), [](const Node& n) {
    return n.kind == NodeKind::Call &&
           (n.target == kScopeEnterTarget || n.target == kScopeExitTarget);
  });
}

class PassState {
 public:
  PassState(Graph input, const OpRegistry& reg, const ReinplaceOptions& options, ReinplacePass pass)
      : g_(std::move(input)),
        reg_(reg),
        options_(options),
        pass_(pass),
        removed_(g_.size(), false) {
    refresh_stream_labels();
    rebuild();
  }

  Graph& graph() { return g_; }
  const Graph& graph() const { return g_; }
  const OpRegistry& reg() const { return reg_; }
  const ReinplaceOptions& options() const { return options_; }
  ReinplacePass pass() const { return pass_; }
  const AliasAnalysis& aa() const { return *aa_; }
  bool removed(NodeRef r) const { return removed_.at(static_cast<size_t>(r.index)); }
  ReinplaceLog& log() { return log_; }
  // The live copy_ nodes, in program order (epilogue candidates).
  const std::set<int32_t>& copies() const { return copies_; }

  // The node's op, arguments or type were changed in place: the analysis and
  // the copy_ list follow.
  void changed(NodeRef r) {
    if (is_copy_(g_.node(r)))
      copies_.insert(r.index);
    else
      copies_.erase(r.index);
    aa_->update({r});
  }

  // After a rewrite: with `check_alias_analysis`, the kept analysis must
  // answer like a fresh one.
  void checkpoint() const {
    if (!options_.check_alias_analysis) return;
    AliasAnalysis fresh(g_, reg_, &removed_);
    if (std::string diff = aa_->difference(fresh); !diff.empty())
      throw std::logic_error(
          "reinplace: the incrementally kept alias analysis differs from a "
          "fresh one: " +
          diff);
  }

  // Every use of `from` by a live node after position `after` now reads `to`.
  void replace_uses(NodeRef from, NodeRef to, int32_t after) {
    replace_uses_with_arg(from, Arg(to), after);
  }

  void remove(NodeRef r) {
    removed_.at(static_cast<size_t>(r.index)) = true;
    copies_.erase(r.index);
    aa_->remove(r);
  }

  // Every use of `from` by a live node after position `after` now reads the
  // argument `to` (None, a list of nodes, ...). The analysis' use list names
  // exactly those nodes, so this costs the uses, not the graph.
  void replace_uses_with_arg(NodeRef from, const Arg& to, int32_t after) {
    std::vector<NodeRef> rewired;
    for (NodeRef u : aa_->users(from)) {
      if (u.index <= after) continue;
      Node& n = g_.node(u);
      for (Arg& a : n.args) replace_refs_with_arg(a, from, to);
      for (auto& kv : n.kwargs) replace_refs_with_arg(kv.second, from, to);
      rewired.push_back(u);
    }
    aa_->update(rewired);
  }

  // Inserts `nodes` before position `at`; their references to each other use
  // their final positions (at, at + 1, ...). Later nodes shift; returns the
  // new position of the node that was at `at`.
  NodeRef insert_before(NodeRef at, std::vector<Node> nodes) {
    const int32_t shift = static_cast<int32_t>(nodes.size());
    auto shifted = [&](Arg& a) { shift_refs(a, at.index, shift); };
    Graph out;
    out.name = g_.name;
    out.reserve(g_.size() + nodes.size());
    std::vector<bool> removed;
    for (size_t i = 0; i < g_.size(); ++i) {
      if (static_cast<int32_t>(i) == at.index) {
        for (Node& n : nodes) {
          out.add(std::move(n));
          removed.push_back(false);
        }
      }
      Node n = std::move(g_.nodes()[i]);
      for (Arg& a : n.args) shifted(a);
      for (auto& kv : n.kwargs) shifted(kv.second);
      out.add(std::move(n));
      removed.push_back(removed_[i]);
    }
    g_ = std::move(out);
    removed_ = std::move(removed);
    rebuild();  // every index moved
    return NodeRef{at.index + shift};
  }

  // The live nodes, renumbered. Moves the nodes out: the state is done.
  Graph compact() && { return without_nodes(std::move(g_), removed_); }

 private:
  // Labels come from scope nodes when there are any; graphs built without
  // scope nodes (e.g. by extraction) keep the labels they carry.
  void refresh_stream_labels() {
    if (has_scope_nodes(g_)) assign_stream_labels(g_);
  }

  void rebuild() {
    aa_ = std::make_unique<AliasAnalysis>(g_, reg_, &removed_);
    copies_.clear();
    for (size_t i = 0; i < g_.size(); ++i)
      if (!removed_[i] && is_copy_(g_.nodes()[i])) copies_.insert(static_cast<int32_t>(i));
  }

  Graph g_;
  const OpRegistry& reg_;
  const ReinplaceOptions& options_;
  ReinplacePass pass_;
  std::vector<bool> removed_;
  std::unique_ptr<AliasAnalysis> aa_;
  std::set<int32_t> copies_;
  ReinplaceLog log_;
};

// ---- refusals ------------------------------------------------------------------------

// Why a candidate is kept: the kind, one plain sentence and the nodes it
// names. Default-constructed: no refusal.
struct Refusal {
  ReinplaceReason kind = ReinplaceReason::DeadIntermediate;
  std::string text;
  std::vector<ReinplaceNodeRef> related;
  bool empty() const { return text.empty(); }
};

ReinplaceNodeRef node_ref(const Graph& g, NodeRef r) {
  const Node& n = g.node(r);
  return {n.name, n.meta.stream};
}

std::vector<ReinplaceNodeRef> node_refs(const Graph& g, const std::vector<NodeRef>& nodes) {
  std::vector<ReinplaceNodeRef> out;
  for (NodeRef r : nodes) out.push_back(node_ref(g, r));
  return out;
}

Refusal refuse(ReinplaceReason kind, std::string text, std::vector<ReinplaceNodeRef> related = {}) {
  return {kind, std::move(text), std::move(related)};
}

// ---- candidates ----------------------------------------------------------------------

struct Candidate {
  NodeRef node;
  const InplaceableOp* entry = nullptr;  // table op; null for the generic rule
  OpId inplace_op = kNoOp;
  std::vector<int> mutated;  // argument positions
};

std::string_view arg_name(const PassState& st, const Candidate& c, int position) {
  const Node& n = st.graph().node(c.node);
  return st.reg().info(n.op).schema.args.at(static_cast<size_t>(position)).name;
}

// The candidate's in-place form, if it has one. Table entries that cannot be
// used with this registry are skipped (noted once per pass).
std::optional<Candidate> classify(PassState& st, NodeRef r) {
  const Node& n = st.graph().node(r);
  if (n.kind != NodeKind::Call || n.op == kNoOp) return std::nullopt;
  const OpInfo& info = st.reg().info(n.op);
  std::string qualified = info.schema.qualified_name();
  if (const InplaceableOp* e = st.options().table.find(qualified)) {
    if (!InplaceableOpTable::unusable_reason(*e, st.reg()).empty()) return std::nullopt;
    return Candidate{r, e, *st.reg().find(e->inplace), e->mutated_args};
  }
  std::optional<OpId> twin = generic_inplace_variant(st.reg(), n.op);
  if (!twin) return std::nullopt;
  return Candidate{r, nullptr, *twin, {0}};
}

// The node the mutated argument refers to, if it is a node.
std::optional<NodeRef> mutated_node(const PassState& st, const Candidate& c, int position) {
  const Node& n = st.graph().node(c.node);
  if (static_cast<size_t>(position) >= n.args.size()) return std::nullopt;
  const Arg& a = n.args[static_cast<size_t>(position)];
  if (!a.is_node()) return std::nullopt;
  return a.node();
}

ReinplaceDecision start_decision(const PassState& st, const Candidate& c) {
  const Node& n = st.graph().node(c.node);
  ReinplaceDecision d;
  d.pass = st.pass();
  d.node = n.name;
  d.target = st.reg().info(n.op).schema.qualified_name();
  d.inplace_target = st.reg().info(c.inplace_op).schema.qualified_name();
  for (int position : c.mutated) {
    std::optional<NodeRef> a = mutated_node(st, c, position);
    const std::string* name = a ? &st.graph().node(*a).name : nullptr;
    if (name && std::find(d.written.begin(), d.written.end(), *name) == d.written.end())
      d.written.push_back(*name);
  }
  return d;
}

// The getitem users of `node` projecting element `index`.
std::vector<NodeRef> projections(const PassState& st, NodeRef node, int64_t index) {
  std::vector<NodeRef> out;
  for (NodeRef u : st.aa().users(node)) {
    const Node& un = st.graph().node(u);
    if (un.kind == NodeKind::GetItem && un.getitem_source() == node && un.getitem_index() == index)
      out.push_back(u);
  }
  return out;
}

int output_of_arg(const InplaceableOp& e, int position) {
  for (size_t i = 0; i < e.outputs.size(); ++i) {
    if (e.outputs[i].kind == OutputProjection::Kind::MutatedArg && e.outputs[i].index == position)
      return static_cast<int>(i);
  }
  return -1;
}

// ---- multi-stream check (torchair-passes.md §6.4) ---------------------------------------

void add_users_except_copies(const PassState& st, NodeRef of, NodeRef except,
                             std::vector<NodeRef>& out) {
  for (NodeRef u : st.aa().users(of))
    if (u != except && !is_copy_(st.graph().node(u))) out.push_back(u);
}

// TorchAir's _collect_single_node_users: the users of a mutated input `a`
// except copy_ nodes, the other users of a copy_'s getitem source and the
// users of the copy_ itself.
void add_stream_users_of(const PassState& st, NodeRef a, std::vector<NodeRef>& users) {
  const Graph& g = st.graph();
  add_users_except_copies(st, a, NodeRef{}, users);
  for (NodeRef u : st.aa().users(a)) {
    const Node& copy = g.node(u);
    if (!is_copy_(copy)) continue;
    if (copy.args.size() > 1 && copy.args[1].is_node() &&
        g.node(copy.args[1].node()).kind == NodeKind::GetItem)
      add_users_except_copies(st, copy.args[1].node(), u, users);
    for (NodeRef cu : st.aa().users(u)) users.push_back(cu);
  }
}

void sort_unique(std::vector<NodeRef>& nodes) {
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

// ReinplaceStreamChecker: the users whose streams must agree.
std::vector<NodeRef> stream_check_users(const PassState& st, const Candidate& c) {
  std::vector<NodeRef> users;
  for (int position : c.mutated) {
    std::optional<NodeRef> a = mutated_node(st, c, position);
    if (!a) continue;
    add_stream_users_of(st, *a, users);
    if (c.entry && st.pass() == ReinplacePass::InplaceableOps) {
      for (NodeRef p : projections(st, c.node, output_of_arg(*c.entry, position)))
        add_users_except_copies(st, p, NodeRef{}, users);
    }
  }
  sort_unique(users);
  return users;
}

// Judges `users` (sorted) for stream check `kind` on node `node` of type
// `type`: sets TorchAir's log line `line`; refuses when they run on several
// streams, naming the mutated inputs `written`.
Refusal judge_stream_users(const PassState& st, const std::vector<NodeRef>& users,
                           std::string_view kind, std::string_view node, std::string_view type,
                           const std::vector<std::string>& written, std::string& line) {
  std::set<std::string> streams;
  std::vector<std::string> names;
  for (NodeRef u : users) {
    streams.insert(st.graph().node(u).meta.stream);
    names.push_back(st.graph().node(u).name);
  }
  std::string head =
      fmt::format("[{}]Current node: {}, type: {} check no multi stream users", kind, node, type);
  if (users.size() < 2 || streams.size() < 2) {
    line = head +
           " success for reinplace. The users of the mutated input node did not have "
           "multiple streams.";
    return {};
  }
  line = fmt::format(
      "{} failed for reinplace. The users of the mutated input node have multiple streams. All "
      "the users are [{}].",
      head, fmt::join(names, ", "));
  std::vector<std::string> labels;
  for (const std::string& s : streams) labels.push_back(s.empty() ? "default" : "'" + s + "'");
  std::vector<std::string> inputs;
  for (const std::string& w : written) inputs.push_back("'" + w + "'");
  return refuse(
      ReinplaceReason::MultiStreamUsers,
      fmt::format("the users of the mutated input {} run on several streams ({}): {}",
                  fmt::join(inputs, " and "), fmt::join(labels, ", "), fmt::join(names, ", ")),
      node_refs(st.graph(), users));
}

// Runs the check, records TorchAir's log line; returns the refusal.
Refusal check_streams(const PassState& st, const Candidate& c, ReinplaceDecision& d) {
  std::string_view kind =
      c.entry ? "multi_stream_multi_reinplace" : "multi_stream_single_reinplace";
  return judge_stream_users(st, stream_check_users(st, c), kind, d.node, torchair_target(d.target),
                            d.written, d.stream_check);
}

// ---- per-argument checks ------------------------------------------------------------------

// In-place writes need the result to have the mutated argument's exact type
// and layout (1a), and no other argument may read the same memory (1c).
Refusal check_shape_and_overlap(const PassState& st, const Candidate& c, NodeRef a) {
  const Node& n = st.graph().node(c.node);
  const Node& an = st.graph().node(a);
  if (!c.entry && !same_tensor_type(n.type, an.type))
    return refuse(ReinplaceReason::TypeMismatch,
                  fmt::format("the result ({}) does not have the type of '{}' ({})",
                              describe(n.type), an.name, describe(an.type)),
                  {node_ref(st.graph(), a)});
  if (st.aa().may_overlap_internally(a))
    return refuse(
        ReinplaceReason::InternalOverlap,
        fmt::format("'{}' may have internal memory overlap (expanded or zero strides)", an.name),
        {node_ref(st.graph(), a)});
  return {};
}

Refusal check_no_other_reader(const PassState& st, const Candidate& c, int position, NodeRef a) {
  const Node& n = st.graph().node(c.node);
  const OpSchema& schema = st.reg().info(n.op).schema;
  for (size_t k = 0; k < n.args.size(); ++k) {
    if (static_cast<int>(k) == position) continue;
    std::vector<NodeRef> refs;
    collect_node_refs(n.args[k], refs);
    for (NodeRef r : refs) {
      if (r == a)
        return refuse(ReinplaceReason::ArgumentAliases,
                      fmt::format("'{}' is also passed as '{}'", st.graph().node(a).name,
                                  schema.args.at(k).name),
                      {node_ref(st.graph(), a)});
      if (st.aa().may_alias(r, a))
        return refuse(ReinplaceReason::ArgumentAliases,
                      fmt::format("argument '{}' ({}) may alias '{}'", schema.args.at(k).name,
                                  st.graph().node(r).name, st.graph().node(a).name),
                      node_refs(st.graph(), {a, r}));
    }
  }
  return {};
}

std::string names_of(const PassState& st, const std::vector<NodeRef>& nodes) {
  std::vector<std::string> names;
  for (NodeRef r : nodes) names.push_back(st.graph().node(r).name);
  return fmt::format("{}", fmt::join(names, ", "));
}

// Liveness in program order: nobody reads `a` or an alias of it after the node.
Refusal check_dead_after(const PassState& st, NodeRef node, NodeRef a) {
  AliasAnalysis::Window w;
  w.after = node.index;
  w.skip_alias_users = true;
  w.skip_metadata_users = true;
  std::vector<NodeRef> live = st.aa().uses_in_window(st.aa().storages_of(a), w);
  if (live.empty()) return {};
  return refuse(ReinplaceReason::ReadLater,
                fmt::format("'{}' (or an alias) is still read afterwards by {}",
                            st.graph().node(a).name, names_of(st, live)),
                node_refs(st.graph(), live));
}

// ---- rewriting ---------------------------------------------------------------------------

// The node calls `op` now (and has type `type`, when given).
void retarget(PassState& st, NodeRef r, OpId op, std::optional<ValueType> type = std::nullopt) {
  Node& n = st.graph().node(r);
  n.op = op;
  n.target = st.reg().info(op).schema.qualified_name();
  if (type) n.type = std::move(*type);
  st.changed(r);
}

// Types of the functional's outputs, from its tuple type or its getitems.
std::vector<ValueType> functional_output_types(const PassState& st, NodeRef r, size_t count) {
  const Node& n = st.graph().node(r);
  std::vector<ValueType> types(count);
  if (n.type.kind == ValueType::Kind::Tuple) {
    for (size_t i = 0; i < count && i < n.type.elements.size(); ++i) types[i] = n.type.elements[i];
  }
  for (NodeRef u : st.aa().users(r)) {
    const Node& un = st.graph().node(u);
    if (un.kind != NodeKind::GetItem) continue;
    int64_t i = un.getitem_index();
    if (i >= 0 && static_cast<size_t>(i) < count && !types[size_t(i)].is_known())
      types[size_t(i)] = un.type;
  }
  return types;
}

ValueType inplace_type(const std::vector<ValueType>& functional_types, const InplaceableOp& e,
                       size_t inplace_returns) {
  std::vector<ValueType> types(inplace_returns);
  for (size_t i = 0; i < e.outputs.size() && i < functional_types.size(); ++i) {
    if (e.outputs[i].kind == OutputProjection::Kind::InplaceOutput)
      types.at(static_cast<size_t>(e.outputs[i].index)) = functional_types[i];
  }
  if (inplace_returns == 0) return ValueType::none();
  if (inplace_returns == 1) return types[0];
  return ValueType::of_tuple(std::move(types));
}

// Retargets a table op and maps every getitem projection explicitly: output
// i -> output j of the in-place op (the node itself when it returns one
// tensor), or -> the mutated argument it is the new value of.
void rewrite_table_op(PassState& st, const Candidate& c, ReinplaceDecision& d) {
  const InplaceableOp& e = *c.entry;
  size_t inplace_returns = st.reg().info(c.inplace_op).schema.returns.size();
  std::vector<ValueType> types = functional_output_types(st, c.node, e.outputs.size());
  std::vector<NodeRef> users = st.aa().users(c.node);
  retarget(st, c.node, c.inplace_op, inplace_type(types, e, inplace_returns));
  for (NodeRef u : users) {
    Node& getitem = st.graph().node(u);
    int64_t i = getitem.getitem_index();
    const OutputProjection& p = e.outputs.at(static_cast<size_t>(i));
    if (p.kind == OutputProjection::Kind::MutatedArg) {
      NodeRef arg_node = st.graph().node(c.node).args.at(static_cast<size_t>(p.index)).node();
      st.replace_uses(u, arg_node, u.index);
    } else if (inplace_returns == 1) {
      st.replace_uses(u, c.node, u.index);
    } else {
      getitem.args.at(1) = Arg(static_cast<int64_t>(p.index));
      st.changed(u);
      continue;
    }
    st.remove(u);
    d.removed_projections.push_back(getitem.name);
  }
}

// Every user of a table op must be a getitem (the tuple itself is not used).
Refusal check_only_projections(const PassState& st, const Candidate& c) {
  for (NodeRef u : st.aa().users(c.node)) {
    const Node& un = st.graph().node(u);
    if (un.kind != NodeKind::GetItem || un.getitem_index() < 0 ||
        static_cast<size_t>(un.getitem_index()) >= c.entry->outputs.size())
      return refuse(ReinplaceReason::ResultUsedWhole,
                    fmt::format("its result is used as a whole by '{}'", un.name),
                    {node_ref(st.graph(), u)});
  }
  return {};
}

// No two mutated arguments may share memory.
Refusal check_distinct_mutated(const PassState& st, const Candidate& c) {
  for (size_t i = 0; i < c.mutated.size(); ++i) {
    for (size_t j = i + 1; j < c.mutated.size(); ++j) {
      auto a = mutated_node(st, c, c.mutated[i]);
      auto b = mutated_node(st, c, c.mutated[j]);
      if (a && b && st.aa().may_alias(*a, *b))
        return refuse(ReinplaceReason::MutatedArgsAlias,
                      fmt::format("mutated arguments '{}' and '{}' may share memory",
                                  arg_name(st, c, c.mutated[i]), arg_name(st, c, c.mutated[j])),
                      node_refs(st.graph(), {*a, *b}));
    }
  }
  return {};
}

SymInt mutated_output_bytes(const PassState& st, const Candidate& c) {
  SymInt bytes;
  for (int position : c.mutated) {
    if (auto a = mutated_node(st, c, position))
      bytes = bytes + tensor_bytes(st.graph().node(*a).type);
  }
  return bytes;
}

// Records a refusal, or a success whose kind and reason `d` already holds.
void finish(PassState& st, ReinplaceDecision d, Refusal refusal) {
  if (!refusal.empty()) {
    d.success = false;
    d.kind = refusal.kind;
    d.reason = std::move(refusal.text);
    d.related = std::move(refusal.related);
  } else {
    d.success = true;
  }
  st.log().decisions.push_back(std::move(d));
}

// ---- Pass A --------------------------------------------------------------------------------

Refusal not_a_tensor(const PassState& st, const Candidate& c, int position) {
  return refuse(
      ReinplaceReason::NotATensor,
      fmt::format("mutated argument '{}' is not a tensor value", arg_name(st, c, position)));
}

Refusal check_intermediate_arg(PassState& st, const Candidate& c, int position) {
  std::optional<NodeRef> a = mutated_node(st, c, position);
  if (!a) return not_a_tensor(st, c, position);
  if (Refusal why = check_shape_and_overlap(st, c, *a); !why.empty()) return why;
  if (Refusal why = check_no_other_reader(st, c, position, *a); !why.empty()) return why;
  if (st.aa().touches_input(*a))
    return refuse(
        ReinplaceReason::MutatesGraphInput,
        fmt::format("'{}' is a graph input or an alias of one (handled by {})",
                    st.graph().node(*a).name, reinplace_pass_name(ReinplacePass::InputMutatedOps)),
        {node_ref(st.graph(), *a)});
  bool liveness = !c.entry || st.options().check_multi_mutation_liveness;
  return liveness ? check_dead_after(st, c.node, *a) : Refusal{};
}

void reinplace_intermediate(PassState& st, const Candidate& c) {
  ReinplaceDecision d = start_decision(st, c);
  Refusal refusal = check_streams(st, c, d);
  if (refusal.empty() && c.entry) refusal = check_only_projections(st, c);
  if (refusal.empty() && c.entry) refusal = check_distinct_mutated(st, c);
  for (size_t i = 0; refusal.empty() && i < c.mutated.size(); ++i)
    refusal = check_intermediate_arg(st, c, c.mutated[i]);
  if (!refusal.empty()) return finish(st, std::move(d), std::move(refusal));

  if (c.entry) {
    d.output_buffer_bytes = mutated_output_bytes(st, c);
    rewrite_table_op(st, c, d);
    d.kind = ReinplaceReason::MutatedArgsInPlace;
    d.reason = "writes its mutated arguments in place";
  } else {
    NodeRef a = *mutated_node(st, c, 0);
    d.output_buffer_bytes = tensor_bytes(st.graph().node(c.node).type);
    retarget(st, c.node, c.inplace_op);
    st.replace_uses(c.node, a, c.node.index);
    d.kind = ReinplaceReason::DeadIntermediate;
    d.reason = fmt::format("writes into '{}', which is dead afterwards", st.graph().node(a).name);
  }
  finish(st, std::move(d), {});
  st.checkpoint();
}

void run_pass_a(PassState& st) {
  for (size_t i = 0; i < st.graph().size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    if (st.removed(r)) continue;
    if (std::optional<Candidate> c = classify(st, r)) reinplace_intermediate(st, *c);
  }
}

// ---- Pass B --------------------------------------------------------------------------------

struct Epilogues {
  std::map<int32_t, std::vector<NodeRef>> into;     // input node -> copy_ nodes writing it
  std::map<int32_t, std::vector<NodeRef>> sources;  // node copied into an input -> those copy_
};

Epilogues find_epilogues(const PassState& st) {
  Epilogues e;
  const Graph& g = st.graph();
  for (int32_t i : st.copies()) {  // the live copy_ nodes, in program order
    NodeRef r{i};
    const Node& n = g.node(r);
    if (n.args.size() < 2) continue;
    if (!n.args[0].is_node() || !is_graph_input(g.node(n.args[0].node()))) continue;
    e.into[n.args[0].node().index].push_back(r);
    if (!n.args[1].is_node()) continue;
    NodeRef src = n.args[1].node();
    const Node& sn = g.node(src);
    e.sources[sn.kind == NodeKind::GetItem ? sn.getitem_source().index : src.index].push_back(r);
  }
  return e;
}

// The single copy_ epilogue into input `a`, which must copy `src`.
std::variant<NodeRef, Refusal> epilogue_of(const PassState& st, const Epilogues& e, NodeRef a,
                                           NodeRef src) {
  const Graph& g = st.graph();
  const std::string& name = g.node(a).name;
  auto it = e.into.find(a.index);
  if (it == e.into.end())
    return refuse(ReinplaceReason::NoCopyEpilogue,
                  fmt::format("input '{}' has no copy_ epilogue", name), {node_ref(g, a)});
  if (it->second.size() != 1)
    return refuse(ReinplaceReason::SeveralCopyEpilogues,
                  fmt::format("input '{}' has {} copy_ epilogues", name, it->second.size()),
                  node_refs(g, it->second));
  NodeRef copy = it->second[0];
  const Arg& copied = g.node(copy).args[1];
  if (!copied.is_node() || copied.node() != src)
    return refuse(ReinplaceReason::EpilogueCopiesOther,
                  fmt::format("the copy_ epilogue '{}' into '{}' does not copy '{}'",
                              g.node(copy).name, name, g.node(src).name),
                  {node_ref(g, copy)});
  return copy;
}

// No alias of input `a` is read between `node` and its epilogue `copy`
// (metadata-only reads and copy_ into `a` itself excepted).
Refusal check_no_read_before_epilogue(const PassState& st, NodeRef node, NodeRef a, NodeRef copy) {
  AliasAnalysis::Window w;
  w.after = node.index;
  w.before = copy.index;
  w.skip_metadata_users = true;
  std::vector<NodeRef> reads;
  for (NodeRef u : st.aa().uses_in_window(st.aa().storages_of(a), w)) {
    const Node& un = st.graph().node(u);
    bool overwrites_a = is_copy_(un) && un.args[0].is_node() && un.args[0].node() == a;
    if (!overwrites_a) reads.push_back(u);
  }
  if (reads.empty()) return {};
  return refuse(ReinplaceReason::ReadBeforeEpilogue,
                fmt::format("'{}' (or an alias) is read before its copy_ epilogue by {}",
                            st.graph().node(a).name, names_of(st, reads)),
                node_refs(st.graph(), reads));
}

void remove_epilogue(PassState& st, NodeRef copy, NodeRef a, ReinplaceDecision& d) {
  st.replace_uses(copy, a, copy.index);
  st.remove(copy);
  d.removed_copies.push_back(st.graph().node(copy).name);
  d.copy_bytes = d.copy_bytes + SymInt(2) * tensor_bytes(st.graph().node(a).type);
}

void reinplace_table_inputs(PassState& st, const Candidate& c, const Epilogues& e) {
  ReinplaceDecision d = start_decision(st, c);
  std::vector<NodeRef> copies;
  Refusal refusal = check_only_projections(st, c);
  for (size_t i = 0; refusal.empty() && i < c.mutated.size(); ++i) {
    int position = c.mutated[i];
    std::optional<NodeRef> a = mutated_node(st, c, position);
    if (!a || !is_graph_input(st.graph().node(*a))) {
      std::vector<ReinplaceNodeRef> related;
      if (a) related.push_back(node_ref(st.graph(), *a));
      refusal = refuse(
          ReinplaceReason::NotAGraphInput,
          fmt::format("mutated argument '{}' is not a graph input", arg_name(st, c, position)),
          std::move(related));
      break;
    }
    std::vector<NodeRef> proj = projections(st, c.node, output_of_arg(*c.entry, position));
    if (proj.size() != 1) {
      refusal =
          refuse(ReinplaceReason::NewValueNotCopied,
                 fmt::format("the new value of '{}' is not copied back", arg_name(st, c, position)),
                 node_refs(st.graph(), proj));
      break;
    }
    auto copy = epilogue_of(st, e, *a, proj[0]);
    if (auto* why = std::get_if<Refusal>(&copy)) {
      refusal = *why;
      break;
    }
    copies.push_back(std::get<NodeRef>(copy));
    refusal = check_no_other_reader(st, c, position, *a);
    if (refusal.empty()) refusal = check_no_read_before_epilogue(st, c.node, *a, copies.back());
  }
  if (refusal.empty()) refusal = check_distinct_mutated(st, c);
  if (refusal.empty()) refusal = check_streams(st, c, d);
  if (!refusal.empty()) return finish(st, std::move(d), std::move(refusal));

  d.output_buffer_bytes = mutated_output_bytes(st, c);
  for (size_t i = 0; i < copies.size(); ++i)
    remove_epilogue(st, copies[i], *mutated_node(st, c, c.mutated[i]), d);
  rewrite_table_op(st, c, d);
  d.kind = ReinplaceReason::GraphInputInPlace;
  d.reason = "writes the graph inputs in place; copy_ epilogues removed";
  finish(st, std::move(d), {});
  st.checkpoint();
}

Refusal check_generic_input_arg(const PassState& st, const Candidate& c, const Epilogues& e,
                                NodeRef a, std::optional<NodeRef>& copy) {
  if (Refusal why = check_shape_and_overlap(st, c, a); !why.empty()) return why;
  if (Refusal why = check_no_other_reader(st, c, 0, a); !why.empty()) return why;
  const Node& an = st.graph().node(a);
  if (is_graph_input(an)) {
    auto found = epilogue_of(st, e, a, c.node);
    if (auto* why = std::get_if<Refusal>(&found)) return *why;
    copy = std::get<NodeRef>(found);
    return check_no_read_before_epilogue(st, c.node, a, *copy);
  }
  if (st.aa().touches_input(a))
    return refuse(ReinplaceReason::ViewOfGraphInput,
                  fmt::format("'{}' is a view of a graph input", an.name),
                  {node_ref(st.graph(), a)});
  return check_dead_after(st, c.node, a);
}

void reinplace_generic_input(PassState& st, const Candidate& c, const Epilogues& e) {
  ReinplaceDecision d = start_decision(st, c);
  std::optional<NodeRef> copy;
  std::optional<NodeRef> a = mutated_node(st, c, 0);
  Refusal refusal = a ? check_generic_input_arg(st, c, e, *a, copy) : not_a_tensor(st, c, 0);
  if (refusal.empty()) refusal = check_streams(st, c, d);
  if (!refusal.empty()) return finish(st, std::move(d), std::move(refusal));

  d.output_buffer_bytes = tensor_bytes(st.graph().node(c.node).type);
  retarget(st, c.node, c.inplace_op);
  if (copy) {
    remove_epilogue(st, *copy, *a, d);
    d.kind = ReinplaceReason::GraphInputInPlace;
    d.reason = fmt::format("writes graph input '{}' in place; copy_ epilogue removed",
                           st.graph().node(*a).name);
  } else {
    d.kind = ReinplaceReason::DeadIntermediate;
    d.reason = fmt::format("writes into '{}', which is dead afterwards", st.graph().node(*a).name);
  }
  finish(st, std::move(d), {});
  st.checkpoint();
}

// ---- auto_functionalized (torchair-passes.md §6.1 item 3, §6.3 step 4) ---------------------
//
// A call `auto_functionalized[_v2](op, ...)` runs the in-place `op` on copies.
// For each mutable argument (v1) or base (v2) pass B decides whether `op` may
// write the original in place (same rules as can_inplace for ops with copy_
// epilogues) or must write a clone, then decomposes the call right away, as
// inductor's decompose_auto_functionalized does after TorchAir's pass: clones
// where needed, v2 views regenerated from the (new) bases, the op itself, and
// the call's getitems replaced by the op's outputs and the new values. Later
// candidates then see the real aliasing (a reinplaced new value IS the base).

// One mutable argument (v1) or base (v2) and the getitems of its new value.
struct HopSlot {
  AutoFunctionalizedSlot log;
  std::vector<NodeRef> tensors;
  std::vector<NodeRef> projections;  // getitems of output `op_outputs + index`
};

std::vector<NodeRef> node_refs(const Arg& a) {
  std::vector<NodeRef> out;
  collect_node_refs(a, out);
  return out;
}

int64_t static_bytes(const ValueType& t) {
  SymInt bytes = tensor_bytes(t);
  return bytes.constant().value_or(0);
}

std::vector<HopSlot> hop_slots(const PassState& st, NodeRef hop, const AutoFunctionalized& af) {
  std::vector<HopSlot> slots;
  const Graph& g = st.graph();
  auto add = [&](std::string name, const Arg& value) {
    HopSlot s;
    s.log.name = std::move(name);
    s.tensors = node_refs(value);
    for (NodeRef t : s.tensors) {
      s.log.tensors.push_back(g.node(t).name);
      s.log.bytes += static_bytes(g.node(t).type);
    }
    s.projections = projections(st, hop, static_cast<int64_t>(af.op_outputs + slots.size()));
    slots.push_back(std::move(s));
  };
  if (af.version == AutoFunctionalizedVersion::V1) {
    for (const MutableArg& m : af.mutables) add(m.name, m.value);
  } else {
    for (size_t i = 0; i < af.bases.size(); ++i) add(fmt::format("_all_bases[{}]", i), af.bases[i]);
  }
  return slots;
}

// The read-only tensor arguments of the wrapped op.
std::vector<std::pair<std::string, NodeRef>> hop_read_args(const PassState& st,
                                                           const AutoFunctionalized& af) {
  const OpSchema& schema = st.reg().info(af.op).schema;
  std::vector<std::pair<std::string, NodeRef>> out;
  for (size_t i = 0; i < af.args.size(); ++i) {
    if (schema.args[i].mutates()) continue;
    for (NodeRef r : node_refs(af.args[i])) out.emplace_back(schema.args[i].name, r);
  }
  return out;
}

// A graph input may be written in place when its single copy_ epilogue
// follows with no read of it in between. When the epilogue copies something
// other than this call's new value (a later call's, as in a chain of
// mutations), that new value must not be read once the epilogue has
// overwritten the input it now lives in.
std::string check_hop_input(const PassState& st, const Epilogues& e, NodeRef hop, NodeRef a,
                            const HopSlot& slot) {
  const std::string& name = st.graph().node(a).name;
  auto it = e.into.find(a.index);
  if (it == e.into.end())
    return fmt::format("input '{}' has no copy_ epilogue: the program does not change it", name);
  if (it->second.size() != 1)
    return fmt::format("input '{}' has {} copy_ epilogues", name, it->second.size());
  NodeRef copy = it->second[0];
  if (std::string why = check_no_read_before_epilogue(st, hop, a, copy).text; !why.empty())
    return why;
  const Arg& copied = st.graph().node(copy).args.at(1);
  bool copies_new_value =
      copied.is_node() && std::find(slot.projections.begin(), slot.projections.end(),
                                    copied.node()) != slot.projections.end();
  if (copies_new_value) return "";
  AliasAnalysis::Window w;
  w.after = copy.index - 1;
  w.skip_metadata_users = true;
  for (NodeRef p : slot.projections) {
    std::vector<NodeRef> reads = st.aa().uses_in_window(st.aa().storages_of(p), w);
    if (!reads.empty())
      return fmt::format(
          "its new value '{}' is read by {} after the copy_ epilogue '{}' overwrites "
          "'{}'",
          st.graph().node(p).name, names_of(st, reads), st.graph().node(copy).name, name);
  }
  return "";
}

// TorchAir's can_inplace for one tensor, plus eqfuse's overlap and
// read-aliasing checks.
std::string check_hop_tensor(const PassState& st, const Epilogues& e, NodeRef hop,
                             const AutoFunctionalized& af, const HopSlot& slot, NodeRef a) {
  const Node& an = st.graph().node(a);
  if (st.aa().storages_of(a).empty())
    return fmt::format("'{}' is not a tensor with storage", an.name);
  if (st.aa().may_overlap_internally(a))
    return fmt::format("'{}' may have internal memory overlap (expanded or zero strides)", an.name);
  if (st.options().check_auto_functionalized_read_aliasing) {
    for (const auto& [arg, r] : hop_read_args(st, af)) {
      if (st.aa().may_alias(r, a))
        return fmt::format(
            "the op also reads '{}' (argument '{}'), which may share memory with '{}', so writing "
            "it in place could change what the op reads (TorchAir allows this; "
            "check_auto_functionalized_read_aliasing = false)",
            st.graph().node(r).name, arg, an.name);
    }
  }
  if (is_graph_input(an)) return check_hop_input(st, e, hop, a, slot);
  if (st.aa().touches_input(a)) return fmt::format("'{}' is a view of a graph input", an.name);
  return check_dead_after(st, hop, a).text;
}

// Why the slot must be cloned; empty when the op may write it in place.
// `written` holds the storages of the slots this call already writes in place.
std::string check_hop_slot(const PassState& st, const Epilogues& e, NodeRef hop,
                           const AutoFunctionalized& af, HopSlot& slot, const StorageSet& written,
                           std::string_view hop_name) {
  if (slot.tensors.empty()) return "it is None";
  for (NodeRef t : slot.tensors) {
    for (StorageId s : st.aa().storages_of(t)) {
      if (std::binary_search(written.begin(), written.end(), s))
        return fmt::format(
            "'{}' shares memory with a tensor this call already writes in place "
            "(no op(x, x))",
            st.graph().node(t).name);
    }
  }
  for (size_t i = 0; i < slot.tensors.size(); ++i) {
    for (size_t j = i + 1; j < slot.tensors.size(); ++j) {
      if (st.aa().may_alias(slot.tensors[i], slot.tensors[j]))
        return fmt::format("its elements '{}' and '{}' may share memory",
                           st.graph().node(slot.tensors[i]).name,
                           st.graph().node(slot.tensors[j]).name);
    }
  }
  for (NodeRef t : slot.tensors) {
    if (std::string why = check_hop_tensor(st, e, hop, af, slot, t); !why.empty()) return why;
  }
  std::vector<NodeRef> users;
  for (NodeRef t : slot.tensors) add_stream_users_of(st, t, users);
  sort_unique(users);
  return judge_stream_users(st, users, "multi_stream_auto_functionalize", st.graph().node(hop).name,
                            hop_name, slot.log.tensors, slot.log.stream_check)
      .text;
}

// Nodes to insert before the call; references among them use their final
// positions, so they can be used as arguments at once.
class HopDecomposition {
 public:
  HopDecomposition(PassState& st, NodeRef at) : st_(st), at_(at) {}

  NodeRef call(std::string_view qualified, std::vector<Arg> args,
               std::optional<ValueType> type = std::nullopt) {
    OpId op = *st_.reg().find(qualified);
    const OpSchema& schema = st_.reg().info(op).schema;
    for (size_t i = args.size(); i < schema.args.size(); ++i)
      args.push_back(schema.args[i].default_value.value_or(Arg::none()));
    Node n;
    n.kind = NodeKind::Call;
    n.op = op;
    n.target = schema.qualified_name();
    n.name = fresh(fmt::format("{}_{}", schema.name,
                               schema.overload.empty() ? "default" : lower(schema.overload)));
    n.args = std::move(args);
    n.meta = st_.graph().node(at_).meta;
    n.type = type ? *type : infer(st_.reg().info(op), n.args);
    return push(std::move(n));
  }

  NodeRef getitem(NodeRef src, int64_t index, ValueType type) {
    Node n;
    n.kind = NodeKind::GetItem;
    n.target = "operator.getitem";
    n.name = fresh("getitem");
    n.args = {Arg(src), Arg(index)};
    n.meta = st_.graph().node(at_).meta;
    n.type = std::move(type);
    return push(std::move(n));
  }

  const ValueType& type_of(NodeRef r) const {
    if (r.index < at_.index) return st_.graph().node(r).type;
    return nodes_.at(static_cast<size_t>(r.index - at_.index)).type;
  }
  // The name of a node this decomposition made (before or after commit).
  const std::string& name_of_new(NodeRef r) const {
    return nodes_.at(static_cast<size_t>(r.index - at_.index)).name;
  }

  // Inserts the nodes; returns the call's new position.
  NodeRef commit() { return st_.insert_before(at_, std::move(nodes_)); }

 private:
  static std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  }
  std::string fresh(const std::string& base) {
    std::string name = st_.graph().fresh_name(base);
    for (int i = 1; taken_.contains(name) || st_.graph().find(name); ++i)
      name = fmt::format("{}_{}", base, i);
    taken_.insert(name);
    return name;
  }
  ValueType infer(const OpInfo& info, const std::vector<Arg>& args) const {
    if (!info.meta) return ValueType::unknown();
    CallContext ctx(info.schema, args,
                    [this](NodeRef r) -> const ValueType& { return type_of(r); });
    return info.meta(ctx);
  }
  NodeRef push(Node n) {
    nodes_.push_back(std::move(n));
    return NodeRef{at_.index + static_cast<int32_t>(nodes_.size()) - 1};
  }

  PassState& st_;
  NodeRef at_;
  std::vector<Node> nodes_;
  std::set<std::string> taken_;
};

Arg int_list(std::vector<int64_t> values) {
  std::vector<Arg> items;
  for (int64_t v : values) items.emplace_back(v);
  return Arg::list(std::move(items));
}

// The layout clone_preserve_strides reproduces, when it is known statically:
// a tensor with its own storage (offset 0), static sizes and strides
// (contiguous unless annotated).
struct StaticLayout {
  std::vector<int64_t> sizes, strides;
  int64_t storage_length = 0;
};

std::optional<StaticLayout> static_layout(const PassState& st, NodeRef t) {
  const ValueType& type = st.graph().node(t).type;
  if (!type.is_tensor() || !type.tensor.shape || st.aa().is_alias_node(t)) return std::nullopt;
  StaticLayout l;
  for (const SymInt& d : *type.tensor.shape) {
    std::optional<int64_t> v = d.constant();
    if (!v) return std::nullopt;
    l.sizes.push_back(*v);
  }
  if (type.tensor.strides) {
    for (const SymInt& d : *type.tensor.strides) {
      std::optional<int64_t> v = d.constant();
      if (!v) return std::nullopt;
      l.strides.push_back(*v);
    }
  } else {
    int64_t stride = 1;
    l.strides.assign(l.sizes.size(), 1);
    for (size_t i = l.sizes.size(); i-- > 0;) {
      l.strides[i] = stride;
      stride *= std::max<int64_t>(l.sizes[i], 1);
    }
  }
  if (l.strides.size() != l.sizes.size()) return std::nullopt;
  bool empty = std::find(l.sizes.begin(), l.sizes.end(), 0) != l.sizes.end();
  l.storage_length = empty ? 0 : 1;
  for (size_t i = 0; i < l.sizes.size() && !empty; ++i)
    l.storage_length += (l.sizes[i] - 1) * l.strides[i];
  return l;
}

// Whether emit_clone's copy has the tensor's exact layout: a static one is
// rebuilt; a plain clone is contiguous with offset 0, as a tensor with its
// own storage and no annotated strides is.
bool clone_keeps_layout(const PassState& st, NodeRef t) {
  if (static_layout(st, t)) return true;
  const ValueType& type = st.graph().node(t).type;
  return !st.aa().is_alias_node(t) && type.is_tensor() && !type.tensor.strides;
}

// torch's clone_preserve_strides in graph form: as_strided over the storage,
// clone, as_strided back. Without a static layout a plain clone (same values,
// contiguous) stands in.
NodeRef emit_clone(const PassState& st, HopDecomposition& d, NodeRef t) {
  std::optional<StaticLayout> l = static_layout(st, t);
  if (!l) return d.call("aten::clone", {Arg(t)});
  NodeRef flat = d.call("aten::as_strided",
                        {Arg(t), int_list({l->storage_length}), int_list({1}), Arg(int64_t{0})});
  NodeRef copy = d.call("aten::clone", {Arg(flat)});
  return d.call("aten::as_strided",
                {Arg(copy), int_list(l->sizes), int_list(l->strides), Arg(int64_t{0})});
}

// `(3,)` in the call's keywords is an int list argument `[3]` of the view op.
Arg as_list(const Arg& a) {
  if (!a.is_list()) return a;
  return Arg::list(a.as_list().items);
}

Arg regenerate_view(HopDecomposition& d, const BaseView& v, const Arg& base) {
  switch (v.kind) {
    case BaseView::Kind::Base:
      return base;
    case BaseView::Kind::Alias:
      return Arg(d.call("aten::alias", {base}));
    case BaseView::Kind::Slice:
      return Arg(d.call("aten::slice.Tensor", {base, v.dim, v.start, v.end, Arg(int64_t{1})}));
    case BaseView::Kind::AsStrided:
      return Arg(
          d.call("aten::as_strided", {base, as_list(v.size), as_list(v.stride), v.storage_offset}));
  }
  return base;
}

// A cloned v2 base whose views are as_strided offsets into its storage needs
// its layout reproduced; without a static one the call is kept as it is.
std::string check_decomposable(const PassState& st, const AutoFunctionalized& af,
                               const std::vector<HopSlot>& slots) {
  if (af.version == AutoFunctionalizedVersion::V1) return "";
  for (const MutableArg& m : af.mutables) {
    for (const std::optional<BaseView>& v : m.views) {
      if (!v || v->kind != BaseView::Kind::AsStrided) continue;
      const HopSlot& slot = slots.at(static_cast<size_t>(v->base_index));
      NodeRef base = slot.tensors.at(0);
      if (!slot.log.reinplaced && !clone_keeps_layout(st, base))
        return fmt::format(
            "base '{}' is a view whose storage layout is not known statically, "
            "so its clone cannot preserve the as_strided view of '{}'",
            st.graph().node(base).name, m.name);
    }
  }
  return "";
}

// What each getitem of the call becomes.
// Decomposes the call into its op (on clones where a slot is not written in
// place); returns the values replacing its outputs, sets `hop_after` to the
// call's new position and `call_name` to the name of the op call made.
std::vector<Arg> decompose_hop(PassState& st, NodeRef hop, const AutoFunctionalized& af,
                               const std::vector<HopSlot>& slots, NodeRef& hop_after,
                               std::string& call_name) {
  const OpInfo& info = st.reg().info(af.op);
  std::vector<ValueType> out_types = functional_output_types(st, hop, af.output_count());
  HopDecomposition d(st, hop);
  std::vector<Arg> new_values;
  std::vector<Arg> args = af.args;
  for (size_t k = 0; k < slots.size(); ++k) {
    Arg value = af.version == AutoFunctionalizedVersion::V1 ? af.mutables[k].value : af.bases[k];
    if (!slots[k].log.reinplaced && !slots[k].tensors.empty()) {
      if (value.is_list()) {
        std::vector<Arg> items;
        for (const Arg& e : value.as_list().items)
          items.push_back(e.is_node() ? Arg(emit_clone(st, d, e.node())) : e);
        value = Arg::list(std::move(items));
      } else {
        value = Arg(emit_clone(st, d, value.node()));
      }
    }
    new_values.push_back(value);
    if (af.version == AutoFunctionalizedVersion::V1)
      args[static_cast<size_t>(af.mutables[k].position)] = value;
  }
  if (af.version == AutoFunctionalizedVersion::V2) {
    for (const MutableArg& m : af.mutables) {
      std::vector<Arg> views;
      for (const std::optional<BaseView>& v : m.views)
        views.push_back(v ? regenerate_view(d, *v, new_values.at(size_t(v->base_index)))
                          : Arg::none());
      args[static_cast<size_t>(m.position)] = m.is_none   ? Arg::none()
                                              : m.is_list ? Arg::list(std::move(views))
                                                          : views.at(0);
    }
  }
  size_t returns = info.schema.returns.size();
  ValueType call_type = returns == 0   ? ValueType::none()
                        : returns == 1 ? out_types.at(0)
                                       : ValueType::of_tuple(std::vector<ValueType>(
                                             out_types.begin(), out_types.begin() + long(returns)));
  NodeRef call = d.call(info.schema.qualified_name(), std::move(args), call_type);
  call_name = d.name_of_new(call);
  std::vector<Arg> outputs;
  for (size_t i = 0; i < af.op_outputs; ++i) {
    if (returns == 0) {
      outputs.push_back(Arg::none());
    } else if (returns == 1) {
      outputs.push_back(Arg(call));
    } else if (projections(st, hop, int64_t(i)).empty()) {
      outputs.push_back(Arg::none());  // nobody reads it
    } else {
      outputs.push_back(Arg(d.getitem(call, int64_t(i), out_types.at(i))));
    }
  }
  for (Arg& v : new_values) outputs.push_back(std::move(v));
  hop_after = d.commit();
  return outputs;
}

// Rewires the call's getitems to `outputs` and removes them and the call. A
// list-valued output (a v1 Tensor[] argument) replaces the getitems of its
// getitem element by element.
void replace_hop_outputs(PassState& st, NodeRef hop, const std::vector<Arg>& outputs) {
  for (NodeRef u : std::vector<NodeRef>(st.aa().users(hop))) {
    const Arg& to = outputs.at(static_cast<size_t>(st.graph().node(u).getitem_index()));
    if (to.is_list()) {
      for (NodeRef w : std::vector<NodeRef>(st.aa().users(u))) {
        const Node& wn = st.graph().node(w);
        if (wn.kind != NodeKind::GetItem || wn.getitem_source() != u) continue;
        const auto& items = to.as_list().items;
        int64_t i = wn.getitem_index();
        if (i < 0) i += static_cast<int64_t>(items.size());
        st.replace_uses_with_arg(w, items.at(static_cast<size_t>(i)), w.index);
        st.remove(w);
      }
    }
    st.replace_uses_with_arg(u, to, u.index);
    st.remove(u);
  }
  st.remove(hop);
}

std::string hop_reason(const std::vector<HopSlot>& slots) {
  std::vector<std::string> parts;
  for (const HopSlot& s : slots) {
    if (s.tensors.empty()) {
      parts.push_back(s.log.name + " is None");
      continue;
    }
    std::string what = s.log.tensors.empty()
                           ? s.log.name
                           : fmt::format("{} ({})", s.log.name, fmt::join(s.log.tensors, ", "));
    parts.push_back(s.log.reinplaced ? fmt::format("writes {} in place", what)
                                     : fmt::format("clones {}: {}", what, s.log.reason));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

// Decides and decomposes one call; returns the position after the nodes it
// inserted (where the pass continues).
size_t reinplace_auto_functionalized(PassState& st, NodeRef hop) {
  std::optional<AutoFunctionalized> af = decode_auto_functionalized(st.graph().node(hop), st.reg());
  if (!af) return static_cast<size_t>(hop.index);  // wrapped op unknown: opaque
  std::string hop_name(auto_functionalized_name(af->version));
  ReinplaceDecision d;
  d.pass = st.pass();
  d.node = st.graph().node(hop).name;
  d.target = hop_name;
  d.inplace_target = st.reg().info(af->op).schema.qualified_name();
  for (NodeRef u : st.aa().users(hop)) {
    if (st.graph().node(u).kind != NodeKind::GetItem) {
      finish(st, std::move(d),
             refuse(ReinplaceReason::ResultUsedWhole,
                    fmt::format("its result is used as a whole by '{}'", st.graph().node(u).name),
                    {node_ref(st.graph(), u)}));
      return static_cast<size_t>(hop.index);
    }
  }
  Epilogues e = find_epilogues(st);
  std::vector<HopSlot> slots = hop_slots(st, hop, *af);
  StorageSet written;
  for (HopSlot& slot : slots) {
    slot.log.reason = check_hop_slot(st, e, hop, *af, slot, written, hop_name);
    slot.log.reinplaced = slot.log.reason.empty();
    if (!slot.log.reinplaced) continue;
    for (NodeRef t : slot.tensors) {
      StorageSet s = st.aa().storages_of(t);
      written.insert(written.end(), s.begin(), s.end());
    }
    std::sort(written.begin(), written.end());
    d.output_buffer_bytes = d.output_buffer_bytes + SymInt(slot.log.bytes);
    d.copy_bytes = d.copy_bytes + SymInt(2 * slot.log.bytes);
  }
  if (std::string why = check_decomposable(st, *af, slots); !why.empty()) {
    d.output_buffer_bytes = d.copy_bytes = SymInt(0);
    finish(st, std::move(d),
           refuse(ReinplaceReason::NotDecomposable, "cannot be decomposed: " + why));
    return static_cast<size_t>(hop.index);
  }
  NodeRef hop_after = hop;
  std::vector<Arg> outputs = decompose_hop(st, hop, *af, slots, hop_after, d.decomposed_call);
  replace_hop_outputs(st, hop_after, outputs);
  bool any =
      std::any_of(slots.begin(), slots.end(), [](const HopSlot& s) { return s.log.reinplaced; });
  std::string reason = hop_reason(slots);
  for (HopSlot& s : slots) d.slots.push_back(std::move(s.log));
  d.success = any;
  d.kind =
      any ? ReinplaceReason::AutoFunctionalizedInPlace : ReinplaceReason::AutoFunctionalizedCloned;
  d.reason = std::move(reason);
  st.log().decisions.push_back(std::move(d));
  st.checkpoint();
  return static_cast<size_t>(hop_after.index);
}

// Why the op of `n` has no in-place form (classify found none).
std::string no_inplace_form(const PassState& st, const Node& n) {
  if (n.op == kNoOp) return fmt::format("'{}' has no schema (an opaque op)", n.target);
  const OpInfo& info = st.reg().info(n.op);
  std::string op = info.schema.qualified_name();
  if (const InplaceableOp* e = st.options().table.find(op))
    return fmt::format("its multi-mutation table entry is not usable: {}",
                       InplaceableOpTable::unusable_reason(*e, st.reg()));
  if (info.traits.is_view) return fmt::format("{} is a view", op);
  if (info.schema.mutates_any()) return fmt::format("{} already writes its arguments", op);
  if (info.schema.returns.size() != 1)
    return fmt::format("{} returns {} values and is not in the multi-mutation table", op,
                       info.schema.returns.size());
  return fmt::format("{} has no in-place twin: no {}::{}_ with a matching schema is registered", op,
                     info.schema.ns, info.schema.name);
}

// A node copied into a graph input whose op has no in-place form: kept, and
// logged, since it is the candidate a reader of the graph expects to see.
void keep_without_inplace_form(PassState& st, NodeRef r, const std::vector<NodeRef>& copies) {
  const Graph& g = st.graph();
  const Node& n = g.node(r);
  ReinplaceDecision d;
  d.pass = st.pass();
  d.node = n.name;
  d.target = n.op == kNoOp ? n.target : st.reg().info(n.op).schema.qualified_name();
  std::vector<NodeRef> related = copies;
  std::vector<std::string> inputs;
  for (NodeRef copy : copies) {
    NodeRef input = g.node(copy).args[0].node();
    related.push_back(input);
    d.written.push_back(g.node(input).name);
    inputs.push_back(fmt::format("'{}' by {}", g.node(input).name, g.node(copy).name));
  }
  Refusal why = refuse(ReinplaceReason::NoInplaceVariant,
                       fmt::format("it is copied into graph input {}, but {}",
                                   fmt::join(inputs, ", "), no_inplace_form(st, n)),
                       node_refs(g, related));
  finish(st, std::move(d), std::move(why));
}

void run_pass_b(PassState& st) {
  // Copies of ops without an in-place form are never removed, so the
  // epilogues found up front are the ones to report for them. Decomposing an
  // auto_functionalized call inserts nodes, so they are found again after it
  // (the indices moved).
  Epilogues initial = find_epilogues(st);
  for (size_t i = 0; i < st.graph().size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    if (st.removed(r)) continue;
    if (auto_functionalized_version(st.graph().node(r))) {
      i = reinplace_auto_functionalized(st, r);
      initial = find_epilogues(st);
      continue;
    }
    std::optional<Candidate> c = classify(st, r);
    if (!c) {
      auto copied = initial.sources.find(r.index);
      if (copied != initial.sources.end() && st.graph().node(r).kind == NodeKind::Call)
        keep_without_inplace_form(st, r, copied->second);
      continue;
    }
    // Epilogues are looked up afresh: earlier rewrites removed some.
    Epilogues e = find_epilogues(st);
    if (c->entry) {
      reinplace_table_inputs(st, *c, e);
    } else if (e.sources.contains(r.index)) {
      reinplace_generic_input(st, *c, e);
    }
  }
}

// ---- driver ----------------------------------------------------------------------------------

void note_unusable_entries(const ReinplaceOptions& o, const OpRegistry& reg, ReinplaceLog& log) {
  for (const InplaceableOp& e : o.table.entries()) {
    std::string why = InplaceableOpTable::unusable_reason(e, reg);
    if (!why.empty())
      log.notes.push_back(fmt::format("table entry '{}' not used: {}", e.functional, why));
  }
}

// The stream labels the pass will see: labels come from scope nodes when
// there are any (PassState assigns them), else from the nodes' own labels.
std::vector<std::string> labels_seen_by_pass(const Graph& g) {
  if (!has_scope_nodes(g)) return stream_labels(g);
  Graph labelled = g;
  assign_stream_labels(labelled);
  return stream_labels(labelled);
}

// Runs one pass on `input`; appends its notes and decisions to `log`.
Graph run_pass(Graph input, const OpRegistry& reg, const ReinplaceOptions& o, ReinplacePass pass,
               ReinplaceLog& log) {
  if (o.multi_stream == MultiStreamPolicy::SkipGraph) {
    std::vector<std::string> labels = labels_seen_by_pass(input);
    if (!labels.empty()) {
      log.notes.push_back(fmt::format(
          "skipping {}_pass: the graph uses in-graph multi-stream parallelism (streams {}), as "
          "TorchAir documents",
          reinplace_pass_name(pass), fmt::join(labels, ", ")));
      return input;
    }
  }
  PassState st(std::move(input), reg, o, pass);
  log.notes.push_back(fmt::format("processing {}_pass", reinplace_pass_name(pass)));
  if (pass == ReinplacePass::InplaceableOps) {
    run_pass_a(st);
  } else {
    run_pass_b(st);
  }
  for (ReinplaceDecision& d : st.log().decisions) log.decisions.push_back(std::move(d));
  return std::move(st).compact();
}

ReinplaceResult finish_result(Graph g, ReinplaceLog log) {
  ReinplaceResult r{std::move(g), std::move(log), {}};
  r.savings = memory_traffic_saved(r.log);
  return r;
}

}  // namespace

std::string_view reinplace_reason_name(ReinplaceReason r) {
  switch (r) {
    case ReinplaceReason::DeadIntermediate:
      return "dead_intermediate";
    case ReinplaceReason::MutatedArgsInPlace:
      return "mutated_args_in_place";
    case ReinplaceReason::GraphInputInPlace:
      return "graph_input_in_place";
    case ReinplaceReason::MultiStreamUsers:
      return "multi_stream_users";
    case ReinplaceReason::TypeMismatch:
      return "type_mismatch";
    case ReinplaceReason::InternalOverlap:
      return "internal_overlap";
    case ReinplaceReason::ArgumentAliases:
      return "argument_aliases";
    case ReinplaceReason::MutatedArgsAlias:
      return "mutated_args_alias";
    case ReinplaceReason::ResultUsedWhole:
      return "result_used_whole";
    case ReinplaceReason::NotATensor:
      return "not_a_tensor";
    case ReinplaceReason::MutatesGraphInput:
      return "mutates_graph_input";
    case ReinplaceReason::ReadLater:
      return "read_later";
    case ReinplaceReason::ViewOfGraphInput:
      return "view_of_graph_input";
    case ReinplaceReason::NotAGraphInput:
      return "not_a_graph_input";
    case ReinplaceReason::NewValueNotCopied:
      return "new_value_not_copied";
    case ReinplaceReason::NoCopyEpilogue:
      return "no_copy_epilogue";
    case ReinplaceReason::SeveralCopyEpilogues:
      return "several_copy_epilogues";
    case ReinplaceReason::EpilogueCopiesOther:
      return "epilogue_copies_other";
    case ReinplaceReason::ReadBeforeEpilogue:
      return "read_before_epilogue";
    case ReinplaceReason::NoInplaceVariant:
      return "no_inplace_variant";
    case ReinplaceReason::AutoFunctionalizedInPlace:
      return "auto_functionalized_in_place";
    case ReinplaceReason::AutoFunctionalizedCloned:
      return "auto_functionalized_cloned";
    case ReinplaceReason::NotDecomposable:
      return "not_decomposable";
  }
  return "unknown";
}

std::string_view reinplace_pass_name(ReinplacePass p) {
  return p == ReinplacePass::InplaceableOps ? "reinplace_inplaceable_ops"
                                            : "reinplace_input_mutated_ops";
}

std::optional<OpId> generic_inplace_variant(const OpRegistry& reg, OpId op) {
  const OpInfo& info = reg.info(op);
  const OpSchema& s = info.schema;
  if (info.traits.is_view || s.mutates_any() || s.args.empty()) return std::nullopt;
  if (s.args[0].type != ArgType::Tensor || s.args[0].optional) return std::nullopt;
  if (s.returns.size() != 1 || s.returns[0].type != ArgType::Tensor) return std::nullopt;
  auto matches = [&](const OpSchema& t) {
    if (t.args.size() != s.args.size() || !t.args[0].mutates()) return false;
    if (t.returns.size() != 1 || t.returns[0].type != ArgType::Tensor) return false;
    for (size_t i = 0; i < s.args.size(); ++i) {
      const SchemaArg& x = s.args[i];
      const SchemaArg& y = t.args[i];
      if (x.name != y.name || x.type != y.type || x.kwarg_only != y.kwarg_only) return false;
      if (i > 0 && y.mutates()) return false;
    }
    return true;
  };
  std::string twin = s.ns + "::" + s.name + "_" + (s.overload.empty() ? "" : "." + s.overload);
  if (auto id = reg.find(twin); id && matches(reg.info(*id).schema)) return id;
  if (!info.traits.inplace_variant.empty()) {
    if (auto id = reg.find(info.traits.inplace_variant); id && matches(reg.info(*id).schema))
      return id;
  }
  // Any overload of `name_` with a matching schema, if exactly one matches.
  std::optional<OpId> found;
  for (const OpInfo& other : reg.all()) {
    if (other.schema.ns != s.ns || other.schema.name != s.name + "_" || !matches(other.schema))
      continue;
    if (found) return std::nullopt;
    found = other.id;
  }
  return found;
}

namespace {

// One pass on its own, with a fresh log: what the per-pass entry points share.
ReinplaceResult run_single_pass(const Graph& input, const OpRegistry& reg,
                                const ReinplaceOptions& o, ReinplacePass pass) {
  ReinplaceLog log;
  note_unusable_entries(o, reg, log);
  Graph g = run_pass(input, reg, o, pass, log);
  return finish_result(std::move(g), std::move(log));
}

}  // namespace

ReinplaceResult reinplace_inplaceable_ops(const Graph& input, const OpRegistry& reg,
                                          const ReinplaceOptions& o) {
  return run_single_pass(input, reg, o, ReinplacePass::InplaceableOps);
}

ReinplaceResult reinplace_input_mutated_ops(const Graph& input, const OpRegistry& reg,
                                            const ReinplaceOptions& o) {
  return run_single_pass(input, reg, o, ReinplacePass::InputMutatedOps);
}

void recover_view_inplace_step(Graph& g, const OpRegistry& reg, const ReinplaceOptions& o,
                               ReinplaceLog& log) {
  if (!o.recover_view_inplace) {
    log.notes.push_back(
        "skipping recover_view_inplace_pattern: reinplace.recover_view_inplace is false");
    return;
  }
  RecoverViewInplaceResult rv = recover_view_inplace_pattern(g, reg, o.view_inplace_table);
  g = std::move(rv.graph);
  log.recover_view_inplace = std::move(rv.log);
}

ReinplaceResult reinplace(const Graph& input, const OpRegistry& reg, const ReinplaceOptions& o) {
  ReinplaceLog log;
  if (o.mode != ExecMode::ReduceOverhead) {
    log.notes.push_back(fmt::format(
        "warning: the reinplace passes run only in reduce-overhead (aclgraph) mode; mode is "
        "'{}', so the graph is left unchanged",
        exec_mode_name(o.mode)));
    return finish_result(input, std::move(log));
  }
  note_unusable_entries(o, reg, log);
  Graph g = input;
  recover_view_inplace_step(g, reg, o, log);
  if (o.disable_reinplace_inplaceable_ops_pass) {
    log.notes.push_back(
        fmt::format("skipping reinplace_inplaceable_ops_pass: {} is set", kDisableInplaceableKey));
  } else {
    g = run_pass(std::move(g), reg, o, ReinplacePass::InplaceableOps, log);
  }
  if (o.disable_reinplace_input_mutated_ops_pass) {
    log.notes.push_back(fmt::format("skipping reinplace_input_mutated_ops_pass: {} is set",
                                    kDisableInputMutatedKey));
  } else {
    g = run_pass(std::move(g), reg, o, ReinplacePass::InputMutatedOps, log);
  }
  return finish_result(std::move(g), std::move(log));
}

// ---- log -----------------------------------------------------------------------------------

namespace {

// An auto_functionalized decision: the stream checks, then what was written
// in place and what was cloned (inductor's "possible missed reinplacing
// opportunities").
void append_auto_functionalized_lines(const ReinplaceDecision& d, const std::string& head,
                                      std::vector<std::string>& out) {
  std::vector<std::string> missed;
  int64_t bytes = 0;
  for (const AutoFunctionalizedSlot& s : d.slots) {
    if (!s.stream_check.empty()) out.push_back(s.stream_check);
    if (s.reinplaced || s.tensors.empty()) continue;
    missed.push_back(s.name);
    bytes += s.bytes;
  }
  std::string tail = missed.empty()
                         ? std::string()
                         : fmt::format(" [possible missed reinplacing opportunities: {}; {} bytes]",
                                       fmt::join(missed, ", "), bytes);
  out.push_back(fmt::format("{} -> {}: decomposed: {}{}", head, d.inplace_target, d.reason, tail));
}

}  // namespace

std::vector<std::string> ReinplaceLog::lines() const {
  std::vector<std::string> out = recover_view_inplace;
  out.insert(out.end(), notes.begin(), notes.end());
  for (const ReinplaceDecision& d : decisions) {
    if (!d.stream_check.empty()) out.push_back(d.stream_check);
    std::string head = fmt::format("{}: {} ({})", reinplace_pass_name(d.pass), d.node, d.target);
    if (!d.slots.empty()) {
      append_auto_functionalized_lines(d, head, out);
    } else if (d.success) {
      std::vector<std::string> gone = d.removed_nodes();
      std::string removed = gone.empty() ? "" : fmt::format(" [removed {}]", fmt::join(gone, ", "));
      out.push_back(
          fmt::format("{} -> {}: reinplaced: {}{}", head, d.inplace_target, d.reason, removed));
    } else if (d.inplace_target.empty()) {
      out.push_back(fmt::format("{} kept: {}", head, d.reason));
    } else {
      out.push_back(fmt::format("{} kept (not {}): {}", head, d.inplace_target, d.reason));
    }
  }
  return out;
}

std::string ReinplaceDecision::changed_node() const {
  if (!decomposed_call.empty()) return decomposed_call;
  return success ? node : std::string();
}

std::vector<std::string> ReinplaceDecision::removed_nodes() const {
  std::vector<std::string> gone = removed_copies;
  gone.insert(gone.end(), removed_projections.begin(), removed_projections.end());
  return gone;
}

const ReinplaceDecision* ReinplaceLog::find(std::string_view node, ReinplacePass pass) const {
  for (const ReinplaceDecision& d : decisions)
    if (d.node == node && d.pass == pass) return &d;
  return nullptr;
}

size_t ReinplaceLog::successes() const {
  return static_cast<size_t>(
      std::count_if(decisions.begin(), decisions.end(), [](const auto& d) { return d.success; }));
}

ReinplaceCounters reinplace_counters(const ReinplaceLog& log) {
  ReinplaceCounters c;
  for (const ReinplaceDecision& d : log.decisions) {
    if (d.slots.empty()) continue;
    ++c.decomposed_calls;
    for (const AutoFunctionalizedSlot& s : d.slots) {
      if (s.reinplaced || s.tensors.empty()) continue;
      ++c.missed;
      c.missed_bytes += s.bytes;
      c.cloned_tensors += s.tensors.size();
    }
  }
  return c;
}

ReinplaceSavings memory_traffic_saved(const ReinplaceLog& log) {
  ReinplaceSavings s;
  for (const ReinplaceDecision& d : log.decisions) {
    if (!d.success) continue;
    ++s.reinplaced_nodes;
    s.output_buffer_bytes = s.output_buffer_bytes + d.output_buffer_bytes;
    s.copy_bytes = s.copy_bytes + d.copy_bytes;
    s.removed_copies += d.removed_copies.size();
  }
  return s;
}

}  // namespace eqfuse
