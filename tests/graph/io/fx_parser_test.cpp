// FX text reader and printer: the forms torch prints, literal arguments,
// return shapes, joint graphs, the seed dump, stream labels, and
// parse(print(g)) == g.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/op_registry.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace {

const Node& node(const Graph& g, std::string_view name) {
  auto r = g.find(name);
  if (!r) throw std::runtime_error("no node " + std::string(name));
  return g.node(*r);
}

NodeRef ref(const Graph& g, std::string_view name) {
  return *g.find(name);
}

// parse -> print -> parse gives an equal graph, and printing is stable.
void expect_round_trip(const Graph& g) {
  const std::string printed = print_fx(g);
  Graph again;
  try {
    again = parse_fx(printed, "<printed>");
  } catch (const Error& e) {
    FAIL() << e.render() << "\n" << printed;
  }
  EXPECT_TRUE(g == again) << printed;
  EXPECT_EQ(print_fx(again), printed);
}

// The graph() listing of the founding design notes (tests/data/seed_graph.txt).
std::string seed_code_block() {
  std::ifstream in(std::string(EQFUSE_TEST_DATA) + "/seed_graph.txt");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(FxParser, SeedDumpFragment) {
  const std::string code = seed_code_block();
  ASSERT_FALSE(code.empty());
  const Graph g = parse_fx(code, "seed");
  // Names used but never defined become inputs, in order of first use.
  const auto ph = g.placeholders();
  ASSERT_EQ(ph.size(), 3u);
  EXPECT_EQ(g.node(ph[0]).name, "arg2_1");
  EXPECT_EQ(g.node(ph[1]).name, "arg1_1");
  EXPECT_EQ(g.node(ph[2]).name, "arg0_1");
  EXPECT_FALSE(g.node(ph[0]).type.is_known());

  const Node& fused = node(g, "npu_add_rms_norm_dynamic_quant_default");
  EXPECT_EQ(fused.kind, NodeKind::Call);
  EXPECT_EQ(fused.target, "npu::npu_add_rms_norm_dynamic_quant");
  EXPECT_EQ(fused.args, (std::vector<Arg>{Arg(ph[0]), Arg(ph[1]), Arg(ph[2])}));
  ASSERT_EQ(fused.kwargs.size(), 1u);
  EXPECT_EQ(fused.kwargs[0].first, "output_mask");
  EXPECT_EQ(fused.kwargs[0].second, Arg::list({Arg(true), Arg(true)}));
  EXPECT_FALSE(fused.type_annotated);
  EXPECT_EQ(fused.meta.stack_trace, "");
  EXPECT_EQ(fused.meta.loc.line, 2);

  const Node& g5 = node(g, "getitem_5");
  EXPECT_EQ(g5.kind, NodeKind::GetItem);
  EXPECT_EQ(g5.getitem_source(), ref(g, "npu_add_rms_norm_dynamic_quant_default"));
  EXPECT_EQ(g5.getitem_index(), 0);
  EXPECT_EQ(g5.type, parse_annotation("i8[2, 3, 4]"));
  EXPECT_TRUE(g5.type_annotated);
  EXPECT_EQ(node(g, "getitem_7").getitem_index(), 3);

  const Node& view = node(g, "view_default_1");
  EXPECT_EQ(view.target, "aten::reshape");
  EXPECT_EQ(view.args[1], Arg::list({Arg(int64_t{-1}), Arg(int64_t{1})}));

  EXPECT_EQ(g.output_values(),
            (std::vector<NodeRef>{ref(g, "view_default"), ref(g, "view_default_1"),
                                  ref(g, "getitem_6")}));
  expect_round_trip(g);
}

// `inf` and `nan` are float literals in FX code, unless a node of that name
// exists: then, as in Python, the name refers to the node.
TEST(FxParser, NodesNamedInfOrNanShadowTheLiterals) {
  Graph g = parse_fx(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[4]"):
        full: "f32[4]" = torch.ops.aten.full_like.default(x, nan)
        nan: "f32[4]" = torch.ops.aten.mul.Tensor(x, inf)
        inf: "f32[4]" = torch.ops.aten.add.Tensor(nan, full)
        return (inf,)
)FX",
                     "t.py");
  const Node& full = g.node(*g.find("full"));
  ASSERT_TRUE(std::holds_alternative<double>(full.args[1].value));
  EXPECT_TRUE(std::isnan(std::get<double>(full.args[1].value)));  // before `nan` exists
  const Node& mul = g.node(*g.find("nan"));
  EXPECT_EQ(std::get<double>(mul.args[1].value), std::numeric_limits<double>::infinity());
  const Node& add = g.node(*g.find("inf"));
  ASSERT_TRUE(add.args[0].is_node());
  EXPECT_EQ(add.args[0].node(), *g.find("nan"));
}

