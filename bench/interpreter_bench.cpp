// Reference interpreter throughput (Google Benchmark): element-wise ops,
// casts, reductions and matmul through Interpreter::run on small FX graphs
// (items/s = elements or multiply-adds per second), and the end-to-end
// `eqfuse check` of the DeepSeek example layer against itself. Figures are
// recorded in docs/benchmarks.md ("Interpreter").
#include <benchmark/benchmark.h>

#include <fmt/format.h>

#include "graph/io/fx_parser.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {
namespace {

const OpRegistry& registry() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph graph_from(const std::string& text) {
  Graph g = parse_fx(text, "<bench>");
  resolve_ops(g, registry());
  return g;
}

// Runs `body` (the lines of forward) on random inputs of the given
// placeholder declarations; `items` work units per run.
void run_graph(benchmark::State& state, const std::string& params, const std::string& body,
               int64_t items) {
  Graph g = graph_from(fmt::format(
      "class GraphModule(torch.nn.Module):\n    def forward(self, {}):\n{}", params, body));
  RandomInputs in = random_inputs(g, 1);
  Interpreter interp(registry());
  for (auto _ : state) {
    RunResult r = interp.run(g, in.values, in.bindings);
    benchmark::DoNotOptimize(r.outputs.data());
  }
  state.SetItemsProcessed(state.iterations() * items);
}

constexpr int64_t kRows = 512, kCols = 1024;

void BM_AddContiguous(benchmark::State& state, const char* dtype) {
  run_graph(state, fmt::format("x: \"{0}[512, 1024]\", y: \"{0}[512, 1024]\"", dtype),
            "        add = torch.ops.aten.add.Tensor(x, y)\n        return (add,)\n",
            kRows * kCols);
}
BENCHMARK_CAPTURE(BM_AddContiguous, f32, "f32");
BENCHMARK_CAPTURE(BM_AddContiguous, bf16, "bf16");

void BM_MulBroadcastTransposed(benchmark::State& state) {
  run_graph(state, "x: \"bf16[1024, 512]\", y: \"bf16[1024]\"",
            "        t = torch.ops.aten.transpose.int(x, 0, 1)\n"
            "        mul = torch.ops.aten.mul.Tensor(t, y)\n        return (mul,)\n",
            kRows * kCols);
}
BENCHMARK(BM_MulBroadcastTransposed);

void BM_Exp(benchmark::State& state) {
  run_graph(state, "x: \"bf16[512, 1024]\"",
            "        e = torch.ops.aten.exp.default(x)\n        return (e,)\n", kRows * kCols);
}
BENCHMARK(BM_Exp);

void BM_CastBf16ToF32(benchmark::State& state) {
  run_graph(state, "x: \"bf16[512, 1024]\"",
            "        c = torch.ops.aten._to_copy.default(x, dtype = torch.float32)\n"
            "        return (c,)\n",
            kRows * kCols);
}
BENCHMARK(BM_CastBf16ToF32);

void BM_SumLastDim(benchmark::State& state) {
  run_graph(state, "x: \"bf16[512, 1024]\"",
            "        s = torch.ops.aten.sum.dim_IntList(x, [-1])\n        return (s,)\n",
            kRows * kCols);
}
BENCHMARK(BM_SumLastDim);

void BM_AmaxFirstDim(benchmark::State& state) {
  run_graph(state, "x: \"bf16[512, 1024]\"",
            "        s = torch.ops.aten.amax.default(x, [0])\n        return (s,)\n",
            kRows * kCols);
}
BENCHMARK(BM_AmaxFirstDim);

// Items are multiply-adds (m * k * n).
void BM_MatmulBf16(benchmark::State& state) {
  run_graph(state, "x: \"bf16[8, 1024]\", w: \"bf16[1024, 1024]\"",
            "        mm = torch.ops.aten.mm.default(x, w)\n        return (mm,)\n",
            int64_t{8} * 1024 * 1024);
}
BENCHMARK(BM_MatmulBf16);

void BM_QuantMatmulInt8(benchmark::State& state) {
  run_graph(state, "x: \"i8[8, 1024]\", w: \"i8[1024, 2048]\", s: \"f32[2048]\"",
            "        q = torch.ops.npu.npu_quant_matmul.default(x, w, s, "
            "output_dtype = torch.bfloat16)\n        return (q,)\n",
            int64_t{8} * 1024 * 2048);
}
BENCHMARK(BM_QuantMatmulInt8);

// `eqfuse check examples/deepseek_layer.fx examples/deepseek_layer.fx`:
// random inputs (~215 M weight elements), two runs per trial, comparison.
void BM_DeepSeekSelfCheck(benchmark::State& state) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  std::string path = std::string(EQFUSE_SOURCE_DIR) + "/examples/deepseek_layer.fx";
  LoadedGraph g = load_graph(read_file_or_stdin(path), path, reg);
  EquivalenceOptions options;
  options.trials = static_cast<int>(state.range(0));
  for (auto _ : state) {
    EquivalenceResult r = equivalent(g.graph, g.graph, reg, options);
    if (!r.ok) state.SkipWithError(r.first_mismatch.c_str());
  }
}
BENCHMARK(BM_DeepSeekSelfCheck)->Arg(1)->Arg(3)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace eqfuse

BENCHMARK_MAIN();
