// ctest-label: numeric
// equivalent(): catches altered graphs, accepts rewritten-but-equal ones,
// compares mutated inputs; random_inputs() respects types and ranges.
#include "interp/equivalence.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "interp/float16.hpp"
#include "interp/random_inputs.hpp"
#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::graph_from;
using testing::registry;

const char* kHeader = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[s0, 4]", y: "f32[4]"):
)FX";

Graph body(const std::string& lines) {
  return graph_from(std::string(kHeader) + lines);
}

TEST(Equivalence, CatchesAddReplacedBySub) {
  Graph a = body(R"FX(        add: "f32[s0, 4]" = torch.ops.aten.add.Tensor(x, y)
        return (add,)
)FX");
  Graph b = body(R"FX(        sub: "f32[s0, 4]" = torch.ops.aten.sub.Tensor(x, y)
        return (sub,)
)FX");
  EquivalenceResult r = equivalent(a, b, registry());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.first_mismatch.find("output 0 (add vs sub)"), std::string::npos) << r.first_mismatch;
  EXPECT_NE(r.first_mismatch.find("f32["), std::string::npos) << r.first_mismatch;
  EXPECT_NE(r.first_mismatch.find("max abs err"), std::string::npos) << r.first_mismatch;
  EXPECT_TRUE(equivalent(a, a, registry()).ok);
}

// A mismatch at the output is traced back to where it starts: the first
// node of the first graph whose same-named node in the second differs.
TEST(Equivalence, NamesTheFirstNodeWhereTheGraphsDiverge) {
  const char* tail = R"FX(        scaled: "f32[s0, 4]" = torch.ops.aten.mul.Tensor(h, y)
        out: "f32[s0, 4]" = torch.ops.aten.neg.default(scaled)
        return (out,)
)FX";
  Graph a = body(std::string(R"FX(        h: "f32[s0, 4]" = torch.ops.aten.add.Tensor(x, y)
)FX") + tail);
  Graph b = body(std::string(R"FX(        h: "f32[s0, 4]" = torch.ops.aten.sub.Tensor(x, y)
)FX") + tail);
  EquivalenceResult r = equivalent(a, b, registry());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.first_mismatch.find("output 0 (out vs out)"), std::string::npos);
  EXPECT_EQ(r.first_differing_node.rfind("node 'h' (aten::add.Tensor)", 0), 0u)
      << r.first_differing_node;
  // No shared name before the output differs: nothing more to say.
  EquivalenceResult same_names = equivalent(a, a, registry());
  EXPECT_TRUE(same_names.first_differing_node.empty());
}

TEST(Equivalence, AcceptsARewriteWithTheSameValues) {
  Graph a = body(R"FX(        add: "f32[s0, 4]" = torch.ops.aten.add.Tensor(x, x)
        mul_1: "f32[s0, 4]" = torch.ops.aten.mul.Tensor(add, y)
        return (mul_1,)
)FX");
  Graph b = body(R"FX(        mul: "f32[s0, 4]" = torch.ops.aten.mul.Tensor(x, 2)
        mul_1: "f32[s0, 4]" = torch.ops.aten.mul.Tensor(mul, y)
        return (mul_1,)
)FX");
  EquivalenceOptions o;
  o.trials = 4;
  EquivalenceResult r = equivalent(a, b, registry(), o);
  EXPECT_TRUE(r.ok) << r.first_mismatch;
  EXPECT_EQ(r.trials_run, 4);
}

TEST(Equivalence, ComparesFinalValuesOfMutatedInputs) {
  Graph a = body(R"FX(        add_: "f32[s0, 4]" = torch.ops.aten.add_.Tensor(x, y)
        return (y,)
)FX");
  Graph b = body(R"FX(        mul_: "f32[s0, 4]" = torch.ops.aten.mul_.Tensor(x, y)
        return (y,)
)FX");
  Graph c = body(R"FX(        return (y,)
)FX");
  EquivalenceResult r = equivalent(a, b, registry());
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.first_mismatch.find("mutated input 0 (x)"), std::string::npos) << r.first_mismatch;
  // Mutating versus not mutating the input is also a difference.
  EXPECT_FALSE(equivalent(a, c, registry()).ok);
}

