// base/diagnostics.hpp: how an Error renders: location, message, the source
// line with a caret under the column; huge messages and lines are shown in
// part so that a 10 MB input cannot make a 10 MB error.
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"

namespace eqfuse {
namespace {

TEST(Diagnostics, RendersLocationMessageAndCaret) {
  const Error e = error_at_offset("a = 1\nb = @\n", "in.fx", 10, "unexpected '@'");
  EXPECT_EQ(e.render(), "in.fx:2:5: error: unexpected '@'\n  b = @\n      ^");
}

TEST(Diagnostics, HugeMessagesAndLinesAreClipped) {
  const std::string line = std::string(100000, 'x') + "@" + std::string(100000, 'y');
  const Error e = error_at_offset(line, "in.fx", 100000, std::string(50000, 'm'));
  const std::string r = e.render();
  EXPECT_LT(r.size(), 2000u);
  EXPECT_NE(r.find("(49600 more characters)"), std::string::npos);
  // The window keeps the column: the caret sits under the '@'.
  const size_t line_start = r.find("\n  ") + 3;
  const size_t caret_line = r.find('\n', line_start) + 3;
  const size_t caret = r.find('^', caret_line);
  ASSERT_NE(caret, std::string::npos);
  EXPECT_EQ(r[line_start + (caret - caret_line)], '@');
}

// A NUL (or other control character) read from the input and quoted in a
// message is escaped: what() is a C string and would end at the NUL.
TEST(Diagnostics, ControlCharactersInMessagesAreEscaped) {
  const std::string text = std::string("y = f(x)") + '\0' + "z";
  const Error e = error_at_offset(text, "in.fx", 8, std::string("unexpected '") + '\0' + "'");
  EXPECT_STREQ(e.what(), "unexpected '\\x00'");
  const std::string r = e.render();
  EXPECT_NE(r.find("unexpected '\\x00'"), std::string::npos) << r;
  // The source line shows the NUL as '?', and the caret stays under it.
  EXPECT_NE(r.find("\n  y = f(x)?z\n          ^"), std::string::npos) << r;
  EXPECT_EQ(escape_control_chars("a\tb\nc"), "a\tb\nc");
}

}  // namespace
}  // namespace eqfuse
