// Writes N copies of an FX layer chained into one graph (graph/stack.hpp),
// e.g. the DeepSeek-style example layer stacked 61 times as a whole-model
// workload for `eqfuse optimize`:
//
//   build/bench/gen_layer_stack examples/deepseek_layer.fx 61 arg1_1=2 arg2_1=2 > ds61.fx
//
// Usage: gen_layer_stack LAYER.fx COPIES [INPUT=OUTPUT_INDEX]...
// Each INPUT=K makes that input of copy k > 0 the K-th output of copy k-1
// (the hidden state and residual of a decoder layer); other inputs are fresh
// placeholders per copy.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

#include "base/diagnostics.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "graph/stack.hpp"

int main(int argc, char** argv) {
  using namespace eqfuse;
  if (argc < 3) {
    std::fprintf(stderr, "usage: gen_layer_stack LAYER.fx COPIES [INPUT=OUTPUT_INDEX]...\n");
    return 2;
  }
  try {
    const OpRegistry reg = OpRegistry::with_builtin_ops();
    const Graph layer = load_graph(read_file_or_stdin(argv[1]), argv[1], reg).graph;
    std::map<std::string, int> chain;
    for (int i = 3; i < argc; ++i) {
      const std::string spec = argv[i];
      const auto eq = spec.find('=');
      if (eq == std::string::npos) throw Error("expected INPUT=OUTPUT_INDEX, got '" + spec + "'");
      chain[spec.substr(0, eq)] = std::atoi(spec.c_str() + eq + 1);
    }
    const std::string fx = print_fx(stack_layers(layer, std::atoi(argv[2]), chain), &reg);
    std::fwrite(fx.data(), 1, fx.size(), stdout);
  } catch (const Error& e) {
    std::fprintf(stderr, "gen_layer_stack: %s\n", e.what());
    return 2;
  }
  return 0;
}
