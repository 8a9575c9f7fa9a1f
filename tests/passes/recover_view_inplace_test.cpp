// ctest-label: golden
// recover_view_inplace_pattern (docs/reference/torchair-passes.md §4.2,
// passes/recover_view_inplace.hpp):
// the pattern's conditions one by one, TorchAir's two tests (§8.7
// test_view_copy_not_inplace, test_view_add_inplace), and the pass inside
// `optimize` and `eqfuse reinplace`, where it runs before the reinplace
// passes. Rewritten graphs are checked against their input with the
// reference interpreter where it has kernels for every op.
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "passes/recover_view_inplace.hpp"
#include "passes/reinplace.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

using ::testing::Contains;
using ::testing::HasSubstr;

Graph load(const std::string& fx) {
  return testing_support::load_builtin(fx, "recover.fx");
}

// x.view(4, 8, 16).scatter_update_(...) on a graph input, functionalized and
// with remove_noop_ops done: the §4.2 pattern.
const char* const kScatter = R"(class f(torch.nn.Module):
    def forward(self, arg0_1: "bf16[32, 16]", arg1_1: "i64[4]", arg2_1: "bf16[4, 1, 16]"):
        view: "bf16[4, 8, 16]" = torch.ops.aten.view.default(arg0_1, [4, 8, 16])
        scatter_update: "bf16[4, 8, 16]" = torch.ops.npu.scatter_update.default(view, arg1_1, arg2_1, -2)
        view_1: "bf16[32, 16]" = torch.ops.aten.view.default(scatter_update, [32, 16])
        copy_: "bf16[32, 16]" = torch.ops.aten.copy_.default(arg0_1, view_1)
        return ()
)";

// The same before remove_noop_ops: functionalization's aten.copy sits
// between the post view and the copy_ (TorchAir's test_view_copy_not_inplace).
const char* const kScatterWithCopy = R"(class f(torch.nn.Module):
    def forward(self, arg0_1: "bf16[32, 16]", arg1_1: "i64[4]", arg2_1: "bf16[4, 1, 16]"):
        view: "bf16[4, 8, 16]" = torch.ops.aten.view.default(arg0_1, [4, 8, 16])
        scatter_update: "bf16[4, 8, 16]" = torch.ops.npu.scatter_update.default(view, arg1_1, arg2_1, -2)
        view_1: "bf16[32, 16]" = torch.ops.aten.view.default(scatter_update, [32, 16])
        copy: "bf16[32, 16]" = torch.ops.aten.copy.default(arg0_1, view_1)
        copy_: "bf16[32, 16]" = torch.ops.aten.copy_.default(arg0_1, copy)
        return ()
)";

// TorchAir's test_view_add_inplace: an add on a view of an input, copied back.
const char* const kAdd = R"(class f(torch.nn.Module):
    def forward(self, arg0_1: "f32[32]", arg1_1: "f32[4, 8]"):
        view: "f32[4, 8]" = torch.ops.aten.view.default(arg0_1, [4, 8])
        add: "f32[4, 8]" = torch.ops.aten.add.Tensor(view, arg1_1)
        view_1: "f32[32]" = torch.ops.aten.view.default(add, [32])
        copy_: "f32[32]" = torch.ops.aten.copy_.default(arg0_1, view_1)
        mul: "f32[4, 8]" = torch.ops.aten.mul.Tensor(add, 2)
        return (mul,)
)";

ViewInplaceTable table_with_add() {
  ViewInplaceTable t = ViewInplaceTable::defaults();
  t.add({"aten::add.Tensor", "aten::add_.Tensor"});
  return t;
}

TEST(RecoverViewInplace, ScatterUpdateOnAViewOfAnInputBecomesInPlace) {
  RecoverViewInplaceResult r = recover_view_inplace_pattern(load(kScatter), builtin_registry(),
                                                            ViewInplaceTable::defaults());
  auto ops = call_target_counts(r.graph);
  EXPECT_EQ(r.replaced, 1u);
  EXPECT_EQ(ops["npu::scatter_update_"], 1) << print_fx(r.graph, &builtin_registry());
  EXPECT_EQ(ops["npu::scatter_update"], 0);
  EXPECT_EQ(ops["aten::copy_"], 0);
  EXPECT_EQ(ops["aten::view"], 1) << "the view fed only the copy_";
  EXPECT_THAT(r.log,
              Contains("In fx_graph, find 1 matched patterns of recover_view_inplace_pattern."));
  EXPECT_THAT(r.log, Contains(HasSubstr("success to replace non_inplace node scatter_update "
                                        "(npu::scatter_update) by inserting new inplace node")));
}

