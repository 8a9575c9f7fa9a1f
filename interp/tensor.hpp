// Concrete CPU tensors for the reference interpreter.
//
// A Tensor is a strided view (dtype, shape, strides, storage offset) of a
// shared Storage, so views made by view/permute/expand/slice/select ALIAS
// their base exactly as in torch: writing through a view (copy_, add_, an
// in-place NPU op) changes the base. Values are stored at their dtype's
// width (an f32 weight takes 4 bytes per element, bf16 2, int8 1: see
// StorageKind) and read as exact doubles or int64 (fp16/bf16/fp8 rounding
// emulated with round-to-nearest-even, see interp/float16.hpp). Writes
// round/wrap the value to the tensor's dtype, so a kernel only computes and
// stores.
//
//   Tensor t = Tensor::from_values(DType::Float32, {2, 3}, {1, 2, 3, 4, 5, 6});
//   Tensor row = t.select(0, 1);   // aliases t
//   row.set_flat(0, 9.0);           // t[1][0] == 9
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/dtype.hpp"

namespace eqfuse {

using Dims = std::vector<int64_t>;

// Allocator of tensor buffers: large buffers (weights of real graphs reach
// gigabytes at 8 bytes per element) are 2 MiB aligned and marked for
// transparent huge pages, which cuts the page faults of filling them by
// ~500x; small ones use the default allocator.
void* allocate_tensor_buffer(size_t bytes);
void free_tensor_buffer(void* p, size_t bytes);

template <typename T>
struct TensorBufferAllocator {
  using value_type = T;
  TensorBufferAllocator() = default;
  template <typename U>
  TensorBufferAllocator(const TensorBufferAllocator<U>&) {}  // NOLINT: rebinding
  T* allocate(size_t n) { return static_cast<T*>(allocate_tensor_buffer(n * sizeof(T))); }
  void deallocate(T* p, size_t n) { free_tensor_buffer(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const TensorBufferAllocator<U>&) const {
    return true;
  }
};

// How a dtype's elements sit in memory: its own width. Float kinds hold the
// dtype's bits (fp16, bf16 and the 8-bit floats as their bit patterns;
// complex64 keeps its one real part as f32); integral kinds hold the value
// wrapped to the width (bool as 0/1 bytes, quint4x2 as one byte per value).
enum class StorageKind : uint8_t {
  F64,
  F32,
  F16,
  BF16,
  F8E4M3FN,
  F8E5M2,
  F8E8M0,
  I64,
  I32,
  I16,
  I8,
  U8
};
StorageKind storage_kind(DType d);
size_t storage_element_bytes(StorageKind k);

// The shared buffer behind a tensor and all of its views: `numel` elements
// of `kind`.
struct Storage {
  StorageKind kind = StorageKind::F64;
  int64_t numel = 0;
  std::vector<std::byte, TensorBufferAllocator<std::byte>> bytes;
  uint64_t version = 0;  // bumped on every write after creation (in-place tracking)
};

// True for dtypes read and written as int64 (bool, integers, quantized integers).
bool dtype_stored_as_int(DType d);
// Converts a value to dtype `d` the way torch casts: floats round to the
// dtype, float -> integer truncates toward zero then wraps to the width,
// integer -> narrower integer wraps, anything -> bool is `!= 0`.
double cast_double(double v, DType d);
int64_t cast_int(int64_t v, DType d);
int64_t double_to_int(double v, DType d);  // float value into an integral dtype

class Tensor {
 public:
  Tensor() = default;

  // Fresh contiguous tensor filled with zeros.
  static Tensor zeros(DType dtype, Dims shape);
  // Fresh contiguous tensor from row-major values (rounded/cast to dtype).
  static Tensor from_values(DType dtype, Dims shape, std::span<const double> values);
  static Tensor from_ints(DType dtype, Dims shape, std::span<const int64_t> values);
  static Tensor scalar(DType dtype, double value);

  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  const Dims& shape() const { return shape_; }
  const Dims& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int rank() const { return static_cast<int>(shape_.size()); }
  int64_t size(int dim) const;  // dim may be negative
  int64_t numel() const;
  bool is_int_storage() const { return dtype_stored_as_int(dtype_); }
  bool is_contiguous() const { return contiguous_; }
  const std::shared_ptr<Storage>& storage() const { return storage_; }
  // Same underlying storage (the two may or may not overlap).
  bool shares_storage(const Tensor& o) const { return storage_ && storage_ == o.storage_; }

