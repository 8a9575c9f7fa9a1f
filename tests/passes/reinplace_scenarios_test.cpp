// ctest-label: golden
// The reinplace scenarios of docs/reference/torchair-passes.md §8.4–§8.6 that apply to
// an FX-level tool, one FX file each under tests/scenarios/reinplace/ (named
// by scenario id). Each case states which nodes become in-place and which do
// not and why, the log lines TorchAir's tests look for, and checks that the
// rewritten graph is equivalent to its input in the reference interpreter and
// survives printing and re-reading.
//
// R1–R11 (auto_functionalized / auto_functionalized_v2 clone elision) have
// their own table below: missed opportunities and bytes (torch's
// ReinplaceCounters), clones, the decomposed form, equivalence.
// R12–R14 and E2/E3/E5/E6 use TorchAir's test op `custom.sin_cos_functional`
// -> `custom.sin_cos_inplace` (mutated [1, 2]), registered from
// custom_ops.json through the reinplace config section. The E-series and A1
// use streams, so they run with MultiStreamPolicy::PerNode (TorchAir's code
// path); the default policy would skip those graphs entirely.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/auto_functionalized.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "passes/reinplace.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(EQFUSE_SOURCE_DIR) + "/tests/scenarios/reinplace/";

enum class Passes { Both, OnlyA, OnlyB };

struct Scenario {
  std::string id{};
  Passes passes = Passes::Both;
  MultiStreamPolicy policy = MultiStreamPolicy::SkipGraph;
  // node -> its target afterwards ("<removed>" when deleted).
  std::map<std::string, std::string> targets{};
  // node -> a substring of the reason it was refused (pass A decisions first).
  std::map<std::string, std::string> refused{};
  // target -> how many nodes call it afterwards.
  std::map<std::string, int> counts{};
  std::vector<std::string> log{};         // substrings some log line must contain
  std::vector<std::string> not_in_log{};  // substrings no log line may contain
};

void PrintTo(const Scenario& s, std::ostream* os) {
  *os << s.id;
}

const char* kAdd = "aten::add.Tensor";
const char* kAdd_ = "aten::add_.Tensor";
const char* kMul = "aten::mul.Tensor";
const char* kMul_ = "aten::mul_.Tensor";
const char* kSinCos = "custom::sin_cos_functional";
const char* kSinCos_ = "custom::sin_cos_inplace";
const char* kInput = "is a graph input or an alias of one";
const char* kStreams = "run on several streams";
const char* kFailed = "check no multi stream users failed for reinplace";
const char* kSuccess = "check no multi stream users success for reinplace";
const MultiStreamPolicy kPerNode = MultiStreamPolicy::PerNode;

