// Back from the e-graph to an FX graph (bridge/to_graph.hpp).
//
// The emitter works in four steps:
//  1. collect the classes the chosen nodes need, from the roots down;
//  2. make one Item per graph node to emit: every input placeholder and
//     get_attr, and every needed class whose chosen node is not a literal
//     (constant, prim::list, prim::tuple). An item whose chosen e-node equals
//     an input node's encoding (same op, payload and children classes) is a
//     copy of that node; the others are new calls and getitems;
//  3. order the items: Kahn's algorithm over data dependencies plus ordering
//     edges (stream scopes, side effects), always taking the ready item with
//     the smallest rank, where a rank is a position in the input (the node's
//     own, the first input node of its class, or its first user's);
//  4. build the nodes in that order, name the new ones torch-style, rebuild
//     the output node, and run infer_types.
//
// This file holds the driver, the limits and the index of the input; the
// steps live in to_graph_items.cpp (1, 2), to_graph_order.cpp (3) and
// to_graph_build.cpp (4), with the Emitter declared in to_graph_internal.hpp.
#include "bridge/to_graph.hpp"

#include <chrono>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "base/memory_budget.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/to_graph_internal.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace emit_detail {

Emitter::Emitter(const EmitRequest& req)
    : req_(req), g_(req.g), in_(req.input), sym_getitem_(Symbol::intern(graph_ops::kGetItem)) {
  if (req.time_limit_s < 1e9)
    deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(req.time_limit_s));
}

Graph Emitter::run() {
  step("indexing the input");
  index_input();
  step("collecting the chosen classes");
  collect_needed();
  step("making the nodes");
  make_items();
  step("linking dependencies");
  link_dependencies();
  assign_ranks();
  step("ordering side effects and streams");
  add_ordering_edges();
  step("ordering the nodes");
  std::vector<int32_t> order = topological_order();
  step("building the graph");
  Graph out = build_graph(order);
  step("inferring types");
  infer_types(out, req_.reg);
  for (size_t i = 0; i < order.size(); ++i)
    if (items_[static_cast<size_t>(order[i])].input == kNone) out.nodes()[i].type_annotated = false;
  check_streams(out);
  return out;
}

// ---- the time limit ------------------------------------------------------

// Between steps: the clock is read every time.
void Emitter::step(const char* what) {
  doing_ = what;
  if (deadline_ && Clock::now() >= *deadline_) stop();
  if (memory_limit_reached(req_.memory_limit_bytes)) stop_for_memory();
}

void Emitter::stop() const {
  throw EmitTimeLimit(
      fmt::format("emit stopped by the time limit ({} s) while {}", req_.time_limit_s, doing_));
}

void Emitter::stop_for_memory() const {
  throw EmitTimeLimit(
      fmt::format("emit stopped by the memory limit ({} resident, limit {}) "
                  "while {}",
                  format_memory_size(resident_memory_bytes()),
                  format_memory_size(req_.memory_limit_bytes), doing_));
}

// ---- the input ---------------------------------------------------------

// Finds classes of already-loaded constants and lists (encode_arg sink).
struct Emitter::LookupSink {
  const Emitter& self;
  const Node& user;
  Id constant(const Constant& c) const { return existing(c.op(), {}, c.bits); }
  Id node(NodeRef r) const { return self.input_class(r.index); }
  Id list(Symbol op, std::span<const Id> items) const { return existing(op, items, 0); }
  Id existing(Symbol op, std::span<const Id> ch, uint64_t payload) const {
    auto id = self.g_.lookup(op, ch, payload);
    if (!id)
      fail(user.meta.loc, "internal: argument of node '{}' is not in the e-graph (was it loaded?)",
           user.name);
    return *id;
  }
};

// The e-node node `index` was loaded as (bridge/from_graph.cpp), canonical.
std::optional<NodeKey> Emitter::input_key(int32_t index) const {
  const Node& n = in_.nodes()[static_cast<size_t>(index)];
  auto leaf = [](const char* op, const std::string& name) {
    return NodeKey{Symbol::intern(op).id(), Symbol::intern(name).id()};
  };
  switch (n.kind) {
    case NodeKind::Placeholder:
      return leaf(graph_ops::kPlaceholder, n.name);
    case NodeKind::GetAttr:
      return leaf(graph_ops::kGetAttr, n.target);
    case NodeKind::GetItem: {
      LookupSink sink{*this, n};
      return NodeKey{sym_getitem_.id(), 0, input_class(n.getitem_source().index),
                     g_.find(sink.constant(Constant::integer(n.getitem_index())))};
    }
    case NodeKind::Call:
      return n.op == kNoOp ? opaque_key(n) : call_key(index);
    case NodeKind::Output:
      break;
  }
  return std::nullopt;
}

NodeKey Emitter::opaque_key(const Node& n) const {
  NodeKey key{Symbol::intern(std::string(graph_ops::kOpaquePrefix) + n.target).id(),
              Symbol::intern(n.name).id()};
  for (NodeRef r : node_inputs(n)) key.push_back(input_class(r.index));
  return key;
}

NodeKey Emitter::call_key(int32_t index) const {
  const Node& n = in_.nodes()[static_cast<size_t>(index)];
  const OpSchema& schema = req_.reg.info(n.op).schema;
  NodeKey key{Symbol::intern(schema.qualified_name()).id(),
              req_.loaded.node_payload.at(static_cast<size_t>(index))};
  LookupSink sink{*this, n};
  for (const Arg& a : n.args) key.push_back(g_.find(encode_arg(a, sink)));
  return key;
}

NodeKey Emitter::enode_key(Id enode) const {
  NodeView v = g_.node(enode);
  NodeKey key{v.op.id(), v.payload};
  for (Id c : v.children) key.push_back(g_.find(c));
  return key;
}

void Emitter::index_input() {
  for (int32_t i = 0; i < static_cast<int32_t>(in_.size()); ++i) {
    const Node& n = in_.nodes()[static_cast<size_t>(i)];
    if (n.kind == NodeKind::Output) continue;
    if (auto key = input_key(i)) input_by_key_.try_emplace(std::move(*key), i);
    first_input_in_class_.try_emplace(input_class(i), i);
  }
  index_scopes();
}

void Emitter::index_scopes() {
  std::vector<int32_t> open;
  for (int32_t i = 0; i < static_cast<int32_t>(in_.size()); ++i) {
    const Node& n = in_.nodes()[static_cast<size_t>(i)];
    if (n.kind != NodeKind::Call) continue;
    if (n.target == kScopeEnterTarget) {
      open.push_back(static_cast<int32_t>(regions_.size()));
      regions_.push_back({i, kNone, n.meta.stream});
    } else if (n.target == kScopeExitTarget && !open.empty()) {
      regions_[static_cast<size_t>(open.back())].exit = i;
      open.pop_back();
    }
  }
}

}  // namespace emit_detail

Graph emit_graph(const EmitRequest& req) {
  return emit_detail::Emitter(req).run();
}

}  // namespace eqfuse
