// The multi-mutation table of the reinplace passes (docs/reference/torchair-passes.md
// §6.1, §7.9–§7.11) as data, its validation against a registry, and the JSON
// config section that extends it.
#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "graph/exec_mode.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse {
namespace {

using Kind = OutputProjection::Kind;

OutputProjection out(int i) {
  return {Kind::InplaceOutput, i};
}
OutputProjection arg(int i) {
  return {Kind::MutatedArg, i};
}

// TorchAir's `inplaceable_npu_ops`, with every output projection spelled out.
std::vector<InplaceableOp> torchair_entries() {
  return {
      // (k_rope, c_kv, k_cache', ckv_cache')
      {"npu::npu_kv_rmsnorm_rope_cache_v2_functional",
       "npu::npu_kv_rmsnorm_rope_cache_v2",
       {5, 6},
       {out(0), out(1), arg(5), arg(6)}},
      // (query, query_rope, dequant_scale_q_nope, query_norm, dequant_scale_q_norm,
      //  kv_cache', kr_cache')
      {"npu::npu_mla_prolog_v3_functional",
       "npu::npu_mla_prolog_v3",
       {9, 10},
       {out(0), out(1), out(2), out(3), out(4), arg(9), arg(10)}},
      // (rstd, y -> x1', x -> x2')
      {"npu::npu_add_rms_norm_v2_functional",
       "npu::npu_add_rms_norm_v2",
       {0, 1},
       {out(0), arg(0), arg(1)}},
  };
}

std::string check_projections(const InplaceableOp& e, const OpSchema& functional,
                              const OpSchema& inplace) {
  if (e.outputs.size() != functional.returns.size())
    return fmt::format("{} outputs are mapped but '{}' returns {}", e.outputs.size(), e.functional,
                       functional.returns.size());
  std::vector<int> seen;
  for (size_t i = 0; i < e.outputs.size(); ++i) {
    const OutputProjection& p = e.outputs[i];
    if (p.kind == Kind::MutatedArg) {
      if (std::find(e.mutated_args.begin(), e.mutated_args.end(), p.index) == e.mutated_args.end())
        return fmt::format("output {} maps to argument {}, which is not mutated", i, p.index);
      continue;
    }
    if (p.index < 0 || static_cast<size_t>(p.index) >= inplace.returns.size())
      return fmt::format("output {} maps to output {} of '{}', which returns {}", i, p.index,
                         e.inplace, inplace.returns.size());
    if (std::find(seen.begin(), seen.end(), p.index) != seen.end())
      return fmt::format("output {} of '{}' is mapped twice", p.index, e.inplace);
    seen.push_back(p.index);
  }
  return "";
}

std::string check_mutated_args(const InplaceableOp& e, const OpSchema& functional,
                               const OpSchema& inplace) {
  if (e.mutated_args.empty()) return "no mutated arguments";
  if (functional.args.size() != inplace.args.size())
    return fmt::format("'{}' has {} arguments but '{}' has {}", e.functional,
                       functional.args.size(), e.inplace, inplace.args.size());
  for (int p : e.mutated_args) {
    if (p < 0 || static_cast<size_t>(p) >= functional.args.size())
      return fmt::format("mutated argument {} is out of range ({} arguments)", p,
                         functional.args.size());
    if (functional.args[size_t(p)].type != ArgType::Tensor)
      return fmt::format("mutated argument {} ('{}') is not a Tensor", p,
                         functional.args[size_t(p)].name);
    if (!inplace.args[size_t(p)].mutates())
      return fmt::format("'{}' does not mutate argument {} ('{}'): its schema lacks `(a!)`",
                         e.inplace, p, inplace.args[size_t(p)].name);
  }
  return "";
}

// ---- JSON config ---------------------------------------------------------------------

[[noreturn]] void config_error(std::string_view origin, std::string_view key,
                               std::string_view message) {
  throw Error(fmt::format("{}: config key '{}': {}", origin, key, message));
}

bool json_bool(const nlohmann::json& v, std::string_view origin, std::string_view key) {
  if (!v.is_boolean()) config_error(origin, key, "expected true or false");
  return v.get<bool>();
}

std::vector<int> json_ints(const nlohmann::json& v, std::string_view origin, std::string_view key) {
  if (!v.is_array()) config_error(origin, key, "expected a list of argument positions");
  std::vector<int> out;
  for (const auto& x : v) {
    if (!x.is_number_integer()) config_error(origin, key, "expected integers");
    out.push_back(x.get<int>());
  }
  return out;
}

std::string json_string(const nlohmann::json& v, std::string_view origin, std::string_view key) {
  if (!v.is_string()) config_error(origin, key, "expected a string");
  return v.get<std::string>();
}

std::vector<OutputProjection> json_projections(const nlohmann::json& v, std::string_view origin,
                                               std::string_view key) {
  if (!v.is_array()) config_error(origin, key, "expected a list of {\"output\": i} / {\"arg\": k}");
  std::vector<OutputProjection> out;
  for (const auto& p : v) {
    if (!p.is_object() || p.size() != 1 || !p.begin().value().is_number_integer() ||
        (p.begin().key() != "output" && p.begin().key() != "arg"))
      config_error(origin, key, "each projection is {\"output\": i} or {\"arg\": k}");
    int index = p.begin().value().get<int>();
    out.push_back(p.begin().key() == "arg" ? arg(index)
                                           : OutputProjection{Kind::InplaceOutput, index});
  }
  return out;
}

InplaceableOp json_entry(const nlohmann::json& v, const OpRegistry& reg, std::string_view origin) {
  constexpr std::string_view key = "reinplace.inplaceable_ops";
  if (!v.is_object()) config_error(origin, key, "each entry is an object");
  InplaceableOp e;
  for (const auto& [k, x] : v.items()) {
    if (k == "op") {
      e.functional = json_string(x, origin, "reinplace.inplaceable_ops.op");
    } else if (k == "inplace") {
      e.inplace = json_string(x, origin, "reinplace.inplaceable_ops.inplace");
    } else if (k == "mutated_args") {
      e.mutated_args = json_ints(x, origin, "reinplace.inplaceable_ops.mutated_args");
    } else if (k == "outputs") {
      e.outputs = json_projections(x, origin, "reinplace.inplaceable_ops.outputs");
    } else {
      config_error(origin, fmt::format("{}.{}", key, k),
                   "unknown key (expected op, inplace, mutated_args, outputs)");
    }
  }
  if (e.functional.empty() || e.inplace.empty())
    config_error(origin, key, "each entry needs \"op\" and \"inplace\"");
  if (e.outputs.empty()) {
    std::optional<OpId> f = reg.find(e.functional);
    if (!f) config_error(origin, key, fmt::format("op '{}' is not registered", e.functional));
    e.outputs = projections_by_convention(static_cast<int>(reg.info(*f).schema.returns.size()),
                                          e.mutated_args);
  }
  if (std::string why = InplaceableOpTable::unusable_reason(e, reg); !why.empty())
    config_error(origin, key, fmt::format("entry '{}': {}", e.functional, why));
  return e;
}

// {"op": functional, "inplace": its in-place twin}, both registered.
ViewInplaceOp json_view_inplace_entry(const nlohmann::json& v, const OpRegistry& reg,
                                      std::string_view origin) {
  constexpr std::string_view key = "reinplace.view_inplace_ops";
  if (!v.is_object() || !v.contains("op") || !v.contains("inplace") || v.size() != 2)
    config_error(origin, key, "each entry is an object with exactly \"op\" and \"inplace\"");
  ViewInplaceOp e{json_string(v["op"], origin, "reinplace.view_inplace_ops.op"),
                  json_string(v["inplace"], origin, "reinplace.view_inplace_ops.inplace")};
  for (const std::string& op : {e.functional, e.inplace})
    if (!reg.find(op)) config_error(origin, key, fmt::format("op '{}' is not registered", op));
  return e;
}

void apply_reinplace_section(ReinplaceOptions& o, OpRegistry& reg, const nlohmann::json& section,
                             std::string_view origin) {
  if (!section.is_object()) config_error(origin, "reinplace", "expected an object");
  // Ops first, so that table entries may name them whatever the key order.
  if (section.contains("ops")) {
    const auto& ops = section["ops"];
    if (!ops.is_array()) config_error(origin, "reinplace.ops", "expected a list of catalog lines");
    std::string catalog;
    for (const auto& line : ops) catalog += json_string(line, origin, "reinplace.ops") + "\n";
    reg.load_catalog(catalog, fmt::format("{} (reinplace.ops)", origin));
  }
  for (const auto& [k, v] : section.items()) {
    if (k == "ops") continue;
    if (k == "multi_stream") {
      std::string policy = json_string(v, origin, "reinplace.multi_stream");
      if (policy == "skip-graph") {
        o.multi_stream = MultiStreamPolicy::SkipGraph;
      } else if (policy == "per-node") {
        o.multi_stream = MultiStreamPolicy::PerNode;
      } else {
        config_error(origin, "reinplace.multi_stream", "expected \"skip-graph\" or \"per-node\"");
      }
    } else if (k == "check_multi_mutation_liveness") {
      o.check_multi_mutation_liveness =
          json_bool(v, origin, "reinplace.check_multi_mutation_liveness");
    } else if (k == "check_auto_functionalized_read_aliasing") {
      o.check_auto_functionalized_read_aliasing =
          json_bool(v, origin, "reinplace.check_auto_functionalized_read_aliasing");
    } else if (k == "inplaceable_ops") {
      if (!v.is_array()) config_error(origin, "reinplace.inplaceable_ops", "expected a list");
      for (const auto& e : v) o.table.add(json_entry(e, reg, origin));
    } else if (k == "recover_view_inplace") {
      o.recover_view_inplace = json_bool(v, origin, "reinplace.recover_view_inplace");
    } else if (k == "view_inplace_ops") {
      if (!v.is_array()) config_error(origin, "reinplace.view_inplace_ops", "expected a list");
      for (const auto& e : v) o.view_inplace_table.add(json_view_inplace_entry(e, reg, origin));
    } else {
      config_error(origin, fmt::format("reinplace.{}", k),
                   "unknown key (expected multi_stream, check_multi_mutation_liveness, "
                   "check_auto_functionalized_read_aliasing, ops, inplaceable_ops, "
                   "recover_view_inplace, view_inplace_ops)");
    }
  }
}

}  // namespace

