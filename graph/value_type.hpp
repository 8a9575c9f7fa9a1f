// Types of FX values: tensors (dtype, shape with symbolic dims, optional
// strides and device), symbolic ints (`Sym(s0)`), Python scalars, tuples
// (multi-output ops) and None. A value whose type is neither annotated nor
// inferable is `Unknown`; nothing may be assumed about it.
//
// Annotation text is the form print_readable writes after a node name:
// `"bf16[s0, 7168]"`, `"f32[2, 3][3, 1]npu:0"`, `"Sym(s0)"`, `"f32[]"`.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/dtype.hpp"
#include "graph/symint.hpp"

namespace eqfuse {

struct Device {
  std::string type = "cpu";       // "cpu", "npu", "cuda", "meta"
  int index = -1;                 // -1: no index
  std::string to_string() const;  // "npu:0", "cpu"
  bool operator==(const Device&) const = default;
};

using Shape = std::vector<SymInt>;

struct TensorType {
  DType dtype = DType::Unknown;
  std::optional<Shape> shape;    // nullopt: rank unknown
  std::optional<Shape> strides;  // only when annotated
  std::optional<Device> device;  // only when annotated

  bool has_shape() const { return shape.has_value(); }
  int rank() const { return shape ? static_cast<int>(shape->size()) : -1; }
  // Product of dims (symbolic); nullopt if the shape is unknown. Throws
  // IntOverflow when a coefficient (for constant dims: the count) leaves int64.
  std::optional<SymInt> numel() const;
  // numel() x the dtype's itemsize, checked the same way: what a buffer of
  // this type takes. A type whose bytes do not fit in int64 cannot exist.
  std::optional<SymInt> bytes() const;
  bool operator==(const TensorType&) const = default;
};

struct ValueType {
  enum class Kind { Unknown, Tensor, SymInt, SymFloat, SymBool, Int, Float, Bool, Tuple, None };
  Kind kind = Kind::Unknown;
  TensorType tensor;                // Kind::Tensor
  std::optional<SymInt> sym;        // Kind::SymInt: the value if known (`Sym(s0)`)
  std::vector<ValueType> elements;  // Kind::Tuple

  static ValueType unknown() { return {}; }
  static ValueType of_tensor(TensorType t);
  static ValueType of_tensor(DType d, Shape shape);
  static ValueType of_symint(std::optional<SymInt> value);
  static ValueType of_tuple(std::vector<ValueType> elements);
  static ValueType none();

  bool is_tensor() const { return kind == Kind::Tensor; }
  bool is_known() const { return kind != Kind::Unknown; }
  bool operator==(const ValueType&) const = default;
};

// `f32[2, 3]`, `f32[2, 3][3, 1]npu:0`, `Sym(s0)`. Unknown, tuples and None
// have no annotation and return an empty string.
std::string to_annotation(const ValueType& t);
// Parses annotation text (without surrounding quotes). Throws
// std::invalid_argument naming the offending part.
ValueType parse_annotation(std::string_view text);
// Human-readable form for messages (`tuple(f32[2], i8[2])`, `unknown`).
std::string describe(const ValueType& t);
// A Python number or symbolic number (SymInt/SymFloat/SymBool, int, float,
// bool): what host-side scalar math takes and returns.
bool is_scalar_kind(ValueType::Kind k);

}  // namespace eqfuse
