// Tensor element types. DType is a small enum; helpers convert between the
// spellings that appear in FX dumps: annotation codes (`f32`, `bf16`, `i8`,
// `b8`, `f8e4m3fn`), torch literals (`torch.float32`), and the integer ScalarType
// codes torch_npu ops take as arguments (`dtype=1` is int8, `15` is bf16).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace eqfuse {

enum class DType : uint8_t {
  Bool,
  UInt8,
  Int8,
  Int16,
  Int32,
  Int64,
  Float16,
  BFloat16,
  Float32,
  Float64,
  Complex64,
  QInt8,
  QUInt8,
  QInt32,
  QUInt4x2,
  // OCP 8-bit floats (torch >= 2.1; e8m0 >= 2.7): the values and block scales of MX
  // quantization. Float8E8M0FNU has no sign and no mantissa: a power of two or NaN.
  Float8E4M3FN,
  Float8E5M2,
  Float8E8M0FNU,
  Unknown,  // not annotated and not inferable
};

inline constexpr int kNumDTypes = static_cast<int>(DType::Unknown) + 1;

// Annotation code used by print_readable: "f32", "bf16", "i8", "b8", "u8".
std::string_view dtype_code(DType d);
// Torch name without the `torch.` prefix: "float32", "bfloat16", "int8", "bool".
std::string_view dtype_torch_name(DType d);
// Bytes per element (QUInt4x2 reports 1: two 4-bit values per byte).
int dtype_itemsize(DType d);
bool dtype_is_floating(DType d);
bool dtype_is_integral(DType d);  // bool excluded
bool dtype_is_quantized(DType d);
bool dtype_is_float8(DType d);

// Accepts an annotation code ("f16"), a torch name ("float16", "half"),
// or a torch literal ("torch.float16"). Returns nullopt if unknown.
std::optional<DType> parse_dtype(std::string_view text);
// torch ScalarType integer codes (c10/core/ScalarType.h order), and torch_npu's own codes
// for types torch spells otherwise (291 float8_e5m2, 292 float8_e4m3fn).
std::optional<DType> dtype_from_scalar_type(int64_t code);
std::optional<int64_t> scalar_type_code(DType d);

}  // namespace eqfuse
