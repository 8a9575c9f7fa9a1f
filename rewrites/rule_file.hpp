// The `.rules` text format (docs/rules.md has the full reference).
//
//   # comment
//   rule torchair/add-rms-norm-cast <=>
//       labels: torchair, fusion, npu
//       description: npu_add_rms_norm then a cast of y to float32 is npu_add_rms_norm_cast
//       example: epsilon = 1e-06
//       where: x1.dtype in [torch.float16, torch.bfloat16]
//
//       def search(x1: "f16[2, 16]", x2: "f16[2, 16]", gamma: "f16[16]", epsilon):
//           t = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma, epsilon)
//           y = t[0]
//           x_out = t[2]
//           c = torch.ops.aten._to_copy.default(y, dtype = torch.float32)
//           return (y, x_out, c)
//
//       def replace(x1, x2, gamma, epsilon):
//           f = torch.ops.npu.npu_add_rms_norm_cast.default(x1, x2, gamma, epsilon)
//           return (f[1], f[3], f[0])      <- written as getitem statements in practice
//
// A block starts at a `rule NAME [<=>|=>]` line in column 1 and holds
// indented `key: value` lines (labels, description, example, where — `where`
// may repeat) and the two functions, which are FX print_readable code read by
// the FX parser (graph/fx_parser.hpp) with their true line numbers, so every
// error points into the .rules file.
#pragma once
#include <string_view>
#include <vector>

#include "rewrites/rule.hpp"

namespace eqfuse {

// Parses every block into a RuleDef whose search/replace graphs are RAW
// (RuleLibrary::add resolves and validates them). Throws Error with
// file:line:column on syntax errors.
std::vector<RuleDef> parse_rules_file(std::string_view text, std::string_view file_name);

}  // namespace eqfuse
