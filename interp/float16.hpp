// Emulation of the low-precision float formats of the reference interpreter.
//
// fp16 (IEEE binary16) and bf16 (bfloat16) values are stored as float/double
// inside eqfuse::Tensor; these helpers round a value to the nearest
// representable fp16/bf16 value with round-to-nearest-even (ties go to the
// even mantissa), overflow to +-inf, subnormals and NaN handled like
// hardware conversions. The OCP 8-bit floats (e4m3fn, e5m2, e8m0fnu) round as
// torch converts to them. round_to_dtype() applies the rounding of any float
// dtype; kernels call it once per output element at the op boundary.
#pragma once
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "base/dtype.hpp"

namespace eqfuse {

// fp32 -> bf16 bits, round-to-nearest-even; NaN stays a (quiet) NaN.
inline uint16_t float_to_bf16_bits(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((bits >> 16) | 0x40);
  uint32_t lsb = (bits >> 16) & 1u;
  bits += 0x7fffu + lsb;  // carries into the exponent produce inf on overflow
  return static_cast<uint16_t>(bits >> 16);
}

inline float bf16_bits_to_float(uint16_t h) {
  return std::bit_cast<float>(static_cast<uint32_t>(h) << 16);
}

// fp32 -> fp16 bits, round-to-nearest-even, including fp16 subnormals.
inline uint16_t float_to_fp16_bits(float f) {
  uint32_t bits = std::bit_cast<uint32_t>(f);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t abs = bits & 0x7fffffffu;
  if (abs > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to >= 65520: inf
  int exponent = static_cast<int>(abs >> 23) - 127;
  uint32_t mantissa = (abs & 0x7fffffu) | 0x800000u;  // with the implicit bit
  if (abs < 0x38800000u) {
    // Result is subnormal (or zero): value = mantissa * 2^(exponent-23);
    // fp16 subnormal unit is 2^-24, so shift right by (-14 - exponent) + 13.
    if (exponent < -25) return sign;  // below half the smallest subnormal
    int shift = (-14 - exponent) + 13;
    uint32_t kept = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1u);
    uint32_t half = 1u << (shift - 1);
    if (rest > half || (rest == half && (kept & 1u))) ++kept;
    return static_cast<uint16_t>(sign | kept);
  }
  // Normal: drop 13 mantissa bits with RNE; a carry bumps the exponent.
  uint32_t h = (static_cast<uint32_t>(exponent + 15) << 10) | ((mantissa >> 13) & 0x3ffu);
  uint32_t rest = mantissa & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(sign | h);
}

inline float fp16_bits_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    // Subnormal: exact in fp32.
    float v = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -v : v;
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// Rounds a double directly (no intermediate fp32 step, so no double-rounding
// error) to a binary format with `precision` significand bits (implicit bit
// included), minimum normal exponent `min_exponent` and largest finite value
// `max_finite`, using round-to-nearest-even; overflow gives +-inf.
inline double round_to_binary_format(double v, int precision, int min_exponent, double max_finite) {
  if (!std::isfinite(v) || v == 0.0) return v;
  int exp2 = 0;
  std::frexp(v, &exp2);  // v = m * 2^exp2, 0.5 <= |m| < 1
  int unit_exponent = std::max(exp2 - 1, min_exponent) - (precision - 1);
  double scaled = std::ldexp(v, -unit_exponent);  // exact: power-of-two scaling
  double floor_v = std::floor(scaled);
  double diff = scaled - floor_v;
  double r = diff > 0.5   ? floor_v + 1.0
             : diff < 0.5 ? floor_v
                          : (std::fmod(floor_v, 2.0) == 0.0 ? floor_v : floor_v + 1.0);
  double result = std::ldexp(r, unit_exponent);
  if (std::fabs(result) > max_finite) return std::copysign(INFINITY, v);
  return result == 0.0 ? std::copysign(0.0, v) : result;
}

inline double round_to_fp16(double v) {
  if (std::isnan(v)) return v;
  return round_to_binary_format(v, 11, -14, 65504.0);
}
inline double round_to_bf16(double v) {
  if (std::isnan(v)) return v;
  return round_to_binary_format(v, 8, -126, 3.3895313892515355e38);
}
inline double round_to_fp32(double v) {
  return static_cast<double>(static_cast<float>(v));
}

// OCP 8-bit floats, as torch converts to them (c10/util/Float8_*.h): round to nearest even.
// e4m3fn has no infinity: what rounds beyond 448 becomes NaN. e5m2 overflows to inf.
inline double round_to_fp8_e4m3fn(double v) {
  if (std::isnan(v)) return v;
  double r = round_to_binary_format(v, 4, -6, 448.0);
  return std::isinf(r) ? std::numeric_limits<double>::quiet_NaN() : r;
}
inline double round_to_fp8_e5m2(double v) {
  if (std::isnan(v)) return v;
  return round_to_binary_format(v, 3, -14, 57344.0);
}
// e8m0fnu holds 2^(e - 127) for e in 0..254 and NaN (255); no sign. torch rounds the fp32
// value's exponent to nearest even on the mantissa bits, ignoring the sign; NaN and inf
// become NaN, zero and fp32 subnormals below 2^-127 become 2^-127.
inline double round_to_fp8_e8m0(double v) {
  if (!std::isfinite(v)) return std::numeric_limits<double>::quiet_NaN();
  uint32_t bits = std::bit_cast<uint32_t>(static_cast<float>(v));
  uint32_t exponent = (bits >> 23) & 0xffu;
  if (exponent == 0xffu) return std::numeric_limits<double>::quiet_NaN();  // fp32 overflow
  bool guard = (bits & 0x400000u) != 0, round = (bits & 0x200000u) != 0;
  bool sticky = (bits & 0x1fffffu) != 0, lsb = exponent > 0;
  if (guard && (round || sticky || lsb)) ++exponent;
  if (exponent == 0xffu) return std::numeric_limits<double>::quiet_NaN();
  return std::ldexp(1.0, static_cast<int>(exponent) - 127);
}

// The value of an 8-bit float's bits (sign, then `exponent_bits`, then the mantissa), for
// e4m3fn (all ones is NaN, no infinity) and e5m2 (IEEE-like: exponent all ones is inf/NaN).
inline double fp8_bits_to_double(uint8_t b, int exponent_bits, bool ieee_specials) {
  const int mantissa_bits = 7 - exponent_bits;
  const int bias = (1 << (exponent_bits - 1)) - 1;
  const int exponent = (b >> mantissa_bits) & ((1 << exponent_bits) - 1);
  const int mantissa = b & ((1 << mantissa_bits) - 1);
  const double sign = (b & 0x80) ? -1.0 : 1.0;
  const int all_ones = (1 << exponent_bits) - 1;
  if (ieee_specials && exponent == all_ones)
    return mantissa == 0 ? sign * INFINITY : std::numeric_limits<double>::quiet_NaN();
  if (!ieee_specials && exponent == all_ones && mantissa == (1 << mantissa_bits) - 1)
    return std::numeric_limits<double>::quiet_NaN();
  if (exponent == 0) return sign * std::ldexp(mantissa, 1 - bias - mantissa_bits);
  return sign * std::ldexp(mantissa + (1 << mantissa_bits), exponent - bias - mantissa_bits);
}
inline double fp8_e4m3fn_bits_to_double(uint8_t b) {
  return fp8_bits_to_double(b, 4, false);
}
inline double fp8_e5m2_bits_to_double(uint8_t b) {
  return fp8_bits_to_double(b, 5, true);
}
inline double fp8_e8m0_bits_to_double(uint8_t b) {
  return b == 0xff ? std::numeric_limits<double>::quiet_NaN() : std::ldexp(1.0, b - 127);
}

// Rounds `v` to the float dtype `d`; other dtypes return `v` unchanged.
inline double round_to_dtype(double v, DType d) {
  switch (d) {
    case DType::Float8E4M3FN:
      return round_to_fp8_e4m3fn(v);
    case DType::Float8E5M2:
      return round_to_fp8_e5m2(v);
    case DType::Float8E8M0FNU:
      return round_to_fp8_e8m0(v);
    case DType::Float16:
      return round_to_fp16(v);
    case DType::BFloat16:
      return round_to_bf16(v);
    case DType::Float32:
    case DType::Complex64:
      return round_to_fp32(v);
    default:
      return v;
  }
}

// Round half to even to an integer-valued double (std::nearbyint in the
// default FE_TONEAREST mode, written out so no global FP state matters).
inline double round_half_even(double v) {
  if (!std::isfinite(v)) return v;
  double floor_v = std::floor(v);
  double diff = v - floor_v;
  if (diff > 0.5) return floor_v + 1.0;
  if (diff < 0.5) return floor_v;
  return std::fmod(floor_v, 2.0) == 0.0 ? floor_v : floor_v + 1.0;
}

}  // namespace eqfuse
