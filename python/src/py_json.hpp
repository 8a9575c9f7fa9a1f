// Python objects <-> nlohmann::ordered_json, converted value by value (no
// JSON text in between): dict <-> object (string keys, order kept), list and
// tuple -> array (array -> list), bool, int (int64/uint64), float, str and
// None. Anything else is an eqfuse::Error naming the path of the value
// (`graph.nodes[3].args[1]: unsupported Python value of type 'slice'`).
#pragma once
#include <string>

#include <pybind11/pybind11.h>
#include <nlohmann/json.hpp>

namespace eqfuse::python {

// `path` names the value in errors ("graph", "config").
nlohmann::ordered_json to_json(pybind11::handle value, const std::string& path);
pybind11::object from_json(const nlohmann::ordered_json& value);

}  // namespace eqfuse::python
