// TorchAir's recover_view_inplace_pattern (docs/reference/torchair-passes.md §4.2): it
// undoes functionalization for scatter-like NPU ops that write a view of a
// graph input. Functionalized, `x.view(...).scatter_update_(...)` becomes
//
//   pre = aten.view(P, ...)                 # P a graph input, pre used once
//   N = npu.scatter_update(pre, ...)        # functional form, output 0 <-> arg 0
//   post = aten.view(N, P's shape)
//   copy_ = aten.copy_(P, post)             # P used exactly twice: pre, copy_
//
// and this pass turns it back into `npu.scatter_update_(pre, ...)` (N
// retargeted in place: it writes P through pre), dropping the copy_ (and
// `post` when nothing else reads it).
//
//   ViewInplaceTable table = ViewInplaceTable::defaults();
//   table.add({"aten::add.Tensor", "aten::add_.Tensor"});      // TorchAir's test does this
//   RecoverViewInplaceResult r = recover_view_inplace_pattern(graph, registry, table);
//   for (const std::string& line : r.log) std::cerr << line << '\n';
//
// eqfuse runs it where the reinplace passes run (passes/reinplace.hpp,
// before pass A), so after extraction in `optimize` and in `eqfuse
// reinplace`. The functional `aten.copy` that functionalization leaves
// between N and `post` must be gone first: rule noop/copy does that in the
// e-graph, as TorchAir's remove_noop_ops does before this pass.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

// A functional op and its in-place twin; output 0 of the functional op is
// the new value of argument 0, which the in-place op writes.
struct ViewInplaceOp {
  std::string functional;  // "npu::scatter_update"
  std::string inplace;     // "npu::scatter_update_"
  bool operator==(const ViewInplaceOp&) const = default;
};

class ViewInplaceTable {
 public:
  // TorchAir's table: scatter_update, npu_scatter_nd_update, npu_quant_scatter.
  static ViewInplaceTable defaults();
  // Adds an entry, replacing one with the same functional op.
  void add(ViewInplaceOp entry);
  const ViewInplaceOp* find(std::string_view functional) const;
  const std::vector<ViewInplaceOp>& entries() const { return entries_; }

 private:
  std::vector<ViewInplaceOp> entries_;
};

struct RecoverViewInplaceResult {
  Graph graph;
  // TorchAir's log lines: "In fx_graph, find K matched patterns of
  // recover_view_inplace_pattern.", then one "success to replace ..." per match.
  std::vector<std::string> log;
  size_t replaced = 0;
};

// Never modifies `input`. Entries whose ops are not both registered are
// skipped (TorchAir registers an entry only if the op exists).
RecoverViewInplaceResult recover_view_inplace_pattern(const Graph& input, const OpRegistry& reg,
                                                      const ViewInplaceTable& table);

}  // namespace eqfuse
