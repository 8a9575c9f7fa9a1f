// ctest-label: golden
// `eqfuse check`: given inputs (--inputs), structural comparison of ops
// without a kernel, and the inputs it refuses (exit 2, naming what is wrong).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::run_eqfuse;
using testing_support::write_scratch;

std::string graph_file(const std::string& name, const std::string& signature,
                       const std::string& body) {
  return write_scratch(name, "class GraphModule(torch.nn.Module):\n    def forward(self, " +
                                 signature + "):\n" + body)
      .string();
}

const char* kMulBody = R"(        out: "f32[s0, 2]" = torch.ops.aten.mul.Tensor(x, x)
        return (out,)
)";
const char* kAddBody = R"(        out: "f32[s0, 2]" = torch.ops.aten.add.Tensor(x, x)
        return (out,)
)";

TEST(CheckCli, GivenInputsDecideAndAreNamedInTheVerdict) {
  const std::string mul = graph_file("mul.fx", "x: \"f32[s0, 2]\"", kMulBody);
  const std::string add = graph_file("add.fx", "x: \"f32[s0, 2]\"", kAddBody);
  // x*x == x+x exactly where x is 0 or 2: these inputs cannot tell them apart...
  const std::string twos = write_scratch("twos.json", R"({"x": {"data": [[2, 0]]}})").string();
  testing_support::CliRun same =
      run_eqfuse(fmt::format("check '{}' '{}' --inputs '{}'", mul, add, twos));
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_THAT(same.out, HasSubstr("equivalent: 1 trial"));
  // ...these can, and the message says the given inputs were used.
  const std::string threes = write_scratch("threes.json", R"([{"data": [[3, 1]]}])").string();
  testing_support::CliRun differ =
      run_eqfuse(fmt::format("check '{}' '{}' --inputs '{}'", mul, add, threes));
  EXPECT_EQ(differ.exit_code, 1) << differ.err;
  EXPECT_THAT(differ.out, HasSubstr("differs at [0, 0]: 9 vs 6"));
  EXPECT_THAT(differ.out, HasSubstr("(given inputs)"));
}

TEST(CheckCli, BadInputsFilesAreErrorsNamingTheInput) {
  const std::string mul = graph_file("mul.fx", "x: \"f32[s0, 2]\"", kMulBody);
  const std::string wrong_dtype =
      write_scratch("i.json", R"({"x": {"dtype": "i64", "data": [[1, 2]]}})").string();
  testing_support::CliRun r =
      run_eqfuse(fmt::format("check '{0}' '{0}' --inputs '{1}'", mul, wrong_dtype));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("input 'x': dtype i64 but the graph declares f32"));
  const std::string wrong_shape = write_scratch("s.json", R"({"x": {"data": [1, 2]}})").string();
  r = run_eqfuse(fmt::format("check '{0}' '{0}' --inputs '{1}'", mul, wrong_shape));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("input 'x': shape [2] does not match the declared [s0, 2]"));
  r = run_eqfuse(fmt::format("check '{0}' '{0}' --inputs missing.json", mul));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("missing.json"));
  r = run_eqfuse(fmt::format("check '{0}' '{0}' --inputs '{1}' --bind s0=2", mul, wrong_shape));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--bind and --inputs"));
}

TEST(CheckCli, DifferentSignaturesAreErrorsNamingTheInput) {
  const std::string a = graph_file("a.fx", "x: \"f32[s0, 2]\"", kMulBody);
  const std::string b = graph_file("b.fx", "x: \"f32[s0, 3]\"",
                                   R"(        out: "f32[s0, 3]" = torch.ops.aten.mul.Tensor(x, x)
        return (out,)
)");
  testing_support::CliRun r = run_eqfuse(fmt::format("check '{}' '{}'", a, b));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err,
              HasSubstr("input 0 has different types: 'x' is f32[s0, 2] but 'x' is f32[s0, 3]"));
  const std::string c = graph_file("c.fx", "x: \"f32[s0, 2]\", y: \"f32[s0, 2]\"", kMulBody);
  r = run_eqfuse(fmt::format("check '{}' '{}'", a, c));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("different numbers of inputs (1 vs 2)"));
}

const char* kMysteryBody = R"(        h: "f32[s0, 2]" = torch.ops.aten.mul.Tensor(x, x)
        m: "f32[s0, 2]" = torch.ops.mylib.mystery.default(h)
        return (m,)
)";

