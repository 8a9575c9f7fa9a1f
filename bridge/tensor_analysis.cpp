#include "bridge/tensor_analysis.hpp"

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/from_graph.hpp"

namespace eqfuse {
namespace {

[[noreturn]] void conflict(const std::string& what) {
  throw AnalysisConflict(what);
}

bool provably_different(const SymInt& a, const SymInt& b) {
  auto d = (a - b).constant();
  return d.has_value() && *d != 0;
}

bool is_int_like(ValueType::Kind k) {
  return k == ValueType::Kind::Int || k == ValueType::Kind::SymInt;
}

bool join_shape(std::optional<Shape>& into, const std::optional<Shape>& from) {
  if (!from) return false;
  if (!into) {
    into = from;
    return true;
  }
  if (into->size() != from->size()) {
    conflict(fmt::format("rank {} vs rank {}", into->size(), from->size()));
  }
  for (size_t i = 0; i < into->size(); ++i) {
    if (provably_different((*into)[i], (*from)[i])) {
      conflict(
          fmt::format("dim {} is {} vs {}", i, (*into)[i].to_string(), (*from)[i].to_string()));
    }
  }
  return false;
}

bool join_type(ValueType& into, const ValueType& from) {
  if (!from.is_known()) return false;
  if (!into.is_known()) {
    into = from;
    return true;
  }
  if (into.kind != from.kind) {
    if (is_int_like(into.kind) && is_int_like(from.kind)) return false;  // values compared below
    conflict(fmt::format("{} vs {}", describe(into), describe(from)));
  }
  switch (into.kind) {
    case ValueType::Kind::Tensor: {
      bool changed = false;
      DType& d = into.tensor.dtype;
      DType e = from.tensor.dtype;
      if (d != DType::Unknown && e != DType::Unknown && d != e) {
        conflict(fmt::format("dtype {} vs {}", dtype_torch_name(d), dtype_torch_name(e)));
      }
      if (d == DType::Unknown && e != DType::Unknown) {
        d = e;
        changed = true;
      }
      try {
        changed |= join_shape(into.tensor.shape, from.tensor.shape);
      } catch (const AnalysisConflict& c) {
        conflict(fmt::format("{} vs {}: {}", describe(into), describe(from), c.what()));
      }
      return changed;
    }
    case ValueType::Kind::SymInt:
      if (!from.sym) return false;
      if (!into.sym) {
        into.sym = from.sym;
        return true;
      }
      if (provably_different(*into.sym, *from.sym)) {
        conflict(fmt::format("SymInt {} vs {}", into.sym->to_string(), from.sym->to_string()));
      }
      return false;
    case ValueType::Kind::Tuple: {
      if (into.elements.size() != from.elements.size()) {
        conflict(fmt::format("{} vs {}", describe(into), describe(from)));
      }
      bool changed = false;
      for (size_t i = 0; i < into.elements.size(); ++i) {
        changed |= join_type(into.elements[i], from.elements[i]);
      }
      return changed;
    }
    default:
      return false;
  }
}

TensorFact constant_fact(const Constant& c) {
  TensorFact f;
  switch (c.kind) {
    case ConstKind::Int:
      f.type.kind = ValueType::Kind::Int;
      f.constant = c.as_int();
      break;
    case ConstKind::Float:
      f.type.kind = ValueType::Kind::Float;
      break;
    case ConstKind::Bool:
      f.type.kind = ValueType::Kind::Bool;
      break;
    case ConstKind::None:
      f.type = ValueType::none();
      break;
    default:
      break;  // dtypes, strings, lists: no value type
  }
  return f;
}

std::optional<int64_t> fold_int(std::string_view op, int64_t a, int64_t b) {
  if (op == "+" || op == "aten::sym_add" || op == "operator.add") return a + b;
  if (op == "-" || op == "aten::sym_sub" || op == "operator.sub") return a - b;
  if (op == "*" || op == "aten::sym_mul" || op == "operator.mul") return a * b;
  return std::nullopt;
}

// Rebuilds call arguments from e-classes for a CallContext: constants
// become literals, lists become ArgLists, anything else a NodeRef into
// `types` (the child's type).
class ArgRebuilder {
 public:
  ArgRebuilder(const EGraph& g, const TensorAnalysis& a) : g_(g), a_(a) {}

  Arg arg_of(Id child, int depth = 0) {
    Id c = g_.find(child);
    if (auto k = g_.constant_of(c)) return decode_constant(*k);
    if (depth < 4) {
      for (const char* list_op : {graph_ops::kList, graph_ops::kTuple}) {
        auto lists = g_.class_nodes_with_op(c, Symbol::intern(list_op));
        if (lists.empty()) continue;
        std::vector<Arg> items;
        for (Id item : g_.node(lists[0]).children) items.push_back(arg_of(item, depth + 1));
        return Arg::list(std::move(items), std::string_view(list_op) == graph_ops::kTuple);
      }
    }
    types_.push_back(a_.data(c).type);
    return Arg(NodeRef{static_cast<int32_t>(types_.size() - 1)});
  }
  const ValueType& type(NodeRef r) const { return types_.at(static_cast<size_t>(r.index)); }

