// Pass B on auto_functionalized / auto_functionalized_v2 calls beyond the
// upstream scenarios (docs/reference/torchair-passes.md §8.4;
// tests/passes/reinplace_scenarios_test.cpp has R1–R11): ops
// with outputs, None and list arguments, slice and alias views, symbolic
// shapes, an epilogue that copies a later value, options and the config key.
// Every rewritten graph is checked against its input in the interpreter.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/auto_functionalized.hpp"
#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "interp/equivalence.hpp"
#include "passes/reinplace.hpp"
#include "tests/support/custom_ops.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

using testing_support::custom_ops;

Graph typed(const std::string& sig, const std::string& body) {
  return testing_support::typed_custom(sig, body);
}

// boo mutates input x through auto_functionalized_v2; no copy_ epilogue.
std::string boo_on_input(const std::string& type) {
  return "    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, "
         "_x_base_index = 0, _all_bases = [x])\n"
         "    getitem_1: \"" +
         type +
         "\" = af[1]\n"
         "    return (getitem_1,)\n";
}

ReinplaceResult pass_b(const Graph& g, ReinplaceOptions o = {}) {
  return reinplace_input_mutated_ops(g, custom_ops(), o);
}

void expect_equivalent(const Graph& before, const Graph& after, SymBindings bindings = {}) {
  EquivalenceOptions opts;
  opts.trials = 2;
  opts.bindings = std::move(bindings);
  EquivalenceResult eq = equivalent(before, after, custom_ops(), opts);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n" << print_fx(after, &custom_ops());
}

const ReinplaceDecision& only_decision(const ReinplaceResult& r) {
  EXPECT_EQ(r.log.decisions.size(), 1u);
  return r.log.decisions.at(0);
}

bool has_target(const Graph& g, std::string_view target) {
  return std::any_of(g.nodes().begin(), g.nodes().end(),
                     [&](const Node& n) { return n.target == target; });
}

TEST(AutoFunctionalizedPass, AnOpOutputBecomesTheCallItself) {
  Graph g =
      typed("x: \"f32[3]\"", R"(    empty_like: "f32[3]" = torch.ops.aten.empty_like.default(x)
    af = torch.ops.higher_order.auto_functionalized(torch.ops.custom.scaled.default, x = x, out = empty_like, alpha = 3.0)
    getitem: "f32[3]" = af[0]
    getitem_1: "f32[3]" = af[1]
    return (getitem, getitem_1)
)");
  ReinplaceResult r = pass_b(g);
  EXPECT_TRUE(only_decision(r).success);
  EXPECT_EQ(only_decision(r).reason, "writes out (empty_like) in place");
  std::string printed = print_fx(r.graph, &custom_ops());
  EXPECT_THAT(printed, HasSubstr("scaled_default: \"f32[3]\" = torch.ops.custom.scaled.default(x, "
                                 "empty_like, 3.0)"));
  EXPECT_THAT(printed, HasSubstr("return (scaled_default, empty_like)"));
  expect_equivalent(g, r.graph);
}

TEST(AutoFunctionalizedPass, SeveralOpOutputsBecomeGetitemsOfTheCall) {
  Graph g = typed("x: \"f32[4]\"", R"(    clone: "f32[4]" = torch.ops.aten.clone.default(x)
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.split2.default, _x_base_index = 0, _all_bases = [clone])
    getitem_1: "f32[2]" = af[1]
    getitem_2: "f32[4]" = af[2]
    return (getitem_1, getitem_2)
)");
  ReinplaceResult r = pass_b(g);
  std::string printed = print_fx(r.graph, &custom_ops());
  EXPECT_THAT(printed, HasSubstr("split2_default = torch.ops.custom.split2.default(clone)"));
  EXPECT_THAT(printed, HasSubstr("getitem: \"f32[2]\" = split2_default[1]"));
  EXPECT_THAT(printed, HasSubstr("return (getitem, clone)"));
  expect_equivalent(g, r.graph);
}

