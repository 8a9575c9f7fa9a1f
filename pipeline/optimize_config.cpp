// Optimize config files: apply_config_json (the OptimizeOptions keys) and
// apply_optimize_config (the whole file: op catalogs, .rules files,
// vllm-ascend's section, the reinplace section).
#include "pipeline/optimize_config.hpp"
#include "pipeline/presets.hpp"

#include <cstdint>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/json_text.hpp"
#include "graph/io/load.hpp"
#include "passes/reinplace.hpp"
#include "rewrites/config.hpp"

namespace eqfuse {
namespace {

using Json = nlohmann::json;

[[noreturn]] void config_error(std::string_view origin, std::string_view key,
                               std::string_view msg) {
  throw Error(fmt::format("{}: config key '{}': {}", origin, key, msg));
}

template <class T>
T config_value(const Json& v, std::string_view origin, std::string_view key,
               std::string_view expected) {
  try {
    return v.get<T>();
  } catch (const Json::exception&) {
    config_error(origin, key, fmt::format("expected {}, got {}", expected, v.dump()));
  }
}

// A whole number from 0 to `max`: JSON's 2.7, -5 and 1e300 are errors, not
// 2, "no limit" and an overflow.
size_t config_count(const Json& v, std::string_view origin, std::string_view key,
                    std::string_view what, std::uint64_t max) {
  if (v.is_number_unsigned() && v.get<std::uint64_t>() <= max) return v.get<std::uint64_t>();
  config_error(
      origin, key,
      fmt::format("expected {} (a whole number from 0 to {}), got {}", what, max, v.dump()));
}

// The RuleConfig list a selector key appends to (rule names or labels), or null.
std::vector<std::string>* selector_list(RuleConfig& rules, std::string_view key) {
  if (key == "disable_rules") return &rules.disable;
  if (key == "enable_rules") return &rules.enable;
  if (key == "only_rules") return &rules.only;
  if (key == "assume_rules") return &rules.assume;
  return nullptr;
}

void apply_key(OptimizeOptions& o, const std::string& key, const Json& v, std::string_view origin) {
  if (key == "mode") {
    try {
      o.rules.mode = parse_exec_mode(config_value<std::string>(v, origin, key, "a mode name"));
    } catch (const Error& e) {
      config_error(origin, key, e.what());
    }
  } else if (key == "pattern_fusion_pass" || key == "experimental_config.pattern_fusion_pass") {
    o.rules.pattern_fusion_pass = config_value<bool>(v, origin, key, "true or false");
  } else if (key == "remove_noop_ops" || key == "experimental_config.remove_noop_ops") {
    o.rules.remove_noop_ops = config_value<bool>(v, origin, key, "true or false");
  } else if (std::vector<std::string>* selectors = selector_list(o.rules, key)) {
    for (auto& s : config_value<std::vector<std::string>>(v, origin, key, "a list of names"))
      selectors->push_back(std::move(s));
  } else if (key == "preset") {
    // Applied first by apply_config_json, whatever its place in the file.
  } else if (key == "device") {
    o.device = config_value<std::string>(v, origin, key, "a profile name or path");
  } else if (key == "world_size") {
    o.world_size = static_cast<int>(config_count(v, origin, key, "a rank count", 1'000'000));
  } else if (key == "extractor") {
    o.extractor = config_value<std::string>(v, origin, key, "an extractor name");
  } else if (key == "node_limit") {
    o.limits.nodes = config_count(v, origin, key, "a node count", 1'000'000'000);
    o.node_limit_follows_input = false;
  } else if (key == "iter_limit") {
    o.limits.iterations = config_count(v, origin, key, "an iteration count", 1'000'000);
  } else if (key == "time_limit") {
    const double s = config_value<double>(v, origin, key, "seconds");
    if (!(s >= 0 && s <= 1e6))
      config_error(origin, key, fmt::format("expected seconds from 0 to 1e6, got {}", v.dump()));
    o.limits.seconds = s;
    o.extract_time_limit_s = s;
    o.phase_time_limit_s = s;
  } else if (key == "frozen_inputs") {
    for (auto& s : config_value<std::vector<std::string>>(v, origin, key, "a list of patterns"))
      o.frozen_inputs.push_back(s);
  } else if (key == "memory_limit") {
    // A size string ("8G") or a number of bytes; 0 turns the limit off.
    if (v.is_string())
      o.memory_limit_bytes =
          parse_memory_size(v.template get<std::string>(), fmt::format("{}: {}", origin, key));
    else
      o.memory_limit_bytes = static_cast<size_t>(config_count(
          v, origin, key, "a size such as \"8G\" or a number of bytes", std::uint64_t{1} << 62));
  } else if (key == "reinplace_passes") {
    // Off for compilers that do their own buffer reuse and want a functional
    // graph (the Python backend's inner="inductor" and GraphPass).
    o.reinplace_passes = config_value<bool>(v, origin, key, "true or false");
  } else if (key == "remove_cat_ops" || key == "debug.aclgraph.remove_cat_ops") {
    o.remove_cat_ops = config_value<bool>(v, origin, key, "true or false");
  } else if (key == "inplace_pass" || key == "input_inplace_pass") {
    // npugraph_ex's compiler_config names of the two reinplace passes (true by default).
    const bool on = config_value<bool>(v, origin, key, "true or false");
    (key == "inplace_pass" ? o.reinplace.disable_reinplace_inplaceable_ops_pass
                           : o.reinplace.disable_reinplace_input_mutated_ops_pass) = !on;
  } else if (key == kDisableInplaceableKey) {
    o.reinplace.disable_reinplace_inplaceable_ops_pass =
        config_value<bool>(v, origin, key, "true or false");
  } else if (key == kDisableInputMutatedKey) {
    o.reinplace.disable_reinplace_input_mutated_ops_pass =
        config_value<bool>(v, origin, key, "true or false");
  } else if (key == "reinplace" || key.starts_with("reinplace.")) {
    // The reinplace section (custom ops, table entries) needs a registry:
    // `eqfuse reinplace --config` applies it; optimize leaves it alone.
  } else if (key == "ops" || key == "rules" || key.starts_with("additional_config.") ||
             key.starts_with("compilation_config.")) {
    // Only the whole-file reader takes these (they register ops, load rules).
    config_error(origin, key,
                 "read by apply_optimize_config (pipeline/optimize_config.hpp), not by "
                 "apply_config_json");
  } else {
    config_error(origin, key,
                 "unknown key (known: preset, mode, pattern_fusion_pass, "
                 "experimental_config.pattern_fusion_pass, remove_noop_ops, "
                 "experimental_config.remove_noop_ops, disable_rules, enable_rules, only_rules, "
                 "assume_rules, device, "
                 "extractor, node_limit, iter_limit, time_limit, frozen_inputs, remove_cat_ops, "
                 "debug.aclgraph.remove_cat_ops, "
                 "debug.aclgraph.disable_reinplace_inplaceable_ops_pass, "
                 "debug.aclgraph.disable_reinplace_input_mutated_ops_pass, inplace_pass, "
                 "input_inplace_pass, reinplace, "
                 "memory_limit, reinplace_passes, ops, rules, "
                 "additional_config.ascend_compilation_config, compilation_config.pass_config)");
  }
}

// Nested objects are the dotted keys ({"experimental_config":
// {"pattern_fusion_pass": false}}, {"debug": {"aclgraph": {...}}}), except
// the reinplace section, which is one value.
void apply_object(OptimizeOptions& o, const std::string& prefix, const Json& obj,
                  std::string_view origin) {
  for (const auto& [key, value] : obj.items()) {
    std::string full = prefix.empty() ? key : prefix + "." + key;
    if (value.is_object() && full != "reinplace")
      apply_object(o, full, value, origin);
    else
      apply_key(o, full, value, origin);
  }
}

}  // namespace

void apply_config_json(OptimizeOptions& options, std::string_view text, std::string_view origin) {
  const Json doc = parse_json_text<Json>(text, origin);
  if (!doc.is_object()) throw Error(fmt::format("{}: a config file holds one JSON object", origin));
  // A peer preset is the base the file's other keys adjust.
  if (auto it = doc.find("preset"); it != doc.end()) {
    const auto name = config_value<std::string>(*it, origin, "preset", "a preset name");
    try {
      apply_preset(options, name);
    } catch (const Error& e) {
      config_error(origin, "preset", e.what());
    }
  }
  apply_object(options, "", doc, origin);
}

namespace {

// A config's top-level `key`: one file (`what`, e.g. "a .rules file") or a
// list of them, relative to the config file's folder. Returns the paths and
// takes the key out of `config`; none when the config has no such key.
std::vector<std::string> take_config_files(std::string& config, const std::string& origin,
                                           std::string_view key, std::string_view what) {
  nlohmann::ordered_json doc = parse_json_text<nlohmann::ordered_json>(config, origin);
  if (!doc.is_object() || !doc.contains(key)) return {};
  const nlohmann::ordered_json& value = doc.at(key);
  std::vector<std::string> files;
  if (value.is_string()) files.push_back(value.get<std::string>());
  if (value.is_array())
    for (const auto& f : value) {
      if (!f.is_string()) throw Error(fmt::format("{}: {}: expected file names", origin, key));
      files.push_back(f.get<std::string>());
    }
  if (!value.is_string() && !value.is_array())
    throw Error(fmt::format("{}: {}: expected {} or a list of them", origin, key, what));
  const std::filesystem::path dir = std::filesystem::path(origin).parent_path();
  std::vector<std::string> paths;
  for (const std::string& f : files) {
    const std::filesystem::path path =
        std::filesystem::path(f).is_relative() ? dir / f : std::filesystem::path(f);
    paths.push_back(path.string());
  }
  doc.erase(std::string(key));
  config = doc.dump();
  return paths;
}

}  // namespace

OptimizeConfigFiles apply_optimize_config(OptimizeOptions& options, OpRegistry& reg,
                                          std::string_view text, const std::string& origin) {
  OptimizeConfigFiles files;
  std::string config(text);
  files.op_files = take_config_files(config, origin, "ops", "an op catalog file");
  for (const std::string& path : files.op_files) reg.load_catalog(read_file_or_stdin(path), path);
  files.rule_files = take_config_files(config, origin, "rules", "a .rules file");
  RuleConfig vllm;  // vllm-ascend's and vLLM's own sections (take_peer_config)
  PeerConfig v = take_peer_config(config, origin, vllm);
  files.notes = std::move(v.notes);
  apply_config_json(options, v.rest, origin);
  apply_reinplace_config_json(options.reinplace, reg, v.rest, origin);
  std::vector<std::string>& disable = options.rules.disable;
  std::vector<std::string>& enable = options.rules.enable;
  disable.insert(disable.end(), vllm.disable.begin(), vllm.disable.end());
  enable.insert(enable.end(), vllm.enable.begin(), vllm.enable.end());
  std::vector<std::string>& assume = options.rules.assume;
  assume.insert(assume.end(), vllm.assume.begin(), vllm.assume.end());
  return files;
}

}  // namespace eqfuse
