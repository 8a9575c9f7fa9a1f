// The two reinplace passes proper, the rewriting half of what
// reinplace_analysis.cpp decides: pass A (reinplace_inplaceable_ops) writes
// dead intermediates in place, pass B (reinplace_input_mutated_ops) writes
// graph inputs in place and drops their copy_ epilogues; both rewrite
// multi-mutation table ops with explicit output projections. Pass B hands
// auto_functionalized calls to reinplace_auto_functionalized.cpp.
#include <optional>
#include <variant>

#include <fmt/format.h>

#include "graph/auto_functionalized.hpp"
#include "passes/reinplace_internal.hpp"

namespace eqfuse::reinplace_detail {
namespace {

// ---- rewriting table ops --------------------------------------------------------------------

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

}  // namespace

bool run_pass_a(PassState& st) {
  for (size_t i = 0; i < st.graph().size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    if (st.removed(r)) continue;
    if (st.out_of_time(i)) return false;
    if (std::optional<Candidate> c = classify(st, r)) reinplace_intermediate(st, *c);
  }
  return true;
}

// ---- Pass B --------------------------------------------------------------------------------

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

namespace {

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

}  // namespace

bool run_pass_b(PassState& st) {
  // Copies of ops without an in-place form are never removed, so the
  // epilogues found up front are the ones to report for them. Decomposing an
  // auto_functionalized call inserts nodes, so they are found again after it
  // (the indices moved).
  Epilogues initial = find_epilogues(st);
  // The current epilogues, found again only when a copy_ changed: finding
  // them per candidate cost the number of copies for every node.
  Epilogues e = initial;
  uint64_t e_version = st.copies_version();
  for (size_t i = 0; i < st.graph().size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    if (st.removed(r)) continue;
    if (st.out_of_time(i)) return false;
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
    if (e_version != st.copies_version()) {  // earlier rewrites removed some
      e = find_epilogues(st);
      e_version = st.copies_version();
    }
    if (c->entry) {
      reinplace_table_inputs(st, *c, e);
    } else if (e.sources.contains(r.index)) {
      reinplace_generic_input(st, *c, e);
    }
  }
  return true;
}

}  // namespace eqfuse::reinplace_detail
