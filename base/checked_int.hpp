// Overflow-checked int64 arithmetic for sizes, element counts and byte counts.
// Signed overflow is undefined behaviour in C++ and, in practice, wraps: a size
// of 2^32 x 2^32 elements becomes 0 and a cost becomes absurd. Every size
// computation goes through these helpers, so a value that leaves int64 is
// reported (IntOverflow, an eqfuse::Error: exit 2 in the CLI) instead of used.
//
//   std::optional<int64_t> n = checked_mul(rows, cols);   // nullopt on overflow
//   int64_t bytes = mul_or_throw(n, itemsize, [&] { return "size of x"; });
#pragma once
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "base/diagnostics.hpp"

namespace eqfuse {

// A size, element count or byte count that does not fit in int64.
class IntOverflow : public Error {
 public:
  using Error::Error;
};

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_sub(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
  return r;
}

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// -a; nullopt for INT64_MIN, whose negation does not fit.
inline std::optional<int64_t> checked_neg(int64_t a) {
  return checked_sub(0, a);
}

// A wide intermediate (sums of many int64 terms are exact in 128 bits) narrowed
// back to int64; nullopt when it does not fit.
inline std::optional<int64_t> narrow_to_int64(__int128 v) {
  if (v < std::numeric_limits<int64_t>::min() || v > std::numeric_limits<int64_t>::max())
    return std::nullopt;
  return static_cast<int64_t>(v);
}

// Decimal text of a 128-bit value, for messages about values that left int64.
inline std::string int128_to_string(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 magnitude =
      negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (magnitude != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  return negative ? "-" + digits : digits;
}

// a * b, or IntOverflow with `what()` (called only on overflow) and the exact
// product in the message: "<what> = 4294967296 x 4294967296 does not fit in 63 bits".
template <class What>
int64_t mul_or_throw(int64_t a, int64_t b, What&& what) {
  if (std::optional<int64_t> r = checked_mul(a, b)) return *r;
  throw IntOverflow(fmt::format("{}: {} x {} = {} does not fit in 63 bits", what(), a, b,
                                int128_to_string(static_cast<__int128>(a) * b)));
}

template <class What>
int64_t add_or_throw(int64_t a, int64_t b, What&& what) {
  if (std::optional<int64_t> r = checked_add(a, b)) return *r;
  throw IntOverflow(fmt::format("{}: {} + {} = {} does not fit in 63 bits", what(), a, b,
                                int128_to_string(static_cast<__int128>(a) + b)));
}

}  // namespace eqfuse
