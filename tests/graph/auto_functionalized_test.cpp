// auto_functionalized / auto_functionalized_v2 as graph citizens
// (graph/auto_functionalized.hpp): decoding against the wrapped op's schema,
// the errors for malformed calls, the tuple type, printing and JSON round
// trips, and the interpreter's functional semantics (the wrapped op runs on
// copies; v2 regenerates views from copied bases), checked against the same
// computation written with plain ops.
#include "graph/auto_functionalized.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/io/graph_json.hpp"
#include "interp/equivalence.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"
#include "tests/support/custom_ops.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

using testing_support::custom_ops;

Graph typed(const std::string& sig, const std::string& body) {
  return testing_support::typed_custom(sig, body);
}

const Node& node(const Graph& g, const std::string& name) {
  return g.node(*g.find(name));
}

std::string load_error(const std::string& sig, const std::string& body) {
  try {
    typed(sig, body);
  } catch (const Error& e) {
    return e.what();
  }
  return "<no error>";
}

const char* kV1 = R"(    empty_like: "f32[3]" = torch.ops.aten.empty_like.default(x)
    auto_functionalized = torch.ops.higher_order.auto_functionalized(torch.ops.custom.scaled.default, x = x, out = empty_like)
    getitem: "f32[3]" = auto_functionalized[0]
    getitem_1: "f32[3]" = auto_functionalized[1]
    return (getitem, getitem_1, x)
)";

const char* kV2 =
    R"(    auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (2,), _x_stride = (2,), _x_storage_offset = 1, _all_bases = [x])
    getitem = auto_functionalized_v2[0]
    getitem_1: "f32[4]" = auto_functionalized_v2[1]
    return (getitem_1, x)
)";

// ---- decoding ---------------------------------------------------------------------------

TEST(AutoFunctionalized, DecodesV1AgainstTheWrappedSchema) {
  Graph g = typed("x: \"f32[3]\"", kV1);
  const Node& n = node(g, "auto_functionalized");
  EXPECT_EQ(n.op, kNoOp);  // stays as read: printed back verbatim
  std::optional<AutoFunctionalized> af = decode_auto_functionalized(n, custom_ops());
  ASSERT_TRUE(af);
  EXPECT_EQ(af->version, AutoFunctionalizedVersion::V1);
  EXPECT_EQ(custom_ops().info(af->op).schema.qualified_name(), "custom::scaled");
  ASSERT_EQ(af->args.size(), 3u);
  EXPECT_EQ(af->args[2], Arg(2.0));  // default filled in
  ASSERT_EQ(af->mutables.size(), 1u);
  EXPECT_EQ(af->mutables[0].name, "out");
  EXPECT_EQ(af->mutables[0].position, 1);
  EXPECT_EQ(af->mutables[0].value, Arg(*g.find("empty_like")));
  EXPECT_EQ(af->op_outputs, 1u);
  EXPECT_EQ(af->output_count(), 2u);
}

TEST(AutoFunctionalized, DecodesV2ViewsAndLists) {
  Graph g = typed("x: \"f32[4]\"", kV2);
  std::optional<AutoFunctionalized> af =
      decode_auto_functionalized(node(g, "auto_functionalized_v2"), custom_ops());
  ASSERT_TRUE(af);
  ASSERT_EQ(af->bases.size(), 1u);
  ASSERT_EQ(af->mutables.size(), 1u);
  ASSERT_EQ(af->mutables[0].views.size(), 1u);
  const BaseView& v = *af->mutables[0].views[0];
  EXPECT_EQ(v.kind, BaseView::Kind::AsStrided);
  EXPECT_EQ(v.storage_offset, Arg(int64_t{1}));
  EXPECT_TRUE(af->args[0].is_none());  // regenerated from the base

  Graph lists = typed(
      "b: \"f32[2]\"",
      R"(    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.mutate_op.default, _y_length = 2, _y_0_base_index = 0, _y_0_slice_dim = 0, _y_0_slice_start = 0, _y_0_slice_end = 1, _y_1_base_index = 0, _y_1_alias = True, _all_bases = [b])
    getitem_1: "f32[2]" = af[1]
    return (getitem_1,)
)");
  af = decode_auto_functionalized(node(lists, "af"), custom_ops());
  ASSERT_TRUE(af);
  ASSERT_EQ(af->mutables[0].views.size(), 2u);
  EXPECT_EQ(af->mutables[0].views[0]->kind, BaseView::Kind::Slice);
  EXPECT_EQ(af->mutables[0].views[1]->kind, BaseView::Kind::Alias);
  EXPECT_TRUE(af->mutables[0].is_list);
}

