// extract/components: mandatory classes, free classes, independent
// components and strongly connected classes, on small problems built by hand
// in the shape optimize produces (a multi-output fused kernel next to the
// kernels it replaces).
#include "extract/components.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "extract/checker.hpp"
#include "extract/extractor.hpp"
#include "extract/internal.hpp"

namespace eqfuse {
namespace {

// One fusion site: T = add_rms_norm(h, r) -> (y, x_out); DQ = quant(y) ->
// (q, scale); F = fused(h, r) -> (q, x_out, scale); out = matmul(q, scale,
// x_out). Returns the class of `out`. Costs: T 34, DQ 17, F 31, matmul 100.
struct Site {
  ClassId t, y, dq, q, scale, x_out, f, out;
};

Site add_site(ProblemBuilder& b, const std::string& tag, ClassId h, ClassId r) {
  Site s;
  auto cls = [&](const char* name) { return b.add_class(tag + name); };
  s.t = cls("T");
  s.y = cls("y");
  s.dq = cls("DQ");
  s.q = cls("q");
  s.scale = cls("scale");
  s.x_out = cls("x_out");
  s.f = cls("F");
  s.out = cls("out");
  const ClassId hr[] = {h, r};
  b.add_node("add_rms_norm", s.t, 34, hr);
  b.add_node("getitem0", s.y, 0, std::vector<ClassId>{s.t});
  b.add_node("dynamic_quant", s.dq, 17, std::vector<ClassId>{s.y});
  b.add_node("fused", s.f, 31, hr);
  for (ClassId via : {s.dq, s.f}) {
    b.add_node("getitem0", s.q, 0, std::vector<ClassId>{via});
    b.add_node("getitem1", s.scale, 0, std::vector<ClassId>{via});
  }
  b.add_node("getitem2", s.x_out, 0, std::vector<ClassId>{s.t});
  b.add_node("getitem2", s.x_out, 0, std::vector<ClassId>{s.f});
  const ClassId mm[] = {s.q, s.scale, s.x_out};
  b.add_node("matmul", s.out, 100, mm);
  return s;
}

ClassId add_leaf(ProblemBuilder& b, const std::string& name) {
  const ClassId c = b.add_class(name);
  b.add_node("placeholder", c, 0, {});
  return c;
}

TEST(ExtractComponents, AFusionSiteIsOneComponentAndItsInputsAreFree) {
  ProblemBuilder b;
  const ClassId h = add_leaf(b, "h"), r = add_leaf(b, "r");
  const Site s = add_site(b, "", h, r);
  b.add_root(s.out);
  const ExtractionProblem p = std::move(b).build();
  const Decomposition d = decompose(p, extract_detail::derivable_choice(p));
  // The matmul needs q, scale and x_out whatever is chosen; the kernels that
  // can produce them are alternatives.
  for (ClassId c : {s.out, s.q, s.scale, s.x_out}) EXPECT_TRUE(d.mandatory[c]) << c;
  for (ClassId c : {s.t, s.dq, s.f, s.y}) EXPECT_FALSE(d.mandatory[c]) << c;
  EXPECT_NE(d.free[h], kNoNode);
  EXPECT_EQ(d.component[h], -1);
  EXPECT_EQ(d.component[s.q], d.component[s.t]);
  EXPECT_EQ(d.component[s.q], d.component[s.f]);
  EXPECT_NE(d.component[s.out], d.component[s.q]);  // the matmul couples nothing
}

TEST(ExtractComponents, AutoProvesTheFusedSiteOptimal) {
  ProblemBuilder b;
  const ClassId h = add_leaf(b, "h"), r = add_leaf(b, "r");
  const Site s = add_site(b, "", h, r);
  b.add_root(s.out);
  const ExtractionProblem p = std::move(b).build();
  const Extraction x = extract(p, "auto");
  EXPECT_TRUE(x.optimal);
  EXPECT_DOUBLE_EQ(x.dag_cost, 131.0);  // fused 31 + matmul 100 (unfused: 34 + 17 + 100)
  EXPECT_DOUBLE_EQ(x.lower_bound, 131.0);
  EXPECT_EQ(p.node_op(x.choice[s.x_out]), "getitem2");
  EXPECT_EQ(x.choice[s.t], kNoNode);  // the unfused kernels are gone
  EXPECT_EQ(x.choice[s.dq], kNoNode);
}

TEST(ExtractComponents, ChainedSitesSplitIntoOneComponentPerSite) {
  ProblemBuilder b;
  ClassId h = add_leaf(b, "h"), r = add_leaf(b, "r");
  std::vector<Site> sites;
  for (int k = 0; k < 5; ++k) {
    sites.push_back(add_site(b, fmt::format("s{}.", k), h, r));
    h = sites.back().out;  // the next site reads this site's output and residual
    r = sites.back().x_out;
  }
  b.add_root(sites.back().out);
  b.add_root(sites.back().x_out);
  const ExtractionProblem p = std::move(b).build();
  const Decomposition d = decompose(p, extract_detail::derivable_choice(p));
  std::vector<int> site_components;
  for (const Site& s : sites) {
    EXPECT_TRUE(d.mandatory[s.x_out]);
    site_components.push_back(d.component[s.f]);
  }
  std::sort(site_components.begin(), site_components.end());
  EXPECT_EQ(std::unique(site_components.begin(), site_components.end()), site_components.end());
  const Extraction x = extract(p, "auto");
  EXPECT_TRUE(x.optimal);
  EXPECT_DOUBLE_EQ(x.dag_cost, 5 * 131.0);
  EXPECT_DOUBLE_EQ(extract(p, "ilp").dag_cost, x.dag_cost);
  EXPECT_DOUBLE_EQ(extract(p, "greedy-dag").dag_cost, x.dag_cost);
}

TEST(ExtractComponents, ACycleIsOneStronglyConnectedComponent) {
  // x = transpose(transpose(x)): classes x and t(x) reach each other.
  ProblemBuilder b;
  const ClassId leaf = add_leaf(b, "in");
  const ClassId x = b.add_class("x"), t = b.add_class("t"), out = b.add_class("out");
  b.add_node("relu", x, 1, std::vector<ClassId>{leaf});
  b.add_node("transpose", t, 1, std::vector<ClassId>{x});
  b.add_node("transpose", x, 1, std::vector<ClassId>{t});
  b.add_node("sum", out, 1, std::vector<ClassId>{x});
  b.add_root(out);
  const ExtractionProblem p = std::move(b).build();
  const auto scc = strongly_connected_classes(p);
  EXPECT_EQ(scc[x], scc[t]);
  EXPECT_NE(scc[x], scc[out]);
  EXPECT_NE(scc[x], scc[leaf]);
  for (const std::string& name : extractor_names()) {
    const Extraction e = extract(p, name);
    EXPECT_DOUBLE_EQ(e.dag_cost, 2.0) << name;  // sum(relu(in)); the transposes never pay
  }
}

TEST(ExtractComponents, ZeroCostConstantsSharedEverywhereCoupleNothing) {
  // Every fused kernel reads the same constant (an output mask): were it a
  // coupling class, all sites would form one component.
  ProblemBuilder b;
  ClassId h = add_leaf(b, "h"), r = add_leaf(b, "r");
  const ClassId mask = b.add_class("mask");
  b.add_node("prim::list", mask, 0, std::vector<ClassId>{add_leaf(b, "true")});
  std::vector<Site> sites;
  for (int k = 0; k < 3; ++k) {
    sites.push_back(add_site(b, fmt::format("s{}.", k), h, r));
    b.add_node("fused_masked", sites.back().f, 31, std::vector<ClassId>{h, r, mask});
    h = sites.back().out;
    r = sites.back().x_out;
  }
  b.add_root(h);
  const ExtractionProblem p = std::move(b).build();
  const Decomposition d = decompose(p, extract_detail::derivable_choice(p));
  EXPECT_NE(d.free[mask], kNoNode);
  EXPECT_NE(d.component[sites[0].f], d.component[sites[2].f]);
}

}  // namespace
}  // namespace eqfuse

