#include "py_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace py = pybind11;

namespace eqfuse::python {
namespace {

// Deeper nesting than any graph document has; bounds the recursion.
constexpr int kMaxDepth = 256;

std::string type_name(py::handle value) {
  return py::str(py::type::handle_of(value).attr("__name__")).cast<std::string>();
}

nlohmann::ordered_json convert_int(py::handle value, const std::string& path) {
  // Python ints are unbounded; JSON numbers here are int64 or uint64.
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow == 0) {
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    return static_cast<int64_t>(v);
  }
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
    if (!PyErr_Occurred()) return static_cast<uint64_t>(u);
    PyErr_Clear();
  }
  throw Error(fmt::format("{}: integer {} does not fit in 64 bits", path,
                          py::str(value).cast<std::string>()));
}

nlohmann::ordered_json convert(py::handle value, const std::string& path, int depth) {
  if (depth > kMaxDepth)
    throw Error(fmt::format("{}: nested deeper than {} levels", path, kMaxDepth));
  if (value.is_none()) return nullptr;
  // bool before int: Python's bool is an int subclass.
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>();
  if (py::isinstance<py::int_>(value)) return convert_int(value, path);
  if (py::isinstance<py::float_>(value)) {
    double d = value.cast<double>();
    if (!std::isfinite(d))
      throw Error(
          fmt::format("{}: non-finite float {} (write it as {{\"float\": \"inf\"}})", path, d));
    return d;
  }
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::dict>(value)) {
    nlohmann::ordered_json obj = nlohmann::ordered_json::object();
    for (auto [k, v] : py::reinterpret_borrow<py::dict>(value)) {
      if (!py::isinstance<py::str>(k))
        throw Error(
            fmt::format("{}: dict key of type '{}' (keys must be str)", path, type_name(k)));
      std::string key = k.cast<std::string>();
      obj[key] = convert(v, fmt::format("{}.{}", path, key), depth + 1);
    }
    return obj;
  }
  if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    size_t i = 0;
    for (py::handle item : value)
      arr.push_back(convert(item, fmt::format("{}[{}]", path, i++), depth + 1));
    return arr;
  }
  throw Error(fmt::format("{}: unsupported Python value of type '{}'", path, type_name(value)));
}

}  // namespace

nlohmann::ordered_json to_json(py::handle value, const std::string& path) {
  return convert(value, path, 0);
}

py::object from_json(const nlohmann::ordered_json& value) {
  using T = nlohmann::ordered_json::value_t;
  switch (value.type()) {
    case T::null:
      return py::none();
    case T::boolean:
      return py::bool_(value.get<bool>());
    case T::number_integer:
      return py::int_(value.get<int64_t>());
    case T::number_unsigned:
      return py::int_(value.get<uint64_t>());
    case T::number_float:
      return py::float_(value.get<double>());
    case T::string:
      return py::str(value.get_ref<const std::string&>());
    case T::array: {
      py::list out;
      for (const auto& item : value) out.append(from_json(item));
      return out;
    }
    case T::object: {
      py::dict out;
      for (const auto& [k, v] : value.items()) out[py::str(k)] = from_json(v);
      return out;
    }
    default:
      throw Error("unsupported JSON value (binary or discarded)");
  }
}

}  // namespace eqfuse::python
