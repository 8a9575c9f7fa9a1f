// Type annotations as print_readable writes them: parse, print, describe.
#include <gtest/gtest.h>

#include "graph/value_type.hpp"

namespace eqfuse {
namespace {

TEST(ValueTypeAnnotation, RoundTripsEveryTorchSpelling) {
  for (const char* text :
       {"f32[2, 3]", "bf16[s0, 7168]", "f32[s57 + s75, 2*s96]", "f32[]", "f32[2, 3][3, 1]npu:0",
        "f32[s17][1]cpu", "f32[][]cpu", "Sym(s0)", "Sym(2*s96)", "i64[4]", "b8[1]", "u8[2]",
        "f16[8, 8]", "i8[2, 3, 4]", "i32[1]", "f64[3]", "f16[2][1]cuda:0", "f32[4]meta"}) {
    const ValueType t = parse_annotation(text);
    EXPECT_EQ(to_annotation(t), text);
    EXPECT_EQ(parse_annotation(to_annotation(t)), t) << text;
  }
}

TEST(ValueTypeAnnotation, ParsesParts) {
  const ValueType t = parse_annotation("f32[2, 3][3, 1]npu:0");
  ASSERT_TRUE(t.is_tensor());
  EXPECT_EQ(t.tensor.dtype, DType::Float32);
  EXPECT_EQ(t.tensor.rank(), 2);
  EXPECT_EQ(*t.tensor.shape, (Shape{2, 3}));
  EXPECT_EQ(*t.tensor.strides, (Shape{3, 1}));
  ASSERT_TRUE(t.tensor.device.has_value());
  EXPECT_EQ(t.tensor.device->type, "npu");
  EXPECT_EQ(t.tensor.device->index, 0);

  const ValueType sym = parse_annotation("bf16[s0, 7168]");
  EXPECT_EQ(sym.tensor.dtype, DType::BFloat16);
  EXPECT_EQ((*sym.tensor.shape)[0], SymInt::symbol("s0"));
  EXPECT_FALSE(sym.tensor.strides.has_value());
  EXPECT_FALSE(sym.tensor.device.has_value());

  const ValueType sum = parse_annotation("f32[s57 + s75, 2*s96]");
  EXPECT_EQ((*sum.tensor.shape)[0], SymInt::symbol("s57") + SymInt::symbol("s75"));
  EXPECT_EQ((*sum.tensor.shape)[1], SymInt(2) * SymInt::symbol("s96"));

  const ValueType scalar = parse_annotation("f32[]");
  EXPECT_EQ(scalar.tensor.rank(), 0);
  const ValueType empty_strides = parse_annotation("f32[][]cpu");
  EXPECT_EQ(empty_strides.tensor.strides->size(), 0u);
  EXPECT_EQ(empty_strides.tensor.device->type, "cpu");
  EXPECT_EQ(empty_strides.tensor.device->index, -1);

  const ValueType s = parse_annotation("Sym(2*s96)");
  EXPECT_EQ(s.kind, ValueType::Kind::SymInt);
  EXPECT_EQ(*s.sym, SymInt(2) * SymInt::symbol("s96"));
}

TEST(ValueTypeAnnotation, AllDtypeCodes) {
  const std::pair<const char*, DType> codes[] = {
      {"i64", DType::Int64},   {"b8", DType::Bool},       {"u8", DType::UInt8},
      {"f16", DType::Float16}, {"bf16", DType::BFloat16}, {"i8", DType::Int8},
      {"i32", DType::Int32},   {"f64", DType::Float64},   {"f32", DType::Float32}};
  for (const auto& [code, dtype] : codes)
    EXPECT_EQ(parse_annotation(std::string(code) + "[1]").tensor.dtype, dtype) << code;
}

TEST(ValueTypeAnnotation, RejectsMalformedText) {
  for (const char* bad : {"", "f32", "q99[2]", "float32[2]", "f32[2", "f32[2,, 3]", "f32[2, 3][1]",
                          "f32[2]npu:x", "f32[2]np u", "Sym()", "Sym(s0", "f32[s0 +]", "f32[2](",
                          "f32[2]npu:", "f32[99999999999999999999]", "f32[9223372036854775808]"}) {
    EXPECT_THROW(parse_annotation(bad), std::invalid_argument) << bad;
  }
}

TEST(ValueTypeAnnotation, DeepParenthesesAreRejectedNotRecursedInto) {
  const std::string deep =
      "Sym(" + std::string(100000, '(') + "s0" + std::string(100000, ')') + ")";
  try {
    parse_annotation(deep);
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 64 parentheses"), std::string::npos);
    EXPECT_LT(std::string(e.what()).size(), 300u);  // the text is clipped
  }
  EXPECT_EQ(parse_annotation("Sym(((s0)))"), parse_annotation("Sym(s0)"));
  EXPECT_EQ(parse_annotation("f32[9223372036854775807]").tensor.shape->at(0),
            SymInt(int64_t{9223372036854775807}));
}

TEST(ValueTypeAnnotation, UnannotatableTypesPrintEmpty) {
  EXPECT_EQ(to_annotation(ValueType::unknown()), "");
  EXPECT_EQ(to_annotation(ValueType::none()), "");
  EXPECT_EQ(to_annotation(ValueType::of_symint(std::nullopt)), "");
  EXPECT_EQ(to_annotation(ValueType::of_tuple({parse_annotation("f32[2]")})), "");
  TensorType no_shape;
  no_shape.dtype = DType::Float32;
  EXPECT_EQ(to_annotation(ValueType::of_tensor(no_shape)), "");
}

TEST(ValueType, NumelIsSymbolicProduct) {
  EXPECT_EQ(*parse_annotation("f32[2, 3, 4]").tensor.numel(), SymInt(24));
  EXPECT_EQ(*parse_annotation("f32[]").tensor.numel(), SymInt(1));
  EXPECT_EQ(*parse_annotation("f32[s0, 4]").tensor.numel(), SymInt(4) * SymInt::symbol("s0"));
  EXPECT_FALSE(TensorType{}.numel().has_value());
}

TEST(ValueType, DescribeAndDevice) {
  EXPECT_EQ(describe(ValueType::unknown()), "unknown");
  EXPECT_EQ(describe(ValueType::none()), "None");
  EXPECT_EQ(describe(ValueType::of_tuple({parse_annotation("f32[2]"), parse_annotation("i8[2]")})),
            "tuple(f32[2], i8[2])");
  EXPECT_EQ(describe(parse_annotation("Sym(s0)")), "Sym(s0)");
  EXPECT_EQ(describe(ValueType::of_symint(std::nullopt)), "Sym(?)");
  EXPECT_EQ((Device{"npu", 0}).to_string(), "npu:0");
  EXPECT_EQ((Device{"cpu", -1}).to_string(), "cpu");
  EXPECT_EQ(ValueType::of_tensor(DType::Int8, {2, 3}), parse_annotation("i8[2, 3]"));
}

// Fuzz findings: sizes whose element or byte count leaves int64 are errors.
TEST(ValueType, NumelAndBytesThatLeaveInt64Throw) {
  EXPECT_EQ(*parse_annotation("f16[4611686018427387903]").tensor.numel(),
            SymInt(4611686018427387903));
  EXPECT_THROW((void)parse_annotation("f16[4611686018427387904]").tensor.bytes(), IntOverflow);
  EXPECT_THROW((void)parse_annotation("f16[4294967296, 4294967296]").tensor.numel(), IntOverflow);
  EXPECT_EQ(*parse_annotation("i8[4611686018427387904]").tensor.bytes(),
            SymInt(4611686018427387904));
  EXPECT_EQ(*parse_annotation("f32[s0, 4096]").tensor.bytes(),
            SymInt::symbol("s0") * SymInt(16384));
  // A coefficient that leaves int64 fails whatever s0 is.
  EXPECT_THROW((void)parse_annotation("f32[2305843009213693952*s0]").tensor.bytes(), IntOverflow);
}

TEST(ValueTypeAnnotation, DimensionArithmeticThatLeavesInt64IsRejected) {
  // Was: printed back as `f16[s0 + 2]`.
  try {
    parse_annotation("f16[s0 - 9223372036854775807 - 9223372036854775807]");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("arithmetic leaves the int64 range"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_annotation("f16[4611686018427387904*s0*4]"), std::invalid_argument);
  EXPECT_EQ(to_annotation(parse_annotation("f16[s0 - 9223372036854775807 + 9223372036854775807]")),
            "f16[s0]");
}

}  // namespace
}  // namespace eqfuse
