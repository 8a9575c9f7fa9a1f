#include "graph/value_type.hpp"

#include "base/ascii.hpp"
#include "base/diagnostics.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace eqfuse {
namespace {

[[noreturn]] void bad(std::string_view text, std::string_view why) {
  constexpr size_t kMaxShown = 80;  // keep messages readable for huge inputs
  const std::string shown =
      text.size() <= kMaxShown ? std::string(text) : std::string(text.substr(0, kMaxShown)) + "...";
  if (why.size() > 2 * kMaxShown) why = why.substr(0, 2 * kMaxShown);
  throw std::invalid_argument(fmt::format("bad type annotation '{}': {}", shown, why));
}

// Splits `a, (b + c), d` at top-level commas; an empty list yields no parts.
std::vector<std::string_view> split_top_level(std::string_view s, std::string_view whole) {
  std::vector<std::string_view> parts;
  if (trim_blanks(s).empty()) return parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')' && --depth < 0) bad(whole, "unbalanced ')'");
    if (s[i] == ',' && depth == 0) {
      parts.push_back(trim_blanks(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(trim_blanks(s.substr(start)));
  for (auto p : parts)
    if (p.empty()) bad(whole, "empty dimension");
  return parts;
}

// SymInt::parse recurses on parentheses and does not check literal
// overflow; annotations come from untrusted files, so both are bounded here.
constexpr int kMaxDimNesting = 64;

void check_dim_text(std::string_view dim, std::string_view whole) {
  int depth = 0;
  for (size_t i = 0; i < dim.size(); ++i) {
    if (dim[i] == '(' && ++depth > kMaxDimNesting)
      bad(whole, fmt::format("dimension nested deeper than {} parentheses", kMaxDimNesting));
    if (dim[i] == ')') --depth;
    const bool starts_number =
        dim[i] >= '0' && dim[i] <= '9' && (i == 0 || !is_ident_char(dim[i - 1]));
    if (!starts_number) continue;
    size_t end = i;
    while (end < dim.size() && dim[end] >= '0' && dim[end] <= '9') ++end;
    const std::string_view digits = dim.substr(i, end - i);
    constexpr std::string_view kMax = "9223372036854775807";
    if (digits.size() > kMax.size() || (digits.size() == kMax.size() && digits > kMax))
      bad(whole, fmt::format("dimension '{}' is out of the int64 range", digits));
    i = end - 1;
  }
}

SymInt parse_dim(std::string_view dim, std::string_view whole) {
  check_dim_text(dim, whole);
  SymInt d;
  try {
    d = SymInt::parse(dim);
  } catch (const std::invalid_argument& e) {
    // The parser repeats the expression; the message names the dimension once
    // (the reason must survive the length limit of `bad`).
    std::string_view why = e.what();
    const std::string repeated = fmt::format("bad symbolic expression '{}': ", dim);
    if (why.starts_with(repeated)) why.remove_prefix(repeated.size());
    bad(whole, fmt::format("dimension '{}': {}", dim, why));
  }
  // A size is never negative; a negative literal is a typo that `check`
  // would only catch when it makes inputs.
  if (std::optional<int64_t> v = d.constant(); v && *v < 0)
    bad(whole, fmt::format("dimension '{}' is negative", dim));
  return d;
}

// Reads `[d0, d1, ...]` at the front of `rest`, advancing past it.
Shape parse_dim_list(std::string_view& rest, std::string_view whole) {
  if (rest.empty() || rest.front() != '[') bad(whole, "expected '['");
  size_t close = rest.find(']');
  if (close == std::string_view::npos) bad(whole, "missing ']'");
  Shape dims;
  for (auto d : split_top_level(rest.substr(1, close - 1), whole))
    dims.push_back(parse_dim(d, whole));
  rest.remove_prefix(close + 1);
  return dims;
}

// `npu:0`, `cuda:1`, `cpu`, `meta`.
Device parse_device(std::string_view text, std::string_view whole) {
  Device dev;
  size_t colon = text.find(':');
  std::string_view type = text.substr(0, colon);
  if (type.empty()) bad(whole, "empty device");
  for (char c : type)
    if (!is_ident_char(c)) bad(whole, fmt::format("bad device '{}'", text));
  dev.type = std::string(type);
  if (colon != std::string_view::npos) {
    std::string_view idx = text.substr(colon + 1);
    if (idx.empty() || idx.size() > 6) bad(whole, fmt::format("bad device index in '{}'", text));
    int v = 0;
    for (char c : idx) {
      if (c < '0' || c > '9') bad(whole, fmt::format("bad device index in '{}'", text));
      v = v * 10 + (c - '0');
    }
    dev.index = v;
  }
  return dev;
}

std::string join_dims(const Shape& dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    out += dims[i].to_string();
  }
  return out + "]";
}

}  // namespace

std::string Device::to_string() const {
  return index >= 0 ? fmt::format("{}:{}", type, index) : type;
}

std::optional<SymInt> TensorType::numel() const {
  if (!shape) return std::nullopt;
  SymInt n = 1;
  for (const SymInt& d : *shape) n = n * d;
  return n;
}

std::optional<SymInt> TensorType::bytes() const {
  std::optional<SymInt> n = numel();
  if (!n) return std::nullopt;
  return *n * SymInt(dtype_itemsize(dtype));
}

ValueType ValueType::of_tensor(TensorType t) {
  ValueType v;
  v.kind = Kind::Tensor;
  v.tensor = std::move(t);
  return v;
}

ValueType ValueType::of_tensor(DType d, Shape shape) {
  TensorType t;
  t.dtype = d;
  t.shape = std::move(shape);
  return of_tensor(std::move(t));
}

ValueType ValueType::of_symint(std::optional<SymInt> value) {
  ValueType v;
  v.kind = Kind::SymInt;
  v.sym = std::move(value);
  return v;
}

ValueType ValueType::of_tuple(std::vector<ValueType> elements) {
  ValueType v;
  v.kind = Kind::Tuple;
  v.elements = std::move(elements);
  return v;
}

ValueType ValueType::none() {
  ValueType v;
  v.kind = Kind::None;
  return v;
}

std::string to_annotation(const ValueType& t) {
  switch (t.kind) {
    case ValueType::Kind::Tensor: {
      const TensorType& tt = t.tensor;
      if (tt.dtype == DType::Unknown || !tt.shape) return {};
      std::string out = std::string(dtype_code(tt.dtype)) + join_dims(*tt.shape);
      if (tt.strides) out += join_dims(*tt.strides);
      if (tt.device) out += tt.device->to_string();
      return out;
    }
    case ValueType::Kind::SymInt:
      return t.sym ? fmt::format("Sym({})", t.sym->to_string()) : std::string();
    default:
      return {};
  }
}

ValueType parse_annotation(std::string_view text) {
  const std::string_view whole = text;
  text = trim_blanks(text);
  if (text.empty()) bad(whole, "empty annotation");
  if (text.starts_with("Sym(")) {
    if (text.back() != ')') bad(whole, "missing ')'");
    std::string_view inner = trim_blanks(text.substr(4, text.size() - 5));
    if (inner.empty()) bad(whole, "empty Sym()");
    return ValueType::of_symint(parse_dim(inner, whole));
  }
  size_t bracket = text.find('[');
  if (bracket == std::string_view::npos) bad(whole, "expected `dtype[dims]` or `Sym(expr)`");
  std::string_view code = text.substr(0, bracket);
  auto dtype = parse_dtype(code);
  // Only annotation codes (`f32`, `bf16`) are accepted here, not `float32`.
  if (!dtype || dtype_code(*dtype) != code)
    bad(whole, fmt::format("unknown dtype code '{}'", code));
  std::string_view rest = text.substr(bracket);
  TensorType t;
  t.dtype = *dtype;
  t.shape = parse_dim_list(rest, whole);
  if (!rest.empty() && rest.front() == '[') t.strides = parse_dim_list(rest, whole);
  if (t.strides && t.strides->size() != t.shape->size())
    bad(whole, "stride list length differs from the rank");
  if (!rest.empty()) t.device = parse_device(rest, whole);
  return ValueType::of_tensor(std::move(t));
}

std::string describe(const ValueType& t) {
  switch (t.kind) {
    case ValueType::Kind::Unknown:
      return "unknown";
    case ValueType::Kind::Tensor: {
      std::string a = to_annotation(t);
      if (!a.empty()) return a;
      return t.tensor.dtype == DType::Unknown ? std::string("tensor(?)")
                                              : fmt::format("{}[?]", dtype_code(t.tensor.dtype));
    }
    case ValueType::Kind::SymInt:
      return t.sym ? to_annotation(t) : std::string("Sym(?)");
    case ValueType::Kind::SymFloat:
      return "SymFloat";
    case ValueType::Kind::SymBool:
      return "SymBool";
    case ValueType::Kind::Int:
      return "int";
    case ValueType::Kind::Float:
      return "float";
    case ValueType::Kind::Bool:
      return "bool";
    case ValueType::Kind::None:
      return "None";
    case ValueType::Kind::Tuple: {
      std::string out = "tuple(";
      for (size_t i = 0; i < t.elements.size(); ++i) {
        if (i) out += ", ";
        out += describe(t.elements[i]);
      }
      return out + ")";
    }
  }
  return "?";
}

bool is_scalar_kind(ValueType::Kind k) {
  switch (k) {
    case ValueType::Kind::SymInt:
    case ValueType::Kind::SymFloat:
    case ValueType::Kind::SymBool:
    case ValueType::Kind::Int:
    case ValueType::Kind::Float:
    case ValueType::Kind::Bool:
      return true;
    default:
      return false;
  }
}

}  // namespace eqfuse
