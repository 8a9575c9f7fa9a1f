// ctest-label: golden
// TORCH_COMPILE_DEBUG directories as inputs (cli/cli_common.hpp load_input):
// the only graph is used and named on stderr, several need --graph N|NAME,
// fx_graph_runnable.py example inputs type an untyped graph (and make a
// fusion fire), and untyped inputs are warned about and noted in optimize's
// summary and --stats-json. `torch2-llama` is a real tree, written by Inductor in
// torch 2.11 (tests/data/torch2/debug_dir_llama.py).
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/cli_runner.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

using eqfuse::testing_support::CliRun;
using eqfuse::testing_support::run_eqfuse;
using eqfuse::testing_support::scratch_dir;
using eqfuse::testing_support::slurp_file;

const std::string kSingle = "tests/data/debug-dirs/single";
const std::string kMulti = "tests/data/debug-dirs/multi";
const std::string kSingleGraph =
    "tests/data/debug-dirs/single/torch_compile_debug/run_2026_11_27_10_00_00_123456-pid_4242/"
    "torchinductor/model__0_inference_0.0/fx_graph_readable.py";
const std::string kMultiRun =
    "tests/data/debug-dirs/multi/torch_compile_debug/run_2026_11_27_11_30_00_654321-pid_5151";

TEST(DebugDir, SingleGraphDirectoryIsUsedAndNamed) {
  CliRun r = run_eqfuse("optimize " + kSingle);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(fmt::format("eqfuse: using {} (graph 1 of 1)", kSingleGraph)));
  EXPECT_THAT(r.err, HasSubstr("eqfuse: types of 3 inputs taken from the example inputs in "));
  EXPECT_THAT(r.err, Not(HasSubstr("warning")));
  // The readable dump has no annotations: the runnable's types let the rule fire.
  EXPECT_THAT(r.err, HasSubstr("torchair/add-rms-norm-dynamic-quant x1"));
  EXPECT_THAT(r.out, HasSubstr("npu_add_rms_norm_dynamic_quant"));
}

