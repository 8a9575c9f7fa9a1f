// Back from the e-graph to an FX graph (bridge/to_graph.hpp): round trips
// of real graphs through load -> extract -> emit with every extractor, and
// hand-made unions (a fused node, a node on a stream) whose emitted graph is
// checked node by node and against the reference interpreter.
#include "bridge/to_graph.hpp"

#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "extract/extractor.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "pipeline/egraph_problem.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

namespace fs = std::filesystem;

// A graph loaded into its own e-graph, ready for hand-made unions.
struct Loaded {
  Graph input;
  TensorAnalysis types{builtin_registry()};
  EGraph g{&types};
  LoadedEGraph loaded;

  explicit Loaded(std::string_view text, std::string_view name = "test.fx")
      : input(load_graph(text, name, builtin_registry()).graph) {
    loaded = load_into_egraph(input, builtin_registry(), g);
    g.rebuild();
  }
  Id cls(std::string_view node) const { return g.find(loaded.class_of(*input.find(node))); }
  Id constant(const Constant& c) { return g.add_constant(c); }
};

// 1 per kernel-like node; leaves, constants, lists and projections are free.
double op_cost(const EGraph& g, Id node) {
  const Symbol op = g.node_op(node);
  const std::string_view s = op.str();
  if (is_constant_op(op) || s == graph_ops::kPlaceholder || s == graph_ops::kGetAttr ||
      s == graph_ops::kGetItem || s == graph_ops::kList || s == graph_ops::kTuple)
    return 0;
  return 1;
}

Graph extract_and_emit(Loaded& l, std::string_view extractor, const EnodeCostFn& cost = nullptr) {
  EnodeCostFn price = cost ? cost : [&l](Id n) { return op_cost(l.g, n); };
  EGraphProblem ep = build_problem(l.g, l.loaded.roots, price);
  ExtractOptions opt;
  opt.time_limit_s = 5;
  Extraction x = extract(ep.problem, extractor, opt);
  return emit_graph(EmitRequest{l.g, l.types, builtin_registry(), l.input, l.loaded,
                                [&](Id c) { return ep.chosen_node(x, c); }});
}

std::string printed(const Graph& g) {
  return print_fx(g, &builtin_registry());
}

// ---- round trips -----------------------------------------------------------

void expect_round_trip(const fs::path& file) {
  SCOPED_TRACE(file.string());
  Loaded l(read_file_or_stdin(file), file.filename().string());
  const std::string want = printed(l.input);
  for (const std::string& name : extractor_names()) {
    Graph out = extract_and_emit(l, name);
    EXPECT_EQ(printed(out), want) << name;
    EXPECT_TRUE(out == l.input) << name;
  }
}

TEST(ToGraph, ExamplesRoundTripWithEveryExtractor) {
  for (const char* f : {"seed_add_rms_norm_dynamic_quant.fx", "matmul_transpose.fx",
                        "add_rms_norm_cast.fx", "deepseek_layer.fx"})
    expect_round_trip(fs::path(EQFUSE_SOURCE_DIR) / "examples" / f);
}

TEST(ToGraph, DumpsRoundTripWithEveryExtractor) {
  // Dumps without duplicate computations or dead nodes (both are removed by
  // loading into the e-graph, see CseAndDeadCodeAreNotReemitted).
  for (const char* f :
       {"torchair-docs_1.txt", "torchair-docs_2.txt", "torchair-docs_3.txt", "pytorch-tests_2.txt",
        "pytorch-tests_4.txt", "pytorch-tests_5.txt", "pytorch-tests_6.txt", "pytorch-tests_7.txt",
        "pytorch-tests_8.txt", "learn-torch-compile_2.txt", "learn-torch-compile_3.txt",
        "learn-torch-compile_5.txt", "learn-torch-compile_6.txt", "packt-pytorch2_1.txt",
        "triton-data_1.txt"})
    expect_round_trip(fs::path(EQFUSE_TEST_DATA) / "fx-dumps" / f);
}

constexpr const char* kStreams = R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[4, 8]", y: "f16[4, 8]"):
        add: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y)
        add_1: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y, alpha = 1)
        mul: "f16[4, 8]" = torch.ops.aten.mul.Tensor(add, add_1)
        unused: "f16[4, 8]" = torch.ops.aten.neg.default(x)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream1'])
        add_2: "f16[4, 8]" = torch.ops.aten.add.Tensor(x, y)
        scope_exit = torch.ops.air.scope_exit.default()
        copy_ = torch.ops.aten.copy_.default(y, mul)
        return (mul, add_2)
)";

TEST(ToGraph, CseAndDeadCodeAreNotReemitted) {
  Loaded l(kStreams);
  Graph out = extract_and_emit(l, "greedy-dag");
  EXPECT_FALSE(out.find("add_1").has_value());   // same call as add
  EXPECT_FALSE(out.find("unused").has_value());  // no user, no effect
  const Node& mul = out.node(*out.find("mul"));
  EXPECT_EQ(mul.args[0], Arg(*out.find("add")));
  EXPECT_EQ(mul.args[1], Arg(*out.find("add")));
  std::vector<std::string> names;
  for (const Node& n : out.nodes()) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "add", "mul", "scope_enter", "add_2",
                                             "scope_exit", "copy_", "output"}));
  EXPECT_EQ(out.node(*out.find("add_2")).meta.stream, "stream1");
  EXPECT_EQ(out.node(*out.find("add")).meta.stream, "");
}