 private:
  const EGraph& g_;
  const TensorAnalysis& a_;
  std::vector<ValueType> types_;
};

}  // namespace

void TensorAnalysis::set_leaf_type(Symbol op, uint64_t payload, ValueType type) {
  leaf_types_[{op.id(), payload}] = std::move(type);
}

std::optional<OpId> TensorAnalysis::op_of(Symbol op) const {
  auto it = op_cache_.find(op.id());
  if (it != op_cache_.end()) return it->second;
  std::optional<OpId> id = reg_.find(op.str());
  op_cache_.emplace(op.id(), id);
  return id;
}

TensorFact TensorAnalysis::compute(const EGraph& g, NodeView n) const {
  if (auto c = n.constant()) return constant_fact(*c);
  auto child = [&](size_t i) -> const TensorFact& { return data(g.find(n.children[i])); };
  if (auto it = leaf_types_.find({n.op.id(), n.payload}); it != leaf_types_.end()) {
    TensorFact f{it->second, std::nullopt};
    if (f.type.kind == ValueType::Kind::SymInt && f.type.sym) f.constant = f.type.sym->constant();
    return f;
  }
  std::string_view op = n.op.str();
  if (op == graph_ops::kGetItem && n.children.size() == 2) {
    const ValueType& tuple = child(0).type;
    auto idx = child(1).constant;
    TensorFact f;
    if (tuple.kind == ValueType::Kind::Tuple && idx && *idx >= 0 &&
        static_cast<size_t>(*idx) < tuple.elements.size()) {
      f.type = tuple.elements[static_cast<size_t>(*idx)];
    }
    return f;
  }
  if (n.children.size() == 2) {
    auto a = child(0).constant, b = child(1).constant;
    if (a && b) {
      if (auto v = fold_int(op, *a, *b)) {
        return {ValueType::of_symint(SymInt(*v)), *v};
      }
    }
  }
  auto id = op_of(n.op);
  if (!id) return {};
  const OpInfo& info = reg_.info(*id);
  if (op == "aten::sym_size.int" && n.children.size() == 2) {
    const ValueType& t = child(0).type;
    auto dim = child(1).constant;
    if (!t.is_tensor() || !t.tensor.shape || !dim) return {ValueType::of_symint(std::nullopt), {}};
    int64_t rank = t.tensor.rank();
    int64_t d = *dim < 0 ? *dim + rank : *dim;
    if (d < 0 || d >= rank) return {};
    const SymInt& size = (*t.tensor.shape)[static_cast<size_t>(d)];
    return {ValueType::of_symint(size), size.constant()};
  }
  return from_meta(g, info, n);
}

TensorFact TensorAnalysis::from_meta(const EGraph& g, const OpInfo& info, NodeView n) const {
  if (!info.meta || n.children.size() != info.schema.args.size()) return {};
  ArgRebuilder rebuild(g, *this);
  std::vector<Arg> args;
  args.reserve(n.children.size());
  for (Id c : n.children) args.push_back(rebuild.arg_of(c));
  CallContext ctx(info.schema, args,
                  [&](NodeRef r) -> const ValueType& { return rebuild.type(r); });
  TensorFact f;
  try {
    f.type = info.meta(ctx);
  } catch (const std::exception&) {
    return {};  // inputs not known well enough (or inconsistent): no fact
  }
  if (f.type.kind == ValueType::Kind::SymInt && f.type.sym) f.constant = f.type.sym->constant();
  return f;
}

bool TensorAnalysis::join(TensorFact& into, const TensorFact& from) {
  bool changed = join_type(into.type, from.type);
  if (from.constant) {
    if (into.constant && *into.constant != *from.constant) {
      conflict(fmt::format("constant {} vs {}", *into.constant, *from.constant));
    }
    if (!into.constant) {
      into.constant = from.constant;
      changed = true;
    }
  }
  return changed;
}

std::string TensorAnalysis::describe(Id cls) const {
  const TensorFact& f = data(cls);
  std::string s;
  if (f.type.is_known()) {
    s = to_annotation(f.type);
    if (s.empty()) s = eqfuse::describe(f.type);
  }
  if (f.constant) s += fmt::format("{}= {}", s.empty() ? "" : " ", *f.constant);
  return s;
}

void TensorAnalysis::modify(EGraph& g, Id cls) {
  const TensorFact& f = data(cls);
  if (!f.constant && f.type.kind == ValueType::Kind::SymInt && f.type.sym) {
    if (merge_symbolic_ints_) merge_same_symbolic_value(g, cls, *f.type.sym);
    return;
  }
  if (!f.constant || g.constant_of(cls)) return;
  Id c = g.add_constant(Constant::integer(*f.constant));
  g.merge(cls, c);
}

// Symbols name one value per graph call, so two classes holding the same symbolic
// expression hold the same int. Without this a size read from an intermediate
// (make_fx's `sym_size(softmax_out, 0) * sym_size(softmax_out, 1)` before a bmm)
// would keep that intermediate alive after a fusion removed it.
void TensorAnalysis::merge_same_symbolic_value(EGraph& g, Id cls, const SymInt& value) {
  auto [it, inserted] = symbolic_classes_.try_emplace(value, cls);
  if (!inserted && g.find(it->second) != g.find(cls)) g.merge(cls, it->second);
}

}  // namespace eqfuse
