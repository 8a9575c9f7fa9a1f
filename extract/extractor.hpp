// Extraction algorithms over an ExtractionProblem and the small driver the
// CLI uses (`eqfuse extract FILE.json --extractor NAME|all`).
//
// Every extractor returns an Extraction: one chosen node per class reachable
// from the roots through chosen children (kNoNode elsewhere), always acyclic,
// with its tree cost (shared subterms paid per use; may be +inf) and DAG cost
// (each reachable class paid once). Extractors throw eqfuse::Error when some
// root has no acyclic finite choice at all.
//
// Algorithms (see docs/extraction.md):
//   "bottom-up"  tree-cost optimal (Knuth's generalisation of Dijkstra), egg's default;
//   "greedy-dag" per-class cost sets + local improvement of the DAG cost;
//   "ilp"        exact DAG cost with CBC (time limit, greedy fallback/warm start);
//   "auto"       ilp when the reduced problem is small, else greedy-dag.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse {

struct ExtractOptions {
  // Wall-clock budget (seconds) for the exact solver; the best known solution
  // is returned (optimal = false) when it runs out.
  double time_limit_s = 60.0;
  // greedy-dag: run the local-improvement pass after the greedy pass.
  bool local_improvement = true;
  // greedy-dag: work budget of the improvement pass, in multiples of the
  // problem size (see improve_dag_cost).
  double improve_work = 3.0;
  // ilp: enforce acyclicity with level variables on the cyclic part of the
  // e-graph from the start (true), or only by lazy cycle cuts (false).
  bool ilp_levels = false;
  // auto: use the exact solver only when the reduced problem has at most this
  // many nodes.
  std::size_t auto_exact_max_nodes = 4000;
  // Print solver progress on stderr.
  bool verbose = false;
};

struct Extraction {
  std::vector<NodeId> choice;  // per class; kNoNode for classes not extracted
  double tree_cost = 0;
  double dag_cost = 0;
  bool optimal = false;  // proven optimal for the DAG cost (only the exact solver claims this)
};

// Costs of an acyclic choice restricted to what the roots reach. tree_cost
// returns +inf on overflow; both return +inf if a reachable class has no choice.
double dag_cost(const ExtractionProblem& p, const std::vector<NodeId>& choice);
double tree_cost(const ExtractionProblem& p, const std::vector<NodeId>& choice);

// Keeps only the classes reachable from the roots through chosen children and
// fills tree_cost/dag_cost.
Extraction finish_extraction(const ExtractionProblem& p, std::vector<NodeId> choice,
                             bool optimal = false);

Extraction extract_bottom_up(const ExtractionProblem& p, const ExtractOptions& opt = {});
Extraction extract_greedy_dag(const ExtractionProblem& p, const ExtractOptions& opt = {});
Extraction extract_ilp(const ExtractionProblem& p, const ExtractOptions& opt = {});
Extraction extract_auto(const ExtractionProblem& p, const ExtractOptions& opt = {});

// Local search on the DAG cost: re-chooses single classes while the total
// drops, keeping the choice acyclic. `choice` must be acyclic over all classes
// that have a choice. Stops after about work_factor * (nodes + classes)
// elementary steps (a deterministic budget, unlike a wall-clock limit).
std::vector<NodeId> improve_dag_cost(const ExtractionProblem& p, std::vector<NodeId> choice,
                                     double work_factor = 3.0);

// Names accepted by extract()/run_extractors(): "bottom-up" (alias "tree"),
// "greedy-dag", "ilp", "auto". Throws eqfuse::Error for other names.
Extraction extract(const ExtractionProblem& p, std::string_view extractor,
                   const ExtractOptions& opt = {});
const std::vector<std::string>& extractor_names();

// One JSON-ready line of `eqfuse extract`: costs, extraction time alone
// (microseconds, excluding parsing), the checker's verdict, and whether
// optimality is proven. `error` is non-empty when the extractor threw (then
// valid is false and costs are +inf).
struct ExtractorReport {
  std::string extractor;
  double tree_cost = 0;
  double dag_cost = 0;
  long long micros = 0;
  bool valid = false;
  bool optimal = false;
  std::string error;
  std::string check_message;  // the checker's explanation when !valid
  Extraction extraction;
};

// Runs each named extractor (names as above, or "all" for every one) and
// checks each result with check_extraction(). Throws eqfuse::Error for an
// unknown name.
std::vector<ExtractorReport> run_extractors(const ExtractionProblem& p,
                                            const std::vector<std::string>& names,
                                            double time_limit_s = 60.0);

// `{"file":..,"extractor":..,"tree_cost":..,"dag_cost":..,"micros":..,
// "valid":..,"optimal":..}` (+ "error" when set). Infinite costs print as
// the string "inf".
std::string report_json_line(const std::string& file, const ExtractorReport& r);

}  // namespace eqfuse