TEST(ToGraph, EmittedGraphsAreEquivalentToTheInput) {
  for (const char* text : {kStreams}) {
    Loaded l(text);
    Graph out = extract_and_emit(l, "ilp");
    EquivalenceOptions opt;
    opt.trials = 2;
    EquivalenceResult r = equivalent(l.input, out, builtin_registry(), opt);
    EXPECT_TRUE(r.ok) << r.first_mismatch;
  }
  Loaded seed(read_file_or_stdin(fs::path(EQFUSE_SOURCE_DIR) /
                                 "examples/seed_add_rms_norm_dynamic_quant.fx"));
  EquivalenceResult r =
      equivalent(seed.input, extract_and_emit(seed, "bottom-up"), builtin_registry(), {});
  EXPECT_TRUE(r.ok) << r.first_mismatch;
}

// ---- hand-made unions ------------------------------------------------------

constexpr const char* kAddRmsNormCast = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 3, 64]", arg1_1: "f16[2, 3, 64]", arg2_1: "f16[64]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 3, 64]" = npu_add_rms_norm[0]
        getitem_1: "f32[2, 3, 1]" = npu_add_rms_norm[1]
        getitem_2: "f16[2, 3, 64]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        view: "f16[6, 64]" = torch.ops.aten.view.default(getitem, [-1, 64])
        _to_copy: "f32[6, 64]" = torch.ops.aten._to_copy.default(view, dtype = torch.float32);  view = None
        return (getitem, getitem_2, _to_copy)
)";

// Adds npu_add_rms_norm_cast(x1, x2, gamma) and unions its outputs with the
// unfused ones: y -> getitem, x -> getitem_2, view(y_fp32) -> _to_copy.
Id add_fused_cast(Loaded& l) {
  EGraph& g = l.g;
  const Id eps = l.constant(Constant::floating(1e-06));
  const Id fused = g.add(Symbol::intern("npu::npu_add_rms_norm_cast"),
                         std::vector<Id>{l.cls("arg0_1"), l.cls("arg1_1"), l.cls("arg2_1"), eps});
  auto item = [&](int64_t i) {
    return g.add(Symbol::intern("getitem"),
                 std::vector<Id>{fused, l.constant(Constant::integer(i))});
  };
  const Id shape = l.constant(Constant::int_list(std::vector<int64_t>{-1, 64}));
  const Id view = g.add(Symbol::intern("aten::view"), std::vector<Id>{item(0), shape});
  g.merge(item(1), l.cls("getitem"));
  g.merge(item(3), l.cls("getitem_2"));
  g.merge(view, l.cls("_to_copy"));
  g.rebuild();
  return fused;
}

// The fused kernel is a little cheaper than the one it replaces, so even the
// tree-cost extractor prefers it for each output.
EnodeCostFn fused_is_cheaper(Loaded& l, Id fused) {
  return [&l, fused](Id n) { return n == fused ? 0.9 : op_cost(l.g, n); };
}

TEST(ToGraph, FusedNodeGetsTorchNamesAndTakesTheFirstReplacedPlace) {
  Loaded l(kAddRmsNormCast);
  const Id fused_id = add_fused_cast(l);
  for (const std::string& name : extractor_names()) {
    SCOPED_TRACE(name);
    Graph out = extract_and_emit(l, name, fused_is_cheaper(l, fused_id));
    std::vector<std::string> names;
    for (const Node& n : out.nodes()) names.push_back(n.name);
    // The fused op is cheaper (2 kernels instead of 3); input names are
    // never reused, and only the used outputs 0, 1, 3 get a getitem.
    EXPECT_EQ(names, (std::vector<std::string>{"arg0_1", "arg1_1", "arg2_1",
                                               "npu_add_rms_norm_cast", "getitem_3", "getitem_4",
                                               "getitem_5", "view_1", "output"}));
    const Node& fused = out.node(*out.find("npu_add_rms_norm_cast"));
    EXPECT_EQ(fused.target, "npu::npu_add_rms_norm_cast");
    EXPECT_EQ(fused.args.size(), 4u);
    EXPECT_EQ(fused.args[3], Arg(1e-06));
    EXPECT_EQ(out.node(*out.find("getitem_3")).getitem_index(), 1);  // y, first used
    EXPECT_EQ(out.node(*out.find("getitem_4")).getitem_index(), 3);  // x
    EXPECT_EQ(out.node(*out.find("getitem_5")).getitem_index(), 0);  // y_fp32, for the view
    const Node& view = out.node(*out.find("view_1"));
    EXPECT_EQ(view.args[1], Arg::list({Arg(int64_t{-1}), Arg(int64_t{64})}));
    EXPECT_EQ(print_fx(out, &builtin_registry()).find("None = None"), std::string::npos);
    // Types from the analysis, confirmed by infer_types.
    EXPECT_EQ(describe(view.type), "f32[6, 64]");
    EXPECT_EQ(describe(out.node(*out.find("getitem_3")).type), "f16[2, 3, 64]");
    EXPECT_FALSE(view.type_annotated);
    const std::string text = print_fx(out, &builtin_registry());
    EXPECT_EQ(text.substr(text.rfind("return")), "return (getitem_3, getitem_4, view_1)\n");
  }
}

