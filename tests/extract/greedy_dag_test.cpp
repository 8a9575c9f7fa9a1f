// extract/greedy_dag.cpp: the local search must find a fused multi-output
// kernel that pays off only once all of its outputs' users switch to it,
// starting from the unfused graph (what optimize passes as the initial
// extraction).
#include <gtest/gtest.h>

#include "extract/extractor.hpp"

namespace eqfuse {
namespace {

TEST(GreedyDag, SwitchesEveryUserOfAFusedKernelFromTheUnfusedStart) {
  // T = norm(h, r) -> (y, x_out); DQ = quant(y) -> (q, scale);
  // F = fused(h, r) -> (q, scale, x_out); out = matmul(q, scale, x_out).
  // Every single switch costs more (q alone revives F, +31, and frees
  // nothing); the three together save 20.
  ProblemBuilder b;
  auto cls = [&](const char* n) { return b.add_class(n); };
  const ClassId h = cls("h"), r = cls("r"), t = cls("T"), y = cls("y"), dq = cls("DQ"),
                q = cls("q"), scale = cls("scale"), x_out = cls("x_out"), f = cls("F"),
                out = cls("out");
  std::vector<NodeId> input(16, kNoNode);  // resized to the problem below
  input[h] = b.add_node("placeholder", h, 0, {});
  input[r] = b.add_node("placeholder", r, 0, {});
  input[t] = b.add_node("norm", t, 34, std::vector<ClassId>{h, r});
  input[y] = b.add_node("getitem", y, 0, std::vector<ClassId>{t});
  input[dq] = b.add_node("quant", dq, 17, std::vector<ClassId>{y});
  input[q] = b.add_node("getitem", q, 0, std::vector<ClassId>{dq});
  input[scale] = b.add_node("getitem", scale, 0, std::vector<ClassId>{dq});
  input[x_out] = b.add_node("getitem", x_out, 0, std::vector<ClassId>{t});
  input[out] = b.add_node("matmul", out, 100, std::vector<ClassId>{q, scale, x_out});
  const NodeId fused = b.add_node("fused", f, 31, std::vector<ClassId>{h, r});
  for (ClassId c : {q, x_out, scale}) b.add_node("getitem", c, 0, std::vector<ClassId>{f});
  b.add_root(out);
  const ExtractionProblem p = std::move(b).build();
  input.resize(p.num_classes());
  ASSERT_DOUBLE_EQ(dag_cost(p, input), 151.0);
  // The local search alone, from the unfused choice (with a node for the
  // unused fused class, which it needs to consider switching to it).
  std::vector<NodeId> start = input;
  start[f] = fused;
  EXPECT_DOUBLE_EQ(dag_cost(p, improve_dag_cost(p, start, 10.0)), 131.0);
  ExtractOptions opt;
  opt.initial = input;
  const Extraction e = extract(p, "greedy-dag", opt);
  EXPECT_DOUBLE_EQ(e.dag_cost, 131.0);
  EXPECT_EQ(e.choice[t], kNoNode);
  EXPECT_EQ(e.choice[dq], kNoNode);
}

}  // namespace
}  // namespace eqfuse
