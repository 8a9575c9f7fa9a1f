// `reinplace()` (both passes, reduce-overhead) at growing graph sizes, so its
// scaling shows: time per node should stay flat when the passes are linear in
// the number of rewrites plus nodes.
//  * BM_ReinplaceChain/N: a synthetic chain of N blocks of elementwise ops and
//    views (6 nodes, 4 reinplace opportunities per block) ending in a copy_
//    epilogue into a graph input, so pass B has work too.
//  * BM_ReinplaceDumpStack/K: K independent copies of the real dump
//    learn-torch-compile_7 (5,465 nodes, 252 ops reinplaced per copy), stacked
//    with graph/stack.hpp; skipped when ../shared/fx-dumps is not there.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "graph/io/load.hpp"
#include "graph/stack.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse {
namespace {

const OpRegistry& reg() {
  static const OpRegistry r = OpRegistry::with_builtin_ops();
  return r;
}

// FX text of `blocks` blocks; block k reads the previous block's result:
//   add = prev + bias; relu; view; mul by 2; view back; sigmoid.
// Every op but the first add writes its dead argument in place after pass A.
std::string chain_text(int blocks) {
  std::string body;
  std::string prev = "arg0_1";
  for (int k = 0; k < blocks; ++k) {
    body += fmt::format(
        "    add_{0}: \"f32[64, 64]\" = torch.ops.aten.add.Tensor({1}, arg1_1)\n"
        "    relu_{0}: \"f32[64, 64]\" = torch.ops.aten.relu.default(add_{0})\n"
        "    view_{0}: \"f32[4096]\" = torch.ops.aten.view.default(relu_{0}, [4096])\n"
        "    mul_{0}: \"f32[4096]\" = torch.ops.aten.mul.Tensor(view_{0}, 2)\n"
        "    unview_{0}: \"f32[64, 64]\" = torch.ops.aten.view.default(mul_{0}, [64, 64])\n"
        "    sigmoid_{0}: \"f32[64, 64]\" = torch.ops.aten.sigmoid.default(unview_{0})\n",
        k, prev);
    prev = fmt::format("sigmoid_{}", k);
  }
  return fmt::format(
      "def forward(self, arg0_1: \"f32[64, 64]\", arg1_1: \"f32[64, 64]\", arg2_1: \"f32[64, "
      "64]\"):\n{}    neg: \"f32[64, 64]\" = torch.ops.aten.neg.default({})\n"
      "    copy_: \"f32[64, 64]\" = torch.ops.aten.copy_.default(arg2_1, neg)\n"
      "    return (neg,)\n",
      body, prev);
}

void run(benchmark::State& state, const Graph& g) {
  const ReinplaceOptions options;  // reduce-overhead, both passes (named: GCC 12)
  size_t successes = 0;
  for (auto _ : state) {
    ReinplaceResult r = reinplace(g, reg(), options);
    successes = r.log.successes();
    benchmark::DoNotOptimize(r.graph);
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["reinplaced"] = static_cast<double>(successes);
  state.counters["us_per_node"] = benchmark::Counter(
      static_cast<double>(g.size()),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_ReinplaceChain(benchmark::State& state) {
  std::string text = chain_text(static_cast<int>(state.range(0)));
  run(state, load_graph(text, "chain.fx", reg()).graph);
}
BENCHMARK(BM_ReinplaceChain)
    ->RangeMultiplier(4)
    ->Range(64, 4096)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

void BM_ReinplaceDumpStack(benchmark::State& state) {
  const std::string path = std::string(EQFUSE_SHARED_DIR) + "/fx-dumps/learn-torch-compile_7.txt";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("../shared/fx-dumps/learn-torch-compile_7.txt is not there");
    return;
  }
  Graph one = load_graph(read_file_or_stdin(path), path, reg()).graph;
  run(state, stack_layers(one, static_cast<int>(state.range(0)), {}));
}
BENCHMARK(BM_ReinplaceDumpStack)
    ->RangeMultiplier(2)
    ->Range(1, 8)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime();

}  // namespace
}  // namespace eqfuse

BENCHMARK_MAIN();
