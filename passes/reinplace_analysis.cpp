// What the reinplace passes know and ask about a candidate, kept apart from
// the passes that rewrite the graph (reinplace_passes.cpp,
// reinplace_auto_functionalized.cpp): the working copy of the graph with its
// incrementally kept alias analysis (PassState), which ops have an in-place
// form (classify, generic_inplace_variant), refusals, TorchAir's multi-stream
// check and the per-argument checks, and the primitives that record a
// decision or retarget a node.
#include <algorithm>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

#include "base/memory_budget.hpp"
#include "graph/graph_edit.hpp"
#include "graph/op_schema.hpp"
#include "graph/streams.hpp"
#include "passes/reinplace_internal.hpp"

namespace eqfuse::reinplace_detail {

// ---- small helpers -------------------------------------------------------------------

bool is_graph_input(const Node& n) {
  return n.kind == NodeKind::Placeholder || n.kind == NodeKind::GetAttr;
}

bool is_copy_(const Node& n) {
  return n.kind == NodeKind::Call && op_base_name(n.target) == "aten::copy_";
}

SymInt tensor_bytes(const ValueType& t) {
  if (!t.is_tensor() || t.tensor.dtype == DType::Unknown) return SymInt(0);
  std::optional<SymInt> numel = t.tensor.numel();
  if (!numel) return SymInt(0);
  return *numel * SymInt(dtype_itemsize(t.tensor.dtype));
}

namespace {

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

}  // namespace

// ---- the working copy ------------------------------------------------------------------

bool has_scope_nodes(const Graph& g) {
  return std::any_of(g.nodes().begin(), g.nodes().end(), [](const Node& n) {
    return n.kind == NodeKind::Call &&
           (n.target == kScopeEnterTarget || n.target == kScopeExitTarget);
  });
}

void PassState::changed(NodeRef r) {
  const bool was_copy = copies_.contains(r.index);
  if (is_copy_(g_.node(r)))
    copies_.insert(r.index);
  else
    copies_.erase(r.index);
  if (was_copy || copies_.contains(r.index)) ++copies_version_;
  aa_->update({r});
}

bool PassState::out_of_time(size_t at) {
  if (!deadline_ && memory_limit_ == 0) return false;
  // steady_clock costs tens of ns, reading the resident memory a few
  // microseconds; a candidate costs about a microsecond.
  const uint32_t call = clock_calls_++;
  if (call % 64 != 0) return false;
  if (deadline_ && Clock::now() >= *deadline_) {
    stopped_by_ = fmt::format("the time limit ({} s)", options_.time_limit_s);
  } else if (call % 1024 == 0 && memory_limit_reached(memory_limit_)) {
    stopped_by_ =
        fmt::format("the memory limit ({} resident, limit {})",
                    format_memory_size(resident_memory_bytes()), format_memory_size(memory_limit_));
  } else {
    return false;
  }
  stopped_at_ = at;
  return true;
}

const PassState::OpForm& PassState::op_form(OpId op) {
  const size_t i = static_cast<size_t>(op);
  if (op_forms_.size() <= i) op_forms_.resize(reg_.all().size() > i ? reg_.all().size() : i + 1);
  std::optional<OpForm>& memo = op_forms_[i];
  if (memo) return *memo;
  OpForm f;
  std::string qualified = reg_.info(op).schema.qualified_name();
  if (const InplaceableOp* e = options_.table.find(qualified)) {
    if (InplaceableOpTable::unusable_reason(*e, reg_).empty()) {
      f.entry = e;
      f.inplace_op = *reg_.find(e->inplace);
    }
  } else if (std::optional<OpId> twin = generic_inplace_variant(reg_, op)) {
    f.inplace_op = *twin;
  }
  memo = f;
  return *memo;
}

void PassState::checkpoint() const {
  if (!options_.check_alias_analysis) return;
  AliasAnalysis fresh(g_, reg_, &removed_);
  if (std::string diff = aa_->difference(fresh); !diff.empty())
    throw std::logic_error(
        "reinplace: the incrementally kept alias analysis differs from a "
        "fresh one: " +
        diff);
}

void PassState::remove(NodeRef r) {
  removed_.at(static_cast<size_t>(r.index)) = true;
  if (copies_.erase(r.index) > 0) ++copies_version_;
  aa_->remove(r);
}

void PassState::replace_uses_with_arg(NodeRef from, const Arg& to, int32_t after) {
  std::vector<NodeRef> rewired;
  for (NodeRef u : aa_->users(from)) {
    if (u.index <= after) continue;
    Node& n = g_.node(u);
    for (Arg& a : n.args) replace_refs_with_arg(a, from, to);
    for (auto& kv : n.kwargs) replace_refs_with_arg(kv.second, from, to);
    // An epilogue now copies `to`, or a getitem an epilogue copies projects it.
    if (copies_.contains(u.index) || n.kind == NodeKind::GetItem) ++copies_version_;
    rewired.push_back(u);
  }
  aa_->update(rewired);
}

NodeRef PassState::insert_before(NodeRef at, std::vector<Node> nodes) {
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

Graph PassState::compact() && {
  return without_nodes(std::move(g_), removed_);
}

void PassState::refresh_stream_labels() {
  if (has_scope_nodes(g_)) assign_stream_labels(g_);
}

void PassState::rebuild() {
  aa_ = std::make_unique<AliasAnalysis>(g_, reg_, &removed_);
  copies_.clear();
  ++copies_version_;
  const std::string* first_stream = nullptr;
  multi_stream_ = false;
  for (size_t i = 0; i < g_.size(); ++i) {
    if (removed_[i]) continue;
    const Node& n = g_.nodes()[i];
    if (is_copy_(n)) copies_.insert(static_cast<int32_t>(i));
    if (first_stream == nullptr)
      first_stream = &n.meta.stream;
    else if (n.meta.stream != *first_stream)
      multi_stream_ = true;
  }
}

// ---- refusals ------------------------------------------------------------------------

ReinplaceNodeRef node_ref(const Graph& g, NodeRef r) {
  const Node& n = g.node(r);
  return {n.name, n.meta.stream};
}

std::vector<ReinplaceNodeRef> node_refs(const Graph& g, const std::vector<NodeRef>& nodes) {
  std::vector<ReinplaceNodeRef> out;
  for (NodeRef r : nodes) out.push_back(node_ref(g, r));
  return out;
}

Refusal refuse(ReinplaceReason kind, std::string text, std::vector<ReinplaceNodeRef> related) {
  return {kind, std::move(text), std::move(related)};
}

// ---- candidates ----------------------------------------------------------------------

std::string_view arg_name(const PassState& st, const Candidate& c, int position) {
  const Node& n = st.graph().node(c.node);
  return st.reg().info(n.op).schema.args.at(static_cast<size_t>(position)).name;
}

std::optional<Candidate> classify(PassState& st, NodeRef r) {
  const Node& n = st.graph().node(r);
  if (n.kind != NodeKind::Call || n.op == kNoOp) return std::nullopt;
  const PassState::OpForm& f = st.op_form(n.op);
  if (f.inplace_op == kNoOp) return std::nullopt;
  if (f.entry) return Candidate{r, f.entry, f.inplace_op, f.entry->mutated_args};
  return Candidate{r, nullptr, f.inplace_op, {0}};
}

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

namespace {

void add_users_except_copies(const PassState& st, NodeRef of, NodeRef except,
                             std::vector<NodeRef>& out) {
  for (NodeRef u : st.aa().users(of))
    if (u != except && !is_copy_(st.graph().node(u))) out.push_back(u);
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

}  // namespace

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

Refusal judge_stream_users(const PassState& st, const std::vector<NodeRef>& users,
                           std::string_view kind, std::string_view node, std::string_view type,
                           const std::vector<std::string>& written, std::string& line) {
  std::set<std::string> streams;
  for (NodeRef u : users) streams.insert(st.graph().node(u).meta.stream);
  std::string head =
      fmt::format("[{}]Current node: {}, type: {} check no multi stream users", kind, node, type);
  if (users.size() < 2 || streams.size() < 2) {
    line = head +
           " success for reinplace. The users of the mutated input node did not have "
           "multiple streams.";
    return {};
  }
  std::vector<std::string> names;
  for (NodeRef u : users) names.push_back(st.graph().node(u).name);
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

Refusal check_streams(const PassState& st, const Candidate& c, ReinplaceDecision& d) {
  std::string_view kind =
      c.entry ? "multi_stream_multi_reinplace" : "multi_stream_single_reinplace";
  // On one stream the users cannot span two: the check passes whoever they are.
  const std::vector<NodeRef> users =
      st.multi_stream() ? stream_check_users(st, c) : std::vector<NodeRef>{};
  return judge_stream_users(st, users, kind, d.node, torchair_target(d.target), d.written,
                            d.stream_check);
}

// ---- per-argument checks ------------------------------------------------------------------

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

void retarget(PassState& st, NodeRef r, OpId op, std::optional<ValueType> type) {
  Node& n = st.graph().node(r);
  n.op = op;
  n.target = st.reg().info(op).schema.qualified_name();
  if (type) n.type = std::move(*type);
  st.changed(r);
}

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

}  // namespace eqfuse::reinplace_detail

namespace eqfuse {

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

}  // namespace eqfuse
