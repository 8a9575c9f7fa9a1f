// ctest-label: numeric
// The 8-bit float conversions of interp/float16.hpp against torch's own: every bit pattern
// decoded and ~1500 float32 probes per dtype (each representable value, the midpoints
// between neighbours and the float32 values either side of them, overflow, random values
// at seven scales) rounded, as torch 2.11 did on a machine that has it
// (tests/data/torch2/float8_torch.json, written by trace_hf_torch2.py).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>

#include "interp/float16.hpp"

namespace eqfuse {
namespace {

const nlohmann::json& torch_table() {
  static const nlohmann::json table = [] {
    std::ifstream in(std::string(EQFUSE_TEST_DATA) + "/torch2/float8_torch.json");
    return nlohmann::json::parse(in);
  }();
  return table;
}

struct Float8Case {
  const char* torch_name;
  DType dtype;
  double (*decode)(uint8_t);
};

const Float8Case kCases[] = {
    {"float8_e4m3fn", DType::Float8E4M3FN, fp8_e4m3fn_bits_to_double},
    {"float8_e5m2", DType::Float8E5M2, fp8_e5m2_bits_to_double},
    {"float8_e8m0fnu", DType::Float8E8M0FNU, fp8_e8m0_bits_to_double},
};

// Same value, same sign of zero, or both NaN.
bool same_float(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

class Float8AgainstTorch : public ::testing::TestWithParam<Float8Case> {};

TEST_P(Float8AgainstTorch, EveryBitPatternDecodesAsTorchDoes) {
  const auto& entry = torch_table().at(GetParam().torch_name);
  const auto& decoded = entry.at("decode_f32_bits");
  ASSERT_EQ(decoded.size(), 256u);
  for (int b = 0; b < 256; ++b) {
    const double torch_value = std::bit_cast<float>(decoded[b].get<uint32_t>());
    EXPECT_TRUE(same_float(GetParam().decode(static_cast<uint8_t>(b)), torch_value))
        << GetParam().torch_name << " bits 0x" << std::hex << b << ": torch " << torch_value;
  }
}

TEST_P(Float8AgainstTorch, Float32ValuesRoundAsTorchRoundsThem) {
  const auto& probes = torch_table().at(GetParam().torch_name).at("encode");
  ASSERT_GT(probes.size(), 1000u);
  int mismatches = 0;
  for (const auto& probe : probes) {
    const float input = std::bit_cast<float>(probe[0].get<uint32_t>());
    const auto torch_bits = probe[1].get<uint8_t>();
    const double ours = round_to_dtype(input, GetParam().dtype);
    const double torch_value = GetParam().decode(torch_bits);
    if (!same_float(ours, torch_value) && ++mismatches <= 10) {
      ADD_FAILURE() << GetParam().torch_name << ": " << input << " rounds to " << ours
                    << ", torch gives " << torch_value;
    }
  }
  EXPECT_EQ(mismatches, 0);
}

INSTANTIATE_TEST_SUITE_P(TorchReference, Float8AgainstTorch, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.torch_name); });

}  // namespace
}  // namespace eqfuse