TEST(AutoFunctionalized, TypeIsOpOutputsThenNewValues) {
  Graph g = typed("x: \"f32[3]\"", kV1);
  const ValueType& t = node(g, "auto_functionalized").type;
  ASSERT_EQ(t.kind, ValueType::Kind::Tuple);
  ASSERT_EQ(t.elements.size(), 2u);
  EXPECT_FALSE(t.elements[0].is_known());  // custom::scaled has no meta function
  EXPECT_EQ(describe(t.elements[1]), "f32[3]");

  Graph v2 = typed("x: \"f32[4]\"", kV2);
  const ValueType& t2 = node(v2, "auto_functionalized_v2").type;
  ASSERT_EQ(t2.elements.size(), 2u);
  EXPECT_EQ(t2.elements[0].kind, ValueType::Kind::None);  // boo returns nothing
  EXPECT_EQ(describe(t2.elements[1]), "f32[4]");
  EXPECT_EQ(node(v2, "getitem").type.kind, ValueType::Kind::None);
}

TEST(AutoFunctionalized, MalformedCallsNameTheNode) {
  const std::string sig = "x: \"f32[3]\"";
  auto v2 = [](const std::string& kwargs) {
    return "    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, " +
           kwargs + ")\n    return (x,)\n";
  };
  EXPECT_THAT(load_error(sig, v2("_x_base_index = 1, _all_bases = [x]")),
              HasSubstr("node 'af' (auto_functionalized_v2): '_x_base_index' is 1 but "
                        "_all_bases has 1 entry"));
  EXPECT_THAT(load_error(sig, v2("_all_bases = [x]")),
              HasSubstr("missing argument '_x_base_index'"));
  EXPECT_THAT(load_error(sig, v2("_x_base_index = 0")), HasSubstr("missing argument '_all_bases'"));
  EXPECT_THAT(load_error(sig, v2("_x_base_index = 0, _x_size = (3,), _all_bases = [x]")),
              HasSubstr("missing argument '_x_stride' (as_strided view information)"));
  EXPECT_THAT(load_error(sig, v2("x = x, _x_base_index = 0, _all_bases = [x]")),
              HasSubstr("mutable argument 'x' is passed directly"));
  EXPECT_THAT(load_error(sig, v2("_x_base_index = 0, _all_bases = [x], bogus = 1")),
              HasSubstr("unknown argument 'bogus' for custom::boo"));

  auto v1 = [](const std::string& op, const std::string& kwargs) {
    return "    af = torch.ops.higher_order.auto_functionalized(" + op + ", " + kwargs +
           ")\n    return (x,)\n";
  };
  EXPECT_THAT(load_error(sig, v1("torch.ops.custom.sin.default", "x = x")),
              HasSubstr("node 'af' (auto_functionalized): missing mutable argument 'result'"));
  EXPECT_THAT(load_error(sig, v1("torch.ops.custom.sin.default", "result = x")),
              HasSubstr("missing argument 'x' of custom::sin"));
  EXPECT_THAT(load_error(sig, v1("torch.ops.custom.pure.default", "x = x")),
              HasSubstr("'custom::pure' mutates none of its arguments"));
  EXPECT_THAT(load_error(sig, v1("x", "result = x")),
              HasSubstr("the first argument must be an op overload"));
  EXPECT_THAT(load_error(sig, v1("torch.ops.custom.sin.default", "x, result = x")),
              HasSubstr("keyword arguments only (2 positional arguments given)"));
}

TEST(AutoFunctionalized, AnUnknownWrappedOpStaysOpaqueAndCannotBeRun) {
  Graph g = parse_fx(R"(def forward(self, x: "f32[3]"):
    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.mylib.foo.default, _x_base_index = 0, _all_bases = [x])
    getitem_1: "f32[3]" = af[1]
    return (getitem_1,)
)",
                     "af.py");
  EXPECT_EQ(resolve_ops(g, custom_ops()), std::vector<std::string>{"mylib::foo"});
  infer_types(g, custom_ops());
  Interpreter interp(custom_ops());
  std::vector<RuntimeValue> in{Tensor::zeros(DType::Float32, {3})};
  try {
    interp.run(g, in);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 'af': the wrapped op 'mylib::foo' is not registered"));
  }
}

// ---- printing and JSON ----------------------------------------------------------------------

TEST(AutoFunctionalized, PrintsAndSavesAsRead) {
  for (const auto& [sig, body] :
       {std::pair{"x: \"f32[3]\"", kV1}, std::pair{"x: \"f32[4]\"", kV2}}) {
    Graph g = typed(sig, body);
    std::string printed = print_fx(g, &custom_ops());
    EXPECT_THAT(printed, HasSubstr("torch.ops.higher_order.auto_functionalized"));
    Graph again = parse_fx(printed, "again.py");
    resolve_ops(again, custom_ops());
    infer_types(again, custom_ops());
    EXPECT_EQ(print_fx(again, &custom_ops()), printed);
    EXPECT_EQ(load_graph_json(save_graph_json(g), "af.json"), g);
  }
}

// ---- interpreter ------------------------------------------------------------------------------

EquivalenceResult compare(const Graph& a, const Graph& b) {
  EquivalenceOptions opts;
  opts.trials = 2;
  return equivalent(a, b, custom_ops(), opts);
}

