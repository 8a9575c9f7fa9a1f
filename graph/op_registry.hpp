// The op registry: every op eqfuse understands, keyed by qualified name.
//
// Built-in ops come from the catalog files graph/ops/*.schemas (embedded in
// the binary); each line is a torch schema string plus traits. Library users
// register more ops the same way:
//
//   OpRegistry reg = OpRegistry::with_builtin_ops();
//   reg.register_op("mylib::my_norm(Tensor x, float eps=1e-05) -> Tensor",
//                   {.kind = OpKind::Norm}, my_meta_fn);
//
// Registries are ordinary values passed by reference (no process-wide
// state), so two compiles can use different op sets.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graph/graph.hpp"
#include "graph/op_schema.hpp"

namespace eqfuse {

// Coarse op classes; the cost model and the rules read these.
enum class OpKind : uint8_t {
  Free,         // views/metadata: view, reshape, getitem, sym_size, t, ... (no kernel)
  Elementwise,  // add, mul, silu, casts-as-math ...
  Reduction,    // sum, mean, amax, softmax
  Norm,         // rms_norm families
  Quant,        // quantize / dynamic quant
  Matmul,       // mm, bmm, matmul, linear, quant_matmul, transpose_batchmatmul
  Cast,         // _to_copy, _npu_dtype_cast, convert_element_type
  Copy,         // copy_, clone, contiguous, cat, split copies
  Creation,     // full, zeros, ones, empty
  Collective,   // all_reduce, all_gather, reduce_scatter and matmuls fused with them
  Other,
};
std::string_view op_kind_name(OpKind k);
std::optional<OpKind> parse_op_kind(std::string_view text);

struct OpTraits {
  OpKind kind = OpKind::Other;
  // For an out-of-place op, its in-place twin (`aten::add_.Tensor`), if any.
  std::string inplace_variant;
  // For in-place/functional pairs: indices of the arguments the op mutates.
  std::vector<int> mutated_args;
  // The op is a view: its output aliases argument 0.
  bool is_view = false;
  // Shape rules declared in a catalog (docs/ops.md, "Declaring your own ops"):
  // `meta=like:ns::op` types a call as that op's meta function would, its
  // arguments taken by name; `out2=x1` makes output 2 the type of argument x1.
  std::string meta_like;
  // `meta=like:aten::_grouped_mm(self=input,mat2=weight)`: that op's argument
  // names mapped to this op's (the others are matched by name).
  std::map<std::string, std::string> meta_like_args;
  std::vector<std::pair<int, std::string>> output_as_arg;
};

// A normalized call as seen by meta functions: one Arg per schema argument.
class CallContext {
 public:
  CallContext(const OpSchema& schema, std::span<const Arg> args,
              std::function<const ValueType&(NodeRef)> type_of)
      : schema_(schema), args_(args), type_of_(std::move(type_of)) {}

  const OpSchema& schema() const { return schema_; }
  std::span<const Arg> args() const { return args_; }
  const Arg& arg(std::string_view name) const;
  // Type of a Tensor/SymInt argument that refers to a node; Unknown if the
  // argument is None or a literal.
  const ValueType& type(std::string_view name) const;
  const ValueType& type_of(NodeRef r) const { return type_of_(r); }
  bool is_none(std::string_view name) const { return arg(name).is_none(); }

 private:
  const OpSchema& schema_;
  std::span<const Arg> args_;
  std::function<const ValueType&(NodeRef)> type_of_;
};

// Shape/dtype inference. Returns the output type (a tuple for several
// returns); throws Error naming the argument on inconsistent inputs. May
// return Unknown parts when input types are unknown.
using MetaFn = std::function<ValueType(const CallContext&)>;

struct OpInfo {
  OpId id = kNoOp;
  OpSchema schema;
  OpTraits traits;
  MetaFn meta;  // empty: type comes from the dump's annotation
};

class OpRegistry {
 public:
  OpRegistry() = default;
  // All ops of the embedded catalog with their built-in meta functions.
  static OpRegistry with_builtin_ops();

  // Registers an op from its schema string; throws Error on a malformed
  // schema or a duplicate qualified name (unless `replace`).
  OpId register_op(std::string_view schema, OpTraits traits = {}, MetaFn meta = {},
                   bool replace = false);
  // Loads a catalog file (format: docs/ops.md). `origin` names it in errors.
  // Entries may declare their shape rule with `meta=like:ns::op` and
  // `out<N>=<argument>` (ops the registry already has, with their metas).
  void load_catalog(std::string_view text, std::string_view origin);
  // Attaches or replaces the meta function of a registered op.
  void set_meta(std::string_view qualified_name, MetaFn meta);

  std::optional<OpId> find(std::string_view qualified_name) const;
  // The overloads of an overload packet `ns::name` (`aten::add`: add.Tensor,
  // add.Scalar, ...) in registration order; a lookup in the name index, not
  // a scan of every op.
  std::vector<OpId> packet_members(std::string_view packet) const;
  const OpInfo& info(OpId id) const { return ops_.at(static_cast<size_t>(id)); }
  const std::vector<OpInfo>& all() const { return ops_; }

 private:
  MetaFn like_meta(const OpSchema& mine, const std::string& other_name,
                   const std::map<std::string, std::string>& renames) const;
  MetaFn declared_meta(const OpSchema& mine, const OpTraits& traits) const;
  std::vector<OpInfo> ops_;
  std::map<std::string, OpId, std::less<>> by_name_;
};

// Resolves every Call node whose target is registered: sets Node::op and
// normalizes args against the schema (positional + keyword, defaults filled;
// kwargs emptied). Throws Error at the node's location on wrong arity,
// unknown keyword, or a missing required argument. Unknown ops stay opaque;
// their names are returned (sorted, unique) so callers can note them; Python
// builtins on numbers and SymInts (`operator.mul(sym_size, 4)`), which the
// interpreter evaluates, are not listed.
std::vector<std::string> resolve_ops(Graph& g, const OpRegistry& reg);

// Runs meta functions in program order and fills Node::type. Annotated
// types are checked against inferred ones (dtype and shape must agree; an
// error names the node); unannotated nodes get the inferred type.
void infer_types(Graph& g, const OpRegistry& reg);

}  // namespace eqfuse