std::vector<OutputProjection> projections_by_convention(int functional_outputs,
                                                        const std::vector<int>& mutated_args) {
  std::vector<OutputProjection> outs;
  int n_out = functional_outputs - static_cast<int>(mutated_args.size());
  for (int i = 0; i < functional_outputs; ++i) {
    outs.push_back(i < n_out ? out(i) : arg(mutated_args[static_cast<size_t>(i - n_out)]));
  }
  return outs;
}

InplaceableOpTable InplaceableOpTable::defaults() {
  InplaceableOpTable t;
  for (InplaceableOp& e : torchair_entries()) t.add(std::move(e));
  return t;
}

void InplaceableOpTable::add(InplaceableOp entry) {
  for (InplaceableOp& e : entries_) {
    if (e.functional == entry.functional) {
      e = std::move(entry);
      return;
    }
  }
  entries_.push_back(std::move(entry));
}

const InplaceableOp* InplaceableOpTable::find(std::string_view functional) const {
  for (const InplaceableOp& e : entries_)
    if (e.functional == functional) return &e;
  return nullptr;
}

std::string InplaceableOpTable::unusable_reason(const InplaceableOp& e, const OpRegistry& reg) {
  std::optional<OpId> f = reg.find(e.functional);
  if (!f) return fmt::format("'{}' is not a registered op", e.functional);
  std::optional<OpId> in = reg.find(e.inplace);
  if (!in) return fmt::format("the in-place op '{}' is not registered", e.inplace);
  const OpSchema& functional = reg.info(*f).schema;
  const OpSchema& inplace = reg.info(*in).schema;
  if (std::string why = check_mutated_args(e, functional, inplace); !why.empty()) return why;
  return check_projections(e, functional, inplace);
}