TEST(AutoFunctionalized, V1RunsTheOpOnCopiesAndLeavesItsArgumentsAlone) {
  Graph hop = typed("x: \"f32[3]\"", kV1);
  // The same computation with plain ops: clone, call the in-place op, read the clone.
  Graph plain =
      typed("x: \"f32[3]\"", R"(    empty_like: "f32[3]" = torch.ops.aten.empty_like.default(x)
    clone: "f32[3]" = torch.ops.aten.clone.default(empty_like)
    scaled: "f32[3]" = torch.ops.custom.scaled.default(x, clone)
    return (scaled, clone, x)
)");
  EquivalenceResult eq = compare(hop, plain);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;

  Interpreter interp(custom_ops());
  std::vector<RuntimeValue> in{
      Tensor::from_values(DType::Float32, {3}, std::vector{1.0, 2.0, 3.0})};
  RunResult r = interp.run(hop, in);
  EXPECT_TRUE(r.mutated_inputs.empty());
  EXPECT_EQ(r.outputs[2].tensor().values(), (std::vector{1.0, 2.0, 3.0}));
  // The in-place op wrote something of its own into the copy.
  EXPECT_NE(r.outputs[1].tensor().values(), (std::vector{0.0, 0.0, 0.0}));
}

TEST(AutoFunctionalized, V2RegeneratesTheViewFromACopyOfTheBase) {
  Graph hop = typed("x: \"f32[4]\"", kV2);
  // boo mutates x's elements 1 and 3 (size 2, stride 2, offset 1) of a copy.
  Graph plain = typed("x: \"f32[4]\"", R"(    clone: "f32[4]" = torch.ops.aten.clone.default(x)
    as_strided: "f32[2]" = torch.ops.aten.as_strided.default(clone, [2], [2], 1)
    boo = torch.ops.custom.boo.default(as_strided)
    return (clone, x)
)");
  EquivalenceResult eq = compare(hop, plain);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;

  Interpreter interp(custom_ops());
  std::vector<RuntimeValue> in{
      Tensor::from_values(DType::Float32, {4}, std::vector{1.0, 2.0, 3.0, 4.0})};
  RunResult r = interp.run(hop, in);
  std::vector<double> out = r.outputs[0].tensor().values();
  EXPECT_EQ(out[0], 1.0);  // outside the view: untouched
  EXPECT_EQ(out[2], 3.0);
  EXPECT_NE(out[1], 2.0);
  EXPECT_TRUE(r.mutated_inputs.empty());
}

TEST(AutoFunctionalized, ListArgumentsGetOneNewValuePerElement) {
  Graph hop = typed(
      "b: \"f32[2]\"",
      R"(    af = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.mutate_op.default, _y_length = 2, _y_0_base_index = 0, _y_0_size = (), _y_0_stride = (), _y_0_storage_offset = 0, _y_1_base_index = 0, _y_1_size = (), _y_1_stride = (), _y_1_storage_offset = 1, _all_bases = [b])
    getitem_1: "f32[2]" = af[1]
    return (getitem_1,)
)");
  Graph plain = typed("b: \"f32[2]\"", R"(    clone: "f32[2]" = torch.ops.aten.clone.default(b)
    select: "f32[]" = torch.ops.aten.select.int(clone, 0, 0)
    select_1: "f32[]" = torch.ops.aten.select.int(clone, 0, 1)
    mutate_op = torch.ops.custom.mutate_op.default([select, select_1])
    return (clone,)
)");
  EquivalenceResult eq = compare(hop, plain);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;

  Graph v1 = typed("b: \"f32[2]\"", R"(    select: "f32[]" = torch.ops.aten.select.int(b, 0, 0)
    select_1: "f32[]" = torch.ops.aten.select.int(b, 0, 1)
    af = torch.ops.higher_order.auto_functionalized(torch.ops.custom.mutate_op.default, y = [select, select_1])
    getitem_1 = af[1]
    getitem_2: "f32[]" = getitem_1[0]
    getitem_3: "f32[]" = getitem_1[1]
    select_scatter: "f32[2]" = torch.ops.aten.select_scatter.default(b, getitem_2, 0, 0)
    select_scatter_1: "f32[2]" = torch.ops.aten.select_scatter.default(select_scatter, getitem_3, 0, 1)
    return (select_scatter_1,)
)");
  eq = compare(hop, v1);
  EXPECT_TRUE(eq.ok) << eq.first_mismatch;
}

TEST(AutoFunctionalized, AnInPlaceOpWithoutFunctionalTwinWritesItsArguments) {
  // Before this, such ops were uninterpreted functions that wrote nothing.
  Graph g = typed("x: \"f32[3]\"", R"(    boo = torch.ops.custom.boo.default(x)
    return (x,)
)");
  Interpreter interp(custom_ops());
  std::vector<RuntimeValue> in{
      Tensor::from_values(DType::Float32, {3}, std::vector{1.0, 2.0, 3.0})};
  RunResult r = interp.run(g, in);
  ASSERT_EQ(r.mutated_inputs.size(), 1u);
  EXPECT_NE(r.outputs[0].tensor().values(), (std::vector{1.0, 2.0, 3.0}));
}

}  // namespace
}  // namespace eqfuse