TEST(Equivalence, InputsMustMatch) {
  Graph a = body(R"FX(        return (x,)
)FX");
  Graph b = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f16[s0, 4]", y: "f32[4]"):
        return (x,)
)FX");
  EXPECT_THROW(equivalent(a, b, registry()), Error);
}

// Rule (a) of the spec: npu_add_rms_norm + npu_dynamic_quant(smooth) fused
// into npu_add_rms_norm_dynamic_quant. The fused op skips the bf16 rounding
// of y, so int8 values may differ by one and scales by a bf16 ulp.
const char* kUnfused = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[s0, 64]", x2: "bf16[s0, 64]", gamma: "bf16[64]", smooth: "bf16[64]"):
        r = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
        y: "bf16[s0, 64]" = r[0]
        x_out: "bf16[s0, 64]" = r[2]
        q = torch.ops.npu.npu_dynamic_quant.default(y, smooth_scales = smooth)
        yq: "i8[s0, 64]" = q[0]
        scale: "f32[s0]" = q[1]
        return (yq, x_out, scale)
)FX";

std::string fused(const std::string& extra) {
  return R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x1: "bf16[s0, 64]", x2: "bf16[s0, 64]", gamma: "bf16[64]", smooth: "bf16[64]"):
        f = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(x1, x2, gamma, smooth_scale1 = smooth, output_mask = [True, False])FX" +
         extra + R"FX()
        yq: "i8[s0, 64]" = f[0]
        x_out: "bf16[s0, 64]" = f[2]
        scale: "f32[s0]" = f[3]
        return (yq, x_out, scale)
)FX";
}

TEST(Equivalence, FusedAddRmsNormDynamicQuantMatchesUpToRounding) {
  Graph unfused = graph_from(kUnfused);
  Graph fused_graph = graph_from(fused(""));
  EquivalenceOptions o;
  o.trials = 5;
  o.seed = 11;
  o.mode = ToleranceMode::Rounding;
  EquivalenceResult r = equivalent(unfused, fused_graph, registry(), o);
  EXPECT_TRUE(r.ok) << r.first_mismatch;
  // A wrong epsilon changes the values beyond rounding and is caught.
  Graph wrong = graph_from(fused(", epsilon = 1.0"));
  EquivalenceResult w = equivalent(unfused, wrong, registry(), o);
  EXPECT_FALSE(w.ok);
  EXPECT_NE(w.first_mismatch.find("output"), std::string::npos) << w.first_mismatch;
}

// The default (reference) mode: the fused kernel rounds like the chain it
// replaces, so the outputs must agree exactly; what the real fused numerics
// change is measured and reported, not judged.
TEST(Equivalence, ReferenceModeIsExactAndReportsTheRealNumerics) {
  EXPECT_EQ(EquivalenceOptions{}.mode, ToleranceMode::Reference);
  Graph unfused = graph_from(kUnfused);
  EquivalenceOptions o;
  o.trials = 3;
  o.seed = 11;
  EquivalenceResult r = equivalent(unfused, graph_from(fused("")), registry(), o);
  ASSERT_TRUE(r.ok) << r.first_mismatch;
  ASSERT_FALSE(r.deviations.empty());  // bf16 y kept in fp32 moves some int8 values
  for (const OutputDeviation& d : r.deviations) {
    EXPECT_GT(d.max_abs, 0) << d.label;
    EXPECT_LT(d.max_abs, 2) << d.label;  // int8 by one step, scales and x_out by less
  }
  // The same graph against itself: no deviation at all.
  EquivalenceResult same = equivalent(unfused, unfused, registry(), o);
  EXPECT_TRUE(same.ok);
  EXPECT_TRUE(same.deviations.empty());
  // A wrong epsilon is a wrong rewrite under reference numerics.
  EquivalenceResult w = equivalent(unfused, graph_from(fused(", epsilon = 1.0")), registry(), o);
  EXPECT_FALSE(w.ok);
  EXPECT_NE(w.first_mismatch.find("exact, reference numerics"), std::string::npos)
      << w.first_mismatch;
}

