// Pluggable e-class analyses (egg's make / merge / modify).
//
// An analysis owns one fact per e-class (stored by the analysis, indexed by
// class id) and is attached to an EGraph at construction. The e-graph calls
//   make    when a new class is created from its first node,
//   merge   when two classes are unioned (may throw: see AnalysisConflict),
//   refine  when a child's fact changed and a parent node must be re-analysed,
//   modify  after rebuild for classes whose fact changed (may add nodes or
//           union classes, e.g. to insert a folded constant).
// TypedAnalysis<D> implements the storage for a value type D so concrete
// analyses only write `D make(...)` and `bool merge(D&, const D&)`.
//
// Unions carry a Reason (rule + substitution, congruence, or given); when a
// merge is rejected the e-graph turns the AnalysisConflict into an
// eqfuse::Error whose message names the rule and the match that caused it.
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

#include "egraph/enode.hpp"
#include "egraph/id.hpp"

namespace eqfuse {

class EGraph;

// Thrown by an analysis merge when two facts are incompatible.
class AnalysisConflict : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Analysis {
 public:
  virtual ~Analysis() = default;
  // A new class `cls` was created for node `n` (children canonical).
  virtual void make(const EGraph& g, Id cls, NodeView n) = 0;
  // Class `other` is being merged into `root`. Combine other's fact into
  // root's. Returns true if root's fact changed (its parents are then
  // re-analysed). Throw AnalysisConflict to reject the union.
  virtual bool merge(const EGraph& g, Id root, Id other) = 0;
  // Node `n` of class `cls` has children whose facts changed: recompute
  // from the node and join into cls's fact. Returns true if it changed.
  virtual bool refine(const EGraph& g, Id cls, NodeView n) = 0;
  // Hook after rebuild for classes whose fact changed.
  virtual void modify(EGraph& g, Id cls) {
    (void)g;
    (void)cls;
  }
  // Invariant check: the fact of `cls` is consistent with its nodes.
  virtual bool consistent(const EGraph& g, Id cls) const {
    (void)g;
    (void)cls;
    return true;
  }
  // Human-readable fact for exports (DOT, JSON class_data). Empty if none.
  virtual std::string describe(Id cls) const {
    (void)cls;
    return {};
  }
};

// Convenience base: stores one D per class id. Derived classes implement
//   D make_data(const EGraph&, NodeView)
//   bool merge_data(D& into, const D& from)   // true if `into` changed
template <typename D>
class TypedAnalysis : public Analysis {
 public:
  const D& data(Id cls) const { return data_[cls]; }
  D& mutable_data(Id cls) { return data_[cls]; }

  void make(const EGraph& g, Id cls, NodeView n) override {
    if (data_.size() <= cls) data_.resize(cls + 1);
    data_[cls] = make_data(g, n);
  }
  bool merge(const EGraph& g, Id root, Id other) override {
    (void)g;
    return merge_data(data_[root], data_[other]);
  }
  bool refine(const EGraph& g, Id cls, NodeView n) override {
    D fresh = make_data(g, n);
    return merge_data(data_[cls], fresh);
  }
  bool consistent(const EGraph& g, Id cls) const override;

 protected:
  virtual D make_data(const EGraph& g, NodeView n) const = 0;
  virtual bool merge_data(D& into, const D& from) const = 0;

 private:
  std::vector<D> data_;
};

}  // namespace eqfuse
