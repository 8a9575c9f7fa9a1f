#include "rewrites/config.hpp"

#include <algorithm>
#include <array>
#include <span>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/json_text.hpp"
#include "base/suggest.hpp"

namespace eqfuse {
namespace {

// MindSpore first, in the order of its "graph kernel passes" INFO line
// (mindspore.cn r2.4 fusion_pass.md; torchair-passes.md §10), then the
// newer transpose_batch_matmul_transpose; then vllm-ascend's passes and
// switches (torchair-passes.md §9, peer-passes.md §1b), then TorchAir names
// that are not rule labels. Entries with an empty `missing` are labels of
// built-in rules (rewrites/library/*.rules).
constexpr size_t kMindSporePasses = 22;
constexpr auto kPeerPasses = std::to_array<PeerPass>({
    {"MindSpore", "FlashAttentionFusionV1", ""},
    {"MindSpore", "FlashAttentionFusionV2", ""},
    {"MindSpore", "add_layer_norm_fusion", ""},
    {"MindSpore", "add_layer_norm_v3_fusion", ""},
    {"MindSpore", "add_layer_norm_ext_fusion", ""},
    {"MindSpore", "inference_swiglu_fusion", ""},
    {"MindSpore", "inference_matmul_split_fusion", ""},
    {"MindSpore", "shape_reshape",
     "no FX equivalent: fuses MindSpore's scalar shape subgraph into ReshapeExt; FX sizes are "
     "SymInt values"},
    {"MindSpore", "shape_reshape_2",
     "no FX equivalent: fuses MindSpore's scalar shape subgraph into ReshapeExt; FX sizes are "
     "SymInt values"},
    {"MindSpore", "add_rms_norm_quant_fusion", ""},
    {"MindSpore", "rms_norm_quant_fusion", ""},
    {"MindSpore", "add_rms_norm_fusion", ""},
    {"MindSpore", "add_cast_rms_norm_cast_fusion", ""},
    {"MindSpore", "MatMulAllReduce", ""},
    {"MindSpore", "split_concat_fusion",
     "no gain in FX: split's outputs are views and cat is one copy; the reshape/transpose/reshape "
     "form also costs one copy (MindSpore's Split is a kernel, FX's is not)"},
    {"MindSpore", "matmul_elem_biasadd_fusion", ""},
    {"MindSpore", "matmul_elem_add_fusion", ""},
    {"MindSpore", "matmul_elem_relu_fusion", ""},
    {"MindSpore", "matmul_elem_gelu_fusion", ""},
    {"MindSpore", "inference_qbmm_add_fusion", ""},
    {"MindSpore", "inference_qbmm_allreduce_add_fusion", ""},
    {"MindSpore", "transpose_batch_matmul_transpose", ""},
    // vllm-ascend (HEAD and open pull requests), pass classes and config keys.
    {"vllm-ascend", "AddRMSNormQuantFusionPass", ""},
    {"vllm-ascend", "fuse_norm_quant", ""},
    {"vllm-ascend", "NoOpEliminationPass", ""},
    {"vllm-ascend", "QKNormRopeFusionPass", ""},
    {"vllm-ascend", "fuse_qknorm_rope", ""},
    {"vllm-ascend", "MulsAddFusionPass", ""},
    {"vllm-ascend", "fuse_muls_add", ""},
    {"vllm-ascend", "AllGatherChunkNoOpCleanupPass",
     "not implemented yet: vLLM's sequence_parallel_chunk op is not in the catalog "
     "(docs/tensor-parallel.md)"},
    {"vllm-ascend", "MatmulAllReduceAddRMSNormPass", ""},
    {"vllm-ascend", "fuse_allreduce_rms", ""},
    {"vllm-ascend", "SwiGluDynamicMXQuantFusionPass", ""},
    {"vllm-ascend", "fuse_swiglu_dynamic_mx_quant", ""},
    {"vllm-ascend", "AllGatherMatmulFusionPass", ""},
    {"vllm-ascend", "fuse_all_gather_matmul", ""},
    {"vllm-ascend", "MatmulReduceScatterFusionPass", ""},
    {"vllm-ascend", "fuse_matmul_reduce_scatter", ""},
    {"vllm-ascend", "SequenceParallelismPass",
     "not implemented yet: sequence parallelism needs an op for a rank's slice of a replicated "
     "tensor (docs/tensor-parallel.md)"},
    // vLLM's PassConfig names (compilation_config.pass_config), as its pass manager reads
    // them; the ones with rules are labels of the NPU analogues.
    {"vLLM", "eliminate_noops", ""},
    {"vLLM", "fuse_norm_quant", ""},
    {"vLLM", "fuse_act_quant", ""},
    {"vLLM", "enable_qk_norm_rope_fusion", ""},
    {"vLLM", "enable_sp",
     "not implemented yet: sequence parallelism needs an op for a rank's slice of a replicated "
     "tensor (docs/tensor-parallel.md)"},
    {"vLLM", "fuse_gemm_comms", ""},
    {"vLLM", "fuse_allreduce_rms", ""},
    {"vLLM", "fuse_attn_quant",
     "not implemented yet: no NPU attention kernel with its output quantization in the catalog"},
    {"vLLM", "fuse_rope_kvcache", "no NPU kernel: vLLM fuses it with ROCm AITER only"},
    {"vLLM", "fuse_act_padding", "no NPU kernel: vLLM fuses it with ROCm AITER only"},
    // TorchAir's opt-in npu_fx_pass joint-graph patterns (npu_rms_norm, npu_rotary_mul,
    // npu_fusion_attention) are labels of rules; remove_cat_ops is not.
    // torch_npu's inductor pass (off by default there, TORCHINDUCTOR_ENABLE_FUSED_MATMUL_RELU).
    {"torch_npu", "fused_matmul_relu_pass", ""},
    {"TorchAir", "remove_cat_ops",
     "a post-extraction pass, not a rule: switched by the config key remove_cat_ops "
     "(debug.aclgraph.remove_cat_ops)"},
});

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
  const bool graph_changing = has(labels, "fusion") || has(labels, "noop");
  if (!cfg.only.empty() && graph_changing && !selector_hit(cfg.only, name, labels) &&
      !selector_hit(cfg.enable, name, labels)) {
    return {false, cfg.preset.empty() ? std::string("not selected by only_rules")
                                      : fmt::format("not a pass of --preset {}", cfg.preset)};
  }
  // An assumption rule needs its assumption accepted (or the rule enabled by name or by
  // `assumption`); its other off-by-default labels still apply after that.
  const std::string* enabled_by = nullptr;
  std::string accepted_reason;
  if (has(labels, "assumption")) {
    if (const std::string* accepted = selector_hit(cfg.assume, name, labels)) {
      accepted_reason = cfg.preset.empty()
                            ? fmt::format("assumption accepted ({})", *accepted)
                            : fmt::format("assumption accepted by --preset {}", cfg.preset);
    } else {
      enabled_by = selector_hit(cfg.enable, name, {std::string("assumption")});
      if (enabled_by == nullptr) {
        return {false,
                "assumption: equal only under a relation of its inputs the graph cannot show "
                "(accept it with --preset, vllm-ascend's fuse_norm_quant: true, or "
                "--enable-rule assumption or the rule's name)"};
      }
    }
  }
  // Off-by-default rules: `opt-in` ones by their name or any label, `inexact`
  // ones only by their name or `inexact` itself, so enabling a family or
  // `fusion` never brings in a rewrite that changes results.
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
  if (!accepted_reason.empty()) return {true, accepted_reason};
  return {true, "default"};
}

std::span<const PeerPass> peer_passes() {
  return kPeerPasses;
}

std::span<const PeerPass> mindspore_graph_kernel_passes() {
  return std::span<const PeerPass>(kPeerPasses).first(kMindSporePasses);
}

const PeerPass* find_peer_pass(std::string_view name) {
  for (const PeerPass& p : kPeerPasses)
    if (p.name == name) return &p;
  return nullptr;
}

void apply_graph_kernel_flags(RuleConfig& cfg, std::string_view flags) {
  std::vector<std::string> known;
  for (const PeerPass& p : mindspore_graph_kernel_passes()) known.emplace_back(p.name);
  size_t pos = 0;
  while (pos < flags.size()) {
    const size_t start = flags.find_first_not_of(" \t\n", pos);
    if (start == std::string_view::npos) break;
    size_t end = flags.find_first_of(" \t\n", start);
    if (end == std::string_view::npos) end = flags.size();
    pos = end;
    const std::string_view flag = flags.substr(start, end - start);
    const size_t eq = flag.find('=');
    const std::string_view key = flag.substr(0, eq);
    std::vector<std::string>* target = nullptr;
    if (key == "--disable_pass") target = &cfg.disable;
    if (key == "--enable_pass") target = &cfg.enable;
    if (target == nullptr || eq == std::string_view::npos) {
      throw Error(fmt::format(
          "--graph-kernel-flags: '{}': expected --disable_pass=NAMES or --enable_pass=NAMES "
          "(NAMES comma-separated MindSpore pass names; other graph_kernel_flags are not "
          "supported)",
          flag));
    }
    const std::string_view names = flag.substr(eq + 1);
    size_t p = 0;
    while (true) {
      const size_t comma = names.find(',', p);
      const std::string_view name =
          names.substr(p, comma == std::string_view::npos ? names.npos : comma - p);
      if (name.empty())
        throw Error(fmt::format("--graph-kernel-flags: '{}': empty pass name", flag));
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        throw Error(fmt::format(
            "--graph-kernel-flags: {}={}: not a MindSpore graph-kernel pass{} ('eqfuse rules "
            "--graph-kernel-passes' lists them; eqfuse rule names go to --disable-rule)",
            key, name, did_you_mean(name, known)));
      }
      target->emplace_back(name);
      if (comma == std::string_view::npos) break;
      p = comma + 1;
    }
  }
}

