// --input-types: the `name=type; ...` text form, the JSON file form, and
// applying them to a graph's placeholders.
#include "graph/io/input_types.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

TEST(InputTypes, ParsesTheTextForm) {
  InputTypes t = parse_input_types("arg0_1=bf16[s0, 4096]; arg1_1=Sym(s0)");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "arg0_1");
  EXPECT_EQ(t[0].type, ValueType::of_tensor(DType::BFloat16, {SymInt::symbol("s0"), 4096}));
  EXPECT_EQ(t[1].name, "arg1_1");
  EXPECT_EQ(t[1].type, ValueType::of_symint(SymInt::symbol("s0")));
}

TEST(InputTypes, AcceptsNewlinesBlanksQuotesAndComments) {
  InputTypes t = parse_input_types("  x = \"f32[2, 3][3, 1]npu:0\" ;\n# a comment\n\ny=i8[]\n;;");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].type, parse_annotation("f32[2, 3][3, 1]npu:0"));
  EXPECT_EQ(t[1].type, ValueType::of_tensor(DType::Int8, {}));
  EXPECT_TRUE(parse_input_types("").empty());
}

Error text_error(std::string_view text) {
  try {
    parse_input_types(text);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text;
  return Error("");
}

TEST(InputTypes, TextErrorsNameTheEntryAndColumn) {
  Error e = text_error("a=f32[2]; b=q7[2]");
  EXPECT_THAT(e.what(), HasSubstr("input 'b'"));
  EXPECT_EQ(e.loc().file, "--input-types");
  EXPECT_EQ(e.loc().line, 1);
  EXPECT_EQ(e.loc().column, 13);
  EXPECT_EQ(e.source_line(), "a=f32[2]; b=q7[2]");

  EXPECT_THAT(text_error("a f32[2]").what(), HasSubstr("expected 'name=type'"));
  EXPECT_THAT(text_error("a=").what(), HasSubstr("missing type for input 'a'"));
  EXPECT_THAT(text_error("1x=f32[2]").what(), HasSubstr("bad input name '1x'"));
  EXPECT_THAT(text_error("a=f32[2]; a=f32[3]").what(), HasSubstr("'a' is typed twice"));
  Error second_line = text_error("a=f32[2]\nb=f32[2");
  EXPECT_EQ(second_line.loc().line, 2);
  EXPECT_EQ(second_line.loc().column, 3);
}

TEST(InputTypes, ParsesTheJsonForm) {
  InputTypes t =
      parse_input_types_any(R"j({"arg0_1": "bf16[s0, 4096]", "arg1_1": "Sym(s0)"})j", "types.json");
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "arg0_1");
  EXPECT_EQ(t[1].type, ValueType::of_symint(SymInt::symbol("s0")));
  // The same helper takes the text form.
  EXPECT_EQ(parse_input_types_any("a=f32[1]", "x").size(), 1u);
}

std::string json_error(std::string_view text) {
  try {
    parse_input_types_json(text, "types.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "types.json");
    return e.what();
  }
  ADD_FAILURE() << "no error for " << text;
  return "";
}

TEST(InputTypes, JsonErrorsNameTheEntry) {
  EXPECT_THAT(json_error("{"), HasSubstr("invalid JSON"));
  EXPECT_THAT(json_error("[1]"), HasSubstr("expected a JSON object"));
  EXPECT_THAT(json_error(R"({"a": 3})"), HasSubstr("entry \"a\": the type must be a string"));
  EXPECT_THAT(json_error(R"({"a": "f32[2]", "b": "f32[x"})"), HasSubstr("entry \"b\""));
  EXPECT_THAT(json_error(R"({"a b": "f32[2]"})"), HasSubstr("not a valid input name"));
}

Graph two_inputs() {
  Graph g;
  for (const char* name : {"x", "y"}) {
    Node n;
    n.kind = NodeKind::Placeholder;
    n.name = name;
    n.target = name;
    g.add(std::move(n));
  }
  Node add;
  add.name = "add";
  add.target = "aten::add.Tensor";
  add.args = {Arg(NodeRef{0}), Arg(NodeRef{1})};
  g.add(std::move(add));
  return g;
}

TEST(InputTypes, AppliesToPlaceholders) {
  Graph g = two_inputs();
  apply_input_types(g, parse_input_types("y=f16[4]"));
  EXPECT_FALSE(g.node(NodeRef{0}).type.is_known());
  EXPECT_EQ(g.node(NodeRef{1}).type, ValueType::of_tensor(DType::Float16, {4}));
  EXPECT_TRUE(g.node(NodeRef{1}).type_annotated);
}

TEST(InputTypes, RejectsNamesThatAreNotInputs) {
  Graph g = two_inputs();
  try {
    apply_input_types(g, parse_input_types("add=f16[4]"));
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_THAT(e.what(), HasSubstr("'add', which is not an input"));
    EXPECT_THAT(e.what(), HasSubstr("inputs: x, y"));
  }
  EXPECT_THROW(apply_input_types(g, parse_input_types("zz=f16[4]")), Error);
}

}  // namespace
}  // namespace eqfuse