void apply_reinplace_config_json(ReinplaceOptions& o, OpRegistry& reg, std::string_view text,
                                 std::string_view origin) {
  const nlohmann::json doc = parse_json_text(text, origin);
  if (!doc.is_object()) throw Error(fmt::format("{}: the config must be a JSON object", origin));
  for (const auto& [k, v] : doc.items()) {
    if (k == kDisableInplaceableKey) {
      o.disable_reinplace_inplaceable_ops_pass = json_bool(v, origin, k);
    } else if (k == kDisableInputMutatedKey) {
      o.disable_reinplace_input_mutated_ops_pass = json_bool(v, origin, k);
    } else if (k == "mode") {
      o.mode = parse_exec_mode(json_string(v, origin, k));
    } else if (k == "debug" && v.is_object() && v.contains("aclgraph")) {
      const auto& acl = v["aclgraph"];
      for (std::string_view flag : {kDisableInplaceableKey, kDisableInputMutatedKey}) {
        std::string leaf(flag.substr(flag.rfind('.') + 1));
        if (!acl.contains(leaf)) continue;
        bool value = json_bool(acl[leaf], origin, flag);
        (flag == kDisableInplaceableKey ? o.disable_reinplace_inplaceable_ops_pass
                                        : o.disable_reinplace_input_mutated_ops_pass) = value;
      }
    } else if (k == "reinplace") {
      apply_reinplace_section(o, reg, v, origin);
    }
  }
}

}  // namespace eqfuse
