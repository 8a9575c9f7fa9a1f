// The reinplace passes (passes/reinplace.hpp) rule by rule: the generic
// in-place lookup, each reason Pass A and Pass B refuse for, the table ops
// with their explicit projections, options and flags, the JSON config, the
// log and the memory traffic saved. Every rewritten graph is also checked
// against its input in the reference interpreter.
#include "passes/reinplace.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "interp/equivalence.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

const OpRegistry& builtin() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph typed(const std::string& body, const std::string& sig = "x: \"f32[2, 3]\"",
            const OpRegistry& reg = builtin()) {
  Graph g = parse_fx("def forward(self, " + sig + "):\n" + body, "reinplace.py");
  resolve_ops(g, reg);
  infer_types(g, reg);
  return g;
}

std::string target_of(const Graph& g, const std::string& name) {
  std::optional<NodeRef> r = g.find(name);
  return r ? g.node(*r).target : "<removed>";
}

std::string reason(const ReinplaceResult& r, const std::string& node,
                   ReinplacePass pass = ReinplacePass::InplaceableOps) {
  const ReinplaceDecision* d = r.log.find(node, pass);
  if (!d) return "<no decision>";
  return d->success ? "<reinplaced>" : d->reason;
}

void expect_equivalent(const Graph& before, const Graph& after, const OpRegistry& reg = builtin()) {
  EquivalenceOptions two_trials;
  two_trials.trials = 2;
  EquivalenceResult eq = equivalent(before, after, reg, two_trials);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch << "\n" << print_fx(after, &reg);
}

// ---- generic in-place lookup ------------------------------------------------------------

std::string twin_of(const OpRegistry& reg, const std::string& op) {
  std::optional<OpId> twin = generic_inplace_variant(reg, *reg.find(op));
  return twin ? reg.info(*twin).schema.qualified_name() : "none";
}

TEST(GenericInplaceVariant, NameUnderscoreWithAMatchingSchema) {
  EXPECT_EQ(twin_of(builtin(), "aten::add.Tensor"), "aten::add_.Tensor");
  EXPECT_EQ(twin_of(builtin(), "aten::mul.Scalar"), "aten::mul_.Scalar");
  EXPECT_EQ(twin_of(builtin(), "aten::silu"), "aten::silu_");
  EXPECT_EQ(twin_of(builtin(), "aten::copy"), "aten::copy_");
  EXPECT_EQ(twin_of(builtin(), "aten::sin"), "none");          // no sin_ registered
  EXPECT_EQ(twin_of(builtin(), "aten::view"), "none");         // views never
  EXPECT_EQ(twin_of(builtin(), "aten::add_.Tensor"), "none");  // already in place
  EXPECT_EQ(twin_of(builtin(), "npu::npu_rms_norm"), "none");  // several outputs
}

TEST(GenericInplaceVariant, UserOpsNeedTheSameArgumentsApartFromSelf) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  reg.register_op("mylib::scale(Tensor self, float factor) -> Tensor");
  reg.register_op("mylib::scale_(Tensor(a!) self, float factor) -> Tensor(a!)");
  reg.register_op("mylib::shift(Tensor self, float by) -> Tensor");
  reg.register_op("mylib::shift_(Tensor(a!) self, float amount) -> Tensor(a!)");
  EXPECT_EQ(twin_of(reg, "mylib::scale"), "mylib::scale_");
  EXPECT_EQ(twin_of(reg, "mylib::shift"), "none");  // argument name differs
}

// ---- Pass A ---------------------------------------------------------------------------

