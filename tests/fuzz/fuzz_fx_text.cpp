// FX text: read (parse, resolve, type), print, read the print again: the
// second print must equal the first, and a print must always re-read.
#include "fuzz_common.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  const std::string_view text = fuzz::as_text(data, size);
  if (detect_graph_format(text) != GraphFormat::Fx) return 0;  // fuzz_graph_json's
  std::string first;
  try {
    first = print_fx(load_graph(text, "fuzz.fx", reg).graph, &reg);
  } catch (const Error&) {
    return 0;
  }
  std::string second;
  try {
    second = print_fx(load_graph(first, "printed.fx", reg).graph, &reg);
  } catch (const Error& e) {
    fuzz::finding("a printed graph does not re-read", e.render() + "\n" + first);
  }
  if (second != first) fuzz::finding("print is not a fixed point", first + "\n---\n" + second);
  return 0;
}
