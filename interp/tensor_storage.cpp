// How tensor elements sit in memory and how values convert to a dtype: the
// buffer allocator (huge pages for large buffers), the storage kind of each
// dtype and torch's casts, which every write applies. Separate from
// interp/tensor.cpp, which reads and writes elements through these.
#include <cmath>
#include <cstdlib>
#include <limits>
#include <new>

#include <sys/mman.h>

#include "interp/float16.hpp"
#include "interp/storage_codec.hpp"
#include "interp/tensor.hpp"

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

}  // namespace eqfuse
