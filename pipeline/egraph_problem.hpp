// Freezing a saturated e-graph into an ExtractionProblem, and mapping an
// extraction back to e-graph node ids.
//
//   EGraphProblem ep = build_problem(g, roots, [&](Id node) { return price(node); });
//   Extraction x = extract(ep.problem, "auto");
//   Id chosen = ep.chosen_node(x, g.find(some_class));   // e-graph node id or kNoId
//
// Only classes reachable from `roots` are included (through any node). Node
// costs must be finite and non-negative; a node whose cost function returns
// +inf is left out (it can never be chosen), and a class left without nodes
// is an error naming the class. Node and class order follow the e-graph ids,
// so the problem (and hence the extraction) is deterministic.
#pragma once
#include <functional>
#include <span>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "egraph/egraph.hpp"
#include "extract/extractor.hpp"
#include "extract/problem.hpp"

namespace eqfuse {

using EnodeCostFn = std::function<double(Id node)>;

struct EGraphProblem {
  ExtractionProblem problem;
  std::vector<Id> enode_of;                        // problem NodeId -> e-graph node id
  std::vector<Id> eclass_of;                       // problem ClassId -> canonical e-class
  absl::flat_hash_map<Id, ClassId> problem_class;  // canonical e-class -> problem ClassId
  // The e-graph node chosen for canonical class `cls`, or kNoId.
  Id chosen_node(const Extraction& x, Id cls) const;
};

// `roots` may be non-canonical; they are canonicalised. Requires g.clean().
EGraphProblem build_problem(const EGraph& g, std::span<const Id> roots, const EnodeCostFn& cost);

}  // namespace eqfuse
