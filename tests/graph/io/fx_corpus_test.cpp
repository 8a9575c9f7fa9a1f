// ctest-label: golden
// Walks every dump in tests/data/fx-dumps/ (see tests/data/README.md and SOURCES.md there).
// aten/prims/npu-level graphs must parse and round-trip through the printer
// (raw, and after resolve_ops with the printer's normalized form);
// Dynamo-level graphs and the tabular dump must fail with the documented
// error. Every file in the folder must have an entry in kExpectations, so a
// new dump cannot be silently skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

struct Expectation {
  // Empty: must parse. Otherwise a substring of the expected error.
  std::string error;
  int error_line = 0;
  // Facts checked on parsed graphs (-1: not checked).
  int nodes = -1;
  int placeholders = -1;
  int output_values = -1;
  std::string graph_name;
};

// Node counts include placeholders and the output node.
const std::map<std::string, Expectation>& expectations() {
  static const std::map<std::string, Expectation> kExpectations = {
      // Dynamo-level: `l_cloned_inputs_0_ = L_cloned_inputs_0_` alias, module calls.
      {"learn-torch-compile_1.txt", {"Dynamo-level graph", 6, -1, -1, -1, ""}},
      {"learn-torch-compile_2.txt", {"", 0, 540, 123, 123, "GraphModule"}},
      {"learn-torch-compile_3.txt", {"", 0, 565, 123, 62, "GraphModule"}},
      // Joint graph: 124 placeholders from the fx_pytree.tree_flatten_spec unpack
      // (forward's `primals, tangents` are pytree containers, not inputs).
      {"learn-torch-compile_4.txt", {"", 0, 1001, 124, 63, "GraphModule"}},
      {"learn-torch-compile_5.txt", {"", 0, 10, 2, 1, "GraphModule"}},
      {"learn-torch-compile_6.txt", {"", 0, 2234, 261, 445, "GraphModule"}},
      {"learn-torch-compile_7.txt", {"", 0, 5465, 195, 1, "GraphModule"}},
      {"packt-pytorch2_1.txt", {"", 0, 27, 9, 13, "GraphModule"}},
      // Three graphs in one log: only the first (the joint graph) is read.
      {"packt-pytorch2_2.txt", {"", 0, 58, 10, 9, "traced_joint"}},
      {"packt-pytorch2_3.txt", {"", 0, 1931, 321, 1, "<lambda>"}},
      {"packt-pytorch2_4.txt", {"tabular print_tabular() dump", 2, -1, -1, -1, ""}},
      {"pytorch-tests_1.txt", {"", 0, 31, 3, 1, "GraphModule"}},
      // Nested `class repeated_subgraph0` is not read; `self.repeated_subgraph0` is a get_attr.
      {"pytorch-tests_2.txt", {"", 0, 22, 2, 1, "<lambda>"}},
      {"pytorch-tests_3.txt", {"Dynamo-level graph", 3, -1, -1, -1, ""}},
      {"pytorch-tests_4.txt", {"", 0, 10, 3, 1, "GraphModule"}},
      {"pytorch-tests_5.txt", {"", 0, 24, 2, 9, "GraphModule"}},
      {"pytorch-tests_6.txt", {"", 0, 7, 2, 0, "GraphModule"}},
      {"pytorch-tests_7.txt", {"", 0, 13, 2, 2, "f"}},
      {"pytorch-tests_8.txt", {"", 0, 28, 2, 0, "GraphModule"}},
      {"torchair-docs_1.txt", {"", 0, 9, 4, 2, "GraphModule"}},
      {"torchair-docs_2.txt", {"", 0, 12, 4, 2, "GraphModule"}},
      {"torchair-docs_3.txt", {"", 0, 10, 5, 3, "GraphModule"}},
      {"torchair-tests_1.txt", {"", 0, 9, 1, 1, "f"}},
      {"torchair-tests_2.txt", {"", 0, 11, 1, 1, "f"}},
      {"triton-data_1.txt", {"", 0, 792, 151, 1, "<lambda>"}},
      {"vllm-ascend-issue-4239_1.txt", {"", 0, 73, 26, 6, "GraphModule"}},
      {"vllm-ascend-issue-4239_2.txt", {"", 0, 74, 26, 6, "GraphModule"}},
  };
  return kExpectations;
}

