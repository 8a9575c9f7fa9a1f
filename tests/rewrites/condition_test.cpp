// The `where` condition language (rewrites/condition.hpp): parsing of every
// construct, three-valued evaluation against given facts, failure details,
// type and parse errors with exact line:column, the nesting guard, named C++
// predicates, division by zero and integer overflow. Every expected value is
// worked out by hand (Python semantics) in the comment or the literal next to it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "rewrites/condition.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

// ---- helpers -----------------------------------------------------------------

SymInt sym(const char* name) {
  return SymInt::symbol(name);
}

CondValue tensor(DType dtype, Shape shape) {
  TensorType t;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return CondValue{t};
}

CondValue tensor_without_shape(DType dtype) {
  TensorType t;
  t.dtype = dtype;
  return CondValue{t};
}

CondValue int_value(int64_t v) {
  return CondValue{v};
}

CondValue unknown_value(std::string why) {
  return CondValue{CondValue::Unknown{std::move(why)}};
}

// The facts of one match: name -> value. Names not in the map are unbound.
using Facts = std::map<std::string, CondValue, std::less<>>;

CondEnv env_of(const Facts& facts) {
  return [&facts](std::string_view name) -> std::optional<CondValue> {
    auto it = facts.find(name);
    if (it == facts.end()) return std::nullopt;
    return it->second;
  };
}

CondResult eval(std::string_view text, const Facts& facts = {}, const CondFunctions& fns = {},
                const SourceLoc& loc = {}) {
  return evaluate(parse_condition(text, loc), env_of(facts), fns);
}

Verdict verdict(std::string_view text, const Facts& facts = {}, const CondFunctions& fns = {}) {
  return eval(text, facts, fns).verdict;
}

// The Error parse_condition throws for `text` (fails the test if none).
Error parse_error(std::string_view text, const SourceLoc& loc = {}) {
  try {
    parse_condition(text, loc);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "expected a parse error for: " << text;
  return Error("none");
}

// The Error check_condition throws for `text` with the given known names.
Error check_error(std::string_view text, std::vector<std::string> known,
                  const CondFunctions& fns = {}, const SourceLoc& loc = {}) {
  CondExpr e = parse_condition(text, loc);
  try {
    check_condition(e, known, fns);
  } catch (const Error& err) {
    return err;
  }
  ADD_FAILURE() << "expected a check error for: " << text;
  return Error("none");
}

// x: bf16[2, 3, 4], the tensor most tests read facts from.
Facts bf16_234() {
  return {{"x", tensor(DType::BFloat16, {2, 3, 4})}};
}

// calls_only: what the rule compiler turns into e-matcher guards.
TEST(ConditionParse, CallsOnlyReadsConjunctionsOfOneBuiltinOnBareNames) {
  using Calls = std::vector<std::vector<std::string>>;
  EXPECT_EQ(parse_condition("is_leaf(w1) and is_leaf(w2)", {}).calls_only("is_leaf"),
            (Calls{{"w1"}, {"w2"}}));
  EXPECT_EQ(parse_condition("ordered(a, b, c)", {}).calls_only("ordered"),
            (Calls{{"a", "b", "c"}}));
  EXPECT_FALSE(parse_condition("is_leaf(w1) or is_leaf(w2)", {}).calls_only("is_leaf"));
  EXPECT_FALSE(parse_condition("is_leaf(w1) and x.rank == 2", {}).calls_only("is_leaf"));
  EXPECT_FALSE(parse_condition("ordered(a, b)", {}).calls_only("is_leaf"));
  EXPECT_FALSE(parse_condition("distinct(a.shape, b)", {}).calls_only("distinct"));
}

// ---- literals and dtypes ------------------------------------------------------

TEST(ConditionParse, LiteralsEvaluateToThemselves) {
  EXPECT_EQ(verdict("True"), Verdict::True);
  EXPECT_EQ(verdict("False"), Verdict::False);
  EXPECT_EQ(verdict("None is None"), Verdict::True);
  EXPECT_EQ(verdict("1 == 1"), Verdict::True);
  EXPECT_EQ(verdict("-1 < 0"), Verdict::True);
  EXPECT_EQ(verdict("2.5e-6 < 1e-5"), Verdict::True);
  EXPECT_EQ(verdict("1e5 == 100000"), Verdict::True);  // exponent makes a float; 1e5 == 100000.0
  EXPECT_EQ(verdict("\"pertoken\" == 'pertoken'"), Verdict::True);
  EXPECT_EQ(verdict("'it\\'s' == \"it's\""), Verdict::True);
  EXPECT_EQ(verdict("[1, [2, 3]] == [1, [2, 3]]"), Verdict::True);
  EXPECT_EQ(verdict("[] == []"), Verdict::True);
}

TEST(ConditionParse, TorchAndBareDtypeSpellingsAreTheSameDtype) {
  EXPECT_EQ(verdict("torch.float16 == float16"), Verdict::True);
  EXPECT_EQ(verdict("torch.bfloat16 == bf16"), Verdict::True);
  EXPECT_EQ(verdict("torch.int8 == i8 and i8 == int8"), Verdict::True);
  EXPECT_EQ(verdict("torch.float16 == fp16 and torch.float32 == fp32"), Verdict::True);
  EXPECT_EQ(verdict("torch.float16 != torch.bfloat16"), Verdict::True);
}

TEST(ConditionParse, PythonBuiltinLikeDtypeAliasesStayNames) {
  // `int`, `float`, `half` would shadow rule inputs; they are names, not dtypes.
  EXPECT_EQ(parse_condition("x.dtype == int or x.dtype == half").names(),
            (std::vector<std::string>{"half", "int", "x"}));
}

TEST(ConditionParse, DtypeMembershipWithBareNames) {
  Facts f{{"x", tensor(DType::BFloat16, {4})}, {"y", tensor(DType::Float32, {4})}};
  EXPECT_EQ(verdict("x.dtype in [bf16, fp16]", f), Verdict::True);
  CondResult r = eval("y.dtype in [bf16, fp16]", f);
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail,
            "y.dtype in [bf16, fp16]: torch.float32 not in [torch.bfloat16, torch.float16] "
            "(y.dtype = torch.float32)");
  EXPECT_EQ(verdict("y.dtype not in [torch.float16, torch.bfloat16]", f), Verdict::True);
}

TEST(ConditionEval, DtypeComparesWithScalarTypeCodes) {
  // torch_npu ops take dtypes as ScalarType codes: int8 is 1, qint8 is 12, bf16 is 15.
  Facts f{{"dtype", int_value(12)}};
  EXPECT_EQ(verdict("dtype in [1, 12, torch.int8, torch.qint8]", f), Verdict::True);
  EXPECT_EQ(verdict("torch.int8 == 1 and 15 == torch.bfloat16"), Verdict::True);
  EXPECT_EQ(verdict("torch.int8 == 2"), Verdict::False);
}

TEST(ConditionParse, UnknownTorchDtypeIsAParseError) {
  Error e = parse_error("x.dtype == torch.float99");
  EXPECT_STREQ(e.what(), "unknown dtype 'torch.float99'");
  EXPECT_EQ(e.loc().column, 12);  // at `torch`
}

// ---- tensor facts ---------------------------------------------------------------