TEST(PassA, ReinplacesADeadIntermediateAndLeavesTheInputGraphAlone) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    c = torch.ops.aten.silu.default(b)
    return (c,)
)FX");
  Graph copy = g;
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_EQ(g, copy);
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add.Tensor");  // x is a graph input
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul_.Tensor");
  EXPECT_EQ(target_of(r.graph, "c"), "aten::silu_");
  // Later uses read the written buffer directly, as in TorchAir.
  const Node& silu = r.graph.node(*r.graph.find("c"));
  EXPECT_EQ(r.graph.node(silu.args[0].node()).name, "a");
  EXPECT_EQ(r.graph.node(r.graph.output_values().at(0)).name, "a");
  EXPECT_THAT(reason(r, "a"), HasSubstr("'x' is a graph input"));
  EXPECT_EQ(r.log.successes(), 2u);
  // f32[2, 3]: two output buffers of 24 bytes each are no longer allocated.
  EXPECT_EQ(r.savings.output_buffer_bytes, SymInt(48));
  EXPECT_EQ(r.savings.copy_bytes, SymInt(0));
  expect_equivalent(g, r.graph);
}

TEST(PassA, RefusesWhenTheBufferIsReadLater) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    v = torch.ops.aten.view.default(a, [6])
    n = torch.ops.aten.sym_size.int(a, 0)
    return (b, v, n)
)FX");
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul.Tensor");
  // The view is an alias: what counts is its user (the output); sym_size reads metadata only.
  EXPECT_THAT(reason(r, "b"), HasSubstr("'a' (or an alias) is still read afterwards by output"));
  expect_equivalent(g, r.graph);
}

TEST(PassA, RefusesAnArgumentReadTwiceOrThroughAnAlias) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, a)
    c = torch.ops.aten.add.Tensor(x, 2)
    t = torch.ops.aten.t.default(c)
    d = torch.ops.aten.add.Tensor(c, t)
    return (b, d)
)FX",
                  "x: \"f32[3, 3]\"");
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul.Tensor");
  EXPECT_THAT(reason(r, "b"), HasSubstr("'a' is also passed as 'other'"));
  EXPECT_EQ(target_of(r.graph, "d"), "aten::add.Tensor");
  EXPECT_THAT(reason(r, "d"), HasSubstr("argument 'other' (t) may alias 'c'"));
  expect_equivalent(g, r.graph);
}

TEST(PassA, RefusesBroadcastDtypeChangeAndInternalOverlap) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.add.Tensor(a, y)
    i = torch.ops.aten.add.Tensor(k, 1)
    f = torch.ops.aten.mul.Tensor(i, 0.5)
    e = torch.ops.aten.expand.default(x, [2, 3])
    g = torch.ops.aten.neg.default(e)
    return (b, f, g)
)FX",
                  "x: \"f32[3]\", y: \"f32[2, 3]\", k: \"i32[3]\"");
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_THAT(reason(r, "b"), HasSubstr("does not have the type of 'a'"));
  EXPECT_THAT(reason(r, "f"), HasSubstr("does not have the type of 'i'"));
  EXPECT_THAT(reason(r, "g"), HasSubstr("'e' may have internal memory overlap"));
  EXPECT_EQ(r.log.successes(), 0u);
}

TEST(PassA, NeverWritesAViewOfAnInput) {
  Graph g = typed(R"FX(    v = torch.ops.aten.view.default(x, [6])
    a = torch.ops.aten.neg.default(v)
    return (a,)
)FX");
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_THAT(reason(r, "a"), HasSubstr("'v' is a graph input or an alias of one"));
}

// ---- table ops ------------------------------------------------------------------------------

const char* kAddRmsNormV2Sig = "x1: \"f32[2, 8]\", x2: \"f32[2, 8]\", g: \"f32[8]\"";

