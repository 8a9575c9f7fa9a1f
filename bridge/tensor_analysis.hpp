// The tensor analysis: per e-class value type (dtype, shape with symbolic
// dims, tuples for multi-output ops) and constant ints.
//
//   OpRegistry reg = OpRegistry::with_builtin_ops();
//   TensorAnalysis types(reg);
//   EGraph g(&types);
//   LoadedEGraph loaded = load_into_egraph(graph, reg, g);   // registers leaf types
//   const TensorFact& f = types.data(g.find(loaded.class_of(node)));
//
// make: constants give their own fact (ints fold: `constant`); op nodes
// (encoding in bridge/from_graph.hpp) run the op's meta function from the
// OpRegistry on a CallContext rebuilt from the children: a child holding a
// constant becomes a literal argument, a tensor/SymInt child becomes a node
// reference whose type is the child's fact, a `prim::list` child becomes a
// list of those. `getitem` projects a tuple; `aten::sym_size.int` of a known
// dim and `+ - *` (and aten::sym arithmetic) on constant ints fold to
// constants. Placeholders, get_attr and opaque nodes take the types
// registered with set_leaf_type. Anything else is Unknown.
//
// merge: Unknown parts are filled in; two known facts must agree on kind,
// dtype, rank and every dim that is provably different (two distinct
// constants, or expressions differing by a constant), and on constant
// values; otherwise AnalysisConflict is thrown and the e-graph reports the
// rule and match that caused the union.
//
// modify: a class whose fact has a constant int but no constant node gets
// one (union reason "given"), so patterns can bind the folded value. With
// set_merge_symbolic_ints(true) (the optimize pipeline), classes holding the
// same symbolic int (`s0`, `4*s0`) are merged too (reason "given"), so a size
// can be read from any tensor that has it; off, loading and emitting a graph
// gives it back node for node.
#pragma once
#include <optional>
#include <string>
#include <utility>

#include <absl/container/flat_hash_map.h>

#include "egraph/analysis.hpp"
#include "egraph/egraph.hpp"
#include "graph/op_registry.hpp"
#include "graph/value_type.hpp"

namespace eqfuse {

struct TensorFact {
  ValueType type;                   // Unknown if nothing is known
  std::optional<int64_t> constant;  // folded int value
  bool operator==(const TensorFact&) const = default;
};

class TensorAnalysis : public TypedAnalysis<TensorFact> {
 public:
  explicit TensorAnalysis(const OpRegistry& reg) : reg_(reg) {}

  // Type of a leaf-like node identified by its op and payload (placeholder,
  // get_attr, opaque calls). Must be registered before the node is added.
  void set_leaf_type(Symbol op, uint64_t payload, ValueType type);

  // Merge classes holding the same symbolic int (see modify above). Set before
  // loading; off by default.
  void set_merge_symbolic_ints(bool on) { merge_symbolic_ints_ = on; }

  std::string describe(Id cls) const override;
  void modify(EGraph& g, Id cls) override;

  // Fact of a node computed from its children's facts (what make uses).
  TensorFact compute(const EGraph& g, NodeView n) const;
  // Joins `from` into `into`; true if `into` changed. Throws AnalysisConflict.
  static bool join(TensorFact& into, const TensorFact& from);

 protected:
  TensorFact make_data(const EGraph& g, NodeView n) const override { return compute(g, n); }
  bool merge_data(TensorFact& into, const TensorFact& from) const override {
    return join(into, from);
  }

 private:
  TensorFact from_meta(const EGraph& g, const OpInfo& info, NodeView n) const;
  void merge_same_symbolic_value(EGraph& g, Id cls, const SymInt& value);
  std::optional<OpId> op_of(Symbol op) const;

  const OpRegistry& reg_;
  absl::flat_hash_map<std::pair<uint32_t, uint64_t>, ValueType> leaf_types_;
  mutable absl::flat_hash_map<uint32_t, std::optional<OpId>> op_cache_;
  bool merge_symbolic_ints_ = false;
  // The first class seen holding each symbolic int (SymInts are canonical polynomials,
  // so equal values compare and hash equal).
  absl::flat_hash_map<SymInt, Id, std::hash<SymInt>> symbolic_classes_;
};

}  // namespace eqfuse
