// Reading an optimize config file whole: the keys of OptimizeOptions
// (apply_config_json in pipeline/optimize.hpp), vllm-ascend's
// additional_config section, the reinplace section, and the files a config
// names — op catalogs ("ops") and .rules files ("rules"). The CLI's --config
// and Python's optimize(config=...) both read a config through here, so the
// two accept the same keys with the same meaning (docs/cli.md "Config file
// keys").
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "graph/op_registry.hpp"
#include "pipeline/optimize.hpp"

namespace eqfuse {

// What a config brings besides the options it sets.
struct OptimizeConfigFiles {
  // Every file the config named (op catalogs, then .rules files), as opened:
  // relative names are taken relative to the config file's folder.
  std::vector<std::string> op_files;
  // .rules files to load over the default library (proven at load, as --rules).
  std::vector<std::string> rule_files;
  // Notes for the user (vllm-ascend switches accepted and ignored, ...).
  std::vector<std::string> notes;
};

// Applies the config `text` (read from `origin`) to `options`: its op
// catalogs are registered into `reg` first (before any graph is read), then
// vllm-ascend's switches, the optimize keys and the reinplace section. The
// rule toggles end up in the order config keys, vllm-ascend switches; callers
// append their own (flags, arguments) after. Unknown keys and bad values are
// errors naming `origin` and the key.
OptimizeConfigFiles apply_optimize_config(OptimizeOptions& options, OpRegistry& reg,
                                          std::string_view text, const std::string& origin);

}  // namespace eqfuse