std::vector<Scenario> scenarios() {
  return {
      // ---- §8.4 make_fx unit tests (multi-mutation table) ----
      {.id = "R12",
       .passes = Passes::OnlyA,
       .targets = {{"sin_cos_functional", kSinCos_}, {"getitem", "<removed>"}}},
      {.id = "R13",  // the later reader reads the NEW value (now empty_like_1): still replaced
       .passes = Passes::OnlyA,
       .targets = {{"sin_cos_functional", kSinCos_}, {"getitem_1", "<removed>"}, {"add", kAdd_}}},
      {.id = "R14",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"sin_cos_functional", kSinCos}},
       .refused = {{"sin_cos_functional", kStreams}},
       .log = {"[multi_stream_multi_reinplace]Current node: sin_cos_functional"}},
      {.id = "R15", .targets = {{"copy_", "aten::copy_"}}},
      // ---- §8.5 end-to-end with streams (pass A counted) ----
      {.id = "E1",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"sub", "aten::sub.Tensor"}, {"add_1", kAdd_}, {"add_2", kAdd_}},
       .refused = {{"sub", kStreams}, {"sub_1", kStreams}, {"add", kInput}},
       .log = {kFailed, kSuccess}},
      {.id = "E2",  // pass A: caches are inputs; pass B folds their epilogues
       .policy = kPerNode,
       .targets = {{"sin_cos_functional", kSinCos_}, {"copy_", "<removed>"}},
       .refused = {{"sin_cos_functional", kInput}},
       .log = {kSuccess},
       .not_in_log = {kFailed}},
      {.id = "E3",
       .policy = kPerNode,
       .targets = {{"sin_cos_functional", kSinCos}},
       .refused = {{"sin_cos_functional", kStreams}},
       .log = {kFailed}},
      {.id = "E4",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_1", kAdd_}, {"add_2", kAdd}, {"add_3", kAdd_}},
       .refused = {{"add_2", "still read afterwards by copy_"}},
       .log = {kSuccess},
       .not_in_log = {kFailed}},
      {.id = "E5",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .log = {kSuccess},
       .not_in_log = {kFailed}},
      {.id = "E6",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"sin_cos_functional", kSinCos}},
       .log = {"[multi_stream_multi_reinplace]Current node: sin_cos_functional, type: "
               "custom.sin_cos_functional.default check no multi stream users failed for "
               "reinplace. The users of the mutated input node have multiple streams. "}},
      {.id = "E7",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_1", kAdd_}},
       .counts = {{kAdd, 1}, {kAdd_, 1}}},
      {.id = "E8",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_3", kAdd_}},
       .refused = {{"add_1", kStreams}, {"add_2", kStreams}},
       .counts = {{kAdd, 3}, {kAdd_, 1}}},
      {.id = "E9",  // after add_1 writes add, add_2 sees add's users on two streams
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_1", kAdd_}, {"add_2", kAdd}},
       .refused = {{"add_2", "several streams ('1', '2'): add_1, add_2"}},
       .counts = {{kAdd, 2}, {kAdd_, 1}}},
      {.id = "E10",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .refused = {{"add_1", kStreams}, {"add_2", kStreams}},
       .counts = {{kAdd, 3}, {kAdd_, 0}}},
      {.id = "E11",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .refused = {{"add_1", kStreams}, {"add_2", kStreams}, {"add_3", kStreams}},
       .counts = {{kAdd, 4}, {kAdd_, 0}}},
      {.id = "E12",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_3", kAdd}},
       .refused = {{"add_3", kInput}},
       .log = {"[multi_stream_single_reinplace]Current node: add_3, type: aten.add.Tensor check "
               "no multi stream users success"}},
      {.id = "E13",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"add_3", kAdd}, {"mul_6", kMul_}},
       .log = {"Current node: mul_6, type: aten.mul.Tensor check no multi stream users success",
               "Current node: add_3, type: aten.add.Tensor check no multi stream users failed",
               "All the users are [add_3, output]."}},
      {.id = "E14",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"mul_6", kMul_}, {"add_7", kAdd}},
       .counts = {{kMul_, 1}}},
      {.id = "E15",
       .passes = Passes::OnlyA,
       .policy = kPerNode,
       .targets = {{"mul_5", kMul_}},
       .counts = {{kMul_, 1}},
       .log = {"Current node: add_3, type: aten.add.Tensor check no multi stream users success"}},
      // ---- §8.6 flags ----
      {.id = "A1",  // add reads an input (the clone is gone); mul_ on y via its epilogue
       .policy = kPerNode,
       .targets = {{"add", kAdd}, {"mul", kMul_}, {"copy_", "<removed>"}},
       .refused = {{"add", kInput}}},
      {.id = "A2", .targets = {{"add", kAdd_}, {"mul", kMul_}, {"copy_", "<removed>"}}},
      {.id = "A3",
       .passes = Passes::OnlyB,
       .targets = {{"add", kAdd}, {"mul", kMul}, {"copy_", "aten::copy_"}},
       .log = {"processing reinplace_input_mutated_ops_pass"},
       .not_in_log = {"processing reinplace_inplaceable_ops_pass"}},
      {.id = "A4",
       .passes = Passes::OnlyA,
       .targets = {{"add", kAdd}, {"mul", kMul_}},
       .refused = {{"add", "'slice_1' is a graph input or an alias of one"}},
       .log = {"processing reinplace_inplaceable_ops_pass"},
       .not_in_log = {"processing reinplace_input_mutated_ops_pass"}},
      {.id = "A5",
       .passes = Passes::OnlyA,
       .targets = {{"add", kAdd_}, {"mul", kMul}},
       .counts = {{"aten::copy_", 0}}},
      {.id = "A6",  // add_ writes mul (dead); the epilogue copies add, so it stays
       .passes = Passes::OnlyB,
       .targets = {{"mul", kMul}, {"add", kAdd_}, {"copy_", "aten::copy_"}}},
      {.id = "A7", .targets = {{"add", kAdd_}}},
      {.id = "A8", .passes = Passes::OnlyB, .targets = {{"add", kAdd}}},
  };
}

