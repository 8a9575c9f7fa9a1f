// AliasAnalysis (graph/alias_analysis.hpp): which values share storage,
// which touch graph inputs, internal overlap, metadata-only uses and the
// liveness window the reinplace passes ask about.
#include "graph/alias_analysis.hpp"

#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"

namespace eqfuse {
namespace {

const OpRegistry& builtin() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph typed(const std::string& body, const std::string& sig = "x: \"f32[2, 3]\"") {
  Graph g = parse_fx("def forward(self, " + sig + "):\n" + body, "alias.py");
  resolve_ops(g, builtin());
  infer_types(g, builtin());
  return g;
}

NodeRef ref(const Graph& g, const std::string& name) {
  std::optional<NodeRef> r = g.find(name);
  EXPECT_TRUE(r.has_value()) << name;
  return r.value_or(NodeRef{0});
}

std::vector<std::string> names(const Graph& g, const std::vector<NodeRef>& refs) {
  std::vector<std::string> out;
  for (NodeRef r : refs) out.push_back(g.node(r).name);
  return out;
}

TEST(AliasAnalysis, ViewsAliasTheirBaseAndComputedValuesDoNot) {
  Graph g = typed(R"FX(    v = torch.ops.aten.view.default(x, [6])
    t = torch.ops.aten.transpose.int(x, 0, 1)
    s = torch.ops.aten.slice.Tensor(t, 0, 0, 2)
    a = torch.ops.aten.add.Tensor(x, 1)
    av = torch.ops.aten.view.default(a, [6])
    return (v, s, av)
)FX");
  AliasAnalysis aa(g, builtin());
  NodeRef x = ref(g, "x"), v = ref(g, "v"), s = ref(g, "s"), a = ref(g, "a"), av = ref(g, "av");
  EXPECT_TRUE(aa.may_alias(x, v));
  EXPECT_TRUE(aa.may_alias(x, s));  // a view of a view
  EXPECT_FALSE(aa.may_alias(x, a));
  EXPECT_TRUE(aa.may_alias(a, av));
  EXPECT_TRUE(aa.touches_input(s));
  EXPECT_FALSE(aa.touches_input(av));
  EXPECT_TRUE(aa.is_alias_node(v));
  EXPECT_FALSE(aa.is_alias_node(a));
  EXPECT_EQ(names(g, aa.nodes_in(aa.storages_of(a).at(0))), (std::vector<std::string>{"a", "av"}));
}

TEST(AliasAnalysis, InPlaceResultLivesInItsMutatedArgument) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul_.Tensor(a, a)
    c = torch.ops.aten.copy_.default(x, b)
    return (c,)
)FX");
  AliasAnalysis aa(g, builtin());
  EXPECT_TRUE(aa.may_alias(ref(g, "a"), ref(g, "b")));
  EXPECT_TRUE(aa.may_alias(ref(g, "x"), ref(g, "c")));
  EXPECT_FALSE(aa.may_alias(ref(g, "b"), ref(g, "c")));
  // An in-place op writes: it is a use, not a mere alias.
  EXPECT_FALSE(aa.is_alias_node(ref(g, "b")));
}

TEST(AliasAnalysis, TupleOutputsAreSeparateAndSplitPiecesShareTheBase) {
  Graph g = typed(R"FX(    n = torch.ops.npu.npu_add_rms_norm.default(x, y, g)
    y0 = n[0]
    x0 = n[2]
    sp = torch.ops.aten.split.Tensor(x0, 1)
    p0 = sp[0]
    p1 = sp[1]
    return (y0, p0, p1)
)FX",
                  "x: \"f16[2, 8]\", y: \"f16[2, 8]\", g: \"f16[8]\"");
  AliasAnalysis aa(g, builtin());
  EXPECT_FALSE(aa.may_alias(ref(g, "y0"), ref(g, "x0")));
  EXPECT_TRUE(aa.may_alias(ref(g, "p0"), ref(g, "x0")));
  EXPECT_TRUE(aa.may_alias(ref(g, "p0"), ref(g, "p1")));
  EXPECT_FALSE(aa.touches_input(ref(g, "y0")));
  EXPECT_EQ(aa.storages_of(ref(g, "n")).size(), 3u);
}

