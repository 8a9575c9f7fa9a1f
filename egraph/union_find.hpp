// Union-find over dense Ids with path halving.
//
// find() is const and never writes, so many threads may call it during the
// (read-only) search phase; find_compress() shortens paths and is used by
// the single-threaded add/merge/rebuild code. link() makes `child` point at
// `root`; choosing which side becomes the root is the caller's business.
#pragma once
#include <vector>

#include "egraph/id.hpp"

namespace eqfuse {

class UnionFind {
 public:
  Id make_set() {
    auto id = static_cast<Id>(parent_.size());
    parent_.push_back(id);
    return id;
  }
  size_t size() const { return parent_.size(); }
  void reserve(size_t n) { parent_.reserve(n); }

  Id find(Id x) const {
    while (parent_[x] != x) x = parent_[x];
    return x;
  }
  Id find_compress(Id x) {
    for (;;) {
      Id p = parent_[x];
      if (p == x) return x;
      Id grand = parent_[p];
      // One step below the root there is nothing to shorten: skip the store
      // (the common case after a hashcons hit; a redundant store still
      // dirties the cache line).
      if (grand == p) return p;
      parent_[x] = grand;  // path halving
      x = grand;
    }
  }
  void link(Id child, Id root) { parent_[child] = root; }
  size_t memory_bytes() const { return parent_.capacity() * sizeof(Id); }

 private:
  std::vector<Id> parent_;
};

}  // namespace eqfuse
