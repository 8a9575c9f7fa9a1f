// The hashcons: canonical e-node -> node id (internal to EGraph).
//
// Keys are node ids; the node contents live in the e-graph's flat arrays and
// each entry stores the node's 32-bit hash next to its id, so probing
// rarely touches node memory and growing never rehashes node contents.
// Lookups take the hash plus an equality callback comparing a stored id
// with the probe.
//
// Three interchangeable backends (selected at compile time with
// -DEQFUSE_HASHCONS=0/1/2) were measured on the ac/math workloads, see
// docs/benchmarks.md: 0 = hand-written linear-probing table (default),
// 1 = absl::flat_hash_set, 2 = std::unordered_set.
#pragma once
#include <cstdint>
#include <vector>

#include <absl/container/flat_hash_set.h>

#include <unordered_set>

#include "egraph/id.hpp"

#ifndef EQFUSE_HASHCONS
#define EQFUSE_HASHCONS 0
#endif

namespace eqfuse::detail {

// Hand-written open addressing: power-of-two capacity, linear probing,
// backward-shift deletion (no tombstones), load factor <= 1/2.
class OpenAddressingTable {
 public:
  OpenAddressingTable() { slots_.assign(16, kEmpty); }

  template <typename Eq>
  Id find(uint32_t hash, Eq&& eq) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      uint64_t s = slots_[i];
      if (s == kEmpty) return kNoId;
      if (static_cast<uint32_t>(s >> 32) == hash && eq(static_cast<Id>(s))) {
        return static_cast<Id>(s);
      }
    }
  }
  void insert(uint32_t hash, Id id) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(pack(hash, id));
    ++size_;
  }
  bool erase(uint32_t hash, Id id) {
    size_t mask = slots_.size() - 1;
    uint64_t want = pack(hash, id);
    size_t i = hash & mask;
    for (;; i = (i + 1) & mask) {
      if (slots_[i] == kEmpty) return false;
      if (slots_[i] == want) break;
    }
    // Backward shift: pull later entries of the cluster into the hole when
    // their home slot does not lie cyclically in (hole, j].
    size_t hole = i;
    for (size_t j = (i + 1) & mask; slots_[j] != kEmpty; j = (j + 1) & mask) {
      size_t home = static_cast<uint32_t>(slots_[j] >> 32) & mask;
      bool home_in_range = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j);
      if (!home_in_range) {
        slots_[hole] = slots_[j];
        hole = j;
      }
    }
    slots_[hole] = kEmpty;
    --size_;
    return true;
  }
  size_t size() const { return size_; }
  size_t memory_bytes() const { return slots_.capacity() * sizeof(uint64_t); }
  // Grows once so that `n` entries fit without further rehashing.
  void reserve(size_t n) {
    size_t want = slots_.size();
    while (n * 2 > want) want *= 2;
    if (want != slots_.size()) rehash(want);
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  static uint64_t pack(uint32_t hash, Id id) { return (uint64_t{hash} << 32) | id; }
  void place(uint64_t entry) {
    size_t mask = slots_.size() - 1;
    size_t i = static_cast<uint32_t>(entry >> 32) & mask;
    while (slots_[i] != kEmpty) i = (i + 1) & mask;
    slots_[i] = entry;
  }
  void grow() { rehash(slots_.size() * 2); }
  void rehash(size_t capacity) {
    std::vector<uint64_t> old;
    old.swap(slots_);
    slots_.assign(capacity, kEmpty);
    for (uint64_t e : old) {
      if (e != kEmpty) place(e);
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

// Adapter over node-based or Swiss tables: entries are (hash, id); probing
// uses heterogeneous lookup with the caller's equality callback.
struct HashedId {
  uint32_t hash;
  Id id;
  bool operator==(const HashedId&) const = default;
};
template <typename Eq>
struct Probe {
  uint32_t hash;
  const Eq* eq;
};
struct EntryHash {
  using is_transparent = void;
  size_t operator()(const HashedId& e) const { return e.hash * 0x9E3779B97F4A7C15ull; }
  template <typename Eq>
  size_t operator()(const Probe<Eq>& p) const {
    return p.hash * 0x9E3779B97F4A7C15ull;
  }
};
struct EntryEq {
  using is_transparent = void;
  bool operator()(const HashedId& a, const HashedId& b) const { return a == b; }
  template <typename Eq>
  bool operator()(const HashedId& a, const Probe<Eq>& p) const {
    return a.hash == p.hash && (*p.eq)(a.id);
  }
  template <typename Eq>
  bool operator()(const Probe<Eq>& p, const HashedId& a) const {
    return (*this)(a, p);
  }
};

template <typename Set>
class SetTable {
 public:
  template <typename Eq>
  Id find(uint32_t hash, Eq&& eq) const {
    Probe<std::remove_reference_t<Eq>> p{hash, &eq};
    auto it = set_.find(p);
    return it == set_.end() ? kNoId : it->id;
  }
  void insert(uint32_t hash, Id id) { set_.insert(HashedId{hash, id}); }
  bool erase(uint32_t hash, Id id) { return set_.erase(HashedId{hash, id}) > 0; }
  size_t size() const { return set_.size(); }
  size_t memory_bytes() const { return set_.bucket_count() * (sizeof(HashedId) + 8); }
  void reserve(size_t n) { set_.reserve(n); }

 private:
  Set set_;
};

#if EQFUSE_HASHCONS == 1
using HashconsTable = SetTable<absl::flat_hash_set<HashedId, EntryHash, EntryEq>>;
#elif EQFUSE_HASHCONS == 2
using HashconsTable = SetTable<std::unordered_set<HashedId, EntryHash, EntryEq>>;
#else
using HashconsTable = OpenAddressingTable;
#endif

}  // namespace eqfuse::detail
