// OpRegistry: catalog loading, registration, and call normalization (resolve_ops).
#include "graph/op_registry.hpp"

#include <gtest/gtest.h>

#include "graph/io/fx_parser.hpp"

namespace eqfuse {
namespace {

// Braced lists of mixed node refs and literals.
template <typename... T>
std::vector<Arg> L(T... v) {
  return {Arg(Arg::Value(v))...};
}

OpTraits kind_traits(OpKind k) {
  OpTraits t;
  t.kind = k;
  return t;
}

const OpRegistry& builtin() {
  static const OpRegistry reg = OpRegistry::with_builtin_ops();
  return reg;
}

struct GraphBuilder {
  Graph g;
  int line = 1;
  NodeRef input(const std::string& name) {
    Node n;
    n.kind = NodeKind::Placeholder;
    n.name = name;
    n.meta.loc = SourceLoc{"test.py", line++, 5};
    return g.add(std::move(n));
  }
  NodeRef call(const std::string& name, const std::string& target, std::vector<Arg> args,
               std::vector<std::pair<std::string, Arg>> kwargs = {}) {
    Node n;
    n.kind = NodeKind::Call;
    n.name = name;
    n.target = target;
    n.args = std::move(args);
    n.kwargs = std::move(kwargs);
    n.meta.loc = SourceLoc{"test.py", line++, 5};
    return g.add(std::move(n));
  }
};

TEST(OpRegistryTest, BuiltinCatalogHasEverySpecOp) {
  const char* spec_ops[] = {"npu::npu_add_rms_norm",
                            "npu::npu_rms_norm",
                            "npu::npu_dynamic_quant",
                            "npu::npu_quantize",
                            "npu::npu_add_rms_norm_dynamic_quant",
                            "npu::npu_add_rms_norm_cast",
                            "npu::npu_add_rms_norm_quant",
                            "npu::npu_transpose_batchmatmul",
                            "npu::npu_add_rms_norm_v2",
                            "npu::npu_add_rms_norm_v2_functional",
                            "npu::npu_kv_rmsnorm_rope_cache",
                            "npu::npu_kv_rmsnorm_rope_cache_v2",
                            "npu::npu_kv_rmsnorm_rope_cache_v2_functional",
                            "npu::npu_mla_prolog_v3",
                            "npu::npu_mla_prolog_v3_functional",
                            "npu::npu_swiglu",
                            "npu::npu_quant_matmul",
                            "npu::_npu_dtype_cast"};
  for (const char* q : spec_ops) EXPECT_TRUE(builtin().find(q)) << q;
  const char* aten_ops[] = {"aten::add.Tensor",
                            "aten::add_.Tensor",
                            "aten::sub.Scalar",
                            "aten::mul.Tensor",
                            "aten::div.Tensor",
                            "aten::neg",
                            "aten::pow.Tensor_Scalar",
                            "aten::pow.Tensor_Tensor",
                            "aten::rsqrt",
                            "aten::silu",
                            "aten::gelu",
                            "aten::mean.dim",
                            "aten::sum.dim_IntList",
                            "aten::amax",
                            "aten::view",
                            "aten::reshape",
                            "aten::_unsafe_view",
                            "aten::flatten.using_ints",
                            "aten::transpose.int",
                            "aten::permute",
                            "aten::expand",
                            "aten::unsqueeze",
                            "aten::squeeze.dim",
                            "aten::slice.Tensor",
                            "aten::select.int",
                            "aten::cat",
                            "aten::split.Tensor",
                            "aten::split_with_sizes",
                            "aten::t",
                            "aten::contiguous",
                            "aten::clone",
                            "aten::mm",
                            "aten::bmm",
                            "aten::matmul",
                            "aten::addmm",
                            "aten::linear",
                            "aten::_to_copy",
                            "aten::to.dtype",
                            "prims::convert_element_type",
                            "aten::sym_size.int",
                            "aten::copy_",
                            "aten::copy",
                            "aten::embedding",
                            "aten::_softmax",
                            "aten::softmax.int",
                            "aten::full",
                            "aten::zeros",
                            "aten::ones",
                            "aten::empty.memory_format",
                            "aten::alias",
                            "air::scope_enter",
                            "air::scope_exit"};
  for (const char* q : aten_ops) EXPECT_TRUE(builtin().find(q)) << q;
}

TEST(OpRegistryTest, TraitsAndInplaceLinksAreConsistent) {
  for (const OpInfo& info : builtin().all()) {
    EXPECT_EQ(builtin().find(info.schema.qualified_name()), info.id);
    if (!info.traits.inplace_variant.empty()) {
      auto twin = builtin().find(info.traits.inplace_variant);
      ASSERT_TRUE(twin) << info.schema.qualified_name() << " -> " << info.traits.inplace_variant;
      EXPECT_FALSE(builtin().info(*twin).traits.mutated_args.empty())
          << info.traits.inplace_variant;
    }
    if (info.traits.is_view) {
      EXPECT_EQ(info.schema.args.at(0).alias.substr(0, 1), "a") << info.schema.qualified_name();
    }
  }
  const OpInfo& add_ = builtin().info(*builtin().find("aten::add_.Tensor"));
  EXPECT_EQ(add_.traits.mutated_args, std::vector<int>{0});
  const OpInfo& v2 = builtin().info(*builtin().find("npu::npu_add_rms_norm_v2"));
  EXPECT_EQ(v2.traits.mutated_args, (std::vector<int>{0, 1}));
  EXPECT_EQ(builtin().info(*builtin().find("aten::view")).traits.kind, OpKind::Free);
  EXPECT_EQ(builtin().info(*builtin().find("npu::npu_add_rms_norm")).traits.kind, OpKind::Norm);
  EXPECT_EQ(builtin().info(*builtin().find("aten::mm")).traits.kind, OpKind::Matmul);
}

TEST(OpRegistryTest, OpKindNamesRoundTrip) {
  for (OpKind k : {OpKind::Free, OpKind::Elementwise, OpKind::Reduction, OpKind::Norm,
                   OpKind::Quant, OpKind::Matmul, OpKind::Cast, OpKind::Copy, OpKind::Creation,
                   OpKind::Collective, OpKind::Other})
    EXPECT_EQ(parse_op_kind(op_kind_name(k)), k);
  EXPECT_EQ(parse_op_kind("bogus"), std::nullopt);
}

TEST(OpRegistryTest, RegisterFromCxxAndCatalog) {
  OpRegistry reg;
  OpId id = reg.register_op("mylib::my_norm(Tensor x, float eps=1e-05) -> Tensor",
                            kind_traits(OpKind::Norm));
  EXPECT_EQ(reg.find("mylib::my_norm"), id);
  EXPECT_THROW(reg.register_op("mylib::my_norm(Tensor x) -> Tensor"), Error);
  EXPECT_EQ(reg.register_op("mylib::my_norm(Tensor x) -> Tensor", {}, {}, /*replace=*/true), id);
  EXPECT_EQ(reg.info(id).schema.args.size(), 1u);

  reg.load_catalog(
      "# my ops\n"
      "mylib::scale(Tensor x, *, float s=2.0) -> Tensor | kind=elementwise inplace=mylib::scale_\n"
      "mylib::scale_(Tensor(a!) x, *, float s=2.0)\n"
      "    -> Tensor(a!) | kind=elementwise   # continuation line\n"
      "mylib::alias(Tensor(a) x) -> Tensor(a) | kind=free view\n"
      "mylib::f(Tensor a, Tensor b) -> Tensor | kind=other mutates=1\n",
      "my.schemas");
  auto scale_ = reg.find("mylib::scale_");
  ASSERT_TRUE(scale_);
  EXPECT_EQ(reg.info(*scale_).traits.mutated_args, std::vector<int>{0});
  EXPECT_EQ(reg.info(*reg.find("mylib::scale")).traits.inplace_variant, "mylib::scale_");
  EXPECT_TRUE(reg.info(*reg.find("mylib::alias")).traits.is_view);
  EXPECT_EQ(reg.info(*reg.find("mylib::f")).traits.mutated_args, std::vector<int>{1});
}

struct CatalogErrorCase {
  const char* text;
  int line;
  int column;
  const char* needle;
};

TEST(OpRegistryTest, CatalogErrorsPointIntoTheFile) {
  const CatalogErrorCase cases[] = {
      {"a::f(Tensor x) -> Tensor\n", 1, 25, "traits"},
      {"# c\na::f(Tensor x) -> Tensor | kind=nope\n", 2, 28, "unknown op kind 'nope'"},
      {"a::f(Tensor x) -> Tensor | kind=other colour=red\n", 1, 39, "unknown trait"},
      {"a::f(Tensor x) -> Tensor | view\n", 1, 26, "no kind="},
      {"a::f(Tensor x) -> Tensor | kind=other mutates=x\n", 1, 39, "bad argument index"},
      {"a::f(Tensor x) -> Tensor | kind=other mutates=3\n", 1, 1, "out of range"},
      {"\n\n  # x\na::f(Tensor x,\n    Tensr y) -> Tensor | kind=other\n", 5, 5, "unknown type"},
      {"a::f(Tensor x) -> Tensor | kind=other\na::f(Tensor y) -> Tensor | kind=other\n", 2, 1,
       "already registered"},
  };
  for (const auto& c : cases) {
    OpRegistry reg;
    try {
      reg.load_catalog(c.text, "bad.schemas");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.loc().file, "bad.schemas");
      EXPECT_EQ(e.loc().line, c.line) << c.text << " -> " << e.what();
      EXPECT_EQ(e.loc().column, c.column) << c.text << " -> " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
      EXPECT_FALSE(e.source_line().empty());
    }
  }
}

// Custom ops declare their shape rule in the catalog: like an existing op
// (arguments by name), and/or an output typed as one of the arguments.
TEST(OpRegistryTest, DeclaredShapeRulesTypeCustomOps) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  reg.load_catalog(
      "mylib::add_relu(Tensor self, Tensor other) -> Tensor | kind=elementwise "
      "meta=like:aten::add.Tensor\n"
      "mylib::norm4(Tensor x1, Tensor x2, Tensor gamma, float epsilon=1e-06)\n"
      "    -> (Tensor, Tensor, Tensor, Tensor) | kind=norm meta=like:npu::npu_add_rms_norm "
      "out3=x1\n"
      "mylib::same(Tensor x, int k) -> Tensor | kind=other out0=x\n"
      "mylib::gmm(Tensor input, Tensor weight) -> Tensor | kind=matmul "
      "meta=like:aten::mm(self=input,mat2=weight)\n",
      "my.schemas");
  Graph g = parse_fx(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, a: "f16[s0, 1]", b: "f16[1, 8]", g: "f16[8]", c: "f16[s0, 8]", g2: "f16[8, 3]"):
        r = torch.ops.mylib.add_relu.default(a, b)
        n = torch.ops.mylib.norm4.default(c, c, g)
        s = torch.ops.mylib.same.default(b, 3)
        m = torch.ops.mylib.gmm.default(c, g2)
        return (r, n, s, m)
)FX",
                     "<test>");
  resolve_ops(g, reg);
  infer_types(g, reg);
  auto type_of = [&](const char* name) {
    for (const Node& n : g.nodes())
      if (n.name == name) return describe(n.type);
    return std::string("missing");
  };
  EXPECT_EQ(type_of("r"), "f16[s0, 8]");  // add's broadcasting
  EXPECT_EQ(type_of("n"), "tuple(f16[s0, 8], f32[s0, 1], f16[s0, 8], f16[s0, 8])");
  EXPECT_EQ(type_of("s"), "f16[1, 8]");
  EXPECT_EQ(type_of("m"), "f16[s0, 3]");  // mm's rule, arguments renamed
}

