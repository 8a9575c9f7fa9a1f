// ctest-label: golden
// The reinplace section of `eqfuse explain` (pipeline/explain/reinplace.hpp)
// on the reinplace scenarios (tests/scenarios/reinplace/), run through the
// whole optimize pipeline as `explain` does: for each candidate of pass A
// and pass B, the op it became or the exact reason kind and the nodes the
// reason names (with their streams), the bytes saved, the text, JSON and
// HTML forms, and the "not run" note in modes other than reduce-overhead.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/load.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/html_checks.hpp"

namespace eqfuse {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::run_eqfuse;

const std::string kDir = std::string(EQFUSE_SOURCE_DIR) + "/tests/scenarios/reinplace/";
constexpr ReinplacePass kA = ReinplacePass::InplaceableOps;
constexpr ReinplacePass kB = ReinplacePass::InputMutatedOps;

struct RunOptions {
  MultiStreamPolicy policy = MultiStreamPolicy::SkipGraph;
  ExecMode mode = ExecMode::ReduceOverhead;
  bool custom_ops = false;  // register custom.sin_cos_* from custom_ops.json
  bool remove_noop_ops = true;
};

// The registry outlives the result (the optimize state refers to it).
struct Explained {
  std::unique_ptr<OpRegistry> reg = std::make_unique<OpRegistry>(OpRegistry::with_builtin_ops());
  Graph input;
  OptimizeResult result;
  ExplainReport report;
};

std::unique_ptr<Explained> explain_text(const std::string& fx, const std::string& origin,
                                        const RunOptions& o = {}) {
  auto e = std::make_unique<Explained>();
  OptimizeOptions opt;
  if (o.custom_ops) {
    std::string config = kDir + "custom_ops.json";
    apply_reinplace_config_json(opt.reinplace, *e->reg, read_file_or_stdin(config), config);
  }
  opt.reinplace.multi_stream = o.policy;
  opt.rules.mode = o.mode;
  opt.rules.remove_noop_ops = o.remove_noop_ops;
  opt.record_explanations = true;
  e->input = load_graph(fx, origin, *e->reg).graph;
  e->result = optimize_graph(e->input, *e->reg, opt);
  e->report = explain_run(e->result, *e->reg);
  return e;
}

// TorchAir runs these torchair-passes.md §8.6 scenarios with remove_noop_ops False: their clone
// must stay for the reinplace passes to see it.
bool keeps_noops(const std::string& id) {
  return id == "A2" || id == "A5" || id == "A7";
}

std::unique_ptr<Explained> explain_scenario(const std::string& id, RunOptions o = {}) {
  std::string path = kDir + id + ".fx";
  o.remove_noop_ops = !keeps_noops(id);
  return explain_text(read_file_or_stdin(path), path, o);
}

const ReinplaceDecision& decision(const Explained& e, ReinplacePass pass, const std::string& node) {
  const ReinplaceDecision* d = e.report.reinplace.log.find(node, pass);
  if (d == nullptr) throw std::runtime_error("no decision for " + node);
  return *d;
}

// (node, stream) pairs a decision's reason names.
std::vector<std::pair<std::string, std::string>> related(const ReinplaceDecision& d) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ReinplaceNodeRef& r : d.related) out.emplace_back(r.name, r.stream);
  return out;
}

using Pair = std::pair<std::string, std::string>;

// ---- what each candidate became, or why not ----------------------------------------

