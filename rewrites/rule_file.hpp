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
// the FX parser (graph/io/fx_parser.hpp) with their true line numbers, so every
// error points into the .rules file.
//
// Conditions several rules of a file share are written once, in a block of `where:`
// lines, and pulled into each rule with `uses:` (in the rule's own input names):
//
//   conditions attention_shapes:
//       where: q.rank == 4 and k.rank == 4
//
//   rule torchair/npu-fusion-attention =>
//       uses: attention_shapes
//
// An unknown name is an error with a suggestion; so is a block no rule uses.
//
// The built-in library is ordered by a registry (rewrites/library/registry.txt,
// docs/rules.md "The registry"): one line per rule file, `FILE  DESCRIPTION`,
// in load order; `#` starts a comment.
//
//   for (const EmbeddedFile* f : rule_files_in_registry_order(eqfuse_default_rules(),
//                                                            kBuiltinRuleRegistry))
//     lib.load_text(f->contents, f->path);
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/embedded.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse {

// Parses every block into a RuleDef whose search/replace graphs are RAW
// (RuleLibrary::add resolves and validates them). Throws Error with
// file:line:column on syntax errors.
std::vector<RuleDef> parse_rules_file(std::string_view text, std::string_view file_name);

// The registry of the built-in rule files, as embedded (path relative to the
// source root, like every EmbeddedFile).
inline constexpr std::string_view kBuiltinRuleRegistry = "rewrites/library/registry.txt";

// One registry line: a rule file of the registry's folder and what its
// family is.
struct RuleRegistryEntry {
  std::string file;         // "torchair.rules": a file name, no folder
  std::string description;  // the rest of the line
  int line = 0;             // 1-based, in the registry
};

// Parses a registry. Throws Error with file:line:column on a name that is
// not a plain `*.rules` file name, a missing description, or a file listed
// twice.
std::vector<RuleRegistryEntry> parse_rule_registry(std::string_view text,
                                                   std::string_view file_name);

// The `.rules` files of `files` (a rule folder: its registry and its .rules
// files, paths as in EmbeddedFile) in the order of the registry at
// `registry_path`. Throws Error when the registry is not among `files`, when
// it lists a file that is not there, or when a .rules file of its folder is
// not listed.
std::vector<const EmbeddedFile*> rule_files_in_registry_order(std::span<const EmbeddedFile> files,
                                                              std::string_view registry_path);

}  // namespace eqfuse
