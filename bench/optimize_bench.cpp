// End-to-end `optimize_graph` on the DeepSeek-style example layer and on a
// 61-layer stack of it (issue 5 targets: < 100 ms and < 2 s). The stack
// chains layer k's residual output (output 2) into layer k+1's hidden and
// residual inputs; weights are separate inputs per layer.
#include <benchmark/benchmark.h>

#include "extract/optimize.hpp"
#include "graph/load.hpp"
#include "graph/stack.hpp"

namespace eqfuse {
namespace {

const OpRegistry& reg() {
  static const OpRegistry r = OpRegistry::with_builtin_ops();
  return r;
}

Graph layer() {
  std::string path = std::string(EQFUSE_SOURCE_DIR) + "/examples/deepseek_layer.fx";
  return load_graph(read_file_or_stdin(path), path, reg()).graph;
}

void run(benchmark::State& state, const Graph& g) {
  double before = 0, after = 0;
  const OptimizeOptions options;  // defaults, named (GCC 12 false positive on a temporary)
  for (auto _ : state) {
    OptimizeResult r = optimize_graph(g, reg(), options);
    before = r.stats.cost_before_us;
    after = r.stats.cost_after_us;
    benchmark::DoNotOptimize(r.graph);
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["cost_before_us"] = before;
  state.counters["cost_after_us"] = after;
}

void BM_OptimizeDeepSeekLayer(benchmark::State& state) {
  run(state, layer());
}
BENCHMARK(BM_OptimizeDeepSeekLayer)->Unit(benchmark::kMillisecond);

void BM_OptimizeDeepSeekStack(benchmark::State& state) {
  Graph deep =
      stack_layers(layer(), static_cast<int>(state.range(0)), {{"arg1_1", 2}, {"arg2_1", 2}});
  run(state, deep);
}
BENCHMARK(BM_OptimizeDeepSeekStack)->Arg(61)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace eqfuse

BENCHMARK_MAIN();
