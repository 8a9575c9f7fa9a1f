// ctest-label: numeric
// fp16/bf16 and 8-bit float round-to-nearest-even emulation (interp/float16.hpp).
#include "interp/float16.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "interp/random_inputs.hpp"

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

TEST(Float8, E4M3FnRoundsToNearestEvenAndOverflowsToNaN) {
  // Three mantissa bits: around 1.0 the spacing is 1/8.
  EXPECT_EQ(round_to_fp8_e4m3fn(1.0625), 1.0);   // tie between 1 (even) and 1.125
  EXPECT_EQ(round_to_fp8_e4m3fn(1.1875), 1.25);  // tie between 1.125 (odd) and 1.25
  EXPECT_EQ(round_to_fp8_e4m3fn(-0.3), -0.3125);
  EXPECT_EQ(round_to_fp8_e4m3fn(448.0), 448.0);
  EXPECT_EQ(round_to_fp8_e4m3fn(464.0), 448.0);  // the tie with 480 (NaN's bits) goes even
  EXPECT_TRUE(std::isnan(round_to_fp8_e4m3fn(470.0)));
  EXPECT_TRUE(std::isnan(round_to_fp8_e4m3fn(INFINITY)));
  EXPECT_EQ(round_to_fp8_e4m3fn(std::ldexp(1.0, -9)), std::ldexp(1.0, -9));  // smallest subnormal
  EXPECT_EQ(round_to_fp8_e4m3fn(std::ldexp(1.0, -11)), 0.0);
  EXPECT_EQ(round_to_dtype(0.3, DType::Float8E4M3FN), 0.3125);
}

TEST(Float8, E5M2OverflowsToInfinity) {
  EXPECT_EQ(round_to_fp8_e5m2(1.125), 1.0);  // two mantissa bits: tie with 1.25 goes even
  EXPECT_EQ(round_to_fp8_e5m2(57344.0), 57344.0);
  EXPECT_TRUE(std::isinf(round_to_fp8_e5m2(61440.0)));  // tie with 65536 (inf) goes even
  EXPECT_EQ(round_to_fp8_e5m2(std::ldexp(1.0, -16)), std::ldexp(1.0, -16));
}

TEST(Float8, E8M0KeepsPowersOfTwoAndRoundsTheMantissa) {
  EXPECT_EQ(round_to_fp8_e8m0(0.25), 0.25);
  EXPECT_EQ(round_to_fp8_e8m0(1.49), 1.0);
  EXPECT_EQ(round_to_fp8_e8m0(1.5), 2.0);   // the guard bit with an implied 1 rounds up
  EXPECT_EQ(round_to_fp8_e8m0(-4.0), 4.0);  // no sign bit
  EXPECT_EQ(round_to_fp8_e8m0(0.0), std::ldexp(1.0, -127));
  EXPECT_TRUE(std::isnan(round_to_fp8_e8m0(NAN)));
  EXPECT_TRUE(std::isnan(round_to_fp8_e8m0(INFINITY)));
}

TEST(Float8, EveryBitPatternDecodesToAValueThatRoundsToItself) {
  for (int b = 0; b < 256; ++b) {
    const auto byte = static_cast<uint8_t>(b);
    for (auto [value, d] : {std::pair{fp8_e4m3fn_bits_to_double(byte), DType::Float8E4M3FN},
                            std::pair{fp8_e5m2_bits_to_double(byte), DType::Float8E5M2},
                            std::pair{fp8_e8m0_bits_to_double(byte), DType::Float8E8M0FNU}}) {
      if (std::isnan(value)) continue;
      if (d == DType::Float8E8M0FNU) {
        EXPECT_EQ(value, std::ldexp(1.0, b - 127));
      }
      EXPECT_EQ(round_to_dtype(value, d), value) << b << " " << dtype_code(d);
    }
  }
  EXPECT_EQ(fp8_e4m3fn_bits_to_double(0x7e), 448.0);
  EXPECT_TRUE(std::isnan(fp8_e4m3fn_bits_to_double(0x7f)));
  EXPECT_EQ(fp8_e5m2_bits_to_double(0x7b), 57344.0);
  EXPECT_TRUE(std::isinf(fp8_e5m2_bits_to_double(0x7c)));
}

TEST(Float8, SpellingsAndScalarTypeCodes) {
  EXPECT_EQ(parse_dtype("f8e4m3fn"), DType::Float8E4M3FN);
  EXPECT_EQ(parse_dtype("torch.float8_e5m2"), DType::Float8E5M2);
  EXPECT_EQ(parse_dtype("float8_e8m0fnu"), DType::Float8E8M0FNU);
  EXPECT_EQ(dtype_from_scalar_type(24), DType::Float8E4M3FN);  // torch's codes
  EXPECT_EQ(dtype_from_scalar_type(23), DType::Float8E5M2);
  EXPECT_EQ(dtype_from_scalar_type(44), DType::Float8E8M0FNU);
  EXPECT_EQ(dtype_from_scalar_type(292), DType::Float8E4M3FN);  // torch_npu's codes
  EXPECT_EQ(dtype_from_scalar_type(291), DType::Float8E5M2);
  EXPECT_EQ(dtype_from_scalar_type(296), std::nullopt);  // packed fp4: no DType
  EXPECT_EQ(dtype_itemsize(DType::Float8E8M0FNU), 1);
  EXPECT_TRUE(dtype_is_floating(DType::Float8E4M3FN));
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
