// The example inputs recorded in a runnable repro (`fx_graph_runnable.py`,
// Inductor's `output_code.py`), read as input types for graphs whose
// placeholders carry no annotations. Two forms are read:
//
//   * torch 2.1+ `def load_args(reader):` lines
//       buf0 = reader.storage(None, 8192, dtype_hint=torch.bfloat16)
//       reader.tensor(buf0, (16, 128), dtype=torch.bfloat16, is_leaf=True)  # arg0_1
//       reader.symint(16)  # arg2_1
//     (no `dtype=` means float32; a stride tuple and keyword arguments such
//     as storage_offset or requires_grad are accepted and ignored);
//   * older `NAME = rand_strided((16, 128), (128, 1), device='cuda:0',
//     dtype=torch.float16)` lines (dtype positional or keyword).
//
// Only dtype and shape are kept (as print_readable annotates placeholders);
// dims may be symbolic (`(s0, 128)`). A recognised line that cannot be read
// is an eqfuse::Error at file:line:col.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/io/input_types.hpp"

namespace eqfuse {

struct RunnableInput {
  std::string name;     // from the `# name` comment or the assignment; empty if absent
  size_t position = 0;  // index among the example inputs (placeholder order)
  ValueType type;
  int line = 0;  // 1-based line in the file
};

// The example inputs of `text`, in order; empty when the text has neither
// form. `origin` names the file in errors.
std::vector<RunnableInput> parse_runnable_inputs(std::string_view text, std::string_view origin);

// The entries of `inputs` that type a placeholder of `g` that has no
// annotation: by name, or by position when the entry has no name (inputs
// naming no placeholder are dropped). Ready for LoadOptions::input_types.
InputTypes runnable_input_types_for(const Graph& g, const std::vector<RunnableInput>& inputs);

}  // namespace eqfuse
