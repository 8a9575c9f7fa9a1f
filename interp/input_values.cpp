// Reading given input values (JSON or safetensors) and checking them
// against a graph's placeholders.
#include "interp/input_values.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/checked_int.hpp"
#include "base/json_text.hpp"
#include "graph/io/load.hpp"
#include "interp/float16.hpp"

namespace eqfuse {
namespace {

using nlohmann::json;

// One value as read, before it is checked against its placeholder.
struct GivenTensor {
  std::optional<DType> dtype;  // when the file says
  Dims shape;
  std::vector<double> floats;  // float dtypes
  std::vector<int64_t> ints;   // integer and bool dtypes
  bool is_int = false;
};
using GivenValue = std::variant<GivenTensor, int64_t, double, bool>;

[[noreturn]] void fail(std::string_view origin, const std::string& what) {
  throw Error(fmt::format("{}: {}", origin, what));
}

// ---- JSON -----------------------------------------------------------------------------

double json_float(const json& v, std::string_view where, std::string_view origin) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  fail(origin, fmt::format("{}: expected a number (or \"nan\", \"inf\", \"-inf\"), got {}", where,
                           v.dump()));
}

// Flattens nested lists into `out`, recording the shape of the first path.
void flatten(const json& v, size_t depth, Dims& shape, std::vector<const json*>& out,
             std::string_view where, std::string_view origin) {
  if (!v.is_array()) {
    if (depth < shape.size())
      fail(origin, fmt::format("{}: ragged data (a number where a list of {} was expected)", where,
                               shape[depth]));
    out.push_back(&v);
    return;
  }
  const auto n = static_cast<int64_t>(v.size());
  if (depth == shape.size() && out.empty()) {
    shape.push_back(n);
  } else if (depth >= shape.size() || shape[depth] != n) {
    fail(origin, fmt::format("{}: ragged data (a list of {} at depth {})", where, n, depth));
  }
  for (const json& e : v) flatten(e, depth + 1, shape, out, where, origin);
}

GivenValue tensor_from_json(const json& v, std::string_view where, std::string_view origin) {
  GivenTensor t;
  if (v.contains("dtype")) {
    const std::string name = v["dtype"].is_string() ? v["dtype"].get<std::string>() : "";
    t.dtype = parse_dtype(name);
    if (!t.dtype) fail(origin, fmt::format("{}: unknown dtype {}", where, v["dtype"].dump()));
  }
  if (!v.contains("data")) fail(origin, fmt::format("{}: a tensor needs \"data\"", where));
  std::vector<const json*> elements;
  Dims nested;
  flatten(v["data"], 0, nested, elements, where, origin);
  if (v.contains("shape")) {
    if (!v["shape"].is_array())
      fail(origin, fmt::format("{}: \"shape\" must be a list of sizes", where));
    for (const json& d : v["shape"]) {
      if (!d.is_number_integer() || d.get<int64_t>() < 0)
        fail(origin, fmt::format("{}: \"shape\" must be a list of sizes >= 0", where));
      t.shape.push_back(d.get<int64_t>());
    }
  } else {
    t.shape = nested;
  }
  int64_t numel = 1;
  for (int64_t d : t.shape) numel *= d;
  if (numel != static_cast<int64_t>(elements.size()))
    fail(origin, fmt::format("{}: shape {} needs {} values, \"data\" has {}", where,
                             dims_to_string(t.shape), numel, elements.size()));
  t.is_int = t.dtype && dtype_stored_as_int(*t.dtype);
  for (const json* e : elements) {
    const double x = json_float(*e, where, origin);
    if (t.is_int) {
      if (x != std::floor(x))
        fail(origin, fmt::format("{}: {} is not an integer", where, e->dump()));
      t.ints.push_back(static_cast<int64_t>(x));
    } else {
      t.floats.push_back(x);
    }
  }
  return t;
}

GivenValue value_from_json(const json& v, std::string_view where, std::string_view origin) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_number()) return v.get<double>();
  if (v.is_object()) return tensor_from_json(v, where, origin);
  fail(origin, fmt::format("{}: expected a tensor object or a number, got {}", where, v.dump()));
}

