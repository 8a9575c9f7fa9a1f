#include "rewrites/config.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace eqfuse {
namespace {

// The first entry of `list` naming the rule or one of its labels.
const std::string* selector_hit(const std::vector<std::string>& list, std::string_view name,
                                const std::vector<std::string>& labels) {
  for (const std::string& s : list) {
    if (s == name) return &s;
    if (std::find(labels.begin(), labels.end(), s) != labels.end()) return &s;
  }
  return nullptr;
}

bool has(const std::vector<std::string>& labels, std::string_view l) {
  return std::find(labels.begin(), labels.end(), l) != labels.end();
}

}  // namespace

RuleToggle rule_toggle(std::string_view name, const std::vector<std::string>& labels,
                       const RuleConfig& cfg) {
  if (const std::string* hit = selector_hit(cfg.disable, name, labels))
    return {false, fmt::format("disabled by --disable-rule {}", *hit)};
  if (!cfg.pattern_fusion_pass && has(labels, "fusion"))
    return {false, "pattern_fusion_pass is off"};
  if (!cfg.remove_noop_ops && has(labels, "noop")) return {false, "remove_noop_ops is off"};
  if (cfg.mode == ExecMode::MaxAutotune && has(labels, "no-ge"))
    return {false, "excluded in max-autotune (GE) mode, as in TorchAir"};
  // Off-by-default rules: `opt-in` ones by their name or any label, `inexact`
  // ones only by their name or `inexact` itself, so enabling a family or
  // `fusion` never brings in a rewrite that changes results.
  const std::string* enabled_by = nullptr;
  if (has(labels, "opt-in")) {
    enabled_by = selector_hit(cfg.enable, name, labels);
    if (enabled_by == nullptr) return {false, "opt-in rule (enable with --enable-rule)"};
  }
  if (has(labels, "inexact")) {
    enabled_by = selector_hit(cfg.enable, name, {std::string("inexact")});
    if (enabled_by == nullptr) {
      return {false,
              "inexact: not bit-exact with the unfused chain (enable with --enable-rule "
              "inexact or the rule's name)"};
    }
  }
  if (enabled_by != nullptr) return {true, fmt::format("enabled by --enable-rule {}", *enabled_by)};
  return {true, "default"};
}

}  // namespace eqfuse
