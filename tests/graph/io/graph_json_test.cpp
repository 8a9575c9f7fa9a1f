// The eqfuse-graph JSON format: encodings of every Arg kind and type kind,
// round trips, and the errors bad documents produce.
#include "graph/io/graph_json.hpp"

#include <cmath>
#include <limits>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ojson = nlohmann::ordered_json;

Node placeholder(std::string name, ValueType type) {
  Node n;
  n.kind = NodeKind::Placeholder;
  n.name = name;
  n.target = std::move(name);
  n.type = std::move(type);
  n.type_annotated = true;
  return n;
}

Node call(std::string name, std::string target, std::vector<Arg> args,
          std::vector<std::pair<std::string, Arg>> kwargs = {}) {
  Node n;
  n.kind = NodeKind::Call;
  n.name = std::move(name);
  n.target = std::move(target);
  n.args = std::move(args);
  n.kwargs = std::move(kwargs);
  return n;
}

Node getitem(std::string name, NodeRef source, int64_t index, ValueType type) {
  Node n;
  n.kind = NodeKind::GetItem;
  n.name = std::move(name);
  n.args = {Arg(source), Arg(index)};
  n.type = std::move(type);
  n.type_annotated = true;
  return n;
}

Node output(std::vector<Arg> values) {
  Node n;
  n.kind = NodeKind::Output;
  n.name = "output";
  n.args = {Arg::list(std::move(values), true)};
  return n;
}

Shape dims(std::initializer_list<SymInt> d) {
  return Shape(d);
}

// add_rms_norm -> dynamic_quant with every kind of argument somewhere.
Graph sample_graph() {
  Graph g;
  g.name = "Sample";
  SymInt s0 = SymInt::symbol("s0");
  NodeRef x1 =
      g.add(placeholder("arg0_1", ValueType::of_tensor(DType::BFloat16, dims({s0, 7168}))));
  NodeRef x2 =
      g.add(placeholder("arg1_1", ValueType::of_tensor(DType::BFloat16, dims({s0, 7168}))));
  NodeRef gamma = g.add(placeholder("arg2_1", ValueType::of_tensor(DType::BFloat16, dims({7168}))));
  NodeRef sym = g.add(placeholder("arg3_1", ValueType::of_symint(s0)));
  Node norm =
      call("npu_add_rms_norm", "npu::npu_add_rms_norm", {Arg(x1), Arg(x2), Arg(gamma), Arg(1e-06)});
  norm.meta.stream = "2";
  norm.meta.loc = SourceLoc{"model.fx", 7, 9};
  norm.meta.stack_trace = "# File: model.py:12 in forward, code: x = norm(x)";
  NodeRef t = g.add(std::move(norm));
  NodeRef y =
      g.add(getitem("getitem", t, 0, ValueType::of_tensor(DType::BFloat16, dims({s0, 7168}))));
  Node q = call("npu_dynamic_quant", "npu::npu_dynamic_quant", {Arg(y)},
                {{"smooth_scales", Arg::none()}, {"quant_mode", Arg(std::string("pertoken"))}});
  NodeRef qr = g.add(std::move(q));
  Device npu{"npu", 0};
  Node misc = call("full", "aten::full.default",
                   {Arg::list({Arg(sym), Arg(int64_t{-1})}, false), Arg(-INFINITY)},
                   {{"dtype", Arg(DType::Float32)},
                    {"device", Arg(npu)},
                    {"pin_memory", Arg(false)},
                    {"memory_format", Arg(Literal{"torch.contiguous_format"})},
                    {"nested", Arg::list({Arg::list({}, true), Arg(2.5), Arg(-0.5)}, true)},
                    {"big", Arg(std::numeric_limits<int64_t>::min())}});
  misc.type = ValueType::of_tensor(DType::Float32, dims({s0, 1}));
  misc.type_annotated = false;  // as if inferred
  NodeRef m = g.add(std::move(misc));
  NodeRef q0 =
      g.add(getitem("getitem_1", qr, 0, ValueType::of_tensor(DType::Int8, dims({s0, 7168}))));
  g.add(output({Arg(q0), Arg(m), Arg::none()}));
  return g;
}

TEST(GraphJson, RoundTripReproducesTheGraph) {
  Graph g = sample_graph();
  std::string text = save_graph_json(g);
  Graph back = load_graph_json(text, "sample.json");
  EXPECT_EQ(back, g);
  EXPECT_EQ(back.name, "Sample");
  // Fields Graph::operator== does not compare survive too.
  const Node& norm = back.node(*back.find("npu_add_rms_norm"));
  EXPECT_EQ(norm.meta.loc.file, "model.fx");
  EXPECT_EQ(norm.meta.loc.line, 7);
  EXPECT_EQ(norm.meta.loc.column, 9);
  EXPECT_EQ(norm.meta.stack_trace, "# File: model.py:12 in forward, code: x = norm(x)");
  EXPECT_TRUE(back.node(*back.find("arg0_1")).type_annotated);
  EXPECT_FALSE(back.node(*back.find("full")).type_annotated);
}