TEST(TableOps, AddRmsNormV2OnIntermediatesMapsEveryProjection) {
  Graph g = typed(R"FX(    a = torch.ops.aten.mul.Tensor(x1, 2)
    b = torch.ops.aten.mul.Tensor(x2, 3)
    f = torch.ops.npu.npu_add_rms_norm_v2_functional.default(a, b, g)
    rstd = f[0]
    y = f[1]
    xs = f[2]
    out = torch.ops.aten.add.Tensor(y, xs)
    return (out, rstd)
)FX",
                  kAddRmsNormV2Sig);
  ReinplaceResult r = reinplace_inplaceable_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "f"), "npu::npu_add_rms_norm_v2");
  // rstd is the in-place op's only output: the node itself; y and x are the
  // new values of x1 (a) and x2 (b).
  EXPECT_EQ(target_of(r.graph, "rstd"), "<removed>");
  EXPECT_EQ(target_of(r.graph, "y"), "<removed>");
  const Node& out = r.graph.node(*r.graph.find("out"));
  EXPECT_EQ(r.graph.node(out.args[0].node()).name, "a");
  EXPECT_EQ(r.graph.node(out.args[1].node()).name, "b");
  EXPECT_EQ(r.graph.node(r.graph.output_values().at(1)).name, "f");
  EXPECT_EQ(describe(r.graph.node(*r.graph.find("f")).type), "f32[2, 1]");
  const ReinplaceDecision* d = r.log.find("f", ReinplacePass::InplaceableOps);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->removed_projections, (std::vector<std::string>{"rstd", "y", "xs"}));
  EXPECT_EQ(d->output_buffer_bytes, SymInt(2 * 64));  // y and x: 2 x 16 floats
  expect_equivalent(g, r.graph);
}

TEST(TableOps, OldValueReadLaterIsRefusedUnlessTorchAirCompatible) {
  const std::string body = R"FX(    a = torch.ops.aten.mul.Tensor(x1, 2)
    b = torch.ops.aten.mul.Tensor(x2, 3)
    f = torch.ops.npu.npu_add_rms_norm_v2_functional.default(a, b, g)
    y = f[1]
    late = torch.ops.aten.add.Tensor(a, y)
    return (late,)
)FX";
  Graph g = typed(body, kAddRmsNormV2Sig);
  ReinplaceResult sound = reinplace_inplaceable_ops(g, builtin());
  EXPECT_EQ(target_of(sound.graph, "f"), "npu::npu_add_rms_norm_v2_functional");
  EXPECT_THAT(reason(sound, "f"), HasSubstr("'a' (or an alias) is still read afterwards by late"));
  expect_equivalent(g, sound.graph);

  // TorchAir skips liveness for table ops: the rewrite happens and the later
  // read sees the overwritten buffer, which the interpreter catches.
  ReinplaceOptions torchair;
  torchair.check_multi_mutation_liveness = false;
  ReinplaceResult compat = reinplace_inplaceable_ops(g, builtin(), torchair);
  EXPECT_EQ(target_of(compat.graph, "f"), "npu::npu_add_rms_norm_v2");
  EXPECT_FALSE(equivalent(g, compat.graph, builtin()).ok);
}

TEST(TableOps, KvCacheUpdateThroughCopyEpiloguesBecomesInPlace) {
  Graph g = typed(
      R"FX(    f = torch.ops.npu.npu_kv_rmsnorm_rope_cache_v2_functional.default(kv, g, c, s, i, kc, cc)
    k_rope = f[0]
    c_kv = f[1]
    kc_new = f[2]
    cc_new = f[3]
    copy = torch.ops.aten.copy_.default(kc, kc_new)
    copy_1 = torch.ops.aten.copy_.default(cc, cc_new)
    return (k_rope, c_kv)
)FX",
      "kv: \"bf16[2, 1, 1, 576]\", g: \"bf16[512]\", c: \"bf16[2, 1, 1, 64]\", "
      "s: \"bf16[2, 1, 1, 64]\", i: \"i64[2]\", kc: \"bf16[4, 8, 1, 64]\", "
      "cc: \"bf16[4, 8, 1, 512]\"");
  ReinplaceResult a = reinplace_inplaceable_ops(g, builtin());
  EXPECT_THAT(reason(a, "f"), HasSubstr("'kc' is a graph input"));
  ReinplaceResult r = reinplace_input_mutated_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "f"), "npu::npu_kv_rmsnorm_rope_cache_v2");
  EXPECT_EQ(target_of(r.graph, "copy"), "<removed>");
  EXPECT_EQ(target_of(r.graph, "copy_1"), "<removed>");
  EXPECT_EQ(r.graph.node(*r.graph.find("k_rope")).kind, NodeKind::GetItem);
  EXPECT_EQ(r.graph.node(*r.graph.find("c_kv")).getitem_index(), 1);
  EXPECT_EQ(describe(r.graph.node(*r.graph.find("f")).type),
            "tuple(bf16[2, 1, 1, 64], bf16[2, 1, 1, 512])");
  // Caches: 4*8*64 and 4*8*512 bf16 elements = 4096 + 32768 bytes; each copy_
  // read and wrote its cache once.
  EXPECT_EQ(r.savings.output_buffer_bytes, SymInt(36864));
  EXPECT_EQ(r.savings.copy_bytes, SymInt(2 * 36864));
  EXPECT_EQ(r.savings.removed_copies, 2u);
  expect_equivalent(g, r.graph);
}

