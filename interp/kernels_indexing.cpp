// Advanced indexing (index.Tensor, index_put), gathers (gather,
// index_select), scatters (scatter*, scatter_reduce, index_add) and sorting
// (topk, sort, argsort).
//
// Values are handled in their storage type (double for floats, int64 for
// integers and bool), so int64 data stays exact. Accumulating scatters
// (index_put with accumulate, scatter_add, index_add, scatter_reduce) add
// one source element at a time, rounding to the dtype after each, in index
// order, like torch's serial CPU kernels. Sorting is stable: equal values
// keep their index order, NaN sorts above every number.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

// ---- storage-typed flat access ------------------------------------------

template <typename T>
std::vector<T> flat_values(const Tensor& t) {
  if constexpr (std::is_same_v<T, double>) {
    return t.values();
  } else {
    return t.int_values();
  }
}

// A fresh tensor of `dtype`/`shape` holding row-major `values`.
template <typename T>
Tensor tensor_from(DType dtype, const Dims& shape, const std::vector<T>& values) {
  Tensor out = Tensor::zeros(dtype, shape);
  if constexpr (std::is_same_v<T, double>) {
    out.write_values(values);
  } else {
    out.write_int_values(values);
  }
  return out;
}

// `v` as stored in a tensor of dtype `d` (rounded, or wrapped to the width).
template <typename T>
T to_dtype(T v, DType d) {
  if constexpr (std::is_same_v<T, double>) {
    return cast_double(v, d);
  } else {
    return cast_int(v, d);
  }
}

// A Scalar argument stored as in a tensor of dtype `d` (torch casts it).
template <typename T>
T scalar_as(const KernelCall& c, std::string_view name, DType d) {
  RuntimeValue v = c.value(name);
  if constexpr (std::is_same_v<T, double>) {
    return cast_double(c.double_arg(name), d);
  } else {
    return v.is_double() ? double_to_int(c.double_arg(name), d) : cast_int(c.int_arg(name), d);
  }
}

// Calls f(...) with the storage type of `t` as a tag value (0.0 or int64 0).
template <typename F>
RuntimeValue by_storage(const Tensor& t, F&& f) {
  if (t.is_int_storage()) return f(int64_t{0});
  return f(0.0);
}

// Index values as int64, wrapped from negative (when allowed) and checked
// against `size`.
std::vector<int64_t> checked_indices(const KernelCall& c, const Tensor& index, int64_t size,
                                     int64_t dim, bool allow_negative) {
  std::vector<int64_t> idx = index.int_values();
  for (int64_t& i : idx) {
    if (i < (allow_negative ? -size : 0) || i >= size)
      c.fail(fmt::format("index {} is out of bounds for dimension {} with size {}", i, dim, size));
    if (i < 0) i += size;
  }
  return idx;
}

// A bool, float or quantized index tensor: torch's meta refuses it where the op is
// typed with a check (index.Tensor, gather, scatter), but index_put, index_add and
// index_select type it (their CPU and CUDA kernels refuse it): there is no reference
// semantics to compute, so the node is an uninterpreted function (UnsupportedConfig).
void check_index_tensor(const KernelCall&, const Tensor& index, std::string_view what) {
  if (!dtype_is_integral(index.dtype()))
    throw UnsupportedConfig(fmt::format("{} of dtype {}", what, dtype_torch_name(index.dtype())));
}

// index_put and index_add with a source of another dtype than self: torch's meta types the
// call (self's dtype) but its kernels refuse it, so it is not modelled (UnsupportedConfig).
void check_same_dtype_or_unmodelled(const Tensor& self, const Tensor& src,
                                    std::string_view src_name) {
  if (self.dtype() != src.dtype())
    throw UnsupportedConfig(fmt::format("'{}' ({}) of another dtype than 'self' ({})", src_name,
                                        dtype_torch_name(src.dtype()),
                                        dtype_torch_name(self.dtype())));
}

// ---- advanced indexing ----------------------------------------------------

// One `self[indices]` access, resolved: the broadcast shape B of the index
// tensors, each indexed dim's positions (one per element of B), the dims
// left alone and where B goes in the result.
struct AdvancedIndex {
  Dims self_shape;
  Dims broadcast;                               // B
  std::vector<std::vector<int64_t>> positions;  // per self dim: empty if not indexed
  std::vector<int64_t> rest;                    // dims not indexed, in order
  size_t b_at = 0;                              // rest dims before B in the result
  Dims result_shape;