std::map<std::string, GivenValue> values_from_json(const Graph& graph, std::string_view text,
                                                   std::string_view origin) {
  const json doc = parse_json_text(text, origin);
  std::map<std::string, GivenValue> out;
  if (doc.is_object()) {
    for (const auto& [name, v] : doc.items())
      out.emplace(name, value_from_json(v, fmt::format("input '{}'", name), origin));
    return out;
  }
  if (!doc.is_array())
    fail(origin, "expected a JSON object keyed by input name, or an array in input order");
  const std::vector<NodeRef> inputs = graph.placeholders();
  if (doc.size() != inputs.size())
    fail(origin, fmt::format("the array has {} values, the graph has {} inputs", doc.size(),
                             inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::string& name = graph.node(inputs[i]).name;
    out.emplace(name, value_from_json(doc[i], fmt::format("input {} ('{}')", i, name), origin));
  }
  return out;
}

// ---- safetensors ----------------------------------------------------------------------

struct SafetensorsDType {
  const char* name;
  DType dtype;
  int bytes;
};
constexpr SafetensorsDType kSafetensorsDTypes[] = {
    {"F64", DType::Float64, 8},
    {"F32", DType::Float32, 4},
    {"F16", DType::Float16, 2},
    {"BF16", DType::BFloat16, 2},
    {"I64", DType::Int64, 8},
    {"I32", DType::Int32, 4},
    {"I16", DType::Int16, 2},
    {"I8", DType::Int8, 1},
    {"U8", DType::UInt8, 1},
    {"BOOL", DType::Bool, 1},
    {"F8_E4M3", DType::Float8E4M3FN, 1},
    {"F8_E5M2", DType::Float8E5M2, 1},
    {"F8_E8M0", DType::Float8E8M0FNU, 1},
};

// An unsigned little-endian integer, whatever the host's byte order.
template <class T>
T load_le(const unsigned char* p) {
  T v = 0;
  for (size_t i = sizeof(T); i-- > 0;) v = static_cast<T>((v << 8) | p[i]);
  return v;
}

double decode_float(const unsigned char* p, DType d) {
  switch (d) {
    case DType::Float64:
      return std::bit_cast<double>(load_le<uint64_t>(p));
    case DType::Float32:
      return std::bit_cast<float>(load_le<uint32_t>(p));
    case DType::Float16:
      return fp16_bits_to_float(load_le<uint16_t>(p));
    case DType::Float8E4M3FN:
      return fp8_e4m3fn_bits_to_double(p[0]);
    case DType::Float8E5M2:
      return fp8_e5m2_bits_to_double(p[0]);
    case DType::Float8E8M0FNU:
      return fp8_e8m0_bits_to_double(p[0]);
    default:
      return bf16_bits_to_float(load_le<uint16_t>(p));
  }
}

int64_t decode_int(const unsigned char* p, DType d) {
  switch (d) {
    case DType::Int64:
      return static_cast<int64_t>(load_le<uint64_t>(p));
    case DType::Int32:
      return static_cast<int32_t>(load_le<uint32_t>(p));
    case DType::Int16:
      return static_cast<int16_t>(load_le<uint16_t>(p));
    case DType::Int8:
      return static_cast<int8_t>(p[0]);
    case DType::Bool:
      return p[0] != 0;
    default:
      return p[0];
  }
}

GivenTensor tensor_from_safetensors(const json& entry, std::string_view data,
                                    std::string_view where, std::string_view origin) {
  // A non-string dtype (a fuzz finding: it escaped as a JSON exception) is
  // reported like an unknown one.
  const std::string code = entry.contains("dtype") && entry.at("dtype").is_string()
                               ? entry.at("dtype").get<std::string>()
                               : entry.value("dtype", json()).dump();
  const SafetensorsDType* st = nullptr;
  for (const SafetensorsDType& d : kSafetensorsDTypes)
    if (code == d.name) st = &d;
  if (!st) fail(origin, fmt::format("{}: unsupported safetensors dtype '{}'", where, code));
  GivenTensor t;
  t.dtype = st->dtype;
  t.is_int = dtype_stored_as_int(st->dtype);
  const json& shape = entry.value("shape", json::array());
  const json& offsets = entry.value("data_offsets", json::array());
  int64_t numel = 1;
  for (const json& d : shape) {
    if (!d.is_number_unsigned()) fail(origin, fmt::format("{}: bad shape {}", where, shape.dump()));
    const auto dim = d.get<uint64_t>();
    const std::optional<int64_t> product =
        dim <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
            ? checked_mul(numel, static_cast<int64_t>(dim))
            : std::nullopt;
    if (!product)
      fail(origin,
           fmt::format("{}: shape {} has more elements than fit in 63 bits", where, shape.dump()));
    t.shape.push_back(static_cast<int64_t>(dim));
    numel = *product;
  }
  if (offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned())
    fail(origin, fmt::format("{}: \"data_offsets\" must be [begin, end]", where));
  const auto begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
  if (begin > end || end > data.size() || (end - begin) % st->bytes != 0 ||
      (end - begin) / st->bytes != static_cast<uint64_t>(numel))  // no wrapping product
    fail(origin, fmt::format("{}: byte range [{}, {}) does not hold {} {} values in {} data bytes",
                             where, begin, end, numel, code, data.size()));
  const auto* p = reinterpret_cast<const unsigned char*>(data.data()) + begin;
  for (int64_t i = 0; i < numel; ++i, p += st->bytes) {
    if (t.is_int) {
      t.ints.push_back(decode_int(p, st->dtype));
    } else {
      t.floats.push_back(decode_float(p, st->dtype));
    }
  }
  return t;
}

std::map<std::string, GivenValue> values_from_safetensors(std::string_view bytes,
                                                          std::string_view origin) {
  if (bytes.size() < 8) fail(origin, "too short for a safetensors file (no header length)");
  const auto header_size = load_le<uint64_t>(reinterpret_cast<const unsigned char*>(bytes.data()));
  if (header_size > bytes.size() - 8)
    fail(origin, fmt::format("the header length {} exceeds the file ({} bytes)", header_size,
                             bytes.size()));
  const json header = parse_json_text(bytes.substr(8, header_size), origin);
  if (!header.is_object()) fail(origin, "the safetensors header is not a JSON object");
  const std::string_view data = bytes.substr(8 + header_size);
  std::map<std::string, GivenValue> out;
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    if (!entry.is_object()) fail(origin, fmt::format("tensor '{}': not an object", name));
    out.emplace(name,
                tensor_from_safetensors(entry, data, fmt::format("tensor '{}'", name), origin));
  }
  return out;
}