TEST(FxParser, PrintReadableWithAnnotations) {
  const Graph g = parse_fx(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[s0, 7168]", arg1_1: "Sym(s0)", arg2_1: "f32[2, 3][3, 1]npu:0"):
        # File: model.py:10, code: y = x + 1
        add: "bf16[s0, 7168]" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
        mul: "bf16[s0, 7168]" = torch.ops.aten.mul.Tensor(add, add, );  add = None
  
        # No stacktrace found for following nodes
        view: "bf16[s0, 7168]" = torch.ops.aten.view.default(mul, [arg1_1, 7168]);  mul = arg1_1 = None
        return (view, arg2_1)
)FX",
                           "t.py");
  EXPECT_EQ(g.name, "GraphModule");
  ASSERT_EQ(g.size(), 7u);
  const Node& a0 = node(g, "arg0_1");
  EXPECT_EQ(a0.kind, NodeKind::Placeholder);
  EXPECT_TRUE(a0.type_annotated);
  EXPECT_EQ(a0.type, parse_annotation("bf16[s0, 7168]"));
  EXPECT_EQ(node(g, "arg1_1").type, ValueType::of_symint(SymInt::symbol("s0")));
  EXPECT_EQ(node(g, "arg2_1").type.tensor.device->type, "npu");

  const Node& add = node(g, "add");
  EXPECT_EQ(add.target, "aten::add.Tensor");
  EXPECT_EQ(add.op, kNoOp);
  EXPECT_EQ(add.args, (std::vector<Arg>{Arg(ref(g, "arg0_1")), Arg(int64_t{1})}));
  EXPECT_EQ(add.meta.stack_trace, "File: model.py:10, code: y = x + 1");
  EXPECT_EQ(add.meta.loc.file, "t.py");
  EXPECT_EQ(add.meta.loc.line, 4);
  EXPECT_EQ(add.meta.loc.column, 9);
  EXPECT_EQ(node(g, "mul").meta.stack_trace, "File: model.py:10, code: y = x + 1");
  EXPECT_EQ(node(g, "view").meta.stack_trace, "");
  EXPECT_EQ(node(g, "view").args[1], Arg::list({Arg(ref(g, "arg1_1")), Arg(int64_t{7168})}));
  const Node& out = g.node(*g.output());
  EXPECT_EQ(out.args.size(), 1u);
  EXPECT_EQ(out.args[0], Arg::list({Arg(ref(g, "view")), Arg(ref(g, "arg2_1"))}, true));
  expect_round_trip(g);
}

