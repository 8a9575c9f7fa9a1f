#include "graph/symint.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/checked_int.hpp"
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
  // Python's precedence: unary minus below `**`; an opaque division bracketed
  // inside a product, so that the text reads back as the same value.
  EXPECT_EQ(SymInt::parse("-s0**2").to_string(), "-s0**2");
  EXPECT_EQ(SymInt::parse("2**3**2").constant(), 512);
  EXPECT_EQ((SymInt(7) * SymInt::parse("(s0 + 1)//2")).to_string(), "7*((s0 + 1)//2)");
  EXPECT_EQ((-SymInt::parse("(s0 + 1)//2")).to_string(), "-((s0 + 1)//2)");
  EXPECT_EQ((SymInt::symbol("s1") - SymInt::parse("(s0 + 1)//2")).to_string(),
            "-((s0 + 1)//2) + s1");
  EXPECT_EQ((SymInt::parse("s0 + (s1 + 1)//2") - SymInt::parse("s1 % 3")).to_string(),
            "(s1 + 1)//2 + s0 - s1%3");
  EXPECT_EQ(SymInt::parse("(s0 + 1)//2").to_string(), "(s0 + 1)//2");
}

TEST(SymInt, CanonicalEquality) {
  EXPECT_EQ(SymInt::parse("s0*4 + s1"), SymInt::parse("s1 + 2*s0 + 2*s0"));
  EXPECT_NE(SymInt::parse("s0"), SymInt::parse("s1"));
  EXPECT_EQ(SymInt::parse("4*s0").floordiv(4), SymInt::symbol("s0"));
}

// Constants are stored inline and a constant operand takes a shortcut
// (graph/symint.hpp): every operation must give what the general term merge
// gives, checked here by evaluating both sides at several bindings, and the
// order must stay that of the canonical term lists (0, symbolic values,
// other constants by value) on which sorted outputs depend.
TEST(SymInt, ConstantShortcutsAgreeWithEvaluationAndKeepTheOrder) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  std::vector<SymInt> values{0,
                             1,
                             -1,
                             7,
                             -4096,
                             SymInt::parse("s0"),
                             SymInt::parse("2*s0 + 3"),
                             SymInt::parse("s0*s1 - 5"),
                             SymInt::parse("-s0"),
                             SymInt::parse("(s0 + 1)//2 + s1")};
  for (const auto& [s0, s1] : std::vector<std::pair<int64_t, int64_t>>{{1, 2}, {5, 3}, {64, 9}}) {
    const SymInt::Bindings b{{"s0", s0}, {"s1", s1}};
    for (const SymInt& x : values)
      for (const SymInt& y : values) {
        const int64_t vx = *x.evaluate(b), vy = *y.evaluate(b);
        SCOPED_TRACE(x.to_string() + " and " + y.to_string());
        EXPECT_EQ((x + y).evaluate(b), vx + vy);
        EXPECT_EQ((x - y).evaluate(b), vx - vy);
        EXPECT_EQ((x * y).evaluate(b), vx * vy);
        EXPECT_EQ(x + y, y + x);
        EXPECT_EQ(x * y, y * x);
        EXPECT_EQ(x + y - y, x);
        EXPECT_EQ(SymInt::parse((x + y).to_string()), x + y);
        EXPECT_EQ(SymInt::parse((x * y).to_string()), x * y);
        EXPECT_EQ((x - y).is_constant(), (x - y).constant().has_value());
      }
  }
  EXPECT_TRUE((SymInt::parse("s0 + 3") - SymInt::symbol("s0")).is_constant());
  EXPECT_EQ((SymInt::parse("s0 + 3") - SymInt::symbol("s0")).constant(), 3);
  EXPECT_EQ((SymInt::parse("s0 + 3") - 3).to_string(), "s0");
  EXPECT_EQ((SymInt::parse("2*s0") * 0).constant(), 0);
  EXPECT_THROW(SymInt(big) + 1, IntOverflow);
  EXPECT_THROW(SymInt::parse("s0 + 9223372036854775807") + 1, IntOverflow);
  EXPECT_THROW(SymInt::parse("3*s0") * SymInt(big), IntOverflow);
  const SymInt most_negative = SymInt(std::numeric_limits<int64_t>::min()) * SymInt::symbol("s0");
  EXPECT_THROW(SymInt(0) - most_negative, IntOverflow);
  EXPECT_THROW(-most_negative, IntOverflow);
  std::vector<SymInt> sorted{5, SymInt::parse("2*s0 + 3"), -3, 0, SymInt::symbol("s0")};
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::string> printed;
  for (const SymInt& v : sorted) printed.push_back(v.to_string());
  EXPECT_EQ(printed, (std::vector<std::string>{"0", "s0", "2*s0 + 3", "-3", "5"}));
}

