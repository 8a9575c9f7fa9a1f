// infer_types on Python builtins of dynamic-shape graphs (`operator.*` on
// SymInts, SymFloats and SymBools, torch.sym_float / torch.sym_int,
// aten.sym_size / sym_numel / sym_stride), and the interpreter evaluating
// the same graph: the values agree with the inferred types.
#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"
#include "interp/interpreter.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

const OpRegistry& builtin() {
  return testing_support::builtin_registry();
}

Graph typed_graph(const std::string& text) {
  Graph g = parse_fx(text, "snippet.py");
  resolve_ops(g, builtin());
  infer_types(g, builtin());
  return g;
}

std::string type_of(const Graph& g, const std::string& name) {
  auto r = g.find(name);
  if (!r) return "<no node " + name + ">";
  return describe(g.node(*r).type);
}

const char* const kSymGraph =
    "def forward(self, x: \"f32[s0, 4]\", y: \"f32[2, 3][1, 2]\"):\n"
    "    a = torch.ops.aten.sym_size.int(x, 0)\n"
    "    n = torch.ops.aten.sym_numel.default(x)\n"
    "    st = torch.ops.aten.sym_stride.int(y, 1)\n"
    "    add = a + 4\n"
    "    sub = n - a\n"
    "    mul = a * 3\n"
    "    fd = n // 4\n"
    "    md = n % 2\n"
    "    ng = -a\n"
    "    pw = a ** 2\n"
    "    td = a / 2\n"
    "    fl = torch.sym_float(a)\n"
    "    ff = fl * 2.5\n"
    "    it = torch.sym_int(ff)\n"
    "    eq = a == 4\n"
    "    lt = a < n\n"
    "    return (add, sub, mul, fd, md, ng, pw, td, fl, ff, it, eq, lt, st)\n";

TEST(PythonBuiltins, SymIntArithmeticHasSymbolicValues) {
  Graph g = typed_graph(kSymGraph);
  EXPECT_EQ(type_of(g, "a"), "Sym(s0)");
  EXPECT_EQ(type_of(g, "n"), "Sym(4*s0)");
  EXPECT_EQ(type_of(g, "add"), "Sym(s0 + 4)");
  EXPECT_EQ(type_of(g, "sub"), "Sym(3*s0)");
  EXPECT_EQ(type_of(g, "mul"), "Sym(3*s0)");
  EXPECT_EQ(type_of(g, "fd"), "Sym(s0)");  // 4*s0 // 4 is exact
  EXPECT_EQ(type_of(g, "md"), "Sym(0)");   // 4*s0 % 2
  EXPECT_EQ(type_of(g, "ng"), "Sym(-s0)");
  EXPECT_EQ(type_of(g, "pw"), "Sym(s0**2)");
  // Annotated strides give sym_stride a value.
  EXPECT_EQ(type_of(g, "st"), "Sym(2)");
}

TEST(PythonBuiltins, FloatsAndComparisonsHaveTheirKinds) {
  Graph g = typed_graph(kSymGraph);
  EXPECT_EQ(type_of(g, "td"), "SymFloat");  // `/` always gives a float
  EXPECT_EQ(type_of(g, "fl"), "SymFloat");
  EXPECT_EQ(type_of(g, "ff"), "SymFloat");
  EXPECT_EQ(type_of(g, "it"), "Sym(?)");
  EXPECT_EQ(type_of(g, "eq"), "SymBool");
  EXPECT_EQ(type_of(g, "lt"), "SymBool");
}

TEST(PythonBuiltins, UnknownOperandsGiveUnknownValues) {
  Graph g = typed_graph(
      "def forward(self, x, k: \"Sym(s1)\"):\n"
      "    a = torch.ops.aten.sym_size.int(x, 0)\n"
      "    b = a + k\n"
      "    c = k // 0\n"
      "    s = torch.ops.aten.sym_stride.int(x, 0)\n"
      "    return (b, c, s)\n");
  EXPECT_EQ(type_of(g, "b"), "Sym(?)");
  EXPECT_EQ(type_of(g, "c"), "Sym(?)");  // Python raises; nothing to infer
  EXPECT_EQ(type_of(g, "s"), "Sym(?)");
}

TEST(PythonBuiltins, InterpreterEvaluatesEveryBuiltin) {
  Graph g = typed_graph(kSymGraph);
  Tensor x = Tensor::zeros(DType::Float32, {5, 4});
  Tensor y = Tensor::zeros(DType::Float32, {3, 2}).transpose(0, 1);  // strides [1, 2]
  std::vector<RuntimeValue> in = {x, y};
  RunResult r = Interpreter(builtin()).run(g, in);
  ASSERT_EQ(r.outputs.size(), 14u);
  auto as_int = [&](size_t i) { return r.outputs[i].as_int(); };
  auto as_double = [&](size_t i) { return std::get<double>(r.outputs[i].v); };
  auto as_bool = [&](size_t i) { return std::get<bool>(r.outputs[i].v); };
  EXPECT_EQ(as_int(0), 9);        // 5 + 4
  EXPECT_EQ(as_int(1), 15);       // 20 - 5
  EXPECT_EQ(as_int(2), 15);       // 5 * 3
  EXPECT_EQ(as_int(3), 5);        // 20 // 4
  EXPECT_EQ(as_int(4), 0);        // 20 % 2
  EXPECT_EQ(as_int(5), -5);       // -5
  EXPECT_EQ(as_int(6), 25);       // 5 ** 2
  EXPECT_EQ(as_double(7), 2.5);   // 5 / 2
  EXPECT_EQ(as_double(8), 5.0);   // sym_float(5)
  EXPECT_EQ(as_double(9), 12.5);  // 5.0 * 2.5
  EXPECT_EQ(as_int(10), 12);      // int(12.5) truncates
  EXPECT_FALSE(as_bool(11));      // 5 == 4
  EXPECT_TRUE(as_bool(12));       // 5 < 20
  EXPECT_EQ(as_int(13), 2);       // stride of dim 1
}

}  // namespace
}  // namespace eqfuse