TEST(ExplainReinplace, A2IntermediateAndInputAreReinplacedWithTheBytesSaved) {
  auto e = explain_scenario("A2");
  const ReinplaceExplanation& re = e->report.reinplace;
  ASSERT_TRUE(re.ran);
  ASSERT_EQ(re.log.decisions.size(), 3u);

  const ReinplaceDecision& add = decision(*e, kA, "add");
  EXPECT_TRUE(add.success);
  EXPECT_EQ(add.kind, ReinplaceReason::DeadIntermediate);
  EXPECT_EQ(add.target, "aten::add.Tensor");
  EXPECT_EQ(add.inplace_target, "aten::add_.Tensor");
  EXPECT_THAT(add.written, ElementsAre("clone"));
  // f32[8, 8]: one 256-byte output buffer no longer allocated.
  EXPECT_EQ(re.saved_bytes.at(0), 256);

  const ReinplaceDecision& mul_a = decision(*e, kA, "mul");
  EXPECT_FALSE(mul_a.success);
  EXPECT_EQ(mul_a.kind, ReinplaceReason::MutatesGraphInput);
  EXPECT_THAT(related(mul_a), ElementsAre(Pair{"arg1_1", ""}));

  const ReinplaceDecision& mul_b = decision(*e, kB, "mul");
  EXPECT_TRUE(mul_b.success);
  EXPECT_EQ(mul_b.kind, ReinplaceReason::GraphInputInPlace);
  EXPECT_THAT(mul_b.removed_copies, ElementsAre("copy_"));
  EXPECT_THAT(mul_b.written, ElementsAre("arg1_1"));
  // Output buffer 256 + the copy_ kernel's read and write of 256 each.
  EXPECT_EQ(re.saved_bytes.at(2), 768);
  EXPECT_EQ(re.total_saved_bytes, 1024);

  std::string text = format_explanation_text(e->report);
  EXPECT_THAT(text, HasSubstr("reinplace passes: pass A: 1 of 2 candidate(s) in place; pass B: 1 "
                              "of 1 candidate(s) in place; 1 copy_ removed; 1024 bytes"));
  EXPECT_THAT(text, HasSubstr("  A add: aten::add.Tensor -> aten::add_.Tensor in place "
                              "(dead_intermediate): writes into 'clone', which is dead "
                              "afterwards; saves 256 bytes\n"));
  EXPECT_THAT(text, HasSubstr("  B mul: aten::mul.Tensor -> aten::mul_.Tensor in place "
                              "(graph_input_in_place): writes graph input 'arg1_1' in place; "
                              "copy_ epilogue removed; removed copy_; saves 768 bytes (output "
                              "buffer 256, copy_ read + write 512)\n"));
}

TEST(ExplainReinplace, A8AddOnAGraphInputIsKept) {
  auto e = explain_scenario("A8");
  ASSERT_EQ(e->report.reinplace.log.decisions.size(), 1u);
  const ReinplaceDecision& add = decision(*e, kA, "add");
  EXPECT_FALSE(add.success);
  EXPECT_EQ(add.kind, ReinplaceReason::MutatesGraphInput);
  EXPECT_THAT(related(add), ElementsAre(Pair{"arg0_1", ""}));
  EXPECT_THAT(format_explanation_text(e->report),
              HasSubstr("  A add: kept aten::add.Tensor, not aten::add_.Tensor "
                        "(mutates_graph_input): 'arg0_1' is a graph input"));
}

TEST(ExplainReinplace, E10UsersOnTwoStreamsAreNamedWithTheirStreams) {
  auto e = explain_scenario("E10", {.policy = MultiStreamPolicy::PerNode});
  ASSERT_EQ(e->report.reinplace.log.decisions.size(), 3u);
  EXPECT_EQ(decision(*e, kA, "add").kind, ReinplaceReason::MutatesGraphInput);
  for (const char* node : {"add_1", "add_2"}) {
    const ReinplaceDecision& d = decision(*e, kA, node);
    EXPECT_FALSE(d.success) << node;
    EXPECT_EQ(d.kind, ReinplaceReason::MultiStreamUsers) << node;
    EXPECT_THAT(d.written, ElementsAre("add")) << node;
    EXPECT_THAT(related(d), ElementsAre(Pair{"add_1", "1"}, Pair{"add_2", "2"})) << node;
    EXPECT_THAT(d.reason, HasSubstr("the users of the mutated input 'add' run on several "
                                    "streams ('1', '2'): add_1, add_2"));
  }
}

TEST(ExplainReinplace, E10UnderTheDefaultPolicyTheGraphIsSkippedWithANote) {
  auto e = explain_scenario("E10");
  const ReinplaceExplanation& re = e->report.reinplace;
  EXPECT_TRUE(re.ran);
  EXPECT_TRUE(re.log.decisions.empty());
  EXPECT_THAT(re.log.notes, ElementsAre(HasSubstr("skipping reinplace_inplaceable_ops_pass: the "
                                                  "graph uses in-graph multi-stream parallelism"),
                                        HasSubstr("skipping reinplace_input_mutated_ops_pass")));
  EXPECT_THAT(format_explanation_text(e->report), HasSubstr("  no candidates\n"));
}

