// Shape buckets (pipeline/buckets.hpp): parsing the spec, one optimize run
// per bucket, decisions joined per site, and a flip the DeepSeek layer
// really has (its transpose + batch-matmul fusion needs two tokens or more).
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/load.hpp"
#include "pipeline/buckets.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::builtin_registry;
using testing_support::run_eqfuse;
using testing_support::slurp_file;

TEST(Buckets, ParseSortsAndDeduplicates) {
  BucketSpec s = parse_buckets("s0=256, 1,16,256");
  EXPECT_EQ(s.symbol, "s0");
  EXPECT_EQ(s.values, (std::vector<int64_t>{1, 16, 256}));
}

TEST(Buckets, BadSpecsAreErrors) {
  for (const char* bad : {"s0", "=1,2", "s0=", "s0=1,x", "s0=0,4", "s0=-3"}) {
    try {
      parse_buckets(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_THAT(std::string(e.what()), HasSubstr("--buckets")) << bad;
    }
  }
}

TEST(Buckets, DeepSeekTransposeFusionFlipsBetweenOneAndSixteenTokens) {
  const OpRegistry& reg = builtin_registry();
  Graph g = load_graph(slurp_file(std::string(EQFUSE_SOURCE_DIR) + "/examples/deepseek_layer.fx"),
                       "deepseek_layer.fx", reg)
                .graph;
  OptimizeOptions options;
  BucketReport rep = optimize_buckets(g, reg, options, parse_buckets("s0=1,16,4096"));
  ASSERT_EQ(rep.cost_after_us.size(), 3u);
  for (size_t b = 0; b < 3; ++b) EXPECT_LE(rep.cost_after_us[b], rep.cost_before_us[b]);
  bool flip = false, steady = false;
  for (const BucketDecision& d : rep.decisions) {
    if (d.rule == "torchair/transpose-batchmatmul-perm-x1" && d.flips()) {
      flip = true;
      EXPECT_EQ(d.chosen, (std::vector<char>{0, 1, 1}));
    }
    if (d.rule == "torchair/add-rms-norm-quant") {
      steady = true;
      EXPECT_FALSE(d.flips());
      EXPECT_EQ(d.chosen, (std::vector<char>{1, 1, 1}));
    }
  }
  EXPECT_TRUE(flip);
  EXPECT_TRUE(steady);
  std::string text = format_buckets(rep);
  EXPECT_THAT(text, HasSubstr("<- flips"));
  EXPECT_THAT(text, HasSubstr("decision(s) flip between buckets"));
}

TEST(Buckets, OptimizeCommandPrintsTheTable) {
  auto r = run_eqfuse("optimize examples/deepseek_layer.fx -o /dev/null --buckets s0=1,16");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("decisions per bucket of s0:"));
  EXPECT_THAT(r.err, HasSubstr("<- flips"));
  auto bad = run_eqfuse("optimize examples/deepseek_layer.fx --buckets s0=a");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("'a' is not a positive integer"));
}

// A bucket whose sizes leave int64 is an error naming the bucket and the tensor,
// before any optimizer run (was: UB in the cost model, absurd costs).
TEST(Buckets, BucketsWhoseSizesLeaveInt64AreErrors) {
  const OpRegistry& reg = builtin_registry();
  Graph g =
      load_graph(slurp_file(std::string(EQFUSE_SOURCE_DIR) + "/examples/add_rms_norm_cast.fx"),
                 "add_rms_norm_cast.fx", reg)
          .graph;
  BucketSpec spec = parse_buckets("s0=1,4611686018427387904");
  OptimizeOptions options;
  try {
    optimize_buckets(g, reg, options, spec);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("--buckets s0=4611686018427387904: size of input 'arg1_1' "
                                    "bf16[s0, 4096] with s0=4611686018427387904 does not fit in "
                                    "63 bits"));
  }
  EXPECT_NO_THROW(check_bucket_sizes(g, options.hints, parse_buckets("s0=1,1099511627776")));
  // The CLI checks the buckets before the plain optimization: no graph is written.
  auto r = run_eqfuse("optimize examples/add_rms_norm_cast.fx --buckets s0=1,4611686018427387904");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("add_rms_norm_cast.fx:2:"));
  EXPECT_THAT(r.err, HasSubstr("does not fit in 63 bits"));
}

}  // namespace
}  // namespace eqfuse
