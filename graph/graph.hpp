// The FX graph IR: what eqfuse reads, optimizes and prints.
//
// A Graph is a vector of Nodes in program order, addressed by NodeRef
// (index). Node kinds mirror torch.fx: placeholders (inputs), get_attr,
// op calls, tuple projections (`getitem`) and one output node. Arguments are
// Arg trees (None, bool, int, float, str, dtype, device, other literals,
// node references, lists/tuples).
//
// Calls to ops known to the OpRegistry are *normalized* by resolve_ops():
// `args` then holds exactly one entry per schema argument (keyword and
// default arguments filled in) and `kwargs` is empty, so `f(a, b)` and
// `f(a, b, eps=1e-6)` compare equal. Calls to unknown ops stay opaque:
// raw args/kwargs, `op == kNoOp`, type taken from the annotation.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "base/diagnostics.hpp"
#include "base/dtype.hpp"
#include "graph/value_type.hpp"

namespace eqfuse {

struct NodeRef {
  int32_t index = -1;
  bool valid() const { return index >= 0; }
  bool operator==(const NodeRef&) const = default;
  auto operator<=>(const NodeRef&) const = default;
};

// A literal the IR does not interpret: `torch.contiguous_format`,
// `torch.strided`, an op overload passed as an argument, `self._out_spec`.
struct Literal {
  std::string text;
  bool operator==(const Literal&) const = default;
};

struct Arg;
struct ArgList {
  std::vector<Arg> items;
  bool is_tuple = false;  // printed `(a, b)` instead of `[a, b]`
  bool operator==(const ArgList&) const;
};

struct Arg {
  using Value =
      std::variant<std::monostate,  // None
                   bool, int64_t, double, std::string, DType, Device, Literal, NodeRef, ArgList>;
  Value value;

  Arg() = default;
  Arg(Value v) : value(std::move(v)) {}  // NOLINT: implicit, Arg is a value wrapper
  static Arg none() { return Arg(); }
  static Arg list(std::vector<Arg> items, bool tuple = false) {
    return Arg(ArgList{std::move(items), tuple});
  }

  bool is_none() const { return std::holds_alternative<std::monostate>(value); }
  bool is_node() const { return std::holds_alternative<NodeRef>(value); }
  bool is_list() const { return std::holds_alternative<ArgList>(value); }
  bool is_int() const { return std::holds_alternative<int64_t>(value); }
  bool is_float() const { return std::holds_alternative<double>(value); }
  bool is_bool() const { return std::holds_alternative<bool>(value); }
  NodeRef node() const { return std::get<NodeRef>(value); }
  const ArgList& as_list() const { return std::get<ArgList>(value); }
  bool operator==(const Arg& o) const { return value == o.value; }
};

inline bool ArgList::operator==(const ArgList& o) const {
  return is_tuple == o.is_tuple && items == o.items;
}

enum class NodeKind : uint8_t { Placeholder, GetAttr, Call, GetItem, Output };
std::string_view node_kind_name(NodeKind k);

// The op names that stand for the structural node kinds wherever nodes are
// named by op (the e-graph encoding, cost queries, reports), and the prefix
// of an opaque call's op there; list and tuple literals that hold nodes are
// named as `prim::list` / `prim::tuple` calls.
namespace graph_ops {
inline constexpr const char* kPlaceholder = "placeholder";
inline constexpr const char* kGetAttr = "get_attr";
inline constexpr const char* kGetItem = "getitem";
inline constexpr const char* kOpaquePrefix = "opaque:";
inline constexpr const char* kList = "prim::list";
inline constexpr const char* kTuple = "prim::tuple";
}  // namespace graph_ops

// Whether `target` can name a call in printed FX: a dotted Python name
// (`torch.ops.aten.add.Tensor`, `operator.getitem`, `my_lib.fn`) or a
// qualified op name (`aten::add.Tensor`, `npu::npu_rms_norm`). Anything else
// (`foo$bar`) would print as a call that does not read back.
bool is_call_target_name(std::string_view target);

// A Python identifier in ASCII: letters, digits and '_', not starting with a
// digit (node and input names, the segments of a dotted name).
bool is_identifier(std::string_view s);

using OpId = int32_t;
inline constexpr OpId kNoOp = -1;

struct NodeMeta {
  SourceLoc loc;            // where the node was defined in the input
  std::string stream;       // stream label (air.scope_enter scopes); empty = default stream
  std::string stack_trace;  // the `# File: ...` comment preceding the node, if any
  // eqfuse's note, printed as a `# eqfuse: ...` line before the node (a
  // fused node names its rule and the nodes it replaces).
  std::string note;
};

struct Node {
  NodeKind kind = NodeKind::Call;
  std::string name;
  // Call: the op's qualified name for torch.ops calls ("aten::add.Tensor",
  // "npu::npu_add_rms_norm" for the default overload), else the callable's
  // text ("operator.add", "torch.sigmoid"). GetAttr: the attribute path.
  std::string target;
  OpId op = kNoOp;  // set by resolve_ops() for registered ops
  std::vector<Arg> args;
  std::vector<std::pair<std::string, Arg>> kwargs;
  ValueType type;
  bool type_annotated = false;  // the input carried an annotation for it
  NodeMeta meta;

  // Projection index for GetItem nodes.
  int64_t getitem_index() const { return std::get<int64_t>(args.at(1).value); }
  NodeRef getitem_source() const { return args.at(0).node(); }
};

class Graph {
 public:
  std::string name = "GraphModule";  // class name printed in the header

  NodeRef add(Node node);  // throws Error on a duplicate name
  const Node& node(NodeRef r) const { return nodes_.at(static_cast<size_t>(r.index)); }
  Node& node(NodeRef r) { return nodes_.at(static_cast<size_t>(r.index)); }
  const std::vector<Node>& nodes() const { return nodes_; }
  std::vector<Node>& nodes() { return nodes_; }
  size_t size() const { return nodes_.size(); }
  // Capacity hint for readers that know roughly how many nodes will come.
  void reserve(size_t n) {
    nodes_.reserve(n);
    by_name_.reserve(n);
  }

  std::optional<NodeRef> find(std::string_view name) const;
  std::vector<NodeRef> placeholders() const;
  std::optional<NodeRef> output() const;  // the output node, if any
  // Values returned by the output node, in order (None entries skipped).
  std::vector<NodeRef> output_values() const;

  // users()[i] lists the nodes that reference node i, in program order.
  std::vector<std::vector<NodeRef>> users() const;
  // A fresh name `base`, `base_1`, `base_2`, ... not used in the graph.
  std::string fresh_name(std::string_view base) const;

  bool operator==(const Graph& o) const;

 private:
  // Looked up by string_view without building a string (names of real
  // models are longer than the small-string buffer).
  struct NameHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<Node> nodes_;
  std::unordered_map<std::string, int32_t, NameHash, std::equal_to<>> by_name_;
};

// Every NodeRef inside `arg`, depth first.
void collect_node_refs(const Arg& arg, std::vector<NodeRef>& out);
// Every NodeRef used by the node's args and kwargs.
std::vector<NodeRef> node_inputs(const Node& n);
// How many call nodes the graph has per target ("aten::bmm" -> 2), in
// name order: what "did this op appear or disappear" questions compare.
std::map<std::string, int64_t> call_target_counts(const Graph& g);

}  // namespace eqfuse
