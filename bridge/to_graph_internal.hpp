// Internals of emit_graph (bridge/to_graph.hpp) shared by its source files:
// the Emitter, which turns the extraction's choice back into an FX graph, and
// the items it orders. Not part of the public API; include bridge/to_graph.hpp
// instead.
//
// The Emitter's member functions are defined by step (to_graph.cpp lists
// the four steps):
//   to_graph.cpp        emit_graph, run, the time and memory limits, and the
//                       index of the input (each input node's encoding, its
//                       stream scopes)
//   to_graph_items.cpp  steps 1-2: the chosen classes, one item per node to
//                       emit, their data dependencies and ranks
//   to_graph_order.cpp  step 3: ordering edges (side effects, stream scopes)
//                       and the topological order
//   to_graph_build.cpp  step 4: the nodes, their arguments and torch-style
//                       names, and the final stream check
#pragma once
#include <chrono>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>

#include "base/memory_budget.hpp"
#include "bridge/to_graph.hpp"
#include "graph/op_schema.hpp"

namespace eqfuse::emit_detail {

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

class Emitter {
 public:
  explicit Emitter(const EmitRequest& req);

  Graph run();

 private:
  using Clock = std::chrono::steady_clock;

  // ---- the time limit (to_graph.cpp) -----------------------------------------

  void step(const char* what);

  // Inside a step's loops: the clock is read once every 1024 calls, the
  // resident memory once every 16384 (a few microseconds each).
  void tick() {
    if ((++ticks_ & 1023u) != 0) return;
    if (deadline_ && Clock::now() >= *deadline_) stop();
    if ((ticks_ & 16383u) == 0 && memory_limit_reached(req_.memory_limit_bytes)) stop_for_memory();
  }

  [[noreturn]] void stop() const;
  [[noreturn]] void stop_for_memory() const;

  // ---- the input (to_graph.cpp) ----------------------------------------------

  Id input_class(int32_t index) const {
    return g_.find(req_.loaded.node_class.at(static_cast<size_t>(index)));
  }

  struct LookupSink;
  std::optional<NodeKey> input_key(int32_t index) const;
  NodeKey opaque_key(const Node& n) const;
  NodeKey call_key(int32_t index) const;
  NodeKey enode_key(Id enode) const;
  void index_input();
  void index_scopes();

  // ---- the choice (to_graph_items.cpp) ---------------------------------------

  Id chosen(Id cls, Id needed_by) const;
  bool is_literal_node(Id enode) const;
  void collect_needed();

  // ---- items (to_graph_items.cpp) --------------------------------------------

  int32_t add_item(Item item);
  void make_items();
  void require_emittable(Id cls, Id enode) const;
  std::string new_node_stream(Id enode) const;
  void items_in(Id cls, std::vector<int32_t>& out) const;
  void add_edge(int32_t before, int32_t after);
  void direct_input_items(int32_t input, std::vector<int32_t>& out) const;
  void link_dependencies();
  void assign_ranks();

  // ---- ordering constraints and order (to_graph_order.cpp) -------------------

  void add_ordering_edges();
  bool has_side_effect(const Node& n) const;
  void add_side_effect_edges();
  bool chain_positions(const std::vector<int32_t>& effects);
  void order_readers_around(int32_t m, int32_t k);
  void spread_first_effect_reached(int32_t x, int32_t k);
  void spread_last_effect_reaching(int32_t x, int32_t k);
  const ScopeRegion* region_for(int64_t rank, const std::string& label) const;
  void add_stream_edges();
  const ScopeRegion* outermost_labelled_region(int64_t rank) const;
  const ScopeRegion* first_region_labelled(const std::string& label) const;
  int32_t marker(int32_t input_index) const;
  std::vector<int32_t> topological_order();

  // ---- building (to_graph_build.cpp) -----------------------------------------

  Graph build_graph(const std::vector<int32_t>& order);
  Node make_node(const Item& item);
  Arg class_value(Id cls, ArgType hint) const;
  Arg remap(const Arg& a) const;
  std::string fresh_name(const std::string& base);
  void check_streams(const Graph& out) const;

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

}  // namespace eqfuse::emit_detail
