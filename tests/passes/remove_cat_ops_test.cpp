// ctest-label: golden
// remove_cat_ops (docs/reference/torchair-passes.md §4.4, passes/remove_cat_ops.hpp):
// the rewrite on a cat of matmul and add results, each condition that keeps a cat, the
// cost it saves, and the pass inside `optimize` (reduce-overhead only, switchable by
// TorchAir's config keys). Rewritten graphs are checked against their input with the
// reference interpreter.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cost/cost_model.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "passes/remove_cat_ops.hpp"
#include "pipeline/explain/reinplace.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing_support::builtin_registry;

// Two experts' tokens, one with a bias, concatenated along the tokens.
const char* const kTwoExperts = R"(class f(torch.nn.Module):
    def forward(self, x: "f32[8, 64]", w1: "f32[64, 32]", w2: "f32[64, 32]", bias: "f32[32]"):
        mm: "f32[8, 32]" = torch.ops.aten.mm.default(x, w1)
        mm_1: "f32[8, 32]" = torch.ops.aten.mm.default(x, w2)
        add: "f32[8, 32]" = torch.ops.aten.add.Tensor(mm_1, bias)
        cat: "f32[16, 32]" = torch.ops.aten.cat.default([mm, add])
        mul: "f32[16, 32]" = torch.ops.aten.mul.Tensor(cat, 2)
        return (mul, mm)
)";

void expect_equivalent(const Graph& a, const Graph& b) {
  EquivalenceOptions eo;
  eo.trials = 3;
  EquivalenceResult eq = equivalent(a, b, builtin_registry(), eo);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n" << print_fx(b, &builtin_registry());
}

TEST(RemoveCatOps, ProducersWriteSlicesOfOneBuffer) {
  Graph in = testing_support::load_builtin(kTwoExperts, "cat.fx");
  RemoveCatOpsResult r = remove_cat_ops(in, builtin_registry());
  const std::string text = print_fx(r.graph, &builtin_registry());
  auto ops = call_target_counts(r.graph);
  EXPECT_EQ(r.removed, 1u);
  EXPECT_EQ(ops["aten::cat"], 0) << text;
  EXPECT_EQ(ops["aten::mm.out"], 1) << text;   // mm feeds the cat
  EXPECT_EQ(ops["aten::mm"], 1) << text;       // mm_1 feeds the add, not the cat
  EXPECT_EQ(ops["aten::add.out"], 1) << text;  // add does
  EXPECT_EQ(ops["aten::new_empty"], 1) << text;
  EXPECT_EQ(ops["aten::slice.Tensor"], 2) << text;
  EXPECT_THAT(text,
              HasSubstr("torch.ops.aten.new_empty.default(x, [16, 32], dtype = torch.float32)"));
  EXPECT_THAT(text, HasSubstr("torch.ops.aten.slice.Tensor(cat_buffer, 0, 8, 16)"));
  EXPECT_THAT(text, HasSubstr("torch.ops.aten.mul.Tensor(cat_buffer, 2)"));
  EXPECT_THAT(r.log, Contains(HasSubstr("cat (2 inputs) written in place")));
  expect_equivalent(in, r.graph);
  // The cat's copy is gone; the buffer costs no kernel.
  NpuCostModel m(load_device_profile("ascend910b2"), ExecMode::ReduceOverhead, {});
  GraphCost before = graph_cost(in, builtin_registry(), m);
  GraphCost after = graph_cost(r.graph, builtin_registry(), m);
  EXPECT_EQ(after.kernels + 1, before.kernels);
  EXPECT_LT(after.total_us, before.total_us);
}

// Each condition broken once, by a text edit of kTwoExperts: the cat stays and the
// log says why.
TEST(RemoveCatOps, EachConditionKeepsTheCat) {
  struct Case {
    std::string from, to, why;
  };
  const Case cases[] = {
      {"cat: \"f32[16, 32]\" = torch.ops.aten.cat.default([mm, add])\n        mul: \"f32[16, 32]\" "
       "= torch.ops.aten.mul.Tensor(cat, 2)",
       "cat: \"f32[8, 64]\" = torch.ops.aten.cat.default([mm, add], 1)\n        mul: \"f32[8, "
       "64]\" "
       "= torch.ops.aten.mul.Tensor(cat, 2)",
       "only dim 0"},
      {"[mm, add]", "[mm, mm]", "appears twice"},
      {"mul: \"f32[16, 32]\" = torch.ops.aten.mul.Tensor(cat, 2)",
       "mul: \"f32[16, 32]\" = torch.ops.aten.mul_.Tensor(cat, 2)",
       "its result is written in place"},
      {"return (mul, mm)",
       "mm_2: \"f32[8, 32]\" = torch.ops.aten.add_.Tensor(mm, 1)\n        return (mul, mm_2)",
       "input 0 (mm) is written in place"},
      {"return (mul, mm)",
       "cat_1: \"f32[16, 32]\" = torch.ops.aten.cat.default([add, mm_1])\n        return (mul, "
       "cat_1)",
       "shared with another cat"},
      {"add: \"f32[8, 32]\" = torch.ops.aten.add.Tensor(mm_1, bias)",
       "add: \"f32[8, 32]\" = torch.ops.aten.relu.default(mm_1)", "has no .out variant"},
      {"x: \"f32[8, 64]\"", "x: \"f32[s0 + s1, 64]\"", "which no graph input holds"},
  };
  for (const Case& c : cases) {
    std::string fx = kTwoExperts;
    size_t at = fx.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.from;
    fx.replace(at, c.from.size(), c.to);
    SCOPED_TRACE(c.why);
    if (c.why == "which no graph input holds") {  // sizes of a sum no input holds alone
      for (const char* s : {"f32[8, 32]", "f32[16, 32]"}) {
        std::string from = s,
                    to = from == "f32[8, 32]" ? "f32[s0 + s1, 32]" : "f32[2*s0 + 2*s1, 32]";
        for (size_t p = fx.find(from); p != std::string::npos; p = fx.find(from, p))
          fx.replace(p, from.size(), to);
      }
    }
    Graph in = testing_support::load_builtin(fx, "cat.fx");
    RemoveCatOpsResult r = remove_cat_ops(in, builtin_registry());
    EXPECT_EQ(r.removed, 0u) << print_fx(r.graph, &builtin_registry());
    EXPECT_EQ(r.graph, in);
    EXPECT_THAT(r.log, Contains(HasSubstr(c.why)));
  }
}