TEST(FxParser, Torch20UnquotedAnnotationsAndLogPrefix) {
  const Graph g = parse_fx(R"FX([aot_autograd.py:2125 DEBUG] ====== Joint graph 0 ======
[aot_autograd.py:2126 DEBUG] class traced_joint(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1: f32[32, 1, 3, 3], primals_2: f32[32], tangents_1: f32[64, 10], = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        convolution: f32[64, 32, 28, 28] = torch.ops.aten.convolution.default(primals_1, primals_2, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        max_pool2d_with_indices = torch.ops.aten.max_pool2d_with_indices.default(convolution, [2, 2], [2, 2])
        getitem: f32[64, 32, 14, 14] = max_pool2d_with_indices[0]
        getitem_1: i64[64, 32, 14, 14] = max_pool2d_with_indices[1];  max_pool2d_with_indices = None
        return pytree.tree_unflatten([getitem, getitem_1, tangents_1, None], self._out_spec)

[aot_autograd.py:2144 DEBUG] ====== Forward graph 0 ======
[aot_autograd.py:2145 DEBUG] class GraphModule(torch.nn.Module):
    def forward(self, x: f32[2]):
        return (x,)
)FX",
                           "log");
  EXPECT_EQ(g.name, "traced_joint");
  const auto ph = g.placeholders();
  ASSERT_EQ(ph.size(), 3u);  // primals/tangents are pytree containers, not inputs
  EXPECT_EQ(g.node(ph[0]).name, "primals_1");
  EXPECT_EQ(g.node(ph[2]).name, "tangents_1");
  EXPECT_EQ(g.node(ph[2]).type, parse_annotation("f32[64, 10]"));
  EXPECT_EQ(node(g, "convolution").type, parse_annotation("f32[64, 32, 28, 28]"));
  EXPECT_EQ(node(g, "convolution").args[2], Arg::none());
  EXPECT_EQ(node(g, "getitem_1").type.tensor.dtype, DType::Int64);
  const Node& out = g.node(*g.output());
  EXPECT_EQ(out.target, "pytree.tree_unflatten");
  ASSERT_EQ(out.args.size(), 2u);
  EXPECT_EQ(out.args[1], Arg(Literal{"self._out_spec"}));
  EXPECT_EQ(g.output_values().size(), 3u);
  EXPECT_FALSE(g.find("x"));  // the second graph in the log is not read
  expect_round_trip(g);
}

TEST(FxParser, JointGraphWithBareAnnotations) {
  const Graph g = parse_fx(R"FX(from __future__ import annotations



def forward(self, primals, tangents):
    primals_1: "f32[4]"; primals_2: "i64[]"; tangents_1: "f32[4]"; 
    primals_1, primals_2, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
    mul: "f32[4]" = torch.ops.aten.mul.Tensor(primals_1, tangents_1);  tangents_1 = None
    return pytree.tree_unflatten([mul, primals_2], self._out_spec)
    
)FX",
                           "joint");
  ASSERT_EQ(g.placeholders().size(), 3u);
  EXPECT_EQ(node(g, "primals_2").type, parse_annotation("i64[]"));
  EXPECT_TRUE(node(g, "primals_2").type_annotated);
  EXPECT_EQ(node(g, "mul").args[1], Arg(ref(g, "tangents_1")));
  expect_round_trip(g);
}

