// Random extraction problems for the extractor tests (tests/extract/):
// `classes` classes of 1..3 nodes each, children drawn from all classes (so
// cycles, self-loops and shared children are common), class 0 a root.
//
//   std::mt19937 rng(7);
//   ExtractionProblem p = random_problem(rng, 5);                       // costs 0..4
//   ExtractionProblem q = random_problem(rng, 40, {.max_arity = 4, .max_cost = 40,
//                                                  .cost_divisor = 10.0});  // tenths
#pragma once
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "extract/problem.hpp"

namespace eqfuse::testing_support {

struct RandomProblemShape {
  int max_arity = 2;
  int min_cost = 0, max_cost = 4;  // drawn as whole numbers, then divided
  double cost_divisor = 1.0;       // 10.0: tenths, which binary doubles do not hold exactly
  bool maybe_second_root = true;   // a coin decides whether a second root is added
};

inline ExtractionProblem random_problem(std::mt19937& rng, int classes,
                                        const RandomProblemShape& shape = {}) {
  ProblemBuilder b;
  for (int c = 0; c < classes; ++c) b.add_class(std::to_string(c));
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int c = 0; c < classes; ++c) {
    const int nodes = pick(1, 3);
    for (int i = 0; i < nodes; ++i) {
      std::vector<ClassId> kids;
      const int arity = pick(0, shape.max_arity);
      for (int k = 0; k < arity; ++k) kids.push_back(static_cast<ClassId>(pick(0, classes - 1)));
      const double cost = pick(shape.min_cost, shape.max_cost) / shape.cost_divisor;
      b.add_node("op" + std::to_string(i), static_cast<ClassId>(c), cost, kids);
    }
  }
  b.add_root(0);
  if (shape.maybe_second_root && pick(0, 1) == 1)
    b.add_root(static_cast<ClassId>(pick(1, classes - 1)));
  return std::move(b).build();
}

}  // namespace eqfuse::testing_support
