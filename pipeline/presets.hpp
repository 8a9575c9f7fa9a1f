// Peer presets: another framework's whole default pass set, as that framework means
// it, selected by one name (`--preset vllm-ascend`, config "preset", Python
// `preset=`). Each is a config file (pipeline/presets/NAME.json, embedded) whose
// "config" object is read like a `--config` file: the mode, the peer's passes
// (RuleConfig::only), the assumptions it makes (RuleConfig::assume), its reinplace
// and remove_cat_ops switches.
//
//   OptimizeOptions o;
//   apply_preset(o, "vllm-ascend");   // o.rules.preset == "vllm-ascend"
//   for (const Preset& p : presets()) fmt::print("{}: {}\n", p.name, p.description);
//
// A preset is the base: config keys and command-line flags given with it apply on
// top (an --enable-rule adds to its passes, a --disable-rule removes one).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "pipeline/optimize.hpp"

namespace eqfuse {

struct Preset {
  std::string name;         // "vllm-ascend"
  std::string description;  // one sentence: what runs
  std::string source;       // where the peer's defaults were read
  std::string config;       // the "config" object, as JSON text
};

// Every built-in preset, sorted by name.
const std::vector<Preset>& presets();

// The preset of that name; an Error listing the names (with a did-you-mean) otherwise.
const Preset& find_preset(std::string_view name);

// Applies the preset's config to `options` and records its name in options.rules.preset.
void apply_preset(OptimizeOptions& options, std::string_view name);

}  // namespace eqfuse
