// Meta functions for layout ops: views (view/reshape with -1 inference over
// symbolic numel, flatten, transpose, permute, expand, (un)squeeze, slice,
// select, split) and data-movement copies (cat, repeat, pad, scatter, copy).
#include <algorithm>
#include <limits>
#include <map>
#include <set>

#include "base/checked_int.hpp"
#include "graph/meta/meta_common.hpp"

namespace eqfuse {
namespace {

using meta::tensor;

const TensorType* self_of(const CallContext& ctx) {
  return meta::tensor_arg(ctx, "self");
}

using meta::same_as_self;

SymInt product(const Shape& s) {
  SymInt p(1);
  for (const SymInt& d : s) p = p * d;
  return p;
}

// The integer k with a == b * k, if there is one (checked exactly; the
// candidate comes from evaluating both at an arbitrary point).
std::optional<int64_t> constant_ratio(const SymInt& a, const SymInt& b) {
  std::map<std::string, int64_t, std::less<>> point;
  for (const std::string& atom : a.atoms()) point[atom] = 7;
  for (const std::string& atom : b.atoms()) point[atom] = 7;
  try {
    auto av = a.evaluate(point), bv = b.evaluate(point);
    // -1 is excluded: INT64_MIN / -1 does not fit (and a ratio of -1 is no size).
    if (!av || !bv || *bv == 0 || *bv == -1 || *av % *bv != 0) return std::nullopt;
    int64_t k = *av / *bv;
    if (a != b * SymInt(k)) return std::nullopt;
    return k;
  } catch (const IntOverflow&) {
    return std::nullopt;  // the probe point leaves int64: no ratio found, none assumed
  }
}

// product(num) // product(den), cancelling equal and proportional factors
// first so that symbolic quotients such as (8*s0*s1) // (4*s1) come out
// exact (2*s0) instead of as an opaque floor division.
SymInt divide_products(Shape num, Shape den) {
  for (auto d = den.begin(); d != den.end();) {
    auto n = std::find(num.begin(), num.end(), *d);
    if (n != num.end()) {
      num.erase(n);
      d = den.erase(d);
    } else {
      ++d;
    }
  }
  for (SymInt& d : den) {
    if (d.is_constant()) continue;
    for (auto n = num.begin(); n != num.end(); ++n) {
      if (auto k = constant_ratio(*n, d)) {  // n == d * k
        *n = SymInt(*k);
        d = SymInt(1);
        break;
      }
      if (auto k = constant_ratio(d, *n)) {  // d == n * k
        d = SymInt(*k);
        num.erase(n);
        break;
      }
    }
  }
  return product(num).floordiv(product(den));
}

// view/reshape: the size list may contain one -1, inferred from the numel.
ValueType view_like(const CallContext& ctx, std::string_view size_name) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  DType d = self->dtype;
  auto sizes = meta::symint_list_arg(ctx, size_name);
  if (!sizes) return tensor(d, std::nullopt);
  int infer = -1;
  Shape out;
  for (size_t i = 0; i < sizes->size(); ++i) {
    const SymInt& s = (*sizes)[i];
    if (s == SymInt(-1)) {
      if (infer >= 0) meta::fail("argument '{}': only one dimension can be -1", size_name);
      infer = static_cast<int>(i);
    } else if (s.constant() && *s.constant() < 0) {
      meta::fail("argument '{}': invalid size {}", size_name, *s.constant());
    }
    out.push_back(s);
  }
  if (!self->shape) {
    if (infer >= 0) return tensor(d, std::nullopt);
    return tensor(d, out);
  }
  SymInt numel = product(*self->shape);
  if (infer >= 0) {
    Shape rest = out;
    rest.erase(rest.begin() + infer);
    SymInt known = product(rest);
    if (known == SymInt(0))
      meta::fail("argument '{}': cannot infer -1 with a zero-size dim", size_name);
    if (numel.constant() && known.constant() && *numel.constant() % *known.constant() != 0)
      meta::fail("argument '{}': shape {} is invalid for input of size {}", size_name,
                 meta::shape_str(out), numel.to_string());
    out[static_cast<size_t>(infer)] = divide_products(*self->shape, rest);
  } else if (meta::dims_differ(numel, product(out))) {
    meta::fail("argument '{}': shape {} is invalid for input of shape {}", size_name,
               meta::shape_str(out), meta::shape_str(*self->shape));
  }
  return tensor(d, out);
}

ValueType view(const CallContext& ctx) {
  return view_like(ctx, "size");
}
ValueType reshape(const CallContext& ctx) {
  return view_like(ctx, "shape");
}

ValueType flatten(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  const Shape& s = *self->shape;
  int64_t r = static_cast<int64_t>(s.size());
  if (r == 0) return tensor(self->dtype, Shape{1});
  int64_t start = meta::wrap_dim(meta::require_int(ctx, "start_dim"), r, "start_dim");
  int64_t end = meta::wrap_dim(meta::require_int(ctx, "end_dim"), r, "end_dim");
  if (start > end) meta::fail("flatten: start_dim {} is after end_dim {}", start, end);
  Shape out(s.begin(), s.begin() + start);
  out.push_back(product(Shape(s.begin() + start, s.begin() + end + 1)));
  out.insert(out.end(), s.begin() + end + 1, s.end());
  return tensor(self->dtype, out);
}

ValueType transpose(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  int64_t r = static_cast<int64_t>(s.size());
  int64_t a = meta::wrap_dim(meta::require_int(ctx, "dim0"), r, "dim0");
  int64_t b = meta::wrap_dim(meta::require_int(ctx, "dim1"), r, "dim1");
  if (r > 0) std::swap(s[static_cast<size_t>(a)], s[static_cast<size_t>(b)]);
  return tensor(self->dtype, s);
}

ValueType t(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  if (s.size() > 2) meta::fail("t() expects a tensor with <= 2 dims, got {}", s.size());
  std::reverse(s.begin(), s.end());
  return tensor(self->dtype, s);
}

ValueType permute(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  auto dims = meta::int_list_arg(ctx, "dims");
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  const Shape& s = *self->shape;
  int64_t r = static_cast<int64_t>(s.size());
  if (!dims || static_cast<int64_t>(dims->size()) != r)
    meta::fail("argument 'dims' must list {} dims", r);
  std::set<int64_t> seen;
  Shape out;
  for (int64_t d : *dims) {
    int64_t w = meta::wrap_dim(d, r, "dims entry");
    if (!seen.insert(w).second) meta::fail("argument 'dims' repeats dim {}", w);
    out.push_back(s[static_cast<size_t>(w)]);
  }
  return tensor(self->dtype, out);
}

ValueType expand(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  DType d = self ? self->dtype : DType::Unknown;
  auto sizes = meta::symint_list_arg(ctx, "size");
  if (!self) return ValueType::unknown();
  if (!sizes || !self->shape) return tensor(d, std::nullopt);
  const Shape& s = *self->shape;
  if (sizes->size() < s.size())
    meta::fail("argument 'size' has {} dims, fewer than the tensor's {}", sizes->size(), s.size());
  size_t lead = sizes->size() - s.size();
  Shape out(sizes->size());
  for (size_t i = 0; i < sizes->size(); ++i) {
    const SymInt& want = (*sizes)[i];
    if (i < lead) {
      if (want == SymInt(-1)) meta::fail("argument 'size': -1 is not allowed for a new dim {}", i);
      out[i] = want;
      continue;
    }
    const SymInt& have = s[i - lead];
    if (want == SymInt(-1) || want == have) {
      out[i] = have;
    } else if (have == SymInt(1)) {
      out[i] = want;
    } else if (meta::dims_differ(want, have)) {
      meta::fail("argument 'size': cannot expand dim {} of size {} to {}", i, have.to_string(),
                 want.to_string());
    } else {
      out[i] = want;
    }
  }
  return tensor(d, out);
}

ValueType unsqueeze(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  int64_t dim =
      meta::wrap_dim(meta::require_int(ctx, "dim"), static_cast<int64_t>(s.size()) + 1, "dim");
  s.insert(s.begin() + dim, SymInt(1));
  return tensor(self->dtype, s);
}

// Removes the listed dims that are 1 (symbolic dims are kept: torch assumes
// they are not 1).
ValueType squeeze_dims(const TensorType& self, const std::vector<int64_t>& dims) {
  if (!self.shape) return tensor(self.dtype, std::nullopt);
  const Shape& s = *self.shape;
  int64_t r = static_cast<int64_t>(s.size());
  std::set<int64_t> drop;
  for (int64_t d : dims) {
    int64_t w = meta::wrap_dim(d, r, "dim");
    if (r > 0 && s[static_cast<size_t>(w)] == SymInt(1)) drop.insert(w);
  }
  Shape out;
  for (int64_t i = 0; i < r; ++i)
    if (!drop.count(i)) out.push_back(s[static_cast<size_t>(i)]);
  return tensor(self.dtype, out);
}

ValueType squeeze_all(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  std::vector<int64_t> all;
  for (int i = 0; i < self->rank(); ++i) all.push_back(i);
  return squeeze_dims(*self, all);
}

ValueType squeeze_dim(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  return squeeze_dims(*self, {meta::require_int(ctx, "dim")});
}

ValueType squeeze_dim_list(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  return squeeze_dims(*self, meta::int_list_arg(ctx, "dim").value_or(std::vector<int64_t>{}));
}

// Length of x[start:end:step] along a dim of size `size`; nullopt when it
// depends on how symbolic bounds compare.
std::optional<SymInt> slice_length(const SymInt& size, const std::optional<SymInt>& start,
                                   const std::optional<SymInt>& end, int64_t step) {
  constexpr int64_t kHuge = std::numeric_limits<int64_t>::max() / 2;
  auto normalize = [&](const std::optional<SymInt>& v,
                       const SymInt& dflt) -> std::optional<SymInt> {
    if (!v) return dflt;
    auto c = v->constant();
    if (c && *c >= kHuge) return size;
    if (auto sc = size.constant(); c && sc) {
      int64_t x = *c < 0 ? *c + *sc : *c;
      return SymInt(std::clamp<int64_t>(x, 0, *sc));
    }
    // A symbolic size or bound: assume the bound lies within [-size, size], as
    // the guards torch records for the dump do (torch prints `s0 - 1` for x[1:]).
    if (c && *c < 0) return size + *v;
    return v;
  };
  auto s = normalize(start, SymInt(0));
  auto e = normalize(end, size);
  if (!s || !e) return std::nullopt;
  SymInt len = *e - *s;
  if (auto c = len.constant()) len = SymInt(std::max<int64_t>(*c, 0));
  if (step == 1) return len;
  return (len + SymInt(step - 1)).floordiv(SymInt(step));
}

ValueType slice(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  int64_t r = static_cast<int64_t>(s.size());
  if (r == 0) meta::fail("slice() cannot be applied to a 0-dim tensor");
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), r, "dim");
  int64_t step = meta::require_int(ctx, "step");
  if (step <= 0) meta::fail("argument 'step' must be positive, got {}", step);
  auto start = meta::symint_arg(ctx, "start");
  auto end = meta::symint_arg(ctx, "end");
  if ((!ctx.is_none("start") && !start) || (!ctx.is_none("end") && !end))
    return tensor(self->dtype, std::nullopt);
  auto len = slice_length(s[static_cast<size_t>(dim)], start, end, step);
  if (!len) return tensor(self->dtype, std::nullopt);
  s[static_cast<size_t>(dim)] = *len;
  return tensor(self->dtype, s);
}

