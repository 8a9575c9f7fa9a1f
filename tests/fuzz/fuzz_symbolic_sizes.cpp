// Symbolic sizes: an FX graph (its annotations are the symbolic sizes),
// hints from the first bytes (edge values included), --buckets text; every
// size the cost model, bucketing and check_sizes_fit evaluate must be exact or
// an eqfuse::Error (IntOverflow), never a wrapped value.
#include <optional>

#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
#include "fuzz_common.hpp"
#include "graph/io/load.hpp"
#include "pipeline/buckets.hpp"

using namespace eqfuse;

namespace {

constexpr int64_t kEdge[] = {1, 3, 4096, 1LL << 31, 1LL << 32, 1LL << 62, INT64_MAX, -1, 0};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  static const DeviceProfile profile = load_device_profile(kDefaultDevice);
  if (size < 3) return 0;
  SymbolHints hints;
  hints.values["s0"] = kEdge[data[0] % std::size(kEdge)];
  hints.values["s1"] = kEdge[data[1] % std::size(kEdge)];
  hints.fallback = kEdge[data[2] % std::size(kEdge)] & 0xffff;
  const std::string_view text = fuzz::as_text(data + 3, size - 3);
  // The text after a line "#buckets " is a --buckets spec.
  const size_t mark = text.find("#buckets ");
  const std::string_view graph_text = text.substr(0, mark);
  std::optional<BucketSpec> buckets;
  fuzz::only_input_errors([&] {
    if (mark != text.npos) buckets = parse_buckets(text.substr(mark + 9));
  });
  fuzz::only_input_errors([&] {
    const Graph g = load_graph(graph_text, "fuzz.fx", reg).graph;
    if (buckets) check_bucket_sizes(g, hints, *buckets);
    for (const Node& n : g.nodes())
      if (n.type.is_tensor() && n.type.tensor.shape)
        for (const SymInt& d : *n.type.tensor.shape) (void)hints.evaluate(d);
    check_sizes_fit(g, hints);
    NpuCostModel model(profile, ExecMode::Eager, hints);
    (void)graph_cost(g, reg, model);
  });
  return 0;
}