TEST(TableOps, EntriesAreCheckedAgainstTheRegistry) {
  InplaceableOpTable t = InplaceableOpTable::defaults();
  ASSERT_EQ(t.entries().size(), 3u);
  for (const InplaceableOp& e : t.entries())
    EXPECT_EQ(InplaceableOpTable::unusable_reason(e, builtin()), "") << e.functional;
  InplaceableOp bad = *t.find("npu::npu_add_rms_norm_v2_functional");
  bad.mutated_args = {2};
  bad.outputs = projections_by_convention(3, bad.mutated_args);
  EXPECT_THAT(InplaceableOpTable::unusable_reason(bad, builtin()),
              HasSubstr("does not mutate argument 2 ('gamma')"));
  bad = {"npu::nope_functional", "npu::nope", {0}, {}};
  EXPECT_THAT(InplaceableOpTable::unusable_reason(bad, builtin()),
              HasSubstr("not a registered op"));
  EXPECT_EQ(projections_by_convention(3, {0, 1}),
            (std::vector<OutputProjection>{{OutputProjection::Kind::InplaceOutput, 0},
                                           {OutputProjection::Kind::MutatedArg, 0},
                                           {OutputProjection::Kind::MutatedArg, 1}}));
}

// ---- Pass B ---------------------------------------------------------------------------------

TEST(PassB, CopyEpilogueIntoAnInputIsFoldedIntoTheOp) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    n = torch.ops.aten.sym_size.int(x, 0)
    copy = torch.ops.aten.copy_.default(x, a)
    return (a, n)
)FX");
  ReinplaceResult r = reinplace_input_mutated_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add_.Tensor");
  EXPECT_EQ(target_of(r.graph, "copy"), "<removed>");
  EXPECT_EQ(r.savings.copy_bytes, SymInt(48));
  EXPECT_EQ(r.savings.total_bytes(), SymInt(72));
  expect_equivalent(g, r.graph);
}

TEST(PassB, RefusesWhenTheInputIsReadBeforeItsEpilogue) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    v = torch.ops.aten.view.default(x, [6])
    b = torch.ops.aten.neg.default(v)
    copy = torch.ops.aten.copy_.default(x, a)
    return (a, b)
)FX");
  ReinplaceResult r = reinplace_input_mutated_ops(g, builtin());
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add.Tensor");
  EXPECT_THAT(reason(r, "a", ReinplacePass::InputMutatedOps),
              HasSubstr("'x' (or an alias) is read before its copy_ epilogue by v, b"));
  expect_equivalent(g, r.graph);
}

TEST(PassB, EpilogueMustCopyTheCandidate) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    copy = torch.ops.aten.copy_.default(x, b)
    return (a,)
)FX");
  ReinplaceResult r = reinplace_input_mutated_ops(g, builtin());
  // b is the copied value; its first argument `a` is an intermediate that is
  // still returned, so b cannot write it either.
  EXPECT_THAT(reason(r, "b", ReinplacePass::InputMutatedOps), HasSubstr("still read afterwards"));
  EXPECT_EQ(r.log.find("a", ReinplacePass::InputMutatedOps), nullptr);  // not a copy_ source
  expect_equivalent(g, r.graph);
}

