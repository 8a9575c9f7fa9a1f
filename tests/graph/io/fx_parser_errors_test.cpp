// Malformed FX text: every case must throw one eqfuse::Error pointing at the
// offending line and column, carrying the source line for the caret.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {
namespace {

struct Case {
  std::string name;
  std::string text;
  int line;
  int column;
  std::string message;  // substring of what()
};

// Wraps statements in a typical print_readable header.
std::string fwd(const std::string& body, const std::string& params = "a: \"f32[2]\"") {
  return "class GraphModule(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body;
}

const std::string kRelu = "torch.ops.aten.relu.default";

std::vector<Case> cases() {
  return {
      {"EmptyFile", "", 1, 1, "empty input"},
      {"OnlyBlankAndComments", "  \n# a comment\n   \n", 1, 1, "empty input"},
      {"NoGraph", "hello world\nthis is prose\n", 1, 1, "no FX graph found"},
      {"ClassWithoutForward", "class GraphModule(torch.nn.Module):\n    pass_ = 1\n", 1, 1,
       "no `def forward(self, ...):` found after this class header"},
      {"UnterminatedList", fwd("        x = torch.ops.aten.view.default(a, [2, 3\n"), 3, 44,
       "unterminated list"},
      {"ListClosedByParen",
       fwd("        x = torch.ops.aten.view.default(a, [2, 3)\n        return x\n"), 3, 49,
       "expected ',' or ']' in list, found ')'"},
      {"UnterminatedString",
       fwd("        x = torch.ops.my.op.default(a, 'abc)\n        return x\n"), 3, 40,
       "unterminated string"},
      {"UnknownName", fwd("        x = " + kRelu + "(b)\n        return x\n"), 3, 41,
       "unknown name 'b'"},
      {"UseBeforeDefinition",
       fwd("        y = " + kRelu + "(x)\n        x = " + kRelu + "(a)\n        return y\n"), 3, 41,
       "'x' is used before its definition on line 4"},
      {"DuplicateDefinition",
       fwd("        x = " + kRelu + "(a)\n        x = " + kRelu + "(a)\n        return x\n"), 4, 9,
       "duplicate definition of 'x'"},
      {"DuplicateParameter", fwd("        return a\n", "a, a"), 2, 26,
       "duplicate definition of 'a'"},
      {"NodeShadowsParameter", fwd("        a = " + kRelu + "(a)\n        return a\n"), 3, 9,
       "duplicate definition of 'a'"},
      {"BadAnnotation", fwd("        x: \"f32[2,, 3]\" = " + kRelu + "(a)\n        return x\n"), 3,
       13, "empty dimension"},
      {"BadDtypeCode", fwd("        x: \"q99[2]\" = " + kRelu + "(a)\n        return x\n"), 3, 13,
       "unknown dtype code 'q99'"},
      {"UnclosedAnnotationShape",
       fwd("        x: \"f32[2, 3\" = " + kRelu + "(a)\n        return x\n"), 3, 13, "missing ']'"},
      {"BadParameterAnnotation", fwd("        return a\n", "a: \"f32[s0 +]\""), 2, 27,
       "bad type annotation"},
      {"NonUtf8", fwd("        x = " + kRelu + "(a)  # caf\xff\n        return x\n"), 3, 50,
       "invalid UTF-8 byte 0xFF"},
      {"MissingReturn", fwd("        x = " + kRelu + "(a)\n"), 3, 43, "missing 'return'"},
      {"MissingReturnGraphForm", "graph():\n    %a : [num_users=1] = placeholder[target=a]\n", 2,
       47, "missing 'return'"},
      {"GarbageAfterStatement", fwd("        x = " + kRelu + "(a) junk\n        return x\n"), 3, 44,
       "unexpected 'junk' after the end of the statement"},
      {"ExtraClosingParen", fwd("        x = " + kRelu + "(a))\n        return x\n"), 3, 43,
       "unexpected ')'"},
      {"UnterminatedCall", fwd("        x = " + kRelu + "(a\n"), 3, 40, "unterminated call"},
      {"BadNumber", fwd("        x = torch.ops.aten.add.Tensor(a, 12abc)\n        return x\n"), 3,
       42, "bad number '12abc'"},
      {"IntegerOverflow",
       fwd("        x = torch.ops.aten.add.Tensor(a, 99999999999999999999)\n        return x\n"), 3,
       42, "integer out of the int64 range"},
      {"GetitemOnNonNode", fwd("        x = operator.getitem(5, 0)\n        return x\n"), 3, 13,
       "getitem on a value that is not a node"},
      {"GetitemNonIntegerIndex", fwd("        x = a['k']\n        return x\n"), 3, 14,
       "getitem index must be an integer"},
      {"TabIndentation", fwd("\tx = " + kRelu + "(a)\n\treturn x\n"), 3, 1,
       "tab character in indentation"},
      {"UnexpectedIndent",
       fwd("        x = " + kRelu + "(a)\n            y = " + kRelu + "(x)\n        return y\n"), 4,
       13, "unexpected indentation"},
      {"InconsistentDedent",
       fwd("        x = " + kRelu + "(a)\n      y = " + kRelu + "(x)\n        return y\n"), 4, 7,
       "inconsistent dedent"},
      {"StatementAfterReturn", fwd("        return a\n        x = " + kRelu + "(a)\n"), 4, 9,
       "statement after 'return'"},
      {"ReturnWithoutValue", fwd("        return\n"), 3, 15, "'return' without a value"},
      {"GraphFormBadKwargs",
       "graph():\n    %a : [num_users=1] = placeholder[target=a]\n"
       "    %b : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%a,), "
       "kwargs = {bias %a})\n    return (b,)\n",
       3, 105, "expected ':' after the keyword name in kwargs"},
      {"GraphFormUnknownOpcode",
       "graph():\n    %a : [num_users=1] = placeholder[target=a]\n"
       "    %b : [num_users=1] = call_foo[target=x](args = (%a,), kwargs = {})\n    return (b,)\n",
       3, 26, "unknown opcode 'call_foo'"},
      {"GraphFormUnknownRef",
       "graph():\n    %b : [num_users=1] = call_function[target=torch.ops.aten.relu.default]"
       "(args = (%zz,), kwargs = {})\n    return (b,)\n",
       2, 84, "unknown name 'zz'"},
      {"GraphFormMissingTarget",
       "graph():\n    %a : [num_users=1] = placeholder[name=a]\n    return (a,)\n", 2, 26,
       "expected `[target=...]`"},
      {"PositionalAfterKeyword",
       fwd("        x = torch.ops.aten.add.Tensor(a, alpha = 2, a)\n        return x\n"), 3, 53,
       "positional argument after keyword argument"},
      {"RepeatedKeyword",
       fwd("        x = torch.ops.aten.add.Tensor(a, a, alpha = 2, alpha = 3)\n        return x\n"),
       3, 56, "keyword argument 'alpha' repeated"},
      {"BadDeviceIndex",
       fwd("        x = torch.ops.aten.ones.default([2], device = device(type='npu', index='x'))\n"
           "        return x\n"),
       3, 80, "device index must be an integer"},
      // Fuzz finding: an empty device type read an absent device (out-of-memory copy).
      {"EmptyDeviceType",
       fwd("        x = torch.ops.aten.ones.default([2], device = device(type=''))\n"
           "        return x\n"),
       3, 67, "bad device ''"},
      {"EmptyPositionalDevice",
       fwd("        x = torch.ops.aten.ones.default([2], device = device(''))\n"
           "        return x\n"),
       3, 62, "bad device ''"},
      {"UnexpectedCharacter", fwd("        x = " + kRelu + "(a) $\n        return x\n"), 3, 44,
       "unexpected '$'"},
      {"ParameterDefault", fwd("        return a\n", "a=1"), 2, 24, "default values"},
      {"DynamoModuleCall", fwd("        x = self.conv1(a)\n        return x\n"), 3, 13,
       "Dynamo-level graph: module call `self.conv1(...)`"},
      {"DynamoMethodCall", fwd("        x = a.view(2)\n        return x\n"), 3, 13,
       "Dynamo-level graph: method call `a.view(...)`"},
      {"DynamoAugmentedAssignment", fwd("        a += a\n        return a\n"), 3, 11,
       "Dynamo-level graph: augmented assignment"},
      {"TabularForm",
       "TRACED GRAPH\n opcode  name  target  args  kwargs\n-----  ----\nplaceholder x x () {}\n", 2,
       2, "tabular print_tabular() dump"},
      {"ChainedOperators", fwd("        x = a + a + a\n        return x\n"), 3, 19,
       "chained operators"},
  };
}

class FxMalformed : public ::testing::TestWithParam<Case> {};

TEST_P(FxMalformed, ThrowsLocatedError) {
  const Case& c = GetParam();
  try {
    Graph g = parse_fx(c.text, "bad.fx");
    FAIL() << "parsed without error: " << g.size() << " nodes";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos)
        << "message: " << e.what() << "\nwanted: " << c.message;
    EXPECT_EQ(e.loc().file, "bad.fx");
    EXPECT_EQ(e.loc().line, c.line) << e.render();
    EXPECT_EQ(e.loc().column, c.column) << e.render();
    const std::string rendered = e.render();
    EXPECT_EQ(rendered.rfind(fmt::format("bad.fx:{}:{}: error: ", c.line, c.column), 0), 0u)
        << rendered;
    if (!c.text.empty()) {
      EXPECT_NE(rendered.find('^'), std::string::npos) << rendered;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, FxMalformed, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

TEST(FxMalformedCount, AtLeastTwentyFiveDistinctCases) {
  std::set<std::string> names;
  for (const Case& c : cases()) names.insert(c.name);
  EXPECT_GE(names.size(), 25u);
  EXPECT_EQ(names.size(), cases().size());
}

TEST(FxGuards, DeepNestingIsAnErrorNotACrash) {
  std::string nested(100000, '[');
  nested += std::string(100000, ']');
  const std::string text =
      fwd("        x = torch.ops.aten.view.default(a, " + nested + ")\n        return x\n");
  try {
    parse_fx(text, "deep.fx");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 256 levels"), std::string::npos)
        << e.what();
    EXPECT_EQ(e.loc().line, 3);
  }
}

TEST(FxGuards, NestingLimitIsConfigurable) {
  const std::string text =
      fwd("        x = torch.ops.aten.view.default(a, [[[[1]]]])\n        return x\n");
  EXPECT_NO_THROW(parse_fx(text, "ok.fx"));
  FxParseLimits tight;
  tight.max_nesting_depth = 3;
  EXPECT_THROW(parse_fx(text, "ok.fx", tight), Error);
}

TEST(FxGuards, InputSizeLimit) {
  FxParseLimits tiny;
  tiny.max_input_bytes = 16;
  try {
    parse_fx(fwd("        return a\n"), "big.fx", tiny);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("exceeds the limit of 16 bytes"), std::string::npos);
    EXPECT_EQ(e.loc().line, 1);
  }
}

TEST(FxGuards, CaretPointsAtTheColumn) {
  try {
    parse_fx(fwd("        x = " + kRelu + "(b)\n        return x\n"), "f.fx");
    FAIL();
  } catch (const Error& e) {
    const std::string r = e.render();
    // `  <line>\n  <spaces>^` with the caret under `b`.
    const size_t caret_line = r.rfind('\n');
    ASSERT_NE(caret_line, std::string::npos);
    EXPECT_EQ(r.substr(caret_line + 1), std::string(2 + 40, ' ') + "^");
    EXPECT_NE(r.find("x = torch.ops.aten.relu.default(b)"), std::string::npos);
  }
}

TEST(FxGuards, LongLinesAreCutAroundTheColumn) {
  std::string params = "a";
  for (int i = 0; i < 300; ++i) params += fmt::format(", p{}", i);
  params += ", a";  // duplicate at the very end of a ~2.4 KB line
  try {
    parse_fx(fwd("        return a\n", params), "long.fx");
    FAIL();
  } catch (const Error& e) {
    EXPECT_LE(e.source_line().size(), 200u);
    EXPECT_NE(std::string(e.what()).find("(column "), std::string::npos);
    EXPECT_EQ(e.source_line().substr(static_cast<size_t>(e.loc().column - 1), 1), "a");
  }
}

}  // namespace
}  // namespace eqfuse