struct Loaded {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  ReinplaceOptions options;
  Graph graph;
};

std::unique_ptr<Loaded> load(const Scenario& s) {
  auto l = std::make_unique<Loaded>();
  std::string config = kDir + "custom_ops.json";
  apply_reinplace_config_json(l->options, l->reg, read_file_or_stdin(config), config);
  l->options.multi_stream = s.policy;
  l->options.disable_reinplace_inplaceable_ops_pass = s.passes == Passes::OnlyB;
  l->options.disable_reinplace_input_mutated_ops_pass = s.passes == Passes::OnlyA;
  std::string path = kDir + s.id + ".fx";
  l->graph = load_graph(read_file_or_stdin(path), path, l->reg).graph;
  return l;
}

std::string target_of(const Graph& g, const std::string& name) {
  std::optional<NodeRef> r = g.find(name);
  return r ? g.node(*r).target : "<removed>";
}

std::string refusal_of(const ReinplaceLog& log, const std::string& node) {
  for (ReinplacePass p : {ReinplacePass::InplaceableOps, ReinplacePass::InputMutatedOps}) {
    const ReinplaceDecision* d = log.find(node, p);
    if (d && !d->success) return d->reason;
  }
  return "<not refused>";
}

// The rewritten graph computes what its input did, and prints and reads back
// as the same graph.
void expect_equivalent_and_reread(const Loaded& l, const Graph& after, const std::string& id) {
  EquivalenceOptions two_trials;
  two_trials.trials = 2;
  EquivalenceResult eq = equivalent(l.graph, after, l.reg, two_trials);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
  Graph again = load_graph(print_fx(after, &l.reg), id + "-out.fx", l.reg).graph;
  EXPECT_EQ(print_fx(again, &l.reg), print_fx(after, &l.reg));
}

class ReinplaceScenario : public ::testing::TestWithParam<Scenario> {};

TEST_P(ReinplaceScenario, InPlaceNodesReasonsLogAndEquivalence) {
  const Scenario& s = GetParam();
  std::unique_ptr<Loaded> l = load(s);
  ReinplaceResult r = reinplace(l->graph, l->reg, l->options);
  std::vector<std::string> lines = r.log.lines();
  std::string all = fmt::format("{}", fmt::join(lines, "\n"));
  SCOPED_TRACE(s.id + "\n" + print_fx(r.graph, &l->reg) + all);

  for (const auto& [node, target] : s.targets) EXPECT_EQ(target_of(r.graph, node), target) << node;
  for (const auto& [node, why] : s.refused) EXPECT_THAT(refusal_of(r.log, node), HasSubstr(why));
  for (const auto& [target, count] : s.counts) {
    int n = static_cast<int>(std::count_if(r.graph.nodes().begin(), r.graph.nodes().end(),
                                           [&](const Node& x) { return x.target == target; }));
    EXPECT_EQ(n, count) << target;
  }
  for (const std::string& want : s.log) EXPECT_THAT(all, HasSubstr(want));
  for (const std::string& unwanted : s.not_in_log) EXPECT_THAT(all, Not(HasSubstr(unwanted)));

  expect_equivalent_and_reread(*l, r.graph, s.id);
}

INSTANTIATE_TEST_SUITE_P(Spec, ReinplaceScenario, ::testing::ValuesIn(scenarios()),
                         [](const auto& info) { return info.param.id; });

// ---- §8.4 R1–R11: auto_functionalized clone elision ---------------------------------------
//
// Expected values are TorchAir's (R1–R7: its make_fx tests of
// _mutated_input_reinplace) and, for R8–R11, which TorchAir only compiles
// without running them, inductor's test_inplacing_pass (which runs them): 0
// missed everywhere except the v1 list case, where two views of one input
// cannot both be written in place (1 missed, 8 bytes, 2 clones). eqfuse's
// default also clones a base a read-only argument may alias (R8, R9: `sin(out,
// out)`); `torchair` runs with check_auto_functionalized_read_aliasing off.

