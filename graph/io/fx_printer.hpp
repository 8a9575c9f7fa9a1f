// Writer for the torch 2.x `print_readable()` form of a Graph:
//
//   class GraphModule(torch.nn.Module):
//       def forward(self, arg0_1: "f32[2, 3]", arg1_1: "Sym(s0)"):
//           add: "f32[2, 3]" = torch.ops.aten.add.Tensor(arg0_1, 1);  arg0_1 = None
//           getitem: "i8[2]" = quant[0]
//           return (add, getitem)
//
// Annotations are written whenever the type is known; `a = b = None`
// clean-ups follow the last use of a value as torch writes them; `# File:`
// comments are re-emitted from meta.stack_trace. Calls normalized by
// resolve_ops() (node.op != kNoOp) are printed like torch prints them when a
// registry is given: positional arguments up to the last one that differs
// from its default, keyword-only arguments as `name = value` only when they
// differ from their default. Without a registry, args/kwargs are printed as
// stored. parse_fx(print_fx(g)) == g for every graph parse_fx produces.
#pragma once
#include <string>

#include "graph/graph.hpp"

namespace eqfuse {

class OpRegistry;

std::string print_fx(const Graph& g, const OpRegistry* reg = nullptr);

// One argument as Python source (`[2, 3]`, `torch.float32`, `1e-05`, `'s'`).
std::string format_fx_arg(const Graph& g, const Arg& arg);
// Python repr() of a float: `1.0`, `1e-05`, `-inf`, `nan`.
std::string python_float_repr(double v);
// Python repr() of a str, single-quoted unless that needs escaping.
std::string python_str_repr(std::string_view s);

}  // namespace eqfuse