TEST(ConditionEval, RankSpellings) {
  Facts f = bf16_234();
  EXPECT_EQ(verdict("x.rank == 3 and x.ndim == 3 and x.dim() == 3 and len(x.shape) == 3", f),
            Verdict::True);
  CondResult r = eval("x.rank == 2", f);
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail, "x.rank == 2: 3 != 2 (x.rank = 3)");
}

TEST(ConditionEval, ShapeIndexingNegativeIndicesAndSlices) {
  Facts f = bf16_234();
  EXPECT_EQ(verdict("x.shape == [2, 3, 4]", f), Verdict::True);
  EXPECT_EQ(verdict("x.shape[0] == 2 and x.shape[-1] == 4 and x.shape[-3] == 2", f), Verdict::True);
  EXPECT_EQ(verdict("x.shape[1:] == [3, 4] and x.shape[:-1] == [2, 3]", f), Verdict::True);
  EXPECT_EQ(verdict("x.shape[:] == x.shape and x.shape[5:] == [] and x.shape[-9:1] == [2]", f),
            Verdict::True);
  EXPECT_EQ(verdict("x.size() == [2, 3, 4] and x.size(-1) == 4 and x.size(1) == 3", f),
            Verdict::True);
}

TEST(ConditionEval, NumelAndProd) {
  Facts f = bf16_234();
  EXPECT_EQ(verdict("x.numel == 24 and x.numel() == 24 and prod(x.shape) == 24", f), Verdict::True);
  EXPECT_EQ(verdict("prod([]) == 1"), Verdict::True);
}

TEST(ConditionEval, ElementSizeSpellings) {
  Facts f{{"h", tensor(DType::Float16, {8})},
          {"f", tensor(DType::Float32, {8})},
          {"q", tensor(DType::Int8, {8})}};
  EXPECT_EQ(verdict("h.itemsize == 2 and f.itemsize == 4 and q.itemsize == 1", f), Verdict::True);
  EXPECT_EQ(verdict("f.element_size() == 4 and f.dtype.itemsize == 4", f), Verdict::True);
  EXPECT_EQ(verdict("torch.bfloat16.itemsize == 2 and torch.int64.itemsize == 8"), Verdict::True);
  EXPECT_EQ(verdict("h.is_floating_point and not q.is_floating_point", f), Verdict::True);
}

TEST(ConditionEval, AlignmentHoldsAndFailsWithValues) {
  const char* cond = "x2.shape[-1] * x2.itemsize % 32 == 0";
  // 16 * 2 = 32, 32 % 32 = 0.
  EXPECT_EQ(verdict(cond, {{"x2", tensor(DType::BFloat16, {sym("s0"), 16})}}), Verdict::True);
  // 3 * 2 = 6, 6 % 32 = 6: (a * b) % 32, not a * (b % 32) = 3 * 2.
  CondResult r = eval(cond, {{"x2", tensor(DType::BFloat16, {sym("s0"), 3})}});
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail,
            "x2.shape[-1] * x2.itemsize % 32 == 0: 6 != 0 (x2.shape[-1] = 3, x2.itemsize = 2)");
  // 24 * 4 = 96 = 3 * 32.
  EXPECT_EQ(verdict(cond, {{"x2", tensor(DType::Float32, {24})}}), Verdict::True);
}

TEST(ConditionEval, AlignmentOfASymbolicDimIsUnknown) {
  const char* cond = "x2.shape[-1] * x2.itemsize % 32 == 0";
  CondResult r = eval(cond, {{"x2", tensor(DType::BFloat16, {sym("s0"), sym("s1")})}});
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "x2.shape[-1] * x2.itemsize % 32 == 0: x2.shape[-1] is symbolic (s1)");
  // 16*s1 * 2 = 32*s1, divisible by 32 for every s1: decided although symbolic.
  EXPECT_EQ(verdict(cond, {{"x2", tensor(DType::BFloat16, {SymInt(16) * sym("s1")})}}),
            Verdict::True);
}

TEST(ConditionEval, StaticVersusSymbolicDims) {
  Facts f{{"x", tensor(DType::BFloat16, {sym("s0"), 7168})},
          {"y", tensor_without_shape(DType::BFloat16)}};
  EXPECT_EQ(verdict("is_static(x.shape[-1])", f), Verdict::True);
  EXPECT_EQ(verdict("not is_static(x.shape[0])", f), Verdict::True);
  EXPECT_EQ(verdict("is_static(x.shape[1:]) and not is_static(x.shape)", f), Verdict::True);
  EXPECT_EQ(verdict("not is_static(x)", f), Verdict::True);  // a tensor: all of its dims
  CondResult r = eval("is_static(y)", f);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "is_static(y): the shape is unknown");  // not repeated
}

TEST(ConditionEval, SymbolicShapeEquality) {
  Facts f{{"a", tensor(DType::BFloat16, {sym("s0"), 64})},
          {"b", tensor(DType::BFloat16, {sym("s0"), 64})},
          {"c", tensor(DType::BFloat16, {sym("s1"), 64})},
          {"d", tensor(DType::BFloat16, {sym("s0"), 32})},
          {"e", tensor(DType::BFloat16, {sym("s0")})}};
  EXPECT_EQ(verdict("a.shape == b.shape", f), Verdict::True);     // same symbols: for all values
  EXPECT_EQ(verdict("a.shape == c.shape", f), Verdict::Unknown);  // s0 == s1 depends on values
  EXPECT_EQ(verdict("a.shape == d.shape", f), Verdict::False);    // 64 != 32 whatever s0 is
  EXPECT_EQ(verdict("a.shape == e.shape", f), Verdict::False);    // different ranks
  EXPECT_EQ(verdict("a.shape[0] + 1 > a.shape[0]", f), Verdict::True);  // difference is constant
  EXPECT_EQ(verdict("a.shape[0] > 1", f), Verdict::Unknown);
}

TEST(ConditionEval, SymbolicDivisibility) {
  Facts f{{"x", tensor(DType::Float16, {SymInt(128) * sym("s0"), sym("s1")})}};
  EXPECT_EQ(verdict("x.shape[0] % 128 == 0", f), Verdict::True);  // 128*s0 % 128 = 0
  EXPECT_EQ(verdict("x.shape[0] // 128 == x.shape[0] // 128", f), Verdict::True);
  EXPECT_EQ(verdict("x.shape[1] % 16 == 0", f), Verdict::Unknown);
}

// ---- literal lists and dim canonicalization ---------------------------------------

TEST(ConditionEval, LiteralListOfListsMembership) {
  auto dims = [](int64_t a, int64_t b) {
    return Facts{{"dims", CondValue{CondList{int_value(a), int_value(b)}}}};
  };
  EXPECT_EQ(verdict("dims in [[0,1],[1,0]]", dims(0, 1)), Verdict::True);
  EXPECT_EQ(verdict("dims in [[0,1],[1,0]]", dims(1, 0)), Verdict::True);
  EXPECT_EQ(verdict("dims in [[0,1],[1,0]]", dims(0, 0)), Verdict::False);
  // Without canonicalization -3/-2 do not match literally ...
  EXPECT_EQ(verdict("dims in [[0,1],[1,0]]", dims(-3, -2)), Verdict::False);
  // ... with it they are dims 0 and 1 of a rank-3 tensor.
  EXPECT_EQ(verdict("canon_dims(dims, 3) in [[0,1],[1,0]]", dims(-3, -2)), Verdict::True);
}

