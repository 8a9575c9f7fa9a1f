// Loading FX graphs into the e-graph: encoding, CSE, streams, opaque ops,
// roots and the tensor analysis on real dumps.
#include "bridge/from_graph.hpp"

#include <filesystem>
#include <set>

#include <gtest/gtest.h>

#include "bridge/tensor_analysis.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

constexpr const char* kSmall = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[4, 8]", y: "f16[4, 8]"):
        add: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y)
        add_1: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y, alpha = 1)
        mul: "f16[4, 8]" = torch.ops.aten.mul.Tensor(add, add_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream1'])
        add_2: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y)
        scope_exit = torch.ops.air.scope_exit.default()
        mystery: "f16[4, 8]" = torch.ops.mylib.mystery.default(x)
        mystery_1: "f16[4, 8]" = torch.ops.mylib.mystery.default(x)
        copy_ = torch.ops.aten.copy_.default(y, mul)
        return (mul, add_2, mystery, mystery_1)
)";

struct Loaded {
  LoadedGraph graph;
  LoadedEGraph eg;
};

Loaded load_text(EGraph& g, std::string_view text, std::string_view name) {
  Loaded l{load_graph(text, name, builtin_registry()), {}};
  l.eg = load_into_egraph(l.graph.graph, builtin_registry(), g);
  g.rebuild();
  g.check_invariants();
  return l;
}

Id cls(const EGraph& g, const Loaded& l, std::string_view node) {
  return g.find(l.eg.class_of(*l.graph.graph.find(node)));
}

TEST(FromGraph, IdenticalCallsShareOneClass) {
  EGraph g;
  Loaded l = load_text(g, kSmall, "small.fx");
  EXPECT_EQ(cls(g, l, "add"), cls(g, l, "add_1"));  // explicit default alpha normalizes away
  NodeView mul = g.node(g.class_nodes(cls(g, l, "mul"))[0]);
  EXPECT_EQ(mul.op.str(), "aten::mul.Tensor");
  ASSERT_EQ(mul.children.size(), 2u);
  EXPECT_EQ(mul.children[0], mul.children[1]);
}

TEST(FromGraph, StreamsAndOpaqueCallsAreNeverMerged) {
  EGraph g;
  Loaded l = load_text(g, kSmall, "small.fx");
  EXPECT_NE(cls(g, l, "add"), cls(g, l, "add_2"));  // same call on stream1
  EXPECT_NE(cls(g, l, "mystery"), cls(g, l, "mystery_1"));
  EXPECT_EQ(l.eg.opaque_calls, 2u);
  NodeView on_stream = g.node(g.class_nodes(cls(g, l, "add_2"))[0]);
  EXPECT_EQ(on_stream.payload, Symbol::intern("stream1").id());
  NodeView opaque = g.node(g.class_nodes(cls(g, l, "mystery"))[0]);
  EXPECT_EQ(opaque.op.str(), "opaque:mylib::mystery");
  ASSERT_EQ(opaque.children.size(), 1u);
  EXPECT_EQ(g.find(opaque.children[0]), cls(g, l, "x"));
}

TEST(FromGraph, ConstantsAreLeavesOnePerSchemaArgument) {
  EGraph g;
  Loaded l = load_text(g, kSmall, "small.fx");
  NodeView add = g.node(g.class_nodes(cls(g, l, "add"))[0]);
  ASSERT_EQ(add.children.size(), 3u);  // self, other, alpha
  auto alpha = g.constant_of(add.children[2]);
  ASSERT_TRUE(alpha.has_value());
  EXPECT_EQ(*alpha, Constant::integer(1));
  NodeView x = g.node(g.class_nodes(cls(g, l, "x"))[0]);
  NodeView y = g.node(g.class_nodes(cls(g, l, "y"))[0]);
  EXPECT_EQ(x.op.str(), graph_ops::kPlaceholder);
  EXPECT_NE(x.payload, y.payload);
}

TEST(FromGraph, RootsAreOutputsThenSideEffects) {
  EGraph g;
  Loaded l = load_text(g, kSmall, "small.fx");
  ASSERT_EQ(l.eg.outputs.size(), 4u);
  EXPECT_EQ(g.find(l.eg.outputs[0]), cls(g, l, "mul"));
  auto is_root = [&](std::string_view name) {
    for (Id r : l.eg.roots)
      if (g.find(r) == cls(g, l, name)) return true;
    return false;
  };
  EXPECT_TRUE(is_root("copy_"));
  EXPECT_TRUE(is_root("scope_enter"));
  EXPECT_TRUE(is_root("scope_exit"));
  EXPECT_FALSE(is_root("add"));
  EXPECT_EQ(l.eg.roots.size(), 4u + 3u);  // mystery calls are outputs already
}

