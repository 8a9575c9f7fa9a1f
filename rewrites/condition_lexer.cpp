// The lexer of rule conditions: numbers, string literals with their escapes, identifiers
// and operators, with pointed hints for the spellings of other languages (&&, ||, !).
// Declared in condition_lexer.hpp; the parser is in condition_parse.cpp.
#include "rewrites/condition_lexer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

#include "base/ascii.hpp"

namespace eqfuse::condition_detail {

// How a token is named in messages: 'foo', '==', end of condition.
std::string describe_token(const Token& t) {
  switch (t.kind) {
    case TokKind::End:
      return "end of condition";
    case TokKind::String:
      return "string literal";
    default:
      return "'" + t.text + "'";
  }
}

Token Lexer::next() {
  skip_blanks();
  Token t;
  t.begin = t.end = static_cast<uint32_t>(pos_);
  if (pos_ >= text_.size()) return t;
  char c = text_[pos_];
  if (is_digit(c)) return number();
  if (is_ident_start(c)) return identifier();
  if (c == '"' || c == '\'') return string_literal();
  return op();
}

void Lexer::skip_blanks() {
  while (pos_ < text_.size() &&
         (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r' || text_[pos_] == '\n'))
    ++pos_;
}

Token Lexer::make(TokKind kind, size_t begin) {
  Token t;
  t.kind = kind;
  t.begin = static_cast<uint32_t>(begin);
  t.end = static_cast<uint32_t>(pos_);
  if (kind != TokKind::String) t.text = std::string(text_.substr(begin, pos_ - begin));
  return t;
}

Token Lexer::bad(size_t begin, std::string message) {
  Token t = make(TokKind::Bad, begin);
  t.text = std::move(message);
  return t;
}

Token Lexer::number() {
  size_t begin = pos_;
  bool is_float = false;
  while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  if (pos_ < text_.size() && text_[pos_] == '.') {
    is_float = true;
    ++pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
  }
  if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
    size_t exp = pos_ + 1;
    if (exp < text_.size() && (text_[exp] == '+' || text_[exp] == '-')) ++exp;
    if (exp < text_.size() && is_digit(text_[exp])) {
      is_float = true;
      pos_ = exp;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
  }
  if (pos_ < text_.size() && is_ident_char(text_[pos_])) {
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    return bad(begin, fmt::format("invalid number '{}'", text_.substr(begin, pos_ - begin)));
  }
  Token t = make(is_float ? TokKind::Float : TokKind::Int, begin);
  const char* first = text_.data() + begin;
  const char* last = text_.data() + pos_;
  if (is_float) {
    // strtod needs a terminated string; numbers are short.
    t.float_value = std::strtod(std::string(first, last).c_str(), nullptr);
    return t;
  }
  auto [ptr, ec] = std::from_chars(first, last, t.int_value);
  if (ec != std::errc() || ptr != last)
    return bad(begin, fmt::format("integer literal '{}' is too large", t.text));
  return t;
}

Token Lexer::identifier() {
  size_t begin = pos_;
  while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
  return make(TokKind::Ident, begin);
}

Token Lexer::string_literal() {
  size_t begin = pos_;
  char quote = text_[pos_++];
  std::string value;
  while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n') {
    char c = text_[pos_++];
    if (c != '\\') {
      value += c;
      continue;
    }
    if (pos_ >= text_.size()) break;
    char e = text_[pos_++];
    switch (e) {
      case 'n':
        value += '\n';
        break;
      case 't':
        value += '\t';
        break;
      case '\\':
      case '\'':
      case '"':
        value += e;
        break;
      default:
        return bad(pos_ - 2, fmt::format("unknown escape '\\{}' in string", e));
    }
  }
  if (pos_ >= text_.size() || text_[pos_] != quote) return bad(begin, "unterminated string");
  ++pos_;
  Token t = make(TokKind::String, begin);
  t.text = std::move(value);
  return t;
}

Token Lexer::op() {
  size_t begin = pos_;
  std::string_view rest = text_.substr(pos_);
  static constexpr std::array<std::string_view, 5> kTwoChar = {"==", "!=", "<=", ">=", "//"};
  for (std::string_view two : kTwoChar) {
    if (rest.starts_with(two)) {
      pos_ += 2;
      return make(TokKind::Op, begin);
    }
  }
  // Spellings from other languages get a pointed hint.
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kHints = {{
      {"&&", "use 'and'"},
      {"||", "use 'or'"},
      {"**", "powers are not supported"},
      {"=", "use '==' to compare"},
      {"!", "use 'not'"},
      {"&", "use 'and'"},
      {"|", "use 'or'"},
  }};
  for (auto [spelling, hint] : kHints) {
    if (rest.starts_with(spelling)) {
      pos_ += spelling.size();
      return bad(begin, fmt::format("unexpected '{}' ({})", spelling, hint));
    }
  }
  char c = text_[pos_++];
  if (std::string_view("<>+-*/%()[],.:").find(c) != std::string_view::npos)
    return make(TokKind::Op, begin);
  bool printable = c >= 0x20 && c < 0x7f;
  return bad(begin, printable
                        ? fmt::format("unexpected character '{}'", c)
                        : fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c)));
}

bool is_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 8> kKeywords = {"and", "or",   "not",   "in",
                                                                "is",  "True", "False", "None"};
  return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end();
}

}  // namespace eqfuse::condition_detail
