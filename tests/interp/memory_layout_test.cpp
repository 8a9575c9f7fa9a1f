// Result layouts as torch allocates them (interp/memory_layout.hpp): the stride rules on
// their own, then through the interpreter, where they decide which `view`s succeed. The
// expected strides are what torch 2.x gives for the same calls (TensorIterator's dim
// order, preserve_format copies, the CPU flash attention's empty_like(query)).
#include "interp/memory_layout.hpp"

#include <gtest/gtest.h>

#include "tests/support/interp_test_util.hpp"

namespace eqfuse {
namespace {

using testing::graph_from;
using testing::run;
using testing::vals;

Tensor arange(Dims shape) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return Tensor::from_values(DType::Float32, shape, v);
}

Dims elementwise(std::initializer_list<const Tensor*> inputs, const Dims& shape) {
  std::vector<const Tensor*> v(inputs);
  return elementwise_result_strides(v, shape);
}

TEST(MemoryLayout, ElementwiseResultsFollowTheFirstOrderedInput) {
  const Tensor x = arange({2, 3, 4});
  // torch: (x.transpose(0, 2) + 1).stride() == (1, 4, 12)
  const Tensor xt = x.transpose(0, 2);
  EXPECT_EQ(elementwise({&xt}, xt.shape()), (Dims{1, 4, 12}));
  // Row-major inputs give row-major results.
  EXPECT_EQ(elementwise({&x}, x.shape()), (Dims{12, 4, 1}));
  // The first input that orders two dims decides: x.t() + y (y row-major) follows x.t().
  const Tensor a = arange({3, 2}).transpose(0, 1), b = arange({2, 3});
  EXPECT_EQ(elementwise({&a, &b}, {2, 3}), (Dims{1, 2}));
  EXPECT_EQ(elementwise({&b, &a}, {2, 3}), (Dims{3, 1}));
}

TEST(MemoryLayout, BroadcastDimsAndScalarsOrderNothing) {
  // [B, S, H, D] storage seen as [B, H, S, D], times a [S, D] table broadcast over B, H:
  // the table has no stride in H, so the query's order decides (RoPE in transformers).
  const Tensor q = arange({2, 5, 4, 8}).transpose(1, 2);
  const Tensor cos = arange({5, 8});
  const Tensor scalar = Tensor::scalar(DType::Float32, 2.0);
  EXPECT_EQ(elementwise({&cos, &q}, q.shape()), q.strides());
  EXPECT_EQ(elementwise({&scalar, &q}, q.shape()), q.strides());
}

TEST(MemoryLayout, PreservedCopiesKeepDenseLayoutsAndOrderTheOthers) {
  const Tensor xt = arange({2, 3}).transpose(0, 1);
  EXPECT_EQ(preserved_strides(xt), (Dims{1, 3}));
  // A strided slice is not dense: the copy is dense in the slice's dim order.
  const Tensor sliced = arange({4, 6}).slice(1, 0, 6, 2).transpose(0, 1);  // [3, 4], gaps
  EXPECT_FALSE(is_non_overlapping_and_dense(sliced.shape(), sliced.strides()));
  EXPECT_EQ(preserved_strides(sliced), (Dims{1, 3}));
  EXPECT_TRUE(is_non_overlapping_and_dense({3, 1, 2}, {2, 99, 1}));  // size-1 dims are free
  EXPECT_FALSE(is_non_overlapping_and_dense({2, 2}, {1, 1}));
}

TEST(MemoryLayout, WithStridesCopiesOnlyWhenTheLayoutDiffers) {
  const Tensor x = arange({2, 3});
  EXPECT_TRUE(with_strides(x, {3, 1}).shares_storage(x));
  const Tensor moved = with_strides(x, {1, 2});
  EXPECT_FALSE(moved.shares_storage(x));
  EXPECT_EQ(moved.strides(), (Dims{1, 2}));
  EXPECT_EQ(moved.values(), x.values());
}

TEST(MemoryLayout, InterpreterGivesResultsTorchsLayouts) {
  // As transformers writes attention under torch.compile: heads split off the hidden
  // dim, transposed, RoPE'd (elementwise: keeps [B, S, H, D] order), attended (the CPU
  // flash attention allocates its output like the query), transposed back and viewed.
  Graph g = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[1, 3, 8]", c: "f32[3, 4]"):
        v: "f32[1, 3, 2, 4]" = torch.ops.aten.view.default(x, [1, 3, 2, 4])
        t: "f32[1, 2, 3, 4]" = torch.ops.aten.transpose.int(v, 1, 2)
        m: "f32[1, 2, 3, 4]" = torch.ops.aten.mul.Tensor(t, c)
        attn = torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default(m, m, m)
        o: "f32[1, 2, 3, 4]" = attn[0]
        back: "f32[1, 3, 2, 4]" = torch.ops.aten.transpose.int(o, 1, 2)
        flat: "f32[1, 3, 8]" = torch.ops.aten.view.default(back, [1, 3, 8])
        mt: "f32[1, 3, 2, 4]" = torch.ops.aten.transpose.int(m, 1, 2)
        mflat: "f32[1, 3, 8]" = torch.ops.aten.view.default(mt, [1, 3, 8])
        return (flat, mflat)
)FX");
  const Tensor x = arange({1, 3, 8});
  std::vector<double> ones(12, 1.0);
  RunResult r = run(g, {x, Tensor::from_values(DType::Float32, {3, 4}, ones)});
  EXPECT_EQ(vals(r.outputs[1]), x.values());  // m = t * 1, viewed back: x
  EXPECT_EQ(r.outputs[0].tensor().shape(), (Dims{1, 3, 8}));
}

