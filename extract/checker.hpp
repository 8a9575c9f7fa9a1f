// Validity checker for extractions; tests and `eqfuse extract` run it on every
// result. A choice is valid when every root has a chosen node, every chosen
// node belongs to the class it is chosen for, every class reachable from the
// roots through chosen children has a choice, and the chosen subgraph reached
// from the roots has no cycle.
#pragma once
#include <string>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse {

struct CheckResult {
  bool valid = false;
  // Empty when valid; otherwise names the first problem found, e.g.
  // "class '5' (reached from root '5') has no chosen node" or
  // "cycle through classes '5' -> '7' -> '5'".
  std::string message;
  explicit operator bool() const { return valid; }
};

CheckResult check_extraction(const ExtractionProblem& p, const std::vector<NodeId>& choice);

}  // namespace eqfuse