struct HopScenario {
  std::string id{};
  Passes passes = Passes::OnlyB;  // TorchAir's R1–R7 call _mutated_input_reinplace alone
  bool torchair = false;
  size_t missed = 0;
  int64_t missed_bytes = 0;
  int clones = 0;     // aten::clone nodes afterwards
  int copies = 0;     // aten::copy_ nodes afterwards (epilogues are kept)
  std::string why{};  // a substring of the first clone's reason
};

void PrintTo(const HopScenario& s, std::ostream* os) {
  *os << s.id << (s.torchair ? " (torchair)" : "");
}

std::vector<HopScenario> hop_scenarios() {
  const Passes kBoth = Passes::Both;
  return {
      {.id = "R1",
       .missed = 1,
       .missed_bytes = 12,
       .clones = 1,
       .why = "still read afterwards by mul"},
      {.id = "R2",
       .missed = 1,
       .missed_bytes = 12,
       .clones = 1,
       .why = "still read afterwards by mul"},
      {.id = "R3", .copies = 1},
      {.id = "R4", .copies = 1},
      {.id = "R5",
       .missed = 1,
       .missed_bytes = 12,
       .clones = 1,
       .copies = 1,
       .why = "read before its copy_ epilogue by mul"},
      {.id = "R6", .missed = 1, .missed_bytes = 12, .clones = 1, .why = "has no copy_ epilogue"},
      {.id = "R7",
       .missed = 1,
       .missed_bytes = 40,
       .clones = 1,
       .why = "still read afterwards by output"},
      {.id = "R8",
       .passes = kBoth,
       .missed = 2,
       .missed_bytes = 24,
       .clones = 2,
       .copies = 1,
       .why = "the op also reads 'arg1_1' (argument 'x')"},
      {.id = "R8", .passes = kBoth, .torchair = true, .copies = 1},
      {.id = "R9",
       .passes = kBoth,
       .missed = 2,
       .missed_bytes = 24,
       .clones = 2,
       .why = "the op also reads 'empty_like' (argument 'x')"},
      {.id = "R9", .passes = kBoth, .torchair = true},
      {.id = "R10", .passes = kBoth},
      {.id = "R11_v2", .passes = kBoth, .copies = 1},
      {.id = "R11_v1",
       .passes = kBoth,
       .missed = 1,
       .missed_bytes = 8,
       .clones = 2,
       .copies = 1,
       .why = "its elements 'select' and 'select_1' may share memory"},
  };
}

int count_target(const Graph& g, std::string_view target) {
  return static_cast<int>(std::count_if(g.nodes().begin(), g.nodes().end(),
                                        [&](const Node& n) { return n.target == target; }));
}

class AutoFunctionalizedScenario : public ::testing::TestWithParam<HopScenario> {};

TEST_P(AutoFunctionalizedScenario, ClonesCountersDecompositionAndEquivalence) {
  const HopScenario& s = GetParam();
  std::unique_ptr<Loaded> l = load({.id = s.id, .passes = s.passes});
  l->options.check_auto_functionalized_read_aliasing = !s.torchair;
  ReinplaceResult r = reinplace(l->graph, l->reg, l->options);
  std::string log = fmt::format("{}", fmt::join(r.log.lines(), "\n"));
  SCOPED_TRACE(s.id + "\n" + print_fx(r.graph, &l->reg) + log);

  ReinplaceCounters c = reinplace_counters(r.log);
  EXPECT_EQ(c.missed, s.missed);
  EXPECT_EQ(c.missed_bytes, s.missed_bytes);
  EXPECT_GE(c.decomposed_calls, 1u);
  EXPECT_EQ(count_target(r.graph, "aten::clone"), s.clones);
  EXPECT_EQ(count_target(r.graph, "aten::copy_"), s.copies);
  // Decomposed: no auto_functionalized call is left, the custom op is called directly.
  for (const Node& n : r.graph.nodes()) EXPECT_FALSE(auto_functionalized_version(n)) << n.name;
  if (!s.why.empty()) {
    const AutoFunctionalizedSlot* cloned = nullptr;
    for (const ReinplaceDecision& d : r.log.decisions)
      for (const AutoFunctionalizedSlot& slot : d.slots)
        if (!slot.reinplaced && !cloned) cloned = &slot;
    EXPECT_THAT(cloned ? cloned->reason : "<nothing cloned>", HasSubstr(s.why));
    EXPECT_THAT(log, HasSubstr("possible missed reinplacing opportunities"));
  }

  expect_equivalent_and_reread(*l, r.graph, s.id);
}