namespace eqfuse {
namespace {

// Robustness: every prefix of a real dump, and deterministic byte
// mutations of it, either parse or throw eqfuse::Error (never another
// exception, a crash or a hang). Run under ASan/UBSan in CI.
std::string small_dump(const char* name) {
  std::ifstream in(std::string(EQFUSE_TEST_DATA) + "/fx-dumps/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void parse_or_error(const std::string& text) {
  try {
    parse_fx(text, "m");
  } catch (const Error& e) {
    EXPECT_TRUE(e.loc().known()) << e.what();
  }
}

TEST(FxRobustness, EveryPrefixOfADump) {
  for (const char* name : {"torchair-tests_1.txt", "torchair-docs_1.txt", "pytorch-tests_7.txt"}) {
    const std::string text = small_dump(name);
    ASSERT_FALSE(text.empty()) << name;
    for (size_t n = 0; n <= text.size(); ++n) parse_or_error(text.substr(0, n));
  }
}

TEST(FxRobustness, ByteMutations) {
  const std::string text = small_dump("pytorch-tests_4.txt");
  ASSERT_FALSE(text.empty());
  const std::string alphabet = "()[]{},:;=.%'\"#\t\n -+*0123456789aZ_\xff\xc3";
  uint64_t state = 0x9E3779B97F4A7C15ull;  // fixed seed: deterministic
  auto next = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (int trial = 0; trial < 3000; ++trial) {
    std::string m = text;
    const int edits = 1 + static_cast<int>(next() % 3);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = next() % m.size();
      const char c = alphabet[next() % alphabet.size()];
      switch (next() % 3) {
        case 0:
          m[pos] = c;
          break;
        case 1:
          m.insert(m.begin() + static_cast<std::ptrdiff_t>(pos), c);
          break;
        default:
          m.erase(pos, 1);
          break;
      }
    }
    parse_or_error(m);
  }
}

}  // namespace
}  // namespace eqfuse

