// ctest-label: golden
// `eqfuse explain` and the explanation report (pipeline/explain/report.hpp,
// pipeline/explain/html.hpp) on the bundled examples and the fusion
// scenarios: the reason text for each kind of "no" (intermediate used
// elsewhere, a failed condition, mode exclusion, cross-stream), the
// chosen fusions' replaced nodes, cost comparison and proof, the JSON keys
// and the HTML page.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "graph/io/load.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "pipeline/presets.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/explain_fixture.hpp"
#include "tests/support/html_checks.hpp"

namespace eqfuse {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing_support::expect_self_contained;
using testing_support::run_eqfuse;
using testing_support::tags_balanced;

using testing_support::Explained;

Explained explain_file(const std::string& rel_path, ExecMode mode = ExecMode::ReduceOverhead) {
  return testing_support::explain_source_file(rel_path, mode);
}

std::string scenario(const std::string& file) {
  return "tests/scenarios/fusion/" + file;
}

const UnchosenFusion* find_unchosen(const ExplainReport& rep, const std::string& rule) {
  for (const UnchosenFusion& u : rep.not_chosen)
    if (u.rule == rule) return &u;
  return nullptr;
}

const RejectedMatch* find_rejected(const ExplainReport& rep, const std::string& rule) {
  for (const RejectedMatch& m : rep.rejected)
    if (m.rule == rule) return &m;
  return nullptr;
}

// ---- chosen fusions ---------------------------------------------------------

TEST(ExplainChosen, AddRmsNormQuantReplacesBothKernelsAndShowsCostsSideBySide) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  const ChosenFusion* f = nullptr;
  for (const ChosenFusion& c : e.report.chosen)
    if (c.op == "npu::npu_add_rms_norm_quant") f = &c;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->rule, "torchair/add-rms-norm-quant");
  EXPECT_THAT(f->replaces, Contains("npu_add_rms_norm"));
  EXPECT_THAT(f->replaces, Contains("npu_quantize"));
  EXPECT_EQ(f->replaced_kernels, (std::vector<std::string>{"npu_add_rms_norm", "npu_quantize"}));
  // Two unfused kernels pay two launches and two fixed costs; one fused pays one.
  EXPECT_EQ(f->unfused.kernels, 2u);
  EXPECT_DOUBLE_EQ(f->unfused.launch_us, 2 * f->cost.launch_us);
  EXPECT_DOUBLE_EQ(f->unfused.fixed_us, 2 * f->cost.fixed_us);
  // The unfused side is the input graph's own cost of those two kernels.
  double input_total = 0;
  for (const NodeCost& nc : e.result.before.nodes) {
    const std::string& name = e.input.node(nc.node).name;
    if (name == "npu_add_rms_norm" || name == "npu_quantize") input_total += nc.cost.total_us;
  }
  EXPECT_DOUBLE_EQ(f->unfused.total_us, input_total);
  EXPECT_LT(f->cost.total_us, f->unfused.total_us);
}