// Index inputs address what they index: embedding ids stay below the
// weight's row count, whatever the id dtype's default range is.
// world_size > 1: both graphs run as a simulated tensor-parallel group.
TEST(Equivalence, TensorParallelGraphsAreComparedOnEveryRank) {
  Graph all_reduce = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[8, 16]"):
        a: "bf16[8, 16]" = torch.ops._c10d_functional.all_reduce.default(x, 'sum', '0')
        w: "bf16[8, 16]" = torch.ops._c10d_functional.wait_tensor.default(a)
        return (w,)
)FX");
  Graph sequence_parallel = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[8, 16]"):
        s: "bf16[2, 16]" = torch.ops._c10d_functional.reduce_scatter_tensor.default(x, 'sum', 4, '0')
        g: "bf16[8, 16]" = torch.ops._c10d_functional.all_gather_into_tensor.default(s, 4, '0')
        return (g,)
)FX");
  Graph times_four = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "bf16[8, 16]"):
        m: "bf16[8, 16]" = torch.ops.aten.mul.Tensor(x, 4)
        return (m,)
)FX");
  EquivalenceOptions tp;
  tp.world_size = 4;
  EXPECT_TRUE(equivalent(all_reduce, sequence_parallel, registry(), tp).ok);
  // The sum of four ranks' values is 4x only when every rank holds the same x.
  EquivalenceResult differs = equivalent(all_reduce, times_four, registry(), tp);
  EXPECT_FALSE(differs.ok);
  EXPECT_NE(differs.first_mismatch.find("rank 0: output 0"), std::string::npos)
      << differs.first_mismatch;
  tp.replicated_inputs = {"x"};
  EXPECT_TRUE(equivalent(all_reduce, times_four, registry(), tp).ok);
  tp.replicated_inputs = {"y"};
  EXPECT_THROW(equivalent(all_reduce, times_four, registry(), tp), Error);
}

TEST(RandomInputs, IndicesStayWithinTheIndexedDim) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, weight: "f32[2, 8]", ids: "i64[40, 3]"):
        e: "f32[40, 3, 8]" = torch.ops.aten.embedding.default(weight, ids);  weight = ids = None
        return (e,)
)FX");
  RandomInputOptions o;
  o.registry = &registry();
  RandomInputs in = random_inputs(g, 5, o);
  const Tensor& ids = in.values[1].tensor();
  int64_t hi = 0;
  for (int64_t i = 0; i < ids.numel(); ++i) {
    EXPECT_GE(ids.get_flat_int(i), 0);
    hi = std::max(hi, ids.get_flat_int(i));
  }
  EXPECT_EQ(hi, 1);  // 120 draws from {0, 1}
  EXPECT_TRUE(equivalent(g, g, registry()).ok);
}

// one_hot's class indices stay below num_classes (the only bound it knows).
TEST(RandomInputs, OneHotClassesStayBelowNumClasses) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, labels: "i64[64]"):
        h: "i64[64, 3]" = torch.ops.aten.one_hot.default(labels, 3)
        return (h,)
)FX");
  RandomInputOptions o;
  o.registry = &registry();
  const RandomInputs in = random_inputs(g, 11, o);
  const Tensor& labels = in.values[0].tensor();
  int64_t hi = 0;
  for (int64_t i = 0; i < labels.numel(); ++i) hi = std::max(hi, labels.get_flat_int(i));
  EXPECT_EQ(hi, 2);
  EXPECT_TRUE(equivalent(g, g, registry()).ok);
}