TEST(DebugDir, WithoutTheRunnableTypesNothingFusesAndItSaysWhy) {
  const fs::path dir = scratch_dir() / "no_runnable";
  fs::create_directories(dir);
  fs::copy_file(fs::path(EQFUSE_SOURCE_DIR) / kSingleGraph, dir / "fx_graph_readable.py",
                fs::copy_options::overwrite_existing);
  const fs::path stats = scratch_dir() / "untyped_stats.json";
  CliRun r =
      run_eqfuse(fmt::format("optimize '{}' --stats-json '{}'", dir.string(), stats.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("(graph 1 of 1)"));
  EXPECT_THAT(r.err, HasSubstr("eqfuse: warning: 3 inputs have unknown shapes: fusion conditions "
                               "cannot be evaluated; pass --input-types or a runnable dump"));
  EXPECT_THAT(r.err, HasSubstr("fusions      none"));
  EXPECT_THAT(r.out, Not(HasSubstr("npu_add_rms_norm_dynamic_quant")));
  const nlohmann::json j = nlohmann::json::parse(slurp_file(stats));
  ASSERT_TRUE(j.contains("notes"));
  EXPECT_THAT(j["notes"].dump(), HasSubstr("3 inputs have unknown shapes"));
}

TEST(DebugDir, UntypedGraphDumpWarnsAndIsNoted) {
  const fs::path stats = scratch_dir() / "vllm_stats.json";
  CliRun r = run_eqfuse(
      fmt::format("optimize tests/data/fx-dumps/vllm-ascend-issue-4239_1.txt --stats-json '{}'",
                  stats.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("eqfuse: warning: 26 inputs have unknown shapes"));
  EXPECT_THAT(r.err, HasSubstr("note         26 inputs have unknown shapes"));
  EXPECT_THAT(slurp_file(stats), HasSubstr("26 inputs have unknown shapes"));
  // Typed graphs say nothing of the kind.
  CliRun typed = run_eqfuse("optimize examples/matmul_transpose.fx");
  EXPECT_THAT(typed.err, Not(HasSubstr("unknown shape")));
}

TEST(DebugDir, RealTorch2TreeOptimizesToAnEquivalentGraph) {
  const std::string dir = "tests/data/debug-dirs/torch2-llama";
  CliRun listed = run_eqfuse("optimize " + dir);
  EXPECT_EQ(listed.exit_code, 2);
  EXPECT_THAT(listed.err, HasSubstr("fx_graph_readable.py  (312 nodes)"));
  EXPECT_THAT(listed.err, HasSubstr("fx_graph_transformed.py  (311 nodes)"));
  const fs::path out = scratch_dir() / "torch2_llama_opt.fx";
  CliRun r = run_eqfuse(fmt::format("optimize {} --graph readable -o '{}'", dir, out.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("mindspore/add-rms-norm x4"));
  EXPECT_THAT(r.err, HasSubstr("torchair/npu-rotary-mul x4"));
  CliRun check = run_eqfuse(fmt::format("check {} --graph readable '{}'", dir, out.string()));
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.out, HasSubstr("equivalent"));
}

// torch.compile(dynamic=True) passes RMSNorm's epsilon and the attention scale as
// f64[] inputs; optimize says so and how to keep them constants.
TEST(DebugDir, LiftedFloatInputsAreNoted) {
  CliRun r = run_eqfuse("optimize tests/data/torch2/llama_eager_dynamic_0.txt");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("eqfuse: note: 8 inputs are 0-dim float64 tensors"));
  EXPECT_THAT(r.err, HasSubstr("torch._dynamo.config.specialize_float = True"));
  CliRun fixed = run_eqfuse("optimize tests/data/torch2/llama_eager_dynamic-fixed-floats_0.txt");
  ASSERT_EQ(fixed.exit_code, 0) << fixed.err;
  EXPECT_THAT(fixed.err, Not(HasSubstr("float64")));
  EXPECT_THAT(fixed.err, HasSubstr("torchair/npu-fusion-attention-gqa x2"));
  CliRun static_shapes = run_eqfuse("optimize tests/data/torch2/llama_eager_static_0.txt");
  EXPECT_THAT(static_shapes.err, Not(HasSubstr("float64")));
}

TEST(DebugDir, SeveralGraphsNeedGraphAndAreListed) {
  for (const char* cmd : {"optimize", "explain", "print"}) {
    CliRun r = run_eqfuse(fmt::format("{} {}", cmd, kMulti));
    EXPECT_EQ(r.exit_code, 2) << cmd;
    EXPECT_THAT(r.err, HasSubstr("holds 4 graphs; choose one with --graph N or --graph NAME"));
    EXPECT_THAT(r.err, HasSubstr("  1  torch_compile_debug/run_2026_11_27_11_30_00_654321-pid_5151/"
                                 "torchair/model__0/inference/"
                                 "001_aot_inference_graph_after_recover_view_inplace_pattern.txt"));
    EXPECT_THAT(r.err, HasSubstr("model__0_inference_0.0/fx_graph_readable.py  (12 nodes)"));
    EXPECT_THAT(r.err, HasSubstr("  4  "));
    // The runnable of a folder with a readable dump is not a choice of its own.
    EXPECT_THAT(r.err, Not(HasSubstr("model__0_inference_0.0/fx_graph_runnable.py")));
  }
}

TEST(DebugDir, GraphPicksByNumberOrName) {
  CliRun by_number = run_eqfuse("optimize " + kMulti + " --graph 3");
  ASSERT_EQ(by_number.exit_code, 0) << by_number.err;
  EXPECT_THAT(by_number.err,
              HasSubstr(fmt::format("eqfuse: using {}/torchinductor/model__0_inference_0.0/"
                                    "fx_graph_readable.py (graph 3 of 4)",
                                    kMultiRun)));
  // Annotated already: the runnable adds nothing.
  EXPECT_THAT(by_number.err, Not(HasSubstr("types of")));

  CliRun by_name = run_eqfuse("optimize " + kMulti + " --graph model__1");
  ASSERT_EQ(by_name.exit_code, 0) << by_name.err;
  EXPECT_THAT(by_name.err, HasSubstr("model__1_inference_1.1/fx_graph_runnable.py (graph 4 of 4)"));
  EXPECT_THAT(by_name.err, HasSubstr("types of 2 inputs taken from the example inputs in"));
  EXPECT_THAT(by_name.err, Not(HasSubstr("warning")));

  CliRun pass_dump = run_eqfuse("print " + kMulti + " --graph apply_pattern_passes");
  ASSERT_EQ(pass_dump.exit_code, 0) << pass_dump.err;
  EXPECT_THAT(pass_dump.out, HasSubstr("npu_add_rms_norm_cast"));

  CliRun check = run_eqfuse(fmt::format("check {0} {0} --graph 4", kMulti));
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.err, HasSubstr("(graph 4 of 4)"));

  CliRun explain = run_eqfuse("explain " + kSingle);
  EXPECT_EQ(explain.exit_code, 0) << explain.err;
  EXPECT_THAT(explain.err, HasSubstr("(graph 1 of 1)"));
}

TEST(DebugDir, BadGraphChoiceListsTheChoices) {
  for (const char* spec : {"9", "0", "torchair", "no-such-graph"}) {
    CliRun r = run_eqfuse(fmt::format("optimize {} --graph {}", kMulti, spec));
    EXPECT_EQ(r.exit_code, 2) << spec;
    EXPECT_THAT(r.err, HasSubstr("--graph")) << spec;
    EXPECT_THAT(r.err, HasSubstr("fx_graph_readable.py  (12 nodes)")) << spec;
  }
  CliRun empty = run_eqfuse("optimize tests/data/extraction-gym");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("is a directory and no FX graphs were found under it"));
}

TEST(DebugDir, InputTypesWinOverTheRunnable) {
  CliRun r = run_eqfuse("print " + kSingle + " --input-types 'arg0_1=f16[4]'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("types of 2 inputs taken from"));
}

}  // namespace