// ---- checking against the placeholders ------------------------------------------------

std::string shape_text(const Shape& shape) {
  std::vector<std::string> dims;
  for (const SymInt& d : shape) dims.push_back(d.to_string());
  return fmt::format("[{}]", fmt::join(dims, ", "));
}

// Binds the symbols of `declared` from `actual` sizes; concrete dims and
// expressions of bound symbols must agree.
void bind_dims(const Shape& declared, const Dims& actual, SymBindings& bindings,
               std::string_view where, std::string_view origin) {
  auto mismatch = [&] {
    fail(origin, fmt::format("{}: shape {} does not match the declared {}", where,
                             dims_to_string(actual), shape_text(declared)));
  };
  if (declared.size() != actual.size()) mismatch();
  for (size_t i = 0; i < declared.size(); ++i) {
    std::optional<std::string> name = declared[i].single_symbol();
    if (name && !bindings.count(*name)) bindings[*name] = actual[i];
  }
  for (size_t i = 0; i < declared.size(); ++i) {
    const std::optional<int64_t> v = declared[i].evaluate(bindings);
    if (!v) {
      fail(origin, fmt::format("{}: dim {} ('{}') cannot be bound from the given sizes", where, i,
                               declared[i].to_string()));
    }
    if (*v != actual[i]) mismatch();
  }
}

RuntimeValue checked_tensor(const GivenTensor& t, const TensorType& declared, SymBindings& bindings,
                            std::string_view where, std::string_view origin) {
  if (declared.dtype == DType::Unknown || !declared.shape)
    fail(origin, fmt::format("{}: the graph does not say its type (pass --input-types)", where));
  if (t.dtype && *t.dtype != declared.dtype)
    fail(origin, fmt::format("{}: dtype {} but the graph declares {}", where, dtype_code(*t.dtype),
                             dtype_code(declared.dtype)));
  bind_dims(*declared.shape, t.shape, bindings, where, origin);
  checked_numel(t.shape);
  if (dtype_stored_as_int(declared.dtype)) {
    if (!t.is_int && !t.floats.empty()) {
      std::vector<int64_t> ints;
      for (double x : t.floats) {
        if (x != std::floor(x) || !std::isfinite(x))
          fail(origin,
               fmt::format("{}: {} is not an integer ({})", where, x, dtype_code(declared.dtype)));
        ints.push_back(static_cast<int64_t>(x));
      }
      return Tensor::from_ints(declared.dtype, t.shape, ints);
    }
    return Tensor::from_ints(declared.dtype, t.shape, t.ints);
  }
  std::vector<double> values = t.floats;
  for (int64_t x : t.ints) values.push_back(static_cast<double>(x));
  for (double& x : values) x = round_to_dtype(x, declared.dtype);
  return Tensor::from_values(declared.dtype, t.shape, values);
}