// The same for issue 16's index users: each entry of index.Tensor's and
// index_put's index list stays below the size of the dim it indexes (a
// bool mask covering its dims), and gather/scatter/index_add indices below
// the size of `dim`, so random checks never index out of range.
TEST(RandomInputs, IndicesOfIndexingAndScatterOpsStayInRange) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3, 5]", m: "b8[2, 3]", i: "i64[40]", j: "i64[40, 1]", k: "i64[40]", v: "f32[40, 3]", g: "i64[2, 3, 40]", s: "i64[2, 3, 40]", a: "i64[40]", src: "f32[2, 3, 40]", asrc: "f32[2, 40, 5]"):
        picked: "f32[40, 3]" = torch.ops.aten.index.Tensor(x, [i, None, k])
        masked = torch.ops.aten.index.Tensor(x, [m, j])
        put: "f32[2, 3, 5]" = torch.ops.aten.index_put.default(x, [i, None, k], v, True)
        gathered: "f32[2, 3, 40]" = torch.ops.aten.gather.default(x, -1, g)
        scattered: "f32[2, 3, 40]" = torch.ops.aten.scatter_add.default(src, 2, s, src)
        added: "f32[2, 3, 5]" = torch.ops.aten.index_add.default(x, 1, a, asrc)
        return (picked, masked, put, gathered, scattered, added)
)FX");
  RandomInputOptions o;
  o.registry = &registry();
  RandomInputs in = random_inputs(g, 7, o);
  auto max_of = [&](size_t input) {
    const Tensor& t = in.values[input].tensor();
    int64_t hi = 0;
    for (int64_t e = 0; e < t.numel(); ++e) {
      EXPECT_GE(t.get_flat_int(e), 0);
      hi = std::max(hi, t.get_flat_int(e));
    }
    return hi;
  };
  EXPECT_EQ(max_of(2), 1);   // i: dim 0 of x (size 2)
  EXPECT_EQ(max_of(3), 4);   // j: after the 2-D mask over dims 0-1, dim 2 (size 5)
  EXPECT_EQ(max_of(4), 4);   // k: dim 2 (size 5)
  EXPECT_EQ(max_of(6), 4);   // gather along dim -1 (size 5)
  EXPECT_LE(max_of(7), 39);  // scatter into src along dim 2 (size 40)
  EXPECT_EQ(max_of(8), 2);   // index_add along dim 1 (size 3)
  EXPECT_TRUE(equivalent(g, g, registry()).ok);
}

// An index's bound reaches the input its values come from through views, copies and
// gathers: BERT under torch.compile expands its token-type buffer, gathers it by
// position and expands it again before it indexes a 2-row table.
TEST(RandomInputs, IndexBoundsReachInputsThroughValueForwardingOps) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, positions: "i64[1, 64]", token_types: "i64[1, 64]", table: "f32[2, 4]", rows: "f32[64, 4]", extra: "i64[8]"):
        pos: "i64[1, 8]" = torch.ops.aten.slice.Tensor(positions, 1, 0, 8)
        ex: "i64[1, 64]" = torch.ops.aten.expand.default(token_types, [1, -1])
        gathered: "i64[1, 8]" = torch.ops.aten.gather.default(ex, 1, pos)
        ids: "i64[2, 8]" = torch.ops.aten.expand.default(gathered, [2, 8])
        flat: "i64[16]" = torch.ops.aten.reshape.default(ids, [16])
        both: "i64[24]" = torch.ops.aten.cat.default([flat, extra])
        picked: "f32[24, 4]" = torch.ops.aten.index_select.default(table, 0, both)
        typed: "f32[2, 8, 4]" = torch.ops.aten.embedding.default(table, ids)
        placed: "f32[1, 8, 4]" = torch.ops.aten.embedding.default(rows, pos)
        return (typed, placed, picked)
)FX");
  RandomInputOptions o;
  o.registry = &registry();
  const RandomInputs in = random_inputs(g, 5, o);
  auto max_of = [&](size_t input) {
    const Tensor& t = in.values[input].tensor();
    int64_t hi = 0;
    for (int64_t e = 0; e < t.numel(); ++e) hi = std::max(hi, t.get_flat_int(e));
    return hi;
  };
  EXPECT_LE(max_of(0), 63);  // positions: gathered along 64 and index 64 rows
  EXPECT_EQ(max_of(1), 1);   // token types: index the 2-row table through gather + expands
  EXPECT_EQ(max_of(4), 1);   // extra: concatenated into an index of the same table
  EXPECT_TRUE(equivalent(g, g, registry()).ok);
}

