// Memory layouts of op results as torch allocates them.
//
// The interpreter's kernels compute row-major results. torch does not always:
// an elementwise op on a transposed tensor writes its result in the input's
// dim order (TensorIterator), a `clone` or `_to_copy` keeps a dense input's
// strides (memory_format=torch.preserve_format), and the CPU flash attention
// allocates its output like the query. Graphs from real tracers rely on it: a
// transformers model under torch.compile applies `view` to
// `sdpa(...)[0].transpose(1, 2)`, which is only viewable because the query
// came out of RoPE's elementwise ops in [batch, seq, heads, dim] order. The
// interpreter gives results these layouts after their kernel ran
// (Interpreter: interp/interpreter.cpp), so views succeed and alias exactly
// where they do in torch.
//
//   Dims s = elementwise_result_strides({&a, &b}, out_shape);  // TensorIterator's order
//   Tensor laid_out = with_strides(result, s);                   // copy, or result itself
#pragma once
#include <span>

#include "interp/tensor.hpp"

namespace eqfuse {

// The strides TensorIterator gives the result of shape `shape` of an elementwise op
// over `inputs` (each broadcast to `shape`): dims ordered by the inputs' strides, the
// first input that tells two dims apart deciding, broadcast dims ignored
// (ATen's TensorIteratorBase::reorder_dimensions). Row-major when nothing orders them.
Dims elementwise_result_strides(std::span<const Tensor* const> inputs, const Dims& shape);

// The strides of a memory_format=preserve copy of `like` (clone, _to_copy,
// empty_like): `like`'s own when its elements are dense and do not overlap
// (a permutation of a row-major layout), else dense strides in the order of
// like's dims (ATen's infer_dense_strides).
Dims preserved_strides(const Tensor& like);

// True when `strides` lay out `shape` densely without overlap.
bool is_non_overlapping_and_dense(const Dims& shape, const Dims& strides);

// `t`'s values in fresh storage laid out with `strides` (dense for `t.shape()`), or `t`
// itself when it already has that layout, ignoring the strides of size-1 dims.
Tensor with_strides(const Tensor& t, const Dims& strides);

}  // namespace eqfuse
