// extract/ilp_cbc.cpp: what the exact solver claims, and what it refuses.
#include <gtest/gtest.h>

#include "extract/checker.hpp"
#include "extract/extractor.hpp"

namespace eqfuse {
namespace {

TEST(IlpCbc, CostsBeyondWhatCbcHandlesSkipTheSolverInsteadOfAborting) {
  // CLP aborts the process on objective coefficients of 1e25 and more.
  ProblemBuilder b;
  const ClassId x = b.add_class("x"), y = b.add_class("y");
  b.add_node("placeholder", x, 0, {});
  b.add_node("neg", y, 6.7e26, std::vector<ClassId>{x});
  b.add_node("neg_inplace", y, 7e26, std::vector<ClassId>{x});
  b.add_root(y);
  const ExtractionProblem p = std::move(b).build();
  const Extraction e = extract(p, "ilp");
  EXPECT_TRUE(check_extraction(p, e.choice).valid);
  EXPECT_FALSE(e.optimal);
  EXPECT_DOUBLE_EQ(e.dag_cost, 6.7e26);  // greedy-dag's answer
  EXPECT_NE(e.stopped_by.find("solver skipped"), std::string::npos) << e.stopped_by;
}

TEST(IlpCbc, AProvenOptimumComesWithItsBound) {
  // choice between a shared and an unshared derivation: the exact solver
  // must see that sharing wins.
  ProblemBuilder b;
  const ClassId leaf = b.add_class("leaf"), s = b.add_class("shared"), a = b.add_class("a"),
                c = b.add_class("c"), root = b.add_class("root");
  b.add_node("placeholder", leaf, 0, {});
  b.add_node("expensive", s, 10, std::vector<ClassId>{leaf});
  b.add_node("use_shared", a, 1, std::vector<ClassId>{s});
  b.add_node("own", a, 7, std::vector<ClassId>{leaf});
  b.add_node("use_shared", c, 1, std::vector<ClassId>{s});
  b.add_node("own", c, 7, std::vector<ClassId>{leaf});
  b.add_node("pair", root, 1, std::vector<ClassId>{a, c});
  b.add_root(root);
  const ExtractionProblem p = std::move(b).build();
  const Extraction e = extract(p, "ilp");
  EXPECT_TRUE(e.optimal);
  EXPECT_DOUBLE_EQ(e.dag_cost, 13.0);  // 10 + 1 + 1 + 1 (unshared: 7 + 7 + 1 = 15)
  EXPECT_DOUBLE_EQ(e.lower_bound, e.dag_cost);
  EXPECT_DOUBLE_EQ(optimality_gap(e), 0.0);
  EXPECT_EQ(e.stopped_by, "");
}

}  // namespace
}  // namespace eqfuse
