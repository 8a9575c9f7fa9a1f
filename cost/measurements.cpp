// Measurement files for calibration (cost/calibrate.hpp): CSV with the
// columns op, inputs, mode, measured_us, or JSON (an array of rows, or an
// object whose "measurements" is one); a bad row is an error naming its
// file:line:column or JSON path.
#include "cost/calibrate.hpp"

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "cost/csv_table.hpp"
#include "graph/exec_mode.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace {

// ---- measurement files ----------------------------------------------

constexpr std::array<std::string_view, 4> kCsvColumns = {"op", "inputs", "mode", "measured_us"};

// "bf16[128, 4096]; bf16[4096]; 1e-06" -> items (';' outside brackets splits).
std::vector<std::string> split_inputs(std::string_view text) {
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char ch : text) {
    if (ch == '[' || ch == '(') ++depth;
    if (ch == ']' || ch == ')') --depth;
    if (ch == ';' && depth == 0) {
      out.emplace_back(trim_blanks(cur));
      cur.clear();
    } else {
      cur += ch;
    }
  }
  if (!trim_blanks(cur).empty() || !out.empty()) out.emplace_back(trim_blanks(cur));
  return out;
}

std::optional<double> parse_number(std::string_view s) {
  std::string t(trim_blanks(s));
  if (t.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

[[noreturn]] void csv_fail(const SourceLoc& where, std::string_view line, int column,
                           std::string message) {
  throw Error(std::move(message), {where.file, where.line, column}, std::string(line));
}

double parse_measured(std::string_view text, const SourceLoc& where, std::string_view line,
                      int column, std::string_view column_name) {
  auto v = parse_number(text);
  if (!v)
    csv_fail(where, line, column,
             fmt::format("column '{}': '{}' is not a number", column_name, text));
  if (*v <= 0)
    csv_fail(where, line, column,
             fmt::format("column '{}': measured time must be positive, got {}", column_name, *v));
  return *v;
}

ExecMode parse_mode_field(std::string_view text, const SourceLoc& where, std::string_view line,
                          int column) {
  try {
    return parse_exec_mode(trim_blanks(text));
  } catch (const Error& e) {
    csv_fail(where, line, column, fmt::format("column 'mode': {}", e.what()));
  }
}

std::vector<Measurement> parse_csv(std::string_view text, std::string_view origin) {
  CsvTable t = read_csv(text, origin);
  if (t.header.empty())
    throw Error("no header line (op,inputs,mode,measured_us)", {std::string(origin)});
  for (std::string_view c : kCsvColumns)
    if (t.column(c) < 0)
      csv_fail({std::string(origin), t.header_line, 0}, t.header_text, 1,
               fmt::format("header lacks column '{}' (need: op, inputs, mode, measured_us)", c));
  std::vector<Measurement> rows;
  for (const CsvRow& row : t.rows) {
    SourceLoc where{std::string(origin), row.line, 0};
    auto field = [&](std::string_view name) -> std::pair<const std::string&, int> {
      auto i = static_cast<size_t>(t.column(name));
      if (i >= row.fields.size())
        csv_fail(where, row.text, static_cast<int>(row.text.size()) + 1,
                 fmt::format("column '{}' (#{}) is missing: the row has {} fields", name, i + 1,
                             row.fields.size()));
      return {row.fields[i], row.columns[i]};
    };
    Measurement m;
    m.where = where;
    auto [op, op_column] = field("op");
    if (op.empty()) csv_fail(where, row.text, op_column, "column 'op': empty op name");
    m.op = op;
    m.inputs = split_inputs(field("inputs").first);
    auto [mode, mode_column] = field("mode");
    m.mode = parse_mode_field(mode, where, row.text, mode_column);
    auto [us, us_column] = field("measured_us");
    m.measured_us = parse_measured(us, where, row.text, us_column, "measured_us");
    if (int k = t.column("kernel_name"); k >= 0 && static_cast<size_t>(k) < row.fields.size())
      m.label = row.fields[static_cast<size_t>(k)];
    rows.push_back(std::move(m));
  }
  return rows;
}

[[noreturn]] void json_fail(std::string_view origin, const std::string& path, std::string msg) {
  throw Error(fmt::format("{}: {}", path, msg), {std::string(origin)});
}

Measurement measurement_from_json(const nlohmann::json& j, std::string_view origin,
                                  const std::string& path) {
  if (!j.is_object()) json_fail(origin, path, "expected an object");
  auto need = [&](const char* key) -> const nlohmann::json& {
    if (!j.contains(key)) json_fail(origin, path, fmt::format("missing key '{}'", key));
    return j.at(key);
  };
  Measurement m;
  m.where = {std::string(origin), 0, 0};
  const auto& op = need("op");
  if (!op.is_string()) json_fail(origin, path + ".op", "expected a string");
  m.op = op.get<std::string>();
  const auto& inputs = need("inputs");
  if (!inputs.is_array()) json_fail(origin, path + ".inputs", "expected an array of strings");
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].is_string())
      json_fail(origin, fmt::format("{}.inputs[{}]", path, i), "expected a string");
    m.inputs.push_back(inputs[i].get<std::string>());
  }
  const auto& mode = need("mode");
  if (!mode.is_string()) json_fail(origin, path + ".mode", "expected a string");
  try {
    m.mode = parse_exec_mode(mode.get<std::string>());
  } catch (const Error& e) {
    json_fail(origin, path + ".mode", e.what());
  }
  const auto& us = need("measured_us");
  if (!us.is_number() || us.get<double>() <= 0)
    json_fail(origin, path + ".measured_us", "expected a positive number");
  m.measured_us = us.get<double>();
  if (j.contains("kernel_name")) {
    if (!j.at("kernel_name").is_string())
      json_fail(origin, path + ".kernel_name", "expected a string");
    m.label = j.at("kernel_name").get<std::string>();
  }
  return m;
}

std::vector<Measurement> parse_json(std::string_view text, std::string_view origin) {
  const nlohmann::json doc = parse_json_text(text, origin);
  // The JSON path of the list, for messages (a string_view: no string
  // assignment, which trips GCC 12's -Wrestrict false positive here).
  std::string_view prefix = doc.is_object() ? "measurements" : "$";
  const nlohmann::json* list = &doc;
  if (doc.is_object()) {
    if (!doc.contains("measurements")) json_fail(origin, "$", "missing key 'measurements'");
    list = &doc.at("measurements");
  }
  if (!list->is_array()) json_fail(origin, std::string(prefix), "expected an array");
  std::vector<Measurement> rows;
  for (size_t i = 0; i < list->size(); ++i)
    rows.push_back(measurement_from_json((*list)[i], origin, fmt::format("{}[{}]", prefix, i)));
  return rows;
}

}  // namespace

std::vector<Measurement> parse_measurements(std::string_view text, std::string_view origin) {
  std::string_view t = trim_blanks(text);
  if (!t.empty() && (t.front() == '{' || t.front() == '[')) return parse_json(text, origin);
  return parse_csv(text, origin);
}

std::vector<Measurement> load_measurements(const std::string& path) {
  return parse_measurements(read_file_or_stdin(path), path);
}

}  // namespace eqfuse