// A site fused by an `assumption` rule names the input relation it relies on, in the
// text and JSON reports; other sites name none.
TEST(ExplainChosen, ASiteFusedUnderAnAssumptionNamesTheAssumedInputs) {
  OptimizeOptions opt;
  apply_preset(opt, "vllm-ascend");
  Explained e = testing_support::explain_source_file(
      scenario("V26_add_rms_norm_bias_quantize_vllm_ascend_preset.fx"), opt);
  ASSERT_EQ(e.report.chosen.size(), 1u);
  const ChosenFusion& f = e.report.chosen[0];
  EXPECT_EQ(f.rule, "vllm/add-rms-norm-bias-quantize-scale");
  EXPECT_EQ(f.assumes, std::vector<std::string>{"arg5_1 == reciprocal(arg4_1)"});
  EXPECT_THAT(format_explanation_text(e.report),
              HasSubstr("    assumes arg5_1 == reciprocal(arg4_1) (a relation of the inputs the "
                        "graph cannot show)\n"));
  const auto j = nlohmann::json::parse(explanation_to_json(e.report));
  EXPECT_EQ(j["chosen"][0]["assumes"], nlohmann::json::array({"arg5_1 == reciprocal(arg4_1)"}));
  // The HTML site card and the output graph's note on the fused node say it too.
  EXPECT_THAT(explanation_to_html(e.report, e.input, e.result.graph),
              HasSubstr("assumes <code>arg5_1 == reciprocal(arg4_1)</code>"));
  annotate_fusions(e.result, testing_support::builtin_registry());
  const std::optional<NodeRef> fused = e.result.graph.find(f.node);
  ASSERT_TRUE(fused.has_value());
  EXPECT_THAT(e.result.graph.node(*fused).meta.note,
              HasSubstr("fuses npu_add_rms_norm_bias, getitem, getitem_2, quantize, assuming "
                        "arg5_1 == reciprocal(arg4_1)"));

  Explained plain = explain_file("examples/deepseek_layer.fx");
  ASSERT_FALSE(plain.report.chosen.empty());
  for (const ChosenFusion& c : plain.report.chosen) EXPECT_TRUE(c.assumes.empty()) << c.rule;
  EXPECT_THAT(format_explanation_text(plain.report), ::testing::Not(HasSubstr("    assumes ")));
}

const char* const kBmmTranspose = "torchair/bmm-transpose";
const char* const kPermX1 = "torchair/transpose-batchmatmul-perm-x1";

// The base name of the last proof step made by a fusion rule (the step that
// built the fused kernel; later steps only respell its inputs), or "".
std::string last_fusion_step(const ExplainReport& rep, const ChosenFusion& f) {
  for (auto s = f.proof.rbegin(); s != f.proof.rend(); ++s) {
    std::string rule = s->rule.substr(0, s->rule.find_first_of(" @"));
    for (const RuleRunStats& r : rep.rules)
      if (r.rule == rule && r.fusion) return rule;
  }
  return "";
}

TEST(ExplainChosen, EveryChosenFusionHasAProofEndingInItsRule) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  ASSERT_GE(e.report.chosen.size(), 4u);
  for (const ChosenFusion& f : e.report.chosen) {
    ASSERT_GE(f.proof.size(), 2u) << f.node << ": " << f.proof_note;
    EXPECT_TRUE(f.proof.front().rule.empty());
    std::string short_op = f.op.substr(f.op.find("::") + 2);
    EXPECT_THAT(f.proof.back().term, HasSubstr(short_op)) << f.node;
    EXPECT_THAT(f.proof.front().term, ::testing::Not(HasSubstr(short_op + " "))) << f.node;
    // The rule credited with the kernel (the one that created its e-node)
    // is the proof's fusing step.
    EXPECT_EQ(last_fusion_step(e.report, f), f.rule) << f.node;
  }
}

// Two rules make npu_transpose_batchmatmul; in the DeepSeek layer one
// kernel comes from each (the first absorbs a transposed input as perm_x1
// [1, 0, 2]). The rule column names the rule that created each kernel.
TEST(ExplainChosen, DeepSeekTransposeBatchmatmulsNameTheRuleThatMadeEach) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  std::multiset<std::string> rules;
  for (const ChosenFusion& f : e.report.chosen) rules.insert(f.rule);
  EXPECT_EQ(rules,
            (std::multiset<std::string>{"npu/swiglu-dynamic-quant", "torchair/add-rms-norm-cast",
                                        "torchair/add-rms-norm-dynamic-quant",
                                        "torchair/add-rms-norm-quant", kBmmTranspose, kPermX1}));
  for (const RuleRunStats& s : e.report.rules)
    if (s.rule == kBmmTranspose || s.rule == kPermX1) {
      EXPECT_EQ(s.chosen, 1u) << s.rule;
    }
}

