// extract/bottom_up.cpp: tree-cost optimal extraction (egg's default). It
// pays a shared subterm once per use, settles classes cheapest first, skips
// nodes that only a cycle can derive, and says which root has no finite
// acyclic choice.
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "extract/checker.hpp"
#include "extract/extractor.hpp"

namespace eqfuse {
namespace {

// x = leaf (1); s = shared(x) (10) or cheap_alt(x) (12);
// a = f(s, s) (1) or g(x) (25). Per tree cost, f(s, s) pays s twice:
// 1 + 2 * (10 + 1) = 23 < 25 + 1 = 26, so f wins; the DAG cost of that
// choice is 1 + 10 + 1 = 12.
struct SharedProblem {
  ProblemBuilder b;
  ClassId x, s, a;
  NodeId leaf, shared, cheap_alt, f, g;
  ExtractionProblem build() {
    x = b.add_class("x");
    s = b.add_class("s");
    a = b.add_class("a");
    leaf = b.add_node("leaf", x, 1, {});
    shared = b.add_node("shared", s, 10, std::vector<ClassId>{x});
    cheap_alt = b.add_node("cheap_alt", s, 12, std::vector<ClassId>{x});
    f = b.add_node("f", a, 1, std::vector<ClassId>{s, s});
    g = b.add_node("g", a, 25, std::vector<ClassId>{x});
    b.add_root(a);
    return std::move(b).build();
  }
};

TEST(BottomUp, PicksTheTreeCostOptimumPerClass) {
  SharedProblem sp;
  const ExtractionProblem p = sp.build();
  const Extraction e = extract_bottom_up(p);
  EXPECT_EQ(e.choice[sp.a], sp.f);
  EXPECT_EQ(e.choice[sp.s], sp.shared);
  EXPECT_DOUBLE_EQ(e.tree_cost, 23.0);
  EXPECT_DOUBLE_EQ(e.dag_cost, 12.0);
  EXPECT_FALSE(e.optimal);  // only the exact extractors claim optimality
  EXPECT_TRUE(check_extraction(p, e.choice).valid);
}

TEST(BottomUp, SkipsNodesOnlyACycleDerives) {
  // c = loop(c) (0) or base() (5): the free loop never settles, so base wins.
  ProblemBuilder b;
  const ClassId c = b.add_class("c");
  b.add_node("loop", c, 0, std::vector<ClassId>{c});
  const NodeId base = b.add_node("base", c, 5, {});
  b.add_root(c);
  const ExtractionProblem p = std::move(b).build();
  const Extraction e = extract_bottom_up(p);
  EXPECT_EQ(e.choice[c], base);
  EXPECT_DOUBLE_EQ(e.dag_cost, 5.0);
}

TEST(BottomUp, ClassesTheRootsDoNotReachStayUnchosen) {
  ProblemBuilder b;
  const ClassId r = b.add_class("r");
  const ClassId other = b.add_class("other");
  b.add_node("root", r, 2, {});
  b.add_node("unused", other, 1, {});
  b.add_root(r);
  const ExtractionProblem p = std::move(b).build();
  const Extraction e = extract_bottom_up(p);
  EXPECT_NE(e.choice[r], kNoNode);
  EXPECT_EQ(e.choice[other], kNoNode);
  EXPECT_DOUBLE_EQ(e.dag_cost, 2.0);
}

TEST(BottomUp, ARootWithoutAnAcyclicChoiceIsAnError) {
  ProblemBuilder b;
  const ClassId c = b.add_class("only_cyclic");
  b.add_node("loop", c, 1, std::vector<ClassId>{c});
  b.add_root(c);
  const ExtractionProblem p = std::move(b).build();
  try {
    extract_bottom_up(p);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("only_cyclic"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace eqfuse