TEST(CheckCli, OpsWithoutKernelsAreComparedStructurallyOrRefusedInStrictMode) {
  const std::string a = graph_file("m.fx", "x: \"f32[s0, 2]\"", kMysteryBody);
  testing_support::CliRun r = run_eqfuse(fmt::format("check '{0}' '{0}'", a));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("compared structurally (no reference kernel: same op on "
                               "equivalent inputs): mylib::mystery x1"));
  const std::string b = graph_file("m2.fx", "x: \"f32[s0, 2]\"",
                                   R"(        h: "f32[s0, 2]" = torch.ops.aten.add.Tensor(x, x)
        m: "f32[s0, 2]" = torch.ops.mylib.mystery.default(h)
        return (m,)
)");
  r = run_eqfuse(fmt::format("check '{}' '{}'", a, b));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("no call of the first graph takes the inputs of node 'm' "
                               "(mylib::mystery)"));
  r = run_eqfuse(fmt::format("check '{0}' '{0}' --mode strict", a));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("node 'm': 'mylib::mystery' has no reference kernel"));
}

// Fuzz finding: a size `(2^63-1)*s0` with --bind s0=2 was reported as a small
// negative size; it leaves int64, and the error names the input and the binding.
TEST(CheckCli, BindingsWhoseSizesLeaveInt64AreErrors) {
  std::string g = graph_file("overflow_bind.fx", "x: \"i8[9223372036854775807*s0]\"",
                             "        out: \"i8[9223372036854775807*s0]\" = "
                             "torch.ops.aten.mul.Tensor(x, x)\n        return (out,)\n");
  auto r = run_eqfuse("check " + g + " " + g + " --bind s0=2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("input 'x': symbolic size '9223372036854775807*s0' with s0=2 does "
                               "not fit in 63 bits"));
  EXPECT_THAT(r.err, Not(HasSubstr("evaluates to -")));
  // A type whose bytes leave int64 for every s0 is rejected when the graph is read.
  std::string f16 = graph_file("overflow_bind_f16.fx", "x: \"f16[9223372036854775807*s0]\"",
                               "        return (x,)\n");
  auto t = run_eqfuse("check " + f16 + " " + f16 + " --bind s0=1");
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_THAT(t.err, HasSubstr("size of input 'x' f16[9223372036854775807*s0] does not fit in 63 "
                               "bits"));
}

// `check --assume "X == op(Y)"`: inputs are drawn so that they hold the relation that
// `optimize` printed as `assumed`. V26 fused under --preset vllm-ascend divides by the
// scale where the input multiplies by scale_reciprocal: equal only when that holds.
TEST(CheckCli, AssumeDrawsInputsThatHoldTheOptimizersAssumption) {
  const std::string in =
      "tests/scenarios/fusion/V26_add_rms_norm_bias_quantize_vllm_ascend_preset.fx";
  const std::string out = write_scratch("v26_fused.fx", "").string();
  testing_support::CliRun opt =
      run_eqfuse(fmt::format("optimize {} --preset vllm-ascend -o '{}'", in, out));
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  ASSERT_THAT(opt.err, HasSubstr("assumed      arg5_1 == reciprocal(arg4_1)"));

  testing_support::CliRun free =
      run_eqfuse(fmt::format("check {} '{}' --mode rounding --seed 5", in, out));
  EXPECT_EQ(free.exit_code, 1) << free.out << free.err;
  EXPECT_THAT(free.out, HasSubstr("not equivalent"));
  testing_support::CliRun held = run_eqfuse(fmt::format(
      "check {} '{}' --mode rounding --seed 5 --assume 'arg5_1 == reciprocal(arg4_1)'", in, out));
  EXPECT_EQ(held.exit_code, 0) << held.out << held.err;
  EXPECT_THAT(held.out, HasSubstr("equivalent: 3 trials"));
  // The FX target spelling is the same assumption.
  testing_support::CliRun fx =
      run_eqfuse(fmt::format("check {} '{}' --mode rounding --seed 5 --assume "
                             "'arg5_1 == torch.ops.aten.reciprocal.default(arg4_1)'",
                             in, out));
  EXPECT_EQ(fx.exit_code, 0) << fx.out << fx.err;
}

