// Pass B on auto_functionalized / auto_functionalized_v2 calls: which
// mutable arguments (v1) or bases (v2) the wrapped op may write in place and
// which it must clone, then inductor's decompose_auto_functionalized in graph
// form. A separate file because the decomposition (clones that preserve
// strides, regenerated v2 views, node insertion) is its own machinery, apart
// from the retargeting of ordinary candidates in reinplace_passes.cpp.
#include <algorithm>
#include <cctype>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "graph/auto_functionalized.hpp"
#include "passes/reinplace_internal.hpp"

namespace eqfuse::reinplace_detail {

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

namespace {

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
      s.log.bytes = add_or_throw(s.log.bytes, static_bytes(g.node(t).type),
                                 [&] { return fmt::format("bytes of '{}'", s.log.name); });
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
  if (st.multi_stream()) {  // on one stream the check passes whoever the users are
    for (NodeRef t : slot.tensors) add_stream_users_of(st, t, users);
    sort_unique(users);
  }
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

Arg int_list(const std::vector<int64_t>& values) {
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
    // Checked: beside a zero-sized dim, or with annotated strides, the
    // products and the extent may leave int64; such a layout is not static.
    std::optional<int64_t> stride = 1;
    l.strides.assign(l.sizes.size(), 1);
    for (size_t i = l.sizes.size(); i-- > 0;) {
      if (!stride) return std::nullopt;
      l.strides[i] = *stride;
      stride = checked_mul(*stride, std::max<int64_t>(l.sizes[i], 1));
    }
  }
  if (l.strides.size() != l.sizes.size()) return std::nullopt;
  bool empty = std::find(l.sizes.begin(), l.sizes.end(), 0) != l.sizes.end();
  std::optional<int64_t> length = empty ? 0 : 1;
  for (size_t i = 0; i < l.sizes.size() && !empty && length; ++i) {
    std::optional<int64_t> extent = checked_mul(l.sizes[i] - 1, l.strides[i]);
    length = extent ? checked_add(*length, *extent) : std::nullopt;
  }
  if (!length) return std::nullopt;
  l.storage_length = *length;
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

}  // namespace

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
    d.copy_bytes = d.copy_bytes + SymInt(slot.log.bytes) * 2;  // checked: bytes may exceed 2^62
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

}  // namespace eqfuse::reinplace_detail
