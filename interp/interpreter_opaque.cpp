// Calls without a reference kernel, evaluated as uninterpreted functions:
// the output is pseudo-random of the node's type, seeded by a hash of the
// target and the arguments, or answered structurally by a ledger shared with
// another run (interp/opaque_calls.hpp). Functional/in-place op pairs share
// one function, so both variants agree.
#include <map>

#include "interp/interpreter_internal.hpp"
#include "interp/opaque_calls.hpp"

namespace eqfuse::interpreter_detail {

namespace {

ValueType type_of_tensor(const Tensor& t) {
  Shape shape(t.shape().begin(), t.shape().end());
  return ValueType::of_tensor(t.dtype(), std::move(shape));
}

}  // namespace

uint64_t Evaluation::hash_arg(uint64_t h, const Arg& a) const {
  return std::visit(
      [&](const auto& x) -> uint64_t {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>) {
          return hash_string(hash_combine(h, 11), x);
        } else if constexpr (std::is_same_v<T, Literal>) {
          return hash_string(hash_combine(h, 12), x.text);
        } else if constexpr (std::is_same_v<T, Device>) {
          return hash_string(hash_combine(h, 13), x.to_string());
        } else if constexpr (std::is_same_v<T, DType>) {
          return hash_combine(hash_combine(h, 14), static_cast<uint64_t>(x));
        } else if constexpr (std::is_same_v<T, ArgList>) {
          h = hash_combine(hash_combine(h, 15), x.items.size());
          for (const Arg& e : x.items) h = hash_arg(h, e);
          return h;
        } else {
          return hash_value(h, resolve(a));
        }
      },
      a.value);
}

Evaluation::OpaqueArgs Evaluation::opaque_args(uint64_t salt, std::string_view key) const {
  const uint64_t h = hash_string(salt, key);
  return OpaqueArgs{h, h, {}};
}

uint64_t Evaluation::structure_of(uint64_t h, const RuntimeValue& v,
                                  std::vector<Tensor>& tensors) const {
  if (v.is_tensor()) {
    const Tensor& t = v.tensor();
    h = hash_combine(hash_combine(h, 21), static_cast<uint64_t>(t.dtype()));
    for (int64_t d : t.shape()) h = hash_combine(h, static_cast<uint64_t>(d));
    tensors.push_back(t);
    return h;
  }
  if (v.is_list()) {
    h = hash_combine(hash_combine(h, 22), v.list().size());
    for (const RuntimeValue& e : v.list()) h = structure_of(h, e, tensors);
    return h;
  }
  return hash_value(h, v);  // integers, bools, None: compared exactly
}

void Evaluation::add_opaque_arg(OpaqueArgs& args, std::string_view name, const Arg& a) const {
  args.seed = hash_arg(hash_string(args.seed, name), a);
  args.structure = structure_of_arg(hash_string(args.structure, name), a, args.tensors);
}

uint64_t Evaluation::structure_of_arg(uint64_t h, const Arg& a,
                                      std::vector<Tensor>& tensors) const {
  if (a.is_node()) return structure_of(h, resolve(a), tensors);
  if (!a.is_list()) return hash_arg(h, a);  // literals
  const ArgList& list = std::get<ArgList>(a.value);
  h = hash_combine(hash_combine(h, 15), list.items.size());
  for (const Arg& e : list.items) h = structure_of_arg(h, e, tensors);
  return h;
}

RuntimeValue Evaluation::eval_opaque(const Node& n, const std::string& key) {
  OpaqueArgs args = opaque_args(0x756e696e74657270ull, key);
  for (const Arg& a : n.args) add_opaque_arg(args, "", a);
  for (const auto& [name, a] : n.kwargs) add_opaque_arg(args, name, a);
  return opaque_output(n, key, std::move(args), effective_type(n));
}

// An uninterpreted function's value: from the ledger shared with another run
// when there is one (structural comparison), else seeded by the arguments.
RuntimeValue Evaluation::opaque_output(const Node& n, const std::string& key, OpaqueArgs args,
                                       const ValueType& type) {
  if (!opts_.allow_opaque)
    fail(n, fmt::format("'{}' has no reference kernel, and this check computes every op "
                        "(strict mode); use the reference mode, which compares such calls "
                        "structurally",
                        key));
  auto make = [&](uint64_t seed) {
    try {
      return uninterpreted_value(type, seed, bindings_);
    } catch (const std::invalid_argument& e) {
      fail(n, fmt::format("'{}' has no reference kernel and is evaluated as an uninterpreted "
                          "function, which needs the node's type: {} (annotate the dump or pass "
                          "--input-types)",
                          key, e.what()));
    }
  };
  if (opts_.opaque_calls)
    return opts_.opaque_calls->call(key, args.structure, std::move(args.tensors), n.name, make);
  return make(args.seed);
}