  // Element access in logical row-major order (flat index over shape()).
  double get_flat(int64_t i) const;
  int64_t get_flat_int(int64_t i) const;
  void set_flat(int64_t i, double v);       // rounds/casts to dtype
  void set_flat_int(int64_t i, int64_t v);  // casts to dtype
  // Element access by multi-index.
  double at(std::span<const int64_t> index) const;
  // All elements, row-major.
  std::vector<double> values() const;
  std::vector<int64_t> int_values() const;
  // Overwrites all elements from row-major values, rounding/casting each like
  // set_flat/set_flat_int; bumps the storage version. `v` must not alias
  // this tensor's storage.
  void write_values(std::span<const double> v);
  void write_int_values(std::span<const int64_t> v);

  // Runs of storage elements for typed loops (interp/tensor_loops.hpp):
  // element i of the view is at storage index offset() + sum(index[d] *
  // strides()[d]). read_storage_run reads the n elements at start + t * step
  // (t < n) into `out`, as doubles or int64 (floats truncated like
  // get_flat_int). Call check_in_bounds() first when the view may come from
  // user-given as_strided arguments; these do not check.
  void read_storage_run(int64_t start, int64_t step, int64_t n, double* out) const;
  void read_storage_run(int64_t start, int64_t step, int64_t n, int64_t* out) const;
  // One storage element as a double (unchecked, like read_storage_run).
  double storage_value(int64_t index) const;
  // Writes values[t] (rounded/cast to the dtype like set_flat/set_flat_int)
  // at flat positions first + t of a contiguous tensor; no version bump
  // (for filling fresh results chunk by chunk).
  void write_contiguous_run(int64_t first, std::span<const double> values);
  void write_contiguous_run(int64_t first, std::span<const int64_t> values);
  // Bytes per element in storage (4 for f32, 2 for bf16, 1 for int8).
  size_t element_bytes() const { return storage_element_bytes(storage_->kind); }
  // Throws std::out_of_range when some element lies outside the storage.
  void check_in_bounds() const;

  // Copies (new storage).
  Tensor contiguous() const;     // returns *this (alias) when already contiguous
  Tensor clone() const;          // always a fresh contiguous copy
  Tensor to(DType dtype) const;  // fresh copy cast to dtype
  // Copies `src` (broadcast to this shape, cast to this dtype) into this
  // tensor's elements; bumps the storage version.
  void copy_from(const Tensor& src);

  // Views (share storage). Dims may be negative; errors throw
  // std::invalid_argument with a torch-like message.
  Tensor view(Dims shape) const;     // -1 inferred; fails if strides are incompatible
  Tensor reshape(Dims shape) const;  // view when possible, else a copy
  Tensor permute(std::span<const int64_t> dims) const;
  Tensor transpose(int64_t d0, int64_t d1) const;
  Tensor expand(Dims shape) const;  // -1 keeps a dim; leading dims may be added
  Tensor slice(int64_t dim, int64_t start, int64_t end, int64_t step) const;  // python-clamped
  Tensor select(int64_t dim, int64_t index) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor squeeze(int64_t dim) const;  // no-op when the dim is not 1
  Tensor as_strided(Dims shape, Dims strides, int64_t offset) const;

  // Marks the storage as written (version counter).
  void bump_version() const { ++storage_->version; }

  // "f32[2, 3]" style summary for messages.
  std::string describe() const;

 private:
  int64_t storage_index(int64_t flat) const;
  size_t storage_size() const;
  DType dtype_ = DType::Float32;
  Dims shape_;
  Dims strides_;
  int64_t offset_ = 0;
  // Row-major contiguous (cached: get_flat/set_flat then skip the
  // per-dim index arithmetic).
  bool contiguous_ = true;
  std::shared_ptr<Storage> storage_;
};

// Row-major strides of a contiguous tensor.
Dims contiguous_strides(const Dims& shape);
int64_t shape_numel(const Dims& shape);

// The most elements one interpreter tensor may hold (1 GiB of f64; kernels
// compute in double, so their temporaries reach that size too). Symbolic
// sizes bound by the user can ask for far more.
inline constexpr int64_t kMaxTensorElements = int64_t{1} << 27;

// shape_numel for a tensor about to be allocated: throws
// std::invalid_argument on a negative dimension or more than
// kMaxTensorElements elements (never overflows).
int64_t checked_numel(const Dims& shape);
// Wraps a possibly negative dim into [0, rank); throws std::invalid_argument.
int64_t wrap_dim(int64_t dim, int64_t rank);
// Broadcast shape of two shapes; throws std::invalid_argument when incompatible.
Dims broadcast_shapes(const Dims& a, const Dims& b);
// Resolves a single -1 in `shape` against `numel`; throws when impossible.
Dims infer_size(Dims shape, int64_t numel);
std::string dims_to_string(const Dims& d);

}  // namespace eqfuse
