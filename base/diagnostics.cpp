#include "base/diagnostics.hpp"

#include <algorithm>

namespace eqfuse {

std::string Error::render() const {
  std::string out;
  if (!loc_.file.empty()) out += loc_.file + ":";
  if (loc_.known()) out += fmt::format("{}:{}:", loc_.line, std::max(loc_.column, 1));
  if (!out.empty()) out += " ";
  out += "error: ";
  out += what();
  if (!source_line_.empty() && loc_.known()) {
    out += "\n  " + source_line_ + "\n  ";
    // Tabs keep their width so the caret lines up under the column.
    for (int i = 1; i < loc_.column && i - 1 < static_cast<int>(source_line_.size()); ++i)
      out += source_line_[i - 1] == '\t' ? '\t' : ' ';
    out += "^";
  }
  return out;
}

Error error_at_offset(std::string_view text, std::string_view origin, size_t offset,
                      std::string message) {
  offset = std::min(offset, text.size());
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  size_t line_end = text.find('\n', line_start);
  std::string source(
      text.substr(line_start, line_end == text.npos ? text.npos : line_end - line_start));
  if (!source.empty() && source.back() == '\r') source.pop_back();
  int column = static_cast<int>(offset - line_start) + 1;
  return Error(std::move(message), SourceLoc{std::string(origin), line, column}, std::move(source));
}

std::string_view trim_blanks(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace eqfuse
