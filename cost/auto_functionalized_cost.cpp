// The kernels an auto_functionalized / auto_functionalized_v2 call runs: the
// clones it makes, then the wrapped op with the argument types it sees (v2: the
// views of its bases it regenerates). Apart from graph_cost.cpp because decoding
// the wrapper and typing its regenerated views is a concern of its own.
#include <array>

#include "cost/cost_model.hpp"
#include "cost/cost_model_internal.hpp"
#include "graph/auto_functionalized.hpp"

namespace eqfuse {
namespace {

using cost_detail::type_of_arg;

// `(3,)` in the call's keywords is an int list argument `[3]` of the view op.
Arg as_int_list(const Arg& a) {
  return a.is_list() ? Arg::list(a.as_list().items) : a;
}

// The type of a v2 mutable argument: the view of its base that the call
// regenerates, typed by the view op's meta function. Without one (or when
// it cannot tell) the base's type stands in: a view never reads more.
ValueType regenerated_view_type(const Graph& g, const OpRegistry& reg, const BaseView& v,
                                const Arg& base) {
  ValueType base_type = type_of_arg(g, base);
  std::string_view view_op;
  std::vector<Arg> args;
  switch (v.kind) {
    case BaseView::Kind::Base:
    case BaseView::Kind::Alias:
      return base_type;
    case BaseView::Kind::Slice:
      view_op = "aten::slice.Tensor";
      args = {base, v.dim, v.start, v.end, Arg(int64_t{1})};
      break;
    case BaseView::Kind::AsStrided:
      view_op = "aten::as_strided";
      args = {base, as_int_list(v.size), as_int_list(v.stride), v.storage_offset};
      break;
  }
  std::optional<OpId> id = reg.find(view_op);
  if (!id || !reg.info(*id).meta) return base_type;
  const OpInfo& info = reg.info(*id);
  CallContext ctx(info.schema, args,
                  [&g](NodeRef r) -> const ValueType& { return g.node(r).type; });
  try {
    ValueType t = info.meta(ctx);
    return t.is_tensor() ? t : base_type;
  } catch (const Error&) {
    return base_type;
  }
}

// The wrapped op's argument types, in schema order.
std::vector<ValueType> wrapped_arg_types(const Graph& g, const OpRegistry& reg,
                                         const AutoFunctionalized& af) {
  std::vector<ValueType> types;
  for (const Arg& a : af.args) types.push_back(type_of_arg(g, a));
  if (af.version == AutoFunctionalizedVersion::V1) return types;
  for (const MutableArg& m : af.mutables) {
    std::vector<ValueType> views;
    for (const std::optional<BaseView>& v : m.views)
      views.push_back(
          v ? regenerated_view_type(g, reg, *v, af.bases.at(static_cast<size_t>(v->base_index)))
            : ValueType::none());
    types[static_cast<size_t>(m.position)] = m.is_none   ? ValueType::none()
                                             : m.is_list ? ValueType::of_tuple(std::move(views))
                                                         : views.at(0);
  }
  return types;
}

// The wrapped op's result: the first op_outputs elements of the call's
// tuple type (None for an op that returns nothing).
ValueType wrapped_result_type(const ValueType& call_type, const AutoFunctionalized& af,
                              const OpInfo& info) {
  size_t returns = info.schema.returns.size();
  if (returns == 0) return ValueType::none();
  if (call_type.kind != ValueType::Kind::Tuple || call_type.elements.size() < af.op_outputs)
    return ValueType::unknown();
  if (returns == 1) return call_type.elements[0];
  return ValueType::of_tuple(std::vector<ValueType>(
      call_type.elements.begin(), call_type.elements.begin() + static_cast<long>(af.op_outputs)));
}

// The tensors the call clones: v1 every mutable argument tensor (a list
// argument clones each element), v2 every base.
std::vector<NodeRef> cloned_tensors(const AutoFunctionalized& af) {
  std::vector<NodeRef> out;
  auto add = [&out](const Arg& a) {
    if (a.is_node()) out.push_back(a.node());
    if (a.is_list())
      for (const Arg& e : a.as_list().items)
        if (e.is_node()) out.push_back(e.node());
  };
  if (af.version == AutoFunctionalizedVersion::V1) {
    for (const MutableArg& m : af.mutables) add(m.value);
  } else {
    for (const Arg& b : af.bases) add(b);
  }
  return out;
}

// A clone of a tensor of type `t`, priced as the model prices aten::clone
// (an opaque copy when the registry lacks it).
CostBreakdown clone_cost(const ValueType& t, const OpRegistry& reg, const CostModel& model) {
  std::optional<OpId> clone = reg.find("aten::clone");
  std::array<ValueType, 2> args{t, ValueType::none()};  // self, memory_format
  CostQuery q;
  q.op = "aten::clone";
  q.info = clone ? &reg.info(*clone) : nullptr;
  q.args = std::span<const ValueType>(args.data(), clone ? 2 : 1);
  q.result = t;
  return model.cost(q);
}

}  // namespace

std::vector<CostBreakdown> auto_functionalized_kernels(const Graph& g, NodeRef n,
                                                       const OpRegistry& reg,
                                                       const CostModel& model) {
  const Node& node = g.node(n);
  if (node.kind != NodeKind::Call || node.op != kNoOp) return {};
  std::optional<AutoFunctionalized> af = decode_auto_functionalized(node, reg);
  if (!af) return {};
  const OpInfo& info = reg.info(af->op);
  std::string op_name = info.schema.qualified_name();
  std::vector<ValueType> args = wrapped_arg_types(g, reg, *af);
  CostQuery q;
  q.op = op_name;
  q.info = &info;
  q.args = args;
  q.result = wrapped_result_type(node.type, *af, info);
  std::vector<CostBreakdown> kernels;
  for (NodeRef t : cloned_tensors(*af)) kernels.push_back(clone_cost(g.node(t).type, reg, model));
  kernels.push_back(model.cost(q));  // the op writes the clones: it runs last
  return kernels;
}

}  // namespace eqfuse
