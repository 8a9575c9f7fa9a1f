// E-nodes: an operator symbol, a 64-bit immediate payload and child e-class
// ids.
//
// Constants are leaf e-nodes whose operator is one of the reserved constant
// symbols below and whose payload holds the value (ints and bools directly,
// doubles by bit pattern, dtypes by enum value, strings by Symbol id, int
// lists by interned-list id), so patterns can bind them to variables and
// compare them with an integer compare. Non-constant nodes may use the
// payload too (e.g. a stream label), and it takes part in hashing and
// equality: nodes that differ in payload are never merged by congruence.
//
// ENode is the owning value type used to build nodes; NodeView is the
// non-owning view the e-graph hands out for stored nodes.
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include <boost/container/small_vector.hpp>

#include "base/dtype.hpp"
#include "egraph/id.hpp"
#include "egraph/symbol.hpp"

namespace eqfuse {

enum class ConstKind : uint8_t { Int = 1, Float, Bool, DType, String, IntList, None };

// Reserved operator symbols of constant leaves; ids fixed by the interner.
namespace const_ops {
inline constexpr Symbol kInt{1};
inline constexpr Symbol kFloat{2};
inline constexpr Symbol kBool{3};
inline constexpr Symbol kDType{4};
inline constexpr Symbol kString{5};
inline constexpr Symbol kIntList{6};
inline constexpr Symbol kNone{7};
}  // namespace const_ops

inline constexpr bool is_constant_op(Symbol op) {
  return op.id() >= 1 && op.id() <= 7;
}

// A constant value as stored in a leaf e-node.
struct Constant {
  ConstKind kind = ConstKind::None;
  uint64_t bits = 0;

  static Constant integer(int64_t v) { return {ConstKind::Int, static_cast<uint64_t>(v)}; }
  static Constant floating(double v) { return {ConstKind::Float, std::bit_cast<uint64_t>(v)}; }
  static Constant boolean(bool v) { return {ConstKind::Bool, v ? 1u : 0u}; }
  static Constant dtype(DType d) { return {ConstKind::DType, static_cast<uint64_t>(d)}; }
  static Constant string(std::string_view s) { return {ConstKind::String, Symbol::intern(s).id()}; }
  static Constant int_list(std::span<const int64_t> v) {
    return {ConstKind::IntList, intern_int_list(v)};
  }
  static Constant none() { return {ConstKind::None, 0}; }

  int64_t as_int() const { return static_cast<int64_t>(bits); }
  double as_float() const { return std::bit_cast<double>(bits); }
  bool as_bool() const { return bits != 0; }
  DType as_dtype() const { return static_cast<DType>(bits); }
  std::string_view as_string() const { return Symbol(static_cast<uint32_t>(bits)).str(); }
  std::vector<int64_t> as_int_list() const { return int_list_values(static_cast<uint32_t>(bits)); }

  Symbol op() const { return Symbol(static_cast<uint32_t>(kind)); }
  // Pattern/s-expression spelling: 3, 1.5, true, torch.float32, "s", [1,2], None.
  std::string to_string() const;
  bool operator==(const Constant&) const = default;
};

using ChildVec = boost::container::small_vector<Id, 4>;
// boost iterators are not std::contiguous_iterator, so spell the span out.
inline std::span<const Id> as_span(const ChildVec& v) {
  return {v.data(), v.size()};
}

// Owning e-node, used when building nodes outside the e-graph.
struct ENode {
  Symbol op;
  uint64_t payload = 0;
  ChildVec children;

  ENode() = default;
  ENode(Symbol o, std::initializer_list<Id> ch, uint64_t p = 0) : op(o), payload(p), children(ch) {}
  ENode(Symbol o, std::span<const Id> ch, uint64_t p = 0)
      : op(o), payload(p), children(ch.begin(), ch.end()) {}
  static ENode leaf(std::string_view op) { return ENode(Symbol::intern(op), {}); }
  static ENode constant(Constant c) { return ENode(c.op(), {}, c.bits); }
  bool operator==(const ENode&) const = default;
};

// Non-owning view of a stored e-node; valid until the next add()/rebuild().
struct NodeView {
  Symbol op;
  uint64_t payload = 0;
  std::span<const Id> children;

  bool is_constant() const { return is_constant_op(op); }
  std::optional<Constant> constant() const {
    if (!is_constant()) return std::nullopt;
    return Constant{static_cast<ConstKind>(op.id()), payload};
  }
  ENode to_enode() const { return ENode(op, children, payload); }
};

}  // namespace eqfuse
