#include "egraph/symbol.hpp"

#include <deque>
#include <mutex>

#include <absl/container/flat_hash_map.h>

#include "egraph/enode.hpp"

namespace eqfuse {
namespace {

// Append-only string table. std::deque keeps element addresses stable, so
// the string_views stored in the index stay valid as the table grows.
class SymbolTable {
 public:
  SymbolTable() {
    // The order here defines the reserved ids checked in enode.hpp.
    for (std::string_view s : {"", "#int", "#float", "#bool", "#dtype", "#str", "#ints", "#none"}) {
      insert_locked(s);
    }
  }
  uint32_t intern(std::string_view s) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(s);
    if (it != index_.end()) return it->second;
    return insert_locked(s);
  }
  std::string_view str(uint32_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    return id < names_.size() ? std::string_view(names_[id]) : std::string_view("<bad-symbol>");
  }

 private:
  uint32_t insert_locked(std::string_view s) {
    auto id = static_cast<uint32_t>(names_.size());
    names_.emplace_back(s);
    index_.emplace(std::string_view(names_.back()), id);
    return id;
  }
  std::mutex mu_;
  std::deque<std::string> names_;
  absl::flat_hash_map<std::string_view, uint32_t> index_;
};

SymbolTable& symbols() {
  static SymbolTable table;
  return table;
}

class IntListTable {
 public:
  uint32_t intern(std::span<const int64_t> v) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<int64_t> key(v.begin(), v.end());
    auto it = index_.find(key);
    if (it != index_.end()) return it->second;
    auto id = static_cast<uint32_t>(lists_.size());
    lists_.push_back(key);
    index_.emplace(std::move(key), id);
    return id;
  }
  std::vector<int64_t> get(uint32_t id) {
    std::lock_guard<std::mutex> lock(mu_);
    return id < lists_.size() ? lists_[id] : std::vector<int64_t>{};
  }

 private:
  std::mutex mu_;
  std::vector<std::vector<int64_t>> lists_;
  absl::flat_hash_map<std::vector<int64_t>, uint32_t> index_;
};

IntListTable& int_lists() {
  static IntListTable table;
  return table;
}

}  // namespace

Symbol Symbol::intern(std::string_view name) {
  return Symbol(symbols().intern(name));
}
std::string_view Symbol::str() const {
  return symbols().str(id_);
}

uint32_t intern_int_list(std::span<const int64_t> values) {
  return int_lists().intern(values);
}
std::vector<int64_t> int_list_values(uint32_t id) {
  return int_lists().get(id);
}

}  // namespace eqfuse