TEST(ConditionEval, CanonDimsAsTheTransposeRuleUsesIt) {
  // layout.rules: where: x.rank == 3 and canon_dims([d0, d1], 3) in [[0, 1], [1, 0]]
  const char* cond = "x.rank == 3 and canon_dims([d0, d1], 3) in [[0, 1], [1, 0]]";
  auto facts = [](int64_t d0, int64_t d1) {
    Facts f = bf16_234();
    f.emplace("d0", int_value(d0));
    f.emplace("d1", int_value(d1));
    return f;
  };
  EXPECT_EQ(verdict(cond, facts(0, 1)), Verdict::True);
  EXPECT_EQ(verdict(cond, facts(1, 0)), Verdict::True);
  EXPECT_EQ(verdict(cond, facts(-3, -2)), Verdict::True);   // [0, 1]
  EXPECT_EQ(verdict(cond, facts(-2, 0)), Verdict::True);    // [1, 0]
  EXPECT_EQ(verdict(cond, facts(0, 0)), Verdict::False);    // gap: torchair-passes.md §3.4
  EXPECT_EQ(verdict(cond, facts(-1, -2)), Verdict::False);  // [2, 1]
  EXPECT_EQ(verdict(cond, facts(0, 2)), Verdict::False);
  CondResult r = eval(cond, facts(3, 0));
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "canon_dims([d0, d1], 3): dim 3 out of range for rank 3");
}

TEST(ConditionEval, CanonDimWrapsLikeTorch) {
  EXPECT_EQ(verdict("canon_dim(-1, 4) == 3 and canon_dim(2, 4) == 2 and canon_dim(-4, 4) == 0"),
            Verdict::True);
  EXPECT_EQ(verdict("canon_dim(-1, 0) == 0 and canon_dim(0, 0) == 0"), Verdict::True);  // 0-d
  EXPECT_EQ(eval("canon_dim(-5, 4) == 0").detail,
            "canon_dim(-5, 4): dim -5 out of range for rank 4");
  EXPECT_EQ(eval("canon_dim(0, -1) == 0").detail, "canon_dim(0, -1): negative rank -1");
}

TEST(ConditionEval, ListBuiltins) {
  EXPECT_EQ(verdict("sorted([3, 1, 2]) == [1, 2, 3]"), Verdict::True);
  EXPECT_EQ(verdict("min([4, 2, 9]) == 2 and max(4, 2, 9) == 9"), Verdict::True);
  EXPECT_EQ(verdict("all([True, 1 == 1]) and any([False, True]) and not any([])"), Verdict::True);
  EXPECT_EQ(verdict("abs(-3) == 3 and abs(-2.5) == 2.5"), Verdict::True);
  EXPECT_EQ(verdict("len('abc') == 3 and 'bc' in 'abcd' and 'abc'[-1] == 'c'"), Verdict::True);
  EXPECT_EQ(verdict("[1, 2] + [3] == [1, 2, 3]"), Verdict::True);
  Facts f{{"x", tensor(DType::Float16, {sym("s0"), 4})}};
  EXPECT_EQ(verdict("max(x.shape) == 4", f), Verdict::Unknown);  // s0 vs 4 undecidable
  EXPECT_EQ(eval("min([]) == 0").detail, "min([]): min() of an empty list");
}

// int(): Python's conversion, so a comparison can pick a list element.
TEST(ConditionEval, IntConvertsBoolsAndTruncatesFloats) {
  EXPECT_EQ(verdict("int(True) == 1 and int(False) == 0 and int(7) == 7"), Verdict::True);
  EXPECT_EQ(verdict("int(-2.7) == -2 and int(2.7) == 2"), Verdict::True);
  EXPECT_EQ(verdict("['gelu_erf', 'gelu_tanh'][int('tanh' == 'tanh')] == 'gelu_tanh'"),
            Verdict::True);
  EXPECT_EQ(eval("int('3') == 3").detail, "int('3'): int() expects a bool or a number, got str");
  EXPECT_EQ(verdict("int(1e300) == 0"), Verdict::Error);
}

// ---- stream (and device) equality ---------------------------------------------------------

TEST(ConditionEval, StreamLabelsCompareAsStrings) {
  // Rules are compiled once per stream, so a match never crosses streams; a
  // condition can still compare stream labels handed in as string facts.
  Facts f{{"sx", CondValue{std::string("stream2")}},
          {"sy", CondValue{std::string("stream2")}},
          {"sz", CondValue{std::string("")}}};
  EXPECT_EQ(verdict("sx == sy", f), Verdict::True);
  CondResult r = eval("sx == sz", f);
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail, "sx == sz: 'stream2' != '' (sx = 'stream2', sz = '')");
}

TEST(ConditionEval, DeviceEqualityAndUnknownDevice) {
  TensorType a;
  a.dtype = DType::Float16;
  a.shape = Shape{4};
  a.device = Device{"npu", 0};
  TensorType b = a;
  b.device = Device{"npu", 1};
  TensorType c = a;
  c.device.reset();
  Facts f{{"a", CondValue{a}}, {"b", CondValue{b}}, {"c", CondValue{c}}};
  EXPECT_EQ(verdict("a.device == 'npu:0' and a.device == a.device", f), Verdict::True);
  EXPECT_EQ(verdict("a.device == b.device", f), Verdict::False);
  EXPECT_EQ(eval("a.device == c.device", f).detail, "a.device == c.device: c.device is unknown");
}

// ---- logic -----------------------------------------------------------------------------

TEST(ConditionEval, KleeneAndOrNotWithAnUnknownOperand) {
  Facts f{{"u", unknown_value("type of u unknown")}};
  EXPECT_EQ(verdict("u and False", f), Verdict::False);
  EXPECT_EQ(verdict("False and u", f), Verdict::False);
  EXPECT_EQ(verdict("u and True", f), Verdict::Unknown);
  EXPECT_EQ(verdict("u or True", f), Verdict::True);
  EXPECT_EQ(verdict("u or False", f), Verdict::Unknown);
  EXPECT_EQ(verdict("not u", f), Verdict::Unknown);
  EXPECT_EQ(eval("u and True", f).detail, "u: type of u unknown");
}

TEST(ConditionEval, AndOrShortCircuitSkipsIllTypedOperands) {
  Facts f = bf16_234();
  EXPECT_EQ(verdict("False and x.dtype + 1 == 2", f), Verdict::False);
  EXPECT_EQ(verdict("True or x.dtype + 1 == 2", f), Verdict::True);
  EXPECT_EQ(verdict("x.rank == 3 and x.dtype + 1 == 2", f), Verdict::Error);
}

TEST(ConditionEval, ErrorAfterAnUnknownGuardIsUnknown) {
  // `u` might have been False, so the ill-typed right operand is not an error.
  Facts f{{"u", unknown_value("u is unknown")}, {"x", tensor(DType::Float16, {4})}};
  CondResult r = eval("u and x.shape[7] == 1", f);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "u: u is unknown");
}

