// ctest-label: golden
// Options every command shares (cli/cli_common.cpp): `--ops FILE` declares
// custom ops, so a .rules file whose replacement calls one works from the CLI.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::CliRun;
using testing_support::run_eqfuse;
using testing_support::write_scratch;

const char* kOps =
    "mylib::add_relu(Tensor self, Tensor other) -> Tensor | kind=elementwise "
    "meta=like:aten::add.Tensor\n";

const char* kRules = R"(rule user/add-relu =>
    labels: user, fusion
    description: add then relu is one custom kernel

    def search(a: "f16[4, 8]", b: "f16[4, 8]"):
        add = torch.ops.aten.add.Tensor(a, b)
        relu = torch.ops.aten.relu.default(add)
        return (relu,)

    def replace(a, b):
        fused = torch.ops.mylib.add_relu.default(a, b)
        return (fused,)
)";

const char* kGraph = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, 8]", y: "f16[8]"):
        add: "f16[s0, 8]" = torch.ops.aten.add.Tensor(x, y)
        relu: "f16[s0, 8]" = torch.ops.aten.relu.default(add)
        return (relu,)
)";

TEST(OpsOption, ACustomFusedOpDeclaredInTextIsUsedAndTyped) {
  const std::string ops = write_scratch("my.schemas", kOps).string();
  const std::string rules = write_scratch("my.rules", kRules).string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  const std::string out = write_scratch("out.fx", "").string();
  CliRun r = run_eqfuse(
      fmt::format("optimize '{}' --ops '{}' --rules '{}' -o '{}'", graph, ops, rules, out));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("user/add-relu x1"));
  // The fused call is typed by add's rule (broadcasting [s0, 8] with [8]).
  CliRun printed = run_eqfuse(fmt::format("print '{}' --ops '{}'", out, ops));
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  EXPECT_THAT(printed.out,
              HasSubstr("add_relu: \"f16[s0, 8]\" = torch.ops.mylib.add_relu.default(x, y)"));
  EXPECT_THAT(printed.err, Not(HasSubstr("without a schema")));

  CliRun listed = run_eqfuse(fmt::format("ops --ops '{}' --filter add_relu", ops));
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr("mylib::add_relu"));
  // Without the declaration the rule file cannot name the op.
  CliRun missing = run_eqfuse(fmt::format("optimize '{}' --rules '{}' -o '{}'", graph, rules, out));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("mylib::add_relu"));
}

// The config file can name the catalog too ("ops", relative to the config).
TEST(OpsOption, ConfigNamesTheCatalog) {
  write_scratch("cfg.schemas", kOps);
  const std::string config = write_scratch("ops_cfg.json", R"({"ops": "cfg.schemas"})").string();
  const std::string rules = write_scratch("my.rules", kRules).string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  CliRun r = run_eqfuse(
      fmt::format("optimize '{}' --config '{}' --rules '{}' -o /dev/null", graph, config, rules));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("user/add-relu x1"));
  const std::string bad = write_scratch("bad_cfg.json", R"({"ops": 3})").string();
  CliRun b = run_eqfuse(fmt::format("optimize '{}' --config '{}'", graph, bad));
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_THAT(b.err, HasSubstr("ops: expected an op catalog file"));
}

TEST(OpsOption, BadCatalogsAreErrorsAtTheirLine) {
  const std::string bad =
      write_scratch("bad.schemas", "mylib::f(Tensor x) -> Tensor | kind=other out0=y\n").string();
  const std::string graph = write_scratch("g.fx", kGraph).string();
  CliRun r = run_eqfuse(fmt::format("print '{}' --ops '{}'", graph, bad));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("bad.schemas:1:"));
  EXPECT_THAT(r.err, HasSubstr("no argument 'y'"));
}

}  // namespace
}  // namespace eqfuse
