// ctest-label: golden
// `eqfuse extract FILE.json [--extractor NAME|all] [--time-limit S]` as users
// see it: one JSON line per extractor with the known optima of
// extraction-gym's dummy examples, and exit code 2 with a clear message for
// bad files, unknown extractors and e-graphs without an acyclic extraction.
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/cli_runner.hpp"

namespace {

using eqfuse::testing_support::CliRun;
using eqfuse::testing_support::run_eqfuse;
using eqfuse::testing_support::write_scratch;
using ::testing::HasSubstr;

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

const std::string kDummy = std::string(EQFUSE_TEST_DATA) + "/extraction-gym/dummy_examples/";

TEST(ExtractCli, AllExtractorsOnLoopFindTheOnlyAcyclicAnswer) {
  CliRun r = run_eqfuse("extract " + kDummy + "loop.json --extractor all --time-limit 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 5u);
  const std::vector<std::string> names = {"bottom-up", "greedy-dag", "faster-greedy-dag", "ilp",
                                          "auto"};
  for (size_t i = 0; i < lines.size(); ++i) {
    const auto& j = lines[i];
    EXPECT_EQ(j["file"], kDummy + "loop.json");
    EXPECT_EQ(j["extractor"], names[i]);
    EXPECT_EQ(j["tree_cost"], 5.0);
    EXPECT_EQ(j["dag_cost"], 5.0);
    EXPECT_TRUE(j["micros"].is_number_integer());
    EXPECT_GE(j["micros"].get<long long>(), 0);
    EXPECT_EQ(j["valid"], true);
  }
}

TEST(ExtractCli, KeysComeInTheDocumentedOrder) {
  CliRun r = run_eqfuse("extract " + kDummy + "ab_add.json --extractor greedy-dag");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::MatchesRegex(
                         "\\{\"file\":\"[^\"]*ab_add.json\",\"extractor\":\"greedy-dag\","
                         "\"tree_cost\":35.0,\"dag_cost\":7.0,\"micros\":[0-9]+,"
                         "\"valid\":true,\"optimal\":false,\"lower_bound\":0.0,"
                         "\"gap\":1.0\\}\n"));
}

TEST(ExtractCli, SeveralExtractorsByNameAndTheExactOptimum) {
  CliRun r = run_eqfuse("extract " + kDummy + "choice.json --extractor tree,ilp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0]["extractor"], "tree");
  EXPECT_EQ(lines[0]["dag_cost"], 52.0);  // tree cost picks g everywhere
  EXPECT_EQ(lines[1]["extractor"], "ilp");
  EXPECT_EQ(lines[1]["dag_cost"], 37.0);
  EXPECT_EQ(lines[1]["optimal"], true);
}

TEST(ExtractCli, MissingFileIsExit2) {
  CliRun r = run_eqfuse("extract no/such/file.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no/such/file.json"));
}

TEST(ExtractCli, MalformedJsonIsExit2WithAPosition) {
  auto bad = write_scratch("bad.json", "{\"nodes\": {\"a\": {\"op\": \"x\",, }}}\n");
  CliRun r = run_eqfuse("extract " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("bad.json:1:"));
}

TEST(ExtractCli, UnknownChildIsExit2NamingTheNode) {
  auto bad = write_scratch("dangling.json", R"({"nodes": {"a": {"op": "f", "children": ["zz"],
    "eclass": "c", "cost": 1.0}}, "root_eclasses": ["c"]})");
  CliRun r = run_eqfuse("extract " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("dangling.json"));
  EXPECT_THAT(r.err, HasSubstr("zz"));
}

TEST(ExtractCli, NoAcyclicExtractionIsExit2AfterTheReport) {
  auto loop = write_scratch("self.json", R"({"nodes": {"a": {"op": "f", "children": ["a"],
    "eclass": "c", "cost": 1.0}}, "root_eclasses": ["c"]})");
  CliRun r = run_eqfuse("extract " + loop.string() + " --extractor bottom-up");
  EXPECT_EQ(r.exit_code, 2);
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["valid"], false);
  EXPECT_EQ(lines[0]["dag_cost"], "inf");
  EXPECT_THAT(lines[0]["error"].get<std::string>(), HasSubstr("no acyclic extraction"));
  EXPECT_THAT(r.err, HasSubstr("extractor 'bottom-up'"));
}

TEST(ExtractCli, BadOptionsAreExit2) {
  EXPECT_EQ(run_eqfuse("extract " + kDummy + "loop.json --extractor annealing").exit_code, 2);
  EXPECT_EQ(run_eqfuse("extract " + kDummy + "loop.json --time-limit 0").exit_code, 2);
  EXPECT_EQ(run_eqfuse("extract").exit_code, 2);
  CliRun help = run_eqfuse("extract --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--extractor"));
  EXPECT_THAT(help.out, HasSubstr("--time-limit"));
}

}  // namespace
