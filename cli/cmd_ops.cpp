// `eqfuse ops [--json] [--filter TEXT]`: the registered ops with their
// schemas and traits (kind, in-place twin, view, mutated args), and whether
// shape inference and the reference interpreter cover them.
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/cli_common.hpp"
#include "interp/interpreter.hpp"

namespace eqfuse::cli {

namespace {
struct OpsOptions {
  bool json = false;
  std::string filter;
};

nlohmann::ordered_json op_json(const OpInfo& op) {
  nlohmann::ordered_json j;
  j["name"] = op.schema.qualified_name();
  j["schema"] = op.schema.to_string();
  j["kind"] = op_kind_name(op.traits.kind);
  if (!op.traits.inplace_variant.empty()) j["inplace"] = op.traits.inplace_variant;
  if (op.traits.is_view) j["view"] = true;
  if (!op.traits.mutated_args.empty()) j["mutates"] = op.traits.mutated_args;
  j["shape_inference"] = static_cast<bool>(op.meta);
  j["reference_kernel"] = has_reference_kernel(op.schema.qualified_name());
  return j;
}

std::string op_line(const OpInfo& op) {
  std::string flags = fmt::format("kind={}", op_kind_name(op.traits.kind));
  if (!op.traits.inplace_variant.empty()) flags += " inplace=" + op.traits.inplace_variant;
  if (op.traits.is_view) flags += " view";
  if (!op.traits.mutated_args.empty())
    flags += fmt::format(" mutates={}", fmt::join(op.traits.mutated_args, ","));
  if (!op.meta) flags += " no-meta";
  if (!has_reference_kernel(op.schema.qualified_name())) flags += " no-kernel";
  return fmt::format("{}  | {}\n", op.schema.to_string(), flags);
}

int run_ops(const OpsOptions& o) {
  OpRegistry reg = cli_registry();
  std::vector<const OpInfo*> ops;
  for (const OpInfo& op : reg.all())
    if (o.filter.empty() || op.schema.qualified_name().find(o.filter) != std::string::npos)
      ops.push_back(&op);
  std::sort(ops.begin(), ops.end(), [](const OpInfo* a, const OpInfo* b) {
    return a->schema.qualified_name() < b->schema.qualified_name();
  });
  std::string out;
  if (o.json) {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const OpInfo* op : ops) arr.push_back(op_json(*op));
    out = arr.dump(2) + "\n";
  } else {
    for (const OpInfo* op : ops) out += op_line(*op);
    out += fmt::format("# {} ops\n", ops.size());
  }
  write_output("", out);
  return kOk;
}
}  // namespace

void add_ops_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<OpsOptions>();
  CLI::App* cmd = app.add_subcommand(
      "ops", "List the registered ops: schema, kind, in-place twin, view/mutation traits.");
  add_ops_option(cmd);
  cmd->add_flag("--json", o->json, "Print a JSON array instead of one line per op");
  cmd->add_option("--filter", o->filter, "Only ops whose qualified name contains TEXT");
  cmd->callback([o, &action] { action = [o] { return run_ops(*o); }; });
}

}  // namespace eqfuse::cli
