// Given input values: JSON (object or array, nested or flat data) and
// safetensors, checked against the placeholders' dtypes, shapes and symbols;
// every kind of bad file is an error naming the input.
#include "interp/input_values.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "base/diagnostics.hpp"
#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::graph_from;
using ::testing::HasSubstr;

Graph two_inputs() {
  return graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[s0, 2]", ids: "i64[s0]", n: "Sym(s0)"):
        return (x,)
)FX");
}

RandomInputs from_json(const std::string& text) {
  return parse_input_values(two_inputs(), text, "in.json", false);
}

std::string json_error(const std::string& text) {
  try {
    from_json(text);
  } catch (const Error& e) {
    return e.render();
  }
  return "no error";
}

TEST(InputValues, JsonObjectBindsSymbolsAndRoundsToTheDtype) {
  RandomInputs in = from_json(R"({"x": {"dtype": "bf16", "data": [[0.1, 1], [2, "-inf"], [3, 4]]},
                                  "ids": {"data": [0, 2, 1]}, "n": 3})");
  EXPECT_EQ(in.bindings.at("s0"), 3);
  const Tensor& x = in.values[0].tensor();
  EXPECT_EQ(x.shape(), (Dims{3, 2}));
  EXPECT_EQ(x.get_flat(0), 0.10009765625);  // 0.1 in bf16
  EXPECT_EQ(x.get_flat(3), -INFINITY);
  EXPECT_EQ(in.values[1].tensor().dtype(), DType::Int64);
  EXPECT_EQ(in.values[1].tensor().get_flat_int(1), 2);
  EXPECT_EQ(in.values[2].as_int(), 3);
}

TEST(InputValues, JsonArrayInInputOrderWithFlatData) {
  RandomInputs in = from_json(R"([{"shape": [1, 2], "data": [5, 6]}, {"data": [0]}, 1])");
  EXPECT_EQ(in.values[0].tensor().get_flat(1), 6);
  EXPECT_EQ(in.bindings.at("s0"), 1);
}

TEST(InputValues, BadJsonNamesTheInput) {
  EXPECT_THAT(
      json_error(R"({"x": {"dtype": "f32", "data": [[1, 2]]}, "ids": {"data": [0]}, "n": 1})"),
      HasSubstr("input 'x': dtype f32 but the graph declares bf16"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2, 3]]}, "ids": {"data": [0]}, "n": 1})"),
              HasSubstr("input 'x': shape [1, 3] does not match the declared [s0, 2]"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2]]}, "ids": {"data": [0, 1]}, "n": 1})"),
              HasSubstr("input 'ids': shape [2] does not match the declared [s0]"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2]]}, "ids": {"data": [0]}, "n": 2})"),
              HasSubstr("input 'n': 2 disagrees with the sizes of the other inputs (s0 = 1)"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2]]}, "ids": {"data": [0]}})"),
              HasSubstr("no value for input 'n' (Sym(s0))"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2]]}, "ids": {"data": [0]}, "n": 1, "y": 2})"),
              HasSubstr("'y' is not an input of the graph (its inputs: x, ids, n)"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2], [3]]}, "ids": {"data": [0]}, "n": 1})"),
              HasSubstr("input 'x': ragged data"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, 2]]}, "ids": {"data": [0.5]}, "n": 1})"),
              HasSubstr("input 'ids': 0.5 is not an integer"));
  EXPECT_THAT(json_error(R"({"x": {"data": [[1, "a"]]}, "ids": {"data": [0]}, "n": 1})"),
              HasSubstr("input 'x': expected a number"));
  EXPECT_THAT(json_error(R"([1, 2])"), HasSubstr("the array has 2 values, the graph has 3 inputs"));
  EXPECT_THAT(json_error(R"({"x": 1, "ids": {"data": [0]}, "n": 1})"),
              HasSubstr("input 'x': the graph declares bf16[s0, 2], the file gives a number"));
  EXPECT_THAT(json_error("{\"x\": "), HasSubstr("in.json:1:"));
}

// A safetensors file: little-endian header length, JSON header, raw data.
std::string safetensors(const std::string& header, const std::string& data) {
  std::string out;
  uint64_t n = header.size();
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
  return out + header + data;
}

std::string le_bytes(uint64_t v, int bytes) {
  std::string out;
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return out;
}