TEST(OpRegistryTest, DeclaredShapeRuleErrorsPointAtTheTraits) {
  const CatalogErrorCase cases[] = {
      {"a::f(Tensor x) -> Tensor | kind=other meta=like:a::none\n", 1, 27, "no such op"},
      {"a::f(Tensor x) -> Tensor | kind=other out1=x\n", 1, 27, "returns 1 value"},
      {"a::f(Tensor x) -> Tensor | kind=other out0=y\n", 1, 27, "no argument 'y'"},
      {"a::f(Tensor x) -> Tensor | kind=other outx=y\n", 1, 39, "expected out<N>=<argument>"},
      {"a::f(Tensor q) -> Tensor | kind=other meta=like:aten::add.Tensor\n", 1, 27,
       "argument 'self' has no default"},
      {"a::f(Tensor q) -> Tensor | kind=other meta=like:aten::mm(self=q,mat3=q)\n", 1, 27,
       "it has no argument 'mat3'"},
  };
  for (const auto& c : cases) {
    OpRegistry reg = OpRegistry::with_builtin_ops();
    try {
      reg.load_catalog(c.text, "bad.schemas");
      ADD_FAILURE() << "no error for: " << c.text;
    } catch (const Error& e) {
      EXPECT_EQ(e.loc().line, c.line) << c.text << " -> " << e.what();
      EXPECT_EQ(e.loc().column, c.column) << c.text << " -> " << e.what();
      EXPECT_NE(std::string(e.what()).find(c.needle), std::string::npos) << e.what();
    }
  }
}