fs::path dump_dir() {
  return fs::path(EQFUSE_TEST_DATA) / "fx-dumps";
}

std::vector<std::string> dump_files() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dump_dir()))
    if (e.path().extension() == ".txt") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Index of the first node where the graphs differ, for readable failures.
std::string first_difference(const Graph& a, const Graph& b) {
  if (a.size() != b.size()) return fmt::format("sizes {} vs {}", a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    const Node& x = a.nodes()[i];
    const Node& y = b.nodes()[i];
    if (x.name != y.name || x.target != y.target || x.args != y.args || x.kwargs != y.kwargs ||
        x.type != y.type || x.kind != y.kind || x.meta.stream != y.meta.stream)
      return fmt::format("node {} ('{}' vs '{}')", i, x.name, y.name);
  }
  return "none";
}

TEST(FxCorpus, EveryDumpHasAnExpectation) {
  const auto files = dump_files();
  ASSERT_GE(files.size(), 27u);
  for (const auto& f : files) EXPECT_TRUE(expectations().contains(f)) << f << " has no expectation";
  for (const auto& [f, e] : expectations())
    EXPECT_TRUE(std::find(files.begin(), files.end(), f) != files.end()) << f << " is missing";
}

class FxCorpusFile : public ::testing::TestWithParam<std::string> {};

TEST_P(FxCorpusFile, ParsesOrFailsAsDocumented) {
  const std::string name = GetParam();
  const Expectation& want = expectations().at(name);
  const std::string text = read_file_or_stdin(dump_dir() / name);
  if (!want.error.empty()) {
    try {
      parse_fx(text, name);
      FAIL() << name << " parsed but should fail with: " << want.error;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(want.error), std::string::npos) << e.render();
      EXPECT_EQ(e.loc().file, name);
      EXPECT_EQ(e.loc().line, want.error_line) << e.render();
      EXPECT_FALSE(e.source_line().empty());
    }
    return;
  }
  Graph g;
  try {
    g = parse_fx(text, name);
  } catch (const Error& e) {
    FAIL() << e.render();
  }
  EXPECT_EQ(static_cast<int>(g.size()), want.nodes);
  EXPECT_EQ(static_cast<int>(g.placeholders().size()), want.placeholders);
  EXPECT_EQ(static_cast<int>(g.output_values().size()), want.output_values);
  EXPECT_EQ(g.name, want.graph_name);
  ASSERT_TRUE(g.output().has_value());
  EXPECT_EQ(*g.output(), NodeRef{static_cast<int32_t>(g.size() - 1)});
  for (const Node& n : g.nodes()) {
    EXPECT_TRUE(n.meta.loc.known()) << n.name;
    EXPECT_EQ(n.meta.loc.file, name);
  }

  const std::string printed = print_fx(g);
  Graph again = parse_fx(printed, name + " (printed)");
  EXPECT_TRUE(g == again) << "raw round trip differs at " << first_difference(g, again);
  // Printing is a fixed point after one round.
  EXPECT_EQ(print_fx(again), printed);
}

// After resolve_ops the printer writes torch's compact call form (defaults
// dropped); reading that back and resolving again gives the same graph.
class FxCorpusAtenFile : public ::testing::TestWithParam<std::string> {};

std::vector<std::string> aten_level_files() {
  std::vector<std::string> out;
  for (const auto& f : dump_files())
    if (expectations().contains(f) && expectations().at(f).error.empty()) out.push_back(f);
  return out;
}

TEST_P(FxCorpusAtenFile, NormalizedRoundTrip) {
  const std::string name = GetParam();
  const OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g = parse_fx(read_file_or_stdin(dump_dir() / name), name);
  try {
    resolve_ops(g, reg);
  } catch (const Error& e) {
    FAIL() << "resolve_ops rejects this dump: " << e.render();
  }
  const std::string printed = print_fx(g, &reg);
  Graph again = parse_fx(printed, name + " (printed)");
  resolve_ops(again, reg);
  EXPECT_TRUE(g == again) << "normalized round trip differs at " << first_difference(g, again);
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.size() - 4);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(AllDumps, FxCorpusFile, ::testing::ValuesIn(dump_files()), test_name);
INSTANTIATE_TEST_SUITE_P(AtenDumps, FxCorpusAtenFile, ::testing::ValuesIn(aten_level_files()),
                         test_name);

}  // namespace
}  // namespace eqfuse
