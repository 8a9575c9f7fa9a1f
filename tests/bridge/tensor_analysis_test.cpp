// The tensor analysis: facts from meta functions, constant folding,
// sym_size folding and conflicts that name the unsound rule.
#include "bridge/tensor_analysis.hpp"

#include <gtest/gtest.h>

#include "bridge/from_graph.hpp"
#include "egraph/runner.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/loaded_egraph.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

constexpr const char* kCast = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[4, s0]", y: "f16[4, s0]"):
        add: "f16[4, s0]" = torch.ops.aten.add.Tensor(x, y)
        to_f32: "f32[4, s0]" = torch.ops.aten._to_copy.default(add, dtype = torch.float32)
        size0 = torch.ops.aten.sym_size.int(add, 0)
        size1 = torch.ops.aten.sym_size.int(add, 1)
        return (to_f32, size0, size1)
)";

using Fixture = testing_support::LoadedEGraphOf;

TEST(TensorAnalysis, FactsComeFromMetaFunctions) {
  Fixture f(kCast);
  const TensorFact& add = f.fact("add");
  ASSERT_TRUE(add.type.is_tensor());
  EXPECT_EQ(add.type.tensor.dtype, DType::Float16);
  EXPECT_EQ(add.type.tensor.shape, (Shape{SymInt(4), SymInt::symbol("s0")}));
  const TensorFact& cast = f.fact("to_f32");
  ASSERT_TRUE(cast.type.is_tensor());
  EXPECT_EQ(cast.type.tensor.dtype, DType::Float32);
  EXPECT_EQ(f.types.describe(f.cls("to_f32")), "f32[4, s0]");
}

TEST(TensorAnalysis, SymSizeOfKnownDimFoldsToAConstantNode) {
  Fixture f(kCast);
  EXPECT_EQ(f.fact("size0").constant, 4);
  EXPECT_EQ(f.g.constant_of(f.cls("size0")), Constant::integer(4));
  EXPECT_EQ(f.fact("size1").constant, std::nullopt);
  ASSERT_EQ(f.fact("size1").type.kind, ValueType::Kind::SymInt);
  EXPECT_EQ(f.fact("size1").type.sym, SymInt::symbol("s0"));
}

TEST(TensorAnalysis, FoldsIntegerArithmetic) {
  TensorAnalysis types(builtin_registry());
  EGraph g(&types);
  Id e = g.add_expr("(* (+ 2 3) 4)");
  g.rebuild();
  g.check_invariants();
  EXPECT_EQ(types.data(g.find(e)).constant, 20);
  EXPECT_EQ(g.constant_of(e), Constant::integer(20));
}

TEST(TensorAnalysis, UnsoundRuleIsReportedByName) {
  Fixture f(kCast);
  // Claims a cast is the identity: merges an f16 class with an f32 one.
  size_t arity =
      builtin_registry().info(*builtin_registry().find("aten::_to_copy")).schema.args.size();
  std::string lhs = "(aten::_to_copy ?x";
  for (size_t i = 1; i < arity; ++i) lhs += fmt::format(" ?a{}", i);
  lhs += ")";
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse("cast-is-identity", lhs, "?x"));
  try {
    Runner(f.g).run(rules);
    FAIL() << "the unsound rule was not caught";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("cast-is-identity"), std::string::npos) << msg;
    EXPECT_NE(msg.find("dtype"), std::string::npos) << msg;
    EXPECT_NE(msg.find("?x="), std::string::npos) << msg;  // the match is named
  }
}

TEST(TensorAnalysis, ShapeAndConstantConflictsThrow) {
  TensorFact a{ValueType::of_tensor(DType::Float16, {SymInt(4), SymInt(8)}), std::nullopt};
  TensorFact b{ValueType::of_tensor(DType::Float16, {SymInt(4), SymInt(9)}), std::nullopt};
  TensorFact c{ValueType::of_tensor(DType::Float16, {SymInt(4)}), std::nullopt};
  TensorFact sym{ValueType::of_tensor(DType::Float16, {SymInt(4), SymInt::symbol("s0")}),
                 std::nullopt};
  TensorFact shifted{
      ValueType::of_tensor(DType::Float16, {SymInt(4), SymInt::symbol("s0") + SymInt(1)}),
      std::nullopt};
  TensorFact copy = a;
  EXPECT_THROW(TensorAnalysis::join(copy, b), AnalysisConflict);
  EXPECT_THROW(TensorAnalysis::join(copy, c), AnalysisConflict);
  EXPECT_FALSE(TensorAnalysis::join(copy, sym));  // s0 may be 8: no conflict
  TensorFact s = sym;
  EXPECT_THROW(TensorAnalysis::join(s, shifted), AnalysisConflict);
  TensorFact five{ValueType(), 5}, six{ValueType(), 6};
  EXPECT_THROW(TensorAnalysis::join(five, six), AnalysisConflict);
  TensorFact unknown;
  EXPECT_TRUE(TensorAnalysis::join(unknown, a));
  EXPECT_EQ(unknown, a);
}

TEST(TensorAnalysis, GivenMergeOfDifferentShapesIsAnError) {
  Fixture f(kCast);
  EXPECT_THROW(f.g.merge(f.cls("add"), f.cls("size0")), Error);
}

TEST(TensorAnalysis, UnknownOpsHaveNoFact) {
  TensorAnalysis types(builtin_registry());
  EGraph g(&types);
  Id e = g.add_expr("(frobnicate a)");
  g.rebuild();
  EXPECT_FALSE(types.data(e).type.is_known());
  EXPECT_EQ(types.describe(e), "");
}

// Two sizes holding the same symbolic int are one class when the optimize pipeline asks
// for it (set_merge_symbolic_ints), and stay apart by default (loading then emitting a
// graph gives it back node for node).
constexpr const char* kSizes = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, 8]", y: "f16[s0, 8]"):
        add: "f16[s0, 8]" = torch.ops.aten.add.Tensor(x, y)
        a = torch.ops.aten.sym_size.int(add, 0)
        b = torch.ops.aten.sym_size.int(x, 0)
        c = torch.ops.aten.sym_size.int(y, 1)
        return (a, b, c)
)";

TEST(TensorAnalysis, EqualSymbolicSizesMergeOnlyWhenAsked) {
  Fixture apart(kSizes);
  EXPECT_NE(apart.cls("a"), apart.cls("b"));

  Fixture merged(kSizes, {.merge_symbolic_ints = true});
  auto cls = [&](std::string_view n) { return merged.cls(n); };
  EXPECT_EQ(cls("a"), cls("b"));
  EXPECT_NE(cls("a"), cls("c"));  // c is the constant 8
  EXPECT_EQ(merged.fact("a").type.sym, SymInt::symbol("s0"));
}

}  // namespace
}  // namespace eqfuse