// ---- options, streams, config -------------------------------------------------------------

const char* kTwoStreams = R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['1'])
    b = torch.ops.aten.mul.Tensor(a, 2)
    exit = torch.ops.air.scope_exit.default()
    c = torch.ops.aten.neg.default(a)
    return (b, c)
)FX";

TEST(Options, MultiStreamGraphsAreSkippedByDefaultAndCheckedPerNodeOnRequest) {
  Graph g = typed(kTwoStreams);
  ReinplaceResult skipped = reinplace(g, builtin());
  EXPECT_EQ(skipped.graph, g);
  EXPECT_THAT(skipped.log.notes.at(0), HasSubstr("in-graph multi-stream parallelism (streams 1)"));

  ReinplaceOptions per_node;
  per_node.multi_stream = MultiStreamPolicy::PerNode;
  ReinplaceResult r = reinplace(g, builtin(), per_node);
  // a's users b (stream '1') and c (default) differ: neither may write a.
  EXPECT_THAT(reason(r, "b"), HasSubstr("several streams (default, '1'): b, c"));
  const ReinplaceDecision* d = r.log.find("b", ReinplacePass::InplaceableOps);
  EXPECT_EQ(d->stream_check,
            "[multi_stream_single_reinplace]Current node: b, type: aten.mul.Tensor check no multi "
            "stream users failed for reinplace. The users of the mutated input node have multiple "
            "streams. All the users are [b, c].");
  EXPECT_EQ(target_of(r.graph, "c"), "aten::neg");
  expect_equivalent(g, r.graph);
}

TEST(Options, ModeAndDisableFlags) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    copy = torch.ops.aten.copy_.default(x, a)
    return (b,)
)FX");
  ReinplaceOptions ge;
  ge.mode = ExecMode::MaxAutotune;
  ReinplaceResult r = reinplace(g, builtin(), ge);
  EXPECT_EQ(r.graph, g);
  EXPECT_THAT(r.log.notes.at(0), HasSubstr("warning: the reinplace passes run only in "
                                           "reduce-overhead"));

  ReinplaceOptions no_a;
  no_a.disable_reinplace_inplaceable_ops_pass = true;
  r = reinplace(g, builtin(), no_a);
  EXPECT_THAT(r.log.lines(), ::testing::Contains(HasSubstr(
                                 "skipping reinplace_inplaceable_ops_pass: "
                                 "debug.aclgraph.disable_reinplace_inplaceable_ops_pass is set")));
  EXPECT_THAT(r.log.lines(),
              ::testing::Contains(std::string("processing reinplace_input_mutated_ops_pass")));
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul.Tensor");  // pass A did not run
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add_.Tensor");

  ReinplaceOptions none;
  none.disable_reinplace_inplaceable_ops_pass = true;
  none.disable_reinplace_input_mutated_ops_pass = true;
  EXPECT_EQ(reinplace(g, builtin(), none).graph, g);

  // Both passes: pass A cannot write a (the epilogue still reads it), then
  // pass B writes x and drops the epilogue.
  r = reinplace(g, builtin());
  EXPECT_THAT(reason(r, "b"), HasSubstr("still read afterwards by copy"));
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul.Tensor");
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add_.Tensor");
  EXPECT_EQ(target_of(r.graph, "copy"), "<removed>");
  expect_equivalent(g, r.graph);
}

