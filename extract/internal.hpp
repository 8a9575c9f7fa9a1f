// Internal helpers shared by the extractor implementations (not part of the
// public extraction API; include extract/extractor.hpp instead).
#pragma once
#include <chrono>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse::extract_detail {

// Tree-cost-optimal choice for EVERY class that has an acyclic finite
// derivation (kNoNode for the others). Acyclic over all classes, not only
// the reachable ones: each class's node uses only classes settled before it.
std::vector<NodeId> bottom_up_choice(const ExtractionProblem& p);

// Greedy DAG-cost choice for every derivable class (same acyclicity
// guarantee as bottom_up_choice).
std::vector<NodeId> greedy_dag_choice(const ExtractionProblem& p);

// Throws eqfuse::Error naming the first root without a choice.
void require_roots_chosen(const ExtractionProblem& p, const std::vector<NodeId>& choice);

class Deadline {
 public:
  explicit Deadline(double seconds)
      : end_(std::chrono::steady_clock::now() +
             std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                 std::chrono::duration<double>(seconds))) {}
  bool passed() const { return std::chrono::steady_clock::now() >= end_; }
  double remaining_s() const {
    return std::chrono::duration<double>(end_ - std::chrono::steady_clock::now()).count();
  }

 private:
  std::chrono::steady_clock::time_point end_;
};

}  // namespace eqfuse::extract_detail
