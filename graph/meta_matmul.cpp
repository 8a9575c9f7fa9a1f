// Meta functions (shape/dtype inference) for the matmul op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_matmul_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