TEST(GraphJson, SaveOfLoadIsAFixedPoint) {
  std::string once = save_graph_json(sample_graph());
  std::string twice = save_graph_json(load_graph_json(once, "x.json"));
  EXPECT_EQ(once, twice);
  std::string compact = save_graph_json(sample_graph(), -1);
  EXPECT_EQ(std::count(compact.begin(), compact.end(), '\n'), 1);
  EXPECT_EQ(load_graph_json(compact, "c.json"), sample_graph());
}

TEST(GraphJson, DocumentHeaderAndNodeShape) {
  ojson doc = graph_to_json(sample_graph());
  EXPECT_EQ(doc["format"], "eqfuse-graph");
  EXPECT_EQ(doc["version"], 1);
  EXPECT_EQ(doc["name"], "Sample");
  ASSERT_EQ(doc["nodes"].size(), 10u);
  const ojson& first = doc["nodes"][0];
  EXPECT_EQ(first["op"], "placeholder");
  EXPECT_EQ(first["meta"]["type"], "bf16[s0, 7168]");
  EXPECT_EQ(doc["nodes"][3]["meta"]["type"], "Sym(s0)");
  const ojson& norm = doc["nodes"][4];
  EXPECT_EQ(norm["op"], "call_function");
  EXPECT_EQ(norm["target"], "npu::npu_add_rms_norm");
  EXPECT_EQ(norm["args"][0], ojson({{"node", "arg0_1"}}));
  EXPECT_TRUE(norm["args"][3].is_number_float());
  EXPECT_EQ(norm["meta"]["stream"], "2");
  EXPECT_EQ(norm["meta"]["loc"], "model.fx:7:9");
  EXPECT_EQ(doc["nodes"][5]["op"], "getitem");
  EXPECT_EQ(doc["nodes"].back()["op"], "output");
}

TEST(GraphJson, ArgEncodingsAreUnambiguous) {
  Graph g = sample_graph();
  const Node& full = g.node(*g.find("full"));
  ojson size = arg_to_json(full.args[0], g);
  EXPECT_EQ(size, ojson::parse(R"([{"node": "arg3_1"}, -1])"));
  EXPECT_EQ(arg_to_json(full.args[1], g), ojson::parse(R"({"float": "-inf"})"));
  EXPECT_EQ(arg_to_json(full.kwargs[0].second, g), ojson::parse(R"({"dtype": "float32"})"));
  EXPECT_EQ(arg_to_json(full.kwargs[1].second, g), ojson::parse(R"({"device": "npu:0"})"));
  EXPECT_EQ(arg_to_json(full.kwargs[2].second, g), ojson(false));
  EXPECT_EQ(arg_to_json(full.kwargs[3].second, g),
            ojson::parse(R"({"literal": "torch.contiguous_format"})"));
  EXPECT_EQ(arg_to_json(full.kwargs[4].second, g),
            ojson::parse(R"({"tuple": [{"tuple": []}, 2.5, -0.5]})"));
  // Integers and integral floats stay distinct.
  EXPECT_TRUE(arg_to_json(Arg(int64_t{2}), g).is_number_integer());
  EXPECT_TRUE(arg_to_json(Arg(2.0), g).is_number_float());
  EXPECT_EQ(arg_to_json(Arg(2.0), g).dump(), "2.0");
  EXPECT_EQ(arg_to_json(Arg::none(), g), ojson(nullptr));
  EXPECT_EQ(arg_to_json(Arg(std::string("pertoken")), g), ojson("pertoken"));
}

TEST(GraphJson, FloatsRoundTripExactly) {
  Graph g;
  std::vector<double> values = {
      1e-06, 0.1, -0.0, 3.4028234663852886e38, 5e-324, std::numeric_limits<double>::infinity()};
  std::vector<Arg> args;
  for (double v : values) args.emplace_back(v);
  NodeRef c_ref = g.add(call("c", "aten::foo", args));
  g.add(output({Arg(c_ref)}));
  Graph back = load_graph_json(save_graph_json(g), "f.json");
  const Node& c = back.node(NodeRef{0});
  ASSERT_EQ(c.args.size(), values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    double got = std::get<double>(c.args[i].value);
    EXPECT_EQ(got, values[i]);
    EXPECT_EQ(std::signbit(got), std::signbit(values[i]));
  }
  // NaN != NaN, so it gets its own check.
  Graph n;
  NodeRef nan_ref = n.add(call("c", "aten::foo", {Arg(std::nan(""))}));
  n.add(output({Arg(nan_ref)}));
  EXPECT_EQ(arg_to_json(n.node(NodeRef{0}).args[0], n), ojson::parse(R"({"float": "nan"})"));
  Graph nb = load_graph_json(save_graph_json(n), "n.json");
  EXPECT_TRUE(std::isnan(std::get<double>(nb.node(NodeRef{0}).args[0].value)));
}

