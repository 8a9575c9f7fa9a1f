// Memory layouts of op results as torch allocates them (see memory_layout.hpp).
#include "interp/memory_layout.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

#include "base/checked_int.hpp"

namespace eqfuse {

namespace {

// `t`'s strides aligned to `shape` (t broadcasts to it): 0 where t broadcasts or lacks
// the dim, as TensorIterator sees its operands.
Dims broadcast_strides(const Tensor& t, const Dims& shape) {
  Dims out(shape.size(), 0);
  const size_t lead = shape.size() - static_cast<size_t>(t.rank());
  for (size_t i = 0; i < static_cast<size_t>(t.rank()); ++i)
    if (t.shape()[i] == shape[lead + i]) out[lead + i] = t.strides()[i];
  return out;
}

// Row-major strides of `shape` with its dims visited in `order` (order[0] the
// fastest-varying), as TensorIterator's compatible_stride computes them.
Dims strides_in_order(const Dims& shape, const std::vector<size_t>& order) {
  Dims out(shape.size(), 0);
  int64_t step = 1;
  for (size_t dim : order) {
    out[dim] = step;
    if (dim == order.back()) break;  // the whole product is no stride
    // Checked: with a zero-sized dim elsewhere the other dims' product may leave
    // int64 although the tensor holds no element (torch: "Stride calculation overflowed").
    step = mul_or_throw(step, shape[dim], [] { return std::string("stride calculation"); });
  }
  return out;
}

}  // namespace

Dims elementwise_result_strides(std::span<const Tensor* const> inputs, const Dims& shape) {
  const size_t ndim = shape.size();
  std::vector<Dims> operand_strides;
  for (const Tensor* t : inputs) {
    // 0-dim tensors (wrapped scalars) broadcast along every dim: they order nothing.
    if (t == nullptr || t->rank() == 0 || static_cast<size_t>(t->rank()) > ndim) continue;
    operand_strides.push_back(broadcast_strides(*t, shape));
  }
  // order[0] is the fastest-varying dim; start from row-major (last dim fastest).
  std::vector<size_t> order(ndim);
  for (size_t i = 0; i < ndim; ++i) order[i] = ndim - 1 - i;
  // > 0: dim0 should vary faster than it does (swap); < 0: keep; 0: undecided.
  auto should_swap = [&](size_t dim0, size_t dim1) {
    for (const Dims& s : operand_strides) {
      const int64_t s0 = s[dim0], s1 = s[dim1];
      if (s0 == 0 || s1 == 0) continue;  // broadcast in one of them: no evidence
      if (s0 < s1) return -1;
      if (s0 > s1) return 1;
      if (shape[dim0] > shape[dim1]) return 1;  // equal strides: the smaller dim goes first
    }
    return 0;
  };
  for (size_t i = 1; i < ndim; ++i) {  // insertion sort, as ATen does it
    size_t dim1 = i;
    for (size_t k = i; k-- > 0;) {
      const int comparison = should_swap(order[k], order[dim1]);
      if (comparison > 0) {
        std::swap(order[k], order[dim1]);
        dim1 = k;
      } else if (comparison < 0) {
        break;
      }
    }
  }
  return strides_in_order(shape, order);
}

bool is_non_overlapping_and_dense(const Dims& shape, const Dims& strides) {
  const size_t ndim = shape.size();
  if (ndim == 1) return shape[0] < 2 || strides[0] == 1;
  std::vector<size_t> order(ndim);
  std::iota(order.begin(), order.end(), size_t{0});
  // Dims of size 0 or 1 do not constrain the layout: they sort last.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (shape[a] < 2) return false;
    if (shape[b] < 2) return true;
    return strides[a] < strides[b];
  });
  // nullopt once the dense stride leaves int64: no stride can equal it.
  std::optional<int64_t> required = 1;
  for (size_t dim : order) {
    if (shape[dim] < 2) return true;
    if (!required || strides[dim] != *required) return false;
    required = checked_mul(*required, shape[dim]);
  }
  return true;
}

Dims preserved_strides(const Tensor& like) {
  if (is_non_overlapping_and_dense(like.shape(), like.strides())) return like.strides();
  // ATen's infer_dense_strides: dense, in the order of like's dims.
  const Tensor* operand = &like;
  return elementwise_result_strides(std::span<const Tensor* const>(&operand, 1), like.shape());
}

Tensor with_strides(const Tensor& t, const Dims& strides) {
  bool same = true;
  for (size_t i = 0; i < strides.size() && same; ++i)
    same = t.shape()[i] < 2 || t.strides()[i] == strides[i];
  if (same) return t;
  Tensor out = Tensor::zeros(t.dtype(), {t.numel()}).as_strided(t.shape(), strides, 0);
  out.copy_from(t);
  return out;
}

}  // namespace eqfuse