TEST(MemoryLayout, ClonePreservesATransposeSoViewFailsAsInTorch) {
  // torch: x.t().clone().view(6) raises (the clone keeps the transposed strides);
  // clone(memory_format=torch.contiguous_format) and reshape do not.
  Graph fails = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        t: "f32[3, 2]" = torch.ops.aten.t.default(x)
        c: "f32[3, 2]" = torch.ops.aten.clone.default(t)
        v: "f32[6]" = torch.ops.aten.view.default(c, [6])
        return (v,)
)FX");
  EXPECT_THROW(run(fails, {arange({2, 3})}), Error);
  Graph works = graph_from(R"FX(class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 3]"):
        t: "f32[3, 2]" = torch.ops.aten.t.default(x)
        c: "f32[3, 2]" = torch.ops.aten.clone.default(t)
        r: "f32[6]" = torch.ops.aten.reshape.default(c, [6])
        return (r,)
)FX");
  EXPECT_EQ(vals(run(works, {arange({2, 3})}).outputs[0]), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

// Beside a zero-sized dim the other dims' product may leave int64: the dense
// check answers without wrapping, the stride computation reports it (torch:
// "Stride calculation overflowed").
TEST(MemoryLayout, StrideProductsThatLeaveInt64AreCheckedNotWrapped) {
  const int64_t big = int64_t{1} << 40;
  EXPECT_TRUE(is_non_overlapping_and_dense({big, big}, {big, 1}));
  EXPECT_FALSE(is_non_overlapping_and_dense({big, big, 2}, {0, big, 1}));
  // A wrapped 2^80 would be 0 here and match the stride 0.
  EXPECT_FALSE(is_non_overlapping_and_dense({2, big, big}, {0, big, 1}));
  EXPECT_THROW(elementwise_result_strides({}, Dims{0, big, big, big}), IntOverflow);
  EXPECT_THROW(elementwise_result_strides({}, Dims{2, big, big}), IntOverflow);
  EXPECT_EQ(elementwise_result_strides({}, Dims{4, big, 2}), (Dims{2 * big, 2, 1}));
}

}  // namespace
}  // namespace eqfuse
