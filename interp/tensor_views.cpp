// Tensor views: new shapes, strides and offsets over the same storage
// (as_strided, view, reshape, permute, transpose, expand, slice, select,
// unsqueeze, squeeze), with torch's rules for when a view is possible. They
// never read or write elements, unlike the rest of interp/tensor.cpp.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "base/checked_int.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

static bool row_major_contiguous(const Dims& shape, const Dims& strides) {
  std::optional<int64_t> expected = 1;  // nullopt once it leaves int64: no stride equals it
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (!expected || strides[i] != *expected) return false;
    expected = checked_mul(*expected, shape[i]);
  }
  return true;
}

Tensor Tensor::as_strided(Dims shape, Dims strides, int64_t offset) const {
  Tensor t = *this;
  t.shape_ = std::move(shape);
  t.strides_ = std::move(strides);
  t.offset_ = offset;
  t.contiguous_ = row_major_contiguous(t.shape_, t.strides_);
  return t;
}

// torch's stride computation for view(): succeeds when every group of old
// dims that is merged/split into new dims is contiguous within itself.
static std::optional<Dims> view_strides(const Dims& old_shape, const Dims& old_strides,
                                        const Dims& new_shape) {
  Dims new_strides(new_shape.size(), 0);
  if (old_shape.empty()) {
    std::fill(new_strides.begin(), new_strides.end(), 1);
    return new_strides;
  }
  int64_t numel = shape_numel(old_shape);
  if (numel == 0) return contiguous_strides(new_shape);
  int64_t view_d = static_cast<int64_t>(new_shape.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_shape.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_shape[static_cast<size_t>(tensor_d)];
    bool chunk_end = tensor_d == 0 || (old_shape[static_cast<size_t>(tensor_d - 1)] != 1 &&
                                       old_strides[static_cast<size_t>(tensor_d - 1)] !=
                                           tensor_numel * chunk_base_stride);
    if (chunk_end) {
      while (view_d >= 0 &&
             (view_numel < tensor_numel || new_shape[static_cast<size_t>(view_d)] == 1)) {
        new_strides[static_cast<size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= new_shape[static_cast<size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[static_cast<size_t>(tensor_d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

Tensor Tensor::view(Dims shape) const {
  shape = infer_size(std::move(shape), numel());
  std::optional<Dims> strides = view_strides(shape_, strides_, shape);
  if (!strides) {
    throw std::invalid_argument(fmt::format(
        "view size {} is not compatible with input tensor's size {} and stride {}; use reshape",
        dims_to_string(shape), dims_to_string(shape_), dims_to_string(strides_)));
  }
  return as_strided(std::move(shape), std::move(*strides), offset_);
}

Tensor Tensor::reshape(Dims shape) const {
  shape = infer_size(std::move(shape), numel());
  if (std::optional<Dims> strides = view_strides(shape_, strides_, shape)) {
    return as_strided(std::move(shape), std::move(*strides), offset_);
  }
  return clone().view(std::move(shape));
}

Tensor Tensor::permute(std::span<const int64_t> dims) const {
  if (static_cast<int>(dims.size()) != rank()) {
    throw std::invalid_argument(
        fmt::format("permute: {} dims given for a rank-{} tensor", dims.size(), rank()));
  }
  Dims shape(dims.size()), strides(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); ++i) {
    size_t d = static_cast<size_t>(wrap_dim(dims[i], rank()));
    if (seen[d]) throw std::invalid_argument("permute: repeated dim");
    seen[d] = true;
    shape[i] = shape_[d];
    strides[i] = strides_[d];
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::transpose(int64_t d0, int64_t d1) const {
  if (rank() == 0) return *this;
  Dims perm(static_cast<size_t>(rank()));
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
  std::swap(perm[static_cast<size_t>(wrap_dim(d0, rank()))],
            perm[static_cast<size_t>(wrap_dim(d1, rank()))]);
  return permute(perm);
}

Tensor Tensor::expand(Dims shape) const {
  if (shape.size() < shape_.size()) {
    throw std::invalid_argument(fmt::format("expand: target {} has fewer dims than {}",
                                            dims_to_string(shape), dims_to_string(shape_)));
  }
  size_t lead = shape.size() - shape_.size();
  Dims strides(shape.size(), 0);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i < lead) {
      if (shape[i] < 0) throw std::invalid_argument("expand: -1 not allowed for new leading dims");
      continue;
    }
    int64_t old = shape_[i - lead];
    if (shape[i] == -1) shape[i] = old;
    if (old == shape[i]) {
      strides[i] = strides_[i - lead];
    } else if (old != 1) {
      throw std::invalid_argument(fmt::format("expand: cannot expand {} to {}",
                                              dims_to_string(shape_), dims_to_string(shape)));
    }
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::slice(int64_t dim, int64_t start, int64_t end, int64_t step) const {
  dim = wrap_dim(dim, rank());
  if (step <= 0) throw std::invalid_argument("slice step must be positive");
  int64_t n = shape_[static_cast<size_t>(dim)];
  auto clamp = [n](int64_t v) {
    if (v < 0) v += n;
    return std::clamp<int64_t>(v, 0, n);
  };
  start = clamp(start);
  end = std::max(clamp(end), start);
  Dims shape = shape_, strides = strides_;
  shape[static_cast<size_t>(dim)] = (end - start + step - 1) / step;
  strides[static_cast<size_t>(dim)] *= step;
  return as_strided(std::move(shape), std::move(strides),
                    offset_ + start * strides_[static_cast<size_t>(dim)]);
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  if (rank() == 0) throw std::invalid_argument("select on a 0-dim tensor");
  dim = wrap_dim(dim, rank());
  int64_t n = shape_[static_cast<size_t>(dim)];
  if (index < -n || index >= n) {
    throw std::invalid_argument(fmt::format("select: index {} out of range for size {}", index, n));
  }
  if (index < 0) index += n;
  Dims shape = shape_, strides = strides_;
  int64_t off = offset_ + index * strides_[static_cast<size_t>(dim)];
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  return as_strided(std::move(shape), std::move(strides), off);
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  dim = wrap_dim(dim, rank() + 1);
  Dims shape = shape_, strides = strides_;
  int64_t stride =
      dim < rank() ? shape_[static_cast<size_t>(dim)] * strides_[static_cast<size_t>(dim)] : 1;
  shape.insert(shape.begin() + dim, 1);
  strides.insert(strides.begin() + dim, stride);
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Tensor Tensor::squeeze(int64_t dim) const {
  if (rank() == 0) return *this;
  dim = wrap_dim(dim, rank());
  if (shape_[static_cast<size_t>(dim)] != 1) return *this;
  Dims shape = shape_, strides = strides_;
  shape.erase(shape.begin() + dim);
  strides.erase(strides.begin() + dim);
  return as_strided(std::move(shape), std::move(strides), offset_);
}

}  // namespace eqfuse