RuntimeValue checked_scalar(const GivenValue& v, const Node& ph, SymBindings& bindings,
                            std::string_view where, std::string_view origin) {
  const ValueType& type = ph.type;
  if (type.kind == ValueType::Kind::SymInt || type.kind == ValueType::Kind::Int) {
    if (!std::holds_alternative<int64_t>(v))
      fail(origin, fmt::format("{}: expected an integer for {}", where, describe(type)));
    const int64_t x = std::get<int64_t>(v);
    if (type.sym) {
      std::optional<std::string> name = type.sym->single_symbol();
      if (name && !bindings.count(*name)) bindings[*name] = x;
      if (type.sym->evaluate(bindings) != x)
        fail(origin,
             fmt::format("{}: {} disagrees with the sizes of the other inputs ({} = {})", where, x,
                         type.sym->to_string(), type.sym->evaluate(bindings).value_or(-1)));
    }
    return x;
  }
  if (type.kind == ValueType::Kind::Bool || type.kind == ValueType::Kind::SymBool) {
    if (!std::holds_alternative<bool>(v))
      fail(origin, fmt::format("{}: expected true or false", where));
    return std::get<bool>(v);
  }
  if (type.kind == ValueType::Kind::Float || type.kind == ValueType::Kind::SymFloat) {
    if (std::holds_alternative<double>(v)) return std::get<double>(v);
    if (std::holds_alternative<int64_t>(v)) return static_cast<double>(std::get<int64_t>(v));
    fail(origin, fmt::format("{}: expected a number", where));
  }
  fail(origin, fmt::format("{}: the graph does not say its type (pass --input-types)", where));
}

}  // namespace

RandomInputs parse_input_values(const Graph& graph, std::string_view bytes, std::string_view origin,
                                bool safetensors) {
  std::map<std::string, GivenValue> given =
      safetensors ? values_from_safetensors(bytes, origin) : values_from_json(graph, bytes, origin);
  const std::vector<NodeRef> inputs = graph.placeholders();
  std::vector<std::string> names;
  for (NodeRef r : inputs) names.push_back(graph.node(r).name);
  for (const auto& [name, v] : given) {
    if (std::find(names.begin(), names.end(), name) == names.end())
      fail(origin, fmt::format("'{}' is not an input of the graph (its inputs: {})", name,
                               fmt::join(names, ", ")));
  }
  // Tensors first: their sizes bind the symbols that SymInt inputs repeat.
  RandomInputs out;
  out.values.resize(inputs.size());
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Node& ph = graph.node(inputs[i]);
      const std::string where = fmt::format("input '{}'", ph.name);
      auto it = given.find(ph.name);
      if (it == given.end())
        fail(origin, fmt::format("no value for {} ({})", where, describe(ph.type)));
      const bool is_tensor = std::holds_alternative<GivenTensor>(it->second);
      if (ph.type.is_tensor() != is_tensor && pass == 0) {
        fail(origin, fmt::format("{}: the graph declares {}, the file gives {}", where,
                                 describe(ph.type), is_tensor ? "a tensor" : "a number"));
      }
      if ((pass == 0) != is_tensor) continue;
      out.values[i] = is_tensor ? checked_tensor(std::get<GivenTensor>(it->second), ph.type.tensor,
                                                 out.bindings, where, origin)
                                : checked_scalar(it->second, ph, out.bindings, where, origin);
    }
  }
  return out;
}

RandomInputs read_input_values(const Graph& graph, const std::string& path) {
  const std::string bytes = read_file_or_stdin(path);
  return parse_input_values(graph, bytes, path, path.ends_with(".safetensors"));
}

}  // namespace eqfuse
