// ctest-label: golden
// `optimize` on stacks of quantized decoder blocks (bench/workloads/
// decoder_stack.hpp) at several depths, with every extractor: the output is
// never costlier than the input, the default fuses every site at every depth
// and proves it optimal, and small stacks are checked against their input with
// the reference interpreter. Timing lives in bench/ (docs/benchmarks.md).
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "bench/workloads/decoder_stack.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

Graph stack(int blocks, const std::string& tokens = "4") {
  const std::string fx =
      workloads::decoder_stack_fx({.blocks = blocks, .hidden = 128, .tokens = tokens});
  return load_graph(fx, "decoder_stack.fx", builtin_registry()).graph;
}

OptimizeResult optimize_with(const Graph& g, const std::string& extractor) {
  OptimizeOptions opt;
  opt.extractor = extractor;
  return optimize_graph(g, builtin_registry(), opt);
}

class DecoderStack : public ::testing::TestWithParam<int> {};

TEST_P(DecoderStack, TheDefaultFusesEverySiteAndProvesIt) {
  const int blocks = GetParam();
  const Graph g = stack(blocks);
  const OptimizeResult r = optimize_with(g, "auto");
  EXPECT_TRUE(r.stats.extraction_optimal);
  EXPECT_EQ(r.stats.kept_input, "");
  EXPECT_EQ(r.stats.kernels_before, 7u * blocks);
  EXPECT_EQ(r.stats.kernels_after, 5u * blocks);  // two fused sites per block
  EXPECT_EQ(r.stats.fusions.at("torchair/add-rms-norm-dynamic-quant"), static_cast<size_t>(blocks));
  EXPECT_EQ(r.stats.fusions.at("torchair/add-rms-norm-quant"), static_cast<size_t>(blocks));
  EXPECT_LT(r.stats.cost_after_us, r.stats.cost_before_us);
}

TEST_P(DecoderStack, NoExtractorReturnsACostlierGraph) {
  const int blocks = GetParam();
  const Graph g = stack(blocks);
  const double optimum = optimize_with(g, "auto").stats.cost_after_us;
  for (const char* name : {"bottom-up", "greedy-dag", "faster-greedy-dag", "ilp"}) {
    if (std::string(name) == "ilp" && blocks > 8) continue;  // the monolithic model is slow
    const OptimizeResult r = optimize_with(g, name);
    EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us + 1e-6) << name;
    EXPECT_GE(r.stats.cost_after_us, optimum - 1e-6) << name;
    if (r.stats.cost_after_us >= r.stats.cost_before_us - 1e-9) {
      EXPECT_NE(r.stats.kept_input, "") << name << ": an unchanged cost is reported";
    }
  }
  // greedy-dag reaches the optimum on these e-graphs at every depth.
  EXPECT_NEAR(optimize_with(g, "greedy-dag").stats.cost_after_us, optimum, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(Depths, DecoderStack, ::testing::Values(1, 8, 61, 150));

TEST(DecoderStackEquivalence, OptimizedSmallStacksComputeWhatTheInputDoes) {
  for (int blocks : {1, 3}) {
    const Graph g = stack(blocks);
    for (const char* name : {"auto", "greedy-dag", "ilp"}) {
      const OptimizeResult r = optimize_with(g, name);
      EquivalenceOptions eo;
      eo.mode = ToleranceMode::Rounding;  // fused quantization rounds like the unfused chain
      const EquivalenceResult eq = equivalent(g, r.graph, builtin_registry(), eo);
      EXPECT_TRUE(eq.ok) << blocks << " blocks, " << name << ": " << eq.first_mismatch;
    }
  }
}

TEST(DecoderStackReports, ExplainSaysHowTheExtractionWasFoundAndWhenTheInputWasKept) {
  const Graph g = stack(61);
  const OptimizeResult best = optimize_with(g, "auto");
  const std::string text = format_explanation_text(explain_run(best, builtin_registry()));
  EXPECT_NE(text.find("extraction: auto (proven optimal)\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("kept the input graph"), std::string::npos);
  // faster-greedy-dag finds nothing cheaper than the input on this stack.
  const OptimizeResult kept = optimize_with(g, "faster-greedy-dag");
  ASSERT_NE(kept.stats.kept_input, "");
  EXPECT_DOUBLE_EQ(kept.stats.cost_after_us, kept.stats.cost_before_us);
  const auto json =
      nlohmann::json::parse(explanation_to_json(explain_run(kept, builtin_registry())));
  EXPECT_EQ(json.at("extraction").at("kept_input"), "no cheaper graph found by faster-greedy-dag");
  EXPECT_EQ(json.at("extraction").at("quality"), "not proven optimal, no lower bound");
  EXPECT_NE(format_summary(kept.stats).find("  kept input   no cheaper graph found"),
            std::string::npos);
}

TEST(DecoderStackEquivalence, SymbolicTokensGiveTheSameDecisions) {
  const OptimizeResult r = optimize_with(stack(20, "s0"), "auto");
  EXPECT_TRUE(r.stats.extraction_optimal);
  EXPECT_EQ(r.stats.kernels_after, 5u * 20);
}

}  // namespace
}  // namespace eqfuse
