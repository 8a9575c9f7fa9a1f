// CSV tables as profilers and eqfuse's measurement files write them: one
// reader (RFC 4180 quoting, no embedded newlines) for `eqfuse calibrate`'s
// own format and the msprof importers, keeping each field's line and column
// for error messages.
//
//   CsvTable t = read_csv(text, "m.csv");
//   int op = t.column("op");   // -1 when the header lacks it
//   for (const CsvRow& r : t.rows) use(r.fields[op], r.line, r.columns[op]);
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace eqfuse {

struct CsvRow {
  std::vector<std::string> fields;  // unquoted (`""` is a quote) and trimmed
  std::vector<int> columns;         // 1-based character column of each field
  std::string text;                 // the line, for error carets
  int line = 0;
};

struct CsvTable {
  std::vector<std::string> header;  // empty when the text has no line
  std::vector<CsvRow> rows;
  int header_line = 0;
  std::string header_text;
  // Index of a header column, or -1.
  int column(std::string_view name) const;
};

// Blank lines and lines starting with '#' are skipped, a UTF-8 BOM too. An
// unterminated quote or text after a closing quote is an Error at the
// field's line and column.
CsvTable read_csv(std::string_view text, std::string_view origin);

// `text` without a leading UTF-8 byte-order mark.
std::string_view strip_utf8_bom(std::string_view text);

}  // namespace eqfuse