TEST(ConditionParse, LogicPrecedenceNotOverAndOverOr) {
  EXPECT_EQ(verdict("True or False and False"), Verdict::True);  // True or (False and False)
  EXPECT_EQ(verdict("False and True or True"), Verdict::True);   // (False and True) or True
  EXPECT_EQ(verdict("not True or True"), Verdict::True);         // (not True) or True
  EXPECT_EQ(verdict("not (True or True)"), Verdict::False);
  EXPECT_EQ(verdict("not 1 == 2"), Verdict::True);  // not (1 == 2)
  EXPECT_EQ(verdict("not not True"), Verdict::True);
}

TEST(ConditionEval, FalseDetailsNameTheFailingPart) {
  Facts f = bf16_234();
  EXPECT_EQ(eval("not x.rank == 3", f).detail, "not x.rank == 3: x.rank == 3 holds (x.rank = 3)");
  EXPECT_EQ(eval("x.rank == 2 or x.rank == 4", f).detail,
            "x.rank == 2: 3 != 2 (x.rank = 3); x.rank == 4: 3 != 4 (x.rank = 3)");
  EXPECT_EQ(eval("x.is_floating_point and False", f).detail, "False is False");
}

// ---- comparisons ---------------------------------------------------------------------------

TEST(ConditionEval, ComparisonOperators) {
  EXPECT_EQ(verdict("1 < 2 and 2 <= 2 and 3 > 2 and 3 >= 3 and 1 != 2 and 2 == 2"), Verdict::True);
  EXPECT_EQ(verdict("1 == 1.0 and 1 < 1.5"), Verdict::True);  // int vs float compares numerically
  EXPECT_EQ(verdict("'a' < 'b' and 'b' >= 'b'"), Verdict::True);
  EXPECT_EQ(verdict("None is None and 1 is not None and True is True"), Verdict::True);
  EXPECT_EQ(verdict("None == None and None != 1"), Verdict::True);
}

TEST(ConditionEval, ChainedComparisonsAsInPython) {
  Facts f = bf16_234();
  EXPECT_EQ(verdict("1 <= x.rank <= 8", f), Verdict::True);
  EXPECT_EQ(verdict("1 < 2 > 1"), Verdict::True);  // 1 < 2 and 2 > 1, not (1 < 2) > 1
  CondResult r = eval("1 <= x.rank <= 2", f);
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail, "1 <= x.rank <= 2: 3 > 2 (x.rank = 3)");
  // The torchair.rules bound: 1 <= K*M < 65536 with K = 4, M = 3.
  EXPECT_EQ(verdict("1 <= x.shape[2] * x.shape[1] < 65536", f), Verdict::True);
}

TEST(ConditionEval, IsNoneAsTheOptionalInputIdiom) {
  // torchair.rules: where: smooth is None or (smooth.dtype == x1.dtype and ...)
  const char* cond = "smooth is None or (smooth.dtype == x1.dtype and smooth.shape == [64])";
  Facts none{{"smooth", CondValue{std::monostate{}}}, {"x1", tensor(DType::Float16, {2, 64})}};
  Facts good{{"smooth", tensor(DType::Float16, {64})}, {"x1", tensor(DType::Float16, {2, 64})}};
  Facts bad{{"smooth", tensor(DType::Float32, {64})}, {"x1", tensor(DType::Float16, {2, 64})}};
  EXPECT_EQ(verdict(cond, none), Verdict::True);
  EXPECT_EQ(verdict(cond, good), Verdict::True);
  CondResult r = eval(cond, bad);
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail,
            "smooth is None: f32[64] is not None (smooth = f32[64]); smooth.dtype == x1.dtype: "
            "torch.float32 != torch.float16 (smooth.dtype = torch.float32, x1.dtype = "
            "torch.float16)");
}

// ---- arithmetic --------------------------------------------------------------------------

TEST(ConditionEval, ArithmeticPrecedenceAndAssociativity) {
  EXPECT_EQ(verdict("2 + 3 * 4 == 14"), Verdict::True);
  EXPECT_EQ(verdict("(2 + 3) * 4 == 20"), Verdict::True);
  EXPECT_EQ(verdict("10 - 4 - 3 == 3"), Verdict::True);  // (10 - 4) - 3
  EXPECT_EQ(verdict("2 * 3 % 4 == 2"), Verdict::True);   // (2 * 3) % 4
  EXPECT_EQ(verdict("2 * (3 % 4) == 6"), Verdict::True);
  EXPECT_EQ(verdict("100 // 10 // 5 == 2"), Verdict::True);  // (100 // 10) // 5
  EXPECT_EQ(verdict("-2 * 3 == -6 and - -3 == 3 and +3 == 3"), Verdict::True);
  EXPECT_EQ(verdict("1 + 2 == 3 == 3"), Verdict::True);  // arithmetic binds tighter than ==
}

TEST(ConditionEval, FloorDivisionAndModuloFollowPython) {
  EXPECT_EQ(verdict("7 // 2 == 3 and 7 % 2 == 1"), Verdict::True);
  EXPECT_EQ(verdict("-7 // 2 == -4 and -7 % 2 == 1"), Verdict::True);
  EXPECT_EQ(verdict("7 // -2 == -4 and 7 % -2 == -1"), Verdict::True);
  EXPECT_EQ(verdict("-7 // -2 == 3 and -7 % -2 == -1"), Verdict::True);
  EXPECT_EQ(verdict("7.0 // 2 == 3.0 and -7.5 % 2 == 0.5 and 7.5 % -2 == -0.5"), Verdict::True);
  EXPECT_EQ(verdict("2.5 * 2 == 5 and 1 - 0.25 == 0.75"), Verdict::True);
}

TEST(ConditionEval, TrueDivisionGivesAFloatAsInPython) {
  EXPECT_EQ(verdict("7 / 2 == 3.5 and 1 / 8 == 0.125 and 1.0 / -4 == -0.25"), Verdict::True);
  EXPECT_EQ(eval("1 / 0 == 0").detail, "1 / 0: division by zero");
  Facts s{{"x", tensor(DType::Float16, {sym("s0")})}};
  EXPECT_EQ(verdict("x.shape[0] / 2 == 1", s), Verdict::Unknown);  // a symbolic quotient
  // The value of an expression, as a rule's `let:` computes it.
  Facts eight{{"d", CondValue{8.0}}}, zero{{"d", CondValue{0.0}}};
  CondValueResult r = evaluate_value(parse_condition("1.0 / d"), env_of(eight));
  ASSERT_TRUE(r.value);
  EXPECT_EQ(*r.value, CondValue{0.125});
  CondValueResult bad = evaluate_value(parse_condition("1 / d"), env_of(zero));
  EXPECT_FALSE(bad.value);
  EXPECT_EQ(bad.error, "1 / d: division by zero");
  Facts unsure{{"d", unknown_value("the divisor is not a literal")}};
  CondValueResult unknown = evaluate_value(parse_condition("1.0 / d"), env_of(unsure));
  EXPECT_FALSE(unknown.value);
  EXPECT_NE(unknown.error.find("is not known"), std::string::npos) << unknown.error;
}

TEST(ConditionEval, PowersOfTwo) {
  EXPECT_EQ(verdict("is_power_of_two(8) and is_power_of_two(0.125) and is_power_of_two(1)"),
            Verdict::True);
  EXPECT_EQ(verdict("is_power_of_two(6) or is_power_of_two(-4) or is_power_of_two(0)"),
            Verdict::False);
  EXPECT_EQ(verdict("is_power_of_two(11.313708498984761) or is_power_of_two('8')"), Verdict::False);
  EXPECT_EQ(verdict("is_power_of_two(abs(-4.0))"), Verdict::True);
}

