// reshape_unsafe_views and views_to_reshape (graph/view_safety.hpp).
#include "graph/view_safety.hpp"

#include <optional>
#include <string_view>
#include <vector>

namespace eqfuse {
namespace {

// Views whose result is contiguous when their input is: they only split or
// merge dims (row-major order kept) or add/drop size-1 dims.
bool keeps_contiguity(std::string_view op) {
  for (std::string_view k :
       {"aten::view", "aten::reshape", "aten::_unsafe_view", "aten::unsqueeze", "aten::squeeze",
        "aten::squeeze.dim", "aten::squeeze.dims", "aten::flatten.using_ints", "aten::alias",
        "aten::detach", "aten::view_as", "aten::lift_fresh"})
    if (op == k) return true;
  return false;
}

// Views that take a leading block of their input: contiguous when the input
// is and they cut along dim 0.
bool cuts_leading_dim(std::string_view op) {
  for (std::string_view k :
       {"aten::split.Tensor", "aten::split_with_sizes", "aten::chunk", "aten::unbind.int",
        "aten::slice.Tensor", "aten::narrow", "aten::select.int"})
    if (op == k) return true;
  return false;
}

bool is_unsafe_view_op(std::string_view op) {
  return op == "aten::view" || op == "aten::_unsafe_view" || op == "aten::_reshape_alias";
}

std::optional<int64_t> int_arg(const Node& n, size_t i, std::string_view key) {
  if (i < n.args.size() && n.args[i].is_int()) return std::get<int64_t>(n.args[i].value);
  for (const auto& [k, v] : n.kwargs)
    if (k == key && v.is_int()) return std::get<int64_t>(v.value);
  return std::nullopt;
}

// Whether the cut is along dim 0 (dim argument at position `pos`, default 0).
bool cuts_dim0(const Graph& g, const Node& n, size_t pos) {
  std::optional<int64_t> dim = int_arg(n, pos, "dim");
  if (!dim) return pos >= n.args.size();  // defaulted: dim 0
  const ValueType& in = g.node(n.args[0].node()).type;
  const int rank = in.is_tensor() ? in.tensor.rank() : -1;
  return *dim == 0 || (rank > 0 && *dim == -rank);
}

// Where the dim argument sits: split(self, size, dim), but slice(self, dim, ...).
size_t dim_position(std::string_view op) {
  return op == "aten::split.Tensor" || op == "aten::split_with_sizes" || op == "aten::chunk" ? 2
                                                                                             : 1;
}

// A slice with a step above 1 skips rows: never contiguous.
bool unit_step(const Node& n) {
  if (n.target != "aten::slice.Tensor") return true;
  std::optional<int64_t> step = int_arg(n, 4, "step");
  return step ? *step == 1 : n.args.size() <= 4;
}

// Whether `stride` may be the row-major strides of `size`: false only when both are
// lists of ints that differ. A size or stride that is a SymInt node (make_fx's dynamic
// shapes) counts as row-major: a tracer writes _reshape_alias(x, size, stride) with the
// strides of the view it computed from x's, which for a contiguous x are row-major.
bool maybe_row_major(const Arg& size, const Arg& stride) {
  if (!size.is_list() || !stride.is_list()) return false;
  const auto& s = size.as_list().items;
  const auto& t = stride.as_list().items;
  if (s.size() != t.size()) return false;
  int64_t expect = 1;
  for (size_t i = s.size(); i-- > 0;) {
    if (!s[i].is_int() || !t[i].is_int()) return true;
    const int64_t dim = std::get<int64_t>(s[i].value);
    if (dim != 1 && std::get<int64_t>(t[i].value) != expect) return false;
    expect *= dim;
  }
  return true;
}

bool alias_maybe_row_major(const Node& n) {
  return n.args.size() >= 3 && maybe_row_major(n.args[1], n.args[2]);
}

bool input_contiguous(const Node& n, const std::vector<bool>& c) {
  return !n.args.empty() && n.args[0].is_node() && c[static_cast<size_t>(n.args[0].node().index)];
}

// contiguous[i]: node i's value is known to be contiguous (kernels' results,
// inputs, and views that keep contiguity of a contiguous input).
std::vector<bool> contiguity(const Graph& g, const OpRegistry& reg) {
  std::vector<bool> c(g.size(), true);
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind == NodeKind::GetItem) {
      c[i] = c[static_cast<size_t>(n.getitem_source().index)];
      continue;
    }
    if (n.kind != NodeKind::Call || n.op == kNoOp || !reg.info(n.op).traits.is_view) continue;
    const bool from_contiguous = input_contiguous(n, c);
    const std::string_view op = n.target;
    if (op == "aten::_reshape_alias")
      c[i] = from_contiguous && alias_maybe_row_major(n);
    else if (keeps_contiguity(op))
      c[i] = from_contiguous;
    else if (cuts_leading_dim(op))
      c[i] = from_contiguous && cuts_dim0(g, n, dim_position(op)) && unit_step(n);
    else
      c[i] = false;  // transpose, permute, expand, as_strided, diagonal, ...
  }
  return c;
}

void make_reshape(Node& n, const OpRegistry& reg) {
  static constexpr const char* kReshape = "aten::reshape";
  if (n.args.size() > 2) n.args.resize(2);  // _reshape_alias's stride
  if (n.args.size() < 2)
    for (auto it = n.kwargs.begin(); it != n.kwargs.end(); ++it)
      if (it->first == "size") {
        n.args.push_back(it->second);
        n.kwargs.erase(it);
        break;
      }
  n.target = kReshape;
  n.op = reg.find(kReshape).value_or(kNoOp);
}

bool rewritable(const Node& n) {
  if (n.kind != NodeKind::Call || !is_unsafe_view_op(n.target)) return false;
  if (n.target == "aten::view" && !n.kwargs.empty()) return false;  // view.dtype
  if (n.target == "aten::_reshape_alias") return alias_maybe_row_major(n);
  return true;
}

}  // namespace

size_t reshape_unsafe_views(Graph& out, const Graph& input, const OpRegistry& reg) {
  const std::vector<bool> in_c = contiguity(input, reg);
  size_t rewritten = 0;
  // Rewriting a view to reshape does not change any contiguity fact: both
  // give the same strides when the view is valid, and an invalid one is what
  // is rewritten. So one analysis of `out` serves the whole pass.
  const std::vector<bool> out_c = contiguity(out, reg);
  for (Node& n : out.nodes()) {
    if (!rewritable(n) || input_contiguous(n, out_c)) continue;
    std::optional<NodeRef> same = input.find(n.name);
    const bool traced_on_strided =
        same && input.node(*same).target == n.target && !input_contiguous(input.node(*same), in_c);
    if (traced_on_strided) continue;
    make_reshape(n, reg);
    ++rewritten;
  }
  return rewritten;
}

size_t views_to_reshape(Graph& g, const OpRegistry& reg) {
  size_t rewritten = 0;
  for (Node& n : g.nodes())
    if (rewritable(n)) {
      make_reshape(n, reg);
      ++rewritten;
    }
  return rewritten;
}

}  // namespace eqfuse