TEST(Config, TorchAirKeysAndTheReinplaceSection) {
  ReinplaceOptions o;
  OpRegistry reg = OpRegistry::with_builtin_ops();
  apply_reinplace_config_json(o, reg, R"({
    "debug.aclgraph.disable_reinplace_inplaceable_ops_pass": true,
    "debug": {"aclgraph": {"disable_reinplace_input_mutated_ops_pass": true}},
    "pattern_fusion_pass": false,
    "reinplace": {
      "multi_stream": "per-node",
      "check_multi_mutation_liveness": false,
      "ops": ["custom::sc_inplace(Tensor x, Tensor(a!) s, Tensor(b!) c) -> () | kind=other",
              "custom::sc_functional(Tensor x, Tensor s, Tensor c) -> (Tensor, Tensor) | kind=other inplace=custom::sc_inplace"],
      "inplaceable_ops": [{"op": "custom::sc_functional", "inplace": "custom::sc_inplace",
                           "mutated_args": [1, 2]}]
    }})",
                              "cfg.json");
  EXPECT_TRUE(o.disable_reinplace_inplaceable_ops_pass);
  EXPECT_TRUE(o.disable_reinplace_input_mutated_ops_pass);
  EXPECT_EQ(o.multi_stream, MultiStreamPolicy::PerNode);
  EXPECT_FALSE(o.check_multi_mutation_liveness);
  const InplaceableOp* e = o.table.find("custom::sc_functional");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->outputs, projections_by_convention(2, {1, 2}));
  EXPECT_EQ(o.table.entries().size(), 4u);
}

TEST(Config, ErrorsNameTheKey) {
  ReinplaceOptions o;
  OpRegistry reg = OpRegistry::with_builtin_ops();
  auto message = [&](const std::string& text) {
    try {
      apply_reinplace_config_json(o, reg, text, "cfg.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("<no error>");
  };
  EXPECT_THAT(message(R"({"reinplace": {"colour": 1}})"),
              HasSubstr("cfg.json: config key 'reinplace.colour': unknown key"));
  EXPECT_THAT(message(R"({"debug.aclgraph.disable_reinplace_inplaceable_ops_pass": "yes"})"),
              HasSubstr("expected true or false"));
  EXPECT_THAT(message(R"({"reinplace": {"inplaceable_ops": [{"op": "aten::add.Tensor",
              "inplace": "aten::add_.Tensor", "mutated_args": [1]}]}})"),
              HasSubstr("does not mutate argument 1 ('other')"));
  EXPECT_THAT(message("{"), HasSubstr("invalid JSON"));
}

TEST(Log, LinesExplainEveryDecision) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    return (b,)
)FX");
  std::vector<std::string> lines = reinplace(g, builtin()).log.lines();
  EXPECT_THAT(lines, ::testing::Contains(
                         "reinplace_inplaceable_ops: a (aten::add.Tensor) kept (not "
                         "aten::add_.Tensor): 'x' is a graph input or an alias of one (handled "
                         "by reinplace_input_mutated_ops)"));
  EXPECT_THAT(lines, ::testing::Contains(
                         "reinplace_inplaceable_ops: b (aten::mul.Tensor) -> aten::mul_.Tensor: "
                         "reinplaced: writes into 'a', which is dead afterwards"));
  EXPECT_THAT(lines, ::testing::Contains(HasSubstr(
                         "[multi_stream_single_reinplace]Current node: b, type: aten.mul.Tensor "
                         "check no multi stream users success for reinplace.")));
}

TEST(Savings, SymbolicShapesGiveSymbolicBytes) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    copy = torch.ops.aten.copy_.default(x, b)
    return (b,)
)FX",
                  "x: \"bf16[s0, 4096]\"");
  ReinplaceResult r = reinplace(g, builtin());
  // Pass A: b writes a (8192*s0 bytes) and its uses now read a, so the
  // epilogue copies a. Pass B: a writes x (8192*s0) and the copy_ (read +
  // write, 2*8192*s0) goes.
  EXPECT_EQ(target_of(r.graph, "a"), "aten::add_.Tensor");
  EXPECT_EQ(target_of(r.graph, "b"), "aten::mul_.Tensor");
  EXPECT_EQ(r.savings.output_buffer_bytes.to_string(), "16384*s0");
  EXPECT_EQ(r.savings.copy_bytes.to_string(), "16384*s0");
  expect_equivalent(g, r.graph);
}

}  // namespace
}  // namespace eqfuse
