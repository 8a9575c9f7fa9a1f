// The evaluation of one graph run (class Evaluation), shared by the files
// that implement it by concern:
//   interp/interpreter.cpp                     the node loop: inputs, dispatch, outputs
//   interp/interpreter_types.cpp               node types: untyped tuples, type cross-checks
//   interp/interpreter_result_layout.cpp       strides of results, as torch lays them out
//   interp/interpreter_opaque.cpp              uninterpreted functions for calls without a kernel
//   interp/interpreter_auto_functionalized.cpp the functional semantics of auto_functionalized
//   interp/interpreter_builtins.cpp            Python operator builtins on SymInts and floats
// Private to the reference interpreter: the public API is interp/interpreter.hpp.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "interp/interpreter.hpp"

namespace eqfuse::interpreter_detail {

// Hashes a runtime value, tensor contents included (interp/runtime_values.cpp).
uint64_t hash_value(uint64_t h, const RuntimeValue& v);

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
  std::optional<RuntimeValue> eval_aten_style_inplace(const Node& n, const OpSchema& schema,
                                                      const std::string& family,
                                                      const OpaqueArgs& args,
                                                      const std::vector<int>& mutated);
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

}  // namespace eqfuse::interpreter_detail
