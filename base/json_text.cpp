#include "base/json_text.hpp"

#include <cctype>
#include <string>

#include <fmt/format.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

// nlohmann's messages start "[json.exception.parse_error.101] parse error at
// line 1, column 5: ..."; the location is ours to print.
std::string strip_nlohmann_prefix(std::string_view what) {
  if (size_t col = what.find("column "); col != what.npos)
    if (size_t colon = what.find(": ", col); colon != what.npos)
      return std::string(what.substr(colon + 2));
  if (size_t bracket = what.find("] "); bracket != what.npos)
    return std::string(what.substr(bracket + 2));
  return std::string(what);
}

bool is_number_char(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
         c == '+' || c == '-';
}

// Where the number `token` (quoted in an out_of_range message) stands in the
// text: its first occurrence as a whole number token, else the start.
size_t offset_of_number(std::string_view text, std::string_view what) {
  size_t open = what.find('\'');
  size_t close = open == what.npos ? what.npos : what.find('\'', open + 1);
  if (close == what.npos) return 0;
  std::string_view token = what.substr(open + 1, close - open - 1);
  for (size_t at = text.find(token); at != text.npos; at = text.find(token, at + 1)) {
    bool starts = at == 0 || !is_number_char(text[at - 1]);
    size_t end = at + token.size();
    bool ends = end == text.size() || !is_number_char(text[end]);
    if (starts && ends) return at;
  }
  return 0;
}

}  // namespace

size_t json_nesting_excess(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot close the string
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return text.npos;
}

template <class Json>
Json parse_json_text(std::string_view text, std::string_view origin) {
  // Checked before parsing: every reader walks the document recursively
  // (arguments, types, profile overrides), so depth must be bounded first.
  if (size_t at = json_nesting_excess(text, kMaxJsonNesting); at != text.npos)
    throw error_at_offset(text, origin, at,
                          fmt::format("invalid JSON: arrays and objects nested deeper than {} "
                                      "levels",
                                      kMaxJsonNesting));
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    const size_t offset = e.byte == 0 ? 0 : e.byte - 1;  // nlohmann's byte is 1-based
    throw error_at_offset(text, origin, offset,
                          fmt::format("invalid JSON: {}", strip_nlohmann_prefix(e.what())));
  } catch (const nlohmann::json::exception& e) {
    // out_of_range 406: a number that no double holds.
    throw error_at_offset(text, origin, offset_of_number(text, e.what()),
                          fmt::format("invalid JSON: {} (numbers must fit in a double)",
                                      strip_nlohmann_prefix(e.what())));
  }
}

template nlohmann::json parse_json_text<nlohmann::json>(std::string_view, std::string_view);
template nlohmann::ordered_json parse_json_text<nlohmann::ordered_json>(std::string_view,
                                                                        std::string_view);

}  // namespace eqfuse
