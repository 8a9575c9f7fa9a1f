// The reference workloads (egraph/workloads.hpp) end at the
// sizes their formulas and egg give.
#include <gtest/gtest.h>

#include "egraph/workloads.hpp"

namespace eqfuse {
namespace {

TEST(Workloads, AcCountsFollowTheFormula) {
  for (int n = 2; n <= 7; ++n) {
    WorkloadResult r = run_ac_workload(n);
    size_t pow3 = 1, pow2 = 1;
    for (int i = 0; i < n; ++i) pow3 *= 3, pow2 *= 2;
    EXPECT_EQ(r.eclasses, pow2 - 1) << "n=" << n;
    EXPECT_EQ(r.enodes, pow3 - 2 * pow2 + 1 + n) << "n=" << n;
    EXPECT_EQ(r.stop_reason, "Saturated");
  }
}

TEST(Workloads, MathMatchesEgg) {
  WorkloadResult r = run_math_workload();
  EXPECT_EQ(r.enodes, 600u);
  EXPECT_EQ(r.eclasses, 71u);
  EXPECT_EQ(r.iterations, 8u);
  EXPECT_EQ(r.stop_reason, "IterationLimit");
}

// The fixed overhead of a tiny run is a benchmark figure (bench/egraph_bench,
// "ac 3"; docs/benchmarks.md), not a timed unit test; here only its result.
TEST(EGraphCore, TinyRunSaturatesExactly) {
  WorkloadResult r = run_ac_workload(3);
  EXPECT_EQ(r.eclasses, 7u);  // 2^3 - 1
  EXPECT_EQ(r.enodes, 15u);   // 3^3 - 2^4 + 1 + 3
}

}  // namespace
}  // namespace eqfuse
