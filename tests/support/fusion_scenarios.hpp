// The scenario folders (tests/scenarios/fusion and tests/scenarios/noop, each
// with a scenarios.json and a README.md) as tests read them: the entries,
// and the optimize options a fusion entry asks for (mode and rule toggles:
// disable_labels, disable_rules, enable_rules).
//
//   for (const nlohmann::json& s : fusion_scenarios()) {
//     OptimizeOptions opt = fusion_scenario_options(s);
//     std::filesystem::path file = kFusionScenarioDir / s.at("file").get<std::string>();
//   }
//   for (const nlohmann::json& s : scenario_entries(kNoopScenarioDir)) ...
#pragma once
#include <cctype>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "graph/io/load.hpp"
#include "pipeline/optimize.hpp"
#include "pipeline/presets.hpp"
#include "rewrites/config.hpp"

namespace eqfuse::testing_support {

inline const std::filesystem::path kFusionScenarioDir =
    std::filesystem::path(EQFUSE_SOURCE_DIR) / "tests/scenarios/fusion";

inline const std::filesystem::path kNoopScenarioDir =
    std::filesystem::path(EQFUSE_SOURCE_DIR) / "tests/scenarios/noop";

// The "scenarios" entries of `dir`/scenarios.json.
inline std::vector<nlohmann::json> scenario_entries(const std::filesystem::path& dir) {
  nlohmann::json doc = nlohmann::json::parse(read_file_or_stdin((dir / "scenarios.json").string()));
  return doc.at("scenarios").get<std::vector<nlohmann::json>>();
}

inline std::vector<nlohmann::json> fusion_scenarios() {
  return scenario_entries(kFusionScenarioDir);
}

// The ranks of a tensor-parallel scenario ("world_size"; 1 without one): the price of its
// collectives and the simulated group its result is checked on.
inline int scenario_world_size(const nlohmann::json& s) {
  return s.contains("world_size") ? s.at("world_size").get<int>() : 1;
}

inline OptimizeOptions fusion_scenario_options(const nlohmann::json& s) {
  OptimizeOptions opt;
  // A peer preset is the base; the scenario's mode and toggles apply on top.
  if (s.contains("preset")) apply_preset(opt, s.at("preset").get<std::string>());
  opt.rules.mode = parse_exec_mode(s.at("mode").get<std::string>());
  for (const char* key : {"disable_labels", "disable_rules"}) {
    if (!s.contains(key)) continue;
    for (const auto& x : s.at(key)) opt.rules.disable.push_back(x.get<std::string>());
  }
  if (s.contains("enable_rules")) {
    for (const auto& x : s.at("enable_rules")) opt.rules.enable.push_back(x.get<std::string>());
  }
  opt.world_size = scenario_world_size(s);
  return opt;
}

// A gtest parameter name for a scenario entry: its file name without the
// extension, other characters than letters and digits as '_'.
inline std::string scenario_test_name(const nlohmann::json& entry) {
  std::string name = entry.at("file").get<std::string>();
  name = name.substr(0, name.find('.'));
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

}  // namespace eqfuse::testing_support
