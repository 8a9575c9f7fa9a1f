// The FX reader's lexer and what it stands on: the source text with its
// line table and the errors it raises (file:line:column plus the source
// line), a string_view lexer (one token of lookahead, no allocations) that
// joins lines inside brackets like Python and remembers comments, and the
// decoding of Python string literals. Apart from the parser
// (fx_parser.cpp and siblings) because it knows nothing of FX, only of
// Python's tokens.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "graph/io/fx_parser_internal.hpp"

namespace eqfuse::fx_detail {

// ---------------------------------------------------------------------------
// Source text and error reporting.

void Source::fail(size_t offset, std::string message) const {
  offset = std::min(offset, text_.size());
  const auto [line, line_start] = line_of(offset);
  size_t line_end = text_.find('\n', line_start);
  if (line_end == std::string_view::npos) line_end = text_.size();
  std::string_view src_line = text_.substr(line_start, line_end - line_start);
  if (!src_line.empty() && src_line.back() == '\r') src_line.remove_suffix(1);
  const int column = static_cast<int>(offset - line_start) + 1;
  // Very long lines (signatures with hundreds of inputs) are cut around
  // the column so the caret line stays readable.
  constexpr size_t kMaxShown = 200;
  int shown_column = column;
  if (src_line.size() > kMaxShown) {
    size_t from = offset - line_start > kMaxShown / 2 ? offset - line_start - kMaxShown / 2 : 0;
    src_line = src_line.substr(from, kMaxShown);
    shown_column = column - static_cast<int>(from);
    throw Error(std::move(message) + fmt::format(" (column {})", column),
                SourceLoc{std::string(file_), line, shown_column}, std::string(src_line));
  }
  throw Error(std::move(message), SourceLoc{std::string(file_), line, column},
              std::string(src_line));
}

SourceLoc Source::loc(size_t offset) const {
  offset = std::min(offset, text_.size());
  const auto [line, line_start] = line_of(offset);
  return SourceLoc{std::string(file_), line, static_cast<int>(offset - line_start) + 1};
}

std::pair<int, size_t> Source::line_of(size_t offset) const {
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const auto index = static_cast<size_t>(it - line_starts_.begin()) - 1;
  return {static_cast<int>(index) + 1, line_starts_[index]};
}

// ---------------------------------------------------------------------------
// Lexer.

std::string_view Lexer::raw_annotation(size_t& offset, bool& quoted) {
  skip_inline_spaces();
  offset = pos_;
  if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'')) {
    quoted = true;
    Token t = lex_string();
    return t.text.substr(1, t.text.size() - 2);
  }
  quoted = false;
  int depth = 0;
  size_t i = pos_;
  for (; i < s_.size(); ++i) {
    const char c = s_[i];
    if (c == '\n') break;
    if (c == '[' || c == '(') ++depth;
    if ((c == ']' || c == ')') && --depth < 0) break;
    if (depth == 0 && (c == '=' || c == ',' || c == ';')) break;
  }
  std::string_view text = trim_blanks(s_.substr(pos_, i - pos_));
  pos_ = i;
  return text;
}

std::string_view Lexer::raw_brackets() {
  skip_inline_spaces();
  if (pos_ >= s_.size() || s_[pos_] != '[') src_.fail(pos_, "expected '['");
  const size_t open = pos_;
  int depth = 0;
  for (size_t i = pos_; i < s_.size() && s_[i] != '\n'; ++i) {
    if (s_[i] == '[') ++depth;
    if (s_[i] == ']' && --depth == 0) {
      pos_ = i + 1;
      return s_.substr(open + 1, i - open - 1);
    }
  }
  src_.fail(open, "unterminated '[': no matching ']' on this line");
}

void Lexer::start_line() {
  while (pos_ < s_.size()) {
    if (pos_ == 0 || s_[pos_ - 1] == '\n') line_start_ = pos_;
    size_t i = pos_;
    bool tab = false;
    while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\t' || s_[i] == '\r')) {
      tab |= s_[i] == '\t';
      ++i;
    }
    if (i < s_.size() && s_[i] == '#') {
      size_t end = s_.find('\n', i);
      if (end == std::string_view::npos) end = s_.size();
      std::string_view text = trim_blanks(s_.substr(i + 1, end - i - 1));
      // "# eqfuse: ..." lines are eqfuse's own notes on the next node
      // (NodeMeta::note), not its source position.
      (text.starts_with("eqfuse:") ? pending_note_ : pending_comment_) = text;
      pos_ = end;
      if (pos_ < s_.size()) ++pos_;
      continue;
    }
    if (i < s_.size() && s_[i] == '\n') {
      pos_ = i + 1;
      continue;
    }
    if (tab && i < s_.size() && depth_ == 0)
      src_.fail(line_start_ + (s_.substr(line_start_, i - line_start_).find('\t')),
                "tab character in indentation (FX code is indented with spaces)");
    pos_ = i;
    break;
  }
  at_line_start_ = false;
}

