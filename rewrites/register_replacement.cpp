#include "rewrites/register_replacement.hpp"

#include <fmt/format.h>

namespace eqfuse {

namespace {

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor"; ".default" dropped,
// as the FX parser does.
std::string qualified_target(std::string_view op) {
  std::string_view s = op;
  if (s.starts_with("torch.ops.")) {
    s.remove_prefix(10);
    size_t dot = s.find('.');
    if (dot == std::string_view::npos) return std::string(op);
    std::string out = std::string(s.substr(0, dot)) + "::" + std::string(s.substr(dot + 1));
    if (out.ends_with(".default")) out.resize(out.size() - 8);
    return out;
  }
  std::string out(op);
  if (out.ends_with(".default")) out.resize(out.size() - 8);
  return out;
}

std::string base_name(std::string_view target) {
  size_t colons = target.rfind("::");
  std::string_view name = colons == std::string_view::npos ? target : target.substr(colons + 2);
  size_t dot = name.find('.');
  return std::string(name.substr(0, dot));
}

Graph trace(const TraceFn& fn, std::span<const ExampleInput> inputs, const std::string& origin) {
  GraphBuilder b(origin);
  std::vector<Arg> args;
  for (const ExampleInput& in : inputs) args.push_back(b.input(in.name, in.type));
  std::vector<Arg> outs = fn(b, args);
  return std::move(b).finish(outs);
}

bool add_rule(RuleLibrary& lib, Graph search, Graph replace, std::span<const ExampleInput> inputs,
              const ReplacementOptions& o) {
  if (o.name.empty()) throw Error("register_replacement: a rule needs a name");
  RuleDef r;
  r.name = o.name;
  r.labels = o.labels;
  r.bidirectional = o.bidirectional;
  r.description = o.description;
  r.loc = {"register_replacement(" + o.name + ")", 0, 0};
  r.search = std::move(search);
  r.replace = std::move(replace);
  for (const ExampleInput& in : inputs)
    if (in.value) r.example_values[in.name] = *in.value;
  for (const std::string& w : o.where)
    r.where.push_back(parse_condition(w, {"register_replacement(" + o.name + ") where", 1, 1}));
  r.extra_check = o.extra_check;
  r.extra_check_name = "extra_check";
  r.trusted = !o.check;
  return lib.add(std::move(r), o.skip_duplicates);
}

}  // namespace

std::string GraphBuilder::fresh(std::string_view base) {
  return g_.fresh_name(base);
}

Arg GraphBuilder::input(const std::string& name, ValueType type) {
  Node n;
  n.kind = NodeKind::Placeholder;
  n.name = name;
  n.target = name;
  n.type = std::move(type);
  n.type_annotated = n.type.is_known();
  n.meta.loc = loc();
  return Arg(g_.add(std::move(n)));
}

Arg GraphBuilder::call(std::string_view op, std::vector<Arg> args,
                       std::vector<std::pair<std::string, Arg>> kwargs) {
  Node n;
  n.kind = NodeKind::Call;
  n.target = qualified_target(op);
  n.name = fresh(base_name(n.target));
  n.args = std::move(args);
  n.kwargs = std::move(kwargs);
  n.meta.loc = loc();
  return Arg(g_.add(std::move(n)));
}

Arg GraphBuilder::getitem(const Arg& value, int64_t index) {
  if (!value.is_node()) throw Error("GraphBuilder::getitem needs a traced value", loc());
  Node n;
  n.kind = NodeKind::GetItem;
  n.name = fresh("getitem");
  n.target = "operator.getitem";
  n.args = {value, Arg(index)};
  n.meta.loc = loc();
  return Arg(g_.add(std::move(n)));
}

Graph GraphBuilder::finish(const std::vector<Arg>& outputs) && {
  Node out;
  out.kind = NodeKind::Output;
  out.name = "output";
  out.target = "output";
  out.args = {Arg::list(outputs, true)};
  out.meta.loc = loc();
  g_.add(std::move(out));
  return std::move(g_);
}

bool register_replacement(RuleLibrary& lib, const TraceFn& search_fn, const TraceFn& replace_fn,
                          std::span<const ExampleInput> example_inputs,
                          const ReplacementOptions& options) {
  std::string origin = "register_replacement(" + options.name + ")";
  return add_rule(lib, trace(search_fn, example_inputs, origin),
                  trace(replace_fn, example_inputs, origin), example_inputs, options);
}

bool register_replacement(RuleLibrary& lib, Graph search_pattern, const TraceFn& replace_fn,
                          std::span<const ExampleInput> example_inputs,
                          const ReplacementOptions& options) {
  std::string origin = "register_replacement(" + options.name + ")";
  return add_rule(lib, std::move(search_pattern), trace(replace_fn, example_inputs, origin),
                  example_inputs, options);
}

}  // namespace eqfuse
