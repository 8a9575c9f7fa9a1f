// The `auto_functionalized` / `auto_functionalized_v2` higher-order ops:
// what torch's functionalization emits for a custom op that mutates its
// arguments (`Tensor(a!)`). In FX dumps they look like
//
//   auto_functionalized = torch.ops.higher_order.auto_functionalized(
//       torch.ops.custom.sin.default, x = arg0_1, result = empty_like)
//   auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(
//       torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (3,), _x_stride = (1,),
//       _x_storage_offset = 0, _all_bases = [arg0_1])
//
// Both are functional. They run the wrapped in-place op on copies and return
// (op outputs..., new values): v1 has one new value per mutable argument
// (schema order), v2 one per base in `_all_bases`, the mutable arguments being
// views regenerated from those bases (`_x_base_index` plus as_strided, slice or
// alias information). An op returning nothing contributes one None output.
//
// The node stays a Call with its FX target text (`op == kNoOp`) and its raw
// keyword arguments, so it prints exactly as it was read. This header decodes
// it against the wrapped op's schema; resolve_ops() validates every such call
// whose wrapped op is registered, infer_types() types it, the interpreter runs
// it and the reinplace passes rewrite it (docs/fx-format.md, docs/reinplace.md).
//
//   if (std::optional<AutoFunctionalized> af = decode_auto_functionalized(node, reg))
//     for (const MutableArg& m : af->mutables) ...
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

enum class AutoFunctionalizedVersion { V1, V2 };

inline constexpr std::string_view kAutoFunctionalizedTarget =
    "torch.ops.higher_order.auto_functionalized";
inline constexpr std::string_view kAutoFunctionalizedV2Target =
    "torch.ops.higher_order.auto_functionalized_v2";

// The version when `n` calls one of the two ops, else nullopt.
std::optional<AutoFunctionalizedVersion> auto_functionalized_version(const Node& n);
// "auto_functionalized" or "auto_functionalized_v2".
std::string_view auto_functionalized_name(AutoFunctionalizedVersion v);
// The wrapped op's qualified name ("custom::sin" for torch.ops.custom.sin.default),
// or nullopt when the first argument is not a torch.ops overload.
std::optional<std::string> auto_functionalized_wrapped_op(const Node& n);

// How v2 regenerates a mutable argument from its (new) base.
struct BaseView {
  enum class Kind {
    Base,       // only `_x_base_index`: the argument is the base itself
    Alias,      // `_x_alias = True`: aten.alias(base)
    Slice,      // `_x_slice_dim/_start/_end`: aten.slice(base, dim, start, end)
    AsStrided,  // `_x_size/_stride/_storage_offset`: aten.as_strided(base, ...)
  };
  Kind kind = Kind::Base;
  int64_t base_index = 0;
  Arg size, stride, storage_offset;  // AsStrided (ints, or SymInt nodes)
  Arg dim, start, end;               // Slice
};

struct MutableArg {
  std::string name;
  int position = 0;  // in the wrapped op's schema
  bool is_list = false;
  bool is_none = false;  // passed as None (`Tensor(a!)?`, or `_x_length = None`)
  Arg value;             // v1: the argument as passed (node, list of nodes, None)
  // v2: one entry per tensor (one for a Tensor argument, one per list
  // element); nullopt for a None element.
  std::vector<std::optional<BaseView>> views;
};

struct AutoFunctionalized {
  AutoFunctionalizedVersion version = AutoFunctionalizedVersion::V1;
  OpId op = kNoOp;
  // The wrapped op's arguments in schema order, defaults filled in. Mutable
  // arguments hold their value for v1 and None for v2 (regenerated from bases).
  std::vector<Arg> args;
  std::vector<MutableArg> mutables;  // schema order
  std::vector<Arg> bases;            // v2: `_all_bases` (nodes)
  size_t op_outputs = 1;             // max(1, number of returns of the op)

  // New values returned after the op outputs: v1 one per mutable argument,
  // v2 one per base.
  size_t new_value_count() const {
    return version == AutoFunctionalizedVersion::V1 ? mutables.size() : bases.size();
  }
  size_t output_count() const { return op_outputs + new_value_count(); }
};

// Decodes an auto_functionalized call. nullopt when `n` is no such call or
// its wrapped op is not registered (the call then stays opaque). Throws Error
// at the node's location, naming the node, when the call is malformed: no op
// overload first, an op that mutates nothing, positional arguments, a
// missing, unknown or repeated argument, a base index out of range, partial
// view information, a missing `_all_bases`.
std::optional<AutoFunctionalized> decode_auto_functionalized(const Node& n, const OpRegistry& reg);

// The call's type: a tuple (op outputs..., new values). Op outputs come from
// the wrapped op's meta function when it has one (v1), None for an op that
// returns nothing, else Unknown; new values have the type of their mutable
// argument (v1; a list gives a tuple) or base (v2).
ValueType auto_functionalized_type(const AutoFunctionalized& af, const Graph& g,
                                   const OpRegistry& reg);

}  // namespace eqfuse
