#include "base/diagnostics.hpp"

#include <algorithm>
#include <string_view>

namespace eqfuse {

namespace {

// A message or source line longer than this is shown in part: a 10 MB list
// literal must not become a 10 MB error message.
constexpr size_t kMaxShown = 400;

std::string clip_message(std::string_view m) {
  if (m.size() <= kMaxShown) return std::string(m);
  return fmt::format("{} ... ({} more characters)", m.substr(0, kMaxShown), m.size() - kMaxShown);
}

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (u < 0x20 && c != '\n' && c != '\t') || u == 0x7f;
}

// The source line as shown under a message: control characters become '?'
// (one column each, so the caret still lines up).
std::string printable_line(std::string_view line) {
  std::string out(line);
  for (char& c : out)
    if (is_control(c)) c = '?';
  return out;
}

}  // namespace

std::string escape_control_chars(std::string message) {
  if (std::none_of(message.begin(), message.end(), is_control)) return message;
  std::string out;
  out.reserve(message.size() + 8);
  for (char c : message) {
    if (is_control(c))
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

std::string Error::render() const {
  std::string out;
  if (!loc_.file.empty()) out += loc_.file + ":";
  if (loc_.known()) out += fmt::format("{}:{}:", loc_.line, std::max(loc_.column, 1));
  if (!out.empty()) out += " ";
  out += "error: ";
  out += clip_message(what());
  if (!source_line_.empty() && loc_.known()) {
    // A window of the line around the column, marked where it is cut.
    const size_t column = static_cast<size_t>(std::max(loc_.column, 1)) - 1;
    const size_t from = column > kMaxShown / 2 ? column - kMaxShown / 2 : 0;
    const size_t to = std::min(source_line_.size(), from + kMaxShown);
    const std::string_view shown = std::string_view(source_line_).substr(from, to - from);
    const std::string before = from > 0 ? "..." : "";
    out +=
        "\n  " + before + printable_line(shown) + (to < source_line_.size() ? "..." : "") + "\n  ";
    out += std::string(before.size(), ' ');
    // Tabs keep their width so the caret lines up under the column.
    for (size_t i = from; i < column && i < source_line_.size(); ++i)
      out += source_line_[i] == '\t' ? '\t' : ' ';
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
