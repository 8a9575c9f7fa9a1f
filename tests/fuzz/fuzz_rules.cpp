// .rules text: parse, validate and check each rule (user rules are run on
// random inputs at load), then compile the library.
#include "fuzz_common.hpp"
#include "rewrites/rule.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  fuzz::only_input_errors([&] {
    RuleLibrary lib(reg);
    lib.load_text(fuzz::as_text(data, size), "fuzz.rules");
    (void)lib.compile(RuleConfig{}, {}, nullptr);
  });
  return 0;
}