TEST(ConditionEval, DivisionAndModuloByZeroAreErrors) {
  Facts f = bf16_234();
  CondResult r = eval("x.shape[-1] % 0 == 0", f, {}, {"r.rules", 3, 12});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "x.shape[-1] % 0: modulo by zero");
  EXPECT_EQ(r.error_loc.line, 3);
  EXPECT_EQ(r.error_loc.column, 12);
  EXPECT_EQ(eval("4 // (2 - 2) == 0").detail, "4 // (2 - 2): division by zero");
  EXPECT_EQ(eval("1.5 // 0 == 0").detail, "1.5 // 0: division by zero");
  EXPECT_EQ(eval("1.5 % 0.0 == 0").detail, "1.5 % 0.0: modulo by zero");
  Facts s{{"x", tensor(DType::Float16, {sym("s0")})}};
  EXPECT_EQ(eval("x.shape[0] % 0 == 0", s).detail, "x.shape[0] % 0: modulo by zero");
  EXPECT_EQ(eval("x.shape[0] // 0 == 0", s).detail, "x.shape[0] // 0: division by zero");
}

TEST(ConditionEval, IntegerOverflowIsAnErrorNotAWrap) {
  EXPECT_EQ(eval("9223372036854775807 + 1 > 0").detail,
            "9223372036854775807 + 1: integer overflow");
  EXPECT_EQ(eval("-9223372036854775807 - 2 < 0").detail,
            "-9223372036854775807 - 2: integer overflow");
  EXPECT_EQ(eval("4294967296 * 4294967296 > 0").detail,
            "4294967296 * 4294967296: integer overflow");
  // INT64_MIN // -1 overflows, INT64_MIN % -1 is 0, -INT64_MIN and abs(INT64_MIN) overflow.
  EXPECT_EQ(verdict("(-9223372036854775807 - 1) // -1 == 0"), Verdict::Error);
  EXPECT_EQ(verdict("(-9223372036854775807 - 1) % -1 == 0"), Verdict::True);
  EXPECT_EQ(verdict("-(-9223372036854775807 - 1) > 0"), Verdict::Error);
  EXPECT_EQ(verdict("abs(-9223372036854775807 - 1) > 0"), Verdict::Error);
  Facts big{{"x", tensor(DType::Float16, {int64_t{1} << 32, int64_t{1} << 32})}};
  EXPECT_EQ(eval("x.numel > 0", big).detail, "x.numel: integer overflow");
}

TEST(ConditionEval, ModuloNearTheInt64MinimumIsExact) {
  // -(2^63 - 1) = -3 * 3074457345618258602 - 1, so the Python remainder is 2
  // and the floor quotient -3074457345618258603 (whose product with 3 does
  // not fit in int64: the remainder must not be computed as a - q*b).
  EXPECT_EQ(verdict("-9223372036854775807 % 3 == 2"), Verdict::True);
  EXPECT_EQ(verdict("-9223372036854775807 // 3 == -3074457345618258603"), Verdict::True);
  EXPECT_EQ(verdict("(-9223372036854775807 - 1) % 7 == 6"), Verdict::True);  // 2^63 = 7*k + 1
}

TEST(ConditionEval, SymbolicOverflowIsAnError) {
  Facts f{{"x", tensor(DType::Float16, {sym("s0")})}};
  // Coefficients are bounded by 2^62 before SymInt arithmetic (which has no
  // overflow checks): 2^32 * s0 is fine, 2^32 * 2^32 * s0 is not.
  EXPECT_EQ(verdict("x.shape[0] * 4294967296 != 0", f), Verdict::Unknown);
  CondResult r = eval("x.shape[0] * 4294967296 * 4294967296 != 0", f);
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail,
            "x.shape[0] * 4294967296 * 4294967296: integer overflow in symbolic arithmetic");
}

TEST(ConditionParse, IntegerLiteralTooLargeForInt64) {
  Error e = parse_error("x == 9223372036854775808");
  EXPECT_STREQ(e.what(), "integer literal '9223372036854775808' is too large");
  EXPECT_EQ(e.loc().column, 6);
}

// ---- evaluation against missing facts ----------------------------------------------------------

TEST(ConditionEval, UnknownDtypeMakesTheConditionUnknown) {
  Facts f{{"x", tensor(DType::Unknown, {4})}};
  CondResult r = eval("x.dtype in [torch.float16, torch.bfloat16]", f);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "x.dtype in [torch.float16, torch.bfloat16]: x.dtype is unknown");
  EXPECT_EQ(verdict("x.itemsize == 2", f), Verdict::Unknown);
  EXPECT_EQ(verdict("x.rank == 1", f), Verdict::True);  // the shape is still known
}

TEST(ConditionEval, UnknownShapeMakesRankAndDimsUnknown) {
  Facts f{{"x", tensor_without_shape(DType::Float16)}};
  EXPECT_EQ(eval("x.rank == 3", f).detail, "x.rank == 3: x.rank is unknown");
  EXPECT_EQ(verdict("x.shape[-1] % 16 == 0", f), Verdict::Unknown);
  EXPECT_EQ(verdict("x.numel > 0", f), Verdict::Unknown);
  EXPECT_EQ(verdict("x.dtype == torch.float16", f), Verdict::True);
}

TEST(ConditionEval, UnknownValueFromTheEnvironmentPropagates) {
  Facts f{{"x", unknown_value("'x' is not in the e-graph")}};
  CondResult r = eval("x.rank == 3 and x.shape[-1] * x.itemsize % 32 == 0", f);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "x.rank == 3: 'x' is not in the e-graph");
}

TEST(ConditionEval, UnboundNameIsAnErrorAtItsColumn) {
  CondResult r = eval("1 == 1 and y.rank == 2", {}, {}, {"lib.rules", 9, 12});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "y: unbound name 'y'");
  EXPECT_EQ(r.error_loc.file, "lib.rules");
  EXPECT_EQ(r.error_loc.line, 9);
  EXPECT_EQ(r.error_loc.column, 23);  // 12 + offset 11
}

TEST(ConditionEval, EmptyConditionHolds) {
  EXPECT_EQ(evaluate(CondExpr{}, env_of({})).verdict, Verdict::True);
}

// ---- type errors --------------------------------------------------------------------------------

TEST(ConditionEval, TypeErrorsReportMessageAndLocation) {
  Facts f = bf16_234();
  SourceLoc loc{"t.rules", 7, 12};
  CondResult r = eval("x.rank == 3 and x.dtype < 2", f, {}, loc);
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "x.dtype < 2: cannot order dtype (torch.bfloat16) and int (2) with '<'");
  EXPECT_EQ(r.error_loc.line, 7);
  EXPECT_EQ(r.error_loc.column, 28);  // 12 + 16
  r = eval("x.dtype + 1 == 2", f, {}, loc);
  EXPECT_EQ(r.detail,
            "x.dtype + 1: unsupported operand types for +: dtype (torch.bfloat16) and "
            "int (1)");
  EXPECT_EQ(r.error_loc.column, 12);
}

