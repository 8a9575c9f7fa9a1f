// Meta functions (shape/dtype inference) for the layout op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_layout_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