ValueType select(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (!self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  int64_t r = static_cast<int64_t>(s.size());
  if (r == 0) meta::fail("select() cannot be applied to a 0-dim tensor");
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), r, "dim");
  auto index = meta::symint_arg(ctx, "index");
  auto size = s[static_cast<size_t>(dim)].constant();
  if (index && index->constant() && size) {
    int64_t i = *index->constant();
    if (i < -*size || i >= *size)
      meta::fail("argument 'index' {} is out of range for dim {} of size {}", i, dim, *size);
  }
  s.erase(s.begin() + dim);
  return tensor(self->dtype, s);
}

ValueType as_strided(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  auto sizes = meta::symint_list_arg(ctx, "size");
  DType d = self ? self->dtype : DType::Unknown;
  if (!self) return ValueType::unknown();
  return tensor(d, sizes ? std::optional<Shape>(*sizes) : std::nullopt);
}

// Pieces of `self` along `dim` with the given sizes.
ValueType split_pieces(const TensorType& self, int64_t dim, const std::vector<SymInt>& sizes) {
  std::vector<ValueType> parts;
  for (const SymInt& len : sizes) {
    Shape s = *self.shape;
    s[static_cast<size_t>(dim)] = len;
    parts.push_back(tensor(self.dtype, s));
  }
  return meta::tuple(std::move(parts));
}

