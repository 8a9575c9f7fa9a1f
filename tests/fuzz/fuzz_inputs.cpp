// Input values (safetensors bytes or JSON, chosen by the first byte) and
// input types (text or JSON), against a small fixed graph.
#include "fuzz_common.hpp"
#include "graph/io/input_types.hpp"
#include "graph/io/load.hpp"
#include "interp/input_values.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  static const Graph g =
      load_graph(
          "def forward(self, x: \"f32[s0, 4]\", i: \"i64[3]\", b: \"bf16[2, 2]\"):\n"
          "    idx = torch.ops.aten.index_select.default(x, 0, i)\n"
          "    return (idx, b)\n",
          "fixed.fx", reg)
          .graph;
  if (size == 0) return 0;
  const bool safetensors = data[0] & 1;
  const std::string rest = fuzz::json_text(data + 1, size - 1);
  fuzz::only_input_errors([&] { (void)parse_input_values(g, rest, "fuzz.in", safetensors); });
  fuzz::only_input_errors([&] {
    Graph typed = g;
    apply_input_types(typed, parse_input_types_any(rest, "fuzz.types"));
  });
  return 0;
}