// make_fx keeps module buffers as get_attr constants: BERT's int64
// token_type_ids buffer is sliced and expanded, then indexes the 2-row
// token-type table. Its values stay in [0, 2) like an index placeholder's
// (they used to be uninterpreted, in [0, 3]: "embedding index 3 out of range
// for 2 rows"), the same for both graphs, and float constants stay
// uninterpreted.
TEST(RandomInputs, IndexConstantsStayWithinTheIndexedDim) {
  const char* header = R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[1, 8, 16]"):
        _tensor_constant0: "i64[1, 8]" = self._tensor_constant0
        _param_constant0: "f32[2, 16]" = self._param_constant0
)FX";
  Graph a = graph_from(
      std::string(header) +
      R"FX(        sliced: "i64[1, 8]" = torch.ops.aten.slice.Tensor(_tensor_constant0, 1, 0, 8)
        token_types: "i64[1, 8]" = torch.ops.aten.expand.default(sliced, [1, 8])
        e: "f32[1, 8, 16]" = torch.ops.aten.embedding.default(_param_constant0, token_types)
        out: "f32[1, 8, 16]" = torch.ops.aten.add.Tensor(x, e)
        return (out,)
)FX");
  // The slice and expand are identities here: the rewrite indexes the buffer itself.
  Graph b = graph_from(
      std::string(header) +
      R"FX(        e: "f32[1, 8, 16]" = torch.ops.aten.embedding.default(_param_constant0, _tensor_constant0)
        out: "f32[1, 8, 16]" = torch.ops.aten.add.Tensor(e, x)
        return (out,)
)FX");
  RandomInputOptions o;
  o.registry = &registry();
  for (uint64_t seed : {1, 5, 9}) {
    const RandomInputs in = random_inputs(a, seed, o);
    ASSERT_EQ(in.attrs.size(), 1u);
    const Tensor& ids = in.attrs.at("_tensor_constant0").tensor();
    EXPECT_EQ(ids.dtype(), DType::Int64);
    EXPECT_EQ(ids.shape(), (Dims{1, 8}));
    for (int64_t v : ids.int_values()) {
      EXPECT_GE(v, 0);
      EXPECT_LE(v, 1);
    }
    EXPECT_EQ(random_inputs(a, seed, o).attrs.at("_tensor_constant0").tensor().int_values(),
              ids.int_values());
  }
  EquivalenceOptions eo;
  eo.trials = 8;
  EquivalenceResult same = equivalent(a, a, registry(), eo);
  EXPECT_TRUE(same.ok) << same.first_mismatch;
  EquivalenceResult rewritten = equivalent(a, b, registry(), eo);
  EXPECT_TRUE(rewritten.ok) << rewritten.first_mismatch;
  // Given inputs name placeholders only; the index constant is still bounded.
  RandomInputs given = random_inputs(a, 3, o);
  given.attrs.clear();
  eo.given_inputs = &given;
  EquivalenceResult with_given = equivalent(a, b, registry(), eo);
  EXPECT_TRUE(with_given.ok) << with_given.first_mismatch;
  // A real difference is still caught.
  Graph c = graph_from(
      std::string(header) +
      R"FX(        e: "f32[1, 8, 16]" = torch.ops.aten.embedding.default(_param_constant0, _tensor_constant0)
        out: "f32[1, 8, 16]" = torch.ops.aten.sub.Tensor(x, e)
        return (out,)
)FX");
  eo.given_inputs = nullptr;
  EXPECT_FALSE(equivalent(a, c, registry(), eo).ok);
}