TEST(GraphJson, TypeEncodings) {
  SymInt s0 = SymInt::symbol("s0");
  EXPECT_EQ(type_to_json(ValueType::unknown()), ojson(nullptr));
  EXPECT_EQ(type_to_json(ValueType::none()), ojson("None"));
  EXPECT_EQ(type_to_json(ValueType::of_symint(std::nullopt)), ojson("SymInt"));
  ValueType tuple = ValueType::of_tuple(
      {ValueType::of_tensor(DType::Int8, dims({s0 * 4, 2})), ValueType::unknown()});
  EXPECT_EQ(type_to_json(tuple), ojson::parse(R"(["i8[4*s0, 2]", null])"));
  TensorType unranked;
  unranked.dtype = DType::Float16;
  ojson u = type_to_json(ValueType::of_tensor(unranked));
  EXPECT_EQ(u, ojson::parse(R"({"dtype": "f16", "shape": null})"));
  TensorType no_dtype;
  no_dtype.shape = dims({s0, 3});
  no_dtype.device = Device{"npu", 0};
  ojson nd = type_to_json(ValueType::of_tensor(no_dtype));
  EXPECT_EQ(nd, ojson::parse(R"({"dtype": null, "shape": ["s0", 3], "device": "npu:0"})"));
  for (const ValueType& t :
       {tuple, ValueType::of_tensor(unranked), ValueType::of_tensor(no_dtype), ValueType::none(),
        ValueType::of_symint(s0 + 1), ValueType::of_tensor(DType::Float32, dims({}))}) {
    EXPECT_EQ(type_from_json(type_to_json(t)), t) << type_to_json(t).dump();
  }
  ValueType strided = parse_annotation("f16[2, 3][3, 1]npu:0");
  EXPECT_EQ(type_from_json(type_to_json(strided)), strided);
}

TEST(GraphJson, DetectsTheFormat) {
  EXPECT_TRUE(is_graph_json(save_graph_json(sample_graph())));
  EXPECT_TRUE(is_graph_json(R"(  {"format": "eqfuse-graph", "version": 1, "nodes": []})"));
  EXPECT_FALSE(is_graph_json(R"({"format": "other"})"));
  EXPECT_FALSE(is_graph_json("{ not json"));
  EXPECT_FALSE(is_graph_json("class GraphModule(torch.nn.Module):\n"));
  EXPECT_FALSE(is_graph_json(""));
}

