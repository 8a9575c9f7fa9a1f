// A rule instantiated on its example inputs: typed search and replace
// graphs in which scalar inputs are replaced by their example literals.
//
//   std::optional<RuleExample> ex = instantiate_example(rule, reg);
//   if (ex) equivalent(ex->search, ex->replace, ...);   // soundness tests
//
// Tensor inputs take the annotation written on the search (or replace)
// parameter; scalar inputs take `example:` values. check_example (run by
// RuleLibrary::add) infers types on both sides, requires output i of both
// to have the same dtype and shape, and requires every `where` condition to
// hold on the example (so the example is a real instance of the rule).
#pragma once
#include <optional>

#include "rewrites/rule.hpp"

namespace eqfuse {

struct RuleExample {
  Graph search;  // typed; placeholders = tensor inputs only
  Graph replace;
};

// nullopt when some used input has neither an annotation nor an example.
std::optional<RuleExample> instantiate_example(const RuleDef& rule, const OpRegistry& reg);

// Throws Error at the rule (or condition) location when the example does
// not type-check, the output types differ, or a condition is not True.
void check_example(const RuleDef& rule, const OpRegistry& reg, const CondFunctions& fns);

// The literal a `let:` value becomes: a number, bool, str, dtype, None or a list of
// ints; nullopt for anything else (a tensor, a symbolic int, a nested list).
std::optional<Arg> literal_of_cond_value(const CondValue& v);

// The condition value of a literal argument, and of a value type (tensor ->
// TensorType, SymInt -> int or symbolic int, None; Unknown otherwise).
CondValue arg_cond_value(const Arg& a);
CondValue type_cond_value(const ValueType& t);

}  // namespace eqfuse
