// Layout kernels. Ops that are views in torch (view, reshape when strides
// allow, permute, transpose, expand, slice, select, squeeze, unsqueeze,
// split, contiguous of a contiguous tensor) return tensors ALIASING their
// input, so later in-place writes behave as in torch. cat/stack copy.
#include "interp/kernels.hpp"

namespace eqfuse {
namespace {

int64_t opt_int_or(const KernelCall& c, std::string_view name, int64_t fallback) {
  if (!c.has(name) || c.is_none(name)) return fallback;
  return c.int_arg(name);
}

std::vector<RuntimeValue> to_values(const std::vector<Tensor>& ts) {
  return std::vector<RuntimeValue>(ts.begin(), ts.end());
}

std::vector<Tensor> split_by_sizes(const Tensor& x, const std::vector<int64_t>& sizes,
                                   int64_t dim) {
  dim = wrap_dim(dim, x.rank());
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  if (total != x.size(static_cast<int>(dim))) {
    throw std::invalid_argument(fmt::format("split sizes {} do not sum to dim size {}",
                                            dims_to_string(sizes), x.size(static_cast<int>(dim))));
  }
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t s : sizes) {
    out.push_back(x.slice(dim, start, start + s, 1));
    start += s;
  }
  return out;
}

// triu (upper) / tril: zeros where the element of the last two dims lies
// below (above) the diagonal shifted by `diagonal`.
Tensor triangle(const KernelCall& c, bool upper) {
  Tensor out = c.tensor("self").clone();
  if (out.rank() < 2) c.fail("expects a tensor of at least 2 dims");
  const int64_t diagonal = c.has("diagonal") ? c.int_arg("diagonal") : 0;
  const int64_t rows = out.size(-2), cols = out.size(-1);
  for (int64_t i = 0; i < out.numel(); ++i) {
    const int64_t col = i % cols, row = (i / cols) % rows;
    const bool keep = upper ? col - row >= diagonal : col - row <= diagonal;
    if (keep) continue;
    if (out.is_int_storage()) {
      out.set_flat_int(i, 0);
    } else {
      out.set_flat(i, 0.0);
    }
  }
  return out;
}

// view, reshape and their aliases, flatten and unflatten: a new shape over the same elements.
void register_reshapes(KernelTable& t) {
  t["aten::view"] = [](const KernelCall& c) {
    if (c.has("dtype")) throw UnsupportedConfig("view.dtype (bit reinterpretation)");
    return RuntimeValue(c.tensor("self").view(c.int_list("size")));
  };
  t["aten::reshape"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").reshape(c.int_list("shape")));
  };
  t["aten::_unsafe_view"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").reshape(c.int_list("size")));
  };
  // Replaced by register_strided_views' as_strided form, registered after this one.
  t["aten::_reshape_alias"] = t["aten::_unsafe_view"];
  t["aten::view_copy"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").clone().view(c.int_list("size")));
  };
  t["aten::flatten"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (x.rank() == 0) return RuntimeValue(x.reshape({1}));
    int64_t start = wrap_dim(opt_int_or(c, "start_dim", 0), x.rank());
    int64_t end = wrap_dim(opt_int_or(c, "end_dim", -1), x.rank());
    if (start > end) c.fail("flatten: start_dim after end_dim");
    Dims shape;
    for (int64_t i = 0; i < x.rank(); ++i) {
      if (i <= start || i > end) {
        shape.push_back(x.shape()[static_cast<size_t>(i)]);
      } else {
        shape.back() *= x.shape()[static_cast<size_t>(i)];
      }
    }
    return RuntimeValue(x.reshape(shape));
  };
  t["aten::unflatten"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = wrap_dim(c.int_arg("dim"), x.rank());
    Dims sizes = infer_size(c.int_list("sizes"), x.size(static_cast<int>(dim)));
    Dims shape = x.shape();
    shape.erase(shape.begin() + dim);
    shape.insert(shape.begin() + dim, sizes.begin(), sizes.end());
    return RuntimeValue(x.view(shape));
  };
}

// Views that move, broadcast, add, drop or index dims without copying.
void register_dim_views(KernelTable& t) {
  t["aten::transpose"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").transpose(c.int_arg("dim0"), c.int_arg("dim1")));
  };
  t["aten::t"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    if (x.rank() > 2) c.fail("t() expects a tensor with <= 2 dimensions");
    return RuntimeValue(x.rank() < 2 ? x : x.transpose(0, 1));
  };
  t["aten::permute"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").permute(c.int_list("dims")));
  };
  t["aten::expand"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").expand(c.int_list("size")));
  };
  t["aten::expand_as"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").expand(c.tensor("other").shape()));
  };
  t["aten::unsqueeze"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").unsqueeze(c.int_arg("dim")));
  };
  t["aten::squeeze"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::vector<int64_t> dims;
    if (c.has("dim") && !c.is_none("dim")) {
      dims = c.int_list("dim");
    } else {
      for (int64_t i = 0; i < x.rank(); ++i) dims.push_back(i);
    }
    for (int64_t& d : dims) d = x.rank() == 0 ? 0 : wrap_dim(d, x.rank());
    std::sort(dims.rbegin(), dims.rend());  // drop from the back so indices stay valid
    for (int64_t d : dims) x = x.squeeze(d);
    return RuntimeValue(x);
  };
  t["aten::slice"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = opt_int_or(c, "dim", 0);
    int64_t n = x.size(static_cast<int>(dim));
    return RuntimeValue(
        x.slice(dim, opt_int_or(c, "start", 0), opt_int_or(c, "end", n), opt_int_or(c, "step", 1)));
  };
  t["aten::narrow"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = c.int_arg("dim");
    int64_t start = c.int_arg("start");
    if (start < 0) start += x.size(static_cast<int>(dim));
    return RuntimeValue(x.slice(dim, start, start + c.int_arg("length"), 1));
  };
  t["aten::select"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").select(c.int_arg("dim"), c.int_arg("index")));
  };
}

// as_strided and _reshape_alias: views with explicit sizes and strides.
void register_strided_views(KernelTable& t) {
  t["aten::as_strided"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t offset = opt_int_or(c, "storage_offset", x.offset());
    return RuntimeValue(x.as_strided(c.int_list("size"), c.int_list("stride"), offset));
  };
  t["aten::_reshape_alias"] = [](const KernelCall& c) {  // as_strided keeping the offset
    Tensor x = c.tensor("self");
    return RuntimeValue(x.as_strided(c.int_list("size"), c.int_list("stride"), x.offset()));
  };
}

// triu / tril (copies with a triangle zeroed) and contiguous.
void register_triangles_and_contiguous(KernelTable& t) {
  t["aten::triu"] = [](const KernelCall& c) { return RuntimeValue(triangle(c, true)); };
  t["aten::tril"] = [](const KernelCall& c) { return RuntimeValue(triangle(c, false)); };
  t["aten::contiguous"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").contiguous());
  };
}

// split, split_with_sizes, chunk and unbind: views of consecutive pieces along a dim.
void register_splits(KernelTable& t) {
  t["aten::split"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = opt_int_or(c, "dim", 0);
    if (c.has("split_sizes")) {
      return RuntimeValue(to_values(split_by_sizes(x, c.int_list("split_sizes"), dim)));
    }
    if (c.value("split_size").is_list()) {  // split.sizes overload
      return RuntimeValue(to_values(split_by_sizes(x, c.int_list("split_size"), dim)));
    }
    int64_t step = c.int_arg("split_size");
    if (step <= 0) c.fail("split_size must be positive");
    int64_t n = x.size(static_cast<int>(dim));
    std::vector<int64_t> sizes;
    for (int64_t s = 0; s < n; s += step) sizes.push_back(std::min(step, n - s));
    if (sizes.empty()) sizes.push_back(0);
    return RuntimeValue(to_values(split_by_sizes(x, sizes, dim)));
  };
  t["aten::split_with_sizes"] = [](const KernelCall& c) {
    return RuntimeValue(to_values(
        split_by_sizes(c.tensor("self"), c.int_list("split_sizes"), opt_int_or(c, "dim", 0))));
  };
  t["aten::chunk"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = opt_int_or(c, "dim", 0);
    int64_t chunks = c.int_arg("chunks");
    if (chunks <= 0) c.fail("chunks must be positive");
    int64_t n = x.size(static_cast<int>(dim));
    int64_t step = (n + chunks - 1) / chunks;
    std::vector<int64_t> sizes;
    for (int64_t s = 0; s < n; s += step) sizes.push_back(std::min(step, n - s));
    return RuntimeValue(to_values(split_by_sizes(x, sizes, dim)));
  };
  t["aten::unbind"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t dim = opt_int_or(c, "dim", 0);
    std::vector<RuntimeValue> out;
    for (int64_t i = 0; i < x.size(static_cast<int>(dim)); ++i) out.emplace_back(x.select(dim, i));
    return RuntimeValue(std::move(out));
  };
}

// cat and stack: copies of several tensors joined along a dim.
void register_joins(KernelTable& t) {
  t["aten::cat"] = [](const KernelCall& c) {
    return RuntimeValue(concatenate(c.tensor_list("tensors"), opt_int_or(c, "dim", 0)));
  };
  t["aten::stack"] = [](const KernelCall& c) {
    std::vector<Tensor> ts = c.tensor_list("tensors");
    if (ts.empty()) c.fail("stack expects a non-empty list");
    int64_t dim = wrap_dim(opt_int_or(c, "dim", 0), ts[0].rank() + 1);
    for (Tensor& x : ts) x = x.unsqueeze(dim);
    return RuntimeValue(concatenate(ts, dim));
  };
}

// repeat and constant_pad_nd: copies grown (or, for negative pads, cropped) along dims.
void register_repeat_and_pad(KernelTable& t) {
  t["aten::repeat"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::vector<int64_t> reps = c.int_list("repeats");
    if (reps.size() < static_cast<size_t>(x.rank())) c.fail("repeat needs at least rank() repeats");
    while (static_cast<size_t>(x.rank()) < reps.size()) x = x.unsqueeze(0);
    // out[q * s + r] = x[r] along every dim: x viewed as [1, s0, 1, s1, ...]
    // expanded to [rep0, s0, rep1, s1, ...] is exactly the repeated tensor.
    Dims shape = x.shape(), split_shape, repeated_shape;
    for (size_t i = 0; i < shape.size(); ++i) {
      split_shape.insert(split_shape.end(), {1, shape[i]});
      repeated_shape.insert(repeated_shape.end(), {reps[i], shape[i]});
      shape[i] *= reps[i];
    }
    Tensor out = Tensor::zeros(x.dtype(), repeated_shape);
    out.copy_from(x.reshape(split_shape).expand(repeated_shape));
    return RuntimeValue(out.view(shape));
  };
  // pad = [last_lo, last_hi, prev_lo, prev_hi, ...]; negative pads crop.
  t["aten::constant_pad_nd"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    std::vector<int64_t> pad = c.int_list("pad");
    double value = c.has("value") ? c.double_arg("value") : 0.0;
    if (pad.size() % 2 != 0 || pad.size() / 2 > static_cast<size_t>(x.rank()))
      c.fail("bad pad list");
    Dims shape = x.shape();
    Dims lo(shape.size(), 0);
    for (size_t k = 0; k < pad.size() / 2; ++k) {
      size_t d = shape.size() - 1 - k;
      lo[d] = pad[2 * k];
      shape[d] += pad[2 * k] + pad[2 * k + 1];
      if (shape[d] < 0) c.fail("padding makes a dimension negative");
    }
    Tensor out = make_tensor(x.dtype(), shape, [value](int64_t) { return value; });
    // The part of x that lands inside the output (negative pads crop x).
    Tensor dst = out, src = x;
    for (size_t d = 0; d < shape.size(); ++d) {
      int64_t x_start = std::max<int64_t>(0, -lo[d]), out_start = std::max<int64_t>(0, lo[d]);
      int64_t len = std::min(x.shape()[d] - x_start, shape[d] - out_start);
      if (len <= 0) return RuntimeValue(out);
      dst = dst.slice(static_cast<int64_t>(d), out_start, out_start + len, 1);
      src = src.slice(static_cast<int64_t>(d), x_start, x_start + len, 1);
    }
    dst.copy_from(src);
    return RuntimeValue(out);
  };
}

// Functional inverses of views (reinplace turns them back into view + copy_).
void register_view_scatters(KernelTable& t) {
  t["aten::slice_scatter"] = [](const KernelCall& c) {
    Tensor out = c.tensor("self").clone();
    int64_t dim = opt_int_or(c, "dim", 0);
    int64_t n = out.size(static_cast<int>(dim));
    out.slice(dim, opt_int_or(c, "start", 0), opt_int_or(c, "end", n), opt_int_or(c, "step", 1))
        .copy_from(c.tensor("src"));
    return RuntimeValue(out);
  };
  t["aten::select_scatter"] = [](const KernelCall& c) {
    Tensor out = c.tensor("self").clone();
    out.select(c.int_arg("dim"), c.int_arg("index")).copy_from(c.tensor("src"));
    return RuntimeValue(out);
  };
}

void register_metadata(KernelTable& t) {
  t["aten::sym_size"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").size(static_cast<int>(c.int_arg("dim"))));
  };
  t["aten::sym_stride"] = [](const KernelCall& c) {
    Tensor x = c.tensor("self");
    int64_t d = wrap_dim(c.int_arg("dim"), x.rank());
    return RuntimeValue(x.strides()[static_cast<size_t>(d)]);
  };
  t["aten::sym_numel"] = [](const KernelCall& c) { return RuntimeValue(c.tensor("self").numel()); };
  t["aten::sym_storage_offset"] = [](const KernelCall& c) {
    return RuntimeValue(c.tensor("self").offset());
  };
  t["aten::size"] = t["aten::sym_size"];
}

}  // namespace

