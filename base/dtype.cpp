#include "base/dtype.hpp"

#include <array>

namespace eqfuse {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view code;
  std::string_view torch_name;
  int itemsize;
  int scalar_type;  // -1: none
};

// One row per dtype: the single table every conversion reads.
constexpr std::array<DTypeInfo, kNumDTypes> kInfo = {{
    {DType::Bool, "b8", "bool", 1, 11},
    {DType::UInt8, "u8", "uint8", 1, 0},
    {DType::Int8, "i8", "int8", 1, 1},
    {DType::Int16, "i16", "int16", 2, 2},
    {DType::Int32, "i32", "int32", 4, 3},
    {DType::Int64, "i64", "int64", 8, 4},
    {DType::Float16, "f16", "float16", 2, 5},
    {DType::BFloat16, "bf16", "bfloat16", 2, 15},
    {DType::Float32, "f32", "float32", 4, 6},
    {DType::Float64, "f64", "float64", 8, 7},
    {DType::Complex64, "c64", "complex64", 8, 9},
    {DType::QInt8, "qi8", "qint8", 1, 12},
    {DType::QUInt8, "qu8", "quint8", 1, 13},
    {DType::QInt32, "qi32", "qint32", 4, 14},
    {DType::QUInt4x2, "qu4x2", "quint4x2", 1, 16},
    {DType::Float8E4M3FN, "f8e4m3fn", "float8_e4m3fn", 1, 24},
    {DType::Float8E5M2, "f8e5m2", "float8_e5m2", 1, 23},
    {DType::Float8E8M0FNU, "f8e8m0fnu", "float8_e8m0fnu", 1, 44},
    {DType::Unknown, "?", "unknown", 0, -1},
}};

const DTypeInfo& info(DType d) {
  return kInfo[static_cast<int>(d)];
}

struct Alias {
  std::string_view name;
  DType dtype;
};
constexpr std::array<Alias, 10> kAliases = {{{"half", DType::Float16},
                                             {"float", DType::Float32},
                                             {"double", DType::Float64},
                                             {"long", DType::Int64},
                                             {"int", DType::Int32},
                                             {"short", DType::Int16},
                                             {"bool_", DType::Bool},
                                             {"cfloat", DType::Complex64},
                                             {"b1", DType::Bool},
                                             {"bf", DType::BFloat16}}};

}  // namespace

std::string_view dtype_code(DType d) {
  return info(d).code;
}
std::string_view dtype_torch_name(DType d) {
  return info(d).torch_name;
}
int dtype_itemsize(DType d) {
  return info(d).itemsize;
}

bool dtype_is_floating(DType d) {
  return d == DType::Float16 || d == DType::BFloat16 || d == DType::Float32 ||
         d == DType::Float64 || dtype_is_float8(d);
}
bool dtype_is_float8(DType d) {
  return d == DType::Float8E4M3FN || d == DType::Float8E5M2 || d == DType::Float8E8M0FNU;
}
bool dtype_is_integral(DType d) {
  return d == DType::UInt8 || d == DType::Int8 || d == DType::Int16 || d == DType::Int32 ||
         d == DType::Int64;
}
bool dtype_is_quantized(DType d) {
  return d == DType::QInt8 || d == DType::QUInt8 || d == DType::QInt32 || d == DType::QUInt4x2;
}

std::optional<DType> parse_dtype(std::string_view text) {
  if (text.starts_with("torch.")) text.remove_prefix(6);
  for (const auto& row : kInfo) {
    if (row.dtype == DType::Unknown) continue;
    if (text == row.code || text == row.torch_name) return row.dtype;
  }
  for (const auto& a : kAliases)
    if (text == a.name) return a.dtype;
  return std::nullopt;
}

std::optional<DType> dtype_from_scalar_type(int64_t code) {
  for (const auto& row : kInfo)
    if (row.scalar_type >= 0 && row.scalar_type == code) return row.dtype;
  // torch_npu's own codes start above torch's, so they never collide with them.
  // 290 (hifloat8) and 296/297 (two fp4 values per byte) have no DType here.
  if (code == 291) return DType::Float8E5M2;
  if (code == 292) return DType::Float8E4M3FN;
  return std::nullopt;
}

std::optional<int64_t> scalar_type_code(DType d) {
  int code = info(d).scalar_type;
  if (code < 0) return std::nullopt;
  return code;
}

}  // namespace eqfuse
