// recover_view_inplace_pattern (docs/reference/torchair-passes.md §4.2); the pattern
// and the rewrite are described in passes/recover_view_inplace.hpp.
#include "passes/recover_view_inplace.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>

#include <fmt/format.h>

#include "graph/graph_edit.hpp"

namespace eqfuse {
namespace {

constexpr std::string_view kView = "aten::view";
constexpr std::string_view kCopyInplace = "aten::copy_";

bool is_call_to(const Node& n, std::string_view target) {
  return n.kind == NodeKind::Call && n.target == target;
}

std::optional<NodeRef> node_arg(const Node& n, size_t i) {
  if (i >= n.args.size() || !n.args[i].is_node()) return std::nullopt;
  return n.args[i].node();
}

bool same_known_shape(const ValueType& a, const ValueType& b) {
  return a.is_tensor() && b.is_tensor() && a.tensor.shape && a.tensor.shape == b.tensor.shape;
}

// TorchAir matches `copy_` with exactly two arguments: after normalization,
// non_blocking is its default, False.
bool is_plain_copy(const Node& n) {
  return is_call_to(n, kCopyInplace) && n.args.size() == 3 && n.args[2].is_bool() &&
         !std::get<bool>(n.args[2].value);
}

bool users_are(const std::vector<NodeRef>& users, std::initializer_list<NodeRef> expected) {
  if (users.size() != expected.size()) return false;
  for (NodeRef e : expected)
    if (std::find(users.begin(), users.end(), e) == users.end()) return false;
  return true;
}

struct Match {
  NodeRef functional;  // N, retargeted to the in-place op
  NodeRef post;        // aten.view(N, ...)
  NodeRef copy;        // aten.copy_(P, post)
  OpId inplace;
};

// The torchair-passes.md §4.2 conditions, anchored at a copy_ node.
std::optional<Match> match_at(const Graph& g, const std::vector<std::vector<NodeRef>>& users,
                              NodeRef copy, const OpRegistry& reg, const ViewInplaceTable& table) {
  const Node& c = g.node(copy);
  if (!is_plain_copy(c)) return std::nullopt;
  std::optional<NodeRef> p = node_arg(c, 0), post = node_arg(c, 1);
  if (!p || !post || g.node(*p).kind != NodeKind::Placeholder) return std::nullopt;
  const Node& post_view = g.node(*post);
  if (!is_call_to(post_view, kView) || !same_known_shape(g.node(*p).type, post_view.type))
    return std::nullopt;
  std::optional<NodeRef> functional = node_arg(post_view, 0);
  if (!functional || g.node(*functional).kind != NodeKind::Call) return std::nullopt;
  const ViewInplaceOp* entry = table.find(g.node(*functional).target);
  std::optional<OpId> inplace = entry ? reg.find(entry->inplace) : std::nullopt;
  if (!inplace || !reg.find(entry->functional)) return std::nullopt;
  std::optional<NodeRef> pre = node_arg(g.node(*functional), 0);
  if (!pre || !is_call_to(g.node(*pre), kView) || node_arg(g.node(*pre), 0) != p)
    return std::nullopt;
  if (!users_are(users.at(size_t(pre->index)), {*functional})) return std::nullopt;
  if (!users_are(users.at(size_t(p->index)), {*pre, copy})) return std::nullopt;
  return Match{*functional, *post, copy, *inplace};
}

}  // namespace

ViewInplaceTable ViewInplaceTable::defaults() {
  ViewInplaceTable t;
  t.add({"npu::scatter_update", "npu::scatter_update_"});
  t.add({"npu::npu_scatter_nd_update", "npu::npu_scatter_nd_update_"});
  t.add({"npu::npu_quant_scatter", "npu::npu_quant_scatter_"});
  return t;
}

void ViewInplaceTable::add(ViewInplaceOp entry) {
  for (ViewInplaceOp& e : entries_) {
    if (e.functional == entry.functional) {
      e = std::move(entry);
      return;
    }
  }
  entries_.push_back(std::move(entry));
}

const ViewInplaceOp* ViewInplaceTable::find(std::string_view functional) const {
  for (const ViewInplaceOp& e : entries_)
    if (e.functional == functional) return &e;
  return nullptr;
}

RecoverViewInplaceResult recover_view_inplace_pattern(const Graph& input, const OpRegistry& reg,
                                                      const ViewInplaceTable& table) {
  RecoverViewInplaceResult r{input, {}, 0};
  const std::vector<std::vector<NodeRef>> users = input.users();
  std::vector<Match> matches;
  for (size_t i = 0; i < input.size(); ++i)
    if (auto m = match_at(input, users, NodeRef{static_cast<int32_t>(i)}, reg, table))
      matches.push_back(*m);
  r.log.push_back(fmt::format(
      "In fx_graph, find {} matched patterns of recover_view_inplace_pattern.", matches.size()));
  std::vector<bool> removed(input.size(), false);
  for (const Match& m : matches) {
    Node& n = r.graph.node(m.functional);
    const std::string functional_target = n.target;
    n.op = m.inplace;
    n.target = reg.info(m.inplace).schema.qualified_name();
    // The in-place op wrote P through its view; copying P onto itself is
    // gone, and so is the view that fed only that copy.
    if (users.at(size_t(m.copy.index)).empty()) removed[size_t(m.copy.index)] = true;
    if (removed[size_t(m.copy.index)] && users_are(users.at(size_t(m.post.index)), {m.copy}))
      removed[size_t(m.post.index)] = true;
    ++r.replaced;
    r.log.push_back(fmt::format(
        "success to replace non_inplace node {} ({}) by inserting new inplace node {} ({}).",
        n.name, functional_target, n.name, n.target));
  }
  r.graph = without_nodes(std::move(r.graph), removed);
  return r;
}

}  // namespace eqfuse
