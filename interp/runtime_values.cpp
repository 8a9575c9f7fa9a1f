// Runtime values outside a run: stable hashing (of values, tensors and
// strings, for uninterpreted functions and random inputs), describing and
// deep-copying values, and the uninterpreted value of a type. The interpreter
// and its callers (random inputs, equivalence checks) share these.
#include <bit>
#include <cmath>
#include <stdexcept>

#include "interp/float16.hpp"
#include "interp/interpreter.hpp"
#include "interp/interpreter_internal.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {

// ---- hashing ---------------------------------------------------------------------

uint64_t hash_combine(uint64_t h, uint64_t v) {
  SplitMix64 mix(h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2)));
  return mix.next();
}

uint64_t hash_string(uint64_t h, std::string_view s) {
  uint64_t fnv = 0xcbf29ce484222325ull;
  for (char c : s) fnv = (fnv ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return hash_combine(h, fnv ^ s.size());
}

static uint64_t hash_double(uint64_t h, double d) {
  if (d == 0.0) d = 0.0;       // -0 and +0 hash alike
  if (std::isnan(d)) d = NAN;  // one NaN
  return hash_combine(h, std::bit_cast<uint64_t>(d));
}

uint64_t hash_tensor(uint64_t h, const Tensor& t) {
  h = hash_combine(h, static_cast<uint64_t>(t.dtype()));
  h = hash_combine(h, static_cast<uint64_t>(t.rank()));
  for (int64_t d : t.shape()) h = hash_combine(h, static_cast<uint64_t>(d));
  if (t.is_int_storage()) {
    for (int64_t v : t.int_values()) h = hash_combine(h, static_cast<uint64_t>(v));
  } else {
    for (double v : t.values()) h = hash_double(h, v);
  }
  return h;
}

namespace interpreter_detail {

uint64_t hash_value(uint64_t h, const RuntimeValue& v) {
  if (v.is_tensor()) return hash_tensor(hash_combine(h, 1), v.tensor());
  if (v.is_int()) return hash_combine(hash_combine(h, 2), static_cast<uint64_t>(v.as_int()));
  if (v.is_double()) return hash_double(hash_combine(h, 3), std::get<double>(v.v));
  if (v.is_bool()) return hash_combine(hash_combine(h, 4), std::get<bool>(v.v) ? 1 : 0);
  if (v.is_list()) {
    h = hash_combine(hash_combine(h, 5), v.list().size());
    for (const RuntimeValue& e : v.list()) h = hash_value(h, e);
    return h;
  }
  return hash_combine(h, 6);
}

}  // namespace interpreter_detail

// ---- runtime values ----------------------------------------------------------------

std::string describe(const RuntimeValue& v) {
  if (v.is_tensor()) return v.tensor().describe();
  if (v.is_int()) return fmt::format("int {}", v.as_int());
  if (v.is_double()) return fmt::format("float {}", std::get<double>(v.v));
  if (v.is_bool()) return std::get<bool>(v.v) ? "True" : "False";
  if (v.is_list()) {
    std::vector<std::string> parts;
    for (const RuntimeValue& e : v.list()) parts.push_back(describe(e));
    return fmt::format("({})", fmt::join(parts, ", "));
  }
  return "None";
}

RuntimeValue deep_copy(const RuntimeValue& v) {
  if (v.is_tensor()) return v.tensor().clone();
  if (v.is_list()) {
    RuntimeValue::List out;
    for (const RuntimeValue& e : v.list()) out.push_back(deep_copy(e));
    return out;
  }
  return v;
}

// ---- uninterpreted values -------------------------------------------------------------

static Dims concrete_shape(const TensorType& t, const SymBindings& bindings) {
  if (!t.shape) throw std::invalid_argument("the tensor's shape is unknown");
  Dims dims;
  for (const SymInt& d : *t.shape) {
    std::optional<int64_t> v = d.evaluate(bindings);
    if (!v) throw std::invalid_argument(fmt::format("dim '{}' has no binding", d.to_string()));
    dims.push_back(*v);
  }
  return dims;
}

RuntimeValue uninterpreted_value(const ValueType& type, uint64_t seed,
                                 const SymBindings& bindings) {
  SplitMix64 rng(seed);
  switch (type.kind) {
    case ValueType::Kind::Tensor: {
      if (type.tensor.dtype == DType::Unknown) throw std::invalid_argument("the dtype is unknown");
      Dims shape = concrete_shape(type.tensor, bindings);
      return random_tensor(type.tensor.dtype, shape, rng);
    }
    case ValueType::Kind::SymInt:
      if (type.sym) {
        if (std::optional<int64_t> v = type.sym->evaluate(bindings)) return *v;
      }
      return rng.integer(1, 8);
    case ValueType::Kind::Int:
      return rng.integer(-8, 8);
    case ValueType::Kind::Float:
    case ValueType::Kind::SymFloat:
      return round_to_fp32(rng.uniform(-2, 2));
    case ValueType::Kind::Bool:
    case ValueType::Kind::SymBool:
      return rng.integer(0, 1) == 1;
    case ValueType::Kind::None:
      return RuntimeValue();
    case ValueType::Kind::Tuple: {
      RuntimeValue::List out;
      for (size_t i = 0; i < type.elements.size(); ++i) {
        // Unknown elements are outputs nobody reads: None stands in for them.
        out.push_back(type.elements[i].is_known()
                          ? uninterpreted_value(type.elements[i], hash_combine(seed, i), bindings)
                          : RuntimeValue());
      }
      return out;
    }
    case ValueType::Kind::Unknown:
      break;
  }
  throw std::invalid_argument("the type is unknown");
}

}  // namespace eqfuse