  // Calls f(result_flat, self_flat) for every element of the result.
  template <typename F>
  void for_each(F&& f) const {
    int64_t b_count = shape_numel(broadcast);
    Dims rest_shape;
    for (int64_t d : rest) rest_shape.push_back(self_shape[static_cast<size_t>(d)]);
    int64_t rest_count = shape_numel(rest_shape);
    Dims before(rest_shape.begin(), rest_shape.begin() + static_cast<int64_t>(b_at));
    Dims after(rest_shape.begin() + static_cast<int64_t>(b_at), rest_shape.end());
    int64_t after_count = shape_numel(after);
    Dims self_index(self_shape.size(), 0);
    for (int64_t r = 0; r < rest_count; ++r) {
      Dims rest_index = unravel(r, rest_shape);
      for (size_t k = 0; k < rest.size(); ++k)
        self_index[static_cast<size_t>(rest[k])] = rest_index[k];
      int64_t outer = r / after_count, inner = r % after_count;
      for (int64_t b = 0; b < b_count; ++b) {
        for (size_t d = 0; d < positions.size(); ++d)
          if (!positions[d].empty()) self_index[d] = positions[d][static_cast<size_t>(b)];
        f((outer * b_count + b) * after_count + inner, ravel(self_index, self_shape));
      }
    }
  }
};

// A bool (or uint8) mask over dims [first, first + rank): its true
// positions as one int64 index tensor per covered dim (torch's nonzero()).
std::vector<Tensor> mask_to_indices(const KernelCall& c, const Tensor& mask, const Dims& self,
                                    size_t first) {
  if (first + static_cast<size_t>(mask.rank()) > self.size())
    c.fail("too many indices for the tensor's rank");
  for (int d = 0; d < mask.rank(); ++d)
    if (mask.size(d) != self[first + static_cast<size_t>(d)])
      c.fail(fmt::format("the mask {} does not match the indexed dims of a tensor of shape {}",
                         mask.describe(), dims_to_string(self)));
  std::vector<std::vector<int64_t>> coords(static_cast<size_t>(mask.rank()));
  std::vector<int64_t> m = mask.int_values();
  for (int64_t i = 0; i < static_cast<int64_t>(m.size()); ++i) {
    if (m[static_cast<size_t>(i)] == 0) continue;
    Dims at = unravel(i, mask.shape());
    for (size_t d = 0; d < at.size(); ++d) coords[d].push_back(at[d]);
  }
  std::vector<Tensor> out;
  for (const auto& v : coords)
    out.push_back(Tensor::from_ints(DType::Int64, {static_cast<int64_t>(v.size())}, v));
  return out;
}

// The `indices` argument (Tensor?[]) with masks expanded: one optional
// integer tensor per leading dim of self.
std::vector<std::optional<Tensor>> index_tensors(const KernelCall& c, const Dims& self) {
  RuntimeValue list = c.value("indices");
  if (!list.is_list()) c.fail("argument 'indices' must be a list of optional tensors");
  std::vector<std::optional<Tensor>> out;
  for (const RuntimeValue& v : list.list()) {
    if (v.is_none()) {
      out.emplace_back();
    } else if (!v.is_tensor()) {
      c.fail("argument 'indices' must be a list of optional tensors");
    } else if (v.tensor().dtype() == DType::Bool || v.tensor().dtype() == DType::UInt8) {
      for (Tensor& t : mask_to_indices(c, v.tensor(), self, out.size())) out.emplace_back(t);
    } else {
      check_index_tensor(c, v.tensor(), "an index");
      out.emplace_back(v.tensor());
    }
  }
  if (out.size() > self.size())
    c.fail(fmt::format("too many indices ({}) for a tensor of rank {}", out.size(), self.size()));
  return out;
}