TEST(RecoverViewInplace, AddInPlaceWhenTheTableIsExtendedAndStaysEquivalent) {
  Graph in = load(kAdd);
  RecoverViewInplaceResult plain =
      recover_view_inplace_pattern(in, builtin_registry(), ViewInplaceTable::defaults());
  EXPECT_EQ(plain.replaced, 0u) << "add is not in TorchAir's table";
  EXPECT_EQ(plain.graph, in);
  RecoverViewInplaceResult r =
      recover_view_inplace_pattern(in, builtin_registry(), table_with_add());
  auto ops = call_target_counts(r.graph);
  EXPECT_EQ(ops["aten::add_.Tensor"], 1) << print_fx(r.graph, &builtin_registry());
  EXPECT_EQ(ops["aten::copy_"], 0);
  EXPECT_THAT(r.log, Contains(HasSubstr("success to replace non_inplace node add")));
  EquivalenceOptions eo;
  eo.trials = 3;
  EquivalenceResult eq = equivalent(in, r.graph, builtin_registry(), eo);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

// Each §4.2 condition, broken once (by text replacements of kAdd): nothing
// matches.
TEST(RecoverViewInplace, EveryConditionOfThePatternIsChecked) {
  using Edits = std::vector<std::pair<std::string, std::string>>;
  const std::vector<Edits> broken = {
      // copy_ with non_blocking given: not the two-argument copy_
      {{"copy_.default(arg0_1, view_1)", "copy_.default(arg0_1, view_1, True)"}},
      // the pre view has a second user
      {{"mul.Tensor(add, 2)", "mul.Tensor(view, 2)"}},
      // the input has a third user
      {{"mul: \"f32[4, 8]\" = torch.ops.aten.mul.Tensor(add, 2)",
        "mul: \"f32[32]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)"}},
      // the post view does not have the input's shape (P is [1, 32], post [32])
      {{"arg0_1: \"f32[32]\"", "arg0_1: \"f32[1, 32]\""},
       {"copy_: \"f32[32]\"", "copy_: \"f32[1, 32]\""}},
  };
  for (const Edits& edits : broken) {
    std::string text = kAdd;
    for (const auto& [from, to] : edits) {
      size_t at = text.find(from);
      ASSERT_NE(at, std::string::npos) << from;
      text.replace(at, from.size(), to);
    }
    Graph g = load_graph(text, "broken.fx", builtin_registry()).graph;
    RecoverViewInplaceResult r =
        recover_view_inplace_pattern(g, builtin_registry(), table_with_add());
    EXPECT_EQ(r.replaced, 0u) << text;
    EXPECT_EQ(r.graph, g);
  }
}

TEST(RecoverViewInplace, EntriesWithUnregisteredOpsAreSkipped) {
  ViewInplaceTable t;
  t.add({"aten::add.Tensor", "custom::no_such_add_"});
  EXPECT_EQ(recover_view_inplace_pattern(load(kAdd), builtin_registry(), t).replaced, 0u);
}

// TorchAir's test_view_copy_not_inplace: with remove_noop_ops off, the
// functional aten.copy stays between the post view and the copy_, so the
// pattern finds nothing; with it on (the default), rule noop/copy removes
// it in the e-graph and the pass fires after extraction.
TEST(RecoverViewInplace, OptimizeFindsThePatternOnlyAfterRemoveNoopOps) {
  Graph in = load(kScatterWithCopy);
  OptimizeOptions off;
  off.rules.remove_noop_ops = false;
  OptimizeResult kept = optimize_graph(in, builtin_registry(), off);
  EXPECT_THAT(kept.reinplace_log.lines(),
              Contains("In fx_graph, find 0 matched patterns of recover_view_inplace_pattern."));
  EXPECT_EQ(call_target_counts(kept.graph)["npu::scatter_update_"], 0);

  OptimizeOptions defaults;
  defaults.record_explanations = true;
  OptimizeResult r = optimize_graph(in, builtin_registry(), defaults);
  auto ops = call_target_counts(r.graph);
  EXPECT_THAT(r.reinplace_log.lines(),
              Contains("In fx_graph, find 1 matched patterns of recover_view_inplace_pattern."));
  EXPECT_EQ(ops["npu::scatter_update_"], 1) << print_fx(r.graph, &builtin_registry());
  EXPECT_EQ(ops["aten::copy"], 0);
  EXPECT_EQ(ops["aten::copy_"], 0);
  // `eqfuse explain` shows the pass's lines with the reinplace notes.
  ExplainReport report = explain_run(r, builtin_registry());
  EXPECT_THAT(format_explanation_text(report),
              HasSubstr("  success to replace non_inplace node scatter_update"));
  nlohmann::json j = nlohmann::json::parse(explanation_to_json(report));
  EXPECT_EQ(j["reinplace"]["recover_view_inplace"][0],
            "In fx_graph, find 1 matched patterns of recover_view_inplace_pattern.");
}

// TorchAir's _optimize_fx runs the pattern in every mode (torchair-passes.md §1.1 step 3),
// while the reinplace passes run only in reduce-overhead: max-autotune still
// recovers the in-place scatter, and explain shows the pass's lines.
TEST(RecoverViewInplace, RunsInEveryModeNotOnlyWithTheReinplacePasses) {
  Graph in = load(kScatterWithCopy);
  for (ExecMode mode : {ExecMode::MaxAutotune, ExecMode::Eager}) {
    SCOPED_TRACE(exec_mode_name(mode));
    OptimizeOptions opt;
    opt.rules.mode = mode;
    opt.record_explanations = true;
    OptimizeResult r = optimize_graph(in, builtin_registry(), opt);
    EXPECT_FALSE(r.stats.reinplace_ran);
    EXPECT_EQ(call_target_counts(r.graph)["npu::scatter_update_"], 1)
        << print_fx(r.graph, &builtin_registry());
    ExplainReport report = explain_run(r, builtin_registry());
    EXPECT_THAT(
        format_explanation_text(report),
        HasSubstr("  In fx_graph, find 1 matched patterns of recover_view_inplace_pattern."));
    EXPECT_THAT(explanation_to_html(report, in, r.graph),
                HasSubstr("<li>success to replace non_inplace node scatter_update"));
    OptimizeOptions off = opt;
    off.reinplace.recover_view_inplace = false;
    EXPECT_EQ(call_target_counts(
                  optimize_graph(in, builtin_registry(), off).graph)["npu::scatter_update_"],
              0);
  }
}

TEST(RecoverViewInplace, ConfigExtendsTheTableAndTurnsThePassOff) {
  OpRegistry r = OpRegistry::with_builtin_ops();
  ReinplaceOptions o;
  apply_reinplace_config_json(
      o, r,
      R"({"reinplace": {"view_inplace_ops": [{"op": "aten::add.Tensor", "inplace": "aten::add_.Tensor"}]}})",
      "cfg.json");
  ASSERT_NE(o.view_inplace_table.find("aten::add.Tensor"), nullptr);
  Graph in = load(kAdd);
  ReinplaceResult on = reinplace(in, r, o);
  EXPECT_EQ(call_target_counts(on.graph)["aten::add_.Tensor"], 1) << print_fx(on.graph, &r);
  EXPECT_THAT(on.log.lines(), Contains(HasSubstr("success to replace non_inplace node add")));
  EquivalenceResult eq = equivalent(in, on.graph, r);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;

  apply_reinplace_config_json(o, r, R"({"reinplace": {"recover_view_inplace": false}})",
                              "cfg.json");
  ReinplaceResult off = reinplace(in, r, o);
  EXPECT_EQ(call_target_counts(off.graph)["aten::add_.Tensor"], 0);
  EXPECT_THAT(off.log.lines(), Contains(HasSubstr("skipping recover_view_inplace_pattern")));
  EXPECT_THROW(
      apply_reinplace_config_json(
          o, r, R"({"reinplace": {"view_inplace_ops": [{"op": "aten::add.Tensor"}]}})", "cfg.json"),
      Error);
}

TEST(RecoverViewInplace, ReinplaceCommandLogsThePass) {
  testing_support::CliRun run = testing_support::run_eqfuse(
      "reinplace tests/scenarios/noop/N13_copy_before_view_scatter.fx --log");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err,
              HasSubstr("In fx_graph, find 0 matched patterns of recover_view_inplace_pattern."));
  testing_support::CliRun off = testing_support::run_eqfuse(
      "reinplace tests/scenarios/noop/N13_copy_before_view_scatter.fx --log --disable-pass "
      "recover-view-inplace");
  EXPECT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.err, HasSubstr("skipping recover_view_inplace_pattern"));
}

}  // namespace
}  // namespace eqfuse
