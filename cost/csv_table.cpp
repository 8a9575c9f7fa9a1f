// The CSV reader (cost/csv_table.hpp).
#include "cost/csv_table.hpp"

#include <algorithm>

#include "base/diagnostics.hpp"

namespace eqfuse {

std::string_view strip_utf8_bom(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  return text;
}

int CsvTable::column(std::string_view name) const {
  auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

CsvTable read_csv(std::string_view text, std::string_view origin) {
  text = strip_utf8_bom(text);
  CsvTable t;
  int line_no = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    ++line_no;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (trim_blanks(line).empty() || trim_blanks(line).front() == '#') continue;
    CsvRow row{.text = std::string(line), .line = line_no};
    size_t i = 0;
    while (true) {
      row.columns.push_back(static_cast<int>(i) + 1);
      std::string field;
      if (i < line.size() && line[i] == '"') {
        for (++i;; ++i) {
          if (i >= line.size())
            throw Error("unterminated quoted field",
                        {std::string(origin), line_no, row.columns.back()}, row.text);
          if (line[i] == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            ++i;
          } else if (line[i] == '"') {
            ++i;
            break;
          } else {
            field += line[i];
          }
        }
        size_t comma = line.find(',', i);
        if (!trim_blanks(line.substr(i, comma - i)).empty())
          throw Error("text after a closing quote",
                      {std::string(origin), line_no, static_cast<int>(i) + 1}, row.text);
        i = comma == std::string_view::npos ? line.size() : comma;
      } else {
        size_t comma = std::min(line.find(',', i), line.size());
        field = std::string(line.substr(i, comma - i));
        i = comma;
      }
      row.fields.emplace_back(trim_blanks(field));
      if (i >= line.size()) break;
      ++i;  // the comma
    }
    if (t.header.empty()) {
      t.header = std::move(row.fields);
      t.header_line = line_no;
      t.header_text = std::move(row.text);
    } else {
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

}  // namespace eqfuse
