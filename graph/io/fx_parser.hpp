// Reader for FX graph text as PyTorch prints it, producing a RAW Graph
// (calls keep their args/kwargs as written; resolve_ops() normalizes them).
//
// Accepted forms (docs/fx-format.md has the full grammar and examples):
//  * print_readable / GraphModule.code: an optional `class X(torch.nn.Module):`
//    line (a logger prefix such as `[aot_autograd.py:2126 DEBUG] ` is allowed),
//    `def forward(self, a: "f32[2, 3]", b, ...):` and a body of statements
//    `name: "ann" = torch.ops.ns.op.overload(args, k = v);  a = b = None`,
//    `x = y[0]`, `x = self.attr`, `s = a + b` (SymInt arithmetic),
//    `return ...`. Annotations may be quoted (torch >= 2.1) or unquoted
//    (torch 2.0). Joint graphs (`def forward(self, primals, tangents):` +
//    `a, b, = fx_pytree.tree_flatten_spec(...)`) become flat placeholders.
//  * graph.print(): `graph():` then `%x : [num_users=1] = call_function[
//    target=...](args = (...), kwargs = {...})` lines and `return (...)`.
//  * A header-less fragment of print_readable statements (as pasted in docs):
//    names used but never defined become placeholders, in order of first use.
//
// Only the FIRST graph in the text is read: nested subgraph classes (e.g.
// `class repeated_subgraph0` inside the outer class) and further graphs in a
// log are ignored; references to subgraph modules (`x = self.sub0`) are kept
// as opaque get_attr nodes.
//
// Not accepted, with an eqfuse::Error whose message contains
// "Dynamo-level graph": module calls (`self.L__mod___conv1(x)`), method
// calls on values (`x.view(s)`), alias assignments (`y = x`), augmented
// assignments (`x += y`), call_module/call_method in graph() form. The
// print_tabular() form fails with a message containing "tabular".
//
// Every failure is an eqfuse::Error with file:line:column and the source line.
#pragma once
#include <cstddef>
#include <string_view>

#include "graph/graph.hpp"

namespace eqfuse {

struct FxParseLimits {
  size_t max_input_bytes = size_t{1} << 30;  // 1 GiB
  int max_nesting_depth = 256;               // nested lists/tuples in arguments
  // The function whose body is the graph. Rule files (rewrites/rule_file.hpp)
  // read `def search(...)` / `def replace(...)`; for names other than
  // "forward" the leading `self` parameter is optional.
  std::string_view function_name = "forward";
};

// Parses FX text. `file_name` is used in error locations. After parsing,
// stream labels are assigned (assign_stream_labels in graph/streams.hpp).
Graph parse_fx(std::string_view text, std::string_view file_name = "<input>",
               const FxParseLimits& limits = {});

}  // namespace eqfuse
