// Which reads of a symbolic size extraction may choose.
//
//   SizeReadChoice sizes = choose_size_reads(g, types);
//   price(node) = sizes.skipped.contains(node) ? +inf : sizes.kept.contains(node) ? 0 : cost(node);
//
// The tensor analysis merges every class holding one symbolic int (`s0`, `4*s0`;
// bridge/tensor_analysis.hpp), so such a class holds a `sym_size` of every tensor
// with that dim. Extraction may take any of them, but should not: one read of a
// computed tensor links that tensor to every user of the size, which joins
// unrelated parts of the graph into one exact-extraction component, and a read of
// a fused-away intermediate would keep it alive. In each class that can be computed
// from graph inputs (placeholder or get_attr tensors), constants and other such
// sizes alone, choose_size_reads keeps one such node (the first in e-node order; no
// two kept nodes depend on each other in a cycle) and skips the others. The kept
// node is priced 0 (host arithmetic on sizes known before the graph runs, like a
// constant), so the class is free and couples no parts of the graph
// (extract/components.hpp). Classes without such a node keep all their nodes.
#pragma once
#include <absl/container/flat_hash_set.h>

#include "bridge/tensor_analysis.hpp"
#include "egraph/egraph.hpp"

namespace eqfuse {

struct SizeReadChoice {
  absl::flat_hash_set<Id> kept;     // one node per symbolic class that has one: price 0
  absl::flat_hash_set<Id> skipped;  // the other nodes of those classes: never chosen
};

// Requires g.clean().
SizeReadChoice choose_size_reads(const EGraph& g, const TensorAnalysis& types);

}  // namespace eqfuse