// D3: transpose -> bmm -> transpose. bmm-transpose builds the perm_x1
// [0, 1, 2] kernel first; the perm_x1 rule turns it into the chosen
// [1, 0, 2] one, which is credited to the perm_x1 rule everywhere.
TEST(ExplainChosen, PermX1KernelIsCreditedToThePermX1Rule) {
  Explained e = explain_file(scenario("D3_transpose_bmm_transpose_perm_x1.fx"));
  ASSERT_EQ(e.report.chosen.size(), 1u);
  const ChosenFusion& f = e.report.chosen[0];
  EXPECT_EQ(f.op, "npu::npu_transpose_batchmatmul");
  EXPECT_EQ(f.rule, kPermX1);
  EXPECT_EQ(last_fusion_step(e.report, f), kPermX1);
  bool by_bmm_transpose = false;  // the proof still shows the first step
  for (const ProofStep& s : f.proof) by_bmm_transpose |= s.rule == kBmmTranspose;
  EXPECT_TRUE(by_bmm_transpose);
  for (const RuleRunStats& s : e.report.rules) {
    if (s.rule == kPermX1) {
      EXPECT_EQ(s.chosen, 1u);
      EXPECT_TRUE(s.fusion);
    }
    if (s.rule == kBmmTranspose) {
      EXPECT_EQ(s.chosen, 0u);
    }
  }
  auto j = nlohmann::json::parse(explanation_to_json(e.report));
  EXPECT_EQ(j["chosen"][0]["rule"], kPermX1);
  EXPECT_THAT(format_explanation_text(e.report),
              HasSubstr("npu_transpose_batchmatmul = npu::npu_transpose_batchmatmul by " +
                        std::string(kPermX1)));
}

// A rule that moves an elementwise op under a view (relu(view(addmm)) =>
// view(npu_fused_matmul)) leaves no input node holding the fused value itself: the view
// on top of it holds relu's. The fused kernel still replaces addmm, the view and relu,
// and the output's note says so.
TEST(ExplainChosen, AFusionUnderAViewReplacesTheNodesTheViewHolds) {
  OptimizeOptions opt;
  opt.rules.enable = {"ascend950"};
  const std::string path = scenario("M24_matmul_elem_linear_3d_view.fx");
  Explained e = testing_support::explain_text(
      read_file_or_stdin(std::string(EQFUSE_SOURCE_DIR) + "/" + path), path, opt);
  std::set<std::string> relu_site;
  for (const ChosenFusion& f : e.report.chosen)
    if (f.rule == "mindspore/matmul-elem-bias-relu-view")
      relu_site.insert(f.replaces.begin(), f.replaces.end());
  EXPECT_EQ(relu_site, (std::set<std::string>{"addmm_1", "view_3", "relu"}));
  testing_support::CliRun r = run_eqfuse("optimize " + std::string(EQFUSE_SOURCE_DIR) + "/" + path +
                                         " --enable-rule ascend950");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("# eqfuse: mindspore/matmul-elem-bias-relu-view fuses addmm_1, "
                               "view_3, relu"));
}

TEST(ExplainChosen, FusedNodesAreNamedAsInTheOutputGraph) {
  Explained e = explain_file("examples/matmul_transpose.fx");
  ASSERT_EQ(e.report.chosen.size(), 1u);
  const ChosenFusion& f = e.report.chosen[0];
  EXPECT_EQ(f.op, "npu::npu_transpose_batchmatmul");
  bool found = false;
  for (const Node& n : e.result.graph.nodes()) found |= n.name == f.node && n.target == f.op;
  EXPECT_TRUE(found) << f.node;
  EXPECT_THAT(f.replaced_kernels, Contains("bmm"));
}

// ---- possible but not chosen -------------------------------------------------

TEST(ExplainNotChosen, YUsedElsewhereKeepsTheUnfusedAddRmsNorm) {  // A5
  Explained e = explain_file(scenario("A5_add_rms_norm_dynamic_quant_y_used_elsewhere.fx"));
  const UnchosenFusion* u = find_unchosen(e.report, "torchair/add-rms-norm-dynamic-quant");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, "intermediate_used_elsewhere");
  EXPECT_EQ(u->used_by, "mul");
  EXPECT_THAT(u->reason, HasSubstr("is also used by mul"));
  EXPECT_THAT(u->reason, HasSubstr("npu_add_rms_norm must still run"));
  ASSERT_EQ(u->must_still_run.size(), 1u);
  // The fused total is the fused kernel plus the unfused add_rms_norm that
  // stays; it must not beat the unfused pair (else the extractor erred).
  EXPECT_GE(u->fused_total_us, u->unfused_us - 1e-3);
}

