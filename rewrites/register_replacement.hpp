// The C++ counterpart of TorchAir's register_replacement: search and replace
// are C++ callables over a tracing graph builder, traced on example inputs
// into the same RuleDef as a `.rules` block.
//
//   RuleLibrary lib = RuleLibrary::builtin(reg);
//   auto search = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
//     Arg add = b.call("aten::add.Tensor", {in[0], in[1]});
//     return {b.call("aten::relu", {add})};
//   };
//   auto replace = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
//     return {b.call("aten::relu", {b.call("aten::add.Tensor", {in[1], in[0]})})};
//   };
//   const std::vector<ExampleInput> examples{{"a", parse_annotation("f16[8, 64]"), {}},
//                                            {"b", parse_annotation("f16[8, 64]"), {}}};
//   register_replacement(lib, search, replace, examples,
//                        {.name = "user/add-relu-commuted", .where = {"a.shape == b.shape"}});
//
// (Compiled and run by tests/docs/doc_examples_test.cpp.) A replace side may
// call a fused op of your own once the registry knows it
// (OpRegistry::register_op, graph/op_registry.hpp).
//
// Ops are named "ns::op.overload" (as `eqfuse ops` lists them) or
// "torch.ops.ns.op.overload". `extra_check` is a C++ predicate over the
// match (rewrites/rule.hpp RuleMatch). The `search_pattern` overload takes a
// ready-made search graph (the analogue of TorchAir's search_fn_pattern).
// Errors (unknown op, unbound input, output count mismatch, type errors on
// the examples, duplicate name without skip_duplicates, search and replace
// computing different values on random example inputs unless `check` is
// false) throw eqfuse::Error naming the rule.
#pragma once
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "rewrites/rule.hpp"

namespace eqfuse {

class GraphBuilder {
 public:
  explicit GraphBuilder(std::string origin) : origin_(std::move(origin)) {}
  Arg input(const std::string& name, ValueType type = ValueType::unknown());
  // `op`: "npu::npu_add_rms_norm", "aten::add.Tensor" or "torch.ops.aten.add.Tensor".
  Arg call(std::string_view op, std::vector<Arg> args,
           std::vector<std::pair<std::string, Arg>> kwargs = {});
  Arg getitem(const Arg& value, int64_t index);
  // Finishes the graph with `outputs` as its return values.
  Graph finish(const std::vector<Arg>& outputs) &&;

 private:
  std::string fresh(std::string_view base);
  SourceLoc loc() const { return {origin_, 0, 0}; }
  std::string origin_;
  Graph g_;
};

using TraceFn = std::function<std::vector<Arg>(GraphBuilder&, std::span<const Arg> inputs)>;

// One input of the traced functions: a tensor (its type) or a scalar (its
// example literal value, which also tells the type).
struct ExampleInput {
  std::string name;
  ValueType type;            // for tensors (shapes may be symbolic)
  std::optional<Arg> value;  // for scalars: epsilon, dtype codes, sizes
};

struct ReplacementOptions {
  std::string name;  // required, unique
  std::vector<std::string> labels{"user", "fusion"};
  bool bidirectional = true;
  std::string description;
  std::vector<std::string> where;  // condition texts (rewrites/condition.hpp)
  ExtraCheck extra_check;
  bool skip_duplicates = false;
  // The rule is run on random example inputs before it is added and refused
  // (eqfuse::Error with the counterexample) when search and replace differ
  // (rewrites/rule_check.hpp). false: a knowingly inexact rule, added
  // unchecked (the `.rules` key `trust: true`).
  bool check = true;
};

// Returns false when the name was a duplicate and skip_duplicates is set.
bool register_replacement(RuleLibrary& lib, const TraceFn& search_fn, const TraceFn& replace_fn,
                          std::span<const ExampleInput> example_inputs,
                          const ReplacementOptions& options);
bool register_replacement(RuleLibrary& lib, Graph search_pattern, const TraceFn& replace_fn,
                          std::span<const ExampleInput> example_inputs,
                          const ReplacementOptions& options);

}  // namespace eqfuse
