#include "graph/alias_analysis.hpp"

#include "graph/auto_functionalized.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <set>
#include <string_view>

#include <fmt/format.h>

namespace eqfuse {
namespace {

void sort_unique(StorageSet& s) {
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
}

void append(StorageSet& into, const StorageSet& more) {
  into.insert(into.end(), more.begin(), more.end());
  sort_unique(into);
}

// The node's inputs, sorted and without repeats.
std::vector<NodeRef> sorted_inputs(const Node& n) {
  std::vector<NodeRef> inputs = node_inputs(n);
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  return inputs;
}

// Inserts `r` into the sorted list unless it is there.
void insert_sorted(std::vector<NodeRef>& list, NodeRef r) {
  auto at = std::lower_bound(list.begin(), list.end(), r);
  if (at == list.end() || *at != r) list.insert(at, r);
}

void erase_sorted(std::vector<NodeRef>& list, NodeRef r) {
  auto at = std::lower_bound(list.begin(), list.end(), r);
  if (at != list.end() && *at == r) list.erase(at);
}

// Elements of sorted `a` that are not in sorted `b`.
template <typename T>
std::vector<T> minus(const std::vector<T>& a, const std::vector<T>& b) {
  std::vector<T> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

bool intersects(const StorageSet& a, const StorageSet& b) {
  for (StorageId s : a)
    if (std::binary_search(b.begin(), b.end(), s)) return true;
  return false;
}

// A value of this type occupies device memory (unknown types are assumed to).
bool holds_tensor(const ValueType& t) {
  return t.kind == ValueType::Kind::Tensor || t.kind == ValueType::Kind::Tuple ||
         t.kind == ValueType::Kind::Unknown;
}

bool returns_tensor(const SchemaReturn& r) {
  return r.type == ArgType::Tensor || r.type == ArgType::TensorList || r.type == ArgType::Any;
}

// The alias set letter of an annotation: "a" for `a`, `a!` and `a -> *`.
char alias_letter(const std::string& alias) {
  return alias.empty() ? '\0' : alias[0];
}

// Annotated strides with a zero stride on a dim longer than one.
bool has_zero_stride(const TensorType& t) {
  if (!t.strides || !t.shape || t.strides->size() != t.shape->size()) return false;
  for (size_t i = 0; i < t.strides->size(); ++i) {
    std::optional<int64_t> stride = (*t.strides)[i].constant();
    std::optional<int64_t> size = (*t.shape)[i].constant();
    if (stride && *stride == 0 && (!size || *size != 1)) return true;
  }
  return false;
}

constexpr std::array<std::string_view, 4> kMetadataOps = {
    "aten::sym_size", "aten::sym_numel", "aten::sym_stride", "aten::sym_storage_offset"};

}  // namespace

std::string_view op_base_name(std::string_view qualified) {
  size_t ns = qualified.find("::");
  size_t dot = qualified.find('.', ns == std::string_view::npos ? 0 : ns + 2);
  return dot == std::string_view::npos ? qualified : qualified.substr(0, dot);
}

AliasAnalysis::AliasAnalysis(const Graph& g, const OpRegistry& reg,
                             const std::vector<bool>* removed)
    : g_(g),
      reg_(reg),
      removed_(removed ? *removed : std::vector<bool>(g.size(), false)),
      elements_(g.size()),
      shared_elements_(g.size(), false),
      alias_node_(g.size(), false),
      overlap_(g.size(), false),
      users_(g.size()),
      inputs_(g.size()),
      metadata_only_memo_(g.size(), -1) {
  removed_.resize(g.size(), false);
  for (size_t i = 0; i < g.size(); ++i) {
    if (removed_[i]) continue;
    NodeRef r{static_cast<int32_t>(i)};
    analyze_node(r);
    inputs_[i] = sorted_inputs(g.node(r));
    for (NodeRef in : inputs_[i]) {
      users_.at(static_cast<size_t>(in.index)).push_back(r);
      note_use(in, r);
    }
    for (StorageId s : storages_of(r)) nodes_in_[static_cast<size_t>(s)].push_back(r);
  }
}

StorageId AliasAnalysis::fresh(NodeRef owner, bool input) {
  if (!reuse_.empty()) {
    StorageId s = reuse_.front();
    reuse_.erase(reuse_.begin());
    input_storage_[static_cast<size_t>(s)] = input;
    return s;
  }
  input_storage_.push_back(input);
  owner_.push_back(owner.index);
  last_use_.push_back(-1);
  nodes_in_.emplace_back();
  return static_cast<StorageId>(input_storage_.size() - 1);
}

StorageSet AliasAnalysis::storages_of_arg(const Arg& a) const {
  std::vector<NodeRef> refs;
  collect_node_refs(a, refs);
  StorageSet out;
  for (NodeRef r : refs) append(out, storages_of(r));
  return out;
}

void AliasAnalysis::analyze_node(NodeRef r) {
  const Node& n = g_.node(r);
  auto& elements = elements_[static_cast<size_t>(r.index)];
  switch (n.kind) {
    case NodeKind::Placeholder:
    case NodeKind::GetAttr:
      if (holds_tensor(n.type)) elements.push_back({fresh(r, true)});
      break;
    case NodeKind::GetItem: {
      alias_node_[size_t(r.index)] = true;
      elements.push_back(element_storages(n.getitem_source(), n.getitem_index()));
      break;
    }
    case NodeKind::Call:
      if (n.op == kNoOp) {
        analyze_opaque_call(r, n);
      } else {
        analyze_call(r, n);
      }
      break;
    case NodeKind::Output:
      break;
  }
  overlap_[size_t(r.index)] = compute_overlap(n);
}

void AliasAnalysis::analyze_call(NodeRef r, const Node& n) {
  const OpInfo& info = reg_.info(n.op);
  const OpSchema& schema = info.schema;
  auto& elements = elements_[static_cast<size_t>(r.index)];
  bool every_return_aliases = !schema.returns.empty();
  bool mutates = schema.mutates_any();
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    const SchemaReturn& ret = schema.returns[i];
    if (!returns_tensor(ret)) {
      elements.emplace_back();
      every_return_aliases = false;
      continue;
    }
    StorageSet where;
    char letter = alias_letter(ret.alias);
    for (size_t k = 0; letter && k < schema.args.size() && k < n.args.size(); ++k) {
      if (alias_letter(schema.args[k].alias) == letter) append(where, storages_of_arg(n.args[k]));
    }
    if (where.empty() && info.traits.is_view && i == 0 && !n.args.empty())
      where = storages_of_arg(n.args[0]);
    if (where.empty()) {
      where.push_back(fresh(r, false));
      every_return_aliases = false;
    }
    elements.push_back(std::move(where));
    if (ret.type == ArgType::TensorList) shared_elements_[size_t(r.index)] = true;
  }
  // A pure view creates no data; an in-place op (`a!`) writes, so it is a use.
  alias_node_[size_t(r.index)] = (info.traits.is_view || every_return_aliases) && !mutates;
}

void AliasAnalysis::analyze_opaque_call(NodeRef r, const Node& n) {
  if (auto_functionalized_version(n)) return analyze_auto_functionalized(r, n);
  if (!holds_tensor(n.type)) return;
  StorageSet where{fresh(r, false)};
  for (NodeRef in : node_inputs(n)) append(where, storages_of(in));
  elements_[static_cast<size_t>(r.index)].push_back(std::move(where));
  shared_elements_[size_t(r.index)] = true;
}

// auto_functionalized is functional: every output is a new tensor (the op's
// outputs, the copies it mutated), whatever op it wraps.
void AliasAnalysis::analyze_auto_functionalized(NodeRef r, const Node& n) {
  auto& elements = elements_[static_cast<size_t>(r.index)];
  if (n.type.kind != ValueType::Kind::Tuple) {
    elements.push_back({fresh(r, false)});
    shared_elements_[size_t(r.index)] = true;
    return;
  }
  for (const ValueType& t : n.type.elements) {
    if (t.kind == ValueType::Kind::None)
      elements.emplace_back();
    else
      elements.push_back({fresh(r, false)});
  }
}

bool AliasAnalysis::compute_overlap(const Node& n) const {
  if (n.type.is_tensor() && has_zero_stride(n.type.tensor)) return true;
  if (n.kind == NodeKind::GetItem) return overlap_.at(size_t(n.getitem_source().index));
  if (n.kind != NodeKind::Call || n.op == kNoOp) return false;
  const OpInfo& info = reg_.info(n.op);
  // qualified_name() returns a new string: keep it alive for the view.
  const std::string qualified = info.schema.qualified_name();
  std::string_view base = op_base_name(qualified);
  if (base == "aten::expand" || base == "aten::expand_as") return true;
  // A view or an in-place op keeps the layout of its (first) argument.
  bool keeps_layout = info.traits.is_view || info.schema.mutates_any() ||
                      (!info.schema.returns.empty() && !info.schema.returns[0].alias.empty());
  if (!keeps_layout || n.args.empty() || !n.args[0].is_node()) return false;
  return overlap_.at(size_t(n.args[0].node().index));
}

const StorageSet& AliasAnalysis::element_storages(NodeRef n, int64_t index) const {
  static const StorageSet kNone;
  const auto& elements = elements_.at(static_cast<size_t>(n.index));
  if (elements.empty()) return kNone;
  if (shared_elements_[size_t(n.index)] || elements.size() == 1) return elements[0];
  if (index < 0) index += static_cast<int64_t>(elements.size());
  if (index < 0 || static_cast<size_t>(index) >= elements.size()) return kNone;
  return elements[static_cast<size_t>(index)];
}

StorageSet AliasAnalysis::storages_of(NodeRef n) const {
  StorageSet out;
  for (const StorageSet& e : elements_.at(static_cast<size_t>(n.index))) append(out, e);
  return out;
}

bool AliasAnalysis::touches_input(NodeRef n) const {
  for (StorageId s : storages_of(n))
    if (is_input_storage(s)) return true;
  return false;
}

bool AliasAnalysis::may_alias(NodeRef a, NodeRef b) const {
  return intersects(storages_of(a), storages_of(b));
}

bool AliasAnalysis::is_metadata_only_use(NodeRef user) const {
  int8_t& memo = metadata_only_memo_.at(static_cast<size_t>(user.index));
  if (memo >= 0) return memo == 1;
  const Node& n = g_.node(user);
  bool result = false;
  if (n.kind == NodeKind::Call) {
    std::string_view base = op_base_name(n.target);
    result = std::find(kMetadataOps.begin(), kMetadataOps.end(), base) != kMetadataOps.end();
    if (!result && is_alias_node(user)) {
      const std::vector<NodeRef>& us = users(user);
      result = !us.empty() && std::all_of(us.begin(), us.end(),
                                          [&](NodeRef u) { return is_metadata_only_use(u); });
    }
  }
  memo = result ? 1 : 0;
  return result;
}

void AliasAnalysis::raise_last_use(StorageId s, NodeRef user) {
  int32_t& last = last_use_[static_cast<size_t>(s)];
  last = std::max(last, user.index);
}

void AliasAnalysis::note_use(NodeRef used, NodeRef user) {
  for (const StorageSet& e : elements_[static_cast<size_t>(used.index)])
    for (StorageId s : e) raise_last_use(s, user);
}

std::vector<NodeRef> AliasAnalysis::uses_in_window(const StorageSet& s, const Window& w) const {
  std::vector<NodeRef> out;
  for (StorageId id : s) {
    if (last_use_.at(static_cast<size_t>(id)) <= w.after) continue;  // nothing read in the window
    for (NodeRef alias : nodes_in(id)) {
      // Users come after what they use: nothing from here on is read before `before`.
      if (alias.index >= w.before - 1) break;
      for (NodeRef u : users(alias)) {
        if (u.index <= w.after || u.index >= w.before) continue;
        // A view of the same storage is itself in nodes_in(): its users are visited.
        if (w.skip_alias_users && is_alias_node(u) && intersects(storages_of(u), s)) continue;
        if (w.skip_metadata_users && is_metadata_only_use(u)) continue;
        out.push_back(u);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// ---- incremental maintenance ------------------------------------------------------------

void AliasAnalysis::update(const std::vector<NodeRef>& changed) {
  // Program order is a topological order: re-analyzing in index order sees
  // every input already current.
  std::set<int32_t> pending;
  for (NodeRef r : changed) {
    pending.insert(r.index);
    std::vector<NodeRef> inputs;
    if (!removed_.at(static_cast<size_t>(r.index))) inputs = sorted_inputs(g_.node(r));
    set_inputs(r, std::move(inputs));
  }
  while (!pending.empty()) {
    NodeRef r{*pending.begin()};
    pending.erase(pending.begin());
    if (!reanalyze(r)) continue;
    for (NodeRef u : users_[static_cast<size_t>(r.index)]) pending.insert(u.index);
  }
}

void AliasAnalysis::remove(NodeRef r) {
  removed_.at(static_cast<size_t>(r.index)) = true;
  update({r});
}

// Moves `r` between use lists: it now reads exactly `inputs`.
void AliasAnalysis::set_inputs(NodeRef r, std::vector<NodeRef> inputs) {
  std::vector<NodeRef>& old = inputs_[static_cast<size_t>(r.index)];
  forget_metadata_memo(r);
  for (NodeRef in : minus(old, inputs)) {
    erase_sorted(users_[static_cast<size_t>(in.index)], r);
    forget_metadata_memo(in);
  }
  for (NodeRef in : minus(inputs, old)) {
    insert_sorted(users_[static_cast<size_t>(in.index)], r);
    note_use(in, r);
    forget_metadata_memo(in);
  }
  old = std::move(inputs);
}

// Analyzes `r` again from its (current) inputs; true when its storages or
// overlap changed, so its users must be re-analyzed too.
bool AliasAnalysis::reanalyze(NodeRef r) {
  const size_t i = static_cast<size_t>(r.index);
  std::vector<StorageSet> old = std::move(elements_[i]);
  const bool old_shared = shared_elements_[i];
  const bool old_alias = alias_node_[i];
  const bool old_overlap = overlap_[i];
  StorageSet before;
  for (const StorageSet& e : old) append(before, e);
  for (StorageId s : before)
    if (owner_[static_cast<size_t>(s)] == r.index) reuse_.push_back(s);
  elements_[i].clear();
  shared_elements_[i] = alias_node_[i] = overlap_[i] = false;
  if (!removed_[i]) analyze_node(r);
  reuse_.clear();
  StorageSet after = storages_of(r);
  for (StorageId s : minus(before, after)) erase_sorted(nodes_in_[static_cast<size_t>(s)], r);
  const std::vector<NodeRef>& users = users_[i];
  for (StorageId s : minus(after, before)) {
    insert_sorted(nodes_in_[static_cast<size_t>(s)], r);
    if (!users.empty()) raise_last_use(s, users.back());
  }
  if (alias_node_[i] != old_alias) forget_metadata_memo(r);
  return elements_[i] != old || shared_elements_[i] != old_shared || overlap_[i] != old_overlap;
}

// Only an alias node's answer depends on its users, so forgetting walks up
// through alias inputs. It stops at a node with no answer: no answer above it
// was computed from it.
void AliasAnalysis::forget_metadata_memo(NodeRef r) {
  int8_t& memo = metadata_only_memo_[static_cast<size_t>(r.index)];
  if (memo < 0) return;
  memo = -1;
  for (NodeRef in : inputs_[static_cast<size_t>(r.index)])
    if (alias_node_[static_cast<size_t>(in.index)]) forget_metadata_memo(in);
}

// Per storage, the (node, element) pairs it occurs in: storage ids depend on
// the order storages were made in, occurrences do not.
std::vector<AliasAnalysis::Occurrences> AliasAnalysis::occurrences() const {
  std::vector<Occurrences> where(input_storage_.size());
  for (size_t n = 0; n < elements_.size(); ++n)
    for (size_t e = 0; e < elements_[n].size(); ++e)
      for (StorageId s : elements_[n][e])
        where[static_cast<size_t>(s)].emplace_back(int32_t(n), int32_t(e));
  return where;
}

// The storages of one element, each known by its occurrences and input flag.
std::vector<std::pair<AliasAnalysis::Occurrences, bool>> AliasAnalysis::renamed(
    const StorageSet& element, const std::vector<Occurrences>& where) const {
  std::vector<std::pair<Occurrences, bool>> out;
  for (StorageId s : element)
    out.emplace_back(where[static_cast<size_t>(s)], input_storage_[static_cast<size_t>(s)]);
  std::sort(out.begin(), out.end());
  return out;
}

std::string AliasAnalysis::difference(const AliasAnalysis& other) const {
  if (g_.size() != other.g_.size() || elements_.size() != other.elements_.size())
    return "the analyses cover different numbers of nodes";
  const std::vector<Occurrences> mine = occurrences();
  const std::vector<Occurrences> theirs = other.occurrences();
  for (size_t i = 0; i < g_.size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    const std::string& name = g_.node(r).name;
    auto differs = [&](std::string_view what) {
      return fmt::format("'{}' (node {}): {} differ", name, i, what);
    };
    if (removed_[i] != other.removed_[i]) return differs("removed flags");
    if (elements_[i].size() != other.elements_[i].size()) return differs("element counts");
    for (size_t e = 0; e < elements_[i].size(); ++e)
      if (renamed(elements_[i][e], mine) != other.renamed(other.elements_[i][e], theirs))
        return differs("storages");
    if (shared_elements_[i] != other.shared_elements_[i]) return differs("shared-element flags");
    if (alias_node_[i] != other.alias_node_[i]) return differs("alias-node flags");
    if (overlap_[i] != other.overlap_[i]) return differs("overlap flags");
    if (users_[i] != other.users_[i]) return differs("users");
    if (!removed_[i] && is_metadata_only_use(r) != other.is_metadata_only_use(r))
      return differs("metadata-only answers");
    for (StorageId s : storages_of(r)) {
      const std::vector<NodeRef>& in = nodes_in(s);
      if (!std::binary_search(in.begin(), in.end(), r) || !std::is_sorted(in.begin(), in.end()))
        return differs("nodes_in lists");
    }
  }
  for (size_t s = 0; s < nodes_in_.size(); ++s) {
    for (NodeRef r : nodes_in_[s]) {
      if (!intersects(storages_of(r), {static_cast<StorageId>(s)}))
        return fmt::format("storage {} lists '{}', which does not live in it", s, g_.node(r).name);
      const std::vector<NodeRef>& us = users(r);
      if (!us.empty() && us.back().index > last_use_[s])
        return fmt::format("storage {}: its last-use bound {} is before the use of '{}' by '{}'", s,
                           last_use_[s], g_.node(r).name, g_.node(us.back()).name);
    }
  }
  return "";
}

std::vector<NodeRef> written_arguments(const Node& n, const OpRegistry& reg) {
  std::vector<NodeRef> out;
  if (n.kind != NodeKind::Call) return out;
  if (n.op != kNoOp) {
    for (int i : reg.info(n.op).traits.mutated_args)
      if (static_cast<size_t>(i) < n.args.size())
        collect_node_refs(n.args[static_cast<size_t>(i)], out);
    return out;
  }
  std::string_view name = op_base_name(n.target);
  if (!name.ends_with('_') || name.ends_with("__")) return out;
  for (const Arg& a : n.args) {
    if (!a.is_node()) continue;
    out.push_back(a.node());
    break;
  }
  return out;
}

bool is_scalar_builtin_call(const Graph& g, const Node& n) {
  const std::string_view t = n.target;
  const bool builtin = t.starts_with("operator.") || t.starts_with("_operator.") ||
                       t.starts_with("math.") || t == "torch.sym_float" || t == "torch.sym_int";
  if (!builtin || !n.kwargs.empty()) return false;
  for (const Arg& a : n.args) {
    if (a.is_node()) {
      if (!is_scalar_kind(g.node(a.node()).type.kind)) return false;
      continue;
    }
    if (!std::holds_alternative<int64_t>(a.value) && !std::holds_alternative<double>(a.value) &&
        !std::holds_alternative<bool>(a.value))
      return false;
  }
  return true;
}

}  // namespace eqfuse
