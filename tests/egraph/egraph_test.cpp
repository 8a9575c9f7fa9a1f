// The e-graph itself (egraph/egraph.hpp): hashcons, merge and rebuild,
// constant leaves, payloads, and analysis facts and their conflicts.
#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"
#include "egraph/runner.hpp"
#include "tests/support/egraph_helpers.hpp"

namespace eqfuse {
namespace {

using test::simple_config;
using test::sym;

TEST(EGraphCore, HashconsSharesEqualNodes) {
  EGraph g;
  Id x = g.add(ENode::leaf("x"));
  Id y = g.add(ENode::leaf("y"));
  Id a = g.add(ENode(sym("+"), {x, y}));
  Id b = g.add(ENode(sym("+"), {x, y}));
  Id c = g.add(ENode(sym("+"), {y, x}));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_classes(), 4u);
  EXPECT_EQ(g.lookup(ENode(sym("+"), {x, y})), a);
  EXPECT_FALSE(g.lookup(ENode(sym("*"), {x, y})).has_value());
  g.rebuild();
  g.check_invariants();
}

TEST(EGraphCore, RebuildRestoresCongruence) {
  EGraph g;
  Id a = g.add_expr("a");
  Id b = g.add_expr("b");
  Id fa = g.add_expr("(f a)");
  Id fb = g.add_expr("(f b)");
  Id gfa = g.add_expr("(g (f a))");
  Id gfb = g.add_expr("(g (f b))");
  EXPECT_TRUE(g.merge(a, b));
  EXPECT_FALSE(g.merge(a, b));
  EXPECT_NE(g.find(fa), g.find(fb));  // deferred until rebuild
  size_t unions = g.rebuild();
  EXPECT_EQ(unions, 2u);  // (f a)=(f b), then (g ..)=(g ..)
  EXPECT_EQ(g.find(fa), g.find(fb));
  EXPECT_EQ(g.find(gfa), g.find(gfb));
  EXPECT_EQ(g.num_nodes(), 4u);
  EXPECT_EQ(g.num_classes(), 3u);
  g.check_invariants();
  // The log records the given union and the two congruences.
  ASSERT_EQ(g.union_log().size(), 3u);
  EXPECT_EQ(g.union_log()[0].kind, Reason::Kind::Given);
  EXPECT_EQ(g.union_log()[1].kind, Reason::Kind::Congruence);
}

TEST(EGraphCore, ConstantsArePayloadLeaves) {
  EGraph g;
  Id i3 = g.add_constant(Constant::integer(3));
  Id f3 = g.add_constant(Constant::floating(3.0));
  Id b1 = g.add_constant(Constant::boolean(true));
  Id dt = g.add_constant(Constant::dtype(DType::BFloat16));
  Id s = g.add_constant(Constant::string("npu"));
  std::vector<int64_t> shape{2, 3};
  Id l = g.add_constant(Constant::int_list(shape));
  Id none = g.add_constant(Constant::none());
  EXPECT_EQ(g.num_classes(), 7u);
  EXPECT_EQ(g.add_constant(Constant::integer(3)), i3);
  EXPECT_EQ(g.add_constant(Constant::int_list(shape)), l);
  EXPECT_EQ(g.constant_of(i3)->as_int(), 3);
  EXPECT_EQ(g.constant_of(f3)->as_float(), 3.0);
  EXPECT_TRUE(g.constant_of(b1)->as_bool());
  EXPECT_EQ(g.constant_of(dt)->as_dtype(), DType::BFloat16);
  EXPECT_EQ(g.constant_of(s)->as_string(), "npu");
  EXPECT_EQ(g.constant_of(l)->as_int_list(), shape);
  EXPECT_EQ(g.constant_of(none)->kind, ConstKind::None);
  // The parser spells them the same way.
  EXPECT_EQ(g.add_expr("3"), i3);
  EXPECT_EQ(g.add_expr("torch.bfloat16"), dt);
  EXPECT_EQ(g.add_expr("[2, 3]"), l);
  EXPECT_EQ(g.add_expr("\"npu\""), s);
  EXPECT_EQ(g.add_expr("None"), none);
  EXPECT_EQ(g.term_string(l), "[2,3]");
}

TEST(EGraphCore, PayloadSeparatesOtherwiseEqualNodes) {
  EGraph g;
  Id x = g.add_expr("x");
  Id s0 = g.add(sym("relu"), std::vector<Id>{x}, /*payload=*/0);
  Id s1 = g.add(sym("relu"), std::vector<Id>{x}, /*payload=*/1);
  EXPECT_NE(s0, s1);
}

// Constant-value analysis: a class knows its integer value if any node does.
class ConstValue : public TypedAnalysis<std::optional<int64_t>> {
 protected:
  std::optional<int64_t> make_data(const EGraph&, NodeView n) const override {
    if (auto c = n.constant(); c && c->kind == ConstKind::Int) return c->as_int();
    return std::nullopt;
  }
  bool merge_data(std::optional<int64_t>& into, const std::optional<int64_t>& from) const override {
    if (!from) return false;
    if (!into) {
      into = from;
      return true;
    }
    if (*into != *from) throw AnalysisConflict(fmt::format("{} != {}", *into, *from));
    return false;
  }
};

TEST(EGraphAnalysis, FactsMergeAndStayConsistent) {
  ConstValue an;
  EGraph g(&an);
  Id x = g.add_expr("x");
  Id two = g.add_expr("2");
  EXPECT_FALSE(an.data(x).has_value());
  g.merge(x, two);
  g.rebuild();
  EXPECT_EQ(an.data(g.find(x)), 2);
  g.check_invariants();
}

TEST(EGraphAnalysis, ConflictNamesTheRuleAndMatch) {
  ConstValue an;
  EGraph g(&an);
  g.add_expr("(+ 1 2)");
  // Deliberately unsound: claims 1 + ?b equals ?b.
  std::vector<Rewrite> rules;
  rules.push_back(Rewrite::parse("bogus-add-one", "(+ 1 ?b)", "?b"));
  rules.push_back(Rewrite::parse("bogus-fold", "(+ 1 2)", "1"));
  Runner runner(g, simple_config());
  try {
    runner.run(rules);
    FAIL() << "expected an analysis conflict";
  } catch (const Error& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("bogus-fold"), std::string::npos) << msg;
    EXPECT_NE(msg.find("1 != 2"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace eqfuse
