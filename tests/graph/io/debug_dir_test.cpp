// Finding the graphs of a TORCH_COMPILE_DEBUG tree and choosing one: which
// files count, readable over runnable in one folder, the listing, --graph by
// number and by a part of the path.
#include "graph/io/debug_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

const std::string kMulti = std::string(EQFUSE_TEST_DATA) + "/debug-dirs/multi";
const std::string kSingle = std::string(EQFUSE_TEST_DATA) + "/debug-dirs/single";

TEST(DebugDir, FindsAotAndTorchairDumps) {
  std::vector<DebugGraph> g = find_debug_graphs(kMulti);
  ASSERT_EQ(g.size(), 4u);
  EXPECT_THAT(g[0].relative, EndsWith("torchair/model__0/inference/"
                                      "001_aot_inference_graph_after_recover_view_inplace_"
                                      "pattern.txt"));
  EXPECT_THAT(g[1].relative, EndsWith("002_aot_inference_graph_after_apply_pattern_passes.txt"));
  // The readable dump stands for its folder; the runnable one gives the types.
  EXPECT_THAT(g[2].relative, EndsWith("model__0_inference_0.0/fx_graph_readable.py"));
  EXPECT_THAT(g[2].runnable, EndsWith("model__0_inference_0.0/fx_graph_runnable.py"));
  // A folder with only a runnable dump lists it, and types it from itself.
  EXPECT_THAT(g[3].relative, EndsWith("model__1_inference_1.1/fx_graph_runnable.py"));
  EXPECT_EQ(g[3].runnable, g[3].path);
  EXPECT_TRUE(g[0].runnable.empty());
  for (const DebugGraph& d : g) {
    EXPECT_TRUE(d.error.empty()) << d.relative << ": " << d.error;
    EXPECT_GT(d.nodes, 3u) << d.relative;
    EXPECT_EQ(d.path, kMulti + "/" + d.relative);
  }
}

TEST(DebugDir, ListsNumberPathAndNodeCount) {
  std::vector<DebugGraph> g = find_debug_graphs(kSingle);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(list_debug_graphs(g), fmt::format("  1  {}  ({} nodes)\n", g[0].relative, g[0].nodes));
  EXPECT_EQ(select_debug_graph(g, "", kSingle), 0u);
}

Error selection_error(const std::vector<DebugGraph>& g, std::string_view spec) {
  try {
    select_debug_graph(g, spec, "DIR");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for --graph " << spec;
  return Error("");
}

TEST(DebugDir, SelectsByNumberOrUniquePartOfThePath) {
  std::vector<DebugGraph> g = find_debug_graphs(kMulti);
  EXPECT_EQ(select_debug_graph(g, "2", "DIR"), 1u);
  EXPECT_EQ(select_debug_graph(g, "model__1", "DIR"), 3u);
  EXPECT_EQ(select_debug_graph(g, "apply_pattern", "DIR"), 1u);

  EXPECT_THAT(selection_error(g, "").what(), HasSubstr("holds 4 graphs"));
  EXPECT_THAT(selection_error(g, "0").what(), HasSubstr("graphs 1 to 4"));
  EXPECT_THAT(selection_error(g, "5").what(), HasSubstr("--graph 5: directory 'DIR' holds"));
  EXPECT_THAT(selection_error(g, "torchair").what(), HasSubstr("matches 2 of the graphs"));
  EXPECT_THAT(selection_error(g, "nothing-like-this").what(), HasSubstr("matches none"));
}

TEST(DebugDir, SearchesFromInsideTheTorchairFolder) {
  const std::string torchair =
      kMulti + "/torch_compile_debug/run_2026_11_27_11_30_00_654321-pid_5151/torchair";
  std::vector<DebugGraph> g = find_debug_graphs(torchair);
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g[0].relative,
            "model__0/inference/001_aot_inference_graph_after_recover_view_inplace_pattern.txt");
}

TEST(DebugDir, EmptyTreeIsAnError) {
  EXPECT_TRUE(find_debug_graphs(std::string(EQFUSE_TEST_DATA) + "/extraction-gym").empty());
  EXPECT_THAT(selection_error({}, "").what(), HasSubstr("no FX graphs were found"));
}

}  // namespace
}  // namespace eqfuse