TEST(RandomInputs, RespectTypesSymbolsAndRanges) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, n: "Sym(s0)", x: "bf16[s0, 8]", q: "i8[s0, 8]", scales: "f32[8]", b: "b8[3]"):
        quant: "i8[s0, 8]" = torch.ops.npu.npu_quantize.default(x, scales, None, 1, -1)
        return (quant, q, b)
)FX");
  RandomInputOptions opt;
  opt.registry = &registry();
  RandomInputs in = random_inputs(g, 42, opt);
  ASSERT_EQ(in.values.size(), 5u);
  int64_t s0 = in.bindings.at("s0");
  EXPECT_GE(s0, opt.min_symbol_size);
  EXPECT_LE(s0, opt.max_symbol_size);
  EXPECT_EQ(in.values[0].as_int(), s0);
  const Tensor& x = in.values[1].tensor();
  EXPECT_EQ(x.dtype(), DType::BFloat16);
  EXPECT_EQ(x.shape(), (Dims{s0, 8}));
  for (double v : x.values()) {
    EXPECT_GE(v, -2.0);
    EXPECT_LE(v, 2.0);
    EXPECT_EQ(v, round_to_bf16(v));
  }
  for (int64_t v : in.values[2].tensor().int_values()) {
    EXPECT_GE(v, -8);
    EXPECT_LE(v, 8);
  }
  for (double v : in.values[3].tensor().values()) EXPECT_GE(v, 0.5);  // scales: positive range
  // Caller-fixed sizes win; the same seed gives the same inputs.
  opt.bindings = {{"s0", 7}};
  RandomInputs fixed = random_inputs(g, 42, opt);
  EXPECT_EQ(fixed.values[1].tensor().shape(), (Dims{7, 8}));
  EXPECT_EQ(random_inputs(g, 42, opt).values[1].tensor().values(),
            fixed.values[1].tensor().values());
}

TEST(RandomInputs, UntypedPlaceholderAsksForInputTypes) {
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x):
        neg = torch.ops.aten.neg.default(x)
        return (neg,)
)FX");
  try {
    random_inputs(g, 1);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--input-types"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'x'"), std::string::npos) << e.what();
  }
}

// ---- opaque ops compared structurally ---------------------------------------

// equivalent(a, b) with the default options, expected to agree.
EquivalenceResult expect_equivalent(const Graph& a, const Graph& b) {
  EquivalenceResult r = equivalent(a, b, registry());
  EXPECT_TRUE(r.ok) << r.first_mismatch;
  return r;
}

// `mylib::mystery` has no kernel: it is only compared, never computed.
Graph mystery_after(const std::string& producer) {
  return body(producer + R"FX(        m: "f32[s0, 4]" = torch.ops.mylib.mystery.default(h, 3)
        out: "f32[s0, 4]" = torch.ops.aten.add.Tensor(m, y)
        return (out,)
)FX");
}

TEST(EquivalenceStructural, SameOpOnSameInputsShareOutputsAndAreReported) {
  Graph a = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Tensor(x, y)\n");
  Graph b = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Tensor(y, x)\n");
  EquivalenceResult r = expect_equivalent(a, b);
  ASSERT_EQ(r.structural_ops.size(), 1u);
  EXPECT_EQ(r.structural_ops[0].first, "mylib::mystery");
  EXPECT_EQ(r.structural_ops[0].second, 1);
}

TEST(EquivalenceStructural, DifferentInputsToTheOpAreAMismatchNamingTheCall) {
  Graph a = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Tensor(x, y)\n");
  Graph b = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.add.Tensor(x, y)\n");
  EquivalenceResult r = equivalent(a, b, registry());
  ASSERT_FALSE(r.ok);
  ASSERT_EQ(r.unmatched_opaque_calls.size(), 1u);
  EXPECT_EQ(r.unmatched_opaque_calls[0], "node 'm' (mylib::mystery)");
  EXPECT_EQ(r.first_differing_node.rfind("node 'h'", 0), 0u) << r.first_differing_node;
}

TEST(EquivalenceStructural, ANonTensorArgumentIsPartOfTheCall) {
  Graph a = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Tensor(x, y)\n");
  std::string text =
      std::string(kHeader) + R"FX(        h: "f32[s0, 4]" = torch.ops.aten.mul.Tensor(x, y)
        m: "f32[s0, 4]" = torch.ops.mylib.mystery.default(h, 4)
        out: "f32[s0, 4]" = torch.ops.aten.add.Tensor(m, y)
        return (out,)
)FX";
  EXPECT_FALSE(equivalent(a, graph_from(text), registry()).ok);
}

