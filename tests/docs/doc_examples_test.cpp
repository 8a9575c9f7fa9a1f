// The usage examples at the top of the public headers, compiled and run.
// Each function below is the header's example verbatim (plus the context it
// assumes, declared first); when a header's example changes, change it here
// too: a header example that no longer compiles fails this test's build.
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
  OpRegistry reg = OpRegistry::with_builtin_ops();
  LoadedGraph in = load_graph(text, "layer.fx", reg);
  OptimizeOptions opt;                        // defaults: default rules, ascend910b2,
  opt.rules.mode = ExecMode::ReduceOverhead;  //   reduce-overhead, extractor auto
  OptimizeResult r = optimize_graph(in.graph, reg, opt);
  out << print_fx(r.graph, &reg);
  err << format_summary(r.stats);
  return extraction_quality(r.stats);
}

// rewrites/rule.hpp
size_t rule_library_example(const OpRegistry& reg, EGraph& g, const std::string& my_rules) {
  RuleLibrary lib = RuleLibrary::builtin(reg);            // rewrites/library/*.rules
  lib.load_text(read_file_or_stdin(my_rules), my_rules);  // user rules
  const std::vector<std::string> streams{"", "stream2"};  // "" = the default stream
  CompiledRules rules = lib.compile(RuleConfig{}, streams, nullptr);
  Runner(g).run(rules.rewrites);
  return rules.rewrites.size();
}

// rewrites/config.hpp
RuleToggle config_example(const RuleDef& rule) {
  RuleConfig cfg;                                           // defaults: fusion on, reduce-overhead
  cfg.mode = ExecMode::MaxAutotune;                         // GE: rules labelled `no-ge` excluded
  cfg.disable.push_back("torchair/bmm-transpose");          // a rule name or a label
  cfg.enable.push_back("opt-in");                           // opt-in rules by name or label
  RuleToggle t = rule_toggle(rule.name, rule.labels, cfg);  // t.enabled, t.reason
  return t;
}

// rewrites/register_replacement.hpp
bool register_replacement_example(const OpRegistry& reg) {
  RuleLibrary lib = RuleLibrary::builtin(reg);
  auto search = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    Arg add = b.call("aten::add.Tensor", {in[0], in[1]});
    return {b.call("aten::relu", {add})};
  };
  auto replace = [](GraphBuilder& b, std::span<const Arg> in) -> std::vector<Arg> {
    return {b.call("aten::relu", {b.call("aten::add.Tensor", {in[1], in[0]})})};
  };
  const std::vector<ExampleInput> examples{{"a", parse_annotation("f16[8, 64]"), {}},
                                           {"b", parse_annotation("f16[8, 64]"), {}}};
  return register_replacement(lib, search, replace, examples,
                              {.name = "user/add-relu-commuted", .where = {"a.shape == b.shape"}});
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
