// Views made safe for strided inputs (graph/view_safety.hpp): which views
// become reshapes, which keep the traced spelling, and TorchAir's
// view -> reshape normalisation.
#include <gtest/gtest.h>

#include <string>

#include "graph/io/load.hpp"
#include "graph/view_safety.hpp"

namespace eqfuse {
namespace {

const OpRegistry& registry() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

Graph load(std::string_view fx) {
  return load_graph(fx, "t.fx", registry()).graph;
}

std::string target_of(const Graph& g, std::string_view name) {
  return g.node(*g.find(name)).target;
}

// The traced graph: a contiguous matmul result viewed and re-aliased.
constexpr std::string_view kTraced = R"(
def forward(self, x: "f32[4, 8]", w: "f32[6, 8]"):
    t = torch.ops.aten.t.default(w)
    mm = torch.ops.aten.mm.default(x, t)
    v = torch.ops.aten.view.default(mm, [2, 2, 6])
    a = torch.ops.aten._reshape_alias.default(v, [4, 6], [6, 1])
    return (a,)
)";

// The same values after a rewrite: mm's result is now a column slice of a
// wider matmul, so `v` and `a` see a strided tensor.
constexpr std::string_view kRewritten = R"(
def forward(self, x: "f32[4, 8]", w: "f32[6, 8]"):
    cat = torch.ops.aten.cat.default([w, w])
    t = torch.ops.aten.t.default(cat)
    wide = torch.ops.aten.mm.default(x, t)
    split = torch.ops.aten.split_with_sizes.default(wide, [6, 6], 1)
    mm = split[0]
    v = torch.ops.aten.view.default(mm, [2, 2, 6])
    a = torch.ops.aten._reshape_alias.default(v, [4, 6], [6, 1])
    return (a,)
)";

TEST(ViewSafety, ViewsOfAColumnSliceBecomeReshapes) {
  Graph input = load(kTraced);
  Graph out = load(kRewritten);
  EXPECT_EQ(reshape_unsafe_views(out, input, registry()), 2u);
  EXPECT_EQ(target_of(out, "v"), "aten::reshape");
  EXPECT_EQ(target_of(out, "a"), "aten::reshape");
  EXPECT_EQ(out.node(*out.find("a")).args.size(), 2u);  // the stale strides are gone
}

TEST(ViewSafety, ContiguousInputsKeepTheirViews) {
  Graph input = load(kTraced);
  Graph out = load(kTraced);
  EXPECT_EQ(reshape_unsafe_views(out, input, registry()), 0u);
  EXPECT_EQ(target_of(out, "v"), "aten::view");
  EXPECT_EQ(target_of(out, "a"), "aten::_reshape_alias");
}

TEST(ViewSafety, LeadingDimCutsStayContiguous) {
  // A split along dim 0 keeps row-major blocks: its views stay views.
  std::string fx(kRewritten);
  fx.replace(fx.find("[6, 6], 1)"), 10, "[2, 2], 0)");
  fx.replace(fx.find("[2, 2, 6])"), 10, "[1, 2, 12])");
  fx.replace(fx.find("[4, 6], [6, 1])"), 15, "[2, 12], [12, 1])");
  Graph out = load(fx);
  EXPECT_EQ(reshape_unsafe_views(out, load(kTraced), registry()), 0u);
}

TEST(ViewSafety, ViewsTracedOnStridedInputsKeepTheirSpelling) {
  // The input itself views a transpose (valid as traced: only dims split).
  constexpr std::string_view kStrided = R"(
def forward(self, x: "f32[4, 6]"):
    tr = torch.ops.aten.transpose.int(x, 0, 1)
    v = torch.ops.aten.view.default(tr, [2, 3, 4])
    return (v,)
)";
  Graph input = load(kStrided);
  Graph out = load(kStrided);
  EXPECT_EQ(reshape_unsafe_views(out, input, registry()), 0u);
  EXPECT_EQ(target_of(out, "v"), "aten::view");
}

// make_fx writes the strides of a dynamic-shape _reshape_alias as SymInt nodes. Traced
// on a contiguous tensor (a clone), they are row-major; once the clone is gone (its
// input is a transpose in the output), the alias must become a reshape too.
TEST(ViewSafety, SymbolicAliasStridesOfAContiguousInputBecomeReshapes) {
  constexpr std::string_view kCloned = R"(
def forward(self, x: "f32[s0, 4, 6]"):
    tr = torch.ops.aten.transpose.int(x, 1, 2)
    c = torch.ops.aten.clone.default(tr, memory_format = torch.contiguous_format)
    n = torch.ops.aten.sym_size.int(x, 0)
    a = torch.ops.aten._reshape_alias.default(c, [n, 24], [24, 1])
    return (a,)
)";
  constexpr std::string_view kSymbolicStride = R"(
def forward(self, x: "f32[s0, 4, 6]"):
    tr = torch.ops.aten.transpose.int(x, 1, 2)
    c = torch.ops.aten.clone.default(tr, memory_format = torch.contiguous_format)
    n = torch.ops.aten.sym_size.int(x, 0)
    m = torch.ops.aten.sym_size.int(x, 1)
    a = torch.ops.aten._reshape_alias.default(c, [n, m, 6], [24, 6, 1])
    return (a,)
)";
  for (std::string_view traced : {kCloned, kSymbolicStride}) {
    std::string rewritten(traced);
    rewritten.replace(rewritten.find("torch.ops.aten._reshape_alias.default(c,"), 40,
                      "torch.ops.aten._reshape_alias.default(tr,");
    Graph input = load(traced);
    Graph out = load(rewritten);
    EXPECT_EQ(reshape_unsafe_views(out, input, registry()), 1u) << traced;
    EXPECT_EQ(target_of(out, "a"), "aten::reshape");
  }
}

TEST(ViewSafety, ViewToReshapeRewritesEveryView) {
  Graph g = load(kTraced);
  EXPECT_EQ(views_to_reshape(g, registry()), 2u);
  EXPECT_EQ(target_of(g, "v"), "aten::reshape");
  EXPECT_EQ(target_of(g, "a"), "aten::reshape");
  EXPECT_EQ(target_of(g, "mm"), "aten::mm");
}

}  // namespace
}  // namespace eqfuse
