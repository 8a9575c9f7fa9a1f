// Reading JSON text: one entry point for every JSON input (graph JSON,
// configs, device profiles, measurements, extraction-gym files, input types)
// so that each reports malformed text the same way, as an eqfuse::Error at
// origin:line:col with the source line attached:
//
//   nlohmann::json doc = parse_json_text(text, "profile.json");
//
// Besides syntax errors this covers numbers outside the range of a double
// (`1E400`), which nlohmann reports as out_of_range rather than as a parse
// error.
#pragma once
#include <string_view>

#include <nlohmann/json.hpp>

namespace eqfuse {

template <class Json = nlohmann::json>
Json parse_json_text(std::string_view text, std::string_view origin);

extern template nlohmann::json parse_json_text<nlohmann::json>(std::string_view, std::string_view);
extern template nlohmann::ordered_json parse_json_text<nlohmann::ordered_json>(std::string_view,
                                                                               std::string_view);

}  // namespace eqfuse
