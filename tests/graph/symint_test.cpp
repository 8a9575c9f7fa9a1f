#include "graph/symint.hpp"

#include <gtest/gtest.h>

#include "base/dtype.hpp"

namespace eqfuse {
namespace {

TEST(SymInt, SingleSymbolIsOnlyABareSymbol) {
  EXPECT_EQ(SymInt::parse("s0").single_symbol(), "s0");
  EXPECT_EQ(SymInt::parse("2*s0").single_symbol(), std::nullopt);
  EXPECT_EQ(SymInt::parse("s0 + 1").single_symbol(), std::nullopt);
  EXPECT_EQ(SymInt::parse("s0*s1").single_symbol(), std::nullopt);
  EXPECT_EQ(SymInt(4).single_symbol(), std::nullopt);
}

TEST(SymInt, ConstantsFold) {
  SymInt a = 6;
  EXPECT_EQ((a * 7 + 1).constant(), 43);
  EXPECT_EQ(SymInt(-7).floordiv(2).constant(), -4);  // Python floor semantics
  EXPECT_EQ(SymInt(-7).mod(2).constant(), 1);
}

TEST(SymInt, ParsesAndPrintsSympyStyle) {
  EXPECT_EQ(SymInt::parse("s0*4").to_string(), "4*s0");
  EXPECT_EQ(SymInt::parse("s75 + s57").to_string(), "s57 + s75");
  EXPECT_EQ(SymInt::parse("2*s96").to_string(), "2*s96");
  EXPECT_EQ(SymInt::parse("s0 - 1").to_string(), "s0 - 1");
  EXPECT_EQ(SymInt::parse("(s0 + 1) * (s0 - 1)").to_string(), "s0**2 - 1");
  EXPECT_EQ(SymInt::parse("4096").constant(), 4096);
}

TEST(SymInt, CanonicalEquality) {
  EXPECT_EQ(SymInt::parse("s0*4 + s1"), SymInt::parse("s1 + 2*s0 + 2*s0"));
  EXPECT_NE(SymInt::parse("s0"), SymInt::parse("s1"));
  EXPECT_EQ(SymInt::parse("4*s0").floordiv(4), SymInt::symbol("s0"));
}

TEST(SymInt, EvaluatesIncludingOpaqueDivision) {
  std::map<std::string, int64_t, std::less<>> b{{"s0", 7}};
  SymInt e = SymInt::parse("(s0 + 1)//2");
  EXPECT_TRUE(e.is_symbolic());
  EXPECT_EQ(e.evaluate(b), 4);
  EXPECT_EQ(SymInt::parse("3*s0 - 1").evaluate(b), 20);
  EXPECT_EQ(SymInt::parse("s1").evaluate(b), std::nullopt);
}

TEST(SymInt, RejectsGarbage) {
  EXPECT_THROW(SymInt::parse("s0 +"), std::invalid_argument);
  EXPECT_THROW(SymInt::parse("(s0"), std::invalid_argument);
  EXPECT_THROW(SymInt::parse("s0 $ 2"), std::invalid_argument);
}

TEST(DType, Spellings) {
  EXPECT_EQ(parse_dtype("bf16"), DType::BFloat16);
  EXPECT_EQ(parse_dtype("torch.float32"), DType::Float32);
  EXPECT_EQ(parse_dtype("half"), DType::Float16);
  EXPECT_EQ(dtype_from_scalar_type(12), DType::QInt8);
  EXPECT_EQ(dtype_from_scalar_type(15), DType::BFloat16);
  EXPECT_EQ(scalar_type_code(DType::Int8), 1);
  EXPECT_EQ(dtype_itemsize(DType::BFloat16), 2);
  EXPECT_EQ(parse_dtype("nonsense"), std::nullopt);
}

}  // namespace
}  // namespace eqfuse
