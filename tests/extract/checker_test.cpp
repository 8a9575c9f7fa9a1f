// check_extraction: accepts valid choices and names what is wrong otherwise.
#include <gtest/gtest.h>

#include "extract/checker.hpp"
#include "extract/extractor.hpp"

namespace eqfuse {
namespace {

// root r: f(a, b) | g(r)   (g is a self-loop through r)
// a:      x | h(b)
// b:      y | k(a)          (a and b form a cycle through h and k)
struct Fixture {
  ExtractionProblem p;
  ClassId r, a, b;
  NodeId f, g, x, h, y, k;
  Fixture() {
    ProblemBuilder pb;
    r = pb.add_class("r");
    a = pb.add_class("a");
    b = pb.add_class("b");
    const std::vector<ClassId> ab = {a, b}, rr = {r}, bb = {b}, aa = {a};
    f = pb.add_node("f", r, 1, ab, "f");
    g = pb.add_node("g", r, 1, rr, "g");
    x = pb.add_node("x", a, 5, {}, "x");
    h = pb.add_node("h", a, 1, bb, "h");
    y = pb.add_node("y", b, 5, {}, "y");
    k = pb.add_node("k", b, 1, aa, "k");
    pb.add_root(r);
    p = std::move(pb).build();
  }
  std::vector<NodeId> choose(NodeId nr, NodeId na, NodeId nb) const {
    std::vector<NodeId> c(3, kNoNode);
    c[r] = nr;
    c[a] = na;
    c[b] = nb;
    return c;
  }
};

TEST(ExtractChecker, AcceptsValidChoices) {
  Fixture t;
  EXPECT_TRUE(check_extraction(t.p, t.choose(t.f, t.x, t.y)).valid);
  EXPECT_TRUE(check_extraction(t.p, t.choose(t.f, t.h, t.y)).valid);
  EXPECT_TRUE(check_extraction(t.p, t.choose(t.f, t.x, t.k)).valid);
  EXPECT_EQ(check_extraction(t.p, t.choose(t.f, t.x, t.y)).message, "");
}

TEST(ExtractChecker, RejectsCycles) {
  Fixture t;
  const auto two = check_extraction(t.p, t.choose(t.f, t.h, t.k));
  EXPECT_FALSE(two.valid);
  EXPECT_NE(two.message.find("cycle"), std::string::npos) << two.message;
  EXPECT_NE(two.message.find("'a'"), std::string::npos) << two.message;
  EXPECT_NE(two.message.find("'b'"), std::string::npos) << two.message;
  const auto self = check_extraction(t.p, t.choose(t.g, t.x, t.y));
  EXPECT_FALSE(self.valid);
  EXPECT_NE(self.message.find("cycle through classes 'r' -> 'r'"), std::string::npos)
      << self.message;
}

TEST(ExtractChecker, RejectsMissingClasses) {
  Fixture t;
  const auto missing_child = check_extraction(t.p, t.choose(t.f, t.x, kNoNode));
  EXPECT_FALSE(missing_child.valid);
  EXPECT_NE(missing_child.message.find("class 'b'"), std::string::npos) << missing_child.message;
  const auto missing_root = check_extraction(t.p, t.choose(kNoNode, t.x, t.y));
  EXPECT_FALSE(missing_root.valid);
  EXPECT_NE(missing_root.message.find("root class 'r'"), std::string::npos);
  EXPECT_FALSE(check_extraction(t.p, std::vector<NodeId>(2, kNoNode)).valid);
}

TEST(ExtractChecker, RejectsNodeOfWrongClass) {
  Fixture t;
  const auto wrong = check_extraction(t.p, t.choose(t.f, t.y, t.y));
  EXPECT_FALSE(wrong.valid);
  EXPECT_NE(wrong.message.find("class 'a' chooses node 'y' of class 'b'"), std::string::npos)
      << wrong.message;
  EXPECT_FALSE(check_extraction(t.p, t.choose(t.f, 99, t.y)).valid);
}

TEST(ExtractChecker, UnreachableClassesAreIgnored) {
  Fixture t;
  // r -> f -> (a: x, b: y); a cycle h/k would only matter if reachable.
  std::vector<NodeId> c = t.choose(t.f, t.x, t.y);
  EXPECT_TRUE(check_extraction(t.p, c).valid);
  EXPECT_DOUBLE_EQ(dag_cost(t.p, c), 11.0);
  EXPECT_DOUBLE_EQ(tree_cost(t.p, c), 11.0);
}

TEST(ExtractCosts, TreeCostCountsSharingPerUse) {
  ProblemBuilder pb;
  const ClassId leaf = pb.add_class("leaf"), mid = pb.add_class("mid"), top = pb.add_class("top");
  const std::vector<ClassId> ll = {leaf, leaf}, mm = {mid, mid};
  const NodeId l = pb.add_node("l", leaf, 3, {});
  const NodeId m = pb.add_node("m", mid, 1, ll);
  const NodeId t = pb.add_node("t", top, 1, mm);
  pb.add_root(top);
  const auto p = std::move(pb).build();
  const std::vector<NodeId> c = {l, m, t};
  EXPECT_DOUBLE_EQ(dag_cost(p, c), 5.0);
  EXPECT_DOUBLE_EQ(tree_cost(p, c), 1 + 2 * (1 + 2 * 3));
}

}  // namespace
}  // namespace eqfuse
