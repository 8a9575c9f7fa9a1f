#include "bridge/from_graph.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/tensor_analysis.hpp"
#include "graph/alias_analysis.hpp"

namespace eqfuse {
namespace {

// Calls that must stay distinct e-nodes because the graph writes memory in
// place (docs/egraph.md "Graphs with in-place ops"). The e-graph treats a
// value as immutable, so two equal-looking calls may only be merged when
// they see the same data:
//  * a call that writes (an in-place op, copy_): two of them do two writes;
//  * a call reading a storage some earlier call wrote: the same call before
//    the write computes something else;
//  * a call whose own result is written later (a buffer, such as
//    empty_like): two such buffers are two places in memory.
// Reads of a storage before its first write see the original data and stay
// mergeable and rewritable, so a graph whose only writes are copy_
// epilogues into its inputs loses nothing (except rules that return an
// input on such a storage: rewrites/rule.hpp).
// Also kept apart: uninitialized buffers (empty, empty_like, new_empty).
// Their contents are arbitrary, so two of them are not one value; merging
// them would make the reinplace passes see one buffer where the graph has
// two (a table op writing both would be refused).
bool makes_uninitialized_buffer(const Node& n, const OpRegistry& reg) {
  if (n.kind != NodeKind::Call || n.op == kNoOp) return false;
  const OpInfo& info = reg.info(n.op);
  if (info.traits.kind != OpKind::Creation) return false;
  return info.schema.name == "empty" || info.schema.name == "empty_like" ||
         info.schema.name == "new_empty";
}

// The storages `written` (by node index: written_arguments) writes to.
std::set<StorageId> ever_written(const AliasAnalysis& aa,
                                 const std::vector<std::vector<NodeRef>>& written) {
  std::set<StorageId> out;
  for (const auto& args : written)
    for (NodeRef a : args)
      for (StorageId st : aa.storages_of(a)) out.insert(st);
  return out;
}

std::vector<bool> calls_to_keep_apart(const Graph& graph, const OpRegistry& reg,
                                      const AliasAnalysis& aa,
                                      const std::vector<std::vector<NodeRef>>& written) {
  std::vector<bool> apart(graph.size(), false);
  for (size_t i = 0; i < graph.size(); ++i)
    apart[i] = makes_uninitialized_buffer(graph.nodes()[i], reg);
  const std::set<StorageId> written_ever = ever_written(aa, written);
  if (written_ever.empty()) return apart;
  std::set<StorageId> written_so_far;
  for (size_t i = 0; i < graph.size(); ++i) {
    const Node& n = graph.nodes()[i];
    if (n.kind != NodeKind::Call) continue;
    const NodeRef self{static_cast<int32_t>(i)};
    bool keep = !written[i].empty();
    for (NodeRef in : node_inputs(n))
      for (StorageId st : aa.storages_of(in)) keep = keep || written_so_far.count(st) > 0;
    for (StorageId st : aa.storages_of(self))
      keep = keep || (written_ever.count(st) > 0 && aa.nodes_in(st).front() == self);
    apart[i] = apart[i] || keep;
    for (NodeRef a : written[i])
      for (StorageId st : aa.storages_of(a)) written_so_far.insert(st);
  }
  return apart;
}

// Nodes (by index) whose value may live in one of `storages`.
std::vector<bool> nodes_living_in(const Graph& graph, const AliasAnalysis& aa,
                                  const std::set<StorageId>& storages) {
  std::vector<bool> out(graph.size(), false);
  for (StorageId st : storages)
    for (NodeRef r : aa.nodes_in(st)) out[static_cast<size_t>(r.index)] = true;
  return out;
}

// What the loader learns from the alias analysis: the calls to keep apart
// and, by node index, the values living in written, input and returned
// storages (LoadedEGraph::storages).
struct StorageFacts {
  std::vector<bool> keep_apart, written, input, output;
};

StorageFacts storage_facts(const Graph& graph, const OpRegistry& reg) {
  std::vector<std::vector<NodeRef>> written(graph.size());
  for (size_t i = 0; i < graph.size(); ++i) written[i] = written_arguments(graph.nodes()[i], reg);
  AliasAnalysis aa(graph, reg);
  std::set<StorageId> inputs, outputs;
  for (size_t i = 0; i < graph.size(); ++i) {
    NodeKind k = graph.nodes()[i].kind;
    if (k != NodeKind::Placeholder && k != NodeKind::GetAttr) continue;
    for (StorageId st : aa.storages_of(NodeRef{static_cast<int32_t>(i)})) inputs.insert(st);
  }
  for (NodeRef r : graph.output_values())
    for (StorageId st : aa.storages_of(r)) outputs.insert(st);
  StorageFacts f;
  f.keep_apart = calls_to_keep_apart(graph, reg, aa, written);
  f.written = nodes_living_in(graph, aa, ever_written(aa, written));
  f.input = nodes_living_in(graph, aa, inputs);
  f.output = nodes_living_in(graph, aa, outputs);
  return f;
}

class Loader {
 public:
  Loader(const Graph& graph, const OpRegistry& reg, EGraph& g)
      : graph_(graph), reg_(reg), g_(g), types_(dynamic_cast<TensorAnalysis*>(g.analysis())) {}

