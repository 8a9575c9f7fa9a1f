// Example inputs of runnable repros: the torch 2.x load_args form, the older
// rand_strided form, dtype mapping, symbolic dims, errors with file:line, and
// matching the inputs to a graph's unannotated placeholders.
#include "graph/io/runnable_inputs.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kLoadArgs = R"(
def load_args(reader):
    buf0 = reader.storage(None, 4096, device=device(type='npu', index=0), dtype_hint=torch.bfloat16)
    reader.tensor(buf0, (16, 128), dtype=torch.bfloat16, is_leaf=True)  # arg0_1
    buf1 = reader.storage(None, 512)
    reader.tensor(buf1, (128,), is_leaf=True)  # arg1_1
    reader.symint(16)  # arg2_1
    buf2 = reader.storage(None, 64, dtype_hint=torch.int8)
    reader.tensor(buf2, (8, 8), (1, 8), storage_offset=0, dtype=torch.int8)  # arg3_1
    reader.tensor(buf2, torch.Size([2, 2]), dtype=torch.bool)  # arg4_1
load_args._version = 0
)";

TEST(RunnableInputs, ReadsTheLoadArgsForm) {
  std::vector<RunnableInput> in = parse_runnable_inputs(kLoadArgs, "fx_graph_runnable.py");
  ASSERT_EQ(in.size(), 5u);
  EXPECT_EQ(in[0].name, "arg0_1");
  EXPECT_EQ(in[0].type, ValueType::of_tensor(DType::BFloat16, {16, 128}));
  EXPECT_EQ(in[0].line, 4);
  EXPECT_EQ(in[1].name, "arg1_1");
  EXPECT_EQ(in[1].type, ValueType::of_tensor(DType::Float32, {128}));  // no dtype: float32
  EXPECT_EQ(in[2].name, "arg2_1");
  EXPECT_EQ(in[2].type, ValueType::of_symint(SymInt(16)));
  EXPECT_EQ(in[3].type, ValueType::of_tensor(DType::Int8, {8, 8}));  // strides not kept
  EXPECT_EQ(in[4].type, ValueType::of_tensor(DType::Bool, {2, 2}));
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(in[i].position, i);
}

TEST(RunnableInputs, ReadsTheRandStridedForm) {
  constexpr std::string_view text = R"(
if __name__ == '__main__':
    arg0_1 = rand_strided((16, 128), (128, 1), device='cuda:0', dtype=torch.float16)
    arg1_1 = rand_strided((4, ), (1, ), torch.int64, 'cpu')
    arg2_1 = rand_strided((), (), device='cuda:0', dtype=torch.float64)
    ref = mod(arg0_1, arg1_1, arg2_1)
)";
  std::vector<RunnableInput> in = parse_runnable_inputs(text, "output_code.py");
  ASSERT_EQ(in.size(), 3u);
  EXPECT_EQ(in[0].name, "arg0_1");
  EXPECT_EQ(in[0].type, ValueType::of_tensor(DType::Float16, {16, 128}));
  EXPECT_EQ(in[1].type, ValueType::of_tensor(DType::Int64, {4}));
  EXPECT_EQ(in[2].type, ValueType::of_tensor(DType::Float64, {}));
}

TEST(RunnableInputs, MapsTorchDtypeNames) {
  const std::pair<std::string_view, DType> cases[] = {
      {"torch.float32", DType::Float32}, {"torch.float", DType::Float32},
      {"torch.half", DType::Float16},    {"torch.bfloat16", DType::BFloat16},
      {"torch.int32", DType::Int32},     {"torch.uint8", DType::UInt8},
      {"torch.int16", DType::Int16},     {"torch.long", DType::Int64},
  };
  for (const auto& [name, dtype] : cases) {
    const std::string text = fmt::format("    reader.tensor(buf0, (2,), dtype={})  # x\n", name);
    std::vector<RunnableInput> in = parse_runnable_inputs(text, "f.py");
    ASSERT_EQ(in.size(), 1u) << name;
    EXPECT_EQ(in[0].type, ValueType::of_tensor(dtype, {2})) << name;
  }
}

