// Shape arithmetic on plain Dims, without a tensor: row-major strides,
// element counts (checked against the interpreter's size limit), dim
// wrapping, broadcasting and -1 inference. Kernels and views use these; they
// touch no storage, so they live apart from interp/tensor.cpp.
#include <algorithm>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "base/checked_int.hpp"
#include "interp/tensor.hpp"

namespace eqfuse {

Dims contiguous_strides(const Dims& shape) {
  Dims strides(shape.size(), 1);
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    strides[i] = acc;
    if (i == 0) break;  // the whole product is no stride
    // Checked: beside a zero-sized dim the others' product may leave int64.
    std::optional<int64_t> next = checked_mul(acc, std::max<int64_t>(shape[i], 1));
    if (!next)
      throw std::invalid_argument(
          fmt::format("the strides of shape {} do not fit in 63 bits", dims_to_string(shape)));
    acc = *next;
  }
  return strides;
}

int64_t shape_numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t checked_numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d < 0) throw std::invalid_argument(fmt::format("negative dimension {}", d));
    if (d != 0 && n > kMaxTensorElements / d) {
      // Keep multiplying only to tell an empty tensor from a huge one.
      bool empty = std::find(shape.begin(), shape.end(), 0) != shape.end();
      if (empty) return 0;
      throw std::invalid_argument(fmt::format(
          "shape {} has more than {} elements, the reference interpreter's limit; bind smaller "
          "symbolic sizes (--bind)",
          dims_to_string(shape), kMaxTensorElements));
    }
    n *= d;
  }
  return n;
}

int64_t wrap_dim(int64_t dim, int64_t rank) {
  int64_t r = std::max<int64_t>(rank, 1);  // scalars accept dim 0 and -1
  if (dim < -r || dim >= r) {
    throw std::invalid_argument(
        fmt::format("dimension {} out of range for a tensor of rank {}", dim, rank));
  }
  return dim < 0 ? dim + r : dim;
}

std::string dims_to_string(const Dims& d) {
  return fmt::format("[{}]", fmt::join(d, ", "));
}

Dims broadcast_shapes(const Dims& a, const Dims& b) {
  size_t n = std::max(a.size(), b.size());
  Dims out(n, 1);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw std::invalid_argument(fmt::format("shapes {} and {} are not broadcastable",
                                              dims_to_string(a), dims_to_string(b)));
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Dims infer_size(Dims shape, int64_t numel) {
  int infer_at = -1;
  int64_t known = 1;
  bool known_overflows = false;  // the product exceeds any numel, unless a dim is 0
  bool has_zero = false;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (infer_at >= 0) throw std::invalid_argument("only one dimension can be inferred");
      infer_at = static_cast<int>(i);
    } else if (shape[i] < 0) {
      throw std::invalid_argument(fmt::format("invalid shape dimension {}", shape[i]));
    } else if (shape[i] == 0) {
      has_zero = true;
    } else if (std::optional<int64_t> next = checked_mul(known, shape[i])) {
      known = *next;
    } else {
      known_overflows = true;
    }
  }
  if (has_zero) {
    known = 0;
  } else if (known_overflows) {
    throw std::invalid_argument(
        fmt::format("shape {} is invalid for input of size {}", dims_to_string(shape), numel));
  }
  if (infer_at >= 0) {
    if (known == 0 || numel % known != 0) {
      throw std::invalid_argument(
          fmt::format("shape {} is invalid for input of size {}", dims_to_string(shape), numel));
    }
    shape[static_cast<size_t>(infer_at)] = numel / known;
  } else if (known != numel) {
    throw std::invalid_argument(
        fmt::format("shape {} is invalid for input of size {}", dims_to_string(shape), numel));
  }
  return shape;
}

}  // namespace eqfuse
