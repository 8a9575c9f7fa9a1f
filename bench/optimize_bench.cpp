// End-to-end `optimize_graph` on the DeepSeek-style example layer and on a
// 61-layer stack of it (issue 5 targets: < 100 ms and < 2 s). The stack
// chains layer k's residual output (output 2) into layer k+1's hidden and
// residual inputs; weights are separate inputs per layer. BM_ExplainRun*
// time `explain_run` alone (proofs, not-chosen analysis, near misses) on an
// already optimized graph: the cost `--explain` adds on top of optimize.
#include <benchmark/benchmark.h>

#include "bench/workloads/decoder_stack.hpp"
#include "graph/io/load.hpp"
#include "graph/stack.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"

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

Graph deepseek_stack(int layers) {
  return stack_layers(layer(), layers, {{"arg1_1", 2}, {"arg2_1", 2}});
}

void run(benchmark::State& state, const Graph& g, const std::string& extractor = "auto") {
  OptimizeOptions options;
  options.extractor = extractor;
  OptimizeStats stats;
  for (auto _ : state) {
    OptimizeResult r = optimize_graph(g, reg(), options);
    stats = r.stats;
    benchmark::DoNotOptimize(r.graph);
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["cost_before_us"] = stats.cost_before_us;
  state.counters["cost_after_us"] = stats.cost_after_us;
  state.counters["saving_pct"] = 100.0 * (1.0 - stats.cost_after_us / stats.cost_before_us);
  state.counters["proven"] = stats.extraction_optimal ? 1 : 0;
  state.counters["egraph_nodes"] = static_cast<double>(stats.egraph_nodes);
  for (const char* phase : {"load", "saturate", "extract", "emit", "reinplace"})
    state.counters[std::string(phase) + "_ms"] = stats.phase_ms[phase];
}

void BM_OptimizeDeepSeekLayer(benchmark::State& state) {
  run(state, layer());
}
BENCHMARK(BM_OptimizeDeepSeekLayer)->Unit(benchmark::kMillisecond);

void BM_OptimizeDeepSeekStack(benchmark::State& state) {
  run(state, deepseek_stack(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_OptimizeDeepSeekStack)
    ->Arg(61)
    ->Arg(300)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);

// The same stack with the monolithic exact model, for the optimum the default
// must reach (issue 13).
void BM_OptimizeDeepSeekStackIlp(benchmark::State& state) {
  run(state, deepseek_stack(static_cast<int>(state.range(0))), "ilp");
}
BENCHMARK(BM_OptimizeDeepSeekStackIlp)->Arg(61)->Unit(benchmark::kMillisecond)->Iterations(1);

// Quantized decoder blocks (bench/workloads/decoder_stack.hpp), 7 kernels per
// block: time per block should stay flat from 61 to 4000 blocks.
void BM_OptimizeDecoderStack(benchmark::State& state) {
  const auto blocks = static_cast<int>(state.range(0));
  const std::string fx = workloads::decoder_stack_fx({.blocks = blocks});
  run(state, load_graph(fx, "decoder_stack.fx", reg()).graph);
  state.counters["blocks"] = blocks;
  state.counters["ms_per_block"] = benchmark::Counter(
      static_cast<double>(blocks),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_OptimizeDecoderStack)
    ->Arg(61)
    ->Arg(300)
    ->Arg(1000)
    ->Arg(4000)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void explain(benchmark::State& state, const Graph& g) {
  OptimizeOptions options;
  options.record_explanations = true;
  OptimizeResult r = optimize_graph(g, reg(), options);
  size_t near = 0;
  for (auto _ : state) {
    ExplainReport rep = explain_run(r, reg());
    near = rep.near_misses.size();
    benchmark::DoNotOptimize(rep);
  }
  state.counters["nodes"] = static_cast<double>(g.size());
  state.counters["near_misses"] = static_cast<double>(near);
}

void BM_ExplainRunDeepSeekLayer(benchmark::State& state) {
  explain(state, layer());
}
BENCHMARK(BM_ExplainRunDeepSeekLayer)->Unit(benchmark::kMillisecond);

void BM_ExplainRunDeepSeekStack(benchmark::State& state) {
  explain(state, deepseek_stack(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_ExplainRunDeepSeekStack)->Arg(61)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace eqfuse

BENCHMARK_MAIN();
