// Meta functions (shape/dtype inference) for the npu op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_npu_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
