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
//   "faster-greedy-dag" extraction-gym's published greedy DAG algorithm, the
//                reference greedy-dag is compared with (never better than it);
//   "ilp"        exact DAG cost with CBC (time limit, greedy fallback/warm start);
//   "auto"       exact by independent components (extract/components.hpp):
//                branch and bound or CBC per component, greedy-dag's answer
//                where a component cannot be solved; the default.
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
  double improve_work = 10.0;
  // greedy-dag: work budget of the faster-greedy-dag start, in set entries
  // per problem element (it is skipped when the budget runs out).
  double reference_greedy_work = 64.0;
  // ilp: enforce acyclicity with level variables on the cyclic part of the
  // e-graph from the start (true), or only by lazy cycle cuts (false).
  bool ilp_levels = false;
  // auto: a component with more nodes than this gets at most a fifth of the
  // time limit (at least 1 s) in the exact CBC model (small components are
  // solved by branch and bound, others by CBC within the whole limit).
  std::size_t auto_exact_max_nodes = 4000;
  // Print solver progress on stderr.
  bool verbose = false;
  // A valid extraction known in advance (optimize passes the input graph's
  // own nodes): every extractor starts from it where it can, and extract()
  // returns it instead of anything costlier (Extraction::kept_initial).
  std::vector<NodeId> initial;
};

struct Extraction {
  std::vector<NodeId> choice;  // per class; kNoNode for classes not extracted
  double tree_cost = 0;
  double dag_cost = 0;
  bool optimal = false;  // proven optimal for the DAG cost (only the exact solver claims this)
  // A proven lower bound on the optimal DAG cost (0 when none is known);
  // equal to dag_cost when optimal.
  double lower_bound = 0;
  // extract() returned ExtractOptions::initial because the extractor found
  // nothing cheaper.
  bool kept_initial = false;
  // Why the search stopped early, empty when it ran to the end: "time limit"
  // (ExtractOptions::time_limit_s), "work budget", "solver failed: ...".
  std::string stopped_by;
};

// Relative gap between the extraction and its lower bound, in [0, 1]; 1 when
// no bound is known, 0 when proven optimal.
double optimality_gap(const Extraction& x);

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
Extraction extract_faster_greedy_dag(const ExtractionProblem& p, const ExtractOptions& opt = {});
Extraction extract_ilp(const ExtractionProblem& p, const ExtractOptions& opt = {});
Extraction extract_auto(const ExtractionProblem& p, const ExtractOptions& opt = {});

// Local search on the DAG cost: re-chooses single classes while the total
// drops, keeping the choice acyclic. `choice` must be acyclic over all classes
// that have a choice. Stops after about work_factor * (nodes + classes)
// elementary steps (a deterministic budget, unlike a wall-clock limit).
std::vector<NodeId> improve_dag_cost(const ExtractionProblem& p, std::vector<NodeId> choice,
                                     double work_factor = 3.0);

// Names accepted by extract()/run_extractors(): "bottom-up" (alias "tree"),
// "greedy-dag", "faster-greedy-dag", "ilp", "auto". Throws eqfuse::Error for
// other names. With ExtractOptions::initial set, the result is never costlier
// than that initial extraction.
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
std::vector<ExtractorReport> run_extractors(const ExtractionProblem& p,
                                            const std::vector<std::string>& names,
                                            const ExtractOptions& options);

// `{"file":..,"extractor":..,"tree_cost":..,"dag_cost":..,"micros":..,
// "valid":..,"optimal":..,"lower_bound":..,"gap":..}` (+ "stopped_by" and
// "error" when set). Infinite costs print as the string "inf".
std::string report_json_line(const std::string& file, const ExtractorReport& r);

}  // namespace eqfuse