// Symbolic sizes (TorchAir reads them from the graph's SymInt inputs): the buffer's
// size and the slice bounds are computed from graph inputs before the first producer,
// a dim of an input tensor read by sym_size, a Sym input used as it is.
TEST(RemoveCatOps, SymbolicSizesAreBuiltFromGraphInputs) {
  const char* const fx = R"FX(class f(torch.nn.Module):
    def forward(self, x: "f32[s0, 64]", y: "f32[s1, 64]", n: "Sym(s1)", w1: "f32[64, 32]", w2: "f32[64, 32]"):
        mm: "f32[s0, 32]" = torch.ops.aten.mm.default(x, w1)
        mm_1: "f32[s1, 32]" = torch.ops.aten.mm.default(y, w2)
        mm_2: "f32[s0, 32]" = torch.ops.aten.mm.default(x, w2)
        cat: "f32[2*s0 + s1, 32]" = torch.ops.aten.cat.default([mm, mm_1, mm_2])
        mul: "f32[2*s0 + s1, 32]" = torch.ops.aten.mul.Tensor(cat, 2)
        return (mul,)
)FX";
  Graph in = testing_support::load_builtin(fx, "cat.fx");
  RemoveCatOpsResult r = remove_cat_ops(in, builtin_registry());
  const std::string text = print_fx(r.graph, &builtin_registry());
  ASSERT_EQ(r.removed, 1u) << text;
  auto ops = call_target_counts(r.graph);
  EXPECT_EQ(ops["aten::cat"], 0) << text;
  EXPECT_EQ(ops["aten::mm.out"], 3) << text;
  EXPECT_EQ(ops["aten::sym_size.int"], 1) << text;  // s0 from x; s1 is the Sym input n
  EXPECT_THAT(text, HasSubstr("sym_size_s0: \"Sym(s0)\" = torch.ops.aten.sym_size.int(x, 0)"));
  EXPECT_THAT(text, HasSubstr("torch.ops.aten.slice.Tensor(cat_buffer, 0, 0, sym_size_s0)"));
  expect_equivalent(in, r.graph);
}

TEST(RemoveCatOps, RunsInOptimizeInReduceOverheadOnly) {
  Graph in = testing_support::load_builtin(kTwoExperts, "cat.fx");
  OptimizeOptions opt;
  opt.rules.disable.push_back("inference_matmul_split_fusion");
  OptimizeResult r = optimize_graph(in, builtin_registry(), opt);
  EXPECT_EQ(r.stats.removed_cats, 1u);
  EXPECT_EQ(call_target_counts(r.graph)["aten::cat"], 0);
  EXPECT_THAT(format_summary(r.stats), HasSubstr("remove_cat   1 cat written in place"));
  EXPECT_THAT(stats_to_json(r.stats), HasSubstr("\"remove_cat_ops\":{\"removed_cats\":1"));
  expect_equivalent(in, r.graph);
  // explain lists the decision in its reinplace block.
  EXPECT_THAT(format_reinplace_text(explain_reinplace(r, opt.hints)),
              HasSubstr("  remove_cat_ops: cat (2 inputs) written in place into one buffer\n"));

  opt.rules.mode = ExecMode::MaxAutotune;
  EXPECT_EQ(optimize_graph(in, builtin_registry(), opt).stats.removed_cats, 0u);
  for (const char* config :
       {R"({"remove_cat_ops": false})", R"({"debug": {"aclgraph": {"remove_cat_ops": false}}})"}) {
    OptimizeOptions off;
    apply_config_json(off, config, "config.json");
    EXPECT_FALSE(off.remove_cat_ops) << config;
    EXPECT_EQ(optimize_graph(in, builtin_registry(), off).stats.removed_cats, 0u) << config;
  }
}

}  // namespace
}  // namespace eqfuse
