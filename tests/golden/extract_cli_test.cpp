// `eqfuse extract FILE.json [--extractor NAME|all] [--time-limit S]` as users
// see it: one JSON line per extractor with the known optima of
// extraction-gym's dummy examples, and exit code 2 with a clear message for
// bad files, unknown extractors and e-graphs without an acyclic extraction.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct CliRun {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path scratch_dir() {
  // One directory per process, so ctest -j runs do not share files.
  fs::path dir =
      fs::path(::testing::TempDir()) / ("eqfuse_extract_cli_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

fs::path write_temp(const std::string& name, const std::string& text) {
  fs::path p = scratch_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

// Runs `eqfuse <args>` from the source directory.
CliRun eqfuse(const std::string& args) {
  fs::path dir = scratch_dir();
  std::string cmd =
      fmt::format("cd '{}' && '{}' {} < /dev/null > '{}' 2> '{}'", EQFUSE_SOURCE_DIR, EQFUSE_BINARY,
                  args, (dir / "out.txt").string(), (dir / "err.txt").string());
  int status = std::system(cmd.c_str());
  CliRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(dir / "out.txt");
  r.err = slurp(dir / "err.txt");
  return r;
}

std::vector<nlohmann::json> json_lines(const std::string& text) {
  std::vector<nlohmann::json> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

const std::string kDummy = "../shared/extraction-gym/dummy_examples/";

TEST(ExtractCli, AllExtractorsOnLoopFindTheOnlyAcyclicAnswer) {
  CliRun r = eqfuse("extract " + kDummy + "loop.json --extractor all --time-limit 5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 4u);
  const std::vector<std::string> names = {"bottom-up", "greedy-dag", "ilp", "auto"};
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
  CliRun r = eqfuse("extract " + kDummy + "ab_add.json --extractor greedy-dag");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::MatchesRegex(
                         "\\{\"file\":\"[^\"]*ab_add.json\",\"extractor\":\"greedy-dag\","
                         "\"tree_cost\":35.0,\"dag_cost\":7.0,\"micros\":[0-9]+,"
                         "\"valid\":true,\"optimal\":false\\}\n"));
}

TEST(ExtractCli, SeveralExtractorsByNameAndTheExactOptimum) {
  CliRun r = eqfuse("extract " + kDummy + "choice.json --extractor tree,ilp");
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
  CliRun r = eqfuse("extract no/such/file.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no/such/file.json"));
}

TEST(ExtractCli, MalformedJsonIsExit2WithAPosition) {
  fs::path bad = write_temp("bad.json", "{\"nodes\": {\"a\": {\"op\": \"x\",, }}}\n");
  CliRun r = eqfuse("extract " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("bad.json:1:"));
}

TEST(ExtractCli, UnknownChildIsExit2NamingTheNode) {
  fs::path bad = write_temp("dangling.json", R"({"nodes": {"a": {"op": "f", "children": ["zz"],
    "eclass": "c", "cost": 1.0}}, "root_eclasses": ["c"]})");
  CliRun r = eqfuse("extract " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("dangling.json"));
  EXPECT_THAT(r.err, HasSubstr("zz"));
}

TEST(ExtractCli, NoAcyclicExtractionIsExit2AfterTheReport) {
  fs::path loop = write_temp("self.json", R"({"nodes": {"a": {"op": "f", "children": ["a"],
    "eclass": "c", "cost": 1.0}}, "root_eclasses": ["c"]})");
  CliRun r = eqfuse("extract " + loop.string() + " --extractor bottom-up");
  EXPECT_EQ(r.exit_code, 2);
  auto lines = json_lines(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["valid"], false);
  EXPECT_EQ(lines[0]["dag_cost"], "inf");
  EXPECT_THAT(lines[0]["error"].get<std::string>(), HasSubstr("no acyclic extraction"));
  EXPECT_THAT(r.err, HasSubstr("extractor 'bottom-up'"));
}

TEST(ExtractCli, BadOptionsAreExit2) {
  EXPECT_EQ(eqfuse("extract " + kDummy + "loop.json --extractor annealing").exit_code, 2);
  EXPECT_EQ(eqfuse("extract " + kDummy + "loop.json --time-limit 0").exit_code, 2);
  EXPECT_EQ(eqfuse("extract").exit_code, 2);
  CliRun help = eqfuse("extract --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("--extractor"));
  EXPECT_THAT(help.out, HasSubstr("--time-limit"));
}

}  // namespace
