// Given input values for a graph, read from a file (`eqfuse check --inputs
// FILE`), so a mismatch can be reproduced on the user's own data instead of
// on random inputs.
//
//   RandomInputs in = read_input_values(graph, "inputs.safetensors");
//   Interpreter(reg).run(graph, in.values, in.bindings);
//
// Two formats, chosen by the file's extension:
//   .safetensors  the safetensors layout (an 8-byte little-endian header
//                 length, a JSON header naming each tensor's dtype, shape and
//                 byte range, then the raw little-endian data); tensors are
//                 matched to placeholders by name. Dtypes F64 F32 F16 BF16
//                 I64 I32 I16 I8 U8 BOOL.
//   anything else JSON: an object keyed by placeholder name, or an array in
//                 placeholder order. A tensor is {"dtype": "f32", "shape":
//                 [2, 3], "data": [...]} with `data` flat or nested (then
//                 `shape` may be left out) and `dtype` optional; "nan", "inf"
//                 and "-inf" stand for those floats. A SymInt or scalar input
//                 is a plain number.
// Every placeholder needs a value of its declared dtype; concrete dims must
// match, symbolic dims bind their symbols (consistently across inputs).
// Errors (eqfuse::Error) name the file and the input at fault.
#pragma once
#include <string>
#include <string_view>

#include "graph/graph.hpp"
#include "interp/random_inputs.hpp"

namespace eqfuse {

// Reads `path` and checks it against `graph`'s placeholders.
RandomInputs read_input_values(const Graph& graph, const std::string& path);

// The same from bytes already read; `origin` names them in errors.
RandomInputs parse_input_values(const Graph& graph, std::string_view bytes, std::string_view origin,
                                bool safetensors);

}  // namespace eqfuse
