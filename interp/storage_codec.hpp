// How the reference interpreter's tensors encode values at their dtype's
// width (interp/tensor.hpp StorageKind), one codec per storage kind.
//
// A codec names the stored C++ type and converts between it and the value
// the kernels compute with: double for float kinds, int64 for integral ones.
// `store` expects a value already rounded (float kinds) or wrapped
// (integral kinds) to the dtype, so it is exact: load(store(v)) == v, with
// the sign of zero and NaN kept. visit_codec dispatches once on a kind, so
// loops over a run of elements are tight typed loops.
//
//   visit_codec(kind, [&](auto codec) {
//     using Stored = typename decltype(codec)::Stored;
//     const Stored* p = reinterpret_cast<const Stored*>(bytes);
//     for (...) sum += codec.load(p[i]);
//   });
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "interp/float16.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

struct CodecF64 {
  using Stored = double;
  using Value = double;
  static double load(double s) { return s; }
  static double store(double v) { return v; }
};

struct CodecF32 {
  using Stored = float;
  using Value = double;
  static double load(float s) { return static_cast<double>(s); }
  static float store(double v) { return static_cast<float>(v); }
};

// fp16 and bf16 values are exact in fp32, so the bit conversions through
// float neither round nor lose a NaN.
struct CodecF16 {
  using Stored = uint16_t;
  using Value = double;
  static double load(uint16_t s) { return static_cast<double>(fp16_bits_to_float(s)); }
  static uint16_t store(double v) { return float_to_fp16_bits(static_cast<float>(v)); }
};

struct CodecBF16 {
  using Stored = uint16_t;
  using Value = double;
  static double load(uint16_t s) { return static_cast<double>(bf16_bits_to_float(s)); }
  static uint16_t store(double v) { return float_to_bf16_bits(static_cast<float>(v)); }
};

// The 8-bit floats decode through a table of their 256 values and encode a
// representable value by searching the table's sorted non-negative half.
template <int Format>  // 0: e4m3fn, 1: e5m2, 2: e8m0fnu
struct CodecF8 {
  using Stored = uint8_t;
  using Value = double;

  static double decode_bits(uint8_t b) {
    if constexpr (Format == 0) return fp8_e4m3fn_bits_to_double(b);
    if constexpr (Format == 1) return fp8_e5m2_bits_to_double(b);
    return fp8_e8m0_bits_to_double(b);
  }
  static const std::array<double, 256>& table() {
    static const std::array<double, 256> values = [] {
      std::array<double, 256> v{};
      for (int b = 0; b < 256; ++b)
        v[static_cast<size_t>(b)] = decode_bits(static_cast<uint8_t>(b));
      return v;
    }();
    return values;
  }
  static double load(uint8_t s) { return table()[s]; }
  static uint8_t store(double v) {
    if (std::isnan(v)) return Format == 0 ? 0x7f : 0xff;
    if constexpr (Format == 2) {
      int exp2 = 0;
      std::frexp(v, &exp2);  // v = 0.5 * 2^exp2 = 2^(exp2 - 1)
      return static_cast<uint8_t>(std::clamp(exp2 - 1 + 127, 0, 254));
    } else {
      const uint8_t sign = std::signbit(v) ? 0x80 : 0x00;
      const double a = std::fabs(v);
      if (std::isinf(a)) return static_cast<uint8_t>(sign | 0x7c);  // e5m2 only: e4m3fn has none
      // Codes 0..0x7f are the non-negative values in increasing order (the
      // NaN codes at the top are never searched: `a` is a number).
      const std::array<double, 256>& t = table();
      const int last_finite = Format == 0 ? 0x7e : 0x7b;
      const double* hit = std::lower_bound(t.data(), t.data() + last_finite + 1, a);
      return static_cast<uint8_t>(sign | static_cast<uint8_t>(hit - t.data()));
    }
  }
};

template <typename T>
struct CodecInt {
  using Stored = T;
  using Value = int64_t;
  static int64_t load(T s) { return static_cast<int64_t>(s); }
  static T store(int64_t v) { return static_cast<T>(v); }
};

// Calls f(codec) with the codec of `kind`.
template <typename F>
decltype(auto) visit_codec(StorageKind kind, F&& f) {
  switch (kind) {
    case StorageKind::F64:
      return f(CodecF64{});
    case StorageKind::F32:
      return f(CodecF32{});
    case StorageKind::F16:
      return f(CodecF16{});
    case StorageKind::BF16:
      return f(CodecBF16{});
    case StorageKind::F8E4M3FN:
      return f(CodecF8<0>{});
    case StorageKind::F8E5M2:
      return f(CodecF8<1>{});
    case StorageKind::F8E8M0:
      return f(CodecF8<2>{});
    case StorageKind::I64:
      return f(CodecInt<int64_t>{});
    case StorageKind::I32:
      return f(CodecInt<int32_t>{});
    case StorageKind::I16:
      return f(CodecInt<int16_t>{});
    case StorageKind::I8:
      return f(CodecInt<int8_t>{});
    case StorageKind::U8:
      break;
  }
  return f(CodecInt<uint8_t>{});
}

}  // namespace eqfuse
