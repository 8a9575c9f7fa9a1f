// Concrete CPU tensors: creation and element access. Reads decode each
// storage kind and writes encode to it, rounding or casting to the dtype, one
// element at a time (get_flat, set_flat) or in bulk over a whole view (values,
// write_values, copy_from, clone). Storage kinds and casts live in
// interp/tensor_storage.cpp, views in interp/tensor_views.cpp and shape
// arithmetic in interp/tensor_shapes.cpp.
#include "interp/tensor.hpp"

#include <stdexcept>

#include <fmt/format.h>

#include "interp/float16.hpp"
#include "interp/storage_codec.hpp"
#include "interp/tensor_loops.hpp"

namespace eqfuse {

Tensor Tensor::zeros(DType dtype, Dims shape) {
  const int64_t numel = checked_numel(shape);
  Tensor t;
  t.dtype_ = dtype;
  t.strides_ = contiguous_strides(shape);
  t.shape_ = std::move(shape);
  t.storage_ = std::make_shared<Storage>();
  t.storage_->kind = storage_kind(dtype);
  t.storage_->numel = numel;
  // All-zero bytes are 0 / 0.0 in every kind but e8m0 (no zero: 2^-127).
  t.storage_->bytes.resize(static_cast<size_t>(numel) * storage_element_bytes(t.storage_->kind));
  return t;
}

Tensor Tensor::from_values(DType dtype, Dims shape, std::span<const double> values) {
  Tensor t = zeros(dtype, std::move(shape));
  t.write_values(values);
  t.storage_->version = 0;
  return t;
}

Tensor Tensor::from_ints(DType dtype, Dims shape, std::span<const int64_t> values) {
  Tensor t = zeros(dtype, std::move(shape));
  t.write_int_values(values);
  t.storage_->version = 0;
  return t;
}

Tensor Tensor::scalar(DType dtype, double value) {
  double v[] = {value};
  return from_values(dtype, {}, v);
}

int64_t Tensor::size(int dim) const {
  return shape_.at(static_cast<size_t>(wrap_dim(dim, rank())));
}

int64_t Tensor::numel() const {
  return shape_numel(shape_);
}

int64_t Tensor::storage_index(int64_t flat) const {
  if (contiguous_) return offset_ + flat;
  int64_t index = offset_;
  for (size_t i = shape_.size(); i-- > 0;) {
    int64_t d = shape_[i];
    index += (flat % d) * strides_[i];
    flat /= d;
  }
  return index;
}

namespace {

template <typename Codec>
typename Codec::Stored* typed(Storage& st) {
  return reinterpret_cast<typename Codec::Stored*>(st.bytes.data());
}
template <typename Codec>
const typename Codec::Stored* typed(const Storage& st) {
  return reinterpret_cast<const typename Codec::Stored*>(st.bytes.data());
}

// The storage index `s` as a checked element position.
size_t checked_position(const Storage& st, int64_t s) {
  if (s < 0 || s >= st.numel)
    throw std::out_of_range(
        fmt::format("element {} outside a storage of {} elements", s, st.numel));
  return static_cast<size_t>(s);
}

// A stored value as a double (integral kinds converted) or an int64 (float
// kinds truncated toward zero, as get_flat_int always did).
template <typename Codec>
double load_double(const typename Codec::Stored& x) {
  return static_cast<double>(Codec::load(x));
}
template <typename Codec>
int64_t load_int(const typename Codec::Stored& x) {
  if constexpr (std::is_same_v<typename Codec::Value, int64_t>) {
    return Codec::load(x);
  } else {
    return double_to_int(Codec::load(x), DType::Int64);
  }
}

// A double or int64 converted to the dtype `d` and encoded by Codec, the
// conversions of set_flat / set_flat_int.
template <typename Codec, typename Round>
typename Codec::Stored encode(double v, DType d, Round round) {
  if constexpr (std::is_same_v<typename Codec::Value, int64_t>) {
    return Codec::store(double_to_int(v, d));
  } else {
    return Codec::store(round(v));
  }
}
template <typename Codec, typename Round>
typename Codec::Stored encode(int64_t v, DType d, Round round) {
  if constexpr (std::is_same_v<typename Codec::Value, int64_t>) {
    return Codec::store(cast_int(v, d));
  } else {
    return Codec::store(round(static_cast<double>(v)));
  }
}

// The rounding of the dtypes a float codec stores (each kind holds dtypes of
// one rounding: with_rounder's choice, decided at compile time).
template <typename Codec>
auto rounder_of(DType d) {
  if constexpr (std::is_same_v<Codec, CodecF32>) {
    return RoundFp32{};
  } else if constexpr (std::is_same_v<Codec, CodecF16>) {
    return RoundFp16{};
  } else if constexpr (std::is_same_v<Codec, CodecBF16>) {
    return RoundBf16{};
  } else if constexpr (std::is_same_v<typename Codec::Stored, uint8_t> &&
                       std::is_same_v<typename Codec::Value, double>) {
    return RoundFp8{d};
  } else {
    return RoundNone{};  // f64 and the integral kinds
  }
}

// Calls f(codec, round) with the storage's codec and its dtype's rounder.
template <typename F>
decltype(auto) visit_writer(StorageKind kind, DType d, F&& f) {
  return visit_codec(kind, [&](auto codec) { return f(codec, rounder_of<decltype(codec)>(d)); });
}

}  // namespace

double Tensor::get_flat(int64_t i) const {
  const size_t s = checked_position(*storage_, storage_index(i));
  return visit_codec(storage_->kind, [&](auto codec) {
    return load_double<decltype(codec)>(typed<decltype(codec)>(*storage_)[s]);
  });
}

int64_t Tensor::get_flat_int(int64_t i) const {
  const size_t s = checked_position(*storage_, storage_index(i));
  return visit_codec(storage_->kind, [&](auto codec) {
    return load_int<decltype(codec)>(typed<decltype(codec)>(*storage_)[s]);
  });
}

double Tensor::storage_value(int64_t index) const {
  return visit_codec(storage_->kind, [&](auto codec) {
    return load_double<decltype(codec)>(typed<decltype(codec)>(*storage_)[index]);
  });
}

void Tensor::set_flat(int64_t i, double v) {
  const size_t s = checked_position(*storage_, storage_index(i));
  visit_writer(storage_->kind, dtype_, [&](auto codec, auto round) {
    typed<decltype(codec)>(*storage_)[s] = encode<decltype(codec)>(v, dtype_, round);
  });
  ++storage_->version;
}

void Tensor::set_flat_int(int64_t i, int64_t v) {
  const size_t s = checked_position(*storage_, storage_index(i));
  visit_writer(storage_->kind, dtype_, [&](auto codec, auto round) {
    typed<decltype(codec)>(*storage_)[s] = encode<decltype(codec)>(v, dtype_, round);
  });
  ++storage_->version;
}

namespace {

template <typename Out>
void read_run(const Storage& st, int64_t start, int64_t step, int64_t n, Out* out) {
  visit_codec(st.kind, [&](auto codec) {
    using Codec = decltype(codec);
    const auto* p = typed<Codec>(st) + start;
    for (int64_t t = 0; t < n; ++t) {
      if constexpr (std::is_same_v<Out, double>) {
        out[t] = load_double<Codec>(p[t * step]);
      } else {
        out[t] = load_int<Codec>(p[t * step]);
      }
    }
  });
}

template <typename In>
void write_run(Storage& st, DType d, int64_t first, std::span<const In> values) {
  if (first < 0 || first + static_cast<int64_t>(values.size()) > st.numel)
    throw std::out_of_range(
        fmt::format("{} values at element {} of a storage of {}", values.size(), first, st.numel));
  visit_writer(st.kind, d, [&](auto codec, auto round) {
    using Codec = decltype(codec);
    auto* p = typed<Codec>(st) + first;
    for (size_t t = 0; t < values.size(); ++t) p[t] = encode<Codec>(values[t], d, round);
  });
}

}  // namespace

void Tensor::read_storage_run(int64_t start, int64_t step, int64_t n, double* out) const {
  read_run(*storage_, start, step, n, out);
}

void Tensor::read_storage_run(int64_t start, int64_t step, int64_t n, int64_t* out) const {
  read_run(*storage_, start, step, n, out);
}

void Tensor::write_contiguous_run(int64_t first, std::span<const double> values) {
  if (!contiguous_) throw std::logic_error("write_contiguous_run on a strided view");
  write_run(*storage_, dtype_, offset_ + first, values);
}

void Tensor::write_contiguous_run(int64_t first, std::span<const int64_t> values) {
  if (!contiguous_) throw std::logic_error("write_contiguous_run on a strided view");
  write_run(*storage_, dtype_, offset_ + first, values);
}

double Tensor::at(std::span<const int64_t> index) const {
  if (static_cast<int>(index.size()) != rank()) {
    throw std::invalid_argument(
        fmt::format("{} indices for a rank-{} tensor", index.size(), rank()));
  }
  int64_t flat = 0;
  for (size_t i = 0; i < index.size(); ++i) {
    if (index[i] < 0 || index[i] >= shape_[i]) throw std::invalid_argument("index out of range");
    flat = flat * shape_[i] + index[i];
  }
  return get_flat(flat);
}

size_t Tensor::storage_size() const {
  return static_cast<size_t>(storage_->numel);
}

void Tensor::check_in_bounds() const {
  if (numel() == 0) return;
  int64_t lo = offset_, hi = offset_;
  for (size_t d = 0; d < shape_.size(); ++d) {
    int64_t span = (shape_[d] - 1) * strides_[d];
    (span < 0 ? lo : hi) += span;
  }
  if (lo < 0 || hi >= static_cast<int64_t>(storage_size())) {
    throw std::out_of_range(
        fmt::format("{} view (offset {}, strides {}) reaches outside its "
                    "storage of {} elements",
                    describe(), offset_, dims_to_string(strides_), storage_size()));
  }
}

namespace {

// Reads every element of a view in row-major order into dst, decoded by
// Codec and converted by `convert` (one tight loop per innermost run).
template <typename Codec, typename Dst, typename Convert>
void gather(const Storage& st, const Dims& shape, const Dims& strides, int64_t offset, Dst* dst,
            Convert convert) {
  const auto* src = typed<Codec>(st);
  for_each_row<1>(shape, {&strides}, {offset},
                  [&](int64_t len, const auto& base, const auto& step) {
                    const auto* p = src + base[0];
                    int64_t s = step[0];
                    if (s == 1) {
                      for (int64_t t = 0; t < len; ++t) dst[t] = convert(p[t]);
                    } else {
                      for (int64_t t = 0; t < len; ++t) dst[t] = convert(p[t * s]);
                    }
                    dst += len;
                  });
}

// Writes row-major values into every element of a view, encoded by `encode`.
template <typename Codec, typename Src, typename Encode>
void scatter(const Src* src, Storage& st, const Dims& shape, const Dims& strides, int64_t offset,
             Encode encode) {
  auto* dst = typed<Codec>(st);
  for_each_row<1>(shape, {&strides}, {offset},
                  [&](int64_t len, const auto& base, const auto& step) {
                    auto* p = dst + base[0];
                    int64_t s = step[0];
                    if (s == 1) {
                      for (int64_t t = 0; t < len; ++t) p[t] = encode(src[t]);
                    } else {
                      for (int64_t t = 0; t < len; ++t) p[t * s] = encode(src[t]);
                    }
                    src += len;
                  });
}

// Element-by-element copy between two views of the same shape in different
// storages, decoded by SrcCodec and re-encoded by `encode`.
template <typename SrcCodec, typename DstCodec, typename Encode>
void stream_copy(const Storage& src_st, const Dims& src_strides, int64_t src_offset,
                 Storage& dst_st, const Dims& shape, const Dims& dst_strides, int64_t dst_offset,
                 Encode encode) {
  const auto* src = typed<SrcCodec>(src_st);
  auto* dst = typed<DstCodec>(dst_st);
  for_each_row<2>(shape, {&src_strides, &dst_strides}, {src_offset, dst_offset},
                  [&](int64_t len, const auto& base, const auto& step) {
                    const auto* p = src + base[0];
                    auto* q = dst + base[1];
                    if (step[0] == 1 && step[1] == 1) {
                      for (int64_t t = 0; t < len; ++t) q[t] = encode(SrcCodec::load(p[t]));
                    } else {
                      for (int64_t t = 0; t < len; ++t)
                        q[t * step[1]] = encode(SrcCodec::load(p[t * step[0]]));
                    }
                  });
}

}  // namespace

std::vector<double> Tensor::values() const {
  std::vector<double> out(static_cast<size_t>(numel()));
  if (out.empty()) return out;
  check_in_bounds();
  visit_codec(storage_->kind, [&](auto codec) {
    using Codec = decltype(codec);
    gather<Codec>(*storage_, shape_, strides_, offset_, out.data(),
                  [](const auto& x) { return load_double<Codec>(x); });
  });
  return out;
}

std::vector<int64_t> Tensor::int_values() const {
  std::vector<int64_t> out(static_cast<size_t>(numel()));
  if (out.empty()) return out;
  check_in_bounds();
  visit_codec(storage_->kind, [&](auto codec) {
    using Codec = decltype(codec);
    gather<Codec>(*storage_, shape_, strides_, offset_, out.data(),
                  [](const auto& x) { return load_int<Codec>(x); });
  });
  return out;
}

namespace {

// The one body of write_values and write_int_values: checks the count, bumps
// the version and scatters `v` into the storage, rounded or cast to the
// dtype.
template <typename T>
void write_row_major(Tensor& t, Storage& st, std::span<const T> v) {
  if (static_cast<int64_t>(v.size()) != t.numel()) {
    throw std::invalid_argument(
        fmt::format("{} values for a tensor of {} elements", v.size(), t.numel()));
  }
  t.bump_version();
  if (v.empty()) return;
  t.check_in_bounds();
  const DType d = t.dtype();
  visit_writer(st.kind, d, [&](auto codec, auto round) {
    using Codec = decltype(codec);
    scatter<Codec>(v.data(), st, t.shape(), t.strides(), t.offset(),
                   [d, round](T x) { return encode<Codec>(x, d, round); });
  });
}

}  // namespace

void Tensor::write_values(std::span<const double> v) {
  write_row_major(*this, *storage_, v);
}

void Tensor::write_int_values(std::span<const int64_t> v) {
  write_row_major(*this, *storage_, v);
}

Tensor Tensor::contiguous() const {
  return is_contiguous() ? *this : clone();
}

Tensor Tensor::clone() const {
  return to(dtype_);
}

Tensor Tensor::to(DType dtype) const {
  Tensor out = zeros(dtype, shape_);
  out.copy_from(*this);
  out.storage_->version = 0;
  return out;
}

void Tensor::copy_from(const Tensor& src) {
  Tensor b = src.shape_ == shape_ ? src : src.expand(shape_);
  if (b.storage_ == storage_) {
    // Read everything first: src may overlap this tensor (x.copy_(x.flip())).
    if (b.is_int_storage()) {
      write_int_values(b.int_values());
    } else {
      write_values(b.values());
    }
    ++storage_->version;
    return;
  }
  ++storage_->version;
  if (numel() == 0) return;
  b.check_in_bounds();
  check_in_bounds();
  const DType d = dtype_;
  visit_codec(b.storage_->kind, [&](auto src_codec) {
    using SrcCodec = decltype(src_codec);
    visit_writer(storage_->kind, d, [&](auto dst_codec, auto round) {
      using DstCodec = decltype(dst_codec);
      stream_copy<SrcCodec, DstCodec>(*b.storage_, b.strides_, b.offset_, *storage_, shape_,
                                      strides_, offset_,
                                      [d, round](auto x) { return encode<DstCodec>(x, d, round); });
    });
  });
}

std::string Tensor::describe() const {
  return fmt::format("{}{}", dtype_code(dtype_), dims_to_string(shape_));
}

}  // namespace eqfuse
