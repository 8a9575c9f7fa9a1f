// choose_size_reads (pipeline/symbolic_sizes.hpp).
#include "pipeline/symbolic_sizes.hpp"

#include <absl/container/btree_map.h>

#include "graph/graph.hpp"

namespace eqfuse {
namespace {

bool is_symbolic_int(const TensorFact& f) {
  return !f.constant && f.type.kind == ValueType::Kind::SymInt && f.type.sym;
}

// A tensor class holding a graph input or a constant tensor.
bool is_input_tensor(const EGraph& g, Id cls) {
  static const Symbol placeholder = Symbol::intern(graph_ops::kPlaceholder);
  static const Symbol get_attr = Symbol::intern(graph_ops::kGetAttr);
  return !g.class_nodes_with_op(cls, placeholder).empty() ||
         !g.class_nodes_with_op(cls, get_attr).empty();
}

// Symbolic-int classes and, per class, its witness: a node computable from graph inputs,
// constants and the witnesses of other classes, found by rounds of a fixpoint so that
// witnesses never depend on each other in a cycle (sizes that only define each other,
// `a = b * 4` and `b = a // 4`, get none). Classes without a witness hold kNoId.
class Grounding {
 public:
  Grounding(const EGraph& g, const TensorAnalysis& types) : g_(g) {
    for (Id cls : g.class_ids())
      if (is_symbolic_int(types.data(cls))) witness_.emplace(cls, kNoId);
    std::vector<std::pair<Id, Id>> found;
    do {
      found.clear();
      for (const auto& [cls, witness] : witness_) {
        if (witness != kNoId) continue;
        for (Id n : g.class_nodes(cls))
          if (grounded(n)) {
            found.emplace_back(cls, n);
            break;
          }
      }
      // Witnesses of one round count from the next, which keeps the choice acyclic.
      for (const auto& [cls, n] : found) witness_[cls] = n;
    } while (!found.empty());
  }

  // Symbolic classes in increasing id order with their witness (or kNoId).
  const absl::btree_map<Id, Id>& witnesses() const { return witness_; }

 private:
  // Every child is a graph input tensor, a constant, or a size that has a witness. A
  // child of any other kind (a computed tensor, a value of unknown type) is not known to
  // be computable before the graph runs.
  bool grounded(Id node) const {
    for (Id child : g_.node(node).children) {
      Id c = g_.find(child);
      if (auto it = witness_.find(c); it != witness_.end()) {
        if (it->second == kNoId) return false;
      } else if (!is_input_tensor(g_, c) && !g_.constant_of(c)) {
        return false;
      }
    }
    return true;
  }

  const EGraph& g_;
  absl::btree_map<Id, Id> witness_;
};

}  // namespace

SizeReadChoice choose_size_reads(const EGraph& g, const TensorAnalysis& types) {
  SizeReadChoice out;
  Grounding grounding(g, types);
  for (const auto& [cls, witness] : grounding.witnesses()) {
    if (witness == kNoId) continue;  // no alternative: keep every node
    out.kept.insert(witness);
    for (Id n : g.class_nodes(cls))
      if (n != witness) out.skipped.insert(n);
  }
  return out;
}

}  // namespace eqfuse
