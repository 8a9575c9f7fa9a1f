// How an FX call argument (graph/graph.hpp Arg) is encoded as e-graph
// children: the single definition shared by graph loading
// (bridge/from_graph.cpp) and rule patterns (rewrites/rule_compile.cpp), so a
// rule written as an FX function matches exactly what a loaded graph holds.
//
//   None/bool/int/float/str/dtype -> constant leaf; Device and other literals
//   -> string constant; node reference -> the sink's handle for that node;
//   a list of ints -> one int-list constant; any other list -> `prim::list`
//   (`prim::tuple` for tuples) over the encoded items.
//
// The Sink provides: `Handle constant(const Constant&)`, `Handle node(NodeRef)`
// and `Handle list(Symbol op, std::span<const Handle> items)`.
//
// decode_constant is the way back for a constant leaf, shared by the tensor
// analysis (literal arguments of meta functions) and the emitter
// (bridge/to_graph.cpp).
#pragma once
#include <algorithm>
#include <span>
#include <type_traits>
#include <variant>
#include <vector>

#include "egraph/enode.hpp"
#include "egraph/symbol.hpp"
#include "graph/graph.hpp"
#include "graph/op_schema.hpp"

namespace eqfuse {

template <class Sink>
auto encode_arg(const Arg& a, Sink& sink) -> decltype(sink.node(NodeRef{})) {
  using Handle = decltype(sink.node(NodeRef{}));
  return std::visit(
      [&](const auto& v) -> Handle {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return sink.constant(Constant::none());
        } else if constexpr (std::is_same_v<T, bool>) {
          return sink.constant(Constant::boolean(v));
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return sink.constant(Constant::integer(v));
        } else if constexpr (std::is_same_v<T, double>) {
          return sink.constant(Constant::floating(v));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return sink.constant(Constant::string(v));
        } else if constexpr (std::is_same_v<T, DType>) {
          return sink.constant(Constant::dtype(v));
        } else if constexpr (std::is_same_v<T, Device>) {
          return sink.constant(Constant::string(v.to_string()));
        } else if constexpr (std::is_same_v<T, Literal>) {
          return sink.constant(Constant::string(v.text));
        } else if constexpr (std::is_same_v<T, NodeRef>) {
          return sink.node(v);
        } else {
          const ArgList& list = v;
          bool all_ints = std::all_of(list.items.begin(), list.items.end(),
                                      [](const Arg& x) { return x.is_int(); });
          if (all_ints && !list.is_tuple) {
            std::vector<int64_t> values;
            for (const Arg& x : list.items) values.push_back(std::get<int64_t>(x.value));
            return sink.constant(Constant::int_list(values));
          }
          std::vector<Handle> items;
          for (const Arg& x : list.items) items.push_back(encode_arg(x, sink));
          Symbol op = Symbol::intern(list.is_tuple ? graph_ops::kTuple : graph_ops::kList);
          return sink.list(op, std::span<const Handle>(items));
        }
      },
      a.value);
}

// The argument a constant leaf was encoded from. Strings come back as the
// kind `hint` names (Device, Layout, MemoryFormat and Generator literals were
// folded into strings), as plain strings otherwise.
Arg decode_constant(const Constant& c, ArgType hint = ArgType::Any);

}  // namespace eqfuse
