// Meta functions (shape/dtype inference) for the misc op family.
#include "graph/meta_common.hpp"

namespace eqfuse {

void add_misc_meta(OpRegistry& reg) {
  (void)reg;
}

}  // namespace eqfuse