TEST(AliasAnalysis, OpaqueOpsMayReturnTheirArguments) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    o: "f32[2, 3]" = torch.ops.mylib.mystery.default(a, w)
    return (o,)
)FX",
                  "x: \"f32[2, 3]\", w: \"f32[2, 3]\"");
  AliasAnalysis aa(g, builtin());
  NodeRef a = ref(g, "a"), o = ref(g, "o"), w = ref(g, "w");
  EXPECT_TRUE(aa.may_alias(o, a));
  EXPECT_TRUE(aa.may_alias(o, w));
  EXPECT_TRUE(aa.touches_input(o));
  // ... without making its arguments alias each other.
  EXPECT_FALSE(aa.may_alias(a, w));
  EXPECT_FALSE(aa.touches_input(a));
}

TEST(AliasAnalysis, ExpandedTensorsOverlapInternally) {
  Graph g = typed(R"FX(    e = torch.ops.aten.expand.default(x, [4, 3])
    ev = torch.ops.aten.view.default(e, [12])
    a = torch.ops.aten.add.Tensor(e, 1)
    return (ev, a, z)
)FX",
                  "x: \"f32[1, 3]\", z: \"f32[4, 3][0, 1]\"");
  AliasAnalysis aa(g, builtin());
  EXPECT_TRUE(aa.may_overlap_internally(ref(g, "e")));
  EXPECT_TRUE(aa.may_overlap_internally(ref(g, "ev")));
  EXPECT_FALSE(aa.may_overlap_internally(ref(g, "a")));
  EXPECT_FALSE(aa.may_overlap_internally(ref(g, "x")));
  EXPECT_TRUE(aa.may_overlap_internally(ref(g, "z")));  // annotated zero stride
}

TEST(AliasAnalysis, MetadataOnlyUses) {
  Graph g = typed(R"FX(    n = torch.ops.aten.sym_size.int(x, 0)
    v = torch.ops.aten.view.default(x, [6])
    m = torch.ops.aten.sym_numel.default(v)
    w = torch.ops.aten.view.default(x, [3, 2])
    a = torch.ops.aten.neg.default(w)
    return (n, m, a)
)FX");
  AliasAnalysis aa(g, builtin());
  EXPECT_TRUE(aa.is_metadata_only_use(ref(g, "n")));
  EXPECT_TRUE(aa.is_metadata_only_use(ref(g, "v")));  // a view read only for its size
  EXPECT_FALSE(aa.is_metadata_only_use(ref(g, "w")));
  EXPECT_FALSE(aa.is_metadata_only_use(ref(g, "a")));
}

TEST(AliasAnalysis, UsesInWindowFollowAliases) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    v = torch.ops.aten.view.default(a, [6])
    c = torch.ops.aten.neg.default(v)
    s = torch.ops.aten.sym_size.int(a, 0)
    return (c, s)
)FX");
  AliasAnalysis aa(g, builtin());
  StorageSet sa = aa.storages_of(ref(g, "a"));
  AliasAnalysis::Window after_b;
  after_b.after = ref(g, "b").index;
  EXPECT_EQ(names(g, aa.uses_in_window(sa, after_b)), (std::vector<std::string>{"v", "c", "s"}));
  after_b.skip_alias_users = true;
  after_b.skip_metadata_users = true;
  EXPECT_EQ(names(g, aa.uses_in_window(sa, after_b)), (std::vector<std::string>{"c"}));
  AliasAnalysis::Window before_c;
  before_c.before = ref(g, "c").index;
  EXPECT_EQ(names(g, aa.uses_in_window(sa, before_c)), (std::vector<std::string>{"b", "v"}));
}

