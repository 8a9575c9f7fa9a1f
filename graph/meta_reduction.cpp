// Meta functions (shape/dtype inference) for the reduction op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_reduction_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