Token Lexer::lex() {
  if (at_line_start_) start_line();
  for (;;) {
    skip_inline_spaces();
    if (pos_ >= s_.size()) return Token{Tok::End, {}, s_.size(), 1};
    const char c = s_[pos_];
    if (c == '#') {  // trailing comment
      while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      continue;
    }
    if (c == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') {  // explicit joining
      pos_ += 2;
      line_start_ = pos_;
      continue;
    }
    if (c == '\n') {
      const size_t at = pos_;
      ++pos_;
      if (depth_ > 0) {
        line_start_ = pos_;
        continue;
      }
      at_line_start_ = true;
      return Token{Tok::Newline, s_.substr(at, 1), at, static_cast<int>(at - line_start_) + 1};
    }
    break;
  }
  const size_t start = pos_;
  const char c = s_[pos_];
  if (is_ident_start(c)) {
    size_t i = pos_ + 1;
    while (i < s_.size() && is_ident_char(s_[i])) ++i;
    return make(Tok::Name, start, i);
  }
  if (is_digit(c)) return lex_number();
  if (c == '"' || c == '\'') return lex_string();
  if (c == '%' && pos_ + 1 < s_.size() && is_ident_start(s_[pos_ + 1])) {
    size_t i = pos_ + 2;
    while (i < s_.size() && is_ident_char(s_[i])) ++i;
    Token t = make(Tok::Percent, start, i);
    t.text.remove_prefix(1);
    return t;
  }
  static constexpr std::string_view kTwoChar[] = {"**", "//", "==", "!=", "<=", ">=", "<<",
                                                  ">>", "->", "+=", "-=", "*=", "/=", "%="};
  for (std::string_view op : kTwoChar)
    if (s_.substr(pos_, 2) == op) return make(Tok::Punct, start, pos_ + 2);
  static constexpr std::string_view kOneChar = "()[]{},:;=.+-*/%@&|^~<>";
  if (kOneChar.find(c) != std::string_view::npos) {
    if (c == '(' || c == '[' || c == '{') ++depth_;
    if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
    return make(Tok::Punct, start, pos_ + 1);
  }
  // Anything else (one UTF-8 sequence) is reported by the parser in context.
  size_t len = 1;
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0xF0)
    len = 4;
  else if (u >= 0xE0)
    len = 3;
  else if (u >= 0xC0)
    len = 2;
  return make(Tok::Other, start, std::min(s_.size(), pos_ + len));
}

Token Lexer::lex_number() {
  const size_t start = pos_;
  size_t i = pos_;
  bool is_float = false;
  while (i < s_.size() && is_digit(s_[i])) ++i;
  if (i < s_.size() && s_[i] == '.' && i + 1 < s_.size() && is_digit(s_[i + 1])) {
    is_float = true;
    ++i;
    while (i < s_.size() && is_digit(s_[i])) ++i;
  } else if (i < s_.size() && s_[i] == '.' && (i + 1 >= s_.size() || !is_ident_start(s_[i + 1]))) {
    is_float = true;  // `1.`
    ++i;
  }
  if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
    size_t j = i + 1;
    if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
    if (j < s_.size() && is_digit(s_[j])) {
      is_float = true;
      i = j;
      while (i < s_.size() && is_digit(s_[i])) ++i;
    }
  }
  if (i < s_.size() && (is_ident_char(s_[i]) || s_[i] == '.')) {
    size_t end = i;
    while (end < s_.size() && (is_ident_char(s_[end]) || s_[end] == '.')) ++end;
    src_.fail(start, fmt::format("bad number '{}'", s_.substr(start, end - start)));
  }
  return make(is_float ? Tok::Float : Tok::Int, start, i);
}

Token Lexer::lex_string() {
  const size_t start = pos_;
  const char quote = s_[pos_];
  size_t i = pos_ + 1;
  while (i < s_.size() && s_[i] != quote) {
    if (s_[i] == '\n') break;
    if (s_[i] == '\\' && i + 1 < s_.size() && s_[i + 1] != '\n') ++i;
    ++i;
  }
  if (i >= s_.size() || s_[i] != quote) src_.fail(start, "unterminated string");
  return make(Tok::String, start, i + 1);
}

std::string unquote(std::string_view quoted) {
  std::string out;
  std::string_view s = quoted.substr(1, quoted.size() - 2);
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case 'x': {
        unsigned v = 0;
        const char* end = s.data() + std::min(s.size(), i + 3);
        auto r = std::from_chars(s.data() + i + 1, end, v, 16);
        if (r.ec == std::errc() && i + 3 <= s.size() && r.ptr == end) {
          out += static_cast<char>(v);
          i += 2;
        } else {
          out += 'x';
        }
        break;
      }
      default:
        out += e;
        break;  // \\ \' \"
    }
  }
  return out;
}

}  // namespace eqfuse::fx_detail
