// The reinplace passes on long chains, and their time limit.
//
// Writing `add_k` into `add_{k-1}` rewires every later reader to the chain's
// first buffer, so that buffer's user list grows with the chain; the
// multi-stream check used to walk it for every candidate, which made pass A
// quadratic (20k nodes: 10 s, 100k: past two minutes). A 50k-node chain must
// now reinplace every op; before the fix this test ran for about a minute.
// Speed figures live in bench/ (docs/benchmarks.md "Long chains"), not here.
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "passes/reinplace.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_registry;

// x -> add(x, y) -> add(., y) -> ... : `n` adds, each reading the previous one.
Graph add_chain(int n) {
  std::string fx = "def forward(self, arg0_1: \"f32[8, 8]\", arg1_1: \"f32[8, 8]\"):\n";
  std::string prev = "arg0_1";
  for (int k = 0; k < n; ++k) {
    fx +=
        fmt::format("    add_{}: \"f32[8, 8]\" = torch.ops.aten.add.Tensor({}, arg1_1)\n", k, prev);
    prev = fmt::format("add_{}", k);
  }
  fx += fmt::format("    return ({},)\n", prev);
  return load_graph(fx, "chain.fx", builtin_registry()).graph;
}

std::string printed(const Graph& g) {
  return print_fx(g, &builtin_registry());
}

TEST(ReinplaceChain, EveryOpOfALongChainIsWrittenInPlace) {
  constexpr int kNodes = 50'000;
  const Graph g = add_chain(kNodes);
  const ReinplaceResult r = reinplace(g, builtin_registry());
  // The first add reads a graph input (pass B's business); every later one
  // writes the buffer of the one before it.
  EXPECT_EQ(r.log.successes(), static_cast<size_t>(kNodes - 1));
  EXPECT_EQ(r.savings.reinplaced_nodes, static_cast<size_t>(kNodes - 1));
  EXPECT_TRUE(r.log.stopped.empty());
  ASSERT_EQ(r.graph.size(), g.size());
  const ReinplaceDecision* last =
      r.log.find(fmt::format("add_{}", kNodes - 1), ReinplacePass::InplaceableOps);
  ASSERT_NE(last, nullptr);
  EXPECT_TRUE(last->success);
  // Its argument was rewired to the buffer every rewrite wrote: add_0's.
  EXPECT_EQ(last->written, std::vector<std::string>{"add_0"});
  // The stream check still logs TorchAir's line for each candidate.
  EXPECT_THAT(last->stream_check, HasSubstr("success for reinplace"));
}

// On one stream the check passes without collecting users; it must say what
// the full check said.
TEST(ReinplaceChain, TheSingleStreamShortcutLogsWhatTheFullCheckLogs) {
  const Graph g = add_chain(50);
  ReinplaceOptions per_node;
  per_node.multi_stream = MultiStreamPolicy::PerNode;
  const ReinplaceResult a = reinplace(g, builtin_registry());
  const ReinplaceResult b = reinplace(g, builtin_registry(), per_node);
  EXPECT_EQ(a.log.lines(), b.log.lines());
  EXPECT_EQ(printed(a.graph), printed(b.graph));
}

// Reinplace of a 1000-add chain under `o`, which must stop it before the
// first rewrite: the graph is kept, the log says why (`stopped`) and that the
// second pass was skipped for the `kind` limit.
ReinplaceLog expect_stopped_at_the_start(const ReinplaceOptions& o, std::string_view kind) {
  const Graph g = add_chain(1000);
  ReinplaceResult r = reinplace(g, builtin_registry(), o);
  EXPECT_EQ(r.log.successes(), 0u);
  EXPECT_EQ(printed(r.graph), printed(g));
  const std::vector<std::string> lines = r.log.lines();
  EXPECT_NE(std::find(lines.begin(), lines.end(), r.log.stopped), lines.end());
  const std::string skipped =
      "skipping reinplace_input_mutated_ops_pass: the " + std::string(kind) + " limit was reached";
  EXPECT_NE(std::find(lines.begin(), lines.end(), skipped), lines.end());
  return std::move(r.log);
}

TEST(ReinplaceChain, ANoTimeLimitStopsBeforeTheFirstRewriteAndKeepsTheGraph) {
  ReinplaceOptions o;
  o.time_limit_s = 0;
  const ReinplaceLog log = expect_stopped_at_the_start(o, "time");
  EXPECT_THAT(log.stopped, HasSubstr("stopped by the time limit (0 s)"));
  EXPECT_THAT(log.stopped, HasSubstr("reinplace_inplaceable_ops_pass at node 0 of"));
}

// The memory budget stops the passes the same way (here: a limit the
// process is always past).
TEST(ReinplaceChain, AMemoryLimitStopsThePassesTheSameWay) {
  ReinplaceOptions o;
  o.memory_limit_bytes = 1;
  const ReinplaceLog log = expect_stopped_at_the_start(o, "memory");
  EXPECT_THAT(log.stopped, HasSubstr("stopped by the memory limit ("));
  EXPECT_THAT(log.stopped, HasSubstr("resident, limit 1 B) in reinplace_inplaceable_ops_pass"));
}

TEST(ReinplaceChain, AGenerousTimeLimitChangesNothing) {
  const Graph g = add_chain(300);
  ReinplaceOptions o;
  o.time_limit_s = 1e6;
  const ReinplaceResult limited = reinplace(g, builtin_registry(), o);
  const ReinplaceResult free = reinplace(g, builtin_registry());
  EXPECT_TRUE(limited.log.stopped.empty());
  EXPECT_EQ(printed(limited.graph), printed(free.graph));
  EXPECT_EQ(limited.log.lines(), free.log.lines());
}

}  // namespace
}  // namespace eqfuse
