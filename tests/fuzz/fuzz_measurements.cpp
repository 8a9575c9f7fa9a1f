// Kernel-time measurements: eqfuse's CSV/JSON rows, and the profiler formats
// import_measurements detects (torch profiler traces, msprof CSVs), against
// a small fixed graph.
#include "cost/calibrate.hpp"
#include "cost/profile_import.hpp"
#include "fuzz_common.hpp"
#include "graph/io/load.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  static const Graph g =
      load_graph(
          "def forward(self, x: \"f16[8, 4096]\", r: \"f16[8, 4096]\", w: \"f16[4096]\"):\n"
          "    add = torch.ops.aten.add.Tensor(x, r)\n"
          "    mm = torch.ops.aten.mul.Tensor(add, w)\n"
          "    return (mm,)\n",
          "fixed.fx", reg)
          .graph;
  const std::string text = fuzz::json_text(data, size);
  fuzz::only_input_errors([&] { (void)parse_measurements(text, "fuzz.csv"); });
  fuzz::only_input_errors([&] {
    ImportOptions options;
    options.graph = &g;
    options.registry = &reg;
    (void)import_measurements(text, "fuzz.trace", options);
  });
  return 0;
}