TEST(AutoFunctionalizedPass, ANoneMutableArgumentIsNeitherWrittenNorAMiss) {
  Graph g = typed(
      "x: \"f32[3]\"",
      R"(    af = torch.ops.higher_order.auto_functionalized(torch.ops.custom.maybe.default, x = x, out = None)
    getitem_1 = af[1]
    return (x,)
)");
  ReinplaceResult r = pass_b(g);
  const ReinplaceDecision& d = only_decision(r);
  ASSERT_EQ(d.slots.size(), 1u);
  EXPECT_EQ(d.reason, "out is None");
  EXPECT_EQ(reinplace_counters(r.log).missed, 0u);
  EXPECT_THAT(print_fx(r.graph, &custom_ops()),
              HasSubstr("torch.ops.custom.maybe.default(x, None)"));
  expect_equivalent(g, r.graph);
}

TEST(AutoFunctionalizedPass, SliceAndAliasViewsAreRegeneratedFromTheBase) {
  Graph g = typed("x: \"f32[4, 2]\", y: \"f32[2, 2]\"",
                  R"(    clone: "f32[4, 2]" = torch.ops.aten.clone.default(x)
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin_cos.default, x = y, _out_sin_base_index = 0, _out_sin_alias = True, _out_cos_base_index = 1, _out_cos_slice_dim = 0, _out_cos_slice_start = 1, _out_cos_slice_end = 3, _all_bases = [x, clone])
    getitem_2: "f32[4, 2]" = af[2]
    return (getitem_2,)
)");
  ReinplaceResult r = pass_b(g);
  std::string printed = print_fx(r.graph, &custom_ops());
  // x is an input without an epilogue: cloned; clone is dead afterwards: written in place.
  EXPECT_THAT(printed, HasSubstr("torch.ops.aten.alias.default(as_strided_default_1)"));
  EXPECT_THAT(printed, HasSubstr("torch.ops.aten.slice.Tensor(clone, 0, 1, 3)"));
  EXPECT_EQ(reinplace_counters(r.log).missed, 1u);
  EXPECT_EQ(reinplace_counters(r.log).missed_bytes, 32);
  expect_equivalent(g, r.graph);
}

TEST(AutoFunctionalizedPass, SymbolicShapesCloneWithoutCountingBytes) {
  Graph g = typed("x: \"f32[s0]\"", boo_on_input("f32[s0]"));
  ReinplaceResult r = pass_b(g);
  ReinplaceCounters c = reinplace_counters(r.log);
  EXPECT_EQ(c.missed, 1u);
  EXPECT_EQ(c.missed_bytes, 0);  // as torch: only static shapes are counted
  std::string printed = print_fx(r.graph, &custom_ops());
  EXPECT_THAT(printed, HasSubstr("torch.ops.aten.clone.default(x)"));
  EXPECT_THAT(printed, Not(HasSubstr("as_strided")));
  expect_equivalent(g, r.graph, {{"s0", 5}});
}

// boo then sin write x through two calls; the epilogue copies the second
// call's value, and `tail` follows it.
std::string mutation_chain(const std::string& tail) {
  return R"(    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _all_bases = [x])
    getitem_1: "f32[3]" = af[1]
    af_1 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = y, _result_base_index = 0, _all_bases = [getitem_1])
    getitem_3: "f32[3]" = af_1[1]
    copy_: "f32[3]" = torch.ops.aten.copy_.default(x, getitem_3)
)" + tail;
}

// The first call's new value is read after the epilogue, so the first call
// may not write x.
TEST(AutoFunctionalizedPass, ANewValueReadAfterAnEpilogueOfAnotherValueKeepsItsClone) {
  Graph g = typed("x: \"f32[3]\", y: \"f32[3]\"",
                  mutation_chain("    mul: \"f32[3]\" = torch.ops.aten.mul.Tensor(getitem_1, 2)\n"
                                 "    return (mul,)\n"));
  ReinplaceResult r = pass_b(g);
  ASSERT_EQ(r.log.decisions.size(), 2u);
  ASSERT_EQ(r.log.decisions[0].slots.size(), 1u);
  EXPECT_THAT(r.log.decisions[0].slots[0].reason,
              HasSubstr("its new value 'getitem_1' is read by mul after the copy_ epilogue "
                        "'copy_' overwrites 'x'"));
  expect_equivalent(g, r.graph);

  // Without the late read both calls write x in place (a chain of mutations, R8).
  Graph chain = typed("x: \"f32[3]\", y: \"f32[3]\"", mutation_chain("    return ()\n"));
  ReinplaceResult rc = pass_b(chain);
  EXPECT_EQ(reinplace_counters(rc.log).missed, 0u);
  EXPECT_THAT(print_fx(rc.graph, &custom_ops()), HasSubstr("torch.ops.custom.sin.default(y, x)"));
  expect_equivalent(chain, rc.graph);
}