  LoadedEGraph run() {
    out_.node_class.assign(graph_.size(), kNoId);
    out_.node_payload.assign(graph_.size(), 0);
    StorageFacts facts = storage_facts(graph_, reg_);
    keep_apart_ = std::move(facts.keep_apart);
    std::vector<Id> effects;
    for (size_t i = 0; i < graph_.size(); ++i) {
      const Node& n = graph_.nodes()[i];
      Id id = kNoId;
      switch (n.kind) {
        case NodeKind::Placeholder:
          id = add_leaf(graph_ops::kPlaceholder, n.name, n);
          break;
        case NodeKind::GetAttr:
          id = add_leaf(graph_ops::kGetAttr, n.target, n);
          break;
        case NodeKind::GetItem:
          id = add_getitem(n);
          break;
        case NodeKind::Call:
          id = n.op == kNoOp ? add_opaque(n) : add_call(n, i);
          if (n.op == kNoOp || has_side_effect(n)) effects.push_back(id);
          break;
        case NodeKind::Output:
          break;
      }
      out_.node_class[i] = id;
      record_storage(i, id, facts);
    }
    for (NodeRef r : graph_.output_values()) out_.outputs.push_back(class_of(r, graph_.node(r)));
    for (Id id : out_.outputs) add_root(id);
    for (Id id : effects) add_root(id);
    return std::move(out_);
  }

 private:
  void record_storage(size_t node, Id id, const StorageFacts& facts) {
    if (id == kNoId) return;
    if (facts.written[node]) out_.storages.written.push_back(id);
    if (facts.input[node]) out_.storages.inputs.push_back(id);
    if (facts.output[node]) out_.storages.outputs.push_back(id);
  }

  void add_root(Id id) {
    if (std::find(out_.roots.begin(), out_.roots.end(), id) == out_.roots.end())
      out_.roots.push_back(id);
  }

  Id class_of(NodeRef r, const Node& user) const {
    if (!r.valid() || static_cast<size_t>(r.index) >= out_.node_class.size() ||
        out_.node_class[static_cast<size_t>(r.index)] == kNoId) {
      fail(user.meta.loc, "node '{}' uses a value that is not defined before it", user.name);
    }
    return out_.node_class[static_cast<size_t>(r.index)];
  }

  Id add_leaf(const char* op, const std::string& name, const Node& n) {
    Symbol sym = Symbol::intern(op);
    uint64_t payload = Symbol::intern(name).id();
    if (types_ != nullptr) types_->set_leaf_type(sym, payload, n.type);
    return g_.add(sym, std::span<const Id>{}, payload);
  }

  Id add_getitem(const Node& n) {
    Id src = class_of(n.getitem_source(), n);
    Id idx = g_.add_constant(Constant::integer(n.getitem_index()));
    return g_.add(ENode(Symbol::intern(graph_ops::kGetItem), {src, idx}));
  }

  Id add_opaque(const Node& n) {
    Symbol sym = Symbol::intern(std::string(graph_ops::kOpaquePrefix) + n.target);
    uint64_t payload = Symbol::intern(n.name).id();
    ChildVec children;
    for (NodeRef r : node_inputs(n)) children.push_back(class_of(r, n));
    if (types_ != nullptr) types_->set_leaf_type(sym, payload, n.type);
    ++out_.opaque_calls;
    return g_.add(sym, as_span(children), payload);
  }

  Id add_call(const Node& n, size_t index) {
    const OpInfo& info = reg_.info(n.op);
    if (n.args.size() != info.schema.args.size() || !n.kwargs.empty()) {
      fail(n.meta.loc, "node '{}' is not normalized: {} arguments for schema {}", n.name,
           n.args.size(), info.schema.to_string());
    }
    ChildVec children;
    for (const Arg& a : n.args) children.push_back(encode(a, n));
    // A call returning nothing exists only for its effect (scope markers),
    // and calls_to_keep_apart names the others that must not merge: they
    // are made unique (and so never matched by a rule).
    uint64_t payload = info.schema.returns.empty() || keep_apart_[index]
                           ? Symbol::intern(n.name).id()
                       : n.meta.stream.empty() ? 0
                                               : Symbol::intern(n.meta.stream).id();
    out_.node_payload[index] = payload;
    return g_.add(Symbol::intern(info.schema.qualified_name()), as_span(children), payload);
  }

  bool has_side_effect(const Node& n) const {
    const OpInfo& info = reg_.info(n.op);
    return info.schema.mutates_any() || !info.traits.mutated_args.empty() ||
           info.schema.returns.empty();
  }

  // Sink for encode_arg (bridge/arg_encoding.hpp).
  struct ArgSink {
    Loader& self;
    const Node& user;
    Id constant(const Constant& c) { return self.g_.add_constant(c); }
    Id node(NodeRef r) { return self.class_of(r, user); }
    Id list(Symbol op, std::span<const Id> items) { return self.g_.add(op, items); }
  };

  Id encode(const Arg& a, const Node& user) {
    ArgSink sink{*this, user};
    return encode_arg(a, sink);
  }

  const Graph& graph_;
  const OpRegistry& reg_;
  EGraph& g_;
  TensorAnalysis* types_;
  LoadedEGraph out_;
  std::vector<bool> keep_apart_;  // by node index: calls_to_keep_apart
};

}  // namespace

LoadedEGraph load_into_egraph(const Graph& graph, const OpRegistry& reg, EGraph& g) {
  return Loader(graph, reg, g).run();
}

std::string loaded_head_name(Symbol op, uint64_t payload) {
  std::string_view name = op.str();
  if (payload == 0) return std::string(name);
  // Every non-zero payload of a loaded node is a Symbol id (see the header).
  std::string_view text = Symbol(static_cast<uint32_t>(payload)).str();
  if (name == graph_ops::kPlaceholder || name == graph_ops::kGetAttr) return std::string(text);
  if (name.starts_with(graph_ops::kOpaquePrefix))
    name.remove_prefix(std::string_view(graph_ops::kOpaquePrefix).size());
  return fmt::format("{}@{}", name, text);
}

}  // namespace eqfuse
