// Configs (JSON, with the deep-nesting and edge-number generators): the
// optimize keys, and the reinplace section (custom ops, table entries), which
// registers ops into a registry of its own, and vllm-ascend's section.
#include "fuzz_common.hpp"
#include "passes/reinplace.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/config.hpp"

using namespace eqfuse;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const OpRegistry builtin = OpRegistry::with_builtin_ops();
  const std::string text = fuzz::json_text(data, size);
  fuzz::only_input_errors([&] {
    OptimizeOptions options;
    apply_config_json(options, text, "fuzz.json");
  });
  fuzz::only_input_errors([&] {
    OpRegistry reg = builtin;  // a copy: the section may register ops
    ReinplaceOptions options;
    apply_reinplace_config_json(options, reg, text, "fuzz.json");
  });
  fuzz::only_input_errors([&] {
    RuleConfig rules;
    take_peer_config(text, "fuzz.json", rules);
  });
  return 0;
}