// One call in the first graph answers two identical calls in the second
// (the reverse of common-subexpression elimination), and the other way round.
TEST(EquivalenceStructural, DuplicatedAndMergedCallsAgree) {
  Graph once = body(R"FX(        m: "f32[s0, 4]" = torch.ops.mylib.mystery.default(x, 3)
        out: "f32[s0, 4]" = torch.ops.aten.add.Tensor(m, m)
        return (out,)
)FX");
  Graph twice = body(R"FX(        m: "f32[s0, 4]" = torch.ops.mylib.mystery.default(x, 3)
        m2: "f32[s0, 4]" = torch.ops.mylib.mystery.default(x, 3)
        out: "f32[s0, 4]" = torch.ops.aten.add.Tensor(m, m2)
        return (out,)
)FX");
  EXPECT_TRUE(equivalent(once, twice, registry()).ok);
  EXPECT_TRUE(equivalent(twice, once, registry()).ok);
}

// Inputs that differ within the tolerance (x/3 against x*(1/3), a few ulps
// apart) reach the opaque op: under the rounding mode the calls match, so
// its outputs agree instead of being unrelated values.
TEST(EquivalenceStructural, InputsWithinToleranceMatchInRoundingMode) {
  Graph a = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.div.Scalar(x, 3.0)\n");
  Graph b = mystery_after(
      "        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Scalar(x, 0.3333333333333333)\n");
  EquivalenceOptions rounding;
  rounding.mode = ToleranceMode::Rounding;
  rounding.trials = 5;
  EquivalenceResult r = equivalent(a, b, registry(), rounding);
  EXPECT_TRUE(r.ok) << r.first_mismatch;
  EXPECT_FALSE(r.structural_ops.empty());
}

TEST(EquivalenceStructural, StrictModeRefusesOpsWithoutKernelsNamingTheNode) {
  Graph a = mystery_after("        h: \"f32[s0, 4]\" = torch.ops.aten.mul.Tensor(x, y)\n");
  EquivalenceOptions strict;
  strict.mode = ToleranceMode::Strict;
  try {
    equivalent(a, a, registry(), strict);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("node 'm'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no reference kernel"), std::string::npos) << e.what();
  }
}

// Calls torch's meta types but no backend computes in that form (leaky_relu of an int
// tensor, which CPU and CUDA refuse; index_add of a bf16 source into an fp32 tensor) have
// no reference semantics: the interpreter compares them structurally, like ops without a
// kernel, instead of failing the check. The strict mode names them.
Graph unmodelled_dtypes(const std::string& order) {
  return graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "i32[4]", y: "i32[4]", acc: "f32[3, 2]", i: "i64[4]", s: "bf16[4, 2]"):
        r: "i32[4]" = torch.ops.aten.leaky_relu.default(x, 0)
        out: "i32[4]" = torch.ops.aten.add.Tensor()FX" +
                    order + R"FX()
        added: "f32[3, 2]" = torch.ops.aten.index_add.default(acc, 0, i, s)
        return (out, added)
)FX");
}

TEST(EquivalenceStructural, KernelDtypeLimitsAreComparedStructurally) {
  Graph a = unmodelled_dtypes("r, y");
  Graph b = unmodelled_dtypes("y, r");
  EquivalenceResult r = expect_equivalent(a, b);
  std::vector<std::string> ops;
  for (const auto& [op, count] : r.structural_ops) ops.push_back(op);
  std::sort(ops.begin(), ops.end());
  EXPECT_EQ(ops, (std::vector<std::string>{"aten::index_add", "aten::leaky_relu"}));
  EquivalenceOptions strict;
  strict.mode = ToleranceMode::Strict;
  try {
    equivalent(a, b, registry(), strict);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("node 'r'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace eqfuse
