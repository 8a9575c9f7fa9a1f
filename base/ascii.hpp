// Character classes of the ASCII texts eqfuse reads (FX code, type
// annotations, op schemas, rule conditions): Python-style identifiers and
// decimal digits, independent of the C locale.
#pragma once

namespace eqfuse {

constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
constexpr bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool is_ident_char(char c) {
  return is_ident_start(c) || is_digit(c);
}

}  // namespace eqfuse
