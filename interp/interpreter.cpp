// The reference interpreter's node loop: binds the inputs, evaluates node by
// node (dispatching calls to a kernel, an auto_functionalized wrapper, a
// Python builtin or an uninterpreted function), frees values after their last
// reader, collects the outputs and reports mutated inputs. The other concerns
// of an evaluation live beside it (interp/interpreter_internal.hpp lists them).
#include "interp/interpreter.hpp"

#include <stdexcept>

#include "base/memory_budget.hpp"
#include "graph/auto_functionalized.hpp"
#include "interp/interpreter_internal.hpp"
#include "interp/kernels.hpp"

namespace eqfuse {

namespace interpreter_detail {

namespace {

// The value a placeholder starts with. Inputs are deep-copied so the run
// cannot change the caller's values and mutated inputs are detected by a
// non-zero storage version; a graph that writes nothing may share an
// unwritten (version 0) tensor instead, which avoids copying large weights.
RuntimeValue input_value(const RuntimeValue& v, bool graph_writes) {
  bool fresh_tensor = v.is_tensor() && v.tensor().defined() && v.tensor().storage()->version == 0;
  if (!graph_writes && (fresh_tensor || !(v.is_tensor() || v.is_list()))) return v;
  return deep_copy(v);
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

}  // namespace interpreter_detail

RunResult Interpreter::run(const Graph& graph, std::span<const RuntimeValue> inputs,
                           const SymBindings& bindings) const {
  interpreter_detail::Evaluation evaluation(graph, registry_, options_, bindings);
  return evaluation.run(inputs);
}

}  // namespace eqfuse