TEST(SymInt, EvaluatesIncludingOpaqueDivision) {
  std::map<std::string, int64_t, std::less<>> b{{"s0", 7}};
  SymInt e = SymInt::parse("(s0 + 1)//2");
  EXPECT_TRUE(e.is_symbolic());
  EXPECT_EQ(e.evaluate(b), 4);
  EXPECT_EQ(SymInt::parse("3*s0 - 1").evaluate(b), 20);
  EXPECT_EQ(SymInt::parse("s1").evaluate(b), std::nullopt);
}

// evaluate_or is evaluate() over the bindings completed with the fallback for
// every atom they lack, opaque ones taken whole.
TEST(SymInt, EvaluateOrIsEvaluateOverTheCompletedBindings) {
  const std::map<std::string, int64_t, std::less<>> b{{"s0", 7}};
  for (const char* text : {"s0", "3*s0 - 1", "s0*s1 + s1", "s1**2", "(s0 + 1)//2 + s2", "5"}) {
    SymInt e = SymInt::parse(text);
    std::map<std::string, int64_t, std::less<>> completed = b;
    for (const std::string& atom : e.atoms()) completed.try_emplace(atom, 11);
    EXPECT_EQ(e.evaluate_or(b, 11), e.evaluate(completed)) << text;
  }
  EXPECT_THROW((void)(SymInt::symbol("s0") * 4).evaluate_or({}, int64_t{1} << 62), IntOverflow);
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

// ---- overflow (fuzz findings): exact or IntOverflow, never a wrapped value ----

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(SymIntOverflow, SumsThatLeaveInt64Throw) {
  SymInt s0 = SymInt::symbol("s0");
  // Was: `s0 - MAX - MAX` wrapped to `s0 + 2`.
  EXPECT_THROW(s0 - kMax - kMax, IntOverflow);
  EXPECT_THROW(SymInt(kMax) + 1, IntOverflow);
  EXPECT_THROW(s0 * kMax + s0 * kMax, IntOverflow);
  try {
    (void)(s0 - kMax - kMax);
    FAIL() << "no overflow reported";
  } catch (const IntOverflow& e) {
    EXPECT_STREQ(e.what(),
                 "symbolic size (s0 - 9223372036854775807) - 9223372036854775807 does not fit in "
                 "63 bits");
  }
}

TEST(SymIntOverflow, ExactResultsNearTheLimitsStayExact) {
  SymInt s0 = SymInt::symbol("s0");
  EXPECT_EQ((s0 + kMax - kMax).to_string(), "s0");
  EXPECT_EQ((SymInt(-1) - kMin).constant(), kMax);  // -(MIN) alone does not fit
  EXPECT_EQ((SymInt(kMin) + 0).constant(), kMin);
  EXPECT_EQ((s0 + kMin).to_string(), "s0 - 9223372036854775808");
  EXPECT_EQ(SymInt(kMin).to_string(), "-9223372036854775808");
  EXPECT_EQ((SymInt(kMin) * s0).to_string(), "-9223372036854775808*s0");
  EXPECT_EQ((s0 * kMax).evaluate({{"s0", 1}}), kMax);
  EXPECT_EQ((s0 * 4 - s0 * 3 - s0).constant(), 0);
}

TEST(SymIntOverflow, ProductsAndNegationThatLeaveInt64Throw) {
  SymInt s0 = SymInt::symbol("s0");
  EXPECT_THROW(SymInt(int64_t{1} << 62) * 2, IntOverflow);
  EXPECT_THROW((s0 * (int64_t{1} << 32)) * (int64_t{1} << 31), IntOverflow);
  EXPECT_THROW(-SymInt(kMin), IntOverflow);
  EXPECT_THROW(-(s0 * kMin), IntOverflow);
  EXPECT_EQ((SymInt(int64_t{1} << 31) * (int64_t{1} << 31)).constant(), int64_t{1} << 62);
}

TEST(SymIntOverflow, DivisionAtTheLimits) {
  EXPECT_THROW(SymInt(kMin).floordiv(-1), IntOverflow);
  EXPECT_EQ(SymInt(kMin).mod(-1).constant(), 0);
  EXPECT_EQ(SymInt(kMin).mod(kMax).constant(), kMax - 1);  // Python: -2**63 % (2**63-1)
  EXPECT_EQ(SymInt(kMin).floordiv(kMax).constant(), -2);
  EXPECT_EQ(SymInt(kMax).floordiv(-1).constant(), -kMax);
  EXPECT_EQ((SymInt::symbol("s0") * 6).floordiv(-1).to_string(), "-6*s0");
}

TEST(SymIntOverflow, EvaluateThrowsNamingTheExpressionAndTheBindings) {
  // Was: `4096*s0` with s0=2^62 evaluated to 0 (cost model, --hint).
  SymInt d = SymInt::symbol("s0") * 4096;
  try {
    (void)d.evaluate({{"s0", int64_t{1} << 62}});
    FAIL() << "no overflow reported";
  } catch (const IntOverflow& e) {
    EXPECT_STREQ(e.what(),
                 "symbolic size '4096*s0' with s0=4611686018427387904 does not fit in 63 bits");
  }
  // A sum whose terms fit but whose total does not.
  EXPECT_THROW((void)SymInt::parse("s0 + s1").evaluate({{"s0", kMax}, {"s1", 1}}), IntOverflow);
  // Was: check reported a product with 2^63-1 as a small negative size.
  EXPECT_THROW((void)SymInt::parse("9223372036854775807*s0").evaluate({{"s0", 2}}), IntOverflow);
  // Opaque atoms are evaluated with the same checks.
  EXPECT_THROW((void)SymInt::parse("(s0*s0 + 1)//2").evaluate({{"s0", int64_t{1} << 32}}),
               IntOverflow);
  EXPECT_EQ(SymInt::parse("(s0 + 1)//2").evaluate({{"s0", 7}}), 4);
  EXPECT_EQ(SymInt::parse("s0 + s1").evaluate({{"s0", kMax}, {"s1", -1}}), kMax - 1);
  EXPECT_EQ(SymInt::parse("s0 + s1").evaluate({{"s0", 1}}), std::nullopt);  // unbound
}

TEST(SymIntOverflow, ParsingRejectsNumbersAndArithmeticOutsideInt64) {
  EXPECT_EQ(SymInt::parse("9223372036854775807").constant(), kMax);
  EXPECT_THROW(SymInt::parse("9223372036854775808"), std::invalid_argument);
  EXPECT_THROW(SymInt::parse("99999999999999999999999"), std::invalid_argument);
  EXPECT_THROW(SymInt::parse("s0 - 9223372036854775807 - 9223372036854775807"),
               std::invalid_argument);
  EXPECT_THROW(SymInt::parse("4611686018427387904*s0*2"), std::invalid_argument);
  EXPECT_THROW(SymInt::parse("65536**4"), std::invalid_argument);
  try {
    SymInt::parse("s0 - 9223372036854775807 - 9223372036854775807");
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("arithmetic leaves the int64 range at offset"),
              std::string::npos)
        << e.what();
  }
}

