// ctest-label: numeric
// Concrete tensors: storage, casts, stride views and aliasing.
#include "interp/tensor.hpp"

#include <gtest/gtest.h>

namespace eqfuse {
namespace {

Tensor iota(Dims shape) {
  std::vector<double> v(static_cast<size_t>(shape_numel(shape)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return Tensor::from_values(DType::Float32, shape, v);
}

TEST(Tensor, ViewsAliasTheirBase) {
  Tensor base = iota({2, 3});      // [[0,1,2],[3,4,5]]
  Tensor row = base.select(0, 1);  // [3,4,5]
  row.set_flat(0, 9.0);
  EXPECT_EQ(base.values(), (std::vector<double>{0, 1, 2, 9, 4, 5}));
  Tensor col = base.transpose(0, 1).select(0, 2);  // column 2: [2, 5]
  col.copy_from(Tensor::from_values(DType::Float32, {2}, std::vector<double>{7, 8}));
  EXPECT_EQ(base.values(), (std::vector<double>{0, 1, 7, 9, 4, 8}));
  EXPECT_TRUE(col.shares_storage(base));
  EXPECT_GT(base.storage()->version, 0u);
}

TEST(Tensor, SliceExpandUnsqueeze) {
  Tensor x = iota({2, 4});
  Tensor s = x.slice(1, 1, 100, 2);  // columns 1 and 3 (end clamps)
  EXPECT_EQ(s.shape(), (Dims{2, 2}));
  EXPECT_EQ(s.values(), (std::vector<double>{1, 3, 5, 7}));
  Tensor neg = x.slice(1, -2, 4, 1);  // last two columns
  EXPECT_EQ(neg.values(), (std::vector<double>{2, 3, 6, 7}));
  Tensor e = x.select(0, 0).unsqueeze(0).expand({3, -1});
  EXPECT_EQ(e.shape(), (Dims{3, 4}));
  EXPECT_EQ(e.strides()[0], 0);
  EXPECT_EQ(e.get_flat(9), 1.0);  // row 2, col 1 reads row 0
}

TEST(Tensor, ViewNeedsCompatibleStrides) {
  Tensor x = iota({2, 3});
  EXPECT_EQ(x.view({3, -1}).shape(), (Dims{3, 2}));
  Tensor t = x.transpose(0, 1);
  EXPECT_THROW(t.view({6}), std::invalid_argument);
  Tensor r = t.reshape({6});  // copies
  EXPECT_FALSE(r.shares_storage(x));
  EXPECT_EQ(r.values(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  // Splitting a transposed dim is still a view.
  Tensor y = iota({4, 2}).transpose(0, 1).view({2, 2, 2});
  EXPECT_EQ(y.values(), (std::vector<double>{0, 2, 4, 6, 1, 3, 5, 7}));
  EXPECT_THROW(x.view({4, -1}), std::invalid_argument);
}

TEST(Tensor, CastsFollowTorch) {
  // float -> int truncates toward zero, then wraps to the width.
  Tensor f = Tensor::from_values(DType::Float32, {3}, std::vector<double>{200.7, -2.7, 2.9});
  EXPECT_EQ(f.to(DType::Int8).int_values(), (std::vector<int64_t>{-56, -2, 2}));
  EXPECT_EQ(f.to(DType::UInt8).int_values(), (std::vector<int64_t>{200, 254, 2}));
  EXPECT_EQ(f.to(DType::Bool).int_values(), (std::vector<int64_t>{1, 1, 1}));
  // int64 keeps large values exactly (beyond 2^53).
  Tensor big = Tensor::from_ints(DType::Int64, {1}, std::vector<int64_t>{(int64_t{1} << 60) + 1});
  EXPECT_EQ(big.get_flat_int(0), (int64_t{1} << 60) + 1);
  // Writes round to the dtype: 1 + 2^-8 is a bf16 tie -> 1.
  Tensor b = Tensor::zeros(DType::BFloat16, {1});
  b.set_flat(0, 1.00390625);
  EXPECT_EQ(b.get_flat(0), 1.0);
}

TEST(Tensor, BroadcastAndInferSize) {
  EXPECT_EQ(broadcast_shapes({2, 1, 3}, {4, 1}), (Dims{2, 4, 3}));
  EXPECT_THROW(broadcast_shapes({2, 3}, {4}), std::invalid_argument);
  EXPECT_EQ(infer_size({-1, 4}, 8), (Dims{2, 4}));
  EXPECT_THROW(infer_size({-1, 3}, 8), std::invalid_argument);
}

// Fuzz findings: view sizes whose product leaves int64 are invalid, not wrapped
// (2^32 x 2^32 wrapped to 0, which divides nothing, or matched an empty input).
TEST(Tensor, InferSizeAndStridesCheckOverflow) {
  const int64_t big = int64_t{1} << 32;
  EXPECT_THROW(infer_size({big, big, -1}, 8), std::invalid_argument);
  EXPECT_THROW(infer_size({big, big}, 0), std::invalid_argument);
  EXPECT_EQ(infer_size({big, big, 0}, 0), (Dims{big, big, 0}));           // a zero dim: product 0
  EXPECT_THROW(infer_size({big, big, 0, -1}, 0), std::invalid_argument);  // -1 could be anything
  EXPECT_THROW(infer_size({0, -1}, 0), std::invalid_argument);  // torch: cannot infer beside 0
  EXPECT_EQ(infer_size({2, -1}, 8), (Dims{2, 4}));
  EXPECT_THROW(contiguous_strides({big, big, big, 0}), std::invalid_argument);
  EXPECT_EQ(contiguous_strides({big, big, 0}), (Dims{big, 1, 1}));
}

}  // namespace
}  // namespace eqfuse
