// Graph call nodes as measurement rows (node_measurement.hpp).
#include "cost/node_measurement.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "graph/io/fx_printer.hpp"

namespace eqfuse {
namespace {

// The FX text of one argument with node references replaced by what the
// node holds: a tensor's annotation, a symbolic int's value.
std::string arg_text(const Graph& g, const Arg& arg) {
  if (arg.is_list()) {
    const ArgList& list = arg.as_list();
    std::string out(1, list.is_tuple ? '(' : '[');
    for (size_t i = 0; i < list.items.size(); ++i)
      out += (i ? ", " : "") + arg_text(g, list.items[i]);
    if (list.is_tuple && list.items.size() == 1) out += ',';
    out += list.is_tuple ? ')' : ']';
    return out;
  }
  if (!arg.is_node()) return format_fx_arg(g, arg);
  const Node& n = g.node(arg.node());
  const ValueType& t = n.type;
  if (t.is_tensor()) {
    // Strides and device would make the text something calibrate's row
    // reader does not take for a tensor; the cost model reads neither.
    TensorType bare{.dtype = t.tensor.dtype, .shape = t.tensor.shape};
    return to_annotation(ValueType::of_tensor(bare));
  }
  if (t.kind == ValueType::Kind::SymInt && t.sym) {
    if (auto v = t.sym->constant()) return fmt::to_string(*v);
    return t.sym->to_string();
  }
  std::string annotation = to_annotation(t);
  return annotation.empty() ? n.name : annotation;
}

const OpInfo& registered_call(const Graph& g, NodeRef call, const OpRegistry& reg) {
  const Node& n = g.node(call);
  if (n.kind != NodeKind::Call || n.op == kNoOp || static_cast<size_t>(n.op) >= reg.all().size())
    throw Error(fmt::format("node '{}' is not a call of a registered op", n.name), n.meta.loc);
  const OpInfo& info = reg.info(n.op);
  if (info.schema.args.size() != n.args.size() || !n.kwargs.empty())
    throw Error(fmt::format("node '{}' is not normalized against its schema", n.name), n.meta.loc);
  return info;
}

std::optional<Dims> concrete_dims(const ValueType& t) {
  if (!t.is_tensor() || !t.tensor.shape || t.tensor.shape->empty()) return std::nullopt;
  Dims d;
  for (const SymInt& s : *t.tensor.shape) d.push_back(s.constant().value_or(kAnyDim));
  return d;
}

// `root_of` maps a tensor node to the node whose shape is reported.
template <typename RootOf>
void collect_dims(const Graph& g, const Arg& arg, RootOf root_of, std::vector<Dims>& out) {
  if (arg.is_list()) {
    for (const Arg& item : arg.as_list().items) collect_dims(g, item, root_of, out);
    return;
  }
  if (!arg.is_node()) return;
  if (auto d = concrete_dims(g.node(root_of(arg.node())).type)) out.push_back(std::move(*d));
}

}  // namespace

std::vector<std::string> measurement_inputs(const Graph& g, NodeRef call, const OpRegistry& reg) {
  const OpSchema& schema = registered_call(g, call, reg).schema;
  const Node& n = g.node(call);
  auto is_default = [&](size_t i) {
    return schema.args[i].default_value && *schema.args[i].default_value == n.args[i];
  };
  // The same trimming as the FX printer, so rows read like the dump's call.
  size_t last_positional = 0;
  for (size_t i = 0; i < schema.args.size(); ++i)
    if (!schema.args[i].kwarg_only && !is_default(i)) last_positional = i + 1;
  std::vector<std::string> out;
  for (size_t i = 0; i < schema.args.size(); ++i) {
    if (schema.args[i].kwarg_only) {
      if (!is_default(i)) out.push_back(schema.args[i].name + "=" + arg_text(g, n.args[i]));
    } else if (i < last_positional) {
      out.push_back(arg_text(g, n.args[i]));
    }
  }
  return out;
}

Measurement measurement_for_node(const Graph& g, NodeRef call, const OpRegistry& reg,
                                 std::string_view stem) {
  Measurement m;
  m.op = reg.info(registered_call(g, call, reg).id).schema.qualified_name();
  m.inputs = measurement_inputs(g, call, reg);
  m.label = fmt::format("{}:{}", stem, g.node(call).name);
  m.where = g.node(call).meta.loc;
  return m;
}

std::string graph_stem(const Graph& g) {
  for (const Node& n : g.nodes())
    if (!n.meta.loc.file.empty()) return std::filesystem::path(n.meta.loc.file).stem().string();
  return g.name;
}

std::vector<Dims> tensor_input_dims(const Graph& g, NodeRef call) {
  std::vector<Dims> out;
  for (const Arg& a : g.node(call).args)
    collect_dims(
        g, a, [](NodeRef r) { return r; }, out);
  return out;
}

std::vector<Dims> tensor_input_dims_before_views(const Graph& g, NodeRef call,
                                                 const OpRegistry& reg) {
  // Only the transposing views: a kernel takes those as a flag on the
  // untransposed tensor, while reshapes happen before the kernel sees it.
  auto transposes = [&](const Node& n) {
    if (n.kind != NodeKind::Call || n.op == kNoOp || n.args.empty() || !n.args[0].is_node())
      return false;
    const std::string name = reg.info(n.op).schema.qualified_name();
    return name == "aten::t" || name == "aten::transpose.int" || name == "aten::permute";
  };
  auto root_of = [&](NodeRef r) {
    while (transposes(g.node(r))) r = g.node(r).args[0].node();
    return r;
  };
  std::vector<Dims> out;
  for (const Arg& a : g.node(call).args) collect_dims(g, a, root_of, out);
  return out;
}

}  // namespace eqfuse
