// Evaluation of auto_functionalized (v1 and v2) calls: the wrapped in-place
// op runs on fresh copies of its mutable arguments, passed as synthetic
// arguments, and the call returns the op's outputs followed by the new
// values (graph/auto_functionalized.hpp).
#include "graph/auto_functionalized.hpp"
#include "interp/interpreter_internal.hpp"

namespace eqfuse::interpreter_detail {

namespace {

// torch's clone_preserve_strides: the storage prefix the tensor spans is
// copied, then viewed with the tensor's own sizes, strides and offset.
Tensor clone_preserve_strides(const Tensor& x) {
  int64_t needed = x.numel() == 0 ? 0 : x.offset() + 1;
  for (size_t d = 0; d < x.shape().size() && x.numel() > 0; ++d)
    needed += (x.shape()[d] - 1) * x.strides()[d];
  Tensor buffer = x.as_strided({needed}, {1}, 0).clone();
  return buffer.as_strided(x.shape(), x.strides(), x.offset());
}

RuntimeValue clone_value(const RuntimeValue& v) {
  if (v.is_tensor()) return clone_preserve_strides(v.tensor());
  if (v.is_list()) {
    RuntimeValue::List out;
    for (const RuntimeValue& e : v.list()) out.push_back(clone_value(e));
    return out;
  }
  return v;
}

}  // namespace

// A synthetic argument for a wrapped op call: a node reference past the end
// of the graph, which resolve() maps into scratch_. Lists become lists of
// such references and None stays None, so the call hashes its arguments
// exactly as a direct call of the op does.
Arg Evaluation::scratch_arg(RuntimeValue v) {
  if (v.is_none()) return Arg::none();
  if (v.is_list()) {
    std::vector<Arg> items;
    for (const RuntimeValue& e : v.list()) items.push_back(scratch_arg(e));
    return Arg::list(std::move(items));
  }
  scratch_.push_back(std::move(v));
  return Arg(NodeRef{static_cast<int32_t>(env_.size() + scratch_.size() - 1)});
}

// The functional semantics (graph/auto_functionalized.hpp): the wrapped
// in-place op runs on copies of its mutable arguments (v1) or on views of
// copies of the bases (v2); the result is (op outputs..., new values).
RuntimeValue Evaluation::eval_auto_functionalized(const Node& n) {
  std::optional<AutoFunctionalized> af = decode_auto_functionalized(n, reg_);
  if (!af) {
    std::optional<std::string> op = auto_functionalized_wrapped_op(n);
    fail(n, fmt::format("the wrapped op '{}' is not registered, so the call cannot be evaluated "
                        "(register its schema: a catalog line or a reinplace config \"ops\" "
                        "entry)",
                        op.value_or("?")));
  }
  const OpInfo& info = reg_.info(af->op);
  Node call = n;
  call.op = af->op;
  call.target = info.schema.qualified_name();
  call.args = af->args;
  call.kwargs.clear();
  ValueType type = effective_type(n);
  if (type.kind == ValueType::Kind::Tuple && info.schema.returns.size() == 1)
    call.type = type.elements.at(0);
  else if (type.kind == ValueType::Kind::Tuple && info.schema.returns.size() > 1)
    call.type = ValueType::of_tuple(
        {type.elements.begin(), type.elements.begin() + static_cast<ptrdiff_t>(af->op_outputs)});

  RuntimeValue::List new_values;
  if (af->version == AutoFunctionalizedVersion::V1) {
    for (const MutableArg& m : af->mutables) {
      new_values.push_back(clone_value(resolve(m.value)));
      call.args[static_cast<size_t>(m.position)] = scratch_arg(new_values.back());
    }
  } else {
    for (const Arg& b : af->bases) new_values.push_back(clone_value(resolve(b)));
    for (const MutableArg& m : af->mutables) {
      RuntimeValue::List views;
      for (const std::optional<BaseView>& v : m.views) {
        if (!v) {
          views.emplace_back();
          continue;
        }
        const Tensor& base = new_values.at(static_cast<size_t>(v->base_index)).tensor();
        try {
          switch (v->kind) {
            case BaseView::Kind::Base:
            case BaseView::Kind::Alias:
              views.emplace_back(base);
              break;
            case BaseView::Kind::Slice:
              views.emplace_back(base.slice(resolve(v->dim).as_int(), resolve(v->start).as_int(),
                                            resolve(v->end).as_int(), 1));
              break;
            case BaseView::Kind::AsStrided: {
              auto ints = [&](const Arg& a) {
                RuntimeValue list = resolve(a);
                Dims out;
                for (const RuntimeValue& e : list.list()) out.push_back(e.as_int());
                return out;
              };
              views.emplace_back(base.as_strided(ints(v->size), ints(v->stride),
                                                 resolve(v->storage_offset).as_int()));
              views.back().tensor().check_in_bounds();
              break;
            }
          }
        } catch (const std::exception& e) {
          fail(n, fmt::format("cannot regenerate mutable argument '{}' from its base: {}", m.name,
                              e.what()));
        }
      }
      RuntimeValue arg = m.is_none   ? RuntimeValue()
                         : m.is_list ? RuntimeValue(std::move(views))
                                     : views.at(0);
      call.args[static_cast<size_t>(m.position)] = scratch_arg(std::move(arg));
    }
  }
  RuntimeValue out = eval_registered(call, info);
  scratch_.clear();
  RuntimeValue::List result;
  if (info.schema.returns.size() > 1 && out.is_list())
    result = out.list();
  else
    result.push_back(out);
  for (RuntimeValue& v : new_values) result.push_back(std::move(v));
  return result;
}

}  // namespace eqfuse::interpreter_detail
