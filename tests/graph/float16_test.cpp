// ctest-label: numeric
// fp16/bf16 round-to-nearest-even emulation (graph/float16.hpp).
#include "graph/float16.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "graph/random_inputs.hpp"

namespace eqfuse {
namespace {

TEST(Float16, ExactValuesAreKept) {
  for (double v : {0.0, 1.0, -2.5, 0.0999755859375, 65504.0, 6.103515625e-05}) {
    EXPECT_EQ(round_to_fp16(v), v) << v;
  }
}

TEST(Float16, TiesRoundToEven) {
  // fp16 has 10 fraction bits: around 1.0 the spacing is 2^-10.
  // 1 + 2^-11 is halfway between 1 (even mantissa 0) and 1 + 2^-10 (odd): -> 1.
  EXPECT_EQ(round_to_fp16(1.0 + std::ldexp(1.0, -11)), 1.0);
  // 1 + 3*2^-11 is halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): -> 1 + 2^-9.
  EXPECT_EQ(round_to_fp16(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
  // Just above the tie rounds up.
  EXPECT_EQ(round_to_fp16(1.0 + std::ldexp(1.0, -11) + 1e-12), 1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(round_to_fp16(-(1.0 + std::ldexp(1.0, -11))), -1.0);
}

TEST(Float16, OverflowAndSubnormals) {
  // Largest finite fp16 is 65504; the next step would be 65536, so values at
  // or above the midpoint 65520 overflow to inf.
  EXPECT_EQ(round_to_fp16(65519.0), 65504.0);
  EXPECT_TRUE(std::isinf(round_to_fp16(65520.0)));
  EXPECT_LT(round_to_fp16(-70000.0), 0);
  // Smallest subnormal 2^-24; 2^-25 is a tie between 0 (even) and 2^-24.
  EXPECT_EQ(round_to_fp16(std::ldexp(1.0, -24)), std::ldexp(1.0, -24));
  EXPECT_EQ(round_to_fp16(std::ldexp(1.0, -25)), 0.0);
  // 3*2^-25 is a tie between 2^-24 (odd) and 2^-23 (even).
  EXPECT_EQ(round_to_fp16(3 * std::ldexp(1.0, -25)), std::ldexp(1.0, -23));
  EXPECT_TRUE(std::isnan(round_to_fp16(NAN)));
}

TEST(BFloat16, TiesRoundToEven) {
  // bf16 has 7 fraction bits: spacing 2^-7 around 1.
  EXPECT_EQ(round_to_bf16(1.0 + std::ldexp(1.0, -8)), 1.0);
  EXPECT_EQ(round_to_bf16(1.0 + 3 * std::ldexp(1.0, -8)), 1.0 + std::ldexp(1.0, -6));
  // 0.1 -> 0x3DCD = 0.10009765625.
  EXPECT_EQ(round_to_bf16(0.1), 0.10009765625);
  EXPECT_EQ(float_to_bf16_bits(0.1f), 0x3dcd);
  EXPECT_TRUE(std::isinf(round_to_bf16(3.4e38)));
}

TEST(Float16, BitConversionsAgreeWithValueRounding) {
  SplitMix64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    // Random floats over a wide exponent range, both signs.
    float f =
        static_cast<float>(std::ldexp(rng.uniform(-1, 1), static_cast<int>(rng.integer(-30, 17))));
    EXPECT_EQ(static_cast<double>(fp16_bits_to_float(float_to_fp16_bits(f))), round_to_fp16(f))
        << f;
    EXPECT_EQ(static_cast<double>(bf16_bits_to_float(float_to_bf16_bits(f))), round_to_bf16(f))
        << f;
  }
  EXPECT_EQ(float_to_fp16_bits(1.0f), 0x3c00);
  EXPECT_EQ(float_to_fp16_bits(-2.0f), 0xc000);
  EXPECT_EQ(fp16_bits_to_float(0x0001), std::ldexp(1.0f, -24));
}

TEST(RoundHalfEven, Integers) {
  EXPECT_EQ(round_half_even(0.5), 0.0);
  EXPECT_EQ(round_half_even(1.5), 2.0);
  EXPECT_EQ(round_half_even(2.5), 2.0);
  EXPECT_EQ(round_half_even(-0.5), 0.0);
  EXPECT_EQ(round_half_even(-1.5), -2.0);
  EXPECT_EQ(round_half_even(-2.5), -2.0);
  EXPECT_EQ(round_half_even(2.4999), 2.0);
  EXPECT_EQ(round_half_even(-63.5), -64.0);
}

}  // namespace
}  // namespace eqfuse
