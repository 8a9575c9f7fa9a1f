// What optimize_graph keeps after a run for explanations (`eqfuse explain`):
// the saturated e-graph with its analysis, the loaded graph's classes, the
// compiled rules and their run report, the extraction problem and choice,
// and the cost model. Owned by OptimizeResult::state.
#pragma once
#include <memory>
#include <optional>
#include <unordered_set>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "cost/cost_model.hpp"
#include "egraph/egraph.hpp"
#include "egraph/runner.hpp"
#include "extract/extractor.hpp"
#include "pipeline/egraph_problem.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse {

struct OptimizeState {
  Graph input;                            // the graph that was optimized (names for reports)
  std::unique_ptr<TensorAnalysis> types;  // before egraph: the e-graph points to it
  std::unique_ptr<EGraph> egraph;
  LoadedEGraph loaded;
  size_t input_node_ids = 0;                 // e-graph ids below this come from the input graph
  std::unique_ptr<RuleLibrary> own_library;  // when the default library was used
  const RuleLibrary* library = nullptr;
  CompiledRules rules;
  RunReport run;
  std::unique_ptr<NpuCostModel> model;
  // The emitted graph optimize refused because it modeled costlier than the input
  // (written to --dump-dir as 003_rejected_output.fx, to see why).
  std::optional<Graph> rejected_output;
  // E-nodes computed once from frozen inputs (CostModel::set_frozen_inputs): free per
  // call. Empty when nothing is frozen (pipeline/egraph_cost.hpp folded_enodes).
  std::unordered_set<Id> folded;
  EGraphProblem problem;
  Extraction extraction;
};

}  // namespace eqfuse
