// Device profiles (JSON, with the generators), then a cost model built on
// the profile pricing a small graph.
#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
#include "fuzz_common.hpp"
#include "graph/io/load.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  static const Graph g = load_graph(
                             "def forward(self, x: \"f16[s0, 4096]\", w: \"f16[4096, 4096]\"):\n"
                             "    mm = torch.ops.aten.mm.default(x, w)\n"
                             "    relu = torch.ops.aten.relu.default(mm)\n"
                             "    return (relu,)\n",
                             "fixed.fx", reg)
                             .graph;
  fuzz::only_input_errors([&] {
    DeviceProfile p = parse_device_profile(fuzz::json_text(data, size), "fuzz.json");
    NpuCostModel model(std::move(p), ExecMode::Eager);
    (void)graph_cost(g, reg, model);
  });
  return 0;
}