INSTANTIATE_TEST_SUITE_P(Spec, AutoFunctionalizedScenario, ::testing::ValuesIn(hop_scenarios()),
                         [](const auto& info) {
                           return info.param.id + (info.param.torchair ? "_torchair" : "");
                         });

std::string without_comments(const std::string& fx) {
  std::string out;
  std::istringstream in(fx);
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(' ') != std::string::npos &&
        line[line.find_first_not_of(' ')] == '#')
      continue;
    out += line + "\n";
  }
  return out;
}

// R3 after decompose_auto_functionalized, as TorchAir's test expects it: the
// view regenerated from the input itself, boo on it, the epilogue a self-copy.
TEST(AutoFunctionalizedScenarios, R3DecomposesIntoTheInPlaceOpOnTheInput) {
  std::unique_ptr<Loaded> l = load({.id = "R3", .passes = Passes::OnlyB});
  ReinplaceResult r = reinplace(l->graph, l->reg, l->options);
  EXPECT_EQ(print_fx(r.graph, &l->reg), R"FX(class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        select: "f32[]" = torch.ops.aten.select.int(arg0_1_1, 0, 0);  select = None
        as_strided_default: "f32[3]" = torch.ops.aten.as_strided.default(arg0_1_1, [3], [1], 0)
        boo_default = torch.ops.custom.boo.default(as_strided_default);  as_strided_default = boo_default = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1_1, arg0_1_1);  arg0_1_1 = copy_ = None
        return ()
)FX");
}

// The real dump pair from TorchAir's test (R5, tests/data/fx-dumps): the graph
// after its pass, decomposed by eqfuse, is byte for byte the graph TorchAir
// expects after decompose_auto_functionalized (comment lines aside).
TEST(AutoFunctionalizedScenarios, TorchAirDumpDecomposesAsTorchAirExpects) {
  std::filesystem::path dumps = std::filesystem::path(EQFUSE_TEST_DATA) / "fx-dumps";
  if (!std::filesystem::exists(dumps / "torchair-tests_1.txt")) GTEST_SKIP() << "no corpus";
  std::unique_ptr<Loaded> l = load({.id = "R5", .passes = Passes::OnlyB});
  std::string before = (dumps / "torchair-tests_1.txt").string();
  Graph g = load_graph(read_file_or_stdin(before), before, l->reg).graph;
  ReinplaceResult r = reinplace(g, l->reg, l->options);
  std::string after = read_file_or_stdin((dumps / "torchair-tests_2.txt").string());
  EXPECT_EQ(print_fx(r.graph, &l->reg), without_comments(after));
  EXPECT_EQ(reinplace_counters(r.log).missed, 1u);
}

// Unknown wrapped ops stay opaque: the pass leaves the call alone.
TEST(AutoFunctionalizedScenarios, AnUnregisteredWrappedOpIsLeftAlone) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  std::string path = kDir + "R3.fx";
  LoadedGraph in = load_graph(read_file_or_stdin(path), path, reg);
  EXPECT_EQ(in.opaque_ops, std::vector<std::string>{"custom::boo"});
  ReinplaceOptions o;
  ReinplaceResult r = reinplace(in.graph, reg, o);
  EXPECT_EQ(r.graph, in.graph);
  EXPECT_EQ(reinplace_counters(r.log).decomposed_calls, 0u);
}

