// torch_npu ops with their documented math (docs/reference/torchair-passes.md §7).
// Fused ops are computed from their definition (x = x1 + x2, rstd, y,
// smooth, row max, scale, round) and never by calling the unfused kernels,
// so an equivalence check between fused and unfused graphs compares two
// independent implementations. Internal math is in double; outputs are
// rounded once at the op boundary. Quantization rounds half to even.
//
// The kernels live per op family in interp/kernels_npu_*.cpp (norms, quantization,
// fused norm + quantization, swiglu, matmuls, rotary embeddings, attention), with
// the declarations they share in kernels_npu_internal.hpp; this file registers them.
#include "interp/kernels_npu_internal.hpp"

namespace eqfuse {

// Every op has exactly one kernel among the families (none overrides another's
// entry), so the order below does not change the table.
void register_npu_kernels(KernelTable& table) {
  npu_kernels::register_rope_kernels(table);
  npu_kernels::register_attention_kernels(table);
  npu_kernels::register_norm_kernels(table);
  npu_kernels::register_quant_kernels(table);
  npu_kernels::register_norm_quant_kernels(table);
  npu_kernels::register_swiglu_kernels(table);
  npu_kernels::register_matmul_kernels(table);
}

}  // namespace eqfuse
