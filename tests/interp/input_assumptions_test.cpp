// ctest-label: unit
// Input assumptions (interp/input_assumptions.hpp): parsing `a == op(b, ...)` in its
// three op spellings, errors located at the fault, the op check against the catalog,
// drawing inputs that hold the relation, and equivalent() drawing them so
// (EquivalenceOptions::assumptions).
#include "interp/input_assumptions.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "interp/equivalence.hpp"
#include "interp/random_inputs.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_registry;
using testing_support::load_builtin;

const SourceLoc kLoc{"t.rules", 7, 12};

TEST(InputAssumption, ParsesAnAtenShortName) {
  InputAssumption a = parse_input_assumption("scale_reciprocal == reciprocal(scale)", kLoc);
  EXPECT_EQ(a.derived, "scale_reciprocal");
  EXPECT_EQ(a.op, "aten::reciprocal");
  EXPECT_EQ(a.sources, std::vector<std::string>{"scale"});
  EXPECT_EQ(a.loc.file, "t.rules");
  EXPECT_EQ(a.loc.line, 7);
  EXPECT_EQ(a.loc.column, 12);
  EXPECT_EQ(a.text(), "scale_reciprocal == reciprocal(scale)");
}

TEST(InputAssumption, TheThreeOpSpellingsAreOneAssumption) {
  const InputAssumption short_name = parse_input_assumption("r == reciprocal(s)", kLoc);
  const InputAssumption qualified = parse_input_assumption("r == aten::reciprocal(s)", {});
  const InputAssumption fx =
      parse_input_assumption("r==torch.ops.aten.reciprocal.default( s )", {});
  EXPECT_EQ(qualified.op, "aten::reciprocal");
  EXPECT_EQ(fx.op, "aten::reciprocal");
  // Equal whatever the spelling and wherever stated (loc is not compared).
  EXPECT_EQ(short_name, qualified);
  EXPECT_EQ(short_name, fx);
  EXPECT_EQ(fx.text(), "r == reciprocal(s)");
  EXPECT_FALSE(short_name == parse_input_assumption("r == neg(s)", kLoc));
  EXPECT_FALSE(short_name == parse_input_assumption("q == reciprocal(s)", kLoc));
}

TEST(InputAssumption, OtherNamespacesAndOverloadsAreKeptInTheText) {
  const InputAssumption npu = parse_input_assumption("y == npu::npu_foo(x)", kLoc);
  EXPECT_EQ(npu.op, "npu::npu_foo");
  EXPECT_EQ(npu.text(), "y == npu::npu_foo(x)");
  const InputAssumption fx = parse_input_assumption("y == torch.ops.npu.npu_foo.default(x)", kLoc);
  EXPECT_EQ(fx.op, "npu::npu_foo");
  const InputAssumption two = parse_input_assumption("z == mul.Tensor(x, y)", kLoc);
  EXPECT_EQ(two.op, "aten::mul.Tensor");
  EXPECT_EQ(two.sources, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(two.text(), "z == mul.Tensor(x, y)");
  EXPECT_EQ(parse_input_assumption("z == torch.ops.aten.mul.Tensor(x,y)", kLoc), two);
}

// Each malformed text is an Error at the given loc with the column moved to the
// fault (the text starts at column 12 of line 7), naming the text and the form.
TEST(InputAssumption, MalformedTextsAreErrorsAtTheFault) {
  struct Case {
    const char* text;
    const char* message;
    int offset;  // of the fault in `text`
  };
  for (const Case& c : std::vector<Case>{
           {"a = reciprocal(b)", "expected `==` after the input name", 2},
           {"== reciprocal(b)", "expected an input name", 0},
           {"  a == (b)", "expected an op name", 7},
           {"a == reciprocal b", "expected `(` after the op name", 16},
           {"a == reciprocal(b", "expected `,` or `)`", 17},
           {"a == reciprocal(b, )", "expected an input name", 19},
           {"a == reciprocal(1)", "expected an input name", 16},
           {"a == reciprocal(b) + c", "unexpected text after `)`", 19},
           {"a == reciprocal()", "the op reads no input", 17},
           {"a == mul.Tensor(b, a)", "'a' is defined in terms of itself", 21},
       }) {
    try {
      parse_input_assumption(c.text, kLoc);
      ADD_FAILURE() << "accepted " << c.text;
    } catch (const Error& e) {
      EXPECT_THAT(e.what(), HasSubstr(std::string("assumption '") + c.text + "': " + c.message))
          << c.text;
      EXPECT_THAT(e.what(), HasSubstr("the form is `input == op(input, ...)`")) << c.text;
      EXPECT_EQ(e.loc().file, "t.rules") << c.text;
      EXPECT_EQ(e.loc().line, 7) << c.text;
      EXPECT_EQ(e.loc().column, 12 + c.offset) << c.text;
    }
  }
}

TEST(InputAssumption, AnUnknownLocStaysUnknown) {
  try {
    parse_input_assumption("a = b", SourceLoc{});
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_FALSE(e.loc().known());
    EXPECT_EQ(e.loc().column, 0);
  }
}

TEST(InputAssumption, CheckRefusesAnOpOutsideTheCatalogAtItsLoc) {
  EXPECT_NO_THROW(check_input_assumption(parse_input_assumption("r == reciprocal(s)", kLoc),
                                         builtin_registry()));
  EXPECT_NO_THROW(check_input_assumption(
      parse_input_assumption("z == torch.ops.aten.mul.Tensor(x, y)", kLoc), builtin_registry()));
  try {
    check_input_assumption(parse_input_assumption("r == frobnicate(s)", kLoc), builtin_registry());
    ADD_FAILURE() << "accepted an unknown op";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(),
                HasSubstr("assumption 'r == frobnicate(s)': unknown op 'aten::frobnicate'"));
    EXPECT_EQ(e.loc().line, 7);
    EXPECT_EQ(e.loc().column, 12);
  }
  EXPECT_THROW(
      check_input_assumption(parse_input_assumption("r == npu::nope(s)", kLoc), builtin_registry()),
      Error);
}

