#include "graph/alias_analysis.hpp"

#include "graph/auto_functionalized.hpp"

#include <algorithm>
#include <array>
#include <string_view>

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
      metadata_only_memo_(g.size(), -1) {
  removed_.resize(g.size(), false);
  for (size_t i = 0; i < g.size(); ++i) {
    if (removed_[i]) continue;
    NodeRef r{static_cast<int32_t>(i)};
    analyze_node(r);
    for (NodeRef in : node_inputs(g.node(r))) {
      std::vector<NodeRef>& u = users_.at(static_cast<size_t>(in.index));
      if (u.empty() || u.back() != r) u.push_back(r);
    }
  }
  nodes_in_.resize(input_storage_.size());
  for (size_t i = 0; i < g.size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    for (StorageId s : storages_of(r)) nodes_in_[static_cast<size_t>(s)].push_back(r);
  }
}

StorageId AliasAnalysis::fresh(bool input) {
  input_storage_.push_back(input);
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
      if (holds_tensor(n.type)) elements.push_back({fresh(true)});
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
      where.push_back(fresh(false));
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
  StorageSet where{fresh(false)};
  for (NodeRef in : node_inputs(n)) append(where, storages_of(in));
  elements_[static_cast<size_t>(r.index)].push_back(std::move(where));
  shared_elements_[size_t(r.index)] = true;
}

// auto_functionalized is functional: every output is a new tensor (the op's
// outputs, the copies it mutated), whatever op it wraps.
void AliasAnalysis::analyze_auto_functionalized(NodeRef r, const Node& n) {
  auto& elements = elements_[static_cast<size_t>(r.index)];
  if (n.type.kind != ValueType::Kind::Tuple) {
    elements.push_back({fresh(false)});
    shared_elements_[size_t(r.index)] = true;
    return;
  }
  for (const ValueType& t : n.type.elements) {
    if (t.kind == ValueType::Kind::None)
      elements.emplace_back();
    else
      elements.push_back({fresh(false)});
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

std::vector<NodeRef> AliasAnalysis::uses_in_window(const StorageSet& s, const Window& w) const {
  std::vector<NodeRef> out;
  for (StorageId id : s) {
    for (NodeRef alias : nodes_in(id)) {
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

}  // namespace eqfuse