TEST(CheckCli, BadAssumptionsAreErrorsNamingTheFault) {
  const std::string a = graph_file("a.fx", "x: \"f32[s0, 2]\", r: \"f32[s0, 2]\"", kMulBody);
  struct Case {
    const char* assume;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"r = reciprocal(x)",
            "--assume:1:3: error: assumption 'r = reciprocal(x)': expected "
            "`==` after the input name"},
           {"r == frobnicate(x)", "unknown op 'aten::frobnicate'"},
           {"scale == reciprocal(x)", "the graph has no input 'scale'"},
           {"r == reciprocal(r)", "'r' is defined in terms of itself"},
       }) {
    testing_support::CliRun r =
        run_eqfuse(fmt::format("check '{0}' '{0}' --assume '{1}'", a, c.assume));
    EXPECT_EQ(r.exit_code, 2) << c.assume;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.assume;
  }
  // A tensor never stands in for a SymInt input.
  const std::string sym = graph_file("sym.fx", "s0: \"Sym(s0)\", x: \"f32[s0, 2]\"", kMulBody);
  testing_support::CliRun k =
      run_eqfuse(fmt::format("check '{0}' '{0}' --assume 's0 == neg(x)'", sym));
  EXPECT_EQ(k.exit_code, 2) << k.out;
  EXPECT_THAT(k.err, HasSubstr("does not have the type of input 's0'"));
  // Given inputs are used as they are: the two options do not combine.
  const std::string values =
      write_scratch("xr.json", R"({"x": {"data": [[1, 2]]}, "r": {"data": [[3, 4]]}})").string();
  testing_support::CliRun both = run_eqfuse(
      fmt::format("check '{0}' '{0}' --assume 'r == reciprocal(x)' --inputs '{1}'", a, values));
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_THAT(both.err, HasSubstr("--assume and --inputs both given"));
}

// --world-size: the make_fx trace of a TP-4 layer against its optimized form, as a
// simulated group of four ranks (docs/tensor-parallel.md).
TEST(CheckCli, TensorParallelGraphsAreCheckedOnEverySimulatedRank) {
  const std::string layer = std::string(EQFUSE_TEST_DATA) + "/tp/mlp_allreduce_norm_tp4.fx";
  const std::string optimized = write_scratch("tp_opt.fx", "").string();
  testing_support::CliRun opt =
      run_eqfuse(fmt::format("optimize '{}' -o '{}' -q", layer, optimized));
  ASSERT_EQ(opt.exit_code, 0) << opt.err;
  testing_support::CliRun tp = run_eqfuse(fmt::format(
      "check '{}' '{}' --world-size 4 --replicated residual_1,gamma_1", layer, optimized));
  EXPECT_EQ(tp.exit_code, 0) << tp.out << tp.err;
  EXPECT_THAT(tp.out, HasSubstr("equivalent: 3 trials on 4 ranks"));
  // The graph gathers over 4 ranks: a simulated group of 2 is an error naming the node.
  testing_support::CliRun two =
      run_eqfuse(fmt::format("check '{}' '{}' --world-size 2", layer, optimized));
  EXPECT_EQ(two.exit_code, 2) << two.out;
  EXPECT_THAT(two.err, HasSubstr("'all_gather_into_tensor'"));
  EXPECT_THAT(two.err, HasSubstr("group_size is 4, but the simulated group has 2 ranks"));
  testing_support::CliRun alone =
      run_eqfuse(fmt::format("check '{}' '{}' --replicated x_1", layer, optimized));
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_THAT(alone.err, HasSubstr("give --world-size above 1"));
}

// A rewrite that is right on one rank and wrong across ranks: all_reduce(x) is 4x
// only when every rank holds the same x.
TEST(CheckCli, TensorParallelMismatchNamesTheRank) {
  const std::string sum = graph_file(
      "ar.fx", "x: \"f32[2, 2]\"",
      R"(        a: "f32[2, 2]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        return (a,)
)");
  const std::string times4 = graph_file("x4.fx", "x: \"f32[2, 2]\"",
                                        R"(        a: "f32[2, 2]" = torch.ops.aten.mul.Tensor(x, 4)
        return (a,)
)");
  testing_support::CliRun differs =
      run_eqfuse(fmt::format("check '{}' '{}' --world-size 4", sum, times4));
  EXPECT_EQ(differs.exit_code, 1) << differs.out << differs.err;
  EXPECT_THAT(differs.out, HasSubstr("not equivalent: rank 0: output 0"));
  testing_support::CliRun replicated =
      run_eqfuse(fmt::format("check '{}' '{}' --world-size 4 --replicated x", sum, times4));
  EXPECT_EQ(replicated.exit_code, 0) << replicated.out << replicated.err;
}

}  // namespace
}  // namespace eqfuse