// The message of the Error thrown by loading `text`.
std::string load_error(const std::string& text) {
  try {
    load_graph_json(text, "bad.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "bad.json");
    return e.what();
  }
  ADD_FAILURE() << "no error for: " << text;
  return "";
}

std::string doc_with_nodes(const std::string& nodes) {
  return R"({"format": "eqfuse-graph", "version": 1, "nodes": [)" + nodes + "]}";
}

TEST(GraphJson, MalformedJsonReportsLineAndColumn) {
  std::string text = "{\n  \"format\": \"eqfuse-graph\",\n  \"version\": 1,,\n}";
  try {
    load_graph_json(text, "bad.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_EQ(e.loc().column, 16);  // the second comma
    EXPECT_EQ(e.source_line(), "  \"version\": 1,,");
    EXPECT_THAT(e.what(), HasSubstr("invalid JSON"));
    EXPECT_THAT(e.what(), ::testing::Not(HasSubstr("json.exception")));
    EXPECT_THAT(e.render(), HasSubstr("bad.json:3:16: error: invalid JSON"));
    EXPECT_THAT(e.render(), HasSubstr("\n  " + std::string(15, ' ') + "^"));
  }
  EXPECT_THAT(load_error(""), HasSubstr("invalid JSON"));
  EXPECT_THAT(load_error("{\"format\": \"eqfuse-graph\""), HasSubstr("invalid JSON"));
  EXPECT_THAT(load_error("{\"a\": \"\xff\"}"), HasSubstr("invalid JSON"));
}

TEST(GraphJson, StructuralErrorsNameThePathAndNode) {
  EXPECT_THAT(load_error("[]"), HasSubstr("must be a JSON object"));
  EXPECT_THAT(load_error(R"({"format": "fx", "version": 1, "nodes": []})"),
              HasSubstr("format: expected \"eqfuse-graph\""));
  EXPECT_THAT(load_error(R"({"format": "eqfuse-graph", "version": 7, "nodes": []})"),
              HasSubstr("unsupported version 7"));
  EXPECT_THAT(load_error(R"({"format": "eqfuse-graph", "version": 1})"),
              HasSubstr("missing \"nodes\""));
  EXPECT_THAT(load_error(R"({"format": "eqfuse-graph", "version": 1, "nodes": [], "x": 1})"),
              HasSubstr("unknown top-level key"));
  EXPECT_THAT(load_error(doc_with_nodes(R"({"op": "placeholder"})")),
              HasSubstr("nodes[0]: missing \"name\""));
  EXPECT_THAT(load_error(doc_with_nodes(R"({"name": "a", "op": "call_method", "target": "f"})")),
              HasSubstr("nodes[0] (a).op: unknown op kind \"call_method\""));
  EXPECT_THAT(load_error(doc_with_nodes(R"({"name": "a", "op": "call_function"})")),
              HasSubstr("nodes[0] (a).target: missing"));
  EXPECT_THAT(load_error(doc_with_nodes(
                  R"({"name": "a", "op": "placeholder"}, {"name": "a", "op": "placeholder"})")),
              HasSubstr("nodes[1] (a): duplicate definition of 'a'"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [{"node": "zz"}]})")),
      HasSubstr("nodes[0] (b).args[0].node: unknown node 'zz'"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [[1, {"node": "c"}]]},
             {"name": "c", "op": "placeholder"})")),
      HasSubstr("nodes[0] (b).args[0][1].node: node 'c' is used before its definition (nodes[1])"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [{"dtype": "float99"}]})")),
      HasSubstr("unknown dtype 'float99'"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [{"node": "a", "x": 1}]})")),
      HasSubstr("exactly one key"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [{"float": "big"}]})")),
      HasSubstr("nodes[0] (b).args[0].float"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "b", "op": "call_function", "target": "f", "args": [18446744073709551615]})")),
      HasSubstr("does not fit in int64"));
  EXPECT_THAT(load_error(doc_with_nodes(
                  R"({"name": "a", "op": "placeholder", "meta": {"type": "q99[2]"}})")),
              HasSubstr("nodes[0] (a).meta.type"));
  EXPECT_THAT(load_error(doc_with_nodes(
                  R"({"name": "a", "op": "placeholder", "meta": {"colour": "red"}})")),
              HasSubstr("nodes[0] (a).meta.colour: unknown meta key"));
  EXPECT_THAT(load_error(doc_with_nodes(R"({"name": "a", "op": "placeholder", "args": [1]})")),
              HasSubstr("a placeholder has no args"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "a", "op": "placeholder"}, {"name": "g", "op": "getitem", "args": [{"node": "a"}]})")),
      HasSubstr("nodes[1] (g).args: a getitem takes exactly"));
  EXPECT_THAT(
      load_error(doc_with_nodes(
          R"({"name": "output", "op": "output", "args": [null]}, {"name": "a", "op": "placeholder"})")),
      HasSubstr("the output node must be the last node"));
  EXPECT_THAT(load_error(doc_with_nodes(R"({"name": "a", "op": "placeholder", "colour": 1})")),
              HasSubstr("nodes[0] (a).colour: unknown node key"));
  EXPECT_THAT(load_error(doc_with_nodes(
                  R"({"name": "a", "op": "placeholder", "meta": {"loc": "nowhere"}})")),
              HasSubstr("nodes[0] (a).meta.loc"));
}

// A document built in C++ (not read from text, so not bounded by the JSON
// reader) still cannot nest arguments or tuple types deeper than FX text.
TEST(GraphJson, DocumentsBuiltInCppAreBoundedToo) {
  nlohmann::ordered_json deep = nlohmann::ordered_json::array();
  for (int i = 0; i < 1000; ++i) deep = nlohmann::ordered_json::array({std::move(deep)});
  nlohmann::ordered_json doc = {{"format", "eqfuse-graph"}, {"version", 1}};
  doc["nodes"] = nlohmann::ordered_json::array(
      {{{"name", "x"}, {"op", "call_function"}, {"target", "aten::relu"}, {"args", deep}}});
  try {
    graph_from_json(doc, "built.json");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("arguments nested deeper than 256 levels"));
  }
  EXPECT_THROW(type_from_json(deep), std::invalid_argument);
}

TEST(GraphJson, DefaultsForOptionalFields) {
  Graph g = load_graph_json(doc_with_nodes(R"({"name": "x", "op": "placeholder"},
      {"name": "output", "op": "output", "args": [{"node": "x"}]})"),
                            "min.json");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(g.name, "GraphModule");
  EXPECT_EQ(g.node(NodeRef{0}).target, "x");
  EXPECT_FALSE(g.node(NodeRef{0}).type.is_known());
  EXPECT_FALSE(g.node(NodeRef{0}).type_annotated);
  EXPECT_EQ(g.output_values(), std::vector<NodeRef>{NodeRef{0}});
}

}  // namespace
}  // namespace eqfuse
