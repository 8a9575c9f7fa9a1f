// OpSchema parsing, printing and FX target naming.
#include "graph/op_schema.hpp"

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

TEST(OpSchemaTest, ParsesNpuAddRmsNorm) {
  OpSchema s = OpSchema::parse(
      "npu::npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> "
      "(Tensor y, Tensor rstd, Tensor x)");
  EXPECT_EQ(s.ns, "npu");
  EXPECT_EQ(s.name, "npu_add_rms_norm");
  EXPECT_EQ(s.overload, "");
  ASSERT_EQ(s.args.size(), 4u);
  EXPECT_EQ(s.args[0].name, "x1");
  EXPECT_EQ(s.args[0].type, ArgType::Tensor);
  EXPECT_FALSE(s.args[0].default_value.has_value());
  EXPECT_EQ(s.args[3].type, ArgType::Float);
  ASSERT_TRUE(s.args[3].default_value.has_value());
  EXPECT_EQ(*s.args[3].default_value, Arg(1e-06));
  ASSERT_EQ(s.returns.size(), 3u);
  EXPECT_EQ(s.returns[1].name, "rstd");
  EXPECT_EQ(s.qualified_name(), "npu::npu_add_rms_norm");
  EXPECT_EQ(s.fx_target(), "torch.ops.npu.npu_add_rms_norm.default");
  EXPECT_EQ(s.arg_index("gamma"), 2);
  EXPECT_EQ(s.arg_index("nope"), -1);
  EXPECT_FALSE(s.mutates_any());
}

TEST(OpSchemaTest, KwargOnlyOptionalAndStringDefaults) {
  OpSchema s = OpSchema::parse(
      "npu::npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None, Tensor? "
      "group_index=None, int? dst_type=None, str quant_mode=\"pertoken\", float "
      "dst_type_max=0.0) -> (Tensor y, Tensor scale)");
  ASSERT_EQ(s.args.size(), 6u);
  EXPECT_FALSE(s.args[0].kwarg_only);
  for (size_t i = 1; i < s.args.size(); ++i) EXPECT_TRUE(s.args[i].kwarg_only) << i;
  EXPECT_TRUE(s.args[1].optional);
  EXPECT_TRUE(s.args[1].default_value->is_none());
  EXPECT_EQ(s.args[3].type, ArgType::Int);
  EXPECT_TRUE(s.args[3].optional);
  EXPECT_EQ(*s.args[4].default_value, Arg(std::string("pertoken")));
  EXPECT_EQ(*s.args[5].default_value, Arg(0.0));
}

TEST(OpSchemaTest, ListTypesAndLengths) {
  OpSchema s = OpSchema::parse(
      "x::f(int[] a, int[2] b=1, SymInt[1] c=[0,1,2], bool[2]? m=None, float[] d=[], "
      "Tensor[] ts, Tensor?[] opt, str[] keys) -> Tensor[]");
  EXPECT_EQ(s.args[0].type, ArgType::IntList);
  EXPECT_FALSE(s.args[0].list_length);
  EXPECT_EQ(s.args[1].list_length, 2);
  EXPECT_EQ(*s.args[1].default_value, Arg(int64_t{1}));
  EXPECT_EQ(s.args[2].type, ArgType::IntList);
  EXPECT_EQ(*s.args[2].default_value,
            Arg::list({Arg(int64_t{0}), Arg(int64_t{1}), Arg(int64_t{2})}));
  EXPECT_EQ(s.args[3].type, ArgType::BoolList);
  EXPECT_TRUE(s.args[3].optional);
  EXPECT_EQ(s.args[3].list_length, 2);
  EXPECT_EQ(s.args[4].type, ArgType::FloatList);
  EXPECT_EQ(*s.args[4].default_value, Arg::list({}));
  EXPECT_EQ(s.args[5].type, ArgType::TensorList);
  EXPECT_EQ(s.args[6].type, ArgType::TensorList);
  EXPECT_FALSE(s.args[6].optional);  // the elements are optional, not the list
  EXPECT_EQ(s.args[7].type, ArgType::Any);
  ASSERT_EQ(s.returns.size(), 1u);
  EXPECT_EQ(s.returns[0].type, ArgType::TensorList);
}

TEST(OpSchemaTest, AliasAnnotations) {
  OpSchema s = OpSchema::parse(
      "npu::npu_add_rms_norm_v2(Tensor(a!) x1, Tensor(b!) x2, Tensor gamma, float "
      "epsilon=1e-06) -> Tensor rstd");
  EXPECT_EQ(s.args[0].alias, "a!");
  EXPECT_TRUE(s.args[0].mutates());
  EXPECT_TRUE(s.args[1].mutates());
  EXPECT_FALSE(s.args[2].mutates());
  EXPECT_TRUE(s.mutates_any());
  EXPECT_EQ(s.returns[0].name, "rstd");

  OpSchema v = OpSchema::parse("aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)");
  EXPECT_EQ(v.args[0].alias, "a");
  EXPECT_FALSE(v.args[0].mutates());
  EXPECT_EQ(v.returns[0].alias, "a");

  OpSchema sp = OpSchema::parse(
      "aten::split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]");
  EXPECT_EQ(sp.args[0].alias, "a -> *");
  EXPECT_EQ(sp.returns[0].type, ArgType::TensorList);
}