// After the e-graph merged R10's two empty_like (congruent), both bases are one
// tensor: it is written in place once and cloned for the second output.
TEST(AutoFunctionalizedScenarios, TheSameBaseTwiceIsClonedOnce) {
  std::unique_ptr<Loaded> l = load({.id = "R10", .passes = Passes::OnlyB});
  Graph g = l->graph;
  NodeRef hop = *g.find("auto_functionalized_v2");
  for (auto& [key, value] : g.node(hop).kwargs)
    if (key == "_all_bases")
      value = Arg::list({Arg(*g.find("empty_like")), Arg(*g.find("empty_like"))});
  ReinplaceResult r = reinplace(g, l->reg, l->options);
  ASSERT_EQ(r.log.decisions.size(), 1u);
  const ReinplaceDecision& d = r.log.decisions[0];
  ASSERT_EQ(d.slots.size(), 2u);
  EXPECT_TRUE(d.slots[0].reinplaced);
  EXPECT_FALSE(d.slots[1].reinplaced);
  EXPECT_THAT(d.slots[1].reason, HasSubstr("already writes in place (no op(x, x))"));
  EquivalenceResult eq = equivalent(g, r.graph, l->reg);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

// TorchAir's stream check for auto_functionalize (torchair-passes.md §6.4): users of a base
// on two streams (earlier users count too) keep its clone; the other base is
// written in place.
TEST(AutoFunctionalizedScenarios, BaseUsersOnSeveralStreamsKeepTheClone) {
  std::unique_ptr<Loaded> l = load({.id = "R10", .passes = Passes::OnlyB});
  l->options.multi_stream = MultiStreamPolicy::PerNode;
  Graph g = load_graph(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]"):
        empty_like: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        empty_like_1: "f32[3]" = torch.ops.aten.empty_like.default(arg0_1, pin_memory = False)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
        sym_size: "Sym(3)" = torch.ops.aten.sym_size.int(empty_like_1, 0)
        scope_exit = torch.ops.air.scope_exit.default()
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin_cos.default, x = arg0_1, _out_sin_base_index = 0, _out_cos_base_index = 1, _all_bases = [empty_like, empty_like_1])
        getitem_1: "f32[3]" = auto_functionalized_v2[1]
        getitem_2: "f32[3]" = auto_functionalized_v2[2]
        return (getitem_1, getitem_2, sym_size)
)FX",
                       "streams.fx", l->reg)
                .graph;
  ReinplaceResult r = reinplace(g, l->reg, l->options);
  std::string log = fmt::format("{}", fmt::join(r.log.lines(), "\n"));
  ASSERT_EQ(r.log.decisions.size(), 1u) << log;
  const ReinplaceDecision& d = r.log.decisions[0];
  ASSERT_EQ(d.slots.size(), 2u);
  EXPECT_TRUE(d.slots[0].reinplaced);
  EXPECT_FALSE(d.slots[1].reinplaced);
  EXPECT_THAT(d.slots[1].reason, HasSubstr("several streams (default, '1'): sym_size, "
                                           "auto_functionalized_v2"));
  EXPECT_THAT(log, HasSubstr("[multi_stream_auto_functionalize]Current node: "
                             "auto_functionalized_v2, type: auto_functionalized_v2 check no multi "
                             "stream users failed for reinplace."));
  EquivalenceResult eq = equivalent(g, r.graph, l->reg);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

TEST(ReinplaceScenarios, EveryFileHasACase) {
  std::set<std::string> ids;
  for (const Scenario& s : scenarios()) ids.insert(s.id);
  for (const HopScenario& s : hop_scenarios()) ids.insert(s.id);
  for (const auto& entry : std::filesystem::directory_iterator(kDir)) {
    if (entry.path().extension() != ".fx") continue;
    EXPECT_TRUE(ids.count(entry.path().stem().string())) << entry.path();
  }
  EXPECT_EQ(ids.size(), 39u);
}

