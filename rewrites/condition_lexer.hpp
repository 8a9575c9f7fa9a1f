// The lexer of rule conditions (condition_lexer.cpp): it turns a condition's text into
// tokens (numbers, strings, identifiers, operators) for the parser in
// condition_parse.cpp. Separate from the parser because it knows characters, not grammar:
// a lexical error becomes a Bad token carrying its message, which the parser reports when
// it reaches it. Internal to rewrites/.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace eqfuse::condition_detail {

enum class TokKind : uint8_t { End, Int, Float, String, Ident, Op, Bad };

struct Token {
  TokKind kind = TokKind::End;
  uint32_t begin = 0;
  uint32_t end = 0;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;  // identifier / operator spelling, string contents, or Bad's message
};

// How a token is named in messages: 'foo', '==', end of condition.
std::string describe_token(const Token& t);

// Python's keywords among the identifiers: and, or, not, in, is, True, False, None.
bool is_keyword(std::string_view s);

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  // The next token: End at the end of the text, Bad (with its message) on an error.
  Token next();

 private:
  void skip_blanks();
  Token make(TokKind kind, size_t begin);
  Token bad(size_t begin, std::string message);
  Token number();
  Token identifier();
  Token string_literal();
  Token op();

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace eqfuse::condition_detail
