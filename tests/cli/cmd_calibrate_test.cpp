// ctest-label: golden
// `eqfuse calibrate` as users run it: the real H100 rows with skipped-row
// notes, whole-graph comparison and leave-one-graph-out, a profiler export
// joined to its graph, the HTML report, and bad input (exit 2).
#include <cstdlib>
#include <filesystem>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using testing_support::run_eqfuse;
using testing_support::scratch_dir;
using testing_support::slurp_file;
using testing_support::write_scratch;

constexpr const char* kData = "tests/data/measurements/h100";

TEST(CalibrateCli, RealRowsAreUsedOrSkippedWithANote) {
  auto out = scratch_dir("calibrate") / "fit.json";
  auto r = run_eqfuse(fmt::format("calibrate --measurements {}/node_times.csv --device h100 -o {}",
                                  kData, out.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("from 200 measurements (46 skipped)"));
  EXPECT_THAT(r.out, HasSubstr("note: skipped 46 row(s): op launches no kernel and was timed in a "
                               "graph mode"));
  EXPECT_THAT(r.out, HasSubstr("fit quality on the training rows"));
  auto profile = nlohmann::json::parse(slurp_file(out));
  EXPECT_GT(profile["params"]["host_us.eager"]["value"].get<double>(), 5);
  // The old spelling still works.
  auto old = run_eqfuse(fmt::format("calibrate --profile {}/node_times.csv --device h100", kData));
  EXPECT_EQ(old.exit_code, 0) << old.err;
}

TEST(CalibrateCli, WholeGraphsAndLeaveOneGraphOutAndReport) {
  auto html = scratch_dir("calibrate") / "report.html";
  auto r = run_eqfuse(
      fmt::format("calibrate --measurements {0}/node_times.csv --device h100 --whole-graph "
                  "{0}/whole_graph_times.json --leave-one-graph-out --report {1}",
                  kData, html.string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("whole graphs:"));
  EXPECT_THAT(r.out, HasSubstr("leave-one-graph-out"));
  EXPECT_THAT(r.out, HasSubstr("host_node_us.eager"));
  std::string page = slurp_file(html);
  EXPECT_THAT(page, HasSubstr("<svg"));
  EXPECT_THAT(page, HasSubstr("Leave one graph out"));
  auto needs = run_eqfuse(
      fmt::format("calibrate --measurements {}/node_times.csv --leave-one-graph-out", kData));
  EXPECT_EQ(needs.exit_code, 2);
  EXPECT_THAT(needs.err, HasSubstr("needs --whole-graph"));
}

TEST(CalibrateCli, ProfilerExportJoinedToItsGraph) {
  auto r = run_eqfuse(
      "calibrate --measurements tests/data/profiles/block_trace.json --graph "
      "tests/data/profiles/block.fx --device h100");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("read as torch-trace"));
  auto no_graph =
      run_eqfuse("calibrate --measurements tests/data/profiles/block_trace.json --device h100");
  EXPECT_EQ(no_graph.exit_code, 2);
  EXPECT_THAT(no_graph.err, HasSubstr("--graph"));
  auto validate = run_eqfuse(
      fmt::format("calibrate --measurements {0}/node_times.csv --device h100 --validate "
                  "tests/data/profiles/block_key_averages.txt --graph tests/data/profiles/block.fx",
                  kData));
  ASSERT_EQ(validate.exit_code, 0) << validate.err;
  EXPECT_THAT(validate.out, HasSubstr("validation rows (not seen by the fit)"));
}

TEST(CalibrateCli, BadInputExitsTwo) {
  auto not_profile = write_scratch("nothing.txt", "hello\nworld\n");
  auto r = run_eqfuse(fmt::format("calibrate --measurements {}", not_profile.string()));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("nothing.txt"));
  auto negative =
      write_scratch("neg.csv", "op,inputs,mode,measured_us\naten::add.Tensor,f32[4],eager,-3\n");
  auto n = run_eqfuse(fmt::format("calibrate --measurements {}", negative.string()));
  EXPECT_EQ(n.exit_code, 2);
  EXPECT_THAT(n.err, HasSubstr("neg.csv:2:"));
  auto timings = write_scratch("t.json", R"({"graphs": {"missing.fx": [{"eager_us": 3}]}})");
  auto t = run_eqfuse(fmt::format("calibrate --measurements {}/node_times.csv --whole-graph {}",
                                  kData, timings.string()));
  EXPECT_EQ(t.exit_code, 2);
  EXPECT_THAT(t.err, HasSubstr("graphs.missing.fx"));
}

}  // namespace
}  // namespace eqfuse