std::vector<InputAssumption> assumptions(std::initializer_list<const char*> texts) {
  std::vector<InputAssumption> out;
  for (const char* t : texts) out.push_back(parse_input_assumption(t, kLoc));
  return out;
}

Graph graph_with_inputs(const std::string& signature) {
  return load_builtin("class GraphModule(torch.nn.Module):\n    def forward(self, " + signature +
                          "):\n        return (x,)\n",
                      "t.fx");
}

std::vector<double> values_of(const RandomInputs& in, size_t i) {
  return std::get<Tensor>(in.values.at(i).v).values();
}

TEST(ApplyInputAssumptions, ComputesTheDerivedInputFromItsSource) {
  const Graph g = graph_with_inputs("x: \"f32[6]\", r: \"f32[6]\", y: \"f32[6]\"");
  RandomInputs in = random_inputs(g, 5, {.registry = &builtin_registry()});
  const std::vector<double> x = values_of(in, 0), r_drawn = values_of(in, 1), y = values_of(in, 2);
  apply_input_assumptions(g, assumptions({"r == reciprocal(x)"}), in, builtin_registry());
  const std::vector<double> r = values_of(in, 1);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_NE(r, r_drawn);  // it was drawn freely, now it is derived
  for (size_t i = 0; i < r.size(); ++i)
    EXPECT_FLOAT_EQ(static_cast<float>(r[i]), static_cast<float>(1.0 / x[i])) << i;
  // The other inputs keep their values.
  EXPECT_EQ(values_of(in, 0), x);
  EXPECT_EQ(values_of(in, 2), y);
  EXPECT_EQ(std::get<Tensor>(in.values[1].v).dtype(), DType::Float32);
}

TEST(ApplyInputAssumptions, LaterAssumptionsReadEarlierOnesAndOpsTakeSeveralInputs) {
  const Graph g = graph_with_inputs(
      "x: \"f32[s0, 3]\", y: \"f32[s0, 3]\", n: \"f32[s0, 3]\", p: \"f32[s0, 3]\"");
  RandomInputs in = random_inputs(g, 11, {.registry = &builtin_registry()});
  const std::vector<double> x = values_of(in, 0), y = values_of(in, 1);
  // n is derived first and p reads it: p == (-x) * y.
  apply_input_assumptions(g, assumptions({"n == neg(x)", "p == mul.Tensor(n, y)"}), in,
                          builtin_registry());
  const std::vector<double> n = values_of(in, 2), p = values_of(in, 3);
  ASSERT_EQ(n.size(), x.size());
  ASSERT_EQ(std::get<Tensor>(in.values[3].v).shape(), std::get<Tensor>(in.values[0].v).shape());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(n[i], -x[i]) << i;
    EXPECT_FLOAT_EQ(static_cast<float>(p[i]), static_cast<float>(-x[i] * y[i])) << i;
  }
}

TEST(ApplyInputAssumptions, NoAssumptionsChangeNothing) {
  const Graph g = graph_with_inputs("x: \"f32[4]\", r: \"f32[4]\"");
  RandomInputs in = random_inputs(g, 2, {.registry = &builtin_registry()});
  const std::vector<double> r = values_of(in, 1);
  apply_input_assumptions(g, {}, in, builtin_registry());
  EXPECT_EQ(values_of(in, 1), r);
}

