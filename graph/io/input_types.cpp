#include "graph/io/input_types.hpp"
#include "base/json_text.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

namespace eqfuse {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// [begin, end) of `text` without surrounding blanks.
std::pair<size_t, size_t> trim(std::string_view text, size_t begin, size_t end) {
  while (begin < end && is_space(text[begin])) ++begin;
  while (end > begin && is_space(text[end - 1])) --end;
  return {begin, end};
}

// Locates `offset` of `text` as line/column and returns an Error there.
Error error_at(std::string_view text, std::string_view origin, size_t offset, std::string msg) {
  return error_at_offset(text, origin, offset, std::move(msg));
}

ValueType parse_entry_type(std::string_view annotation, std::string_view name) {
  // Quotes are optional: 'x="f32[2]"' reads like an FX annotation.
  if (annotation.size() >= 2 && (annotation.front() == '"' || annotation.front() == '\'') &&
      annotation.back() == annotation.front())
    annotation = annotation.substr(1, annotation.size() - 2);
  try {
    return parse_annotation(annotation);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(
        fmt::format("bad type '{}' for input '{}': {}", annotation, name, e.what()));
  }
}

void check_unique(const InputTypes& types, std::string_view name, const auto& on_duplicate) {
  for (const InputType& t : types)
    if (t.name == name) on_duplicate();
}

}  // namespace

InputTypes parse_input_types(std::string_view text, std::string_view origin) {
  InputTypes out;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find_first_of(";\n", pos);
    if (end == text.npos) end = text.size();
    auto [b, e] = trim(text, pos, end);
    if (b < e && text[b] != '#') {
      std::string_view entry = text.substr(b, e - b);
      size_t eq = entry.find('=');
      if (eq == entry.npos)
        throw error_at(text, origin, b,
                       fmt::format("expected 'name=type' in input-type entry '{}'", entry));
      auto [nb, ne] = trim(text, b, b + eq);
      auto [tb, te] = trim(text, b + eq + 1, e);
      std::string_view name = text.substr(nb, ne - nb);
      if (!is_identifier(name))
        throw error_at(text, origin, nb,
                       fmt::format("bad input name '{}' in input-type entry '{}'", name, entry));
      check_unique(out, name, [&] {
        throw error_at(text, origin, nb, fmt::format("input '{}' is typed twice", name));
      });
      if (tb == te)
        throw error_at(text, origin, tb, fmt::format("missing type for input '{}'", name));
      try {
        out.push_back({std::string(name), parse_entry_type(text.substr(tb, te - tb), name)});
      } catch (const std::invalid_argument& ex) {
        throw error_at(text, origin, tb, ex.what());
      }
    }
    pos = end + 1;
  }
  return out;
}

InputTypes parse_input_types_json(std::string_view text, std::string_view origin) {
  const nlohmann::ordered_json doc = parse_json_text<nlohmann::ordered_json>(text, origin);
  if (!doc.is_object())
    throw Error("input types: expected a JSON object {\"name\": \"type\", ...}",
                SourceLoc{std::string(origin), 0, 0});
  InputTypes out;
  for (const auto& [name, value] : doc.items()) {
    auto fail_entry = [&](const std::string& msg) {
      throw Error(fmt::format("input types: entry \"{}\": {}", name, msg),
                  SourceLoc{std::string(origin), 0, 0});
    };
    if (!is_identifier(name)) fail_entry("not a valid input name");
    if (!value.is_string()) fail_entry("the type must be a string such as \"bf16[s0, 4096]\"");
    try {
      out.push_back({name, parse_entry_type(value.get<std::string>(), name)});
    } catch (const std::invalid_argument& ex) {
      fail_entry(ex.what());
    }
  }
  return out;
}

InputTypes parse_input_types_any(std::string_view text, std::string_view origin) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first != text.npos && text[first] == '{') return parse_input_types_json(text, origin);
  return parse_input_types(text, origin);
}

void apply_input_types(Graph& g, const InputTypes& types) {
  for (const InputType& t : types) {
    auto ref = g.find(t.name);
    if (!ref || g.node(*ref).kind != NodeKind::Placeholder) {
      std::string inputs;
      for (NodeRef p : g.placeholders()) inputs += (inputs.empty() ? "" : ", ") + g.node(p).name;
      throw Error(
          fmt::format("--input-types names '{}', which is not an input of the graph "
                      "(inputs: {})",
                      t.name, inputs.empty() ? "none" : inputs));
    }
    Node& n = g.node(*ref);
    n.type = t.type;
    n.type_annotated = true;
  }
}

}  // namespace eqfuse