AdvancedIndex resolve_index(const KernelCall& c, const Dims& self) {
  std::vector<std::optional<Tensor>> indices = index_tensors(c, self);
  AdvancedIndex ai;
  ai.self_shape = self;
  ai.positions.resize(self.size());
  std::vector<size_t> indexed;
  for (size_t d = 0; d < indices.size(); ++d) {
    if (!indices[d]) continue;
    try {
      ai.broadcast = indexed.empty() ? indices[d]->shape()
                                     : broadcast_shapes(ai.broadcast, indices[d]->shape());
    } catch (const std::invalid_argument& e) {
      c.fail(fmt::format("index tensors cannot be broadcast together: {}", e.what()));
    }
    indexed.push_back(d);
  }
  for (size_t d : indexed) {
    Tensor expanded = indices[d]->expand(ai.broadcast);
    ai.positions[d] = checked_indices(c, expanded, self[d], static_cast<int64_t>(d), true);
  }
  for (size_t d = 0; d < self.size(); ++d)
    if (ai.positions[d].empty() && !(d < indices.size() && indices[d]))
      ai.rest.push_back(static_cast<int64_t>(d));
  // Adjacent indexed dims keep B in their place; separated ones put it first.
  bool adjacent = !indexed.empty() && indexed.back() - indexed.front() + 1 == indexed.size();
  if (adjacent)
    ai.b_at = static_cast<size_t>(std::count_if(ai.rest.begin(), ai.rest.end(), [&](int64_t d) {
      return static_cast<size_t>(d) < indexed.front();
    }));
  if (indexed.empty()) ai.broadcast = {};
  for (size_t k = 0; k <= ai.rest.size(); ++k) {
    if (k == ai.b_at && !indexed.empty())
      ai.result_shape.insert(ai.result_shape.end(), ai.broadcast.begin(), ai.broadcast.end());
    if (k < ai.rest.size()) ai.result_shape.push_back(self[static_cast<size_t>(ai.rest[k])]);
  }
  return ai;
}

RuntimeValue index_tensor(const KernelCall& c) {
  Tensor x = c.tensor("self");
  AdvancedIndex ai = resolve_index(c, x.shape());
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> src = flat_values<T>(x);
    std::vector<T> out(static_cast<size_t>(shape_numel(ai.result_shape)));
    ai.for_each(
        [&](int64_t r, int64_t s) { out[static_cast<size_t>(r)] = src[static_cast<size_t>(s)]; });
    return RuntimeValue(tensor_from(x.dtype(), ai.result_shape, out));
  });
}

void check_same_dtype(const KernelCall& c, const Tensor& self, const Tensor& src,
                      std::string_view src_name) {
  if (self.dtype() != src.dtype())
    c.fail(fmt::format("'{}' ({}) must have the dtype of 'self' ({})", src_name, src.describe(),
                       self.describe()));
}

// Broadcasts `t` to `shape`, failing with the op's name.
Tensor expand_to(const KernelCall& c, const Tensor& t, const Dims& shape, std::string_view what) {
  try {
    if (broadcast_shapes(t.shape(), shape) != shape) throw std::invalid_argument("rank");
    return t.expand(shape);
  } catch (const std::invalid_argument&) {
    c.fail(fmt::format("'{}' {} cannot be broadcast to the indexed shape {}", what, t.describe(),
                       dims_to_string(shape)));
  }
}

RuntimeValue index_put(const KernelCall& c) {
  Tensor x = c.tensor("self"), values = c.tensor("values");
  check_same_dtype_or_unmodelled(x, values, "values");
  bool accumulate = c.has("accumulate") && c.bool_arg("accumulate");
  AdvancedIndex ai = resolve_index(c, x.shape());
  Tensor v = expand_to(c, values, ai.result_shape, "values");
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> out = flat_values<T>(x);
    std::vector<T> src = flat_values<T>(v);
    ai.for_each([&](int64_t r, int64_t s) {
      T& dst = out[static_cast<size_t>(s)];
      T val = src[static_cast<size_t>(r)];
      dst = accumulate ? to_dtype<T>(dst + val, x.dtype()) : val;  // duplicates: the last wins
    });
    return RuntimeValue(tensor_from(x.dtype(), x.shape(), out));
  });
}

// ---- gather / scatter along one dim ---------------------------------------

// Walks the positions of `index` (shape I): calls f(index_flat, target_flat)
// where target is `index`'s position with `dim` replaced by its value, in a
// tensor of shape `target`. torch requires I[d] <= target[d] for d != dim.
template <typename F>
void along_dim(const KernelCall& c, const Tensor& index, const Dims& target, int64_t dim, F&& f) {
  check_index_tensor(c, index, "'index'");
  if (index.rank() != static_cast<int>(target.size()) && index.rank() > 0 && !target.empty())
    c.fail(fmt::format("'index' {} must have the rank of the indexed tensor {}", index.describe(),
                       dims_to_string(target)));
  for (int d = 0; d < index.rank() && d < static_cast<int>(target.size()); ++d)
    if (d != dim && index.size(d) > target[static_cast<size_t>(d)])
      c.fail(fmt::format("'index' {} is larger than the indexed tensor {} in dim {}",
                         index.describe(), dims_to_string(target), d));
  int64_t size = target.empty() ? 1 : target[static_cast<size_t>(dim)];
  std::vector<int64_t> idx = checked_indices(c, index, size, dim, false);
  Dims t_shape = target.empty() ? Dims{} : target;
  for (int64_t i = 0; i < static_cast<int64_t>(idx.size()); ++i) {
    Dims at = unravel(i, index.shape());
    if (!at.empty()) at[static_cast<size_t>(dim)] = idx[static_cast<size_t>(i)];
    f(i, at.empty() ? 0 : ravel(at, t_shape));
  }
}