TEST(OpSchemaTest, ScalarTypeAndIdentifierDefaults) {
  OpSchema s = OpSchema::parse(
      "aten::contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format, "
      "ScalarType dt=float32, bool flag=True, bool g=False, float p=2, int n=-3) -> Tensor(a)");
  EXPECT_EQ(*s.args[1].default_value, Arg(Literal{"torch.contiguous_format"}));
  EXPECT_EQ(*s.args[2].default_value, Arg(DType::Float32));
  EXPECT_EQ(*s.args[3].default_value, Arg(true));
  EXPECT_EQ(*s.args[4].default_value, Arg(false));
  EXPECT_EQ(*s.args[5].default_value, Arg(2.0));  // int literal for a float arg
  EXPECT_EQ(*s.args[6].default_value, Arg(int64_t{-3}));
}

TEST(OpSchemaTest, EmptyArgsAndEmptyReturns) {
  OpSchema s = OpSchema::parse("air::scope_exit() -> ()");
  EXPECT_TRUE(s.args.empty());
  EXPECT_TRUE(s.returns.empty());
  EXPECT_EQ(s.to_string(), "air::scope_exit() -> ()");
}

TEST(OpSchemaTest, ToStringRoundTrips) {
  const char* schemas[] = {
      "aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "npu::npu_add_rms_norm(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06) -> "
      "(Tensor y, Tensor rstd, Tensor x)",
      "npu::npu_transpose_batchmatmul(Tensor input, Tensor weight, *, Tensor? bias=None, "
      "Tensor? scale=None, int[]? perm_x1=None, int[]? perm_x2=None, int[]? perm_y=None, int? "
      "batch_split_factor=1) -> Tensor",
      "aten::amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
      "aten::gelu(Tensor self, *, str approximate='none') -> Tensor",
      "aten::var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool "
      "keepdim=False) -> (Tensor, Tensor)",
      "aten::copy_(Tensor(a!) self, Tensor src, bool non_blocking=False) -> Tensor(a!)",
  };
  for (const char* text : schemas) {
    OpSchema s = OpSchema::parse(text);
    EXPECT_EQ(s.to_string(), text);
    OpSchema again = OpSchema::parse(s.to_string());
    EXPECT_EQ(again.to_string(), s.to_string());
    EXPECT_EQ(again.args.size(), s.args.size());
  }
}

TEST(OpSchemaTest, ErrorsCarryTheColumn) {
  struct Case {
    const char* text;
    int column;
    const char* needle;
  };
  const Case cases[] = {
      {"npu_add(Tensor x) -> Tensor", 8, "'::'"},
      {"aten::f(Tensr x) -> Tensor", 9, "unknown type 'Tensr'"},
      {"aten::f(Tensor x -> Tensor", 18, "expected ','"},
      {"aten::f(Tensor x)", 18, "'->'"},
      {"aten::f(Tensor x, Tensor x) -> Tensor", 27, "duplicate argument 'x'"},
      {"aten::f(int x=[1,2) -> Tensor", 15, "unterminated list"},
      {"aten::f(str s=\"abc) -> Tensor", 15, "unterminated string"},
      {"aten::f(int x=) -> Tensor", 15, "missing default"},
      {"aten::f(int x=1x) -> Tensor", 15, "bad number"},
      {"aten::f(Tensor x) -> Tensor y junk", 31, "unexpected text"},
      {"aten::f(Tensor(a x) -> Tensor", 21, "expected an argument name"},
      {"aten::f(int[z] x) -> Tensor", 13, "bad list length"},
  };
  for (const Case& c : cases) {
    try {
      OpSchema::parse(c.text, SourceLoc{"cat.schemas", 7, 1});
      ADD_FAILURE() << "no error for " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.loc().file, "cat.schemas") << c.text;
      EXPECT_EQ(e.loc().line, 7) << c.text;
      EXPECT_EQ(e.loc().column, c.column) << c.text << ": " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
    }
  }
}

TEST(OpSchemaTest, FxTargetNames) {
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.aten.add.Tensor"), "aten::add.Tensor");
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.npu.npu_rms_norm.default"),
            "npu::npu_rms_norm");
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.aten.sym_size"), "aten::sym_size");
  EXPECT_EQ(qualified_name_from_fx_target("operator.getitem"), std::nullopt);
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.aten"), std::nullopt);
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.a.b.c.d"), std::nullopt);
  EXPECT_EQ(qualified_name_from_fx_target("torch.ops.aten..x"), std::nullopt);
  EXPECT_EQ(fx_target_from_qualified_name("aten::add.Tensor"), "torch.ops.aten.add.Tensor");
  EXPECT_EQ(fx_target_from_qualified_name("npu::npu_swiglu"), "torch.ops.npu.npu_swiglu.default");
  for (const char* q : {"aten::add.Tensor", "npu::npu_swiglu", "prims::convert_element_type"})
    EXPECT_EQ(qualified_name_from_fx_target(fx_target_from_qualified_name(q)), q);
}

}  // namespace
}  // namespace eqfuse