TEST(OpRegistryTest, SetMetaRequiresARegisteredOp) {
  OpRegistry reg;
  EXPECT_THROW(reg.set_meta("a::nope", [](const CallContext&) { return ValueType{}; }), Error);
}

TEST(ResolveOpsTest, PositionalKeywordAndDefaultsNormalizeAlike) {
  GraphBuilder b;
  NodeRef x1 = b.input("x1"), x2 = b.input("x2"), g = b.input("g");
  NodeRef r1 = b.call("r1", "npu::npu_add_rms_norm", L(x1, x2, g));
  NodeRef r2 = b.call("r2", "npu::npu_add_rms_norm", L(x1, x2, g, 1e-06));
  NodeRef r3 = b.call("r3", "npu::npu_add_rms_norm", L(x1), {{"gamma", Arg(g)}, {"x2", Arg(x2)}});
  NodeRef r4 = b.call("r4", "npu::npu_add_rms_norm", L(x1, x2, g), {{"epsilon", Arg(2e-6)}});
  auto unknown = resolve_ops(b.g, builtin());
  EXPECT_TRUE(unknown.empty());
  const Node& n1 = b.g.node(r1);
  EXPECT_EQ(n1.op, *builtin().find("npu::npu_add_rms_norm"));
  ASSERT_EQ(n1.args.size(), 4u);
  EXPECT_EQ(n1.args[3], Arg(1e-06));
  EXPECT_TRUE(n1.kwargs.empty());
  EXPECT_EQ(b.g.node(r2).args, n1.args);
  EXPECT_EQ(b.g.node(r3).args, n1.args);
  EXPECT_TRUE(b.g.node(r3).kwargs.empty());
  EXPECT_EQ(b.g.node(r4).args[3], Arg(2e-6));
}

