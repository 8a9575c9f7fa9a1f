// Step 4 of emit_graph (to_graph.cpp has the four): the graph built in the
// chosen order. Copies keep their input node (arguments remapped to what
// their classes became); new nodes get torch-style names and arguments
// decoded from the chosen children (node references or literals). Last, the
// streams are checked against the scope markers.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/to_graph_internal.hpp"
#include "graph/streams.hpp"

namespace eqfuse::emit_detail {
namespace {

std::string torch_base_name(std::string_view qualified_op) {
  size_t sep = qualified_op.find("::");
  std::string_view name =
      sep == std::string_view::npos ? qualified_op : qualified_op.substr(sep + 2);
  return std::string(name.substr(0, name.find('.')));
}

ArgType element_type(ArgType list) {
  switch (list) {
    case ArgType::TensorList:
      return ArgType::Tensor;
    case ArgType::IntList:
      return ArgType::Int;
    case ArgType::FloatList:
      return ArgType::Float;
    case ArgType::BoolList:
      return ArgType::Bool;
    default:
      return ArgType::Any;
  }
}

}  // namespace

Graph Emitter::build_graph(const std::vector<int32_t>& order) {
  Graph out;
  out.name = in_.name;
  out.reserve(order.size() + 1);
  for (const Node& n : in_.nodes()) used_names_.insert(n.name);
  out_ref_.assign(items_.size(), NodeRef{});
  for (int32_t x : order) {
    tick();
    out_ref_[static_cast<size_t>(x)] = NodeRef{static_cast<int32_t>(out.size())};
    out.add(make_node(items_[static_cast<size_t>(x)]));
  }
  if (auto o = in_.output()) {
    Node node = in_.node(*o);
    for (Arg& a : node.args) a = remap(a);
    for (auto& [k, a] : node.kwargs) a = remap(a);
    out.add(std::move(node));
  }
  return out;
}

Node Emitter::make_node(const Item& item) {
  if (item.input != kNone) {
    Node node = in_.nodes()[static_cast<size_t>(item.input)];
    for (Arg& a : node.args) a = remap(a);
    for (auto& [k, a] : node.kwargs) a = remap(a);
    return node;
  }
  NodeView v = g_.node(item.enode);
  Node node;
  node.meta.stream = item.stream;
  const TensorFact& fact = req_.types.data(item.cls);
  node.type = fact.type;
  node.type_annotated = fact.type.is_known();  // checked by infer_types, then cleared
  if (v.op == sym_getitem_) {
    node.kind = NodeKind::GetItem;
    node.name = fresh_name("getitem");
    node.args = {class_value(g_.find(v.children[0]), ArgType::Tensor),
                 class_value(g_.find(v.children[1]), ArgType::Int)};
    return node;
  }
  const OpId op = *req_.reg.find(v.op.str());
  const OpSchema& schema = req_.reg.info(op).schema;
  node.kind = NodeKind::Call;
  node.target = std::string(v.op.str());
  node.op = op;
  node.name = fresh_name(torch_base_name(node.target));
  for (size_t i = 0; i < v.children.size(); ++i) {
    const ArgType hint = i < schema.args.size() ? schema.args[i].type : ArgType::Any;
    node.args.push_back(class_value(g_.find(v.children[i]), hint));
  }
  return node;
}

// The value of a class as an argument: a node reference or a literal.
Arg Emitter::class_value(Id cls, ArgType hint) const {
  if (auto it = item_of_class_.find(cls); it != item_of_class_.end())
    return Arg(out_ref_[static_cast<size_t>(it->second)]);
  NodeView v = g_.node(chosen_.at(cls));
  if (auto c = v.constant()) return decode_constant(*c, hint);
  std::vector<Arg> items;
  for (Id kid : v.children) items.push_back(class_value(g_.find(kid), element_type(hint)));
  return Arg::list(std::move(items), v.op.str() == graph_ops::kTuple);
}

// An input argument with its node references replaced by what their
// classes became (a node of the output, or a literal).
Arg Emitter::remap(const Arg& a) const {
  if (a.is_node()) {
    // A kept input node is referenced as such (two get_attr nodes of one
    // attribute share a class but keep their own users).
    if (auto it = item_of_input_.find(a.node().index); it != item_of_input_.end())
      return Arg(out_ref_[static_cast<size_t>(it->second)]);
    return class_value(input_class(a.node().index), ArgType::Any);
  }
  if (a.is_list()) {
    ArgList list = a.as_list();
    for (Arg& item : list.items) item = remap(item);
    return Arg(std::move(list));
  }
  return a;
}

// `base`, else `base_k` for the smallest k whose name is free. Names are
// never released, so the smallest free k only grows: the search resumes
// where it stopped for the same base (linear in the names made, not
// quadratic).
std::string Emitter::fresh_name(const std::string& base) {
  std::string name = base;
  int& k = next_suffix_[base];
  while (used_names_.contains(name)) name = fmt::format("{}_{}", base, ++k);
  used_names_.insert(name);
  return name;
}

// The stream of every node must be what its scope markers say.
void Emitter::check_streams(const Graph& out) const {
  Graph relabelled = out;
  assign_stream_labels(relabelled);
  for (size_t i = 0; i < out.size(); ++i)
    if (relabelled.nodes()[i].meta.stream != out.nodes()[i].meta.stream)
      fail({}, "internal: node '{}' belongs to stream '{}' but was placed in a scope of '{}'",
           out.nodes()[i].name, out.nodes()[i].meta.stream, relabelled.nodes()[i].meta.stream);
}

}  // namespace eqfuse::emit_detail
