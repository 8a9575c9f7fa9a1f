// base/json_text.hpp: malformed JSON and numbers no double holds are
// eqfuse::Errors at origin:line:col.
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "base/json_text.hpp"

namespace eqfuse {
namespace {

SourceLoc error_loc(std::string_view text) {
  try {
    parse_json_text(text, "in.json");
  } catch (const Error& e) {
    return e.loc();
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

TEST(JsonText, ParsesValidText) {
  const nlohmann::json doc = parse_json_text(R"({"a": [1, 2.5]})", "in.json");
  EXPECT_EQ(doc["a"][1].get<double>(), 2.5);
  const nlohmann::ordered_json ordered =
      parse_json_text<nlohmann::ordered_json>(R"({"z": 1, "a": 2})", "in.json");
  EXPECT_EQ(ordered.begin().key(), "z");
}

TEST(JsonText, SyntaxErrorsPointAtTheCharacter) {
  const SourceLoc loc = error_loc("{\n  \"a\": ]\n}");
  EXPECT_EQ(loc.file, "in.json");
  EXPECT_EQ(loc.line, 2);
  EXPECT_EQ(loc.column, 8);
}

TEST(JsonText, NumbersOutsideDoubleRangePointAtTheNumber) {
  const SourceLoc loc = error_loc("{\"b\": 1,\n \"a\": -1E400}");
  EXPECT_EQ(loc.line, 2);
  EXPECT_EQ(loc.column, 7);
  try {
    parse_json_text("[1e999]", "in.json");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("number overflow"), std::string::npos) << e.what();
  }
}

TEST(JsonText, NestingDeeperThanTheLimitIsRefusedAtTheBracket) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const SourceLoc loc = error_loc(deep);
  EXPECT_EQ(loc.line, 1);
  EXPECT_EQ(loc.column, static_cast<int>(kMaxJsonNesting) + 1);
  try {
    parse_json_text("{\"a\": " + deep + "}", "in.json");
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
  }
}

TEST(JsonText, NestingUpToTheLimitParses) {
  const size_t n = kMaxJsonNesting;
  const nlohmann::json doc = parse_json_text(std::string(n, '[') + std::string(n, ']'), "in.json");
  EXPECT_TRUE(doc.is_array());
}

TEST(JsonText, BracketsInsideStringsDoNotCount) {
  const std::string brackets(1000, '[');
  EXPECT_EQ(json_nesting_excess("[\"" + brackets + "\"]", 2), std::string_view::npos);
  // An escaped quote does not end the string.
  EXPECT_EQ(json_nesting_excess(R"(["\"[[[", 1])", 1), std::string_view::npos);
  EXPECT_EQ(json_nesting_excess("[[1]]", 1), 1u);
}

}  // namespace
}  // namespace eqfuse
