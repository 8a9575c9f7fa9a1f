// ctest-label: golden
// The reinplace passes keep their alias analysis current incrementally
// (AliasAnalysis::update) instead of rebuilding it after every rewrite. That
// is safe only if the kept analysis answers exactly like a fresh one after
// each rewrite: ReinplaceOptions::check_alias_analysis compares the two after
// every rewrite and throws on the first difference. This runs that check on
// every reinplace scenario, every example and the largest FX dump, with
// TorchAir's per-node stream policy (so multi-stream graphs are rewritten
// too) and the scenarios' custom ops.
#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "passes/reinplace.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

const fs::path kSource(EQFUSE_SOURCE_DIR);

std::vector<fs::path> files_in(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const fs::directory_entry& e : fs::directory_iterator(dir))
    if (e.path().extension() == extension) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

struct Setup {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  ReinplaceOptions options;
};

Setup setup() {
  Setup s;
  const std::string config = (kSource / "tests/scenarios/reinplace/custom_ops.json").string();
  apply_reinplace_config_json(s.options, s.reg, read_file_or_stdin(config), config);
  s.options.multi_stream = MultiStreamPolicy::PerNode;
  return s;
}

// Runs both passes with the check on; returns how many decisions succeeded
// (each one a rewrite the check followed). The check must not change the result.
size_t check_file(const fs::path& path, bool may_fail_to_load) {
  Setup s = setup();
  Graph g;
  try {
    g = load_graph(read_file_or_stdin(path.string()), path.string(), s.reg).graph;
  } catch (const std::exception& e) {
    if (!may_fail_to_load) ADD_FAILURE() << path << ": " << e.what();
    return 0;
  }
  const ReinplaceResult plain = reinplace(g, s.reg, s.options);
  s.options.check_alias_analysis = true;
  try {
    const ReinplaceResult checked = reinplace(g, s.reg, s.options);
    EXPECT_EQ(print_fx(checked.graph, &s.reg), print_fx(plain.graph, &s.reg)) << path;
    EXPECT_EQ(checked.log.lines(), plain.log.lines()) << path;
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << path << ": " << e.what();
  }
  return plain.log.successes();
}

TEST(ReinplaceIncremental, ScenariosAndExamples) {
  size_t rewrites = 0, files = 0;
  for (const fs::path& p : files_in(kSource / "tests/scenarios/reinplace", ".fx")) {
    rewrites += check_file(p, false);
    ++files;
  }
  for (const fs::path& p : files_in(kSource / "examples", ".fx")) {
    rewrites += check_file(p, false);
    ++files;
  }
  EXPECT_GE(files, 40u);
  EXPECT_GE(rewrites, 40u);  // the check followed real rewrites, not none
}

// The largest dump (5,465 nodes, 252 ops reinplaced), the one the passes
// were profiled on.
TEST(ReinplaceIncremental, LargestFxDump) {
  const fs::path dump = fs::path(EQFUSE_TEST_DATA) / "fx-dumps/learn-torch-compile_7.txt";
  if (!fs::exists(dump)) GTEST_SKIP() << dump << " is not there";
  EXPECT_EQ(check_file(dump, false), 252u);
}

// Every dump that loads (1,931 rewrites in all). A fresh analysis per
// rewrite makes this the slowest golden test (~5 s), which the suite can
// afford for the invariant behind the incremental analysis.
TEST(ReinplaceIncremental, EveryFxDump) {
  const std::vector<fs::path> dumps = files_in(fs::path(EQFUSE_TEST_DATA) / "fx-dumps", ".txt");
  if (dumps.empty()) GTEST_SKIP() << "tests/data/fx-dumps is not there";
  size_t rewrites = 0;
  for (const fs::path& p : dumps) rewrites += check_file(p, true);
  EXPECT_GE(rewrites, 1931u);
}

}  // namespace
}  // namespace eqfuse
