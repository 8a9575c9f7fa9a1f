// The usage examples at the top of the public headers, compiled and run.
// Each example is included from the header's own comment text
// (doc_examples/<header>.inc, extracted at build time by
// tests/docs/extract_doc_example.cmake), inside a function that declares what
// it assumes (its parameters) and returns what it made: an example that no
// longer compiles fails this test's build, with the header's line in the error.
#include <iostream>
#include <span>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "egraph/runner.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "pipeline/optimize.hpp"
#include "rewrites/config.hpp"
#include "rewrites/register_replacement.hpp"
#include "rewrites/rule.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

const std::string kLayer = std::string(EQFUSE_SOURCE_DIR) + "/examples/deepseek_layer.fx";

// pipeline/optimize.hpp
std::string optimize_example(const std::string& text, std::ostream& out, std::ostream& err) {
#include "doc_examples/pipeline_optimize.inc"
  return extraction_quality(r.stats);
}

// rewrites/rule.hpp
size_t rule_library_example(const OpRegistry& reg, EGraph& g, const std::string& my_rules) {
#include "doc_examples/rewrites_rule.inc"
  return rules.rewrites.size();
}

// rewrites/config.hpp
RuleToggle config_example(const RuleDef& rule) {
#include "doc_examples/rewrites_config.inc"
  return t;
}

// rewrites/register_replacement.hpp
bool register_replacement_example(const OpRegistry& reg) {
#include "doc_examples/rewrites_register_replacement.inc"
  return lib.find("user/add-relu-commuted") != nullptr;
}

TEST(DocExamples, OptimizeHeader) {
  std::ostringstream out, err;
  const std::string quality = optimize_example(read_file_or_stdin(kLayer), out, err);
  EXPECT_NE(out.str().find("npu_add_rms_norm_dynamic_quant"), std::string::npos);
  EXPECT_NE(err.str().find("kernels"), std::string::npos);
  EXPECT_EQ(quality, "proven optimal");
}

TEST(DocExamples, RuleHeader) {
  const OpRegistry& reg = testing_support::builtin_registry();
  TensorAnalysis types(reg);
  EGraph g(&types);
  load_into_egraph(load_graph(read_file_or_stdin(kLayer), "layer.fx", reg).graph, reg, g);
  g.rebuild();
  const std::string rules = std::string(EQFUSE_SOURCE_DIR) + "/examples/doc_example.rules";
  EXPECT_GT(rule_library_example(reg, g, rules), 0u);
}

TEST(DocExamples, ConfigHeader) {
  const OpRegistry& reg = testing_support::builtin_registry();
  const RuleLibrary lib = RuleLibrary::builtin(reg);
  const RuleToggle t = config_example(*lib.find("torchair/add-rms-norm-quant"));
  EXPECT_FALSE(t.enabled);  // labelled no-ge, and the example compiles for max-autotune
  EXPECT_TRUE(config_example(*lib.find("torchair/add-rms-norm-dynamic-quant")).enabled);
}

TEST(DocExamples, RegisterReplacementHeader) {
  EXPECT_TRUE(register_replacement_example(testing_support::builtin_registry()));
}

}  // namespace
}  // namespace eqfuse
