// Reading JSON text: one entry point for every JSON input (graph JSON,
// configs, device profiles, measurements, extraction-gym files, input types)
// so that each reports malformed text the same way, as an eqfuse::Error at
// origin:line:col with the source line attached:
//
//   nlohmann::json doc = parse_json_text(text, "profile.json");
//
// Besides syntax errors this covers numbers outside the range of a double
// (`1E400`), which nlohmann reports as out_of_range rather than as a parse
// error, and nesting deeper than kMaxJsonNesting, refused before the parse so
// that no recursive walk of a document (ours or nlohmann's dump) can exhaust
// the stack.
#pragma once
#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace eqfuse {

// Arrays and objects nested deeper than this are an error. Every JSON format
// eqfuse reads is a few levels deep; graph JSON arguments nest as deep as
// the FX text reader allows them (256).
inline constexpr size_t kMaxJsonNesting = 300;

// The offset of the first '[' or '{' that opens level max_depth + 1 (strings
// skipped), or npos when the text never nests that deep.
size_t json_nesting_excess(std::string_view text, size_t max_depth);

template <class Json = nlohmann::json>
Json parse_json_text(std::string_view text, std::string_view origin);

extern template nlohmann::json parse_json_text<nlohmann::json>(std::string_view, std::string_view);
extern template nlohmann::ordered_json parse_json_text<nlohmann::ordered_json>(std::string_view,
                                                                               std::string_view);

}  // namespace eqfuse