Error apply_error(const std::string& signature, const char* text) {
  const Graph g = graph_with_inputs(signature);
  RandomInputs in = random_inputs(g, 1, {.registry = &builtin_registry()});
  try {
    apply_input_assumptions(g, assumptions({text}), in, builtin_registry());
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text << " on " << signature;
  return Error("none");
}

TEST(ApplyInputAssumptions, AnInputTheGraphLacksIsAnErrorAtTheAssumption) {
  Error derived = apply_error("x: \"f32[4]\", r: \"f32[4]\"", "q == reciprocal(x)");
  EXPECT_THAT(derived.what(),
              HasSubstr("assumption 'q == reciprocal(x)': the graph has no input 'q'"));
  EXPECT_EQ(derived.loc().line, 7);
  Error source = apply_error("x: \"f32[4]\", r: \"f32[4]\"", "r == reciprocal(scale)");
  EXPECT_THAT(source.what(),
              HasSubstr("assumption 'r == reciprocal(scale)': the graph has no input 'scale'"));
}

TEST(ApplyInputAssumptions, AResultOfAnotherTypeIsAnError) {
  // dtype: reciprocal of an f32 is no f16.
  EXPECT_THAT(apply_error("x: \"f32[4]\", r: \"f16[4]\"", "r == reciprocal(x)").what(),
              HasSubstr("assumption 'r == reciprocal(x)': the op's result does not have the type "
                        "of input 'r'"));
  // shape: of a [4] is no [2].
  EXPECT_THAT(apply_error("x: \"f32[4]\", r: \"f32[2]\"", "r == neg(x)").what(),
              HasSubstr("does not have the type of input 'r'"));
  // kind: a tensor never replaces a SymInt input (the sizes are bound to its value).
  const Graph sym = load_builtin(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, s0: \"Sym(s0)\", x: \"f32[s0]\"):\n"
      "        add = torch.ops.aten.add.Tensor(x, s0)\n"
      "        return (add,)\n",
      "sym.fx");
  RandomInputs in = random_inputs(sym, 1, {.registry = &builtin_registry()});
  EXPECT_THROW(
      {
        try {
          apply_input_assumptions(sym, assumptions({"s0 == neg(x)"}), in, builtin_registry());
        } catch (const Error& e) {
          EXPECT_THAT(e.what(), HasSubstr("does not have the type of input 's0'"));
          throw;
        }
      },
      Error);
  EXPECT_TRUE(in.values.at(0).is_int());  // left as drawn
}

// x * r == x / s only when r == 1 / s: equivalent() draws r so when told, and
// reports the difference otherwise; given inputs are used as they are.
TEST(EquivalenceAssumptions, RandomDrawsHoldTheAssumptions) {
  const char* sig = R"(x: "f32[s0, 8]", s: "f32[8]", r: "f32[8]")";
  const Graph mul = load_builtin(std::string("class GraphModule(torch.nn.Module):\n"
                                             "    def forward(self, ") +
                                     sig +
                                     "):\n"
                                     "        mul = torch.ops.aten.mul.Tensor(x, r)\n"
                                     "        return (mul,)\n",
                                 "mul.fx");
  const Graph div = load_builtin(std::string("class GraphModule(torch.nn.Module):\n"
                                             "    def forward(self, ") +
                                     sig +
                                     "):\n"
                                     "        div = torch.ops.aten.div.Tensor(x, s)\n"
                                     "        return (div,)\n",
                                 "div.fx");
  EquivalenceOptions eo;
  eo.trials = 3;
  eo.seed = 17;
  eo.mode = ToleranceMode::Rounding;
  EquivalenceResult free = equivalent(mul, div, builtin_registry(), eo);
  EXPECT_FALSE(free.ok);
  EXPECT_THAT(free.first_mismatch, HasSubstr("differs"));
  eo.assumptions = assumptions({"r == reciprocal(s)"});
  EquivalenceResult held = equivalent(mul, div, builtin_registry(), eo);
  EXPECT_TRUE(held.ok) << held.first_mismatch;
  EXPECT_EQ(held.trials_run, 3);
  // Given inputs are not rewritten: the free draw of seed 17 still differs.
  RandomInputs given = random_inputs(mul, 17, {.registry = &builtin_registry()});
  eo.given_inputs = &given;
  EXPECT_FALSE(equivalent(mul, div, builtin_registry(), eo).ok);
}

}  // namespace
}  // namespace eqfuse
