// Shared helpers for the numeric (reference interpreter) tests: parse FX
// text, resolve ops against the builtin registry, run with given inputs,
// read the output values and compare them with hand-computed ones.
#pragma once
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"
#include "interp/interpreter.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse::testing {

inline const OpRegistry& registry() {
  return testing_support::builtin_registry();
}

// Parses print_readable text and normalizes calls (no type inference: the
// tests annotate what they need, and the interpreter checks annotations).
inline Graph graph_from(const std::string& text) {
  Graph g = parse_fx(text, "<test>");
  resolve_ops(g, registry());
  return g;
}

inline RunResult run(const Graph& g, std::vector<RuntimeValue> inputs, SymBindings b = {}) {
  return Interpreter(registry()).run(g, inputs, b);
}

inline Tensor f32(Dims shape, std::vector<double> v) {
  return Tensor::from_values(DType::Float32, std::move(shape), v);
}
inline Tensor tensor(DType d, Dims shape, std::vector<double> v) {
  return Tensor::from_values(d, std::move(shape), v);
}

// All elements of a tensor result, row-major.
inline std::vector<double> vals(const RuntimeValue& v) {
  return v.tensor().values();
}
inline std::vector<int64_t> ints(const RuntimeValue& v) {
  return v.tensor().int_values();
}

inline void expect_near(const std::vector<double>& got, const std::vector<double>& want,
                        double tol = 1e-6) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

}  // namespace eqfuse::testing
