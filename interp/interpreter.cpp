// The reference interpreter: node-by-node evaluation, uninterpreted
// functions for opaque ops, mutation tracking and type cross-checks.
#include "interp/interpreter.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <set>
#include <stdexcept>

#include "base/memory_budget.hpp"
#include "graph/auto_functionalized.hpp"
#include "interp/float16.hpp"
#include "interp/kernels.hpp"
#include "interp/memory_layout.hpp"
#include "interp/opaque_calls.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {

// ---- hashing ---------------------------------------------------------------------

uint64_t hash_combine(uint64_t h, uint64_t v) {
  SplitMix64 mix(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
  return mix.next();
}

uint64_t hash_string(uint64_t h, std::string_view s) {
  uint64_t fnv = 0xcbf29ce484222325ull;
  for (char c : s) fnv = (fnv ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return hash_combine(h, fnv ^ s.size());
}

static uint64_t hash_double(uint64_t h, double d) {
  if (d == 0.0) d = 0.0;       // -0 and +0 hash alike
  if (std::isnan(d)) d = NAN;  // one NaN
  return hash_combine(h, std::bit_cast<uint64_t>(d));
}

uint64_t hash_tensor(uint64_t h, const Tensor& t) {
  h = hash_combine(h, static_cast<uint64_t>(t.dtype()));
  h = hash_combine(h, static_cast<uint64_t>(t.rank()));
  for (int64_t d : t.shape()) h = hash_combine(h, static_cast<uint64_t>(d));
  if (t.is_int_storage()) {
    for (int64_t v : t.int_values()) h = hash_combine(h, static_cast<uint64_t>(v));
  } else {
    for (double v : t.values()) h = hash_double(h, v);
  }
  return h;
}

static uint64_t hash_value(uint64_t h, const RuntimeValue& v) {
  if (v.is_tensor()) return hash_tensor(hash_combine(h, 1), v.tensor());
  if (v.is_int()) return hash_combine(hash_combine(h, 2), static_cast<uint64_t>(v.as_int()));
  if (v.is_double()) return hash_double(hash_combine(h, 3), std::get<double>(v.v));
  if (v.is_bool()) return hash_combine(hash_combine(h, 4), std::get<bool>(v.v) ? 1 : 0);
  if (v.is_list()) {
    h = hash_combine(hash_combine(h, 5), v.list().size());
    for (const RuntimeValue& e : v.list()) h = hash_value(h, e);
    return h;
  }
  return hash_combine(h, 6);
}

// ---- runtime values ----------------------------------------------------------------

std::string describe(const RuntimeValue& v) {
  if (v.is_tensor()) return v.tensor().describe();
  if (v.is_int()) return fmt::format("int {}", v.as_int());
  if (v.is_double()) return fmt::format("float {}", std::get<double>(v.v));
  if (v.is_bool()) return std::get<bool>(v.v) ? "True" : "False";
  if (v.is_list()) {
    std::vector<std::string> parts;
    for (const RuntimeValue& e : v.list()) parts.push_back(describe(e));
    return fmt::format("({})", fmt::join(parts, ", "));
  }
  return "None";
}

RuntimeValue deep_copy(const RuntimeValue& v) {
  if (v.is_tensor()) return v.tensor().clone();
  if (v.is_list()) {
    RuntimeValue::List out;
    for (const RuntimeValue& e : v.list()) out.push_back(deep_copy(e));
    return out;
  }
  return v;
}

// ---- uninterpreted values -------------------------------------------------------------

static Dims concrete_shape(const TensorType& t, const SymBindings& bindings) {
  if (!t.shape) throw std::invalid_argument("the tensor's shape is unknown");
  Dims dims;
  for (const SymInt& d : *t.shape) {
    std::optional<int64_t> v = d.evaluate(bindings);
    if (!v) throw std::invalid_argument(fmt::format("dim '{}' has no binding", d.to_string()));
    dims.push_back(*v);
  }
  return dims;
}

RuntimeValue uninterpreted_value(const ValueType& type, uint64_t seed,
                                 const SymBindings& bindings) {
  SplitMix64 rng(seed);
  switch (type.kind) {
    case ValueType::Kind::Tensor: {
      if (type.tensor.dtype == DType::Unknown) throw std::invalid_argument("the dtype is unknown");
      Dims shape = concrete_shape(type.tensor, bindings);
      return random_tensor(type.tensor.dtype, shape, rng);
    }
    case ValueType::Kind::SymInt:
      if (type.sym) {
        if (std::optional<int64_t> v = type.sym->evaluate(bindings)) return *v;
      }
      return rng.integer(1, 8);
    case ValueType::Kind::Int:
      return rng.integer(-8, 8);
    case ValueType::Kind::Float:
    case ValueType::Kind::SymFloat:
      return round_to_fp32(rng.uniform(-2, 2));
    case ValueType::Kind::Bool:
    case ValueType::Kind::SymBool:
      return rng.integer(0, 1) == 1;
    case ValueType::Kind::None:
      return RuntimeValue();
    case ValueType::Kind::Tuple: {
      RuntimeValue::List out;
      for (size_t i = 0; i < type.elements.size(); ++i) {
        // Unknown elements are outputs nobody reads: None stands in for them.
        out.push_back(type.elements[i].is_known()
                          ? uninterpreted_value(type.elements[i], hash_combine(seed, i), bindings)
                          : RuntimeValue());
      }
      return out;
    }
    case ValueType::Kind::Unknown:
      break;
  }
  throw std::invalid_argument("the type is unknown");
}

// ---- evaluation ------------------------------------------------------------------------

namespace {

ValueType type_of_tensor(const Tensor& t) {
  Shape shape(t.shape().begin(), t.shape().end());
  return ValueType::of_tensor(t.dtype(), std::move(shape));
}

class Evaluation {
 public:
  Evaluation(const Graph& g, const OpRegistry& reg, const InterpreterOptions& opts,
             SymBindings bindings)
      : g_(g), reg_(reg), opts_(opts), bindings_(std::move(bindings)), env_(g.size()) {}

  RunResult run(std::span<const RuntimeValue> inputs);

 private:
  [[noreturn]] void fail(const Node& n, const std::string& msg) const {
    throw Error(fmt::format("node '{}': {}", n.name, msg), n.meta.loc);
  }
  RuntimeValue resolve(const Arg& a) const;
  bool may_write_arguments() const;
  uint64_t hash_arg(uint64_t h, const Arg& a) const;
  void bind_input(const Node& ph, const RuntimeValue& v);
  RuntimeValue eval(const Node& n);
  RuntimeValue eval_call(const Node& n);
  RuntimeValue eval_registered(const Node& n, const OpInfo& info);
  RuntimeValue in_torch_layout(const Node& n, const OpInfo& info, RuntimeValue v) const;
  RuntimeValue eval_auto_functionalized(const Node& n);
  Arg scratch_arg(RuntimeValue v);
  // What an opaque call's output depends on: `seed` hashes every argument
  // (tensor contents included), `structure` everything but tensor contents,
  // whose tensors are collected in order (interp/opaque_calls.hpp).
  struct OpaqueArgs {
    uint64_t seed;
    uint64_t structure;
    std::vector<Tensor> tensors;
  };
  OpaqueArgs opaque_args(uint64_t salt, std::string_view key) const;
  void add_opaque_arg(OpaqueArgs& args, std::string_view name, const Arg& a) const;
  uint64_t structure_of(uint64_t h, const RuntimeValue& v, std::vector<Tensor>& tensors) const;
  uint64_t structure_of_arg(uint64_t h, const Arg& a, std::vector<Tensor>& tensors) const;
  RuntimeValue eval_opaque(const Node& n, const std::string& key);
  RuntimeValue opaque_output(const Node& n, const std::string& key, OpaqueArgs args,
                             const ValueType& type);
  ValueType effective_type(const Node& n);
  std::optional<RuntimeValue> eval_family(const Node& n, const OpInfo& info);
  std::optional<RuntimeValue> eval_builtin(const Node& n) const;
  void check_type(const Node& n, const ValueType& t, const RuntimeValue& v,
                  const std::string& where) const;

  const Graph& g_;
  const OpRegistry& reg_;
  const InterpreterOptions& opts_;
  SymBindings bindings_;
  std::vector<RuntimeValue> env_;
  // Values of the synthetic arguments of a wrapped op call (see scratch_arg).
  std::vector<RuntimeValue> scratch_;
  std::optional<std::vector<std::vector<NodeRef>>> users_;  // computed on first need
};

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

// True when some call may write into its arguments (in-place `name_` ops,
// copy_, the v2 NPU ops, in-place families without a kernel). Kernels write
// only into arguments their schema marks as mutated, so a graph without
// such calls never changes its inputs' storage.
bool Evaluation::may_write_arguments() const {
  for (const Node& n : g_.nodes()) {
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    const OpSchema& schema = reg_.info(n.op).schema;
    if (schema.mutates_any() || schema.name.ends_with('_')) return true;
  }
  return false;
}

// The value a placeholder starts with. Inputs are deep-copied so the run
// cannot change the caller's values and mutated inputs are detected by a
// non-zero storage version; a graph that writes nothing may share an
// unwritten (version 0) tensor instead, which avoids copying large weights.
RuntimeValue input_value(const RuntimeValue& v, bool graph_writes) {
  bool fresh_tensor = v.is_tensor() && v.tensor().defined() && v.tensor().storage()->version == 0;
  if (!graph_writes && (fresh_tensor || !(v.is_tensor() || v.is_list()))) return v;
  return deep_copy(v);
}

RuntimeValue Evaluation::resolve(const Arg& a) const {
  return std::visit(
      [&](const auto& x) -> RuntimeValue {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return RuntimeValue();
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                             std::is_same_v<T, double>) {
          return RuntimeValue(x);
        } else if constexpr (std::is_same_v<T, NodeRef>) {
          if (static_cast<size_t>(x.index) >= env_.size())
            return scratch_.at(static_cast<size_t>(x.index) - env_.size());
          return env_.at(static_cast<size_t>(x.index));
        } else if constexpr (std::is_same_v<T, ArgList>) {
          RuntimeValue::List out;
          for (const Arg& e : x.items) out.push_back(resolve(e));
          return out;
        } else if constexpr (std::is_same_v<T, DType>) {
          return RuntimeValue(scalar_type_code(x).value_or(-1));
        } else {
          throw std::invalid_argument("a string/literal argument cannot be used as a value");
        }
      },
      a.value);
}

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

void Evaluation::bind_input(const Node& ph, const RuntimeValue& v) {
  const ValueType& t = ph.type;
  if (t.kind == ValueType::Kind::SymInt && t.sym && v.is_int()) {
    std::optional<std::string> name = t.sym->single_symbol();
    if (name && !bindings_.contains(*name)) bindings_[*name] = v.as_int();
  }
  if (t.kind != ValueType::Kind::Tensor || !v.is_tensor() || !t.tensor.shape) return;
  const Dims& actual = v.tensor().shape();
  if (static_cast<size_t>(t.tensor.rank()) != actual.size()) {
    fail(ph, fmt::format("input has shape {} but the placeholder is {}", dims_to_string(actual),
                         to_annotation(t)));
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    std::optional<std::string> name = (*t.tensor.shape)[i].single_symbol();
    if (name && !bindings_.contains(*name)) bindings_[*name] = actual[i];
  }
}

// For each node index i, the non-placeholder values whose last reader is the
// node before i (so they can be released before evaluating node i).
// Placeholders are kept to the end: run() reports the inputs a graph wrote.
std::vector<std::vector<size_t>> values_dying_after(
    const Graph& g, const std::vector<std::vector<NodeRef>>& users /* Graph::users() */) {
  std::vector<std::vector<size_t>> dying(g.size() + 1);
  for (size_t v = 0; v < g.size(); ++v) {
    if (g.nodes()[v].kind == NodeKind::Placeholder) continue;
    // A value nobody reads dies right after it is made.
    size_t last_use = users[v].empty() ? v : static_cast<size_t>(users[v].back().index);
    dying[last_use + 1].push_back(v);
  }
  dying.pop_back();  // values read by the last node die with the evaluation
  return dying;
}

namespace {

RuntimeValue copy_of(const RuntimeValue& v) {
  if (v.is_tensor()) return v.tensor().clone();
  if (v.is_list()) {
    RuntimeValue::List items;
    for (const RuntimeValue& x : v.list()) items.push_back(copy_of(x));
    return items;
  }
  return v;
}

}  // namespace

RunResult Evaluation::run(std::span<const RuntimeValue> inputs) {
  std::vector<NodeRef> placeholders = g_.placeholders();
  if (inputs.size() != placeholders.size()) {
    throw Error(fmt::format("graph '{}' has {} inputs but {} values were given", g_.name,
                            placeholders.size(), inputs.size()));
  }
  bool writes = may_write_arguments();
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const Node& ph = g_.node(placeholders[i]);
    env_[static_cast<size_t>(placeholders[i].index)] = input_value(inputs[i], writes);
    bind_input(ph, inputs[i]);
  }
  RunResult result;
  if (!users_) users_ = g_.users();
  std::vector<std::vector<size_t>> dying_after = values_dying_after(g_, *users_);
  for (size_t i = 0; i < g_.size(); ++i) {
    const Node& n = g_.nodes()[i];
    // Drop values nobody reads any more (their storage lives on in any view
    // or output still holding it): without this a large graph keeps every
    // intermediate and needs tens of gigabytes.
    for (size_t dead : dying_after[i]) env_[dead] = RuntimeValue();
    if (n.kind == NodeKind::Placeholder) {
      if (opts_.check_types) check_type(n, n.type, env_[i], "input");
      continue;
    }
    if (n.kind == NodeKind::Output) {
      if (n.args.empty()) continue;
      const Arg& out = n.args[0];
      std::vector<Arg> items = out.is_list() ? out.as_list().items : std::vector<Arg>{out};
      for (size_t k = 0; k < items.size(); ++k) {
        const Arg& a = items[k];
        try {
          result.outputs.push_back(resolve(a));
        } catch (const std::invalid_argument& e) {
          // A string or device literal: nothing to compute or compare.
          fail(n, fmt::format("output {} cannot be evaluated: {}", k, e.what()));
        }
        result.output_names.push_back(a.is_node() ? g_.node(a.node()).name : "None");
      }
      continue;
    }
    try {
      env_[i] = eval(n);
    } catch (const std::out_of_range& e) {
      // A view whose sizes, strides and offset reach past its storage under
      // these input sizes (an as_strided offset beyond a small symbolic dim):
      // torch refuses it at run time too, so it is the graph's error here.
      fail(n, fmt::format("cannot be computed on these inputs: {}", e.what()));
    }
    if (memory_limit_reached(opts_.memory_limit_bytes))
      fail(n, fmt::format("memory limit reached: {} resident after computing this node, "
                          "--memory-limit is {}",
                          format_memory_size(resident_memory_bytes()),
                          format_memory_size(opts_.memory_limit_bytes)));
    if (opts_.check_types) check_type(n, n.type, env_[i], "value");
    if (opts_.keep_values) {
      // A copy: a later in-place op would change the tensor it holds.
      if (result.values.empty()) result.values.resize(g_.size());
      result.values[i] = copy_of(env_[i]);
    }
  }
  for (size_t i = 0; i < placeholders.size(); ++i) {
    const RuntimeValue& v = env_[static_cast<size_t>(placeholders[i].index)];
    if (v.is_tensor() && v.tensor().storage()->version != 0) {
      result.mutated_inputs.emplace_back(i, v.tensor());
    }
  }
  return result;
}

RuntimeValue Evaluation::eval(const Node& n) {
  switch (n.kind) {
    case NodeKind::GetItem: {
      const RuntimeValue& src = env_.at(static_cast<size_t>(n.getitem_source().index));
      int64_t idx = n.getitem_index();
      if (src.is_list()) {
        int64_t size = static_cast<int64_t>(src.list().size());
        if (idx < -size || idx >= size)
          fail(n, fmt::format("index {} out of range for {}", idx, describe(src)));
        return src.list()[static_cast<size_t>(idx < 0 ? idx + size : idx)];
      }
      if (src.is_tensor()) {
        try {
          return src.tensor().select(0, idx);
        } catch (const std::exception& e) {
          fail(n, e.what());
        }
      }
      fail(n, fmt::format("cannot index {}", describe(src)));
    }
    case NodeKind::GetAttr:
      if (opts_.attr_values) {
        // A copy: the graph may write it, and the next run must see it fresh.
        if (auto it = opts_.attr_values->find(n.target); it != opts_.attr_values->end())
          return copy_of(it->second);
      }
      try {
        return uninterpreted_value(n.type, hash_string(0x6765746174747221ull, n.target), bindings_);
      } catch (const std::invalid_argument& e) {
        fail(n, fmt::format("cannot make a value for attribute '{}': {}", n.target, e.what()));
      }
    case NodeKind::Call:
      return eval_call(n);
    default:
      fail(n, "unexpected node kind");
  }
}

RuntimeValue Evaluation::eval_call(const Node& n) {
  if (n.op == kNoOp) {
    if (auto_functionalized_version(n)) return eval_auto_functionalized(n);
    if (std::optional<RuntimeValue> v = eval_builtin(n)) return *v;
    return eval_opaque(n, n.target);
  }
  return eval_registered(n, reg_.info(n.op));
}

RuntimeValue Evaluation::eval_registered(const Node& n, const OpInfo& info) {
  if (const Kernel* kernel = find_kernel(info.schema)) {
    KernelCall call(n, info.schema, [this](const Arg& a) { return resolve(a); });
    call.set_round_like_unfused(opts_.round_like_unfused);
    try {
      return in_torch_layout(n, info, (*kernel)(call));
    } catch (const UnsupportedConfig&) {
      // Falls through to the uninterpreted function below.
    } catch (const Error&) {
      throw;
    } catch (const std::exception& e) {
      fail(n, fmt::format("{}: {}", info.schema.qualified_name(), e.what()));
    }
  }
  if (std::optional<RuntimeValue> v = eval_family(n, info)) return *v;
  return eval_opaque(n, info.schema.qualified_name());
}

// ---- result layouts ----------------------------------------------------------------

namespace {

enum class ResultLayout : uint8_t { Kernel, Elementwise, PreserveSelf, QueryLike };

// How torch lays out the op's result (interp/memory_layout.hpp); Kernel: as computed.
ResultLayout result_layout(const OpInfo& info) {
  const std::string& name = info.schema.name;
  const std::string& ns = info.schema.ns;
  if (ns == "aten") {
    static const std::set<std::string, std::less<>> kPreserving = {
        "clone",     "_to_copy",  "lift_fresh_copy", "empty_like", "zeros_like",
        "ones_like", "full_like", "rand_like",       "randn_like", "randint_like"};
    if (kPreserving.contains(name)) return ResultLayout::PreserveSelf;
    // torch's meta allocates the output with empty_like(query).
    if (name == "_scaled_dot_product_flash_attention_for_cpu") return ResultLayout::QueryLike;
    // triu/tril allocate row-major results.
    if (name == "triu" || name == "tril") return ResultLayout::Kernel;
  }
  if (ns == "prims" && name == "convert_element_type") return ResultLayout::Elementwise;
  if (info.traits.kind == OpKind::Elementwise && !info.schema.mutates_any())
    return ResultLayout::Elementwise;
  return ResultLayout::Kernel;
}

// memory_format=torch.preserve_format (the default) or absent. Registered calls are
// normalized (graph/graph.hpp): every argument is positional.
bool preserves_format(const Node& n, const OpSchema& schema) {
  const int index = schema.arg_index("memory_format");
  const Arg* format = index >= 0 && static_cast<size_t>(index) < n.args.size()
                          ? &n.args[static_cast<size_t>(index)]
                          : nullptr;
  if (!format || format->is_none()) return true;
  const auto* literal = std::get_if<Literal>(&format->value);
  return literal && literal->text.find("preserve_format") != std::string::npos;
}

bool broadcasts_to(const Dims& shape, const Dims& target) {
  if (shape.size() > target.size()) return false;
  const size_t lead = target.size() - shape.size();
  for (size_t i = 0; i < shape.size(); ++i)
    if (shape[i] != 1 && shape[i] != target[lead + i]) return false;
  return true;
}

}  // namespace

RuntimeValue Evaluation::in_torch_layout(const Node& n, const OpInfo& info, RuntimeValue v) const {
  const ResultLayout layout = result_layout(info);
  if (layout == ResultLayout::Kernel) return v;
  auto tensor_arg = [&](std::string_view name) -> std::optional<Tensor> {
    const int index = info.schema.arg_index(name);
    if (index >= 0 && static_cast<size_t>(index) < n.args.size()) {
      RuntimeValue a = resolve(n.args[static_cast<size_t>(index)]);
      if (a.is_tensor()) return a.tensor();
    }
    return std::nullopt;
  };
  if (layout == ResultLayout::QueryLike) {
    std::optional<Tensor> query = tensor_arg("query");
    if (!query || !v.is_list() || v.list().empty() || !v.list()[0].is_tensor()) return v;
    std::vector<RuntimeValue> parts = v.list();
    parts[0] = RuntimeValue(with_strides(parts[0].tensor(), preserved_strides(*query)));
    return RuntimeValue(std::move(parts));
  }
  if (!v.is_tensor()) return v;
  const Tensor& result = v.tensor();
  if (layout == ResultLayout::PreserveSelf) {
    std::optional<Tensor> self = tensor_arg("self");
    if (!self || self->is_contiguous() || self->shape() != result.shape() ||
        !preserves_format(n, info.schema))
      return v;
    return RuntimeValue(with_strides(result, preserved_strides(*self)));
  }
  // Elementwise: ordered by the tensor operands, when one of them is not row-major.
  std::vector<Tensor> inputs;
  bool all_contiguous = true;
  for (const Arg& a : n.args) {
    if (!a.is_node()) continue;
    RuntimeValue operand = resolve(a);
    if (!operand.is_tensor()) continue;
    if (!broadcasts_to(operand.tensor().shape(), result.shape())) return v;  // not pointwise
    all_contiguous = all_contiguous && operand.tensor().is_contiguous();
    inputs.push_back(operand.tensor());
  }
  if (all_contiguous) return v;
  std::vector<const Tensor*> pointers;
  for (const Tensor& t : inputs) pointers.push_back(&t);
  return RuntimeValue(with_strides(result, elementwise_result_strides(pointers, result.shape())));
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

// ---- auto_functionalized ---------------------------------------------------------------

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

// Python builtins on SymInts/floats (`operator.mul(sym_size, 4)`) in
// dynamic-shape graphs. Tensor operands are left to the opaque path.
std::optional<RuntimeValue> Evaluation::eval_builtin(const Node& n) const {
  std::string_view op = n.target;
  for (std::string_view prefix : {"_operator.", "operator."}) {
    if (op.starts_with(prefix)) op.remove_prefix(prefix.size());
  }
  std::vector<RuntimeValue> args;
  for (const Arg& a : n.args) {
    RuntimeValue v;
    try {
      v = resolve(a);
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    if (!(v.is_int() || v.is_double() || v.is_bool())) return std::nullopt;
    args.push_back(v);
  }
  if (!n.kwargs.empty()) return std::nullopt;
  bool all_int = true;
  std::vector<double> f;
  std::vector<int64_t> i;
  for (const RuntimeValue& v : args) {
    if (v.is_double()) all_int = false;
    f.push_back(v.is_double() ? std::get<double>(v.v)
                              : static_cast<double>(v.is_int() ? v.as_int() : std::get<bool>(v.v)));
    i.push_back(v.is_int() ? v.as_int() : static_cast<int64_t>(f.back()));
  }
  auto num = [&](int64_t iv, double fv) { return all_int ? RuntimeValue(iv) : RuntimeValue(fv); };
  if (args.size() == 1) {
    if (op == "neg") return num(-i[0], -f[0]);
    if (op == "math.ceil" || op == "ceil")
      return RuntimeValue(static_cast<int64_t>(std::ceil(f[0])));
    if (op == "math.floor" || op == "floor")
      return RuntimeValue(static_cast<int64_t>(std::floor(f[0])));
    if (op == "torch.sym_float" || op == "sym_float") return RuntimeValue(f[0]);
    if (op == "torch.sym_int" || op == "sym_int") return RuntimeValue(static_cast<int64_t>(f[0]));
    return std::nullopt;
  }
  if (args.size() != 2) return std::nullopt;
  if (op == "add") return num(i[0] + i[1], f[0] + f[1]);
  if (op == "sub") return num(i[0] - i[1], f[0] - f[1]);
  if (op == "mul") return num(i[0] * i[1], f[0] * f[1]);
  if (op == "truediv") return RuntimeValue(f[0] / f[1]);
  if (op == "floordiv" || op == "mod") {
    if (all_int) {
      if (i[1] == 0) fail(n, "integer division by zero");
      int64_t q = i[0] / i[1];
      if ((i[0] % i[1] != 0) && ((i[0] < 0) != (i[1] < 0))) --q;
      return op == "floordiv" ? RuntimeValue(q) : RuntimeValue(i[0] - q * i[1]);
    }
    double q = std::floor(f[0] / f[1]);
    return op == "floordiv" ? RuntimeValue(q) : RuntimeValue(f[0] - q * f[1]);
  }
  if (op == "pow")
    return all_int && i[1] >= 0 ? RuntimeValue(static_cast<int64_t>(std::pow(f[0], f[1])))
                                : RuntimeValue(std::pow(f[0], f[1]));
  if (op == "eq") return RuntimeValue(f[0] == f[1]);
  if (op == "ne") return RuntimeValue(f[0] != f[1]);
  if (op == "lt") return RuntimeValue(f[0] < f[1]);
  if (op == "le") return RuntimeValue(f[0] <= f[1]);
  if (op == "gt") return RuntimeValue(f[0] > f[1]);
  if (op == "ge") return RuntimeValue(f[0] >= f[1]);
  return std::nullopt;
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

}  // namespace

RunResult Interpreter::run(const Graph& graph, std::span<const RuntimeValue> inputs,
                           const SymBindings& bindings) const {
  Evaluation evaluation(graph, registry_, options_, bindings);
  return evaluation.run(inputs);
}

}  // namespace eqfuse
