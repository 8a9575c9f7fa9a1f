// OpRegistry::with_builtin_ops (graph/op_registry.hpp): the embedded op catalog
// (graph/ops/*.schemas) with the built-in meta functions attached. Defined here, beside
// the meta functions, so that the registry itself does not include shape inference.
#include "base/embedded.hpp"
#include "graph/meta/meta_common.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

OpRegistry OpRegistry::with_builtin_ops() {
  OpRegistry reg;
  for (const EmbeddedFile& f : eqfuse_op_catalog()) reg.load_catalog(f.contents, f.path);
  attach_builtin_meta(reg);
  return reg;
}

}  // namespace eqfuse