TEST(FxParser, GraphPrintForm) {
  const Graph g = parse_fx(R"FX(graph():
%arg0_1 : [num_users=2] = placeholder[target=arg0_1]
%arg1_1 : [#users=1] = placeholder[target=arg1_1]
%_tensor_constant0 : [num_users=1] = get_attr[target=_tensor_constant0]
%npu_quant_matmul : [num_users=1] = call_function[target=torch.ops.npu.npu_quant_matmul.default](args = (%arg0_1, %arg1_1, %_tensor_constant0), kwargs = {bias: %arg0_1, output_dtype: torch.bfloat16})
%zeros : [num_users=1] = call_function[target=torch.ops.aten.zeros.default](args = ([%arg1_1, 32, 128],), kwargs = {dtype: torch.bfloat16, device: npu:0, pin_memory: False})
%split : [num_users=2] = call_function[target=torch.ops.aten.split_with_sizes.default](args = (%zeros, [4096, 1024, 1024], -1), kwargs = {})
%getitem : [num_users=1] = call_function[target=operator.getitem](args = (%split, 0), kwargs = {})
%slice_1 : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%getitem, 1, 0, 9223372036854775807), kwargs = {})
return (slice_1, npu_quant_matmul, None)
)FX",
                           "g");
  EXPECT_EQ(g.size(), 9u);
  EXPECT_EQ(node(g, "_tensor_constant0").kind, NodeKind::GetAttr);
  EXPECT_EQ(node(g, "_tensor_constant0").target, "_tensor_constant0");
  const Node& qmm = node(g, "npu_quant_matmul");
  EXPECT_EQ(qmm.target, "npu::npu_quant_matmul");
  ASSERT_EQ(qmm.kwargs.size(), 2u);
  EXPECT_EQ(qmm.kwargs[0], (std::pair<std::string, Arg>{"bias", Arg(ref(g, "arg0_1"))}));
  EXPECT_EQ(qmm.kwargs[1].second, Arg(DType::BFloat16));
  const Node& zeros = node(g, "zeros");
  EXPECT_EQ(zeros.args[0], Arg::list({Arg(ref(g, "arg1_1")), Arg(int64_t{32}), Arg(int64_t{128})}));
  EXPECT_EQ(zeros.kwargs[1].second, Arg(Device{"npu", 0}));
  EXPECT_EQ(zeros.kwargs[2].second, Arg(false));
  const Node& gi = node(g, "getitem");
  EXPECT_EQ(gi.kind, NodeKind::GetItem);
  EXPECT_EQ(gi.getitem_index(), 0);
  EXPECT_EQ(node(g, "slice_1").args[3], Arg(int64_t{9223372036854775807}));
  EXPECT_EQ(g.node(*g.output()).args[0],
            Arg::list({Arg(ref(g, "slice_1")), Arg(ref(g, "npu_quant_matmul")), Arg()}, true));
  expect_round_trip(g);
}

TEST(FxParser, IndentedGraphPrintFormWithLogPrefix) {
  const Graph g = parse_fx(
      "[INFO] 2025-11-07 npu_fx_compiler.py:454 graph: graph():\n"
      "    %primals_1 : [num_users=1] = placeholder[target=primals_1]\n"
      "    %t : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = "
      "(%primals_1,), kwargs = {})\n"
      "    %mul : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%t, "
      "100), kwargs = {})\n"
      "    return (mul, primals_1)\n",
      "g");
  EXPECT_EQ(g.size(), 4u);
  EXPECT_EQ(node(g, "t").args, (std::vector<Arg>{Arg(ref(g, "primals_1"))}));
  expect_round_trip(g);
}

