// ctest-label: numeric
// Values at their dtype's width: every codec round-trips every value its
// dtype can hold, and tensors take the dtype's bytes per element.
#include "interp/storage_codec.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "interp/float16.hpp"
#include "interp/random_inputs.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {
namespace {

// Same value, the sign of zero included; any NaN equals any NaN.
bool same_value(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <typename Codec>
void expect_every_bit_pattern_round_trips(const char* name) {
  using Stored = typename Codec::Stored;
  constexpr uint32_t kPatterns = uint32_t{1} << (8 * sizeof(Stored));
  for (uint32_t b = 0; b < kPatterns; ++b) {
    const Stored bits = static_cast<Stored>(b);
    const double v = Codec::load(bits);
    const Stored again = Codec::store(v);
    ASSERT_TRUE(same_value(Codec::load(again), v)) << name << " bits " << b;
    // Numbers keep their exact bits (NaNs may become the canonical NaN).
    if (!std::isnan(v)) {
      ASSERT_EQ(again, bits) << name << " bits " << b;
    }
  }
}

TEST(StorageCodec, EveryFloatBitPatternRoundTrips) {
  expect_every_bit_pattern_round_trips<CodecF16>("f16");
  expect_every_bit_pattern_round_trips<CodecBF16>("bf16");
  expect_every_bit_pattern_round_trips<CodecF8<0>>("f8e4m3fn");
  expect_every_bit_pattern_round_trips<CodecF8<1>>("f8e5m2");
  expect_every_bit_pattern_round_trips<CodecF8<2>>("f8e8m0fnu");
}

TEST(StorageCodec, EightBitFloatTablesDecodeTheFormats) {
  EXPECT_EQ(CodecF8<0>::load(0x7e), 448.0);  // e4m3fn's largest
  EXPECT_TRUE(std::isnan(CodecF8<0>::load(0x7f)));
  EXPECT_EQ(CodecF8<1>::load(0x7b), 57344.0);  // e5m2's largest finite
  EXPECT_TRUE(std::isinf(CodecF8<1>::load(0x7c)));
  EXPECT_EQ(CodecF8<2>::load(127), 1.0);  // e8m0: 2^(e - 127)
  EXPECT_EQ(CodecF8<2>::load(0), std::ldexp(1.0, -127));
}

TEST(StorageCodec, TensorsTakeTheirDtypesWidth) {
  const struct {
    DType dtype;
    size_t bytes;
  } cases[] = {{DType::Float64, 8},       {DType::Float32, 4},      {DType::Float16, 2},
               {DType::BFloat16, 2},      {DType::Float8E4M3FN, 1}, {DType::Float8E5M2, 1},
               {DType::Float8E8M0FNU, 1}, {DType::Int64, 8},        {DType::Int32, 4},
               {DType::Int16, 2},         {DType::Int8, 1},         {DType::UInt8, 1},
               {DType::Bool, 1},          {DType::QInt8, 1},        {DType::QInt32, 4}};
  for (const auto& c : cases) {
    Tensor t = Tensor::zeros(c.dtype, {3, 5});
    EXPECT_EQ(t.element_bytes(), c.bytes) << dtype_code(c.dtype);
    EXPECT_EQ(t.storage()->bytes.size(), 15 * c.bytes) << dtype_code(c.dtype);
  }
}

// set_flat stores what torch's cast stores: reading back gives cast_double
// of the written value for every dtype, on ordinary and extreme values.
TEST(StorageCodec, WritesReadBackAsTheDtypesCast) {
  const DType dtypes[] = {
      DType::Float64,    DType::Float32,       DType::Float16, DType::BFloat16, DType::Float8E4M3FN,
      DType::Float8E5M2, DType::Float8E8M0FNU, DType::Int64,   DType::Int32,    DType::Int16,
      DType::Int8,       DType::UInt8,         DType::Bool,    DType::QUInt4x2};
  std::vector<double> values = {0.0,
                                -0.0,
                                1.0,
                                -1.5,
                                3.14159,
                                65504.0,
                                65520.0,
                                1e-8,
                                -1e-40,
                                448.0,
                                449.0,
                                1e30,
                                -1e300,
                                300.0,
                                -129.0,
                                2.5,
                                -2.5,
                                std::numeric_limits<double>::infinity(),
                                -std::numeric_limits<double>::infinity(),
                                std::numeric_limits<double>::quiet_NaN()};
  SplitMix64 rng(5);
  for (int i = 0; i < 2000; ++i)
    values.push_back(std::ldexp(rng.uniform(-1.0, 1.0), rng.integer(-140, 140)));
  for (DType d : dtypes) {
    Tensor t = Tensor::zeros(d, {static_cast<int64_t>(values.size())});
    for (size_t i = 0; i < values.size(); ++i) t.set_flat(static_cast<int64_t>(i), values[i]);
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_TRUE(same_value(t.get_flat(static_cast<int64_t>(i)), cast_double(values[i], d)))
          << dtype_code(d) << " value " << values[i];
    }
    // Bulk writes and reads agree with the element ones.
    Tensor bulk = Tensor::from_values(d, {static_cast<int64_t>(values.size())}, values);
    std::vector<double> got = bulk.values();
    for (size_t i = 0; i < values.size(); ++i) {
      ASSERT_TRUE(same_value(got[i], t.get_flat(static_cast<int64_t>(i))))
          << dtype_code(d) << " value " << values[i];
    }
  }
}

TEST(StorageCodec, IntegersWrapToTheirWidth) {
  Tensor t = Tensor::zeros(DType::Int8, {3});
  t.set_flat_int(0, 200);
  t.set_flat_int(1, -129);
  t.set_flat_int(2, 127);
  EXPECT_EQ(t.int_values(), (std::vector<int64_t>{-56, 127, 127}));
  Tensor u = Tensor::zeros(DType::UInt8, {2});
  u.set_flat_int(0, -1);
  u.set_flat_int(1, 256);
  EXPECT_EQ(u.int_values(), (std::vector<int64_t>{255, 0}));
  Tensor b = Tensor::zeros(DType::Bool, {2});
  b.set_flat(0, 0.25);
  b.set_flat_int(1, 0);
  EXPECT_EQ(b.int_values(), (std::vector<int64_t>{1, 0}));
}

}  // namespace
}  // namespace eqfuse