int64_t dim_arg(const KernelCall& c, const Tensor& x) {
  return x.rank() == 0 ? 0 : wrap_dim(c.int_arg("dim"), x.rank());
}

RuntimeValue gather(const KernelCall& c) {
  Tensor x = c.tensor("self"), index = c.tensor("index");
  int64_t dim = dim_arg(c, x);
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> src = flat_values<T>(x);
    std::vector<T> out(static_cast<size_t>(index.numel()));
    along_dim(c, index, x.shape(), dim, [&](int64_t i, int64_t s) {
      out[static_cast<size_t>(i)] = src[static_cast<size_t>(s)];
    });
    return RuntimeValue(tensor_from(x.dtype(), index.shape(), out));
  });
}

enum class Reduce { None, Sum, Prod, Mean, Max, Min };

Reduce parse_reduce(const KernelCall& c, const std::string& name) {
  if (name == "add" || name == "sum") return Reduce::Sum;
  if (name == "multiply" || name == "prod") return Reduce::Prod;
  if (name == "mean") return Reduce::Mean;
  if (name == "amax") return Reduce::Max;
  if (name == "amin") return Reduce::Min;
  c.fail(fmt::format("unknown reduce '{}'", name));
}

template <typename T>
T combine(Reduce r, T acc, T v) {
  switch (r) {
    case Reduce::Sum:
    case Reduce::Mean:
      return acc + v;
    case Reduce::Prod:
      return acc * v;
    case Reduce::Max:
      if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(v)) return v;
      }
      return std::max(acc, v);
    case Reduce::Min:
      if constexpr (std::is_same_v<T, double>) {
        if (std::isnan(v)) return v;
      }
      return std::min(acc, v);
    default:
      return v;
  }
}

// Scatters src (or the scalar `value`) into a copy of self along `dim`,
// combining with `reduce`; include_self=false starts each written position
// from its first source value (scatter_reduce.two).
RuntimeValue scatter_into(const KernelCall& c, Reduce reduce, bool include_self) {
  Tensor x = c.tensor("self"), index = c.tensor("index");
  int64_t dim = dim_arg(c, x);
  std::optional<Tensor> src = c.has("src") ? std::optional<Tensor>(c.tensor("src")) : std::nullopt;
  if (src) check_same_dtype(c, x, *src, "src");
  if (src)
    for (int d = 0; d < index.rank() && d < src->rank(); ++d)
      if (index.size(d) > src->size(d))
        c.fail(fmt::format("'index' {} is larger than 'src' {} in dim {}", index.describe(),
                           src->describe(), d));
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> out = flat_values<T>(x);
    std::vector<T> src_values = src ? flat_values<T>(*src) : std::vector<T>{};
    T scalar = src ? T{} : scalar_as<T>(c, "value", x.dtype());
    std::vector<int64_t> count(out.size(), include_self ? 1 : 0);
    along_dim(c, index, x.shape(), dim, [&](int64_t i, int64_t t) {
      T v = src ? src_values[static_cast<size_t>(ravel(unravel(i, index.shape()), src->shape()))]
                : scalar;
      T& dst = out[static_cast<size_t>(t)];
      int64_t& n = count[static_cast<size_t>(t)];
      dst = reduce == Reduce::None || n == 0 ? v : to_dtype<T>(combine(reduce, dst, v), x.dtype());
      ++n;
    });
    if (reduce == Reduce::Mean) {
      for (size_t k = 0; k < out.size(); ++k) {
        if (count[k] <= 1) continue;
        if constexpr (std::is_same_v<T, double>) {
          out[k] = cast_double(out[k] / static_cast<double>(count[k]), x.dtype());
        } else {  // integer means floor, like torch
          out[k] = static_cast<int64_t>(
              std::floor(static_cast<double>(out[k]) / static_cast<double>(count[k])));
        }
      }
    }
    return RuntimeValue(tensor_from(x.dtype(), x.shape(), out));
  });
}