// Every combination of edge values: the result is the exact one (checked in 128
// bits) when it fits in int64, IntOverflow when it does not; never a wrapped value.
TEST(SymIntOverflow, EdgeValuesAreExactOrOverflowAgainstA128BitReference) {
  const std::vector<int64_t> edges = {0,
                                      1,
                                      -1,
                                      2,
                                      -2,
                                      int64_t{1} << 31,
                                      int64_t{1} << 32,
                                      int64_t{1} << 62,
                                      -(int64_t{1} << 62),
                                      kMax,
                                      kMax - 1,
                                      kMin,
                                      kMin + 1};
  auto fits = [](__int128 v) { return v >= kMin && v <= kMax; };
  SymInt s0 = SymInt::symbol("s0"), s1 = SymInt::symbol("s1");
  size_t exact = 0, overflowed = 0;
  for (int64_t a : edges)
    for (int64_t b : edges) {
      const __int128 sum = static_cast<__int128>(a) + b, diff = static_cast<__int128>(a) - b,
                     prod = static_cast<__int128>(a) * b;
      for (auto [op, want] : {std::pair<char, __int128>{'+', sum}, {'-', diff}, {'*', prod}}) {
        auto compute = [&] {
          return op == '+'   ? SymInt(a) + SymInt(b)
                 : op == '-' ? SymInt(a) - SymInt(b)
                             : SymInt(a) * SymInt(b);
        };
        if (fits(want)) {
          EXPECT_EQ(compute().constant(), static_cast<int64_t>(want)) << a << op << b;
          ++exact;
        } else {
          EXPECT_THROW(compute(), IntOverflow) << a << op << b;
          ++overflowed;
        }
      }
      // a*s0 + b*s1 + 7 under edge bindings (|products| <= 2^126 each).
      SymInt poly = s0 * a + s1 * b + 7;
      for (int64_t x : edges) {
        const __int128 ax = static_cast<__int128>(a) * x, by = static_cast<__int128>(b) * x;
        const bool products_fit = fits(ax) && fits(by);
        // Summed only when both products fit in int64: 2^126 + 2^126 leaves int128.
        const __int128 value = products_fit ? ax + by + 7 : 0;
        if (products_fit && fits(value))
          EXPECT_EQ(poly.evaluate({{"s0", x}, {"s1", x}}), static_cast<int64_t>(value));
        else
          EXPECT_THROW((void)poly.evaluate({{"s0", x}, {"s1", x}}), IntOverflow);
      }
    }
  EXPECT_GT(exact, 0u);
  EXPECT_GT(overflowed, 0u);
}

}  // namespace
}  // namespace eqfuse