TEST(ExplainNotChosen, ReturnedRstdIsAnIntermediateUsedElsewhere) {  // A6
  Explained e = explain_file(scenario("A6_add_rms_norm_dynamic_quant_rstd_used.fx"));
  const UnchosenFusion* u = find_unchosen(e.report, "torchair/add-rms-norm-dynamic-quant");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, "intermediate_used_elsewhere");
  EXPECT_EQ(u->intermediate, "npu_add_rms_norm");
  EXPECT_THAT(u->reason, HasSubstr("fused total"));
  EXPECT_THAT(u->reason, HasSubstr("us vs unfused"));
}

TEST(ExplainNotChosen, ReturnedBmmIsUsedByTheGraphOutput) {  // D12
  Explained e = explain_file(scenario("D12_bmm_transpose_bmm_used_elsewhere.fx"));
  const UnchosenFusion* u = find_unchosen(e.report, "torchair/bmm-transpose");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, "intermediate_used_elsewhere");
  EXPECT_EQ(u->intermediate, "bmm");
  EXPECT_THAT(u->reason, HasSubstr("also used by the graph output, so the unfused bmm"));
}

// ---- pass order ---------------------------------------------------------------

// P1 (vLLM PR #42411 style): mul + add could become vllm.muls_add, but the add
// is also the x1 + x2 of add_rms_norm + dynamic_quant. A first-come pipeline
// that runs MulsAddFusionPass first is left with 3 kernels (muls_add,
// npu_rms_norm, npu_dynamic_quant); eqfuse keeps the mul and fuses the rest
// (2 kernels), and explain says why muls_add lost, with the numbers.
TEST(ExplainPassOrder, MulsAddLosesToTheCheaperAddRmsNormDynamicQuant) {
  const std::string file = scenario("P1_muls_add_vs_add_rms_norm_dynamic_quant.fx");
  Explained e = explain_file(file);
  ASSERT_EQ(e.report.chosen.size(), 1u);
  const ChosenFusion& f = e.report.chosen[0];
  EXPECT_EQ(f.op, "npu::npu_add_rms_norm_dynamic_quant");
  EXPECT_EQ(f.rule, "torchair/add-rms-norm-dynamic-quant");
  EXPECT_EQ(f.replaced_kernels,
            (std::vector<std::string>{"add", "npu_rms_norm", "npu_dynamic_quant"}));
  bool via_add_rms_norm = false;  // the add + rms_norm step comes from MindSpore's rule
  for (const ProofStep& s : f.proof)
    via_add_rms_norm |= s.rule.starts_with("mindspore/add-rms-norm");
  EXPECT_TRUE(via_add_rms_norm);
  EXPECT_EQ(testing_support::count_calls(e.result.graph, "aten::mul.Tensor"), 1);
  EXPECT_EQ(testing_support::count_calls(e.result.graph, "vllm::muls_add"), 0);
  EXPECT_EQ(e.result.stats.kernels_after, 2u);

  const UnchosenFusion* u = find_unchosen(e.report, "vllm/muls-add");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->op, "vllm::muls_add");
  EXPECT_EQ(u->for_node, "add");
  // The mul and the fused kernel would still run next to muls_add.
  EXPECT_THAT(u->kind, ::testing::AnyOf("intermediate_used_elsewhere", "costs_more"));
  EXPECT_GT(u->fused_total_us, u->unfused_us);
  // What keeps running is itself the chosen fusion: said so, with both totals.
  EXPECT_THAT(u->reason, HasSubstr("the chosen npu_add_rms_norm_dynamic_quant is also used by"));
  EXPECT_THAT(u->reason, HasSubstr(fmt::format("{:.2f} us with muls_add vs {:.2f} us as chosen",
                                               u->fused_total_us, u->unfused_us)));
  const std::string text = format_explanation_text(e.report);
  EXPECT_THAT(text,
              HasSubstr("npu_add_rms_norm_dynamic_quant = npu::npu_add_rms_norm_dynamic_quant "
                        "by torchair/add-rms-norm-dynamic-quant"));
  EXPECT_THAT(text, HasSubstr("muls_add not used for add"));

  // The first-come outcome, forced by turning the chosen fusion off: muls_add
  // fuses, rms_norm and dynamic_quant stay, one kernel more and slower.
  OptimizeOptions first_come;
  first_come.rules.disable = {"torchair/add-rms-norm-dynamic-quant"};
  Explained fc = testing_support::explain_source_file(file, first_come);
  EXPECT_EQ(testing_support::count_calls(fc.result.graph, "vllm::muls_add"), 1);
  EXPECT_EQ(testing_support::count_calls(fc.result.graph, "npu::npu_rms_norm"), 1);
  EXPECT_EQ(testing_support::count_calls(fc.result.graph, "npu::npu_dynamic_quant"), 1);
  EXPECT_EQ(fc.result.stats.kernels_after, 3u);
  EXPECT_LT(e.result.stats.cost_after_us, fc.result.stats.cost_after_us);
  // There, npu_add_rms_norm is possible but not chosen: taking it would also
  // need the mul that muls_add absorbed, which the fused side must count (it
  // once read "costs more: 6.89 us vs 13.11 us").
  const UnchosenFusion* arn = find_unchosen(fc.report, "mindspore/add-rms-norm");
  ASSERT_NE(arn, nullptr);
  EXPECT_GT(arn->fused_total_us, arn->unfused_us);
}