TEST(ConditionEval, MoreTypeErrors) {
  Facts f = bf16_234();
  EXPECT_EQ(eval("x.shape == 1", f).detail,
            "x.shape == 1: cannot compare list ([2, 3, 4]) with int (1)");
  EXPECT_EQ(eval("x.rank", f).detail, "x.rank: expected a boolean, got int (3)");
  EXPECT_EQ(eval("x[0] == 2", f).detail, "x[0]: tensor is not subscriptable (use .shape[...])");
  EXPECT_EQ(eval("x.shape[5] == 2", f).detail, "x.shape[5]: index 5 out of range for length 3");
  EXPECT_EQ(eval("x.shape['a'] == 2", f).detail, "x.shape['a']: indices must be ints, not str");
  EXPECT_EQ(eval("len(3) == 1").detail, "len(3): len() expects a list, got int (3)");
  EXPECT_EQ(eval("1 in 2").detail, "1 in 2: 'in' needs a list or a str on the right, got int (2)");
  EXPECT_EQ(eval("x.dtype is torch.bfloat16", f).detail,
            "x.dtype is torch.bfloat16: 'is' compares with None, True or False (got dtype and "
            "dtype); use '=='");
  EXPECT_EQ(eval("-x.dtype == 1", f).detail, "-x.dtype: bad operand type for unary -: dtype");
  EXPECT_EQ(eval("x == x", f).detail,
            "x == x: cannot compare tensor (bf16[2, 3, 4]) with tensor (bf16[2, 3, 4])");
  EXPECT_EQ(eval("not 1").detail, "1: expected a boolean, got int (1)");  // no truthiness
}

TEST(ConditionEval, AttributeTypeErrorPointsAtTheAttributeName) {
  Facts f = bf16_234();
  CondResult r = eval("x.rank.dtype == 1", f, {}, {"t.rules", 2, 5});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "x.rank.dtype: int has no attribute 'dtype'");
  EXPECT_EQ(r.error_loc.column, 12);  // 5 + offset 7 of `dtype`
}

// ---- static checks ----------------------------------------------------------------------------

TEST(ConditionCheck, AcceptsKnownNamesFunctionsAndAttributes) {
  CondExpr e = parse_condition(
      "x.dtype in [bf16] and canon_dims([d0, -1], x.rank) == [0, 2] and x.size(0) == x.dim()");
  std::vector<std::string> known{"d0", "x"};
  EXPECT_NO_THROW(check_condition(e, known, {}));
  EXPECT_EQ(e.names(), (std::vector<std::string>{"d0", "x"}));  // no functions, attributes, dtypes
}

TEST(ConditionCheck, UnknownNameListsTheKnownOnes) {
  Error e = check_error("x.rank == y.rank", {"x", "z"}, {}, {"t.rules", 4, 12});
  EXPECT_STREQ(e.what(), "unknown name 'y' (known: x, z)");
  EXPECT_EQ(e.loc().line, 4);
  EXPECT_EQ(e.loc().column, 22);  // 12 + 10
}

TEST(ConditionCheck, LongListsOfKnownNamesAreClipped) {
  std::vector<std::string> known;
  for (char c = 'a'; c <= 'n'; ++c) known.emplace_back(1, c);  // 14 names
  EXPECT_STREQ(check_error("zz", known).what(),
               "unknown name 'zz' (known: a, b, c, d, e, f, g, h, i, j, k, l, ...)");
}

TEST(ConditionCheck, UnknownFunctionsAttributesAndMethods) {
  std::vector<std::string> known{"x"};
  EXPECT_STREQ(check_error("foo(x)", known).what(), "unknown function 'foo'");
  EXPECT_STREQ(check_error("x.foo == 1", known).what(),
               "unknown attribute 'foo' (known: dtype, shape, rank, ndim, itemsize, numel, device, "
               "is_floating_point)");
  Error m = check_error("x.rank == 1 and x.bar()", known);
  EXPECT_STREQ(m.what(), "unknown method 'bar' (known: dim(), size(), element_size(), numel())");
  EXPECT_EQ(m.loc().column, 19);  // at `bar`
  EXPECT_STREQ(check_error("len == 1", known).what(), "'len' is a function; call it as len(...)");
}

TEST(ConditionCheck, WrongArgumentCounts) {
  std::vector<std::string> known{"x"};
  EXPECT_STREQ(check_error("len(x.shape, 1) == 1", known).what(), "len() takes 1 argument, got 2");
  EXPECT_STREQ(check_error("canon_dim(1) == 1", known).what(),
               "canon_dim() takes 2 arguments, got 1");
  EXPECT_STREQ(check_error("min() == 1", known).what(), "min() takes at least 1 argument, got 0");
  EXPECT_STREQ(check_error("x.size(1, 2) == 1", known).what(),
               ".size() takes 0 to 1 arguments, got 2");
}

TEST(ConditionEval, UnknownFunctionAtEvaluationIsAnError) {
  CondResult r = eval("1 == 1 and foo(1)", {}, {}, {"t.rules", 1, 1});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "foo(1): unknown function 'foo'");
  EXPECT_EQ(r.error_loc.column, 12);
}

// ---- named C++ predicates ----------------------------------------------------------------------

CondFunctions power_of_two_functions(int* calls = nullptr) {
  CondFunctions fns;
  fns.add(
      "is_pow2_registered",
      [calls](std::span<const CondValue> args) -> CondValue {
        if (calls) ++*calls;
        int64_t v = std::get<int64_t>(args[0].v);
        return CondValue{v > 0 && (v & (v - 1)) == 0};
      },
      "true for 1, 2, 4, 8, ...");
  return fns;
}

TEST(ConditionFunctions, RegisteredPredicateIsCalledByName) {
  CondFunctions fns = power_of_two_functions();
  EXPECT_TRUE(fns.contains("is_pow2_registered"));
  EXPECT_FALSE(fns.contains("len"));  // builtins are not in the table
  std::vector<std::string> known{"x"};
  EXPECT_NO_THROW(check_condition(parse_condition("is_pow2_registered(x.shape[-1])"), known, fns));
  EXPECT_EQ(verdict("is_pow2_registered(x.shape[-1])", bf16_234(), fns), Verdict::True);  // 4
  CondResult r = eval("is_pow2_registered(x.shape[1])", bf16_234(), fns);                 // 3
  EXPECT_EQ(r.verdict, Verdict::False);
  EXPECT_EQ(r.detail, "is_pow2_registered(x.shape[1]) is False (x.shape[1] = 3)");
}

TEST(ConditionFunctions, PredicateNeverSeesUnknownArguments) {
  int calls = 0;
  CondFunctions fns = power_of_two_functions(&calls);
  Facts f{{"x", tensor_without_shape(DType::Float16)}};
  EXPECT_EQ(verdict("is_pow2_registered(x.shape[-1])", f, fns), Verdict::Unknown);
  EXPECT_EQ(calls, 0);
}

TEST(ConditionFunctions, PredicateMayAnswerUnknown) {
  CondFunctions fns;
  fns.add("undecided", [](std::span<const CondValue>) { return unknown_value("no data"); });
  CondResult r = eval("undecided()", {}, fns);
  EXPECT_EQ(r.verdict, Verdict::Unknown);
  EXPECT_EQ(r.detail, "undecided(): no data");
}