ValueType split(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self || !self->shape) return ValueType::unknown();  // the number of pieces is unknown
  int64_t r = self->rank();
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), r, "dim");
  auto split = meta::symint_arg(ctx, "split_size");
  auto total = (*self->shape)[static_cast<size_t>(dim)].constant();
  if (!split || !split->constant() || !total) return ValueType::unknown();
  int64_t k = *split->constant();
  if (k <= 0 && *total > 0) meta::fail("argument 'split_size' must be positive, got {}", k);
  std::vector<SymInt> sizes;
  if (*total == 0) sizes.push_back(SymInt(0));
  // Steps by k without passing *total, so `off` never leaves int64.
  for (int64_t off = 0; off < *total; off += std::min(k, *total - off))
    sizes.push_back(SymInt(std::min(k, *total - off)));
  return split_pieces(*self, dim, sizes);
}

ValueType split_with_sizes(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  auto sizes = meta::symint_list_arg(ctx, "split_sizes");
  if (!self || !self->shape || !sizes) return ValueType::unknown();
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  SymInt sum(0);
  for (const SymInt& s : *sizes) sum = sum + s;
  const SymInt& have = (*self->shape)[static_cast<size_t>(dim)];
  if (meta::dims_differ(sum, have))
    meta::fail("argument 'split_sizes' sums to {} but dim {} has size {}", sum.to_string(), dim,
               have.to_string());
  return split_pieces(*self, dim, *sizes);
}