// ---- rejected by a condition ------------------------------------------------

// The text lists fusion rules' refusals under "rejected by a condition" and
// the layout rules' routine ones apart, so they do not bury the fusions.
TEST(ExplainRejected, LayoutRefusalsAreListedApartFromFusionRefusals) {
  std::string layer = format_explanation_text(explain_file("examples/deepseek_layer.fx").report);
  // The layer's fusion refusals: the residual adds after its quantized matmuls
  // are not a 1-D bias (MindSpore's qbmm+add needs one).
  EXPECT_THAT(layer, HasSubstr("rejected by a condition:\n  mindspore/quant-matmul-bias rejected "
                               "at getitem_18: `bias.rank == 1"));
  EXPECT_THAT(layer, HasSubstr("(bias.rank = 2)\nlayout and other rules refused by a condition:\n"
                               "  layout/noop-view rejected at view:"));
  std::string e12 =
      format_explanation_text(explain_file(scenario("E12_misaligned_tail.fx")).report);
  EXPECT_THAT(e12,
              HasSubstr("rejected by a condition:\n  torchair/add-rms-norm-quant rejected at "));
}

TEST(ExplainRejected, MisalignedTailNamesTheConditionAndTheBytes) {  // E12
  Explained e = explain_file(scenario("E12_misaligned_tail.fx"));
  const RejectedMatch* m = find_rejected(e.report, "torchair/add-rms-norm-quant");
  ASSERT_NE(m, nullptr);
  EXPECT_THAT(m->condition, HasSubstr("x2.shape[-1] * x2.itemsize % 32 == 0"));
  EXPECT_THAT(m->detail, HasSubstr("6 != 0"));
  EXPECT_THAT(m->detail, HasSubstr("x2.shape[-1] = 3"));
  EXPECT_THAT(rejection_sentence(*m), HasSubstr("torchair/add-rms-norm-quant rejected at "));
}

TEST(ExplainRejected, BmmTransposeKNotMultipleOf128) {  // D7
  Explained e = explain_file(scenario("D7_bmm_transpose_k_not_multiple_of_128.fx"));
  const RejectedMatch* m = find_rejected(e.report, "torchair/bmm-transpose");
  ASSERT_NE(m, nullptr);
  EXPECT_THAT(m->condition, HasSubstr("x1.shape[2] % 128 == 0"));
  EXPECT_THAT(m->detail, HasSubstr("x1.shape[2] = 120"));
  EXPECT_EQ(m->at, "transpose");
}

