// Steps 1 and 2 of emit_graph (to_graph.cpp has the four): the classes the
// chosen nodes need, from the roots down; one item per graph node to emit
// (a copy of an input node or a new call or getitem); the data dependencies
// between items; and the rank each item should stay close to.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "bridge/to_graph_internal.hpp"

namespace eqfuse::emit_detail {

// ---- the choice --------------------------------------------------------

Id Emitter::chosen(Id cls, Id needed_by) const {
  Id n = req_.chosen(cls);
  if (n == kNoId)
    fail({}, "internal: the extraction chose no node for e-class #{} ({}){}", cls,
         g_.term_string(cls),
         needed_by == kNoId ? std::string(", a root")
                            : fmt::format(", needed by e-class #{}", needed_by));
  if (g_.find(n) != cls)
    fail({}, "internal: the extraction chose e-node #{} of e-class #{} for e-class #{}", n,
         g_.find(n), cls);
  return n;
}

bool Emitter::is_literal_node(Id enode) const {
  Symbol op = g_.node_op(enode);
  return is_constant_op(op) || op.str() == graph_ops::kList || op.str() == graph_ops::kTuple;
}

// Depth-first from the roots; post-order puts children before parents.
void Emitter::collect_needed() {
  enum : uint8_t { kUnseen, kActive, kDone };
  absl::flat_hash_map<Id, uint8_t> mark;
  std::vector<std::pair<Id, size_t>> stack;
  for (Id root : req_.loaded.roots) {
    const Id r = g_.find(root);
    if (mark[r] != kUnseen) continue;
    chosen_[r] = chosen(r, kNoId);
    mark[r] = kActive;
    stack.emplace_back(r, 0);
    while (!stack.empty()) {
      tick();
      auto& [cls, next] = stack.back();
      const auto kids = g_.node(chosen_[cls]).children;
      if (next == kids.size()) {
        mark[cls] = kDone;
        needed_.push_back(cls);
        stack.pop_back();
        continue;
      }
      const Id kid = g_.find(kids[next++]);
      if (mark[kid] == kDone) continue;
      if (mark[kid] == kActive)
        fail({}, "internal: the extraction is cyclic through e-class #{} ({})", kid,
             g_.term_string(kid));
      chosen_[kid] = chosen(kid, cls);
      mark[kid] = kActive;
      stack.emplace_back(kid, 0);
    }
  }
}

// ---- items -------------------------------------------------------------

int32_t Emitter::add_item(Item item) {
  items_.push_back(std::move(item));
  return static_cast<int32_t>(items_.size() - 1);
}

void Emitter::make_items() {
  // Placeholders and get_attr nodes are kept whether used or not.
  for (int32_t i = 0; i < static_cast<int32_t>(in_.size()); ++i) {
    const Node& n = in_.nodes()[static_cast<size_t>(i)];
    if (n.kind != NodeKind::Placeholder && n.kind != NodeKind::GetAttr) continue;
    item_of_input_[i] = add_item(Item{i, kNoId, kNoId, i, n.meta.stream, {}, {}});
  }
  for (Id cls : needed_) {
    tick();
    const Id enode = chosen_.at(cls);
    if (is_literal_node(enode)) continue;
    auto hit = input_by_key_.find(enode_key(enode));
    if (hit != input_by_key_.end()) {
      const int32_t i = hit->second;
      auto kept = item_of_input_.find(i);
      int32_t item =
          kept != item_of_input_.end()
              ? kept->second
              : add_item(Item{
                    i, cls, enode, i, in_.nodes()[static_cast<size_t>(i)].meta.stream, {}, {}});
      items_[static_cast<size_t>(item)].cls = cls;
      items_[static_cast<size_t>(item)].enode = enode;
      item_of_input_[i] = item;
      item_of_class_[cls] = item;
      continue;
    }
    require_emittable(cls, enode);
    item_of_class_[cls] = add_item(Item{kNone, cls, enode, 0, new_node_stream(enode), {}, {}});
  }
}

// New nodes can only be registered op calls or getitems: leaves and opaque
// calls are unique to their input node, so they always match it.
void Emitter::require_emittable(Id cls, Id enode) const {
  Symbol op = g_.node_op(enode);
  if (op == sym_getitem_) return;
  if (!req_.reg.find(op.str()))
    fail({},
         "internal: e-class #{} chose e-node #{} '{}', which is neither an input node nor "
         "a registered op",
         cls, enode, op.str());
}

std::string Emitter::new_node_stream(Id enode) const {
  NodeView v = g_.node(enode);
  if (v.op == sym_getitem_) {
    // A projection runs where its source does.
    auto src = item_of_class_.find(g_.find(v.children[0]));
    return src == item_of_class_.end() ? std::string()
                                       : items_[static_cast<size_t>(src->second)].stream;
  }
  return v.payload == 0 ? std::string()
                        : std::string(Symbol(static_cast<uint32_t>(v.payload)).str());
}

// The items class `cls` needs: itself if it is a graph node, else (a list)
// the items of its parts.
void Emitter::items_in(Id cls, std::vector<int32_t>& out) const {
  if (auto it = item_of_class_.find(cls); it != item_of_class_.end()) {
    out.push_back(it->second);
    return;
  }
  for (Id kid : g_.node(chosen_.at(cls)).children) items_in(g_.find(kid), out);
}

void Emitter::add_edge(int32_t before, int32_t after) {
  if (before == after) return;
  auto& deps = items_[static_cast<size_t>(after)].deps;
  if (std::find(deps.begin(), deps.end(), before) != deps.end()) return;
  deps.push_back(before);
  items_[static_cast<size_t>(before)].users.push_back(after);
  if (!other_readers_.empty() && !is_effect_[static_cast<size_t>(after)])
    other_readers_[static_cast<size_t>(before)].push_back(after);
}

// Kept input nodes a kept node references directly (see remap).
void Emitter::direct_input_items(int32_t input, std::vector<int32_t>& out) const {
  for (NodeRef r : node_inputs(in_.nodes()[static_cast<size_t>(input)]))
    if (auto it = item_of_input_.find(r.index); it != item_of_input_.end())
      out.push_back(it->second);
}

void Emitter::link_dependencies() {
  std::vector<int32_t> deps;
  for (int32_t i = 0; i < static_cast<int32_t>(items_.size()); ++i) {
    const Item& item = items_[static_cast<size_t>(i)];
    if (item.enode == kNoId) continue;
    tick();
    deps.clear();
    for (Id kid : g_.node(item.enode).children) items_in(g_.find(kid), deps);
    if (item.input != kNone) direct_input_items(item.input, deps);
    for (int32_t d : deps) add_edge(d, i);
  }
}

// Copies keep their input position; a new node goes where the first input
// node of its class was, or else just before its first user.
void Emitter::assign_ranks() {
  const int64_t last = static_cast<int64_t>(in_.size());
  for (auto it = needed_.rbegin(); it != needed_.rend(); ++it) {  // users first
    auto found = item_of_class_.find(*it);
    if (found == item_of_class_.end()) continue;
    Item& item = items_[static_cast<size_t>(found->second)];
    if (item.input != kNone) continue;
    if (auto first = first_input_in_class_.find(*it); first != first_input_in_class_.end()) {
      item.rank = first->second;
      continue;
    }
    item.rank = last;
    for (int32_t u : item.users)
      item.rank = std::min(item.rank, items_[static_cast<size_t>(u)].rank);
  }
}

}  // namespace eqfuse::emit_detail
