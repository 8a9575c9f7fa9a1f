// Errors that point at the user's input. Every recoverable failure in eqfuse
// (malformed FX text, unknown op in a rule, bad JSON, wrong shapes) is thrown
// as an eqfuse::Error carrying where it happened; the CLI prints
// `file:line:col: error: message`, the offending source line and a caret,
// then exits with code 2.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace eqfuse {

// A position in a named input. line/column are 1-based; 0 means "unknown".
struct SourceLoc {
  std::string file;
  int line = 0;
  int column = 0;
  bool known() const { return line > 0; }
};

// `message` with control characters other than newline and tab written as
// \xNN: what() is a C string, and a NUL read from the input (quoted in a
// message) would otherwise end it early.
std::string escape_control_chars(std::string message);

class Error : public std::runtime_error {
 public:
  explicit Error(std::string message, SourceLoc loc = {}, std::string source_line = {})
      : std::runtime_error(escape_control_chars(std::move(message))),
        loc_(std::move(loc)),
        source_line_(std::move(source_line)) {}

  const SourceLoc& loc() const { return loc_; }
  // The full text of the offending line (empty if not applicable).
  const std::string& source_line() const { return source_line_; }
  // `file:line:col: error: msg` + source line + caret, ready for stderr.
  std::string render() const;

 private:
  SourceLoc loc_;
  std::string source_line_;
};

// An Error at byte `offset` of `text` (an input named `origin`): line and
// column are computed and the source line is attached for the caret.
Error error_at_offset(std::string_view text, std::string_view origin, size_t offset,
                      std::string message);

// `s` without leading/trailing spaces, tabs and carriage returns.
std::string_view trim_blanks(std::string_view s);

// Throws an Error with a fmt-formatted message.
template <typename... Args>
[[noreturn]] void fail(const SourceLoc& loc, fmt::format_string<Args...> f, Args&&... args) {
  throw Error(fmt::format(f, std::forward<Args>(args)...), loc);
}

}  // namespace eqfuse
