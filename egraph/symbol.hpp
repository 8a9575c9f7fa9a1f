// Interned strings for operator names and string constants, and interned
// integer lists for list-valued constants.
//
// Symbol is a 32-bit handle; comparing two symbols is an integer compare,
// which is what the hashcons and the e-matcher rely on. Both interners are
// process-wide, append-only registries (thread-safe), so a pattern built
// before an e-graph exists refers to the same symbols as the e-graph.
// Ids 1..7 are reserved for the constant-leaf operators (see enode.hpp).
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace eqfuse {

class Symbol {
 public:
  constexpr Symbol() = default;
  constexpr explicit Symbol(uint32_t id) : id_(id) {}
  // Returns the unique symbol for `name`, creating it on first use.
  static Symbol intern(std::string_view name);
  // The interned text; stable for the life of the process.
  std::string_view str() const;

  constexpr uint32_t id() const { return id_; }
  constexpr bool empty() const { return id_ == 0; }
  constexpr bool operator==(const Symbol&) const = default;
  constexpr auto operator<=>(const Symbol&) const = default;

 private:
  uint32_t id_ = 0;  // 0 is the empty symbol ""
};

// Interns a list of integers (shapes, dims, permutations) and returns a
// stable id; equal lists get equal ids.
uint32_t intern_int_list(std::span<const int64_t> values);
// The list behind an id returned by intern_int_list (a copy: thread-safe).
std::vector<int64_t> int_list_values(uint32_t id);

}  // namespace eqfuse
