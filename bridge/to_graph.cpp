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
#include "bridge/to_graph.hpp"

#include <algorithm>
#include <chrono>
#include <limits>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_set.h>
#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "base/memory_budget.hpp"
#include "bridge/arg_encoding.hpp"
#include "graph/alias_analysis.hpp"
#include "graph/op_schema.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace {

// Canonical form of an e-node: op, payload, canonical children classes.
using NodeKey = std::vector<uint64_t>;

constexpr int32_t kNone = -1;

struct Item {
  int32_t input = kNone;       // input node copied, or kNone for a new node
  Id cls = kNoId;              // the class it stands for (kNoId: unused placeholder)
  Id enode = kNoId;            // chosen e-node (kNoId: unused placeholder)
  int64_t rank = 0;            // position in the input it should stay close to
  std::string stream;          // stream label, "" = default stream
  std::vector<int32_t> deps;   // items that must come first
  std::vector<int32_t> users;  // reverse of deps
};

// A scope_enter ... scope_exit region of the input.
struct ScopeRegion {
  int32_t enter = kNone;
  int32_t exit = kNone;
  std::string label;
};

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

class Emitter {
 public:
  explicit Emitter(const EmitRequest& req)
      : req_(req), g_(req.g), in_(req.input), sym_getitem_(Symbol::intern(graph_ops::kGetItem)) {
    if (req.time_limit_s < 1e9)
      deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                     std::chrono::duration<double>(req.time_limit_s));
  }

  Graph run() {
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
      if (items_[static_cast<size_t>(order[i])].input == kNone)
        out.nodes()[i].type_annotated = false;
    check_streams(out);
    return out;
  }

 private:
  using Clock = std::chrono::steady_clock;

  // ---- the time limit ------------------------------------------------------

  // Between steps: the clock is read every time.
  void step(const char* what) {
    doing_ = what;
    if (deadline_ && Clock::now() >= *deadline_) stop();
    if (memory_limit_reached(req_.memory_limit_bytes)) stop_for_memory();
  }

  // Inside a step's loops: the clock is read once every 1024 calls, the
  // resident memory once every 16384 (a few microseconds each).
  void tick() {
    if ((++ticks_ & 1023u) != 0) return;
    if (deadline_ && Clock::now() >= *deadline_) stop();
    if ((ticks_ & 16383u) == 0 && memory_limit_reached(req_.memory_limit_bytes)) stop_for_memory();
  }

  [[noreturn]] void stop() const {
    throw EmitTimeLimit(
        fmt::format("emit stopped by the time limit ({} s) while {}", req_.time_limit_s, doing_));
  }

  [[noreturn]] void stop_for_memory() const {
    throw EmitTimeLimit(
        fmt::format("emit stopped by the memory limit ({} resident, limit {}) "
                    "while {}",
                    format_memory_size(resident_memory_bytes()),
                    format_memory_size(req_.memory_limit_bytes), doing_));
  }

  // ---- the input ---------------------------------------------------------

  Id input_class(int32_t index) const {
    return g_.find(req_.loaded.node_class.at(static_cast<size_t>(index)));
  }

  // Finds classes of already-loaded constants and lists (encode_arg sink).
  struct LookupSink {
    const Emitter& self;
    const Node& user;
    Id constant(const Constant& c) const { return existing(c.op(), {}, c.bits); }
    Id node(NodeRef r) const { return self.input_class(r.index); }
    Id list(Symbol op, std::span<const Id> items) const { return existing(op, items, 0); }
    Id existing(Symbol op, std::span<const Id> ch, uint64_t payload) const {
      auto id = self.g_.lookup(op, ch, payload);
      if (!id)
        fail(user.meta.loc,
             "internal: argument of node '{}' is not in the e-graph (was it loaded?)", user.name);
      return *id;
    }
  };

  // The e-node node `index` was loaded as (bridge/from_graph.cpp), canonical.
  std::optional<NodeKey> input_key(int32_t index) const {
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

  NodeKey opaque_key(const Node& n) const {
    NodeKey key{Symbol::intern(std::string(graph_ops::kOpaquePrefix) + n.target).id(),
                Symbol::intern(n.name).id()};
    for (NodeRef r : node_inputs(n)) key.push_back(input_class(r.index));
    return key;
  }

  NodeKey call_key(int32_t index) const {
    const Node& n = in_.nodes()[static_cast<size_t>(index)];
    const OpSchema& schema = req_.reg.info(n.op).schema;
    NodeKey key{Symbol::intern(schema.qualified_name()).id(),
                req_.loaded.node_payload.at(static_cast<size_t>(index))};
    LookupSink sink{*this, n};
    for (const Arg& a : n.args) key.push_back(g_.find(encode_arg(a, sink)));
    return key;
  }

  NodeKey enode_key(Id enode) const {
    NodeView v = g_.node(enode);
    NodeKey key{v.op.id(), v.payload};
    for (Id c : v.children) key.push_back(g_.find(c));
    return key;
  }

  void index_input() {
    for (int32_t i = 0; i < static_cast<int32_t>(in_.size()); ++i) {
      const Node& n = in_.nodes()[static_cast<size_t>(i)];
      if (n.kind == NodeKind::Output) continue;
      if (auto key = input_key(i)) input_by_key_.try_emplace(std::move(*key), i);
      first_input_in_class_.try_emplace(input_class(i), i);
    }
    index_scopes();
  }

  void index_scopes() {
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

  // ---- the choice --------------------------------------------------------

  Id chosen(Id cls, Id needed_by) const {
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

  bool is_literal_node(Id enode) const {
    Symbol op = g_.node_op(enode);
    return is_constant_op(op) || op.str() == graph_ops::kList || op.str() == graph_ops::kTuple;
  }

  // Depth-first from the roots; post-order puts children before parents.
  void collect_needed() {
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

  int32_t add_item(Item item) {
    items_.push_back(std::move(item));
    return static_cast<int32_t>(items_.size() - 1);
  }

  void make_items() {
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
  void require_emittable(Id cls, Id enode) const {
    Symbol op = g_.node_op(enode);
    if (op == sym_getitem_) return;
    if (!req_.reg.find(op.str()))
      fail({},
           "internal: e-class #{} chose e-node #{} '{}', which is neither an input node nor "
           "a registered op",
           cls, enode, op.str());
  }

  std::string new_node_stream(Id enode) const {
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
  void items_in(Id cls, std::vector<int32_t>& out) const {
    if (auto it = item_of_class_.find(cls); it != item_of_class_.end()) {
      out.push_back(it->second);
      return;
    }
    for (Id kid : g_.node(chosen_.at(cls)).children) items_in(g_.find(kid), out);
  }

  void add_edge(int32_t before, int32_t after) {
    if (before == after) return;
    auto& deps = items_[static_cast<size_t>(after)].deps;
    if (std::find(deps.begin(), deps.end(), before) != deps.end()) return;
    deps.push_back(before);
    items_[static_cast<size_t>(before)].users.push_back(after);
    if (!other_readers_.empty() && !is_effect_[static_cast<size_t>(after)])
      other_readers_[static_cast<size_t>(before)].push_back(after);
  }

  // Kept input nodes a kept node references directly (see remap).
  void direct_input_items(int32_t input, std::vector<int32_t>& out) const {
    for (NodeRef r : node_inputs(in_.nodes()[static_cast<size_t>(input)]))
      if (auto it = item_of_input_.find(r.index); it != item_of_input_.end())
        out.push_back(it->second);
  }

  void link_dependencies() {
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
  void assign_ranks() {
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

  // ---- ordering constraints ------------------------------------------------

  void add_ordering_edges() {
    add_side_effect_edges();
    add_stream_edges();
  }

  // Calls kept in input order: mutating schemas, calls returning nothing, and
  // opaque calls (an unknown op may write anything), except Python builtins on
  // numbers and SymInts (graph/alias_analysis.hpp). Those are pure size
  // arithmetic, and the symbolic-size merge may make one the read of a size
  // that an earlier node now uses (pipeline/symbolic_sizes.hpp): a MoE layer's
  // `zeros([sym_size(x, 0), 64])` may take its `s0*s1` from `mul_200 = s0 * s1`
  // at the end of the graph. Chained after the in-place index_add_ that writes
  // the zeros buffer, it would close a cycle no order satisfies.
  bool has_side_effect(const Node& n) const {
    if (n.kind != NodeKind::Call) return false;
    if (n.op == kNoOp) return !is_scalar_builtin_call(in_, n);
    const OpInfo& info = req_.reg.info(n.op);
    return info.schema.mutates_any() || !info.traits.mutated_args.empty() ||
           info.schema.returns.empty();
  }

  // Side-effecting calls stay in input order, and the other readers of
  // their arguments stay on the side of the call they were on.
  void add_side_effect_edges() {
    std::vector<int32_t> effects;
    for (int32_t i = 0; i < static_cast<int32_t>(items_.size()); ++i) {
      const Item& item = items_[static_cast<size_t>(i)];
      if (item.input != kNone && has_side_effect(in_.nodes()[static_cast<size_t>(item.input)]))
        effects.push_back(i);
    }
    std::sort(effects.begin(), effects.end(), [&](int32_t a, int32_t b) {
      return items_[static_cast<size_t>(a)].input < items_[static_cast<size_t>(b)].input;
    });
    for (size_t k = 1; k < effects.size(); ++k) add_edge(effects[k - 1], effects[k]);
    if (effects.empty()) return;
    // From here on add_edge keeps other_readers_ current.
    is_effect_.assign(items_.size(), 0);
    for (int32_t m : effects) is_effect_[static_cast<size_t>(m)] = 1;
    other_readers_.assign(items_.size(), {});
    for (size_t i = 0; i < items_.size(); ++i)
      for (int32_t u : items_[i].users)
        if (!is_effect_[static_cast<size_t>(u)]) other_readers_[i].push_back(u);
    if (!chain_positions(effects)) {
      // A cycle already (reported by topological_order): nothing to place.
      is_effect_.clear();
      other_readers_.clear();
      return;
    }
    for (size_t k = 0; k < effects.size(); ++k)
      order_readers_around(effects[k], static_cast<int32_t>(k));
    is_effect_.clear();
    other_readers_.clear();
    first_effect_reached_.clear();
    last_effect_reaching_.clear();
  }

  // Where every item stands against the chain e_0 -> e_1 -> ... of side
  // effects: the first effect it reaches and the last effect that reaches
  // it. Since the effects are chained, x is upstream of e_k exactly when
  // first_effect_reached_[x] <= k and downstream when
  // last_effect_reaching_[x] >= k: one pass in topological order, instead of
  // two whole-graph closures per effect (quadratic in a decoder stack with
  // a cache write per layer). False when the items have a cycle.
  bool chain_positions(const std::vector<int32_t>& effects) {
    const size_t n = items_.size();
    std::vector<int32_t> order;
    order.reserve(n);
    std::vector<size_t> pending(n);
    for (size_t i = 0; i < n; ++i) {
      pending[i] = items_[i].deps.size();
      if (pending[i] == 0) order.push_back(static_cast<int32_t>(i));
    }
    for (size_t head = 0; head < order.size(); ++head) {
      tick();
      for (int32_t u : items_[static_cast<size_t>(order[head])].users)
        if (--pending[static_cast<size_t>(u)] == 0) order.push_back(u);
    }
    if (order.size() != n) return false;
    std::vector<int32_t> chain_index(n, kNotAnEffect);
    for (size_t k = 0; k < effects.size(); ++k)
      chain_index[static_cast<size_t>(effects[k])] = static_cast<int32_t>(k);
    last_effect_reaching_.assign(n, kNotAnEffect);
    first_effect_reached_.assign(n, kNoLaterEffect);
    for (int32_t x : order) {
      int32_t& last = last_effect_reaching_[static_cast<size_t>(x)];
      for (int32_t d : items_[static_cast<size_t>(x)].deps)
        last = std::max(last, last_effect_reaching_[static_cast<size_t>(d)]);
      last = std::max(last, chain_index[static_cast<size_t>(x)]);
    }
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      int32_t& first = first_effect_reached_[static_cast<size_t>(*it)];
      for (int32_t u : items_[static_cast<size_t>(*it)].users)
        first = std::min(first, first_effect_reached_[static_cast<size_t>(u)]);
      if (chain_index[static_cast<size_t>(*it)] != kNotAnEffect)
        first = std::min(first, chain_index[static_cast<size_t>(*it)]);
    }
    return true;
  }

  // Side effects are chained in input order, so every other one is upstream
  // or downstream of `m` (effect number k of the chain) already: only
  // readers that are not side effects need a place. One neither upstream nor
  // downstream goes on the side its rank says; the chain positions are kept
  // exact as edges are added (each only moves positions toward k).
  void order_readers_around(int32_t m, int32_t k) {
    const int64_t rank = items_[static_cast<size_t>(m)].rank;
    const std::vector<int32_t> args = items_[static_cast<size_t>(m)].deps;
    for (int32_t a : args) {
      const std::vector<int32_t> readers = other_readers_[static_cast<size_t>(a)];
      for (int32_t r : readers) {
        if (r == m) continue;
        if (first_effect_reached_[static_cast<size_t>(r)] <= k ||
            last_effect_reaching_[static_cast<size_t>(r)] >= k)
          continue;  // upstream or downstream of m already
        if (items_[static_cast<size_t>(r)].rank <= rank) {
          add_edge(r, m);
          spread_first_effect_reached(r, k);
        } else {
          add_edge(m, r);
          spread_last_effect_reaching(r, k);
        }
      }
    }
  }

  // After an edge x -> e_k: x and what reaches it now reach e_k.
  void spread_first_effect_reached(int32_t x, int32_t k) {
    std::vector<int32_t> stack{x};
    while (!stack.empty()) {
      tick();
      const int32_t y = stack.back();
      stack.pop_back();
      int32_t& first = first_effect_reached_[static_cast<size_t>(y)];
      if (first <= k) continue;
      first = k;
      for (int32_t d : items_[static_cast<size_t>(y)].deps) stack.push_back(d);
    }
  }

  // After an edge e_k -> x: e_k reaches x and what x reaches.
  void spread_last_effect_reaching(int32_t x, int32_t k) {
    std::vector<int32_t> stack{x};
    while (!stack.empty()) {
      tick();
      const int32_t y = stack.back();
      stack.pop_back();
      int32_t& last = last_effect_reaching_[static_cast<size_t>(y)];
      if (last >= k) continue;
      last = k;
      for (int32_t u : items_[static_cast<size_t>(y)].users) stack.push_back(u);
    }
  }

  // The innermost scope labelled `label` around input position `rank`.
  const ScopeRegion* region_for(int64_t rank, const std::string& label) const {
    const ScopeRegion* found = nullptr;
    for (const ScopeRegion& r : regions_) {
      if (r.exit == kNone || r.enter >= rank || r.exit <= rank || r.label != label) continue;
      if (!found || r.enter > found->enter) found = &r;
    }
    return found;
  }

  // Stream nodes go inside a scope with their label; default-stream nodes
  // that would land inside a labelled scope go before it.
  void add_stream_edges() {
    for (int32_t i = 0; i < static_cast<int32_t>(items_.size()); ++i) {
      tick();
      const Item& item = items_[static_cast<size_t>(i)];
      if (item.input != kNone &&
          in_.nodes()[static_cast<size_t>(item.input)].kind == NodeKind::Call &&
          (in_.nodes()[static_cast<size_t>(item.input)].target == kScopeEnterTarget ||
           in_.nodes()[static_cast<size_t>(item.input)].target == kScopeExitTarget))
        continue;
      if (item.stream.empty()) {
        if (const ScopeRegion* r = outermost_labelled_region(item.rank))
          add_edge(i, marker(r->enter));
        continue;
      }
      const ScopeRegion* r = region_for(item.rank, item.stream);
      if (r == nullptr) r = first_region_labelled(item.stream);
      if (r == nullptr) continue;
      add_edge(marker(r->enter), i);
      add_edge(i, marker(r->exit));
    }
  }

  const ScopeRegion* outermost_labelled_region(int64_t rank) const {
    const ScopeRegion* found = nullptr;
    for (const ScopeRegion& r : regions_)
      if (r.exit != kNone && !r.label.empty() && r.enter < rank && rank < r.exit &&
          (!found || r.enter < found->enter))
        found = &r;
    return found;
  }

  const ScopeRegion* first_region_labelled(const std::string& label) const {
    for (const ScopeRegion& r : regions_)
      if (r.exit != kNone && r.label == label) return &r;
    return nullptr;
  }

  int32_t marker(int32_t input_index) const {
    auto it = item_of_input_.find(input_index);
    if (it == item_of_input_.end())
      fail(in_.nodes()[static_cast<size_t>(input_index)].meta.loc,
           "internal: scope marker '{}' was not emitted",
           in_.nodes()[static_cast<size_t>(input_index)].name);
    return it->second;
  }

  // ---- order ---------------------------------------------------------------

  std::vector<int32_t> topological_order() {
    std::vector<size_t> pending(items_.size());
    using Entry = std::pair<int64_t, int32_t>;  // (rank, item): ties by creation order
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> ready;
    for (size_t i = 0; i < items_.size(); ++i) {
      pending[i] = items_[i].deps.size();
      if (pending[i] == 0) ready.emplace(items_[i].rank, static_cast<int32_t>(i));
    }
    std::vector<int32_t> order;
    while (!ready.empty()) {
      tick();
      const int32_t x = ready.top().second;
      ready.pop();
      order.push_back(x);
      for (int32_t u : items_[static_cast<size_t>(x)].users)
        if (--pending[static_cast<size_t>(u)] == 0)
          ready.emplace(items_[static_cast<size_t>(u)].rank, u);
    }
    if (order.size() != items_.size()) {
      for (size_t i = 0; i < items_.size(); ++i)
        if (pending[i] > 0)
          fail({},
               "internal: no order satisfies the data, stream and side-effect constraints "
               "(stuck at e-class #{}: {})",
               items_[i].cls, g_.term_string(items_[i].cls));
    }
    return order;
  }

  // ---- building ------------------------------------------------------------

  Graph build_graph(const std::vector<int32_t>& order) {
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

  Node make_node(const Item& item) {
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
  Arg class_value(Id cls, ArgType hint) const {
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
  Arg remap(const Arg& a) const {
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
  std::string fresh_name(const std::string& base) {
    std::string name = base;
    int& k = next_suffix_[base];
    while (used_names_.contains(name)) name = fmt::format("{}_{}", base, ++k);
    used_names_.insert(name);
    return name;
  }

  // The stream of every node must be what its scope markers say.
  void check_streams(const Graph& out) const {
    Graph relabelled = out;
    assign_stream_labels(relabelled);
    for (size_t i = 0; i < out.size(); ++i)
      if (relabelled.nodes()[i].meta.stream != out.nodes()[i].meta.stream)
        fail({}, "internal: node '{}' belongs to stream '{}' but was placed in a scope of '{}'",
             out.nodes()[i].name, out.nodes()[i].meta.stream, relabelled.nodes()[i].meta.stream);
  }

  const EmitRequest& req_;
  const EGraph& g_;
  const Graph& in_;
  const Symbol sym_getitem_;

  absl::flat_hash_map<NodeKey, int32_t> input_by_key_;  // first input node per encoding
  absl::flat_hash_map<Id, int32_t> first_input_in_class_;
  std::vector<ScopeRegion> regions_;

  absl::flat_hash_map<std::string, int> next_suffix_;  // fresh_name's resume point per base
  absl::flat_hash_map<Id, Id> chosen_;                 // needed class -> chosen e-node
  std::vector<Id> needed_;                             // children before parents

  std::vector<Item> items_;
  absl::flat_hash_map<Id, int32_t> item_of_class_;
  absl::flat_hash_map<int32_t, int32_t> item_of_input_;
  std::vector<NodeRef> out_ref_;
  absl::flat_hash_set<std::string> used_names_;

  // While side effects are ordered: which items are side effects, and per
  // item its users that are not (the readers order_readers_around places).
  std::vector<unsigned char> is_effect_;
  std::vector<std::vector<int32_t>> other_readers_;
  // Chain positions while side-effect edges are added (chain_positions).
  static constexpr int32_t kNotAnEffect = -1;
  static constexpr int32_t kNoLaterEffect = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> first_effect_reached_;
  std::vector<int32_t> last_effect_reaching_;

  std::optional<Clock::time_point> deadline_;
  uint32_t ticks_ = 0;
  const char* doing_ = "";
};

}  // namespace

Graph emit_graph(const EmitRequest& req) {
  return Emitter(req).run();
}

}  // namespace eqfuse