TEST(FromGraph, MultiOutputOpIsOneNodeWithGetitemProjections) {
  EGraph g;
  std::string text = read_file_or_stdin(std::filesystem::path(EQFUSE_SOURCE_DIR) /
                                        "examples/add_rms_norm_cast.fx");
  Loaded l = load_text(g, text, "add_rms_norm_cast.fx");
  NodeView p0 = g.node(g.class_nodes(cls(g, l, "getitem"))[0]);
  NodeView p2 = g.node(g.class_nodes(cls(g, l, "getitem_2"))[0]);
  EXPECT_EQ(p0.op.str(), graph_ops::kGetItem);
  EXPECT_EQ(g.find(p0.children[0]), g.find(p2.children[0]));
  EXPECT_EQ(g.find(p0.children[0]), cls(g, l, "npu_add_rms_norm"));
  EXPECT_EQ(*g.constant_of(p2.children[1]), Constant::integer(2));
}

TEST(FromGraph, LoadsEveryExampleWithConsistentCounts) {
  size_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(EQFUSE_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".fx") continue;
    TensorAnalysis types(builtin_registry());
    EGraph g(&types);
    Loaded l = load_text(g, read_file_or_stdin(entry.path()), entry.path().filename().string());
    const Graph& graph = l.graph.graph;
    size_t values = 0;
    std::set<Id> value_classes;
    for (size_t i = 0; i < graph.size(); ++i) {
      if (graph.nodes()[i].kind == NodeKind::Output) {
        EXPECT_EQ(l.eg.node_class[i], kNoId);
        continue;
      }
      ++values;
      value_classes.insert(g.find(l.eg.node_class[i]));
    }
    // Every graph value has a class; classes = values (minus CSE) + constants/lists.
    EXPECT_LE(value_classes.size(), values) << entry.path();
    EXPECT_GE(g.num_classes(), value_classes.size()) << entry.path();
    EXPECT_EQ(l.eg.outputs.size(), graph.output_values().size()) << entry.path();
    // The analysis agrees with the dump's annotations for every annotated tensor.
    for (size_t i = 0; i < graph.size(); ++i) {
      const Node& n = graph.nodes()[i];
      if (n.kind == NodeKind::Output || !n.type.is_tensor() || !n.type_annotated) continue;
      const TensorFact& f = types.data(g.find(l.eg.node_class[i]));
      ASSERT_TRUE(f.type.is_tensor()) << entry.path() << " " << n.name;
      EXPECT_EQ(f.type.tensor.dtype, n.type.tensor.dtype) << entry.path() << " " << n.name;
      EXPECT_EQ(f.type.tensor.shape, n.type.tensor.shape) << entry.path() << " " << n.name;
    }
    ++files;
  }
  EXPECT_GE(files, 4u);
}

// LoadedEGraph::storages: the classes living in written, input and returned
// storages, which guard the rules that return an input (rewrites/rule.hpp).
TEST(FromGraph, RecordsWrittenInputAndReturnedStorages) {
  EGraph g;
  Loaded l = load_text(g, R"(class f(torch.nn.Module):
    def forward(self, x: "f32[8]", y: "f32[8]"):
        v: "f32[2, 4]" = torch.ops.aten.view.default(x, [2, 4])
        c: "f32[8]" = torch.ops.aten.clone.default(y)
        add: "f32[8]" = torch.ops.aten.add.Tensor(c, 1)
        copy_: "f32[8]" = torch.ops.aten.copy_.default(x, add)
        t: "f32[8]" = torch.ops.aten.alias.default(add)
        return (t, v)
)",
                       "storages.fx");
  auto classes = [&](const std::vector<Id>& ids) {
    std::set<Id> out;
    for (Id id : ids) out.insert(g.find(id));
    return out;
  };
  auto of = [&](std::initializer_list<const char*> names) {
    std::set<Id> out;
    for (const char* n : names) out.insert(cls(g, l, n));
    return out;
  };
  const LoadedEGraph::StorageClasses& st = l.eg.storages;
  // x is written by the copy_ (v and the copy_'s own result live there too).
  EXPECT_EQ(classes(st.written), of({"x", "v", "copy_"}));
  EXPECT_EQ(classes(st.inputs), of({"x", "y", "v", "copy_"}));
  // t is returned and aliases add; v is returned and aliases x.
  EXPECT_EQ(classes(st.outputs), of({"add", "t", "x", "v", "copy_"}));
}

TEST(FromGraph, UnnormalizedCallIsAnError) {
  Graph graph;
  Node x;
  x.kind = NodeKind::Placeholder;
  x.name = "x";
  NodeRef xr = graph.add(x);
  Node add;
  add.kind = NodeKind::Call;
  add.name = "add";
  add.target = "aten::add.Tensor";
  add.op = *builtin_registry().find("aten::add.Tensor");
  add.args = {Arg(xr)};  // missing `other` and `alpha`
  graph.add(add);
  EGraph g;
  EXPECT_THROW(load_into_egraph(graph, builtin_registry(), g), Error);
}

}  // namespace
}  // namespace eqfuse
