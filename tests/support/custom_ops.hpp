// Custom ops for the auto_functionalized tests: in-place ops of the shapes
// torch.library users define (a mutated output, a mutated input, an op with
// a result, two results, an optional and a list argument), registered on
// top of the built-in catalog, and a helper that reads a typed graph body.
//
//   Graph g = testing_support::typed_custom("x: \"f32[3]\"", "    return (x,)\n");
#pragma once
#include <string>

#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse::testing_support {

inline const OpRegistry& custom_ops() {
  static const OpRegistry reg = [] {
    OpRegistry r = OpRegistry::with_builtin_ops();
    r.load_catalog(
        "custom::sin(Tensor x, Tensor(a!) result) -> () | kind=other\n"
        "custom::sin_cos(Tensor x, Tensor(a!) out_sin, Tensor(b!) out_cos) -> () | kind=other\n"
        "custom::boo(Tensor(a!) x) -> () | kind=other\n"
        "custom::scaled(Tensor x, Tensor(a!) out, float alpha=2.0) -> Tensor | kind=other\n"
        "custom::split2(Tensor(a!) x) -> (Tensor, Tensor) | kind=other\n"
        "custom::maybe(Tensor x, Tensor(a!)? out) -> () | kind=other\n"
        "custom::mutate_op(Tensor(a!)[] y) -> () | kind=other\n"
        "custom::pure(Tensor x) -> Tensor | kind=other\n",
        "custom.schemas");
    return r;
  }();
  return reg;
}

// `def forward(self, <sig>):` + body, resolved and typed with custom_ops().
inline Graph typed_custom(const std::string& sig, const std::string& body) {
  Graph g = parse_fx("def forward(self, " + sig + "):\n" + body, "af.py");
  resolve_ops(g, custom_ops());
  infer_types(g, custom_ops());
  return g;
}

}  // namespace eqfuse::testing_support