TEST(ExplainReinplace, E11EveryAddSeesAUserOnTheDefaultStream) {
  auto e = explain_scenario("E11", {.policy = MultiStreamPolicy::PerNode});
  EXPECT_THAT(related(decision(*e, kA, "add_1")),
              ElementsAre(Pair{"add_1", "1"}, Pair{"add_3", ""}));
  EXPECT_THAT(related(decision(*e, kA, "add_2")),
              ElementsAre(Pair{"add_2", "2"}, Pair{"add_3", ""}));
  EXPECT_THAT(related(decision(*e, kA, "add_3")),
              ElementsAre(Pair{"add_1", "1"}, Pair{"add_3", ""}));
  for (const char* node : {"add_1", "add_2", "add_3"})
    EXPECT_EQ(decision(*e, kA, node).kind, ReinplaceReason::MultiStreamUsers) << node;
  EXPECT_EQ(e->report.reinplace.log.successes(), 0u);
}

TEST(ExplainReinplace, E13MixedOneReinplacedOneRefusedForStreamsInBothPasses) {
  auto e = explain_scenario("E13", {.policy = MultiStreamPolicy::PerNode});
  ASSERT_EQ(e->report.reinplace.log.decisions.size(), 3u);
  const ReinplaceDecision& add_a = decision(*e, kA, "add_3");
  EXPECT_EQ(add_a.kind, ReinplaceReason::MultiStreamUsers);
  EXPECT_THAT(related(add_a), ElementsAre(Pair{"add_3", "1"}, Pair{"output", ""}));
  EXPECT_THAT(add_a.stream_check, HasSubstr("All the users are [add_3, output]."));
  const ReinplaceDecision& mul = decision(*e, kA, "mul_6");
  EXPECT_TRUE(mul.success);
  EXPECT_EQ(mul.kind, ReinplaceReason::DeadIntermediate);
  EXPECT_THAT(mul.written, ElementsAre("add_3"));
  EXPECT_EQ(mul.inplace_target, "aten::mul_.Tensor");
  const ReinplaceDecision& add_b = decision(*e, kB, "add_3");
  EXPECT_EQ(add_b.kind, ReinplaceReason::MultiStreamUsers);
  EXPECT_THAT(add_b.written, ElementsAre("arg0_1"));
  // f32[3]: 12 bytes.
  EXPECT_EQ(e->report.reinplace.total_saved_bytes, 12);
}

TEST(ExplainReinplace, E14AValueReadLaterNamesItsReader) {
  auto e = explain_scenario("E14", {.policy = MultiStreamPolicy::PerNode});
  const ReinplaceDecision& d = decision(*e, kA, "add_7");
  EXPECT_EQ(d.kind, ReinplaceReason::ReadLater);
  EXPECT_THAT(related(d), ElementsAre(Pair{"copy_", ""}));
  EXPECT_THAT(d.reason, HasSubstr("'add_3' (or an alias) is still read afterwards by copy_"));
}

TEST(ExplainReinplace, A3ScatterIntoAnInputHasNoInPlaceTwin) {
  auto e = explain_scenario("A3");
  const ReinplaceDecision& d = decision(*e, kB, "slice_scatter");
  EXPECT_FALSE(d.success);
  EXPECT_EQ(d.kind, ReinplaceReason::NoInplaceVariant);
  EXPECT_EQ(d.inplace_target, "");
  EXPECT_THAT(related(d), ElementsAre(Pair{"copy_", ""}, Pair{"arg0_1", ""}));
  EXPECT_THAT(d.reason, HasSubstr("it is copied into graph input 'arg0_1' by copy_, but "
                                  "aten::slice_scatter has no in-place twin"));
  EXPECT_THAT(format_explanation_text(e->report),
              HasSubstr("  B slice_scatter: kept aten::slice_scatter (no_inplace_variant): "));
  // The pass-A decisions around it are unaffected.
  EXPECT_EQ(decision(*e, kA, "mul").kind, ReinplaceReason::DeadIntermediate);
}

