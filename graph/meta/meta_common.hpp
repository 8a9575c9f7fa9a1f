// Helpers shared by the built-in meta functions (graph/meta/meta_*.cpp): reading
// normalized call arguments as tensors, ints, symbolic ints and dtypes,
// broadcasting, dim wrapping and building result types. Internal to the
// graph library; ops registered by users write their own MetaFn.
//
// Meta functions throw eqfuse::Error without a location; infer_types()
// rethrows it at the node's location, naming the node and the op.
#pragma once
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "graph/op_registry.hpp"

namespace eqfuse {

// Attaches the meta function of every built-in op that has one.
void attach_builtin_meta(OpRegistry& reg);

// One per family file.
void add_elementwise_meta(OpRegistry& reg);
void add_layout_meta(OpRegistry& reg);
void add_reduction_meta(OpRegistry& reg);
void add_matmul_meta(OpRegistry& reg);
void add_npu_meta(OpRegistry& reg);
void add_misc_meta(OpRegistry& reg);
void add_indexing_meta(OpRegistry& reg);    // index, gather, scatter, sort
void add_nn_meta(OpRegistry& reg);          // layer norm, dropout, attention
void add_llm_meta(OpRegistry& reg);         // graph/ops/llm.schemas (issue 16, batch 2)
void add_collective_meta(OpRegistry& reg);  // graph/ops/collectives.schemas

namespace meta {

template <typename... A>
[[noreturn]] void fail(fmt::format_string<A...> f, A&&... args) {
  throw Error(fmt::format(f, std::forward<A>(args)...));
}

// Attaches `fn` to each listed op that is registered (catalogs may be trimmed).
void set_all(OpRegistry& reg, std::initializer_list<std::string_view> names, const MetaFn& fn);

ValueType tensor(DType dtype, std::optional<Shape> shape);
ValueType tuple(std::vector<ValueType> elements);
ValueType symint(std::optional<SymInt> value);

// The tensor type of argument `name`, or nullptr when the argument is None,
// a literal, or of unknown type. Throws if it is known and not a tensor.
const TensorType* tensor_arg(const CallContext& ctx, std::string_view name);
// `self`'s dtype and shape (strides and device dropped): the type of the many
// ops whose result is shaped like their input. Unknown when `self` is.
ValueType same_as_self(const CallContext& ctx);
// Walks the list argument `name` of tensors (cat, stack) in order: each
// item's dtype is folded into the promoted one, then `item(index, type)` runs
// (type null where the item's type is unknown). Returns the promoted dtype,
// Unknown when an item or its dtype is unknown. Fails on an empty list or a
// known non-tensor item, in item order with `item`'s own failures.
DType for_each_tensor_item(const CallContext& ctx, std::string_view name,
                           const std::function<void(size_t, const TensorType*)>& item);
// Like tensor_arg but the result must be a tensor with known rank, else nullopt.
std::optional<Shape> shape_arg(const CallContext& ctx, std::string_view name);
DType dtype_of_arg(const CallContext& ctx, std::string_view name);

// A literal int or a SymInt-typed node with known value.
std::optional<SymInt> symint_value(const CallContext& ctx, const Arg& a);
std::optional<SymInt> symint_arg(const CallContext& ctx, std::string_view name);
// An int literal only (dims, axes).
std::optional<int64_t> int_arg(const CallContext& ctx, std::string_view name);
int64_t require_int(const CallContext& ctx, std::string_view name);
// A list argument whose every element is a known SymInt; nullopt otherwise
// (also for None).
std::optional<std::vector<SymInt>> symint_list_arg(const CallContext& ctx, std::string_view name);
// A list of int literals; nullopt for None. Throws on non-literal elements.
std::optional<std::vector<int64_t>> int_list_arg(const CallContext& ctx, std::string_view name);
// A ScalarType argument: DType literal or integer code; nullopt for None.
std::optional<DType> dtype_arg(const CallContext& ctx, std::string_view name);
std::optional<bool> bool_arg(const CallContext& ctx, std::string_view name);

// Wraps a possibly negative dim into [0, rank); throws naming `what`.
int64_t wrap_dim(int64_t dim, int64_t rank, std::string_view what);
// Numpy broadcasting of two shapes; throws naming the arguments on mismatch.
Shape broadcast(const Shape& a, const Shape& b, std::string_view a_name, std::string_view b_name);
// Type promotion of two tensor dtypes (Unknown if either is).
DType promote(DType a, DType b);
// Definitely different (both constant and unequal, or constant difference).
bool dims_differ(const SymInt& a, const SymInt& b);
std::string shape_str(const Shape& s);

}  // namespace meta
}  // namespace eqfuse