// One failed condition per fusion rule family that has conditions: (d) fp64,
// (e) zero points / quantize dtype / gamma shape / symbolic tail.
TEST(ExplainRejected, EachConditionScenarioReportsItsRule) {
  struct Case {
    const char* file;
    const char* rule;
    const char* detail;
  };
  for (const Case& c :
       {Case{"D8_bmm_transpose_n_not_multiple_of_128.fx", "torchair/bmm-transpose", "x2.shape[2]"},
        Case{"D11_bmm_transpose_fp64.fx", "torchair/bmm-transpose", "float64"},
        Case{"E9_quantize_to_int32.fx", "torchair/add-rms-norm-quant", "int32"},
        Case{"E15_gamma_shape_differs_from_scales.fx", "torchair/add-rms-norm-quant", "shape"}}) {
    Explained e = explain_file(scenario(c.file));
    const RejectedMatch* m = find_rejected(e.report, c.rule);
    ASSERT_NE(m, nullptr) << c.file;
    EXPECT_THAT(m->detail + m->condition, HasSubstr(c.detail)) << c.file;
  }
}

// ---- mode exclusion and cross-stream ------------------------------------------

TEST(ExplainRulesOff, MaxAutotuneExcludesBmmTranspose) {  // D13
  Explained e = explain_file(scenario("D13_bmm_transpose_max_autotune.fx"), ExecMode::MaxAutotune);
  std::string text = format_explanation_text(e.report);
  EXPECT_THAT(text, HasSubstr("rules off:\n"));
  EXPECT_THAT(text, HasSubstr("excluded in max-autotune (GE) mode, as in TorchAir: "));
  EXPECT_THAT(text, HasSubstr("torchair/bmm-transpose"));
  // Rules off for one reason share a line: the opt-in matmul epilogues are one.
  EXPECT_THAT(text,
              HasSubstr("opt-in rule (enable with --enable-rule): mindspore/matmul-elem-relu, "
                        "mindspore/matmul-elem-bias-relu,"));
  EXPECT_TRUE(e.report.chosen.empty());
}

TEST(ExplainCrossStream, DynamicQuantOnAnotherStreamIsANearMiss) {  // S2
  Explained e = explain_file(scenario("S2_dynamic_quant_on_other_stream.fx"));
  ASSERT_EQ(e.report.cross_stream.size(), 1u);
  const CrossStreamNearMiss& c = e.report.cross_stream[0];
  EXPECT_EQ(c.rule, "torchair/add-rms-norm-dynamic-quant");
  EXPECT_EQ(c.producer_stream, "");
  EXPECT_EQ(c.consumer_stream, "2");
  EXPECT_THAT(cross_stream_sentence(c),
              HasSubstr("runs on the default stream and npu_dynamic_quant on stream '2'"));
}

TEST(ExplainCrossStream, SingleStreamGraphHasNone) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  EXPECT_TRUE(e.report.cross_stream.empty());
}

// ---- JSON ----------------------------------------------------------------------

TEST(ExplainJson, StableKeysAndDeterministic) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  std::string text = explanation_to_json(e.report);
  EXPECT_EQ(text, explanation_to_json(explain_file("examples/deepseek_layer.fx").report));
  auto j = nlohmann::json::parse(text);
  for (const char* key : {"mode", "device", "cost_before_us", "cost_after_us", "chosen",
                          "not_chosen", "rejected", "cross_stream", "rules"})
    EXPECT_TRUE(j.contains(key)) << key;
  ASSERT_FALSE(j["chosen"].empty());
  for (const char* key : {"rule", "node", "op", "replaces", "replaced_kernels", "fused", "unfused",
                          "proof", "proof_note"})
    EXPECT_TRUE(j["chosen"][0].contains(key)) << key;
  ASSERT_FALSE(j["not_chosen"].empty());
  for (const char* key : {"rule", "op", "for", "kind", "intermediate", "used_by", "must_still_run",
                          "fused_total_us", "unfused_us", "reason"})
    EXPECT_TRUE(j["not_chosen"][0].contains(key)) << key;
}

// ---- HTML ----------------------------------------------------------------------