// Every upstream case of torchair-passes.md §8.4–§8.6 (R1–R15, E1–E15, A1–A8)
// has an FX file here and a case above that checks something: a file
// "<id>.fx" or "<id>_<variant>.fx" (R11_v1, R11_v2), and a case with that id
// holding at least one expectation. (The auto_functionalized cases always
// check counters, clones and copies.)
TEST(ReinplaceScenarios, EveryUpstreamCaseHasAFileAndAnExpectation) {
  std::vector<std::string> upstream;
  for (const auto& [letter, count] : {std::pair{'R', 15}, std::pair{'E', 15}, std::pair{'A', 8}})
    for (int i = 1; i <= count; ++i) upstream.push_back(fmt::format("{}{}", letter, i));
  auto is_case_of = [](const std::string& name, const std::string& id) {
    return name == id || name.starts_with(id + "_");
  };
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(kDir))
    if (entry.path().extension() == ".fx") files.push_back(entry.path().stem().string());
  for (const std::string& id : upstream) {
    EXPECT_TRUE(std::any_of(files.begin(), files.end(),
                            [&](const std::string& f) { return is_case_of(f, id); }))
        << id << ": no file " << id << ".fx";
    bool checked = false;
    for (const Scenario& s : scenarios())
      checked |=
          is_case_of(s.id, id) && (!s.targets.empty() || !s.refused.empty() || !s.counts.empty() ||
                                   !s.log.empty() || !s.not_in_log.empty());
    for (const HopScenario& s : hop_scenarios()) checked |= is_case_of(s.id, id);
    EXPECT_TRUE(checked) << id << ": no case with an expectation";
  }
}

TEST(ReinplaceScenarios, DefaultPolicySkipsMultiStreamGraphs) {
  Scenario e7 = scenarios().at(10);
  ASSERT_EQ(e7.id, "E7");
  e7.policy = MultiStreamPolicy::SkipGraph;
  std::unique_ptr<Loaded> l = load(e7);
  ReinplaceResult r = reinplace(l->graph, l->reg, l->options);
  EXPECT_EQ(r.graph, l->graph);
  EXPECT_EQ(r.log.decisions.size(), 0u);
  EXPECT_THAT(r.log.notes.at(0), HasSubstr("in-graph multi-stream parallelism (streams 1)"));
}

// ---- the `eqfuse reinplace` command ----------------------------------------------------

using testing_support::CliRun;

CliRun eqfuse(const std::string& args) {
  return testing_support::run_eqfuse(args);
}

TEST(ReinplaceCli, RewritesLogsAndReportsTheSavings) {
  CliRun r = eqfuse("reinplace tests/scenarios/reinplace/A2.fx --log");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("torch.ops.aten.add_.Tensor(clone, 1)"));
  EXPECT_THAT(r.out, HasSubstr("torch.ops.aten.mul_.Tensor(arg1_1, 2)"));
  EXPECT_THAT(r.out, Not(HasSubstr("copy_")));
  // f32[8, 8] = 256 bytes: two result buffers, one copy_ read + write.
  EXPECT_THAT(r.err, HasSubstr("reinplace: 2 node(s) in place, 1 copy_ removed; memory traffic "
                               "saved: 1024 bytes (output buffers 512, copy_ 512)"));
  EXPECT_THAT(r.err, HasSubstr("writes graph input 'arg1_1' in place; copy_ epilogue removed"));
}

TEST(ReinplaceCli, FlagsModeAndConfig) {
  CliRun off = eqfuse(
      "reinplace tests/scenarios/reinplace/A2.fx --disable-pass inplaceable "
      "--disable-pass input-mutated");
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_THAT(off.out, Not(HasSubstr("add_")));
  EXPECT_EQ(off.err, "");

  CliRun ge = eqfuse("reinplace tests/scenarios/reinplace/A2.fx --mode max-autotune");
  EXPECT_EQ(ge.exit_code, 0);
  EXPECT_THAT(ge.err, HasSubstr("warning: the reinplace passes run only in reduce-overhead"));
  EXPECT_THAT(ge.out, Not(HasSubstr("add_")));

  CliRun custom = eqfuse(
      "reinplace tests/scenarios/reinplace/R12.fx --config "
      "tests/scenarios/reinplace/custom_ops.json --format json");
  ASSERT_EQ(custom.exit_code, 0) << custom.err;
  EXPECT_THAT(custom.out, HasSubstr("custom::sin_cos_inplace"));

  CliRun bad = eqfuse("reinplace tests/scenarios/reinplace/A2.fx --disable-pass everything");
  EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace
}  // namespace eqfuse