TEST(FxParser, LiteralArguments) {
  const Graph g = parse_fx(R"FX(def forward(self, a):
    x = torch.ops.my.op.default(a, [[1, -2], (3,), ()], None, True, False, 9223372036854775807, -9223372036854775808, 1e-05, -inf, inf, nan, 0.5, 'it', 's', "say \"hi\"", torch.float32, torch.qint8, device(type='npu', index=0), device(type='cpu'), torch.contiguous_format, torch.strided, torch.ops.aten.add.Tensor, -1.5e+20)
    return x
)FX",
                           "lit");
  const auto& args = node(g, "x").args;
  ASSERT_EQ(args.size(), 23u);
  EXPECT_EQ(args[1], Arg::list({Arg::list({Arg(int64_t{1}), Arg(int64_t{-2})}),
                                Arg::list({Arg(int64_t{3})}, true), Arg::list({}, true)}));
  EXPECT_TRUE(args[2].is_none());
  EXPECT_EQ(args[3], Arg(true));
  EXPECT_EQ(args[4], Arg(false));
  EXPECT_EQ(args[5], Arg(std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(args[6], Arg(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(args[7], Arg(1e-05));
  EXPECT_EQ(args[8], Arg(-std::numeric_limits<double>::infinity()));
  EXPECT_EQ(args[9], Arg(std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(std::isnan(std::get<double>(args[10].value)));
  EXPECT_EQ(args[11], Arg(0.5));
  EXPECT_EQ(args[12], Arg(std::string("it")));
  EXPECT_EQ(args[13], Arg(std::string("s")));
  EXPECT_EQ(args[14], Arg(std::string("say \"hi\"")));
  EXPECT_EQ(args[15], Arg(DType::Float32));
  EXPECT_EQ(args[16], Arg(DType::QInt8));
  EXPECT_EQ(args[17], Arg(Device{"npu", 0}));
  EXPECT_EQ(args[18], Arg(Device{"cpu", -1}));
  EXPECT_EQ(args[19], Arg(Literal{"torch.contiguous_format"}));
  EXPECT_EQ(args[20], Arg(Literal{"torch.strided"}));
  EXPECT_EQ(args[21], Arg(Literal{"torch.ops.aten.add.Tensor"}));
  EXPECT_EQ(args[22], Arg(-1.5e+20));
  EXPECT_EQ(args[0], Arg(ref(g, "a")));
  // NaN != NaN, so compare the printed form instead of Graph equality.
  const std::string printed = print_fx(g);
  EXPECT_NE(printed.find("[[1, -2], (3,), ()], None, True, False, 9223372036854775807, "
                         "-9223372036854775808, 1e-05, -inf, inf, nan, 0.5, 'it', 's', "
                         "'say \"hi\"', torch.float32, torch.qint8, device(type='npu', index=0), "
                         "device(type='cpu'), torch.contiguous_format, torch.strided, "
                         "torch.ops.aten.add.Tensor, -1.5e+20)"),
            std::string::npos)
      << printed;
  EXPECT_EQ(print_fx(parse_fx(printed, "p")), printed);
}

TEST(FxParser, KeywordArgumentsHigherOrderOpsAndGetitemForms) {
  const Graph g = parse_fx(R"FX(class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (3,), _all_bases = [arg0_1_1])
        getitem = auto_functionalized_v2[0];  getitem = None
        getitem_1: "f32[3]" = operator.getitem(auto_functionalized_v2, 1);  auto_functionalized_v2 = None
        sig = torch.sigmoid(getitem_1)
        add = operator.add(sig, 1)
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg0_1_1, getitem_1);  arg0_1_1 = getitem_1 = copy_ = None
        return ()
)FX",
                           "t");
  const Node& af = node(g, "auto_functionalized_v2");
  EXPECT_EQ(af.target, "torch.ops.higher_order.auto_functionalized_v2");
  EXPECT_EQ(af.args[0], Arg(Literal{"torch.ops.custom.boo.default"}));
  ASSERT_EQ(af.kwargs.size(), 3u);
  EXPECT_EQ(af.kwargs[1].second, Arg::list({Arg(int64_t{3})}, true));
  EXPECT_EQ(node(g, "getitem").kind, NodeKind::GetItem);
  EXPECT_EQ(node(g, "getitem_1").kind, NodeKind::GetItem);
  EXPECT_EQ(node(g, "getitem_1").getitem_index(), 1);
  EXPECT_EQ(node(g, "sig").target, "torch.sigmoid");
  EXPECT_EQ(node(g, "add").target, "operator.add");
  EXPECT_EQ(node(g, "copy_").target, "aten::copy_");
  EXPECT_EQ(g.node(*g.output()).args[0], Arg::list({}, true));
  EXPECT_TRUE(g.output_values().empty());
  expect_round_trip(g);
}

TEST(FxParser, SymIntArithmeticAndUnannotatedCode) {
  const Graph g = parse_fx(R"FX(


def forward(self, a_1, b_1):
    sym_size = torch.ops.aten.sym_size(a_1, 0)
    sym_size_1 = torch.ops.aten.sym_size.int(b_1, 0)
    add = sym_size + sym_size_1;  sym_size_1 = None
    mul = sym_size * 3
    neg = -sym_size;  sym_size = None
    floordiv = 7 // add
    view = torch.ops.aten.view.default(a_1, [add, mul, neg, floordiv]);  a_1 = None
    return None
    )FX",
                           "t");
  EXPECT_EQ(node(g, "sym_size").target, "aten::sym_size");
  EXPECT_EQ(node(g, "sym_size_1").target, "aten::sym_size.int");
  EXPECT_EQ(node(g, "add").target, "operator.add");
  EXPECT_EQ(node(g, "add").args,
            (std::vector<Arg>{Arg(ref(g, "sym_size")), Arg(ref(g, "sym_size_1"))}));
  EXPECT_EQ(node(g, "mul").args[1], Arg(int64_t{3}));
  EXPECT_EQ(node(g, "neg").target, "operator.neg");
  EXPECT_EQ(node(g, "floordiv").target, "operator.floordiv");
  EXPECT_EQ(node(g, "floordiv").args[0], Arg(int64_t{7}));
  EXPECT_TRUE(g.node(*g.output()).args[0].is_none());
  const std::string printed = print_fx(g);
  EXPECT_NE(printed.find("add = sym_size + sym_size_1"), std::string::npos) << printed;
  EXPECT_NE(printed.find("neg = -sym_size"), std::string::npos) << printed;
  EXPECT_NE(printed.find("floordiv = 7 // add"), std::string::npos) << printed;
  expect_round_trip(g);
}

TEST(FxParser, ReturnForms) {
  const char* header = "def forward(self, a, b):\n";
  struct R {
    const char* ret;
    Arg expected_from_ab_refs;
  };
  const Graph probe = parse_fx(std::string(header) + "    return a\n", "r");
  const Arg a(ref(probe, "a"));
  const Arg b(ref(probe, "b"));
  const R forms[] = {
      {"return (a, b)", Arg::list({a, b}, true)},
      {"return [a, b]", Arg::list({a, b}, false)},
      {"return a", a},
      {"return (a,)", Arg::list({a}, true)},
      {"return ()", Arg::list({}, true)},
      {"return None", Arg()},
      {"return (a, None, b, None)", Arg::list({a, Arg(), b, Arg()}, true)},
  };
  for (const R& r : forms) {
    const Graph g = parse_fx(std::string(header) + "    " + r.ret + "\n", "r");
    ASSERT_EQ(g.node(*g.output()).args.size(), 1u) << r.ret;
    EXPECT_EQ(g.node(*g.output()).args[0], r.expected_from_ab_refs) << r.ret;
    const std::string printed = print_fx(g);
    EXPECT_NE(printed.find(std::string("        ") + r.ret + "\n"), std::string::npos) << printed;
    expect_round_trip(g);
  }
}

TEST(FxParser, NestedSubgraphClassesAreNotRead) {
  const Graph g = parse_fx(R"FX(class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[10]"):
        repeated_subgraph0 = self.repeated_subgraph0
        invoke_subgraph = torch.ops.higher_order.invoke_subgraph(repeated_subgraph0, 'subgraph_0', arg0_1);  repeated_subgraph0 = None
        getitem: "f32[]" = invoke_subgraph[0];  invoke_subgraph = None
        return (getitem,)

    class repeated_subgraph0(torch.nn.Module):
        def forward(self, arg0_1: "f32[10]"):
            sum_1: "f32[]" = torch.ops.aten.sum.default(arg0_1);  arg0_1 = None
            return (sum_1,)
)FX",
                           "t");
  EXPECT_EQ(g.name, "<lambda>");
  EXPECT_EQ(g.size(), 5u);
  EXPECT_EQ(node(g, "repeated_subgraph0").kind, NodeKind::GetAttr);
  EXPECT_EQ(node(g, "repeated_subgraph0").target, "repeated_subgraph0");
  EXPECT_EQ(node(g, "invoke_subgraph").args[1], Arg(std::string("subgraph_0")));
  EXPECT_FALSE(g.find("sum_1"));
  expect_round_trip(g);
}