RuntimeValue scatter(const KernelCall& c) {
  if (c.has("reduce")) return scatter_into(c, parse_reduce(c, c.str_arg("reduce")), true);
  return scatter_into(c, Reduce::None, true);
}

RuntimeValue scatter_reduce(const KernelCall& c) {
  bool include_self = !c.has("include_self") || c.bool_arg("include_self");
  return scatter_into(c, parse_reduce(c, c.str_arg("reduce")), include_self);
}

// index_add: self.select(dim, index[i]) += alpha * source.select(dim, i).
RuntimeValue index_add(const KernelCall& c) {
  Tensor x = c.tensor("self"), index = c.tensor("index"), source = c.tensor("source");
  check_same_dtype_or_unmodelled(x, source, "source");
  check_index_tensor(c, index, "'index'");
  if (index.rank() > 1) c.fail("'index' must be 0-D or 1-D");
  int64_t dim = dim_arg(c, x);
  int64_t size = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  std::vector<int64_t> idx = checked_indices(c, index, size, dim, false);
  Dims slice_shape = x.shape();
  if (x.rank() > 0) slice_shape[static_cast<size_t>(dim)] = static_cast<int64_t>(idx.size());
  if (source.shape() != slice_shape && !(x.rank() == 0 && source.numel() == 1))
    c.fail(fmt::format("'source' {} must have shape {}", source.describe(),
                       dims_to_string(slice_shape)));
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    T alpha;
    if constexpr (std::is_same_v<T, double>) {
      alpha = c.has("alpha") ? c.double_arg("alpha") : 1.0;
    } else {
      alpha = c.has("alpha") ? c.int_arg("alpha") : 1;
    }
    std::vector<T> out = flat_values<T>(x);
    std::vector<T> src = flat_values<T>(source);
    for (int64_t s = 0; s < static_cast<int64_t>(src.size()); ++s) {
      Dims at = unravel(s, slice_shape);
      if (!at.empty())
        at[static_cast<size_t>(dim)] = idx[static_cast<size_t>(at[static_cast<size_t>(dim)])];
      T& dst = out[static_cast<size_t>(at.empty() ? 0 : ravel(at, x.shape()))];
      dst = to_dtype<T>(dst + alpha * src[static_cast<size_t>(s)], x.dtype());
    }
    return RuntimeValue(tensor_from(x.dtype(), x.shape(), out));
  });
}

RuntimeValue index_select(const KernelCall& c) {
  Tensor x = c.tensor("self"), index = c.tensor("index");
  check_index_tensor(c, index, "'index'");
  // torch's meta types a 2-D index (dim `dim` becomes its numel); the kernels refuse it.
  if (index.rank() > 1) throw UnsupportedConfig("index_select with an index of rank > 1");
  int64_t dim = dim_arg(c, x);
  int64_t size = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  std::vector<int64_t> idx = checked_indices(c, index, size, dim, false);
  Dims shape = x.shape();
  if (x.rank() > 0) shape[static_cast<size_t>(dim)] = static_cast<int64_t>(idx.size());
  return by_storage(x, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> src = flat_values<T>(x);
    std::vector<T> out(static_cast<size_t>(shape_numel(shape)));
    for (int64_t o = 0; o < static_cast<int64_t>(out.size()); ++o) {
      Dims at = unravel(o, shape);
      if (!at.empty())
        at[static_cast<size_t>(dim)] = idx[static_cast<size_t>(at[static_cast<size_t>(dim)])];
      out[static_cast<size_t>(o)] = src[static_cast<size_t>(at.empty() ? 0 : ravel(at, x.shape()))];
    }
    return RuntimeValue(tensor_from(x.dtype(), shape, out));
  });
}

// ---- sorting ---------------------------------------------------------------

// Permutation moving `dim` last (each row of the permuted view is one sort).
Dims dim_last(int rank, int64_t dim) {
  Dims perm;
  for (int64_t i = 0; i < rank; ++i)
    if (i != dim) perm.push_back(i);
  if (rank > 0) perm.push_back(dim);
  return perm;
}

