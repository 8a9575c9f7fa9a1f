// The built-in op registry and the default rule library, each built once per
// test process and shared by every test that needs them (building either
// parses the embedded catalogs, so tests do not rebuild them per case).
//
//   Graph g = load_graph(text, "t.fx", testing_support::builtin_registry()).graph;
//   Graph h = testing_support::load_builtin(text, "t.fx");   // the same, shorter
//   const RuleLibrary& rules = testing_support::builtin_rules();
#pragma once
#include <string_view>

#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse::testing_support {

inline const OpRegistry& builtin_registry() {
  static const OpRegistry r = OpRegistry::with_builtin_ops();
  return r;
}

// FX text loaded (parsed, resolved, typed) against the built-in registry;
// `name` is the file name errors quote.
inline Graph load_builtin(std::string_view text, std::string_view name) {
  return load_graph(text, name, builtin_registry()).graph;
}

// RuleLibrary::builtin parses and validates every rule file.
inline const RuleLibrary& builtin_rules() {
  static const RuleLibrary lib = RuleLibrary::builtin(builtin_registry());
  return lib;
}

}  // namespace eqfuse::testing_support
