// Types for graph inputs given on the command line or in a file, for dumps
// that carry no annotations (the `graph():` form, make_fx code):
//
//   --input-types 'arg0_1=bf16[s0, 4096]; arg1_1=Sym(s0)'
//   --input-types types.json        with {"arg0_1": "bf16[s0, 4096]", ...}
//
// Entries are `name=annotation` separated by ';' or newlines (commas belong
// to shapes). Annotations use the print_readable form (value_type.hpp).
// Errors name the offending entry.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "graph/graph.hpp"

namespace eqfuse {

struct InputType {
  std::string name;
  ValueType type;
};
using InputTypes = std::vector<InputType>;

// Parses the `name=annotation; ...` text form. `origin` labels errors
// (e.g. "--input-types"); columns point into `text`.
InputTypes parse_input_types(std::string_view text, std::string_view origin = "--input-types");
// Parses the JSON object form {"name": "annotation", ...}.
InputTypes parse_input_types_json(std::string_view text, std::string_view origin);
// Either form: JSON if the text starts with '{', the text form otherwise.
InputTypes parse_input_types_any(std::string_view text, std::string_view origin);

// Sets the type of each named placeholder (marking it annotated). Throws
// Error if a name is not a placeholder of `g`.
void apply_input_types(Graph& g, const InputTypes& types);

}  // namespace eqfuse