TEST(ExplainReinplace, E2TableOpFoldsBothEpiloguesAndAnAliasedAddIsKept) {
  auto e = explain_scenario("E2", {.policy = MultiStreamPolicy::PerNode, .custom_ops = true});
  const ReinplaceDecision& table = decision(*e, kB, "sin_cos_functional");
  EXPECT_TRUE(table.success);
  EXPECT_EQ(table.kind, ReinplaceReason::GraphInputInPlace);
  EXPECT_EQ(table.inplace_target, "custom::sin_cos_inplace");
  EXPECT_THAT(table.written, ElementsAre("arg1_1", "arg2_1"));
  EXPECT_THAT(table.removed_nodes(), ElementsAre("copy_", "copy__1", "getitem", "getitem_1"));
  const ReinplaceDecision& add = decision(*e, kA, "add");
  EXPECT_EQ(add.kind, ReinplaceReason::ArgumentAliases);
  EXPECT_THAT(add.reason, HasSubstr("'getitem' is also passed as 'other'"));
}

TEST(ExplainReinplace, InputWithoutCopyEpilogueIsNamed) {
  const std::string fx =
      "def forward(self, arg0_1: \"f32[4]\", arg1_1: \"f32[4]\"):\n"
      "    mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)\n"
      "    copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg1_1, mul)\n"
      "    return (copy_,)\n";
  auto e = explain_text(fx, "no_epilogue.fx");
  const ReinplaceDecision& d = decision(*e, kB, "mul");
  EXPECT_EQ(d.kind, ReinplaceReason::NoCopyEpilogue);
  EXPECT_THAT(related(d), ElementsAre(Pair{"arg0_1", ""}));
  EXPECT_EQ(d.reason, "input 'arg0_1' has no copy_ epilogue");
}

// auto_functionalized calls are decomposed either way: in place when a base
// may be written (R3), on clones otherwise (R1), never "kept".
TEST(ExplainReinplace, AutoFunctionalizedCallsSayWhetherTheOpWritesInPlaceOrOnClones) {
  RunOptions custom;
  custom.custom_ops = true;
  auto r3 = explain_scenario("R3", custom);
  const ReinplaceDecision& boo = decision(*r3, kB, "auto_functionalized_v2");
  EXPECT_TRUE(boo.success);
  EXPECT_EQ(boo.kind, ReinplaceReason::AutoFunctionalizedInPlace);
  EXPECT_THAT(format_explanation_text(r3->report),
              HasSubstr("B auto_functionalized_v2: auto_functionalized_v2 -> custom::boo in place "
                        "(auto_functionalized_in_place)"));

  auto r1 = explain_scenario("R1", custom);
  const ReinplaceDecision& sin = decision(*r1, kB, "auto_functionalized");
  EXPECT_FALSE(sin.success);
  EXPECT_EQ(sin.kind, ReinplaceReason::AutoFunctionalizedCloned);
  std::string text = format_explanation_text(r1->report);
  EXPECT_THAT(text, HasSubstr("B auto_functionalized: auto_functionalized -> custom::sin on "
                              "clones (auto_functionalized_cloned): clones result (empty_like)"));
  EXPECT_THAT(text, Not(HasSubstr("kept auto_functionalized")));
}

TEST(ExplainReinplace, SectionIsThePassesOwnLog) {
  auto e = explain_scenario("E4", {.policy = MultiStreamPolicy::PerNode});
  EXPECT_EQ(e->report.reinplace.log.lines(), e->result.reinplace_log.lines());
  EXPECT_EQ(e->report.reinplace.log.decisions.size(), e->result.reinplace_log.decisions.size());
}

TEST(ExplainReinplace, EveryReasonKindHasItsOwnName) {
  std::set<std::string_view> names;
  int last = static_cast<int>(ReinplaceReason::NoInplaceVariant);
  for (int k = 0; k <= last; ++k) {
    std::string_view name = reinplace_reason_name(static_cast<ReinplaceReason>(k));
    EXPECT_NE(name, "unknown") << k;
    EXPECT_TRUE(names.insert(name).second) << name;
  }
}

// ---- modes where the passes do not run -----------------------------------------------

TEST(ExplainReinplace, OtherModesSayThePassesDoNotRun) {
  for (ExecMode mode : {ExecMode::MaxAutotune, ExecMode::Eager}) {
    auto e = explain_scenario("A2", {.mode = mode});
    const ReinplaceExplanation& re = e->report.reinplace;
    std::string name(exec_mode_name(mode));
    EXPECT_FALSE(re.ran) << name;
    EXPECT_TRUE(re.log.decisions.empty()) << name;
    EXPECT_EQ(re.not_run, "the reinplace passes do not run in " + name +
                              " mode; they run only in reduce-overhead (TorchAir's aclgraph mode)");
    EXPECT_THAT(format_explanation_text(e->report),
                HasSubstr("reinplace passes: the reinplace passes do not run in " + name));
    auto j = nlohmann::json::parse(explanation_to_json(e->report));
    EXPECT_FALSE(j["reinplace"]["ran"].get<bool>());
    EXPECT_TRUE(j["reinplace"]["decisions"].empty());
    HtmlOptions no_dot;
    no_dot.use_dot = false;
    EXPECT_THAT(explanation_to_html(e->report, e->input, e->result.graph, no_dot),
                HasSubstr("<h2>Reinplace</h2>\n<p>the reinplace passes do not run in " + name));
  }
}

