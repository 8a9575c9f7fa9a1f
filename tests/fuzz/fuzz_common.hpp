// Shared pieces of the libFuzzer targets (docs/reliability.md, "Fuzzing"):
//
//   extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
//     fuzz::only_input_errors([&] { parse_device_profile(fuzz::json_text(data, size), "p"); });
//     return 0;
//   }
//
// Every reader must turn any bytes into a value or an eqfuse::Error; any other
// exception, a sanitizer report or a crash is a finding. JSON targets run their
// input through json_text(), whose generators reach what byte mutation rarely
// does: nesting 100,000 levels deep, and numbers at the edges of int64/double.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/diagnostics.hpp"

namespace eqfuse::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `f`; an eqfuse::Error is the reader refusing bad input (fine).
template <class F>
void only_input_errors(F&& f) {
  try {
    f();
  } catch (const Error&) {
  }
}

// A finding that is not a crash (a miscompile, a print that does not re-read):
// report and abort so that libFuzzer saves the input.
[[noreturn]] inline void finding(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "FUZZ FINDING: %.*s\n%.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Numbers at the edges: int64 limits, 2^62 (products overflow), doubles
// that are huge, tiny or not representable as integers.
inline constexpr std::string_view kEdgeNumbers[] = {"9223372036854775807",
                                                    "-9223372036854775808",
                                                    "4611686018427387904",
                                                    "4294967296",
                                                    "18446744073709551615",
                                                    "1e308",
                                                    "-1e308",
                                                    "4.9e-324",
                                                    "0",
                                                    "-1",
                                                    "1e19",
                                                    "2147483648"};

// The input as JSON text. The first byte picks a generator:
//   'D' <2 bytes n> rest: rest wrapped in 100 * n (up to 100,000) nested
//       arrays/objects, alternating as the next byte's bits say;
//   'N' rest: every run of digits in rest replaced by an edge number;
//   anything else: the bytes as they are.
std::string json_text(const uint8_t* data, size_t size);

}  // namespace eqfuse::fuzz