TEST(InputValues, SafetensorsFloat8) {
  // e4m3fn 0x7e = 448, 0xb8 = -1.0; e5m2 0x3c = 1.0, 0x7c = inf; e8m0 127 = 1, 130 = 8.
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f8e4m3fn[2]", b: "f8e5m2[2]", c: "f8e8m0fnu[2]"):
        return (a,)
)FX");
  const std::string header = R"({"a": {"dtype": "F8_E4M3", "shape": [2], "data_offsets": [0, 2]},)"
                             R"( "b": {"dtype": "F8_E5M2", "shape": [2], "data_offsets": [2, 4]},)"
                             R"( "c": {"dtype": "F8_E8M0", "shape": [2], "data_offsets": [4, 6]}})";
  const std::string data = std::string("\x7e\xb8\x3c\x7c\x7f\x82", 6);
  RandomInputs in = parse_input_values(g, safetensors(header, data), "in.safetensors", true);
  EXPECT_EQ(in.values[0].tensor().get_flat(0), 448.0);
  EXPECT_EQ(in.values[0].tensor().get_flat(1), -1.0);
  EXPECT_EQ(in.values[1].tensor().get_flat(0), 1.0);
  EXPECT_TRUE(std::isinf(in.values[1].tensor().get_flat(1)));
  EXPECT_EQ(in.values[2].tensor().get_flat(0), 1.0);
  EXPECT_EQ(in.values[2].tensor().get_flat(1), 8.0);
}

TEST(InputValues, SafetensorsByName) {
  // x: bf16 [1, 2] = {1.0 (0x3f80), -2.0 (0xc000)}; ids: i64 [1] = {7}; n as JSON is not
  // possible in safetensors, so use a graph without SymInt inputs.
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[s0, 2]", ids: "i64[s0]"):
        return (x,)
)FX");
  const std::string header =
      R"({"__metadata__": {"format": "pt"}, "ids": {"dtype": "I64", "shape": [1], "data_offsets": [4, 12]},)"
      R"( "x": {"dtype": "BF16", "shape": [1, 2], "data_offsets": [0, 4]}})";
  const std::string data = le_bytes(0x3f80, 2) + le_bytes(0xc000, 2) + le_bytes(7, 8);
  RandomInputs in = parse_input_values(g, safetensors(header, data), "in.safetensors", true);
  EXPECT_EQ(in.values[0].tensor().get_flat(0), 1.0);
  EXPECT_EQ(in.values[0].tensor().get_flat(1), -2.0);
  EXPECT_EQ(in.values[1].tensor().get_flat_int(0), 7);
  EXPECT_EQ(in.bindings.at("s0"), 1);

  auto error = [&](const std::string& bytes) -> std::string {
    try {
      parse_input_values(g, bytes, "in.safetensors", true);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_THAT(error("abc"), HasSubstr("too short for a safetensors file"));
  EXPECT_THAT(error(le_bytes(1000, 8) + "{}"), HasSubstr("header length 1000 exceeds the file"));
  const std::string short_range =
      R"({"ids": {"dtype": "I64", "shape": [1], "data_offsets": [4, 10]},)"
      R"( "x": {"dtype": "BF16", "shape": [1, 2], "data_offsets": [0, 4]}})";
  EXPECT_THAT(error(safetensors(short_range, data)),
              HasSubstr("tensor 'ids': byte range [4, 10) does not hold 1 I64 values"));
  const std::string bad_dtype =
      R"({"ids": {"dtype": "C64", "shape": [1], "data_offsets": [4, 12]}})";
  EXPECT_THAT(error(safetensors(bad_dtype, data)),
              HasSubstr("unsupported safetensors dtype 'C64'"));
  // Fuzz findings (fuzz_inputs): a dtype that is no string escaped as a JSON
  // exception; a shape whose byte count wraps 64 bits passed the range check.
  const std::string array_dtype =
      R"({"ids": {"dtype": [3], "shape": [1], "data_offsets": [4, 12]}})";
  EXPECT_THAT(error(safetensors(array_dtype, data)),
              HasSubstr("unsupported safetensors dtype '[3]'"));
  const std::string wrapping =
      R"({"ids": {"dtype": "I64", "shape": [2305843009213693952], "data_offsets": [0, 0]}})";
  EXPECT_THAT(error(safetensors(wrapping, data)), HasSubstr("byte range [0, 0) does not hold"));
  const std::string huge =
      R"({"ids": {"dtype": "I64", "shape": [4294967296, 4294967296], "data_offsets": [0, 0]}})";
  EXPECT_THAT(error(safetensors(huge, data)), HasSubstr("more elements than fit in 63 bits"));
}

}  // namespace
}  // namespace eqfuse