namespace eqfuse {
namespace {

// Arity is checked against the schema by resolve_ops (graph/op_registry.hpp),
// at the location the parser recorded for the node.
TEST(FxSchemaErrors, WrongArityPointsAtTheNode) {
  const OpRegistry reg = OpRegistry::with_builtin_ops();
  const std::string text =
      fwd("        x = torch.ops.aten.relu.default(a)\n"
          "        y = torch.ops.npu.npu_rms_norm.default(x, a, 1e-06, 7, 8)\n"
          "        return y\n");
  Graph g = parse_fx(text, "arity.fx");
  try {
    resolve_ops(g, reg);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "arity.fx");
    EXPECT_EQ(e.loc().line, 4);
    EXPECT_EQ(e.loc().column, 9);
    EXPECT_NE(std::string(e.what()).find("'y'"), std::string::npos) << e.what();
  }
}

TEST(FxSchemaErrors, UnknownKeywordPointsAtTheNode) {
  const OpRegistry reg = OpRegistry::with_builtin_ops();
  Graph g = parse_fx(
      fwd("        y = torch.ops.aten.add.Tensor(a, a, beta = 2)\n        return y\n"), "kw.fx");
  try {
    resolve_ops(g, reg);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_EQ(e.loc().column, 9);
  }
}

}  // namespace
}  // namespace eqfuse
