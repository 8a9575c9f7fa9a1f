// "auto": the exact solver when the problem is small enough to finish within
// the time limit, the greedy DAG extractor otherwise.
#include "extract/extractor.hpp"

namespace eqfuse {

Extraction extract_auto(const ExtractionProblem& p, const ExtractOptions& opt) {
  if (p.num_nodes() <= opt.auto_exact_max_nodes) return extract_ilp(p, opt);
  return extract_greedy_dag(p, opt);
}

}  // namespace eqfuse