TEST(RunnableInputs, KeepsSymbolicDims) {
  std::vector<RunnableInput> in = parse_runnable_inputs(
      "reader.tensor(buf0, (s0, 128), dtype=torch.bfloat16)  # arg1_1\n"
      "reader.symint(s0)  # arg0_1\n",
      "f.py");
  ASSERT_EQ(in.size(), 2u);
  EXPECT_EQ(in[0].type, ValueType::of_tensor(DType::BFloat16, {SymInt::symbol("s0"), 128}));
  EXPECT_EQ(in[1].type, ValueType::of_symint(std::nullopt));
}

TEST(RunnableInputs, NothingWhenThereIsNoInputSection) {
  EXPECT_TRUE(parse_runnable_inputs("class Repro(torch.nn.Module):\n    pass\n", "f.py").empty());
  EXPECT_TRUE(parse_runnable_inputs("", "f.py").empty());
}

Error error_of(std::string_view text) {
  try {
    parse_runnable_inputs(text, "fx_graph_runnable.py");
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text;
  return Error("");
}

TEST(RunnableInputs, MalformedLinesAreErrorsAtFileAndLine) {
  Error dtype =
      error_of("def load_args(reader):\n    reader.tensor(buf0, (2, 3), dtype=torch.float7)\n");
  EXPECT_THAT(dtype.what(), HasSubstr("unknown dtype 'torch.float7'"));
  EXPECT_EQ(dtype.loc().file, "fx_graph_runnable.py");
  EXPECT_EQ(dtype.loc().line, 2);
  EXPECT_EQ(dtype.loc().column, 39);  // at the dtype value

  Error shape = error_of("\n\n    reader.tensor(buf0, 16, dtype=torch.float16)  # a\n");
  EXPECT_THAT(shape.what(), HasSubstr("expected a shape"));
  EXPECT_EQ(shape.loc().line, 3);

  Error unclosed = error_of("x = rand_strided((2, 3), (3, 1), dtype=torch.float16\n");
  EXPECT_THAT(unclosed.what(), HasSubstr("unclosed"));
  EXPECT_EQ(unclosed.loc().line, 1);

  Error missing = error_of("reader.tensor(buf0)  # a\n");
  EXPECT_THAT(missing.what(), HasSubstr("needs a storage and a shape"));
}

TEST(RunnableInputs, TypesOnlyUnannotatedPlaceholders) {
  Graph g = parse_fx(
      "def forward(self, arg0_1, arg1_1: \"f16[4]\", arg2_1):\n"
      "    add = torch.ops.aten.add.Tensor(arg0_1, arg1_1)\n"
      "    return (add, arg2_1)\n");
  std::vector<RunnableInput> in = parse_runnable_inputs(
      "reader.tensor(buf0, (4,), dtype=torch.float16)  # arg0_1\n"
      "reader.tensor(buf1, (8,), dtype=torch.float32)  # arg1_1\n"
      "reader.tensor(buf2, (2,), dtype=torch.int8)\n"  // no name: by position (arg2_1)
      "reader.tensor(buf3, (2,), dtype=torch.int8)  # not_an_input\n",
      "f.py");
  InputTypes t = runnable_input_types_for(g, in);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, "arg0_1");
  EXPECT_EQ(t[0].type, ValueType::of_tensor(DType::Float16, {4}));
  EXPECT_EQ(t[1].name, "arg2_1");
  EXPECT_EQ(t[1].type, ValueType::of_tensor(DType::Int8, {2}));
}

TEST(RunnableInputs, ReadsTheFixtureDumps) {
  const std::string dir = std::string(EQFUSE_TEST_DATA) +
                          "/debug-dirs/multi/torch_compile_debug/"
                          "run_2026_11_27_11_30_00_654321-pid_5151/torchinductor/";
  std::vector<RunnableInput> a = parse_runnable_inputs(
      read_file_or_stdin(dir + "model__0_inference_0.0/fx_graph_runnable.py"), "a");
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[2].type, ValueType::of_tensor(DType::Float16, {2, 3, 4}));
  std::vector<RunnableInput> b = parse_runnable_inputs(
      read_file_or_stdin(dir + "model__1_inference_1.1/fx_graph_runnable.py"), "b");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].name, "arg1_1");
  EXPECT_EQ(b[1].type, ValueType::of_tensor(DType::Float16, {64, 512, 128}));
}

}  // namespace
}  // namespace eqfuse