TEST(ToGraph, FusedGraphIsEquivalentToTheInput) {
  Loaded l(kAddRmsNormCast);
  const Id fused_id = add_fused_cast(l);
  Graph out = extract_and_emit(l, "greedy-dag", fused_is_cheaper(l, fused_id));
  ASSERT_TRUE(out.find("npu_add_rms_norm_cast").has_value());
  EquivalenceOptions opt;
  opt.mode = ToleranceMode::Rounding;
  EquivalenceResult r = equivalent(l.input, out, builtin_registry(), opt);
  EXPECT_TRUE(r.ok) << r.first_mismatch;
}

TEST(ToGraph, NewStreamNodeStaysInsideItsScope) {
  Loaded l(kStreams);
  // add(y, x) on stream1, made the cheaper form of add_2.
  const Id swapped =
      l.g.add(Symbol::intern("aten::add.Tensor"),
              std::vector<Id>{l.cls("y"), l.cls("x"), l.constant(Constant::integer(1))},
              Symbol::intern("stream1").id());
  l.g.merge(swapped, l.cls("add_2"));
  l.g.rebuild();
  const Graph out =
      extract_and_emit(l, "bottom-up", [&](Id n) { return n == swapped ? 0.5 : op_cost(l.g, n); });
  std::vector<std::string> names;
  for (const Node& n : out.nodes()) names.push_back(n.name);
  EXPECT_EQ(names, (std::vector<std::string>{"x", "y", "add", "mul", "scope_enter", "add_3",
                                             "scope_exit", "copy_", "output"}));
  const Node& add3 = out.node(*out.find("add_3"));
  EXPECT_EQ(add3.meta.stream, "stream1");
  EXPECT_EQ(add3.args[0], Arg(*out.find("y")));
  EXPECT_EQ(print_fx(out, &builtin_registry()).find("return (mul, add_3)") != std::string::npos,
            true);
}

TEST(ToGraph, FoldedConstantBecomesALiteral) {
  Loaded l(R"(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4, 8]"):
        sym_size_int = torch.ops.aten.sym_size.int(x, 0)
        view: "f32[4, 8]" = torch.ops.aten.view.default(x, [sym_size_int, 8])
        return (view,)
)");
  // The tensor analysis folds sym_size(x, 0) to the constant 4, which costs
  // nothing: the size disappears and the list holds the literal.
  const Graph out = extract_and_emit(l, "greedy-dag");
  EXPECT_FALSE(out.find("sym_size_int").has_value());
  const Node& view = out.node(*out.find("view"));
  EXPECT_EQ(view.args[1], Arg::list({Arg(int64_t{4}), Arg(int64_t{8})}));
  EXPECT_EQ(out.size(), 3u);  // x, view, output
}

// --time-limit bounds emission too: with no time left it stops before any
// work, naming the step, and the caller keeps the graph it had.
TEST(ToGraph, ATimeLimitOfZeroStopsBeforeAnyWork) {
  Loaded l(kStreams);
  EGraphProblem ep = build_problem(l.g, l.loaded.roots, [&l](Id n) { return op_cost(l.g, n); });
  Extraction x = extract(ep.problem, "bottom-up");
  EmitRequest req{l.g,     l.types,  builtin_registry(),
                  l.input, l.loaded, [&](Id c) { return ep.chosen_node(x, c); }};
  req.time_limit_s = 0;
  try {
    emit_graph(req);
    FAIL() << "expected EmitTimeLimit";
  } catch (const EmitTimeLimit& e) {
    EXPECT_EQ(std::string(e.what()),
              "emit stopped by the time limit (0 s) while indexing the input");
  }
  req.time_limit_s = 1e6;
  EXPECT_EQ(printed(emit_graph(req)), printed(extract_and_emit(l, "bottom-up")));
  req.memory_limit_bytes = 1;  // the process is always past it
  try {
    emit_graph(req);
    FAIL() << "expected EmitTimeLimit";
  } catch (const EmitTimeLimit& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("emit stopped by the memory limit (")) << what;
    EXPECT_TRUE(what.ends_with("limit 1 B) while indexing the input")) << what;
  }
}

TEST(ToGraph, MissingChoiceIsAnInternalError) {
  Loaded l(kStreams);
  try {
    emit_graph(
        EmitRequest{l.g, l.types, builtin_registry(), l.input, l.loaded, [](Id) { return kNoId; }});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("chose no node for e-class"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace eqfuse
