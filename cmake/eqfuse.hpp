// The umbrella header of the installed eqfuse package: everything a program
// needs to load an FX graph, add its own rules, optimize it under the NPU cost
// model, check the result and explain the decisions.
//
//   #include <eqfuse/eqfuse.hpp>
//   eqfuse::OpRegistry reg = eqfuse::OpRegistry::with_builtin_ops();
//   eqfuse::Graph g = eqfuse::load_graph(fx_text, "model.fx", reg).graph;
//   eqfuse::OptimizeResult r = eqfuse::optimize_graph(g, reg);
//   std::cout << eqfuse::print_fx(r.graph, &reg);
//
// Each header can also be included on its own, by folder:
// <eqfuse/pipeline/optimize.hpp>, <eqfuse/rewrites/register_replacement.hpp>, ...
#pragma once

#include "cost/cost_model.hpp"
#include "cost/device_profile.hpp"
#include "extract/extractor.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "pipeline/sensitivity.hpp"
#include "rewrites/register_replacement.hpp"
#include "rewrites/rule.hpp"
