// Step 3 of emit_graph (to_graph.cpp has the four): the ordering edges
// beyond the data dependencies (side effects kept in input order, the other
// readers of their arguments kept on their side, stream nodes kept inside
// their scopes) and the topological order that takes the ready item of the
// smallest rank first.
#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "base/diagnostics.hpp"
#include "bridge/to_graph_internal.hpp"
#include "graph/alias_analysis.hpp"
#include "graph/streams.hpp"

namespace eqfuse::emit_detail {

// ---- ordering constraints ------------------------------------------------

void Emitter::add_ordering_edges() {
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
bool Emitter::has_side_effect(const Node& n) const {
  if (n.kind != NodeKind::Call) return false;
  if (n.op == kNoOp) return !is_scalar_builtin_call(in_, n);
  const OpInfo& info = req_.reg.info(n.op);
  return info.schema.mutates_any() || !info.traits.mutated_args.empty() ||
         info.schema.returns.empty();
}

// Side-effecting calls stay in input order, and the other readers of
// their arguments stay on the side of the call they were on.
void Emitter::add_side_effect_edges() {
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
bool Emitter::chain_positions(const std::vector<int32_t>& effects) {
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
void Emitter::order_readers_around(int32_t m, int32_t k) {
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
void Emitter::spread_first_effect_reached(int32_t x, int32_t k) {
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
void Emitter::spread_last_effect_reaching(int32_t x, int32_t k) {
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
const ScopeRegion* Emitter::region_for(int64_t rank, const std::string& label) const {
  const ScopeRegion* found = nullptr;
  for (const ScopeRegion& r : regions_) {
    if (r.exit == kNone || r.enter >= rank || r.exit <= rank || r.label != label) continue;
    if (!found || r.enter > found->enter) found = &r;
  }
  return found;
}

// Stream nodes go inside a scope with their label; default-stream nodes
// that would land inside a labelled scope go before it.
void Emitter::add_stream_edges() {
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

const ScopeRegion* Emitter::outermost_labelled_region(int64_t rank) const {
  const ScopeRegion* found = nullptr;
  for (const ScopeRegion& r : regions_)
    if (r.exit != kNone && !r.label.empty() && r.enter < rank && rank < r.exit &&
        (!found || r.enter < found->enter))
      found = &r;
  return found;
}

const ScopeRegion* Emitter::first_region_labelled(const std::string& label) const {
  for (const ScopeRegion& r : regions_)
    if (r.exit != kNone && r.label == label) return &r;
  return nullptr;
}

int32_t Emitter::marker(int32_t input_index) const {
  auto it = item_of_input_.find(input_index);
  if (it == item_of_input_.end())
    fail(in_.nodes()[static_cast<size_t>(input_index)].meta.loc,
         "internal: scope marker '{}' was not emitted",
         in_.nodes()[static_cast<size_t>(input_index)].name);
  return it->second;
}

// ---- order ---------------------------------------------------------------

std::vector<int32_t> Emitter::topological_order() {
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

}  // namespace eqfuse::emit_detail