Tensor concatenate(const std::vector<Tensor>& inputs, int64_t dim) {
  // torch skips legacy empty 1-D tensors of shape (0,) in cat.
  std::vector<Tensor> ts;
  for (const Tensor& t : inputs) {
    if (!(t.rank() == 1 && t.numel() == 0)) ts.push_back(t);
  }
  if (ts.empty()) return inputs.empty() ? Tensor::zeros(DType::Float32, {0}) : inputs[0].clone();
  DType d = ts[0].dtype();
  for (const Tensor& t : ts) d = promote_types(d, t.dtype());
  dim = wrap_dim(dim, ts[0].rank());
  Dims shape = ts[0].shape();
  int64_t total = 0;
  for (const Tensor& t : ts) {
    if (t.rank() != ts[0].rank())
      throw std::invalid_argument("cat: tensors must have the same rank");
    for (int i = 0; i < t.rank(); ++i) {
      if (i != dim && t.shape()[static_cast<size_t>(i)] != shape[static_cast<size_t>(i)]) {
        throw std::invalid_argument(fmt::format("cat: shapes {} and {} differ outside dim {}",
                                                dims_to_string(t.shape()), dims_to_string(shape),
                                                dim));
      }
    }
    total += t.size(static_cast<int>(dim));
  }
  shape[static_cast<size_t>(dim)] = total;
  Tensor out = Tensor::zeros(d, shape);
  int64_t start = 0;
  for (const Tensor& t : ts) {
    int64_t len = t.size(static_cast<int>(dim));
    out.slice(dim, start, start + len, 1).copy_from(t);
    start += len;
  }
  return out;
}

void register_layout_kernels(KernelTable& table) {
  register_reshapes(table);
  register_dim_views(table);
  register_strided_views(table);
  register_triangles_and_contiguous(table);
  register_splits(table);
  register_joins(table);
  register_repeat_and_pad(table);
  register_view_scatters(table);
  register_metadata(table);
}

}  // namespace eqfuse
