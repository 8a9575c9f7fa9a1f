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
//  * with `only` (a peer preset's pass list, config "only_rules"), a fusion or
//    no-op rule runs only if `only` or `enable` selects it;
//  * rules labelled `assumption` (their replacement is equal only under a
//    relation of the inputs the graph cannot show, `assume:` in the rule) are
//    off unless `assume` selects them (a preset, vllm-ascend's
//    fuse_norm_quant: true) or they are enabled by name or by the label
//    `assumption`.
// JSON config keys (TorchAir names accepted): "mode",
// "experimental_config.pattern_fusion_pass" (also nested
// {"experimental_config": {"pattern_fusion_pass": false}} and plain
// "pattern_fusion_pass"), "remove_noop_ops" (also under
// "experimental_config"), "disable_rules", "enable_rules", "device",
// "extractor", "node_limit", "iter_limit", "time_limit",
// "debug.aclgraph.disable_reinplace_inplaceable_ops_pass",
// "debug.aclgraph.disable_reinplace_input_mutated_ops_pass". Unknown keys are
// an error naming the key. vllm-ascend's
// "additional_config.ascend_compilation_config.*" switches and vLLM's
// "compilation_config.pass_config.*" are read by take_peer_config (below),
// which the CLI applies before
// apply_config_json. Pass names of other frameworks are rule labels
// (peer_passes(), apply_graph_kernel_flags below).
#pragma once
#include <span>
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
  // Non-empty: only the fusion and no-op rules these select run (a peer's pass list;
  // layout rules always run, they change nothing on their own). `enable` adds to it.
  std::vector<std::string> only;
  // Rule names or labels whose `assumption` rules are accepted: a peer's stated
  // assumption about the model (rewrites/rule.hpp RuleDef::assumes).
  std::vector<std::string> assume;
  std::string preset;  // the peer preset these came from, for the reasons ("" = none)
  // The ranks of the tensor-parallel group the run prices collectives for, which rule
  // conditions and `let:` read as `world_size` (rewrites/condition.hpp); 0: not known.
  // optimize_graph sets it from OptimizeOptions::world_size or the profile.
  int world_size = 0;
};

// Why a rule is on or off under a config, for `eqfuse rules` and the logs.
struct RuleToggle {
  bool enabled = true;
  std::string
      reason;  // "default", "disabled by --disable-rule fusion", "excluded in max-autotune", ...
};

RuleToggle rule_toggle(std::string_view name, const std::vector<std::string>& labels,
                       const RuleConfig& cfg);

// A fusion pass of another framework (TorchAir / npugraph_ex, vllm-ascend,
// vLLM, MindSpore), named as that framework names it. The built-in rules
// that do its work carry `name` as a label, so `--disable-rule NAME`
// switches them; a pass no rule carries is accepted by --disable-rule /
// --enable-rule with a note giving `missing` (RuleLibrary::check_selectors)
// instead of the unknown-name error. docs/rules.md "Passes of other
// frameworks" is the full table.
struct PeerPass {
  std::string_view framework;  // "MindSpore", "vllm-ascend", ...
  std::string_view name;       // pass name or config switch, e.g. "add_rms_norm_fusion"
  std::string_view missing;    // why no rule does it ("" when rules carry the label)
};

// Every pass name eqfuse knows, MindSpore's graph-kernel passes first in the
// order of its "graph kernel passes" INFO line.
std::span<const PeerPass> peer_passes();
// MindSpore's graph_kernel_flags passes only (the first entries of peer_passes()).
std::span<const PeerPass> mindspore_graph_kernel_passes();
const PeerPass* find_peer_pass(std::string_view name);

// MindSpore's `graph_kernel_flags` text, as in
// set_context(graph_kernel_flags="--disable_pass=a,b --enable_pass=c"):
// flags separated by blanks, each `--disable_pass=NAMES` or
// `--enable_pass=NAMES` (NAMES comma-separated), appended to cfg.disable /
// cfg.enable. A name that is not a MindSpore graph-kernel pass, an empty
// name or any other flag is an Error naming the bad part (with a
// did-you-mean suggestion).
void apply_graph_kernel_flags(RuleConfig& cfg, std::string_view flags);

// The peers' own config sections, read as each peer means it (nested objects, or the
// dotted key at the top level):
//  * vllm-ascend's `additional_config.ascend_compilation_config`: `fuse_norm_quant`,
//    `fuse_qknorm_rope`, `fuse_muls_add` and the other fuse_* keys of peer_passes();
//    true enables the rules labelled with the key and accepts their `assumption`
//    rules (RuleConfig::assume), as vllm-ascend's passes assume
//    `scale * scale_reciprocal == 1`; `enable_npugraph_ex` and `enable_static_kernel`
//    are accepted and ignored (a note);
//  * vLLM's `compilation_config.pass_config`: its PassConfig names (`eliminate_noops`,
//    `fuse_norm_quant`, `fuse_act_quant`, `enable_qk_norm_rope_fusion`, `enable_sp`, ...);
//    true enables the rules labelled with the key, no assumption.
// false disables them; a key no rule carries gives check_selectors' note; a value that is
// not a boolean or another key of the section is an Error naming the key.
struct PeerConfig {
  std::string rest;  // the config text without the sections (unchanged when absent)
  std::vector<std::string> notes;
};
PeerConfig take_peer_config(std::string_view text, std::string_view origin, RuleConfig& cfg);

}  // namespace eqfuse
