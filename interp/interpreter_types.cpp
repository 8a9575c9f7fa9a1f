// Node types during an evaluation: the type an untyped (or partly typed)
// multi-output node gets from its getitem users, which uninterpreted outputs
// need, and the cross-check of each computed value against its node's type
// (InterpreterOptions::check_types).
#include <algorithm>

#include "interp/interpreter_internal.hpp"

namespace eqfuse::interpreter_detail {

// The node's type; for an untyped multi-output node, a tuple assembled from
// the annotations of its getitem users (elements nobody reads stay Unknown
// and evaluate to None). A tuple type with Unknown elements (an
// auto_functionalized call wrapping an op without a meta function) has those
// elements filled in the same way.
ValueType Evaluation::effective_type(const Node& n) {
  bool partial = n.type.kind == ValueType::Kind::Tuple &&
                 std::any_of(n.type.elements.begin(), n.type.elements.end(),
                             [](const ValueType& e) { return !e.is_known(); });
  if (n.type.is_known() && !partial) return n.type;
  // A synthetic call (the op wrapped by auto_functionalized) has no users.
  if (&n < g_.nodes().data() || &n >= g_.nodes().data() + g_.size()) return n.type;
  if (!users_) users_ = g_.users();
  std::vector<ValueType> elements = partial ? n.type.elements : std::vector<ValueType>{};
  bool any = false;
  int32_t self = static_cast<int32_t>(&n - g_.nodes().data());
  for (NodeRef u : (*users_)[static_cast<size_t>(self)]) {
    const Node& user = g_.node(u);
    if (user.kind != NodeKind::GetItem || user.getitem_source().index != self) continue;
    int64_t idx = user.getitem_index();
    if (idx < 0 || idx > 4096) continue;
    if (elements.size() <= static_cast<size_t>(idx)) elements.resize(static_cast<size_t>(idx) + 1);
    if (elements[static_cast<size_t>(idx)].is_known()) continue;
    elements[static_cast<size_t>(idx)] = user.type;
    any = any || user.type.is_known();
  }
  if (!any) return n.type;
  if (n.op != kNoOp) {
    size_t returns = reg_.info(n.op).schema.returns.size();
    if (elements.size() < returns) elements.resize(returns);
  }
  return ValueType::of_tuple(std::move(elements));
}

void Evaluation::check_type(const Node& n, const ValueType& t, const RuntimeValue& v,
                            const std::string& where) const {
  switch (t.kind) {
    case ValueType::Kind::Tensor: {
      if (!v.is_tensor()) {
        fail(n, fmt::format("{} is {} but the node's type is {}", where, describe(v), describe(t)));
      }
      const Tensor& x = v.tensor();
      bool ok = t.tensor.dtype == DType::Unknown || t.tensor.dtype == x.dtype();
      if (ok && t.tensor.shape) {
        ok = static_cast<size_t>(t.tensor.rank()) == x.shape().size();
        for (size_t i = 0; ok && i < x.shape().size(); ++i) {
          std::optional<int64_t> d = (*t.tensor.shape)[i].evaluate(bindings_);
          ok = !d || *d == x.shape()[i];
        }
      }
      if (!ok) {
        fail(n, fmt::format("the interpreter computed {} {} but the node's type is {}", where,
                            x.describe(), describe(t)));
      }
      return;
    }
    case ValueType::Kind::Tuple: {
      if (!v.is_list() || v.list().size() != t.elements.size()) {
        fail(n, fmt::format("{} is {} but the node's type is {}", where, describe(v), describe(t)));
      }
      for (size_t i = 0; i < t.elements.size(); ++i) {
        check_type(n, t.elements[i], v.list()[i], fmt::format("{}[{}]", where, i));
      }
      return;
    }
    case ValueType::Kind::SymInt: {
      if (!t.sym || !v.is_int()) return;
      std::optional<int64_t> d = t.sym->evaluate(bindings_);
      if (d && *d != v.as_int()) {
        fail(n,
             fmt::format("{} is {} but the node's type says {}", where, v.as_int(), describe(t)));
      }
      return;
    }
    default:
      return;
  }
}

}  // namespace eqfuse::interpreter_detail
