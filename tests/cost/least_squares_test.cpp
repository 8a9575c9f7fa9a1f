#include "cost/least_squares.hpp"

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

TEST(LeastSquares, SolvesASquareSystemExactly) {
  // 2x + y = 5, x - y = 1  ->  x = 2, y = 1
  std::vector<double> x = least_squares({{2, 1}, {1, -1}}, {5, 1});
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 2.0, 1e-12);
  EXPECT_NEAR(x[1], 1.0, 1e-12);
}

TEST(LeastSquares, FitsALineThroughNoisyPointsAsTheNormalEquationsDo) {
  // y = a + b t at t = 0..3 with y = 1, 3, 4, 7: the normal equations give
  // a = 0.9, b = 1.9.
  std::vector<double> x = least_squares({{1, 0}, {1, 1}, {1, 2}, {1, 3}}, {1, 3, 4, 7});
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 0.9, 1e-12);
  EXPECT_NEAR(x[1], 1.9, 1e-12);
}

TEST(LeastSquares, AColumnWithoutDataGetsZero) {
  std::vector<double> x = least_squares({{1, 0}, {2, 0}}, {2, 4});
  ASSERT_EQ(x.size(), 2u);
  EXPECT_NEAR(x[0], 2.0, 1e-12);
  EXPECT_EQ(x[1], 0.0);
}

}  // namespace
}  // namespace eqfuse
