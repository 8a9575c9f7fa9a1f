// ctest-label: property
// The guarantees of extraction, on random model-shaped e-graphs:
//  - every extractor returns a valid extraction that never costs more than
//    a known initial one (what optimize passes: the input graph);
//  - "proven optimal" is only claimed for the exact optimum (checked against
//    the monolithic CBC model), and a reported lower bound never exceeds it;
//  - greedy-dag is never costlier than extraction-gym's faster-greedy-dag.
// A random problem is a chain of blocks; each block holds fusion sites (a
// multi-output fused kernel that can replace two kernels, with random costs
// so either side may win), optional layout cycles (transpose pairs), and
// weights some blocks share with the previous one.
#include <random>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "extract/checker.hpp"
#include "extract/extractor.hpp"

namespace eqfuse {
namespace {

struct RandomModel {
  ExtractionProblem problem;
  std::vector<NodeId> input;  // the "unfused" extraction, as a loaded graph would give
};

class ModelBuilder {
 public:
  explicit ModelBuilder(std::uint64_t seed) : rng_(seed) {}

  RandomModel build(int blocks) {
    ClassId h = leaf("h0"), r = leaf("r0");
    ClassId shared_weight = leaf("w0");
    for (int k = 0; k < blocks; ++k) {
      const std::string tag = fmt::format("b{}.", k);
      if (coin(0.3)) shared_weight = weight(tag + "w", shared_weight);
      const int sites = 1 + static_cast<int>(rng_() % 2);
      for (int s = 0; s < sites; ++s) {
        const auto [out, x_out] = site(fmt::format("{}{}.", tag, s), h, r, shared_weight);
        h = out;
        r = x_out;
      }
      if (coin(0.4)) h = layout_cycle(tag, h);
    }
    b_.add_root(h);
    b_.add_root(r);
    RandomModel m;
    m.problem = std::move(b_).build();
    m.input.assign(m.problem.num_classes(), kNoNode);
    for (const auto& [c, n] : input_) m.input[c] = n;
    return m;
  }

 private:
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  double cost(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }

  ClassId leaf(const std::string& name) {
    const ClassId c = b_.add_class(name);
    input_.emplace_back(c, b_node("placeholder", c, 0, {}));
    return c;
  }
  NodeId b_node(const char* op, ClassId c, double cost, std::vector<ClassId> kids) {
    return b_.add_node(op, c, cost, kids);
  }

  // A weight that is either the previous block's (shared) or a cast of it.
  ClassId weight(const std::string& name, ClassId previous) {
    const ClassId c = b_.add_class(name);
    input_.emplace_back(c, b_node("cast", c, cost(1, 5), {previous}));
    b_node("placeholder_copy", c, cost(3, 8), {});
    return c;
  }

  // norm -> quant -> matmul, with a fused norm+quant alternative that also
  // yields the residual. Returns (matmul output, residual).
  std::pair<ClassId, ClassId> site(const std::string& tag, ClassId h, ClassId r, ClassId w) {
    auto cls = [&](const char* n) { return b_.add_class(tag + n); };
    const ClassId t = cls("T"), y = cls("y"), dq = cls("DQ"), q = cls("q"), s = cls("scale"),
                  x_out = cls("x_out"), f = cls("F"), out = cls("out");
    input_.emplace_back(t, b_node("norm", t, cost(10, 40), {h, r}));
    input_.emplace_back(y, b_node("getitem", y, 0, {t}));
    input_.emplace_back(dq, b_node("quant", dq, cost(5, 25), {y}));
    input_.emplace_back(q, b_node("getitem", q, 0, {dq}));
    input_.emplace_back(s, b_node("getitem", s, 0, {dq}));
    input_.emplace_back(x_out, b_node("getitem", x_out, 0, {t}));
    b_node("fused", f, cost(15, 70), {h, r});
    b_node("getitem", q, 0, {f});
    b_node("getitem", s, 0, {f});
    b_node("getitem", x_out, 0, {f});
    if (coin(0.3)) b_node("add", x_out, cost(5, 30), {h, r});  // the residual recomputed
    input_.emplace_back(out, b_node("matmul", out, cost(50, 100), {q, s, w}));
    if (coin(0.2)) {
      // y also feeds a second consumer: fusing then keeps T alive.
      const ClassId extra = cls("extra");
      input_.emplace_back(extra, b_node("cast", extra, cost(2, 6), {y}));
      b_.add_root(extra);
    }
    return {out, x_out};
  }

