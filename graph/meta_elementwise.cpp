// Meta functions (shape/dtype inference) for the elementwise op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_elementwise_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