namespace {

// A peer's config section read as that peer means it: where it lives, whose pass
// switches it holds, whether `true` also accepts the assumptions its passes make.
struct PeerSection {
  std::string_view outer, inner;  // "additional_config", "ascend_compilation_config"
  std::string_view framework;     // peer_passes() framework of its keys
  bool accepts_assumptions;       // vllm-ascend's norm-quant assumes scale * reciprocal == 1
  std::span<const std::string_view> ignored;  // keys that choose a backend, not a pass
};

constexpr std::array<std::string_view, 2> kVllmAscendBackendKeys{"enable_npugraph_ex",
                                                                 "enable_static_kernel"};
constexpr std::array<PeerSection, 2> kPeerSections{{
    {"additional_config", "ascend_compilation_config", "vllm-ascend", true, kVllmAscendBackendKeys},
    {"compilation_config", "pass_config", "vLLM", false, {}},
}};

std::string section_name(const PeerSection& s) {
  return fmt::format("{}.{}", s.outer, s.inner);
}

// vllm-ascend's keys are its fuse_* switches; vLLM's every PassConfig name listed.
bool is_section_key(const PeerSection& s, const PeerPass& p) {
  return p.framework == s.framework &&
         (s.framework != "vllm-ascend" || p.name.starts_with("fuse_"));
}

void apply_peer_key(const PeerSection& section, const std::string& key,
                    const nlohmann::ordered_json& v, std::string_view origin, RuleConfig& cfg,
                    std::vector<std::string>& notes) {
  const std::string full = fmt::format("{}.{}", section_name(section), key);
  if (std::find(section.ignored.begin(), section.ignored.end(), key) != section.ignored.end()) {
    notes.push_back(fmt::format("{}: {} chooses {}'s backend, not a fusion; ignored", origin, full,
                                section.framework));
    return;
  }
  const auto known = std::find_if(kPeerPasses.begin(), kPeerPasses.end(), [&](const PeerPass& p) {
    return p.name == key && is_section_key(section, p);
  });
  if (known == kPeerPasses.end()) {
    std::vector<std::string> keys(section.ignored.begin(), section.ignored.end());
    for (const PeerPass& q : kPeerPasses)
      if (is_section_key(section, q)) keys.emplace_back(q.name);
    throw Error(fmt::format("{}: {}: unknown key{}", origin, full, did_you_mean(key, keys)));
  }
  if (!v.is_boolean())
    throw Error(fmt::format("{}: {}: expected true or false, got {}", origin, full, v.dump()));
  if (!v.get<bool>()) {
    cfg.disable.push_back(key);
    return;
  }
  cfg.enable.push_back(key);
  // As vllm-ascend means it: its passes with the assumptions they make about the
  // model (AddRMSNormQuant hands the fused kernel `scale` for `scale_reciprocal`).
  if (section.accepts_assumptions) cfg.assume.push_back(key);
}

// Takes `section` out of `doc` (nested objects, or its dotted key at the top level) and
// applies its keys; true when the config had it.
bool take_section(const PeerSection& section, nlohmann::ordered_json& doc, std::string_view origin,
                  RuleConfig& cfg, std::vector<std::string>& notes) {
  auto apply = [&](const nlohmann::ordered_json& obj) {
    if (!obj.is_object())
      throw Error(fmt::format("{}: {}: expected an object", origin, section_name(section)));
    for (const auto& [key, value] : obj.items())
      apply_peer_key(section, key, value, origin, cfg, notes);
  };
  bool found = false;
  if (auto it = doc.find(section_name(section)); it != doc.end()) {
    apply(*it);
    doc.erase(it);
    found = true;
  }
  if (auto outer = doc.find(std::string(section.outer)); outer != doc.end() && outer->is_object()) {
    if (auto it = outer->find(std::string(section.inner)); it != outer->end()) {
      apply(*it);
      outer->erase(it);
      found = true;
    }
    if (outer->empty()) doc.erase(outer);
  }
  return found;
}

}  // namespace

PeerConfig take_peer_config(std::string_view text, std::string_view origin, RuleConfig& cfg) {
  PeerConfig out{std::string(text), {}};
  auto doc = parse_json_text<nlohmann::ordered_json>(text, origin);
  if (!doc.is_object()) return out;  // apply_config_json reports it
  bool found = false;
  for (const PeerSection& section : kPeerSections)
    found = take_section(section, doc, origin, cfg, out.notes) || found;
  if (found) out.rest = doc.dump();
  return out;
}

}  // namespace eqfuse