// Stable order of one row: ascending or descending, NaN above every number.
template <typename T>
std::vector<int64_t> sorted_order(const T* row, int64_t len, bool descending) {
  std::vector<int64_t> order(static_cast<size_t>(len));
  std::iota(order.begin(), order.end(), 0);
  auto above = [](T a, T b) {  // a sorts after b in ascending order
    if constexpr (std::is_same_v<T, double>) {
      if (std::isnan(a)) return !std::isnan(b);
      if (std::isnan(b)) return false;
    }
    return a > b;
  };
  std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
    T a = row[i], b = row[j];
    return descending ? above(a, b) : above(b, a);
  });
  return order;
}

// The first `k` of each row's stable order along `dim`: (values, indices).
std::pair<Tensor, Tensor> sort_along(const Tensor& x, int64_t dim, bool descending, int64_t k) {
  Dims perm = dim_last(x.rank(), dim);
  int64_t len = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  Dims out_shape = x.shape();
  if (x.rank() > 0) out_shape[static_cast<size_t>(dim)] = k;
  Tensor values = Tensor::zeros(x.dtype(), out_shape);
  Tensor indices = Tensor::zeros(DType::Int64, out_shape);
  Tensor moved = x.rank() == 0 ? x.reshape({1}) : x.permute(perm);
  int64_t rows = len == 0 ? 0 : x.numel() / len;
  std::vector<int64_t> idx_out(static_cast<size_t>(rows * k));
  auto fill = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> v = flat_values<T>(moved);
    std::vector<T> val_out(static_cast<size_t>(rows * k));
    for (int64_t r = 0; r < rows; ++r) {
      std::vector<int64_t> order = sorted_order(v.data() + r * len, len, descending);
      for (int64_t j = 0; j < k; ++j) {
        idx_out[static_cast<size_t>(r * k + j)] = order[static_cast<size_t>(j)];
        val_out[static_cast<size_t>(r * k + j)] =
            v[static_cast<size_t>(r * len + order[static_cast<size_t>(j)])];
      }
    }
    Tensor view = x.rank() == 0 ? values.reshape({1}) : values.permute(perm);
    if constexpr (std::is_same_v<T, double>) {
      view.write_values(val_out);
    } else {
      view.write_int_values(val_out);
    }
    return RuntimeValue();
  };
  by_storage(x, fill);
  (x.rank() == 0 ? indices.reshape({1}) : indices.permute(perm)).write_int_values(idx_out);
  return {values, indices};
}

int64_t sort_dim(const KernelCall& c, const Tensor& x) {
  int64_t dim = c.has("dim") ? c.int_arg("dim") : -1;
  return x.rank() == 0 ? 0 : wrap_dim(dim, x.rank());
}

bool descending_arg(const KernelCall& c) {
  return c.has("descending") && c.bool_arg("descending");
}

RuntimeValue sort(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t dim = sort_dim(c, x);
  int64_t len = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  auto [values, indices] = sort_along(x, dim, descending_arg(c), len);
  return RuntimeValue(std::vector<RuntimeValue>{values, indices});
}

RuntimeValue argsort(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t dim = sort_dim(c, x);
  int64_t len = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  return RuntimeValue(sort_along(x, dim, descending_arg(c), len).second);
}

// topk: the k largest (smallest) in descending (ascending) order; ties keep
// the lower index first. sorted=False returns the same (sorted) order.
RuntimeValue topk(const KernelCall& c) {
  Tensor x = c.tensor("self");
  int64_t dim = sort_dim(c, x);
  int64_t len = x.rank() == 0 ? 1 : x.size(static_cast<int>(dim));
  int64_t k = c.int_arg("k");
  if (k < 0 || k > len) c.fail(fmt::format("k = {} is out of range for a dim of size {}", k, len));
  bool largest = !c.has("largest") || c.bool_arg("largest");
  auto [values, indices] = sort_along(x, dim, largest, k);
  return RuntimeValue(std::vector<RuntimeValue>{values, indices});
}

}  // namespace

void register_indexing_kernels(KernelTable& t) {
  t["aten::index"] = index_tensor;
  t["aten::_unsafe_index"] = index_tensor;
  t["aten::index_put"] = index_put;
  t["aten::_unsafe_index_put"] = index_put;
  t["aten::index_add"] = index_add;
  t["aten::index_select"] = index_select;
  t["aten::gather"] = gather;
  t["aten::scatter"] = scatter;
  t["aten::scatter_add"] = [](const KernelCall& c) { return scatter_into(c, Reduce::Sum, true); };
  t["aten::scatter_reduce"] = scatter_reduce;
  t["aten::topk"] = topk;
  t["aten::sort"] = sort;
  t["aten::argsort"] = argsort;
}

}  // namespace eqfuse
