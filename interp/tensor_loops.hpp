// Fast loops over strided tensors for the reference interpreter's hot paths.
//
// Two building blocks that let kernels run tight typed loops instead of
// per-element index arithmetic and std::function calls:
//
//  * for_each_row(shape, {strides...}, {offsets...}, row): walks a shape in
//    row-major order for N operands at once, merging dims that are
//    contiguous for every operand, and calls row(len, base, step) once per
//    innermost run, where element t of the run sits at base[k] + t * step[k]
//    in operand k's storage. Broadcast operands simply have stride 0.
//
//  * with_rounder(dtype, f): calls f with a function object that rounds a
//    double to `dtype` exactly like round_to_dtype (interp/float16.hpp), but
//    with the dtype switch hoisted out of the loop and a bit-level
//    round-to-nearest-even for normal fp16/bf16 values (subnormals take the
//    reference path), so results are bit-identical.
//
//   for_each_row<2>(x.shape(), {&x.strides(), &y.strides()}, {x.offset(), y.offset()},
//                   [&](int64_t len, const auto& base, const auto& step) { ... });
#pragma once
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/dtype.hpp"
#include "interp/float16.hpp"

namespace eqfuse {

using LoopDims = std::vector<int64_t>;

// Calls row(len, base, step) for every innermost run of `shape` (row-major).
// Nothing is called for an empty shape (numel 0); a 0-dim shape is one run
// of length 1.
template <size_t N, typename RowFn>
void for_each_row(const LoopDims& shape, const std::array<const LoopDims*, N>& strides,
                  const std::array<int64_t, N>& offsets, RowFn&& row) {
  // Collapse: drop size-1 dims, merge a dim into the next inner one when
  // every operand steps through both as one contiguous run.
  LoopDims sizes;
  std::array<LoopDims, N> st;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return;
    if (shape[d] == 1) continue;
    bool merge = !sizes.empty();
    for (size_t k = 0; k < N && merge; ++k) {
      merge = st[k].back() == (*strides[k])[d] * shape[d];
    }
    if (merge) {
      sizes.back() *= shape[d];
      for (size_t k = 0; k < N; ++k) st[k].back() = (*strides[k])[d];
    } else {
      sizes.push_back(shape[d]);
      for (size_t k = 0; k < N; ++k) st[k].push_back((*strides[k])[d]);
    }
  }
  if (sizes.empty()) {
    std::array<int64_t, N> zero{};
    row(int64_t{1}, offsets, zero);
    return;
  }
  size_t inner = sizes.size() - 1;
  std::array<int64_t, N> step;
  for (size_t k = 0; k < N; ++k) step[k] = st[k][inner];
  LoopDims index(inner, 0);
  std::array<int64_t, N> base = offsets;
  while (true) {
    row(sizes[inner], base, step);
    // Odometer over the outer dims, updating the base offsets incrementally.
    size_t d = inner;
    while (d-- > 0) {
      for (size_t k = 0; k < N; ++k) base[k] += st[k][d];
      if (++index[d] < sizes[d]) break;
      for (size_t k = 0; k < N; ++k) base[k] -= st[k][d] * sizes[d];
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1)) return;
  }
}

// Round-to-nearest-even of a double to a float format with `precision`
// significand bits, for values whose result is a normal number of the
// format (|v| >= 2^min_exponent); other values use the reference routine.
// Drops the low mantissa bits of the double directly, which is what
// round_to_binary_format computes with frexp/ldexp/floor.
constexpr double power_of_two(int e) {
  double r = 1.0;
  for (; e > 0; --e) r *= 2.0;
  for (; e < 0; ++e) r /= 2.0;
  return r;
}

template <int Precision, int MinExponent>
inline double round_binary_fast(double v, double max_finite) {
  constexpr double kMinNormal = power_of_two(MinExponent);
  double a = std::fabs(v);
  if (!(a >= kMinNormal) || !std::isfinite(v)) {
    if (std::isnan(v)) return v;
    return round_to_binary_format(v, Precision, MinExponent, max_finite);
  }
  constexpr int kDropped = 53 - Precision;
  constexpr uint64_t kLowMask = (uint64_t{1} << kDropped) - 1;
  uint64_t bits = std::bit_cast<uint64_t>(v);
  uint64_t lsb = (bits >> kDropped) & 1u;
  bits = (bits + (kLowMask >> 1) + lsb) & ~kLowMask;  // carries may bump the exponent
  double r = std::bit_cast<double>(bits);
  if (std::fabs(r) > max_finite) return std::copysign(INFINITY, v);
  return r;
}

struct RoundFp16 {
  double operator()(double v) const { return round_binary_fast<11, -14>(v, 65504.0); }
};
struct RoundBf16 {
  double operator()(double v) const { return round_binary_fast<8, -126>(v, 3.3895313892515355e38); }
};
struct RoundFp32 {
  double operator()(double v) const { return static_cast<double>(static_cast<float>(v)); }
};
// The 8-bit floats are rare and never hot: the generic rounding.
struct RoundFp8 {
  DType dtype;
  double operator()(double v) const { return round_to_dtype(v, dtype); }
};
struct RoundNone {
  double operator()(double v) const { return v; }
};

// Calls f(rounder) with the rounding function object of float dtype `d`
// (identity for fp64 and for non-float dtypes, as round_to_dtype).
template <typename F>
decltype(auto) with_rounder(DType d, F&& f) {
  switch (d) {
    case DType::Float16:
      return f(RoundFp16{});
    case DType::BFloat16:
      return f(RoundBf16{});
    case DType::Float32:
    case DType::Complex64:
      return f(RoundFp32{});
    case DType::Float8E4M3FN:
    case DType::Float8E5M2:
    case DType::Float8E8M0FNU:
      return f(RoundFp8{d});
    default:
      return f(RoundNone{});
  }
}

// round_to_dtype with the fast fp16/bf16 paths, for single elements.
inline double round_to_dtype_fast(double v, DType d) {
  return with_rounder(d, [v](auto round) { return round(v); });
}

}  // namespace eqfuse