TEST(AliasAnalysis, RemovedNodesUseNothing) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.mul.Tensor(a, 2)
    return (b,)
)FX");
  std::vector<bool> removed(g.size(), false);
  removed[static_cast<size_t>(ref(g, "b").index)] = true;
  AliasAnalysis aa(g, builtin(), &removed);
  EXPECT_TRUE(aa.users(ref(g, "a")).empty());
  EXPECT_TRUE(aa.storages_of(ref(g, "b")).empty());
}

// A change the reinplace passes make: `b = relu(a)` becomes `relu_(a)`, and
// later readers of b read a. The kept analysis must answer like a fresh one
// after each step, including for the view of b that now lives in a.
TEST(AliasAnalysis, UpdateKeepsTheAnalysisEqualToAFreshOne) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.relu.default(a)
    v = torch.ops.aten.view.default(b, [6])
    n = torch.ops.aten.sym_numel.default(v)
    c = torch.ops.aten.neg.default(b)
    return (c, n)
)FX");
  NodeRef a = ref(g, "a"), b = ref(g, "b"), v = ref(g, "v"), c = ref(g, "c");
  std::vector<bool> removed(g.size(), false);
  AliasAnalysis aa(g, builtin(), &removed);
  EXPECT_FALSE(aa.may_alias(a, v));
  EXPECT_TRUE(aa.is_metadata_only_use(v));

  g.node(b).op = *builtin().find("aten::relu_");
  g.node(b).target = "aten::relu_";
  aa.update({b});
  EXPECT_TRUE(aa.may_alias(a, b));
  EXPECT_TRUE(aa.may_alias(a, v));  // followed from b to its view
  EXPECT_FALSE(aa.is_alias_node(b));
  EXPECT_EQ(aa.difference(AliasAnalysis(g, builtin(), &removed)), "");

  g.node(v).args[0] = Arg(a);
  g.node(c).args[0] = Arg(a);
  aa.update({v, c});
  EXPECT_EQ(names(g, aa.users(a)), (std::vector<std::string>{"b", "v", "c"}));
  EXPECT_TRUE(aa.users(b).empty());
  EXPECT_EQ(aa.difference(AliasAnalysis(g, builtin(), &removed)), "");

  // Removing the only reader of v: v's users change, and so does whether it
  // is read only for its size.
  removed[static_cast<size_t>(ref(g, "n").index)] = true;
  aa.remove(ref(g, "n"));
  EXPECT_FALSE(aa.is_metadata_only_use(v));
  EXPECT_EQ(aa.difference(AliasAnalysis(g, builtin(), &removed)), "");
}

// The check is not vacuous: an analysis not told about a change differs, and
// names the first node that answers differently.
TEST(AliasAnalysis, DifferenceNamesTheFirstStaleNode) {
  Graph g = typed(R"FX(    a = torch.ops.aten.add.Tensor(x, 1)
    b = torch.ops.aten.relu.default(a)
    v = torch.ops.aten.view.default(b, [6])
    return (v,)
)FX");
  AliasAnalysis before(g, builtin());
  g.node(ref(g, "v")).args[0] = Arg(ref(g, "a"));
  AliasAnalysis rewired(g, builtin());
  EXPECT_EQ(before.difference(rewired), "'a' (node 1): storages differ");  // now shared with v
  g.node(ref(g, "b")).op = *builtin().find("aten::relu_");
  EXPECT_EQ(rewired.difference(AliasAnalysis(g, builtin())), "'a' (node 1): storages differ");
  EXPECT_EQ(rewired.difference(rewired), "");
}

TEST(AliasAnalysis, OpBaseName) {
  EXPECT_EQ(op_base_name("aten::sym_size.int"), "aten::sym_size");
  EXPECT_EQ(op_base_name("npu::npu_add_rms_norm"), "npu::npu_add_rms_norm");
  EXPECT_EQ(op_base_name("operator.add"), "operator");
}

}  // namespace
}  // namespace eqfuse