  // x = transpose(transpose(x)): a cycle every extractor must avoid.
  ClassId layout_cycle(const std::string& tag, ClassId x) {
    const ClassId t = b_.add_class(tag + "t");
    const ClassId y = b_.add_class(tag + "relu");
    input_.emplace_back(y, b_node("relu", y, cost(1, 4), {x}));
    b_node("transpose", t, cost(2, 6), {y});
    b_node("transpose", y, cost(2, 6), {t});
    return y;
  }

  std::mt19937_64 rng_;
  ProblemBuilder b_;
  std::vector<std::pair<ClassId, NodeId>> input_;
};

double tolerance(double v) {
  return 1e-7 * std::max(1.0, std::abs(v));
}

TEST(ExtractGuarantee, NoExtractorIsCostlierThanTheInitialExtraction) {
  for (std::uint64_t seed = 0; seed < 40; ++seed) {
    const RandomModel m = ModelBuilder(seed).build(3 + static_cast<int>(seed % 20));
    const double input_cost = dag_cost(m.problem, m.input);
    ASSERT_TRUE(std::isfinite(input_cost)) << seed;
    ExtractOptions opt;
    opt.initial = m.input;
    opt.time_limit_s = 20;
    for (const std::string& name : extractor_names()) {
      const Extraction x = extract(m.problem, name, opt);
      const CheckResult check = check_extraction(m.problem, x.choice);
      EXPECT_TRUE(check.valid) << name << " seed " << seed << ": " << check.message;
      EXPECT_LE(x.dag_cost, input_cost + tolerance(input_cost)) << name << " seed " << seed;
      EXPECT_LE(x.lower_bound, x.dag_cost + tolerance(x.dag_cost)) << name << " seed " << seed;
    }
  }
}

TEST(ExtractGuarantee, ProvenOptimalMeansTheExactOptimum) {
  for (std::uint64_t seed = 100; seed < 130; ++seed) {
    const RandomModel m = ModelBuilder(seed).build(2 + static_cast<int>(seed % 12));
    ExtractOptions opt;
    opt.time_limit_s = 30;
    const Extraction exact = extract(m.problem, "ilp", opt);
    ASSERT_TRUE(exact.optimal) << "seed " << seed << ": the reference did not finish";
    for (const std::string& name : extractor_names()) {
      const Extraction x = extract(m.problem, name, opt);
      EXPECT_GE(x.dag_cost, exact.dag_cost - tolerance(exact.dag_cost)) << name << " " << seed;
      EXPECT_LE(x.lower_bound, exact.dag_cost + tolerance(exact.dag_cost)) << name << " " << seed;
      if (x.optimal) {
        EXPECT_NEAR(x.dag_cost, exact.dag_cost, tolerance(exact.dag_cost)) << name << " " << seed;
      }
    }
    // On model-shaped problems the components are small: auto proves the optimum.
    const Extraction by_components = extract(m.problem, "auto", opt);
    EXPECT_TRUE(by_components.optimal) << "seed " << seed;
    EXPECT_NEAR(by_components.dag_cost, exact.dag_cost, tolerance(exact.dag_cost)) << seed;
  }
}

TEST(ExtractGuarantee, GreedyDagNeverLosesToFasterGreedyDag) {
  for (std::uint64_t seed = 200; seed < 260; ++seed) {
    const RandomModel m = ModelBuilder(seed).build(1 + static_cast<int>(seed % 30));
    const Extraction greedy = extract(m.problem, "greedy-dag");
    Extraction reference;
    try {
      reference = extract(m.problem, "faster-greedy-dag");
    } catch (const Error&) {
      continue;  // its choice was cyclic: nothing to compare with
    }
    EXPECT_LE(greedy.dag_cost, reference.dag_cost + tolerance(reference.dag_cost)) << seed;
  }
}

TEST(ExtractGuarantee, AnExpiredTimeLimitStillReturnsTheBestKnownExtraction) {
  const RandomModel m = ModelBuilder(7).build(40);
  ExtractOptions opt;
  opt.initial = m.input;
  opt.time_limit_s = 1e-9;  // expired before the exact phases start
  for (const char* name : {"ilp", "auto"}) {
    const Extraction x = extract(m.problem, name, opt);
    EXPECT_TRUE(check_extraction(m.problem, x.choice).valid) << name;
    EXPECT_LE(x.dag_cost, dag_cost(m.problem, m.input) + 1e-6) << name;
    EXPECT_FALSE(x.optimal) << name;
    EXPECT_EQ(x.stopped_by, "time limit") << name;
  }
}

}  // namespace
}  // namespace eqfuse