TEST(ResolveOpsTest, KwargOnlyDefaultsAndCoercions) {
  GraphBuilder b;
  NodeRef x = b.input("x"), s = b.input("s");
  NodeRef q = b.call("q", "npu::npu_dynamic_quant", L(x), {{"smooth_scales", Arg(s)}});
  NodeRef a = b.call("a", "aten::add.Tensor", L(x, x));
  NodeRef m = b.call("m", "aten::sum.dim_IntList", L(x, int64_t{1}));
  NodeRef e = b.call("e", "npu::npu_rms_norm", L(x, s, int64_t{1}));
  resolve_ops(b.g, builtin());
  const Node& nq = b.g.node(q);
  ASSERT_EQ(nq.args.size(), 6u);
  EXPECT_EQ(nq.args[1], Arg(s));
  EXPECT_TRUE(nq.args[2].is_none());
  EXPECT_EQ(nq.args[4], Arg(std::string("pertoken")));
  EXPECT_EQ(nq.args[5], Arg(0.0));
  EXPECT_EQ(b.g.node(a).args.at(2), Arg(int64_t{1}));  // alpha=1
  // int[1] accepts a bare int; normalized to a one-element list.
  EXPECT_EQ(b.g.node(m).args.at(1), Arg::list({Arg(int64_t{1})}));
  EXPECT_EQ(b.g.node(m).args.at(2), Arg(false));
  // An int passed to a float argument is a float.
  EXPECT_EQ(b.g.node(e).args.at(2), Arg(1.0));
}