ValueType unbind(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self || !self->shape) return ValueType::unknown();
  int64_t dim = meta::wrap_dim(meta::require_int(ctx, "dim"), self->rank(), "dim");
  auto n = (*self->shape)[static_cast<size_t>(dim)].constant();
  if (!n) return ValueType::unknown();
  Shape s = *self->shape;
  s.erase(s.begin() + dim);
  return meta::tuple(std::vector<ValueType>(static_cast<size_t>(*n), tensor(self->dtype, s)));
}

ValueType cat(const CallContext& ctx) {
  bool shape_known = true;
  std::optional<Shape> out;
  int64_t dim_arg = meta::require_int(ctx, "dim");
  int64_t dim = 0;
  DType d = meta::for_each_tensor_item(ctx, "tensors", [&](size_t index, const TensorType* t) {
    if (t == nullptr || !t->shape) {
      shape_known = false;
    } else if (t->shape->size() == 1 && (*t->shape)[0] == SymInt(0)) {
      // Legacy: 1-D empty tensors are skipped.
    } else if (!out) {
      out = *t->shape;
      dim = meta::wrap_dim(dim_arg, static_cast<int64_t>(out->size()), "dim");
    } else {
      const Shape& s = *t->shape;
      if (s.size() != out->size())
        meta::fail("argument 'tensors'[{}] has rank {}, expected {}", index, s.size(), out->size());
      for (size_t i = 0; i < s.size(); ++i) {
        if (static_cast<int64_t>(i) == dim) {
          (*out)[i] = (*out)[i] + s[i];
        } else if (meta::dims_differ((*out)[i], s[i])) {
          meta::fail("argument 'tensors'[{}]: size {} at dim {} does not match {}", index,
                     s[i].to_string(), i, (*out)[i].to_string());
        }
      }
    }
  });
  if (!out && shape_known) out = Shape{0};
  return tensor(d, shape_known ? out : std::nullopt);
}