TEST(FxParser, StatementsSplitAcrossLinesInsideBrackets) {
  const Graph g = parse_fx(
      "def forward(self, a):\n    x = torch.ops.aten.view.default(a,\n"
      "        [2,\n  3])\n    return x\n",
      "t");
  EXPECT_EQ(node(g, "x").args[1], Arg::list({Arg(int64_t{2}), Arg(int64_t{3})}));
}

TEST(FxStreams, LabelsFollowScopeEnterExit) {
  const Graph g = parse_fx(R"FX(def forward(self, a):
    x = torch.ops.aten.relu.default(a)
    enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority'], ['stream1', '3'])
    y = torch.ops.aten.relu.default(x)
    core = torch.ops.air.scope_enter.default(['_core_num'], ['2'])
    z = torch.ops.aten.relu.default(y)
    core_exit = torch.ops.air.scope_exit.default()
    inner = torch.ops.air.scope_enter.default(['_user_stream_label'], ['2'])
    w = torch.ops.aten.relu.default(z)
    inner_exit = torch.ops.air.scope_exit.default()
    v = torch.ops.aten.relu.default(w)
    exit_1 = torch.ops.air.scope_exit.default()
    u = torch.ops.aten.relu.default(v)
    return (u,)
)FX",
                           "s");
  EXPECT_EQ(node(g, "a").meta.stream, "");
  EXPECT_EQ(node(g, "x").meta.stream, "");
  EXPECT_EQ(node(g, "enter").meta.stream, "stream1");
  EXPECT_EQ(node(g, "y").meta.stream, "stream1");
  EXPECT_EQ(node(g, "z").meta.stream, "stream1");  // core-limit scope inherits
  EXPECT_EQ(node(g, "core_exit").meta.stream, "stream1");
  EXPECT_EQ(node(g, "w").meta.stream, "2");
  EXPECT_EQ(node(g, "inner_exit").meta.stream, "2");
  EXPECT_EQ(node(g, "v").meta.stream, "stream1");
  EXPECT_EQ(node(g, "exit_1").meta.stream, "stream1");
  EXPECT_EQ(node(g, "u").meta.stream, "");
  expect_round_trip(g);
}

