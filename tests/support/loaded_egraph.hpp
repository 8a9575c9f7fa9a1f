// An FX text loaded into an e-graph with the tensor analysis, for the bridge and
// pipeline tests that look at classes and facts by FX node name.
//
//   testing_support::LoadedEGraphOf l(text);                  // as the bridge loads
//   testing_support::LoadedEGraphOf m(text, {.merge_symbolic_ints = true});  // as optimize
//   l.cls("add"); l.node_of("add"); l.fact("add");
#pragma once
#include <string_view>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "egraph/egraph.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse::testing_support {

struct LoadOptions {
  bool merge_symbolic_ints = false;  // TensorAnalysis::set_merge_symbolic_ints
};

struct LoadedEGraphOf {
  TensorAnalysis types{builtin_registry()};
  EGraph g{&types};
  LoadedGraph lg;
  LoadedEGraph loaded;

  explicit LoadedEGraphOf(std::string_view text, LoadOptions opt = {})
      : lg(load_graph(text, "t.fx", builtin_registry())) {
    types.set_merge_symbolic_ints(opt.merge_symbolic_ints);
    loaded = load_into_egraph(lg.graph, builtin_registry(), g);
    g.rebuild();
    g.check_invariants();
  }
  // The canonical class of the FX node `node`.
  Id cls(std::string_view node) const { return g.find(loaded.class_of(*lg.graph.find(node))); }
  // The e-node the FX node was loaded as (its id before any merge).
  Id node_of(std::string_view node) const { return loaded.class_of(*lg.graph.find(node)); }
  const TensorFact& fact(std::string_view node) const { return types.data(cls(node)); }
};

}  // namespace eqfuse::testing_support