TEST(ResolveOpsTest, UnknownOpsStayOpaqueAndAreListedOnce) {
  GraphBuilder b;
  NodeRef x = b.input("x");
  NodeRef u1 = b.call("u1", "mylib::foo", L(x), {{"k", Arg(int64_t{3})}});
  b.call("u2", "operator.add", L(x, x));
  b.call("u3", "mylib::foo", L(x));
  b.call("u4", "aten::nonexistent.default_thing", L(x));
  auto unknown = resolve_ops(b.g, builtin());
  EXPECT_EQ(unknown, (std::vector<std::string>{"aten::nonexistent.default_thing", "mylib::foo",
                                               "operator.add"}));
  EXPECT_EQ(b.g.node(u1).op, kNoOp);
  EXPECT_EQ(b.g.node(u1).kwargs.size(), 1u);  // untouched
}

TEST(ResolveOpsTest, OverloadPacketsResolveWhenUnambiguous) {
  GraphBuilder b;
  NodeRef x = b.input("x");
  NodeRef s = b.call("s", "aten::sym_size", L(x, int64_t{0}));
  NodeRef at = b.call("at", "aten::add", L(x, x));
  NodeRef as = b.call("as", "aten::add", L(x, 2.0));
  resolve_ops(b.g, builtin());
  EXPECT_EQ(b.g.node(s).target, "aten::sym_size.int");
  EXPECT_EQ(b.g.node(s).op, *builtin().find("aten::sym_size.int"));
  EXPECT_EQ(b.g.node(at).target, "aten::add.Tensor");
  EXPECT_EQ(b.g.node(as).target, "aten::add.Scalar");
}

TEST(ResolveOpsTest, AmbiguousPacketIsAnError) {
  OpRegistry reg;
  reg.register_op("a::f.one(Tensor x, int k=0) -> Tensor");
  reg.register_op("a::f.two(Tensor x, float k=0.5) -> Tensor");
  GraphBuilder b;
  NodeRef x = b.input("x");
  b.call("y", "a::f", L(x));
  try {
    resolve_ops(b.g, reg);
    FAIL() << "expected an ambiguity error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ambiguous"), std::string::npos) << e.what();
    EXPECT_EQ(e.loc().line, 2);
  }
}

struct ArityCase {
  std::vector<Arg> args;
  std::vector<std::pair<std::string, Arg>> kwargs;
  const char* target;
  const char* needle;
};

TEST(ResolveOpsTest, BadCallsNameTheNodeOpAndArgument) {
  NodeRef x{0};
  const ArityCase cases[] = {
      {L(x, x, x, 1e-6, int64_t{7}), {}, "npu::npu_add_rms_norm", "too many positional arguments"},
      {L(x, x), {}, "npu::npu_add_rms_norm", "missing required argument 'gamma'"},
      {L(x, x, x), {{"eps", Arg(1e-6)}}, "npu::npu_add_rms_norm", "unknown keyword argument 'eps'"},
      {L(x, x, x), {{"x1", Arg(x)}}, "npu::npu_add_rms_norm", "argument 'x1' given more than once"},
      // smooth_scales is keyword-only.
      {L(x, x), {}, "npu::npu_dynamic_quant", "too many positional arguments (2 given, at most 1)"},
      // zero_points is optional but has no default: still required.
      {L(x, x), {}, "npu::npu_quantize", "missing required argument 'zero_points'"},
  };
  for (const auto& c : cases) {
    GraphBuilder b;
    b.input("x");
    b.call("bad_call", c.target, c.args, c.kwargs);
    try {
      resolve_ops(b.g, builtin());
      ADD_FAILURE() << "no error for " << c.needle;
    } catch (const Error& e) {
      std::string msg = e.what();
      EXPECT_NE(msg.find(c.needle), std::string::npos) << msg;
      EXPECT_NE(msg.find("bad_call"), std::string::npos) << msg;
      EXPECT_NE(msg.find(c.target), std::string::npos) << msg;
      EXPECT_EQ(e.loc().file, "test.py");
      EXPECT_EQ(e.loc().line, 2);
    }
  }
}

}  // namespace
}  // namespace eqfuse