TEST(AutoFunctionalizedPass, ReadAliasingIsTorchAirsWhenTheCheckIsOff) {
  Graph g = typed("x: \"f32[3]\"", R"(    clone: "f32[3]" = torch.ops.aten.clone.default(x)
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.sin.default, x = clone, _result_base_index = 0, _all_bases = [clone])
    getitem_1: "f32[3]" = af[1]
    return (getitem_1,)
)");
  EXPECT_EQ(reinplace_counters(pass_b(g).log).missed, 1u);
  ReinplaceOptions torchair;
  OpRegistry reg = custom_ops();
  apply_reinplace_config_json(
      torchair, reg, R"({"reinplace": {"check_auto_functionalized_read_aliasing": false}})",
      "torchair.json");
  EXPECT_FALSE(torchair.check_auto_functionalized_read_aliasing);
  ReinplaceResult r = pass_b(g, torchair);
  EXPECT_EQ(reinplace_counters(r.log).missed, 0u);
  EXPECT_THAT(print_fx(r.graph, &custom_ops()),
              HasSubstr("torch.ops.custom.sin.default(clone, clone)"));
  expect_equivalent(g, r.graph);
}

TEST(AutoFunctionalizedPass, ACallUsedAsAWholeIsKept) {
  Graph g = typed("x: \"f32[3]\"", R"(    clone: "f32[3]" = torch.ops.aten.clone.default(x)
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _all_bases = [clone])
    return af
)");
  ReinplaceResult r = pass_b(g);
  EXPECT_FALSE(only_decision(r).success);
  EXPECT_THAT(only_decision(r).reason, HasSubstr("its result is used as a whole by 'output'"));
  EXPECT_EQ(r.graph, g);
}

// A cloned base that is a view (its storage offset unknown) cannot be copied
// with its layout, which the as_strided view of `x` needs: the call stays.
TEST(AutoFunctionalizedPass, ACloneThatCannotKeepItsLayoutKeepsTheCall) {
  Graph g =
      typed("x: \"f32[4]\"", R"(    slice_1: "f32[2]" = torch.ops.aten.slice.Tensor(x, 0, 1, 3)
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (1,), _x_stride = (1,), _x_storage_offset = 2, _all_bases = [slice_1])
    getitem_1: "f32[2]" = af[1]
    return (getitem_1,)
)");
  ReinplaceResult r = pass_b(g);
  EXPECT_FALSE(only_decision(r).success);
  EXPECT_THAT(only_decision(r).reason,
              HasSubstr("cannot be decomposed: base 'slice_1' is a view whose storage layout is "
                        "not known statically"));
  EXPECT_EQ(r.graph, g);
}

TEST(AutoFunctionalizedPass, DisablingPassBKeepsTheCalls) {
  Graph g = typed("x: \"f32[3]\"", boo_on_input("f32[3]"));
  ReinplaceOptions o;
  o.disable_reinplace_input_mutated_ops_pass = true;
  ReinplaceResult r = reinplace(g, custom_ops(), o);
  EXPECT_TRUE(has_target(r.graph, kAutoFunctionalizedV2Target));
  EXPECT_EQ(reinplace_counters(r.log).decomposed_calls, 0u);
}

TEST(AutoFunctionalizedPass, SavingsCountTheClonesAvoided) {
  Graph g = typed(
      "x: \"f32[2, 4]\"",
      R"(    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _all_bases = [x])
    getitem_1: "f32[2, 4]" = af[1]
    copy_: "f32[2, 4]" = torch.ops.aten.copy_.default(x, getitem_1)
    return ()
)");
  ReinplaceResult r = pass_b(g);
  EXPECT_EQ(r.savings.reinplaced_nodes, 1u);
  EXPECT_EQ(r.savings.output_buffer_bytes, SymInt(32));  // the clone's buffer
  EXPECT_EQ(r.savings.copy_bytes, SymInt(64));           // its read + write
  EXPECT_EQ(r.savings.removed_copies, 0u);               // the epilogue stays, x.copy_(x)
  expect_equivalent(g, r.graph);
}

}  // namespace
}  // namespace eqfuse