// ---- JSON and HTML -------------------------------------------------------------------

TEST(ExplainReinplace, JsonKeysAndValues) {
  auto e = explain_scenario("A2");
  std::string text = explanation_to_json(e->report);
  EXPECT_EQ(text, explanation_to_json(explain_scenario("A2")->report));
  auto j = nlohmann::json::parse(text)["reinplace"];
  for (const char* key : {"ran", "mode", "not_run", "notes", "candidates", "reinplaced",
                          "removed_copies", "saved_bytes", "saved_bytes_expr", "decisions"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["candidates"], 3);
  EXPECT_EQ(j["reinplaced"], 2);
  EXPECT_EQ(j["removed_copies"], 1);
  EXPECT_EQ(j["saved_bytes"], 1024);
  EXPECT_EQ(j["saved_bytes_expr"], "1024");
  const auto& d = j["decisions"];
  ASSERT_EQ(d.size(), 3u);
  for (const char* key :
       {"pass", "node", "op", "inplace_op", "reinplaced", "kind", "reason", "related", "writes",
        "removed", "stream_check", "saved_bytes", "saved_bytes_expr", "text"})
    EXPECT_TRUE(d[0].contains(key)) << key;
  EXPECT_EQ(d[0]["pass"], "reinplace_inplaceable_ops");
  EXPECT_EQ(d[0]["kind"], "dead_intermediate");
  EXPECT_EQ(d[1]["kind"], "mutates_graph_input");
  EXPECT_EQ(d[1]["related"][0]["node"], "arg1_1");
  EXPECT_EQ(d[1]["related"][0]["stream"], "");
  EXPECT_EQ(d[2]["pass"], "reinplace_input_mutated_ops");
  EXPECT_EQ(d[2]["kind"], "graph_input_in_place");
  EXPECT_EQ(d[2]["removed"][0], "copy_");
  EXPECT_EQ(d[2]["saved_bytes"], 768);
}

TEST(ExplainReinplace, HtmlHasOneAnchoredRowPerDecision) {
  auto e = explain_scenario("E13", {.policy = MultiStreamPolicy::PerNode});
  HtmlOptions no_dot;
  no_dot.use_dot = false;
  std::string html = explanation_to_html(e->report, e->input, e->result.graph, no_dot);
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
  testing_support::expect_self_contained(html);
  EXPECT_THAT(html, HasSubstr("<h2>Reinplace</h2>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"reinplace-0\" class=\"kept\"><td>A</td><td>add_3</td>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"reinplace-1\" class=\"inplace\"><td>A</td><td>mul_6</td>"));
  EXPECT_THAT(html, HasSubstr("<tr id=\"reinplace-2\" class=\"kept\"><td>B</td><td>add_3</td>"));
  EXPECT_THAT(html, HasSubstr("kept <code>multi_stream_users</code>"));
  EXPECT_THAT(html, Not(HasSubstr("reinplace-3")));
}

// Fill colours of the after graph's highlights (pipeline/explain/html.cpp).
constexpr const char* kReinplaceFill = "#85c1e9";
constexpr const char* kFusionFill = "#f5b041";

// A highlighted node's line in the DOT text as the page embeds it (HTML-escaped).
std::string embedded_dot_node(const std::string& label, const std::string& fill,
                              const std::string& anchor) {
  return "[label=&quot;" + label + "&quot;, shape=box, style=filled, fillcolor=&quot;" + fill +
         "&quot;, URL=&quot;" + anchor + "&quot;]";
}

HtmlOptions without_dot() {
  HtmlOptions o;
  o.use_dot = false;
  return o;
}

// Nodes the passes rewrote are filled in their own colour in the after graph
// and link to their decision row; kept candidates stay plain. A2: `add` in
// place by pass A (decision 0); `mul` kept by pass A (1), in place by pass B (2).
TEST(ExplainReinplace, HtmlAfterGraphHighlightsReinplacedNodesLinkedToTheirDecision) {
  auto e = explain_scenario("A2");
  std::string html = explanation_to_html(e->report, e->input, e->result.graph, without_dot());
  std::string after = testing_support::section(html, "After");
  EXPECT_THAT(after, HasSubstr(embedded_dot_node("add\\nadd_", kReinplaceFill, "#reinplace-0")));
  EXPECT_THAT(after, HasSubstr(embedded_dot_node("mul\\nmul_", kReinplaceFill, "#reinplace-2")));
  EXPECT_THAT(after, Not(HasSubstr("#reinplace-1")));
  EXPECT_THAT(after, HasSubstr("<li class=\"reinplace\"><span class=\"swatch\" "
                               "style=\"background:#85c1e9\"></span> rewritten by the reinplace "
                               "passes"));
  // Only the after graph shows the passes' work; no fusion here, so no fusion legend.
  std::string before = testing_support::section(html, "Before");
  EXPECT_THAT(before, Not(HasSubstr("#reinplace-")));
  EXPECT_THAT(before, Not(HasSubstr("<ul class=\"legend\">")));
  EXPECT_THAT(after, Not(HasSubstr(kFusionFill)));
  for (int i : {0, 2}) EXPECT_THAT(html, HasSubstr(fmt::format("<tr id=\"reinplace-{}\"", i)));
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
  testing_support::expect_self_contained(html);
}

// An auto_functionalized call is decomposed into its op under a new name;
// that call is what the after graph highlights, in place (R3) or on clones (R1).
TEST(ExplainReinplace, HtmlHighlightsTheCallAnAutoFunctionalizedDecomposesInto) {
  RunOptions custom;
  custom.custom_ops = true;
  for (const char* id : {"R3", "R1"}) {
    SCOPED_TRACE(id);
    auto e = explain_scenario(id, custom);
    const std::vector<ReinplaceDecision>& ds = e->report.reinplace.log.decisions;
    size_t k = 0;
    while (k < ds.size() && ds[k].decomposed_call.empty()) ++k;
    ASSERT_LT(k, ds.size());
    const std::string& call = ds[k].decomposed_call;
    EXPECT_EQ(ds[k].changed_node(), call);
    bool in_output = false;
    for (const Node& n : e->result.graph.nodes())
      in_output |= n.name == call && n.target == ds[k].inplace_target;
    EXPECT_TRUE(in_output) << call;
    std::string after = testing_support::section(
        explanation_to_html(e->report, e->input, e->result.graph, without_dot()), "After");
    EXPECT_THAT(after,
                HasSubstr(fmt::format("fillcolor=&quot;{}&quot;, URL=&quot;#reinplace-{}&quot;",
                                      kReinplaceFill, k)));
  }
}

// ---- CLI -----------------------------------------------------------------------------

TEST(ExplainReinplaceCli, MultiStreamFlagAndConfigSection) {
  auto json =
      run_eqfuse("explain tests/scenarios/reinplace/E13.fx --multi-stream per-node --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  auto d = nlohmann::json::parse(json.out)["reinplace"]["decisions"];
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0]["kind"], "multi_stream_users");
  EXPECT_EQ(d[1]["kind"], "dead_intermediate");

  // custom_ops.json registers custom.sin_cos_*; per-node refuses it for streams.
  auto text = run_eqfuse(
      "explain tests/scenarios/reinplace/E3.fx --config tests/scenarios/reinplace/custom_ops.json "
      "--multi-stream per-node");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_THAT(text.out, HasSubstr("A sin_cos_functional: kept custom::sin_cos_functional, not "
                                  "custom::sin_cos_inplace (multi_stream_users)"));

  auto optimize =
      run_eqfuse("optimize tests/scenarios/reinplace/E13.fx --multi-stream per-node --format fx");
  ASSERT_EQ(optimize.exit_code, 0) << optimize.err;
  EXPECT_THAT(optimize.out, HasSubstr("torch.ops.aten.mul_.Tensor(add_3, 2)"));
  EXPECT_EQ(
      run_eqfuse("explain tests/scenarios/reinplace/E13.fx --multi-stream sometimes").exit_code, 2);
}

}  // namespace
}  // namespace eqfuse
