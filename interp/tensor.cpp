// Concrete CPU tensors: storage, element access, casts and stride views.
#include "interp/tensor.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>
#include <stdexcept>

#include <sys/mman.h>

#include <fmt/format.h>

#include "base/checked_int.hpp"
#include "interp/float16.hpp"
#include "interp/storage_codec.hpp"
#include "interp/tensor_loops.hpp"

namespace eqfuse {

// Buffers from 4 MiB up: 2 MiB aligned (a huge page) and madvise'd for
// transparent huge pages where the kernel leaves that to the program.
constexpr size_t kHugePage = size_t{2} << 20;
constexpr size_t kLargeBuffer = size_t{4} << 20;

static size_t huge_page_rounded(size_t bytes) {
  return (bytes + kHugePage - 1) / kHugePage * kHugePage;
}

void* allocate_tensor_buffer(size_t bytes) {
  if (bytes < kLargeBuffer) return ::operator new(bytes);
  void* p = std::aligned_alloc(kHugePage, huge_page_rounded(bytes));
  if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, huge_page_rounded(bytes), MADV_HUGEPAGE);  // a hint: failure is harmless
#endif
  return p;
}

void free_tensor_buffer(void* p, size_t bytes) {
  if (bytes < kLargeBuffer) {
    ::operator delete(p);
  } else {
    std::free(p);
  }
}

bool dtype_stored_as_int(DType d) {
  return !dtype_is_floating(d) && d != DType::Complex64;
}

StorageKind storage_kind(DType d) {
  switch (d) {
    case DType::Float64:
      return StorageKind::F64;
    case DType::Float32:
    case DType::Complex64:
      return StorageKind::F32;
    case DType::Float16:
      return StorageKind::F16;
    case DType::BFloat16:
      return StorageKind::BF16;
    case DType::Float8E4M3FN:
      return StorageKind::F8E4M3FN;
    case DType::Float8E5M2:
      return StorageKind::F8E5M2;
    case DType::Float8E8M0FNU:
      return StorageKind::F8E8M0;
    case DType::Int32:
    case DType::QInt32:
      return StorageKind::I32;
    case DType::Int16:
      return StorageKind::I16;
    case DType::Int8:
    case DType::QInt8:
      return StorageKind::I8;
    case DType::Bool:
    case DType::UInt8:
    case DType::QUInt8:
    case DType::QUInt4x2:
      return StorageKind::U8;
    case DType::Int64:
    case DType::Unknown:
      break;
  }
  return StorageKind::I64;
}

size_t storage_element_bytes(StorageKind k) {
  return visit_codec(k, [](auto codec) { return sizeof(typename decltype(codec)::Stored); });
}

int64_t cast_int(int64_t v, DType d) {
  switch (d) {
    case DType::Bool:
      return v != 0 ? 1 : 0;
    case DType::UInt8:
    case DType::QUInt8:
    case DType::QUInt4x2:
      return static_cast<int64_t>(static_cast<uint8_t>(static_cast<uint64_t>(v) & 0xffu));
    case DType::Int8:
    case DType::QInt8:
      return static_cast<int64_t>(static_cast<int8_t>(static_cast<uint8_t>(v & 0xff)));
    case DType::Int16:
      return static_cast<int64_t>(static_cast<int16_t>(static_cast<uint16_t>(v & 0xffff)));
    case DType::Int32:
    case DType::QInt32:
      return static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(v & 0xffffffff)));
    default:
      return v;
  }
}

int64_t double_to_int(double v, DType d) {
  if (d == DType::Bool) return v != 0.0 ? 1 : 0;
  if (std::isnan(v)) return 0;  // torch leaves this implementation-defined; we pick 0
  double t = std::trunc(v);
  // Clamp before converting: out-of-range float -> int64 is UB in C++.
  constexpr double kMax = 9223372036854775807.0;
  int64_t i = t >= kMax    ? std::numeric_limits<int64_t>::max()
              : t <= -kMax ? std::numeric_limits<int64_t>::min()
                           : static_cast<int64_t>(t);
  return cast_int(i, d);
}

double cast_double(double v, DType d) {
  if (dtype_stored_as_int(d)) return static_cast<double>(double_to_int(v, d));
  return round_to_dtype(v, d);
}

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

static bool row_major_contiguous(const Dims& shape, const Dims& strides) {
  std::optional<int64_t> expected = 1;  // nullopt once it leaves int64: no stride equals it
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (!expected || strides[i] != *expected) return false;
    expected = checked_mul(*expected, shape[i]);
  }
  return true;
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

std::string Tensor::describe() const {
  return fmt::format("{}{}", dtype_code(dtype_), dims_to_string(shape_));
}

}  // namespace eqfuse