namespace eqfuse {
namespace {

// 600 chained sites: tree costs overflow (they double per site), which once
// made the exact solver drop every class as "not derivable" and then claim
// optimality for what remained.
TEST(ExtractComponents, DeepChainsStayExactAndHonest) {
  constexpr int kSites = 600;
  ProblemBuilder b;
  ClassId h = add_leaf(b, "h"), r = add_leaf(b, "r");
  for (int k = 0; k < kSites; ++k) {
    const Site s = add_site(b, fmt::format("s{}.", k), h, r);
    h = s.out;
    r = s.x_out;
  }
  b.add_root(h);
  b.add_root(r);
  const ExtractionProblem p = std::move(b).build();
  const double optimum = kSites * 131.0;
  const Extraction by_components = extract(p, "auto");
  EXPECT_TRUE(by_components.optimal);
  EXPECT_DOUBLE_EQ(by_components.dag_cost, optimum);
  EXPECT_DOUBLE_EQ(extract(p, "greedy-dag").dag_cost, optimum);
  EXPECT_TRUE(check_extraction(p, extract(p, "bottom-up").choice).valid);
  ExtractOptions opt;
  opt.time_limit_s = 1.5;
  const Extraction exact = extract(p, "ilp", opt);
  EXPECT_TRUE(check_extraction(p, exact.choice).valid);
  if (exact.optimal) {
    EXPECT_NEAR(exact.dag_cost, optimum, 1e-6);
  }
  EXPECT_LE(exact.lower_bound, optimum + 1e-6);
}

}  // namespace
}  // namespace eqfuse
