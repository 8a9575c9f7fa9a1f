// Patterns (egraph/pattern.hpp): parsing, printing, building, and errors that
// point at the token.
#include <gtest/gtest.h>

#include "egraph/pattern.hpp"

namespace eqfuse {
namespace {

TEST(Patterns, ParseAndPrint) {
  Pattern p = Pattern::parse("(+ ?a (* ?b 0))");
  EXPECT_EQ(p.to_string(), "(+ ?a (* ?b 0))");
  EXPECT_EQ(p.vars(), (std::vector<std::string>{"a", "b"}));
  Pattern q = Pattern::parse("(f 1.5 true [1,2] torch.float16 \"s\" None x)");
  EXPECT_EQ(q.to_string(), "(f 1.5 true [1,2] torch.float16 \"s\" None x)");
  PatternBuilder b;
  auto a = b.var("a");
  auto bb = b.var("b");
  Pattern built = b.build(b.op("+", {a, b.op("*", {bb, b.constant(Constant::integer(0))})}));
  EXPECT_EQ(built.to_string(), p.to_string());
}

TEST(Patterns, ErrorsPointAtTheToken) {
  try {
    Pattern::parse("(+ ?a (* ?b 0)", {"rules.txt", 4, 10});
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "rules.txt");
    EXPECT_EQ(e.loc().line, 4);
    EXPECT_EQ(e.loc().column, 10);  // the unclosed outer '('
  }
  EXPECT_THROW(Pattern::parse("(?f x)"), Error);
  EXPECT_THROW(Pattern::parse("(+ x) y"), Error);
  EXPECT_THROW(Pattern::parse("torch.nosuch"), Error);
  EXPECT_THROW(Pattern::parse("[1, x]"), Error);
}

}  // namespace
}  // namespace eqfuse
