// Graph JSON (with the deep-nesting and edge-number generators): read, save,
// read the save again; the second save must equal the first.
#include "fuzz_common.hpp"
#include "graph/io/graph_json.hpp"
#include "graph/io/load.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  const std::string text = fuzz::json_text(data, size);
  std::string first;
  try {
    first = save_graph_json(load_graph_json(text, "fuzz.json"), 2, &reg);
    // The typed path the CLI takes as well (ops resolved, types inferred).
    fuzz::only_input_errors([&] { (void)load_graph(text, "fuzz.json", reg); });
  } catch (const Error&) {
    return 0;
  }
  std::string second;
  try {
    second = save_graph_json(load_graph_json(first, "saved.json"), 2, &reg);
  } catch (const Error& e) {
    fuzz::finding("a saved graph does not re-read", e.render() + "\n" + first);
  }
  if (second != first) fuzz::finding("save is not a fixed point", first + "\n---\n" + second);
  return 0;
}
