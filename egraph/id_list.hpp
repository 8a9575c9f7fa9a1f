// A growable list of ids with room for two inside the object (internal to
// EGraph).
//
// Every node new to the hashcons creates a class whose node list starts with
// one entry and whose parent list starts empty; most such classes are merged
// away again within an iteration. A std::vector would allocate for each of
// them (the ac 10 workload creates ~270,000), so short lists stay inline and
// only lists past two entries move to the heap. 16 bytes, trivially
// relocatable by the move operations below.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <span>
#include <utility>

#include "egraph/id.hpp"

namespace eqfuse::detail {

class IdList {
 public:
  IdList() = default;
  IdList(const IdList&) = delete;
  IdList& operator=(const IdList&) = delete;
  IdList(IdList&& o) noexcept { steal(o); }
  IdList& operator=(IdList&& o) noexcept {
    if (this != &o) {
      release();
      steal(o);
    }
    return *this;
  }
  ~IdList() { release(); }

  uint32_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Id* data() { return on_heap() ? heap_ : inline_; }
  const Id* data() const { return on_heap() ? heap_ : inline_; }
  Id* begin() { return data(); }
  Id* end() { return data() + size_; }
  const Id* begin() const { return data(); }
  const Id* end() const { return data() + size_; }
  Id operator[](size_t i) const { return data()[i]; }
  operator std::span<const Id>() const { return {data(), size_}; }  // NOLINT: a list is a span

  void push_back(Id id) {
    if (size_ == cap_) grow(size_ + 1);
    data()[size_++] = id;
  }
  void append(std::span<const Id> ids) {
    auto n = static_cast<uint32_t>(ids.size());
    if (n == 0) return;
    if (size_ + n > cap_) grow(size_ + n);
    Id* dst = data() + size_;
    if (n <= 4) {  // short lists are the common case: no memcpy call
      for (uint32_t i = 0; i < n; ++i) dst[i] = ids[i];
    } else {
      std::memcpy(dst, ids.data(), n * sizeof(Id));
    }
    size_ += n;
  }
  // Keeps the first `n` entries (n <= size()); the capacity stays.
  void truncate(uint32_t n) { size_ = n; }
  // Empties the list and returns its heap block, if any.
  void reset() {
    release();
    size_ = 0;
    cap_ = kInline;
  }

 private:
  static constexpr uint32_t kInline = 2;
  bool on_heap() const { return cap_ > kInline; }
  void release() {
    if (on_heap()) std::free(heap_);
  }
  void steal(IdList& o) {
    std::memcpy(static_cast<void*>(this), static_cast<const void*>(&o), sizeof(IdList));
    o.size_ = 0;
    o.cap_ = kInline;
  }
  // malloc/realloc rather than new[]: a heap block can then often grow in place.
  void grow(uint32_t need) {
    uint32_t cap = cap_ * 2;
    while (cap < need) cap *= 2;
    void* p = on_heap() ? std::realloc(heap_, cap * sizeof(Id)) : std::malloc(cap * sizeof(Id));
    if (p == nullptr) throw std::bad_alloc();
    if (!on_heap()) std::memcpy(p, inline_, size_ * sizeof(Id));
    heap_ = static_cast<Id*>(p);
    cap_ = cap;
  }

  union {
    Id* heap_;
    Id inline_[kInline] = {kNoId, kNoId};
  };
  uint32_t size_ = 0;
  uint32_t cap_ = kInline;
};

}  // namespace eqfuse::detail