ValueType repeat(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  auto reps = meta::symint_list_arg(ctx, "repeats");
  if (!reps || !self->shape) return tensor(self->dtype, std::nullopt);
  const Shape& s = *self->shape;
  if (reps->size() < s.size())
    meta::fail("argument 'repeats' has {} entries, fewer than the tensor's {} dims", reps->size(),
               s.size());
  Shape out = *reps;
  size_t lead = reps->size() - s.size();
  for (size_t i = 0; i < s.size(); ++i) out[lead + i] = out[lead + i] * s[i];
  return tensor(self->dtype, out);
}

ValueType constant_pad(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  auto pad = meta::symint_list_arg(ctx, "pad");
  if (!pad || !self->shape) return tensor(self->dtype, std::nullopt);
  Shape s = *self->shape;
  if (pad->size() % 2 != 0 || pad->size() / 2 > s.size())
    meta::fail("argument 'pad' must have an even length of at most {}", 2 * s.size());
  for (size_t i = 0; i < pad->size() / 2; ++i) {
    SymInt& d = s[s.size() - 1 - i];
    d = d + (*pad)[2 * i] + (*pad)[2 * i + 1];
    if (auto c = d.constant(); c && *c < 0) meta::fail("argument 'pad' makes a dim negative");
  }
  return tensor(self->dtype, s);
}

// copy_ / copy: the result is `self`; `src` must broadcast to it.
ValueType copy_into_self(const CallContext& ctx) {
  const TensorType* self = self_of(ctx);
  if (!self) return ValueType::unknown();
  if (self->shape) {
    if (auto src = meta::shape_arg(ctx, "src")) {
      Shape b = meta::broadcast(*self->shape, *src, "self", "src");
      if (b.size() != self->shape->size())
        meta::fail("argument 'src' {} has more dims than 'self' {}", meta::shape_str(*src),
                   meta::shape_str(*self->shape));
      for (size_t i = 0; i < b.size(); ++i)
        if (meta::dims_differ(b[i], (*self->shape)[i]))
          meta::fail("argument 'src' {} does not broadcast to 'self' {}", meta::shape_str(*src),
                     meta::shape_str(*self->shape));
    }
  }
  return tensor(self->dtype, self->shape);
}

}  // namespace

void add_layout_meta(OpRegistry& reg) {
  meta::set_all(reg, {"aten::view", "aten::_unsafe_view", "aten::view_copy"}, view);
  meta::set_all(reg, {"aten::reshape"}, reshape);
  meta::set_all(reg, {"aten::flatten.using_ints"}, flatten);
  meta::set_all(reg, {"aten::transpose.int"}, transpose);
  meta::set_all(reg, {"aten::t"}, t);
  meta::set_all(reg, {"aten::permute"}, permute);
  meta::set_all(reg, {"aten::expand"}, expand);
  meta::set_all(reg, {"aten::unsqueeze"}, unsqueeze);
  meta::set_all(reg, {"aten::squeeze"}, squeeze_all);
  meta::set_all(reg, {"aten::squeeze.dim"}, squeeze_dim);
  meta::set_all(reg, {"aten::squeeze.dims"}, squeeze_dim_list);
  meta::set_all(reg, {"aten::slice.Tensor"}, slice);
  meta::set_all(reg, {"aten::select.int"}, select);
  meta::set_all(reg, {"aten::as_strided", "aten::_reshape_alias"}, as_strided);
  meta::set_all(reg, {"aten::split.Tensor"}, split);
  meta::set_all(reg, {"aten::split_with_sizes"}, split_with_sizes);
  meta::set_all(reg, {"aten::unbind.int"}, unbind);
  meta::set_all(reg, {"aten::cat"}, cat);
  meta::set_all(reg, {"aten::repeat"}, repeat);
  meta::set_all(reg, {"aten::constant_pad_nd"}, constant_pad);
  meta::set_all(reg,
                {"aten::alias", "aten::detach", "aten::contiguous", "aten::clone",
                 "aten::alias_copy", "aten::lift_fresh_copy", "aten::slice_scatter",
                 "aten::select_scatter", "aten::triu", "aten::tril"},
                same_as_self);
  meta::set_all(reg, {"aten::copy_", "aten::copy"}, copy_into_self);
}

}  // namespace eqfuse