TEST(FxStreams, UnmatchedExitIsAnError) {
  EXPECT_THROW(parse_fx("def forward(self, a):\n    e = torch.ops.air.scope_exit.default()\n"
                        "    return a\n",
                        "s"),
               Error);
}

TEST(FxPrinter, PythonFloatRepr) {
  EXPECT_EQ(python_float_repr(1.0), "1.0");
  EXPECT_EQ(python_float_repr(0.1), "0.1");
  EXPECT_EQ(python_float_repr(1e-05), "1e-05");
  EXPECT_EQ(python_float_repr(1e-06), "1e-06");
  EXPECT_EQ(python_float_repr(0.0001), "0.0001");
  EXPECT_EQ(python_float_repr(-2.5), "-2.5");
  EXPECT_EQ(python_float_repr(1e16), "1e+16");
  EXPECT_EQ(python_float_repr(1e15), "1000000000000000.0");
  EXPECT_EQ(python_float_repr(123456.789), "123456.789");
  EXPECT_EQ(python_float_repr(0.0), "0.0");
  EXPECT_EQ(python_float_repr(-0.0), "-0.0");
  EXPECT_EQ(python_float_repr(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(python_float_repr(5e-324), "5e-324");
  EXPECT_EQ(python_float_repr(-std::numeric_limits<double>::infinity()), "-inf");
}

TEST(FxPrinter, PythonStrRepr) {
  EXPECT_EQ(python_str_repr("abc"), "'abc'");
  EXPECT_EQ(python_str_repr("it's"), "\"it's\"");
  EXPECT_EQ(python_str_repr("a'b\"c"), "'a\\'b\"c'");
  EXPECT_EQ(python_str_repr("line\nnext\\"), "'line\\nnext\\\\'");
  EXPECT_EQ(python_str_repr(std::string("\x01", 1)), "'\\x01'");
  // Every repr reads back to the same string.
  for (std::string s : {"abc", "it's", "a'b\"c", "line\nnext\\", "\x01\x7f", "\xe4\xb8\xad"}) {
    const Graph g = parse_fx("def forward(self, a):\n    x = torch.ops.my.op.default(a, " +
                                 python_str_repr(s) + ")\n    return x\n",
                             "s");
    EXPECT_EQ(node(g, "x").args[1], Arg(s)) << s;
  }
}

TEST(FxPrinter, CleanupsFollowLastUse) {
  const Graph g = parse_fx(R"FX(def forward(self, a, b):
    x = torch.ops.aten.add.Tensor(a, b)
    unused = torch.ops.aten.relu.default(x)
    y = torch.ops.aten.mul.Tensor(x, a)
    return (y,)
)FX",
                           "c");
  const std::string printed = print_fx(g);
  EXPECT_NE(printed.find("class GraphModule(torch.nn.Module):\n    def forward(self, a, b):\n"),
            std::string::npos);
  EXPECT_NE(printed.find("x = torch.ops.aten.add.Tensor(a, b);  b = None\n"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("unused = torch.ops.aten.relu.default(x);  unused = None\n"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("y = torch.ops.aten.mul.Tensor(x, a);  x = a = None\n"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("        return (y,)\n"), std::string::npos) << printed;
}

TEST(FxPrinter, NormalizedCallsPrintLikeTorch) {
  const OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g = parse_fx(R"FX(def forward(self, x1: "bf16[2, 8]", x2: "bf16[2, 8]", gamma: "bf16[8]"):
    a = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, 1e-06)
    b = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, epsilon = 1e-05)
    c = torch.ops.aten.add.Tensor(x1, x2, alpha = 1)
    d = torch.ops.aten.add.Tensor(x1, x2, alpha = 2)
    return (a, b, c, d)
)FX",
                     "n");
  resolve_ops(g, reg);
  ASSERT_NE(node(g, "a").op, kNoOp);
  const std::string printed = print_fx(g, &reg);
  EXPECT_NE(printed.find("a = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("b = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, 1e-05)"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("c = torch.ops.aten.add.Tensor(x1, x2)"), std::string::npos) << printed;
  EXPECT_NE(printed.find("d = torch.ops.aten.add.Tensor(x1, x2, alpha = 2)"), std::string::npos)
      << printed;
  Graph again = parse_fx(printed, "again");
  resolve_ops(again, reg);
  EXPECT_TRUE(g == again);
}

// A generated 100,000-node graph parses and round-trips; the timing is
// measured by bench/, this only guards against super-linear behaviour.
TEST(FxParser, LargeGraph) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n    def forward(self, arg0_1: \"bf16[s0, 4096]\", "
      "arg1_1: \"bf16[4096]\"):\n";
  std::string prev = "arg0_1";
  for (int i = 0; i < 100000; ++i) {
    const std::string name = fmt::format("add_{}", i);
    text += fmt::format(
        "        {}: \"bf16[s0, 4096]\" = torch.ops.aten.add.Tensor({}, arg1_1);  {} = None\n",
        name, prev, prev);
    prev = name;
  }
  text += "        return (" + prev + ",)\n";
  const Graph g = parse_fx(text, "big");
  EXPECT_EQ(g.size(), 100003u);
  EXPECT_EQ(node(g, "add_99999").args[0], Arg(ref(g, "add_99998")));
  // EXPECT_TRUE, not EXPECT_EQ: gtest's diff of two 10 MB strings is quadratic.
  const std::string printed = print_fx(g);
  EXPECT_TRUE(parse_fx(printed, "big2") == g);
  EXPECT_EQ(printed.size(), text.size() + std::string_view(" = arg1_1").size());
}

}  // namespace
}  // namespace eqfuse