TEST(ConditionFunctions, ThrowingPredicateBecomesAnError) {
  CondFunctions fns;
  fns.add("boom", [](std::span<const CondValue>) -> CondValue {
    throw std::runtime_error("table not loaded");
  });
  CondResult r = eval("1 == 1 and boom(1)", {}, fns, {"t.rules", 5, 12});
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_EQ(r.detail, "boom(1): boom() failed: table not loaded");
  EXPECT_EQ(r.error_loc.column, 23);
}

TEST(ConditionFunctions, RegistrationErrors) {
  auto fn = [](std::span<const CondValue>) { return CondValue{true}; };
  CondFunctions fns;
  fns.add("ok", fn);
  auto message = [&](std::string name, CondFunction f) {
    try {
      fns.add(std::move(name), std::move(f));
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("ok", fn), "condition function 'ok' is already registered");
  EXPECT_EQ(message("len", fn), "condition function 'len' would shadow a builtin");
  EXPECT_EQ(message("torch", fn), "condition function 'torch' would shadow a builtin");
  EXPECT_EQ(message("and", fn), "condition function 'and' would shadow a builtin");
  EXPECT_EQ(message("2fast", fn), "condition function name '2fast' is not an identifier");
  EXPECT_EQ(message("", fn), "condition function name '' is not an identifier");
  EXPECT_EQ(message("empty", CondFunction{}), "condition function 'empty' is empty");
}

// ---- parse errors ----------------------------------------------------------------------------

struct ParseErrorCase {
  const char* text;
  int column;  // 1-based within the condition
  const char* message;
};

class ConditionParseErrors : public ::testing::TestWithParam<ParseErrorCase> {};

TEST_P(ConditionParseErrors, ExactColumnAndMessage) {
  const ParseErrorCase& c = GetParam();
  Error e = parse_error(c.text);
  EXPECT_EQ(e.loc().line, 1) << c.text;
  EXPECT_EQ(e.loc().column, c.column) << c.text;
  EXPECT_STREQ(e.what(), c.message) << c.text;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ConditionParseErrors,
    ::testing::Values(
        ParseErrorCase{"", 1, "expected an expression, found end of condition"},
        ParseErrorCase{"x.dtype = bf16", 9, "unexpected '=' (use '==' to compare)"},
        ParseErrorCase{"a && b", 3, "unexpected '&&' (use 'and')"},
        ParseErrorCase{"a || b", 3, "unexpected '||' (use 'or')"},
        ParseErrorCase{"!a", 1, "unexpected '!' (use 'not')"},
        ParseErrorCase{"2 ** 3 == 8", 3, "unexpected '**' (powers are not supported)"},
        ParseErrorCase{"(a == b", 8,
                       "expected ')' to close '(' at column 1, found end of condition"},
        ParseErrorCase{"[1, 2", 6, "expected ']' to close '[' at column 1, found end of condition"},
        ParseErrorCase{"len(x", 6, "expected ')' to close '(' at column 4, found end of condition"},
        ParseErrorCase{"x.shape[0", 10,
                       "expected ']' to close '[' at column 8, found end of condition"},
        ParseErrorCase{"a ==", 5, "expected an expression, found end of condition"},
        ParseErrorCase{"a b", 3, "unexpected 'b' after the end of the expression"},
        ParseErrorCase{"a not b", 3, "unexpected 'not' after the end of the expression"},
        ParseErrorCase{"x.", 3, "expected an attribute name after '.', found end of condition"},
        ParseErrorCase{"x.in", 3, "expected an attribute name after '.', found 'in'"},
        ParseErrorCase{"x.shape[]", 9, "expected an index or a slice inside '[]'"},
        ParseErrorCase{"x.shape[::2]", 10, "expected an expression, found ':'"},
        ParseErrorCase{"x[0](1)", 5, "only named functions and methods can be called"},
        ParseErrorCase{"torch", 1, "expected '.' and a dtype name after 'torch'"},
        ParseErrorCase{"torch.1", 7, "expected a dtype name after 'torch.', found '1'"},
        ParseErrorCase{"a == and", 6, "expected an expression, found 'and'"},
        ParseErrorCase{"x == \"abc", 6, "unterminated string"},
        ParseErrorCase{"x == 'a\\q'", 8, "unknown escape '\\q' in string"},
        ParseErrorCase{"x == 12abc", 6, "invalid number '12abc'"},
        ParseErrorCase{"x == $", 6, "unexpected character '$'"},
        ParseErrorCase{"x == \x01", 6, "unexpected byte 0x01"}));

TEST(ConditionParse, ErrorColumnsAreOffsetByTheConditionsLocation) {
  // `    where: x.dtype = bf16` on line 14: the condition starts at column 12.
  Error e = parse_error("x.dtype = bf16", {"lib.rules", 14, 12});
  EXPECT_EQ(e.loc().file, "lib.rules");
  EXPECT_EQ(e.loc().line, 14);
  EXPECT_EQ(e.loc().column, 20);
  // The source line is padded so the caret lines up with the file's column.
  EXPECT_EQ(e.source_line(), "           x.dtype = bf16");
  // render(): two spaces of indent, the padded line, the caret under column 20.
  EXPECT_EQ(e.render(), "lib.rules:14:20: error: unexpected '=' (use '==' to compare)\n" +
                            std::string(2 + 11, ' ') + "x.dtype = bf16\n" +
                            std::string(2 + 19, ' ') + "^");
}

TEST(ConditionParse, MultiLineConditionCountsLinesAndColumns) {
  Error e = parse_error("a and\n  b $", {"lib.rules", 3, 12});
  EXPECT_EQ(e.loc().line, 4);
  EXPECT_EQ(e.loc().column, 5);  // later lines are whole source lines
  EXPECT_EQ(e.source_line(), "  b $");
}

TEST(ConditionParse, LaterBadTokenIsReportedOnlyWhenReached) {
  // The lexer reads one token ahead; the error must still be the first one.
  Error e = parse_error("(a $ b");
  EXPECT_STREQ(e.what(), "unexpected character '$'");
  EXPECT_EQ(e.loc().column, 4);
}

// ---- nesting guard
// -------------------------------------------------------------------------------

std::string repeated(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

TEST(ConditionParse, HundredNestedParenthesesAreFine) {
  std::string text = repeated("(", 100) + "1" + repeated(")", 100) + " == 1";
  EXPECT_EQ(verdict(text), Verdict::True);
}

TEST(ConditionParse, TenThousandNestedParenthesesAreAClearError) {
  std::string text = repeated("(", 10000) + "x" + repeated(")", 10000);
  Error e = parse_error(text);
  EXPECT_STREQ(e.what(), "expression nested too deeply (more than 100 levels)");
  EXPECT_EQ(e.loc().column, 101);  // at the 101st '('
}

TEST(ConditionParse, EveryRecursiveConstructIsGuarded) {
  const std::string deep[] = {
      repeated("not ", 10000) + "True",
      repeated("-", 10000) + "1",
      repeated("[", 10000) + repeated("]", 10000),
      repeated("len(", 10000) + "x" + repeated(")", 10000),
      "x" + repeated("[x", 10000) + repeated("]", 10000),
      "x" + repeated(".size(x", 10000) + repeated(")", 10000),
      "x" + repeated(".shape", 10000),
      repeated("1 + ", 10000) + "1",
  };
  for (const std::string& text : deep) {
    Error e = parse_error(text);
    EXPECT_STREQ(e.what(), "expression nested too deeply (more than 100 levels)")
        << text.substr(0, 20);
  }
}

TEST(ConditionParse, LongFlatConjunctionsAreNotNesting) {
  // `and` / `or` operands form one flat node, so long conjunctions are fine.
  std::string text = "True" + repeated(" and True", 5000);
  EXPECT_EQ(verdict(text), Verdict::True);
}

// ---- names and rendering ------------------------------------------------------------------------

TEST(ConditionParse, TextLocAndNames) {
  SourceLoc loc{"lib.rules", 16, 12};
  CondExpr e = parse_condition("2 <= x1.rank <= 8 and x2.shape == x1.shape", loc);
  EXPECT_EQ(e.text(), "2 <= x1.rank <= 8 and x2.shape == x1.shape");
  EXPECT_EQ(e.loc().line, 16);
  EXPECT_EQ(e.loc().column, 12);
  EXPECT_EQ(e.names(), (std::vector<std::string>{"x1", "x2"}));
}

TEST(ConditionValue, ToStringMatchesPython) {
  EXPECT_EQ(CondValue{int64_t{6}}.to_string(), "6");
  EXPECT_EQ(CondValue{1e-06}.to_string(), "1e-06");
  EXPECT_EQ(CondValue{1.0}.to_string(), "1.0");
  EXPECT_EQ(CondValue{true}.to_string(), "True");
  EXPECT_EQ(CondValue{std::monostate{}}.to_string(), "None");
  EXPECT_EQ(CondValue{DType::Float16}.to_string(), "torch.float16");
  EXPECT_EQ(CondValue{std::string("pertoken")}.to_string(), "'pertoken'");
  EXPECT_EQ((CondValue{CondList{int_value(0), int_value(1)}}.to_string()), "[0, 1]");
  EXPECT_EQ(CondValue{sym("s0")}.to_string(), "s0");
  EXPECT_EQ(tensor(DType::BFloat16, {sym("s0"), 7168}).to_string(), "bf16[s0, 7168]");
  EXPECT_EQ(unknown_value("why").to_string(), "unknown");
}

TEST(ConditionValue, VerdictNames) {
  EXPECT_EQ(verdict_name(Verdict::True), "true");
  EXPECT_EQ(verdict_name(Verdict::False), "false");
  EXPECT_EQ(verdict_name(Verdict::Unknown), "unknown");
  EXPECT_EQ(verdict_name(Verdict::Error), "error");
}

// ---- the rule library's conditions, end to end --------------------------------------------------

TEST(ConditionEval, TorchairAddRmsNormQuantConditions) {
  // torchair.rules, rule (e): every `where:` line on a matching and a failing match.
  const char* lines[] = {
      "dtype in [1, 12, torch.int8, torch.qint8]",
      "x1.dtype in [torch.float16, torch.bfloat16] and x2.dtype == x1.dtype",
      "zero_points is None or zero_points.dtype not in [torch.int8, torch.uint8]",
      "x2.rank >= 1 and x2.shape[-1] * x2.itemsize % 32 == 0",
      "gamma.shape == scales.shape",
  };
  Facts good{{"dtype", int_value(1)},
             {"x1", tensor(DType::BFloat16, {sym("s0"), 7168})},
             {"x2", tensor(DType::BFloat16, {sym("s0"), 7168})},
             {"zero_points", CondValue{std::monostate{}}},
             {"gamma", tensor(DType::BFloat16, {7168})},
             {"scales", tensor(DType::BFloat16, {7168})}};
  for (const char* line : lines) EXPECT_EQ(verdict(line, good), Verdict::True) << line;
  Facts bad = good;
  bad["dtype"] = int_value(3);  // int32
  bad["x1"] = tensor(DType::Float32, {sym("s0"), 7168});
  bad["x2"] = tensor(DType::BFloat16, {sym("s0"), 7160});  // 7160 * 2 = 14320 = 447*32 + 16
  bad["zero_points"] = tensor(DType::Int8, {7168});
  bad["scales"] = tensor(DType::BFloat16, {1});
  for (const char* line : lines) EXPECT_EQ(verdict(line, bad), Verdict::False) << line;
}

// ---- is_leaf, distinct, ordered: questions about the bound value ----------------

TEST(ConditionOrigins, LeafDistinctAndOrderedReadTheOriginEnv) {
  const Facts facts{{"a", tensor(DType::BFloat16, {4})},
                    {"b", tensor(DType::BFloat16, {4})},
                    {"c", tensor(DType::BFloat16, {4})}};
  // a and c are graph inputs with ids 1 and 5; b is computed (id 3); d is a
  // second name bound to a's value.
  const std::map<std::string, CondOrigin, std::less<>> origin{
      {"a", {1, true}}, {"b", {3, false}}, {"c", {5, true}}, {"d", {1, true}}};
  CondOriginEnv origins = [&](std::string_view name) -> std::optional<CondOrigin> {
    auto it = origin.find(name);
    if (it == origin.end()) return std::nullopt;
    return it->second;
  };
  Facts with_d = facts;
  with_d.emplace("d", tensor(DType::BFloat16, {4}));
  auto v = [&](std::string_view text) {
    return evaluate(parse_condition(text), env_of(with_d), {}, origins).verdict;
  };
  EXPECT_EQ(v("is_leaf(a)"), Verdict::True);
  EXPECT_EQ(v("is_leaf(b)"), Verdict::False);
  EXPECT_EQ(v("is_leaf(a) and is_leaf(c)"), Verdict::True);
  EXPECT_EQ(v("distinct(a, b, c)"), Verdict::True);
  EXPECT_EQ(v("distinct(a, d)"), Verdict::False);   // same value under two names
  EXPECT_EQ(v("ordered(a, b, c)"), Verdict::True);  // ids 1 < 3 < 5
  EXPECT_EQ(v("ordered(c, a)"), Verdict::False);
  EXPECT_EQ(v("ordered(a, d)"), Verdict::False);  // equal is not ordered
  // Not a bare name: the value's origin is not defined for an expression.
  CondResult r = evaluate(parse_condition("is_leaf(a.shape)"), env_of(with_d), {}, origins);
  EXPECT_EQ(r.verdict, Verdict::Error);
  EXPECT_THAT(r.detail, HasSubstr("expected the name of an input"));
  // Without a matched graph the answer is unknown, never a guess.
  EXPECT_EQ(verdict("is_leaf(a)", facts), Verdict::Unknown);
  EXPECT_EQ(verdict("distinct(a, b)", facts), Verdict::Unknown);
}

TEST(ConditionOrigins, ArgumentCountsAreChecked) {
  CondOriginEnv origins = [](std::string_view) -> std::optional<CondOrigin> {
    return CondOrigin{0, true};
  };
  const Facts facts{{"a", int_value(1)}};
  EXPECT_EQ(evaluate(parse_condition("distinct(a)"), env_of(facts), {}, origins).verdict,
            Verdict::Error);
  EXPECT_EQ(evaluate(parse_condition("is_leaf(a, a)"), env_of(facts), {}, origins).verdict,
            Verdict::Error);
}

}  // namespace
}  // namespace eqfuse