TEST(ExplainHtml, PageIsBalancedSelfContainedAndLinksEachFusion) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  HtmlOptions opt;
  opt.use_dot = false;
  std::string html = explanation_to_html(e.report, e.input, e.result.graph, opt);
  std::string why;
  EXPECT_TRUE(tags_balanced(html, why)) << why;
  expect_self_contained(html);
  EXPECT_THAT(html, HasSubstr("Graphviz rendering is turned off, so the graph is shown as DOT"));
  for (size_t i = 0; i < e.report.chosen.size(); ++i) {
    EXPECT_THAT(html, HasSubstr(fmt::format("id=\"fusion-{}\"", i)));
    EXPECT_THAT(html, HasSubstr(fmt::format("URL=&quot;#fusion-{}&quot;", i)));
    EXPECT_THAT(html, HasSubstr(e.report.chosen[i].node));
  }
  EXPECT_THAT(html, HasSubstr("<h2>Possible but not chosen</h2>"));
}

// A stand-in `dot` on PATH: the page must inline its SVG without the XML prolog.
TEST(ExplainHtml, InlinesSvgFromDotWhenOnPath) {
  namespace fs = std::filesystem;
  fs::path dir = testing_support::scratch_dir("fakedot");
  fs::path dot = dir / "dot";
  std::ofstream(dot)
      << "#!/bin/sh\ncat >/dev/null <\"$2\"\n"
         "printf '<?xml version=\"1.0\"?>\\n<svg width=\"1\"><g "
         "class=\"fake\"><a xlink:href=\"#fusion-0\"><text>x</text></a></g></svg>\\n'\n";
  fs::permissions(dot, fs::perms::owner_all);
  std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  std::optional<std::string> svg = render_dot_svg("digraph { a -> b }");
  Explained e = explain_file("examples/matmul_transpose.fx");
  std::string html = explanation_to_html(e.report, e.input, e.result.graph);
  ::setenv("PATH", old_path.c_str(), 1);
  ASSERT_TRUE(svg.has_value());
  EXPECT_TRUE(svg->starts_with("<svg"));
  EXPECT_THAT(html, HasSubstr("<g class=\"fake\">"));
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  std::string why;
  EXPECT_TRUE(tags_balanced(html, why)) << why;
  expect_self_contained(html);
}

TEST(ExplainDot, HighlightsLinkedNodes) {
  Explained e = explain_file("examples/matmul_transpose.fx");
  std::string dot =
      graph_to_dot(e.result.graph,
                   {{e.report.chosen.at(0).node, {"#fusion-0", Highlight::Fusion}},
                    {e.result.graph.nodes().front().name, {"#reinplace-0", Highlight::Reinplace}}},
                   "after");
  EXPECT_THAT(dot, HasSubstr("digraph \"after\""));
  EXPECT_THAT(dot, HasSubstr("fillcolor=\"#f5b041\", URL=\"#fusion-0\""));
  // Each kind has its own fill.
  EXPECT_THAT(dot, HasSubstr("fillcolor=\"#85c1e9\", URL=\"#reinplace-0\""));
}

// ---- CLI -----------------------------------------------------------------------

TEST(ExplainCli, FormatsAndOutputFile) {
  auto text = run_eqfuse("explain examples/matmul_transpose.fx");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("chosen fusions:"));
  EXPECT_THAT(text.out, HasSubstr("proof:"));
  auto json = run_eqfuse("explain examples/matmul_transpose.fx --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["chosen"].size(), 1u);
  std::filesystem::path out = testing_support::scratch_dir() / "report.html";
  auto html = run_eqfuse("explain examples/matmul_transpose.fx --format html -o " + out.string());
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_THAT(testing_support::slurp_file(out), HasSubstr("<h1>eqfuse explain</h1>"));
  auto mode = run_eqfuse(
      "explain tests/scenarios/fusion/D13_bmm_transpose_max_autotune.fx --mode max-autotune");
  ASSERT_EQ(mode.exit_code, 0) << mode.err;
  EXPECT_THAT(mode.out, HasSubstr("excluded in max-autotune"));
  EXPECT_EQ(run_eqfuse("explain examples/matmul_transpose.fx --format pdf").exit_code, 2);
}

}  // namespace
}  // namespace eqfuse
