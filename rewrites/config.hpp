// Which rules run: TorchAir / npugraph_ex / MindSpore-style toggles.
//
//   RuleConfig cfg;                                   // defaults: fusion on, reduce-overhead
//   cfg.mode = ExecMode::MaxAutotune;                 // GE: rules labelled `no-ge` excluded
//   cfg.disable.push_back("torchair/bmm-transpose");  // a rule name or a label
//   cfg.enable.push_back("opt-in");                   // opt-in rules by name or label
//   RuleToggle t = rule_toggle(rule.name, rule.labels, cfg);  // t.enabled, t.reason
//
// (Compiled and run by tests/docs/doc_examples_test.cpp. A JSON config file
// is read into OptimizeOptions by apply_config_json, pipeline/optimize.hpp.)
//
// Semantics (docs/rules.md "Toggles"):
//  * pattern_fusion_pass = false turns off every rule labelled `fusion`;
//    layout rules keep running (they change nothing on their own);
//  * remove_noop_ops = false turns off every rule labelled `noop`
//    (rewrites/library/noop.rules: inductor's remove_noop_ops as rules);
//  * mode max-autotune excludes rules labelled `no-ge` (TorchAir rules (d)
//    and (e)), per compile.
//  * rules labelled `opt-in` are off unless enabled by name or label;
//  * rules labelled `inexact` (the replacement is not bit-exact with the
//    unfused chain, e.g. vllm/quantize-mul-as-div) are off unless enabled by
//    name or by the label `inexact` itself: enabling another of their labels
//    (`vllm`, `fusion`) does not turn them on;
//    --disable-rule wins over --enable-rule.
// JSON config keys (TorchAir names accepted): "mode",
// "experimental_config.pattern_fusion_pass" (also nested
// {"experimental_config": {"pattern_fusion_pass": false}} and plain
// "pattern_fusion_pass"), "remove_noop_ops" (also under
// "experimental_config"), "disable_rules", "enable_rules", "device",
// "extractor", "node_limit", "iter_limit", "time_limit",
// "debug.aclgraph.disable_reinplace_inplaceable_ops_pass",
// "debug.aclgraph.disable_reinplace_input_mutated_ops_pass". Unknown keys are
// an error naming the key.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "graph/exec_mode.hpp"

namespace eqfuse {

struct RuleConfig {
  ExecMode mode = ExecMode::ReduceOverhead;
  bool pattern_fusion_pass = true;
  bool remove_noop_ops = true;
  std::vector<std::string> disable;  // rule names or labels
  std::vector<std::string> enable;   // rule names or labels (opt-in and inexact rules)
};

// Why a rule is on or off under a config, for `eqfuse rules` and the logs.
struct RuleToggle {
  bool enabled = true;
  std::string
      reason;  // "default", "disabled by --disable-rule fusion", "excluded in max-autotune", ...
};

RuleToggle rule_toggle(std::string_view name, const std::vector<std::string>& labels,
                       const RuleConfig& cfg);

}  // namespace eqfuse