// An aten-style pair (all_reduce_ / all_reduce, add_ / add): the functional op
// returns exactly the new value of the one mutated argument, and the in-place
// op returns that argument. The in-place call then evaluates the functional
// op's uninterpreted function (same key, same arguments, same result type) and
// writes it into its argument, so either spelling of the call gives the same
// value. Nullopt for other pairs.
std::optional<RuntimeValue> Evaluation::eval_aten_style_inplace(const Node& n,
                                                                const OpSchema& schema,
                                                                const std::string& family,
                                                                const OpaqueArgs& args,
                                                                const std::vector<int>& mutated) {
  if (family == schema.qualified_name() || mutated.size() != 1) return std::nullopt;
  std::optional<OpId> functional = reg_.find(family);
  if (!functional || reg_.info(*functional).schema.returns.size() != 1) return std::nullopt;
  const SchemaArg& target_arg = schema.args[static_cast<size_t>(mutated[0])];
  if (schema.returns.size() != 1 || schema.returns[0].alias != target_arg.alias)
    return std::nullopt;
  RuntimeValue target = resolve(n.args.at(static_cast<size_t>(mutated[0])));
  if (!target.is_tensor()) return std::nullopt;
  RuntimeValue value = opaque_output(n, family, args, type_of_tensor(target.tensor()));
  target.tensor().copy_from(value.tensor());
  return target;
}

// Functional/in-place pairs without a kernel (npu_kv_rmsnorm_rope_cache_v2,
// npu_mla_prolog_v3, user ops): both variants evaluate the SAME uninterpreted
// function (keyed by the functional op) returning (outputs..., new values of
// the mutated args); the in-place variant writes the latter into its args.
// An in-place op without a functional twin (a custom op such as
// `custom::boo(Tensor(a!) x) -> ()`, which auto_functionalized wraps) is its
// own family, so the wrapped call and the direct call agree. Tensor-list
// arguments (`Tensor(a!)[]`) get one new value per element; a return that
// aliases a mutated argument (`-> Tensor(a!)`) is that argument.
std::optional<RuntimeValue> Evaluation::eval_family(const Node& n, const OpInfo& info) {
  const OpSchema& schema = info.schema;
  std::string family;
  std::vector<int> mutated;
  if (schema.mutates_any()) {
    family = schema.qualified_name();
    for (const OpInfo& other : reg_.all()) {
      if (other.traits.inplace_variant == schema.qualified_name())
        family = other.schema.qualified_name();
    }
    for (size_t i = 0; i < schema.args.size(); ++i) {
      if (schema.args[i].mutates()) mutated.push_back(static_cast<int>(i));
    }
  } else if (!info.traits.inplace_variant.empty()) {
    family = schema.qualified_name();
  } else {
    return std::nullopt;
  }
  OpaqueArgs args = opaque_args(0x66616d696c790000ull, family);
  for (size_t i = 0; i < schema.args.size() && i < n.args.size(); ++i)
    add_opaque_arg(args, schema.args[i].name, n.args[i]);
  if (mutated.empty()) return opaque_output(n, family, std::move(args), effective_type(n));
  if (std::optional<RuntimeValue> v = eval_aten_style_inplace(n, schema, family, args, mutated))
    return *v;
  // In-place variant: declared outputs, then one value per mutated tensor.
  std::vector<ValueType> types;
  ValueType type = effective_type(n);
  if (type.kind == ValueType::Kind::Tuple) {
    types = type.elements;
    types.resize(schema.returns.size());
  } else if (schema.returns.size() == 1) {
    types.push_back(type);
  } else if (!schema.returns.empty()) {
    fail(n, "the in-place op's output types are unknown; annotate the node");
  }
  std::vector<Tensor> targets;
  std::map<std::string, Tensor> written;  // alias letter -> first tensor written
  for (int i : mutated) {
    const SchemaArg& a = schema.args[static_cast<size_t>(i)];
    RuntimeValue v = resolve(n.args.at(static_cast<size_t>(i)));
    std::vector<RuntimeValue> tensors = v.is_list() ? v.list() : std::vector<RuntimeValue>{v};
    for (const RuntimeValue& t : tensors) {
      if (t.is_none() && (a.optional || v.is_list())) continue;
      if (!t.is_tensor()) fail(n, fmt::format("mutated argument '{}' is not a tensor", a.name));
      targets.push_back(t.tensor());
      types.push_back(type_of_tensor(t.tensor()));
      written.emplace(a.alias.substr(0, a.alias.size() - 1), t.tensor());
    }
  }
  RuntimeValue all = opaque_output(n, family, std::move(args), ValueType::of_tuple(types));
  size_t n_out = types.size() - targets.size();
  for (size_t k = 0; k < targets.size(); ++k) targets[k].copy_from(all.list()[n_out + k].tensor());
  RuntimeValue::List outs(all.list().begin(), all.list().begin() + static_cast<ptrdiff_t>(n_out));
  for (size_t j = 0; j < n_out; ++j) {
    const std::string& alias = schema.returns[j].alias;
    auto it = written.find(alias.ends_with('!') ? alias.substr(0, alias.size() - 1) : alias);
    if (!alias.empty() && it != written.end()) outs[j] = it->second;
  }
  if (schema.returns.size() == 1 && type.kind != ValueType::Kind::Tuple) return outs.at(0);
  if (schema.returns.empty()) return RuntimeValue();
  return outs;
}

}  // namespace eqfuse::interpreter_detail
