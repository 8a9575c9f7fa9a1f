// Random graph inputs: symbol sizes, per-dtype value ranges and op-friendly
// ranges chosen from how each placeholder is used.
#include "interp/random_inputs.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <bit>

#include "interp/float16.hpp"
#include "interp/tensor_loops.hpp"

namespace eqfuse {
namespace {

struct Range {
  double lo, hi;
};

// Arguments that want positive values: quantization scales (a scale near 0
// blows up x / scale) and inputs of sqrt/rsqrt/log/reciprocal.
std::optional<Range> friendly_range(std::string_view target, std::string_view arg) {
  std::string_view op = target.substr(0, target.find('.'));
  if (op == "npu::npu_quant_matmul" && arg == "scale") return Range{0.001, 0.02};
  static constexpr std::string_view kScaleArgs[] = {
      "scales",        "scale",   "smooth_scales", "smooth_scale1",
      "smooth_scale2", "scales1", "scales2",       "pertoken_scale"};
  for (std::string_view s : kScaleArgs) {
    if (arg == s) return Range{0.5, 2.0};
  }
  static constexpr std::string_view kPositiveOps[] = {"aten::sqrt", "aten::rsqrt", "aten::log",
                                                      "aten::reciprocal"};
  for (std::string_view p : kPositiveOps) {
    if (op == p && arg == "self") return Range{0.25, 2.0};
  }
  return std::nullopt;
}

// For each node index, the range its first range-asking use wants.
std::vector<std::optional<Range>> ranges_from_uses(const Graph& g, const OpRegistry* reg) {
  std::vector<std::optional<Range>> out(g.size());
  auto note = [&](std::string_view target, std::string_view arg_name, const Arg& a) {
    if (!a.is_node()) return;
    auto& slot = out[static_cast<size_t>(a.node().index)];
    if (!slot) slot = friendly_range(target, arg_name);
  };
  for (const Node& n : g.nodes()) {
    if (n.kind != NodeKind::Call) continue;
    for (const auto& [name, a] : n.kwargs) note(n.target, name, a);
    if (reg && n.op != kNoOp) {
      const OpSchema& s = reg->info(n.op).schema;
      std::string qualified = s.qualified_name();
      for (size_t i = 0; i < s.args.size() && i < n.args.size(); ++i) {
        note(qualified, s.args[i].name, n.args[i]);
      }
    }
  }
  return out;
}

// Index arguments: the values must address the indexed tensor (an embedding
// row, a gathered or scattered position). `dim_arg` names the argument
// holding the dim (empty: dim 0). A `per_dim_list` index argument is a
// Tensor?[] whose k-th entry indexes dim k (index.Tensor, index_put; a bool
// mask entry covers as many dims as its rank).
struct IndexUse {
  std::string_view op, index_arg, indexed_arg, dim_arg;
  bool per_dim_list = false;
};
constexpr IndexUse kIndexUses[] = {
    {"aten::embedding", "indices", "weight", ""},
    {"aten::index_select", "index", "self", "dim"},
    {"aten::gather", "index", "self", "dim"},
    {"aten::scatter", "index", "self", "dim"},
    {"aten::scatter_", "index", "self", "dim"},
    {"aten::scatter_add", "index", "self", "dim"},
    {"aten::scatter_add_", "index", "self", "dim"},
    {"aten::scatter_reduce", "index", "self", "dim"},
    {"aten::index_add", "index", "self", "dim"},
    {"aten::index_add_", "index", "self", "dim"},
    {"aten::index_fill", "index", "self", "dim"},
    {"aten::index_fill_", "index", "self", "dim"},
    {"aten::index", "indices", "self", "", true},
    {"aten::index_put", "indices", "self", "", true},
    {"aten::index_put_", "indices", "self", "", true},
    {"aten::_unsafe_index", "indices", "self", "", true},
    {"aten::_unsafe_index_put", "indices", "self", "", true},
    // rows of the rotary cos/sin cache (interp/kernels_npu.cpp)
    {"vllm::npu_rotary_embedding", "positions", "cos_sin_cache", ""},
    {"vllm::qkv_rmsnorm_rope", "positions", "cos_sin_cache", ""},
};

// The known size of dim `dim` (negative counts from the end) of `shape`.
std::optional<int64_t> dim_size(const Shape& shape, int64_t dim, const SymBindings& bindings) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (dim < 0) dim += rank;
  if (dim < 0 || dim >= rank) return std::nullopt;
  std::optional<int64_t> size = shape[static_cast<size_t>(dim)].evaluate(bindings);
  if (!size || *size <= 0) return std::nullopt;
  return size;
}

// (index node, exclusive bound) for each entry of a per-dim index list.
std::vector<std::pair<NodeRef, int64_t>> list_index_limits(const Graph& g, const Arg& list,
                                                           const Shape& indexed,
                                                           const SymBindings& bindings) {
  std::vector<std::pair<NodeRef, int64_t>> out;
  if (!list.is_list()) return out;
  int64_t dim = 0;
  for (const Arg& item : list.as_list().items) {
    if (!item.is_node()) {  // None: the dim is taken whole
      ++dim;
      continue;
    }
    const ValueType& t = g.node(item.node()).type;
    if (t.kind != ValueType::Kind::Tensor) break;
    if (t.tensor.dtype == DType::Bool || t.tensor.dtype == DType::UInt8) {
      if (!t.tensor.shape) break;  // a mask of unknown rank: later dims are unknown
      dim += static_cast<int64_t>(t.tensor.shape->size());
      continue;
    }
    if (auto size = dim_size(indexed, dim, bindings)) out.emplace_back(item.node(), *size);
    ++dim;
  }
  return out;
}

// Ops whose result holds only values of their first argument (every entry of it, for a
// list): views, copies, gathers by index, concatenation.
bool forwards_values(const OpInfo& info) {
  static const std::set<std::string, std::less<>> kForwarding = {
      "clone", "contiguous", "reshape", "lift_fresh_copy", "gather",      "index_select", "index",
      "cat",   "stack",      "repeat",  "flatten",         "expand_copy", "_unsafe_index"};
  return info.traits.is_view ||
         (info.schema.ns == "aten" && kForwarding.contains(info.schema.name));
}

// An index's bound also bounds the inputs its values come from: BERT's token-type ids are
// a buffer expanded, gathered by position and expanded again before they index a table.
// Nodes are visited last to first, so bounds travel through chains of such ops.
void carry_limits_to_sources(const Graph& g, const OpRegistry& reg,
                             std::vector<std::optional<int64_t>>& limits) {
  for (size_t i = g.size(); i-- > 0;) {
    const std::optional<int64_t> bound = limits[i];
    const Node& n = g.nodes()[i];
    if (!bound || n.kind != NodeKind::Call || n.op == kNoOp || n.args.empty()) continue;
    if (!forwards_values(reg.info(n.op))) continue;
    auto carry = [&](const Arg& a) {
      if (!a.is_node()) return;
      auto& slot = limits[static_cast<size_t>(a.node().index)];
      slot = slot ? std::min(*slot, *bound) : *bound;
    };
    const Arg& source = n.args.front();
    if (source.is_list()) {
      for (const Arg& item : source.as_list().items) carry(item);
    } else {
      carry(source);
    }
  }
}

// For each node index, the exclusive upper bound its use as an index asks
// for (the smallest over its uses), when the indexed size is known.
std::vector<std::optional<int64_t>> index_limits(const Graph& g, const OpRegistry* reg,
                                                 const SymBindings& bindings) {
  std::vector<std::optional<int64_t>> out(g.size());
  if (!reg) return out;
  auto limit = [&](NodeRef index, int64_t size) {
    auto& slot = out[static_cast<size_t>(index.index)];
    slot = slot ? std::min(*slot, size) : size;
  };
  for (const Node& n : g.nodes()) {
    if (n.kind != NodeKind::Call || n.op == kNoOp) continue;
    const OpSchema& s = reg->info(n.op).schema;
    const std::string qualified = s.qualified_name();
    const std::string_view op = std::string_view(qualified).substr(0, qualified.find('.'));
    if (op == "aten::one_hot") {  // class indices below a given num_classes
      const Arg& self = n.args.at(0);
      const Arg& classes = n.args.at(1);
      if (self.is_node() && classes.is_int() && std::get<int64_t>(classes.value) > 0)
        limit(self.node(), std::get<int64_t>(classes.value));
      continue;
    }
    for (const IndexUse& use : kIndexUses) {
      if (use.op != op) continue;
      auto arg = [&](std::string_view name) -> const Arg* {
        for (size_t i = 0; i < s.args.size() && i < n.args.size(); ++i)
          if (s.args[i].name == name) return &n.args[i];
        return nullptr;
      };
      const Arg* index = arg(use.index_arg);
      const Arg* indexed = arg(use.indexed_arg);
      if (!index || !indexed || !indexed->is_node()) continue;
      const ValueType& t = g.node(indexed->node()).type;
      if (t.kind != ValueType::Kind::Tensor || !t.tensor.shape) continue;
      if (use.per_dim_list) {
        for (auto [node, size] : list_index_limits(g, *index, *t.tensor.shape, bindings))
          limit(node, size);
        continue;
      }
      if (!index->is_node()) continue;
      int64_t dim = 0;
      if (!use.dim_arg.empty()) {
        const Arg* d = arg(use.dim_arg);
        if (!d || !d->is_int()) continue;
        dim = std::get<int64_t>(d->value);
      }
      if (auto size = dim_size(*t.tensor.shape, dim, bindings)) limit(index->node(), *size);
    }
  }
  carry_limits_to_sources(g, *reg, out);
  return out;
}

Tensor fill_range(DType dtype, const Dims& shape, SplitMix64& rng, Range r) {
  Tensor t = Tensor::zeros(dtype, shape);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = rng.uniform(r.lo, r.hi);
    if (dtype == DType::Int64) {
      // Integer scales carry fp32 bits (npu_trans_quant_param packing).
      t.set_flat_int(i, static_cast<int64_t>(std::bit_cast<uint32_t>(static_cast<float>(v))));
    } else {
      t.set_flat(i, v);
    }
  }
  return t;
}

// Integers in [0, limit).
Tensor bounded_ints(DType dtype, const Dims& shape, SplitMix64& rng, int64_t limit) {
  Tensor t = Tensor::zeros(dtype, shape);
  for (int64_t i = 0; i < t.numel(); ++i) t.set_flat_int(i, rng.integer(0, limit - 1));
  return t;
}

bool boundable(DType d) {
  return !dtype_is_floating(d) && d != DType::Bool;
}

// Seeds get_attr values apart from placeholders of the same name.
constexpr uint64_t kAttrSalt = 0x6765746174747221ull;

AttrValues attr_values(const Graph& g, uint64_t seed, const SymBindings& bindings,
                       const std::vector<std::optional<int64_t>>& limits) {
  // The smallest bound over the nodes of each target, and the first such node.
  std::map<std::string_view, std::pair<const Node*, int64_t>> bounded;
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    const std::optional<int64_t> limit = limits[i];
    if (n.kind != NodeKind::GetAttr || !limit || *limit <= 0) continue;
    if (n.type.kind != ValueType::Kind::Tensor || !n.type.tensor.shape) continue;
    if (!boundable(n.type.tensor.dtype)) continue;
    auto [it, fresh] = bounded.try_emplace(n.target, &n, *limit);
    if (!fresh) it->second.second = std::min(it->second.second, *limit);
  }
  AttrValues out;
  for (const auto& [target, entry] : bounded) {
    const auto [n, limit] = entry;
    Dims shape;
    for (const SymInt& d : *n->type.tensor.shape) {
      std::optional<int64_t> v = d.evaluate(bindings);
      if (!v || *v < 0) break;
      shape.push_back(*v);
    }
    // A size not known here: left to the interpreter, which reports it.
    if (shape.size() != n->type.tensor.shape->size()) continue;
    SplitMix64 rng(hash_string(hash_combine(seed, kAttrSalt), target));
    Tensor x;
    try {
      x = bounded_ints(n->type.tensor.dtype, shape, rng, limit);
    } catch (const std::invalid_argument&) {
      continue;  // too large: the interpreter reports it at the node
    }
    x.storage()->version = 0;
    out.emplace(std::string(target), std::move(x));
  }
  return out;
}

[[noreturn]] void fail_at(const Node& n, const std::string& msg) {
  throw Error(fmt::format("input '{}': {}", n.name, msg), n.meta.loc);
}

// `d` under the chosen or bound sizes (--bind); a value that leaves int64 is an
// Error naming the input, the expression and the sizes, never a wrapped size.
std::optional<int64_t> evaluate_at(const Node& input, const SymInt& d, const SymBindings& b) {
  try {
    return d.evaluate(b);
  } catch (const IntOverflow& e) {
    fail_at(input, e.what());
  }
}

// Calls `f` on every plain symbol (not an opaque atom such as `floor(s0/3)`,
// which cannot be chosen freely) of the inputs' sizes, in input order.
template <class F>
void for_each_input_symbol(const Graph& g, F&& f) {
  auto add_atoms = [&](const SymInt& d) {
    for (const std::string& atom : d.atoms()) {
      bool plain = !atom.empty() && atom.find_first_of("()/*+- ") == std::string::npos;
      if (plain) f(atom);
    }
  };
  for (NodeRef r : g.placeholders()) {
    const ValueType& t = g.node(r).type;
    if (t.kind == ValueType::Kind::Tensor && t.tensor.shape) {
      for (const SymInt& d : *t.tensor.shape) add_atoms(d);
    }
    if (t.kind == ValueType::Kind::SymInt && t.sym) add_atoms(*t.sym);
  }
}

// Symbol sizes: the caller's, else chosen per symbol from the seed.
SymBindings choose_symbols(const Graph& g, uint64_t seed, const RandomInputOptions& options) {
  SymBindings b = options.bindings;
  for_each_input_symbol(g, [&](const std::string& atom) {
    if (b.contains(atom)) return;
    SplitMix64 rng(hash_string(seed, atom));
    b[atom] = rng.integer(options.min_symbol_size, options.max_symbol_size);
  });
  return b;
}

}  // namespace

namespace {

// One random integer of an integral dtype (small ranges: indices, masks and
// quantized values stay meaningful).
int64_t random_integer(DType dtype, SplitMix64& rng) {
  switch (dtype) {
    case DType::Bool:
      return rng.integer(0, 1);
    case DType::Int8:
    case DType::QInt8:
      return rng.integer(-8, 8);
    case DType::UInt8:
    case DType::QUInt8:
    case DType::QUInt4x2:
      return rng.integer(0, 15);
    case DType::Int16:
    case DType::Int32:
    case DType::Int64:
    case DType::QInt32:
      return rng.integer(0, 3);
    default:  // as set_flat of a float would store it
      return double_to_int(rng.uniform(-2.0, 2.0), dtype);
  }
}

}  // namespace

Tensor random_tensor(DType dtype, const Dims& shape, SplitMix64& rng) {
  Tensor t = Tensor::zeros(dtype, shape);
  // Values are drawn in flat order and written a chunk at a time into the
  // fresh contiguous buffer, rounded/cast as set_flat/set_flat_int would
  // (weights of real graphs have hundreds of millions of elements).
  constexpr int64_t kChunk = 4096;
  const int64_t n = t.numel();
  std::vector<double> floats;
  std::vector<int64_t> ints;
  for (int64_t first = 0; first < n; first += kChunk) {
    const size_t len = static_cast<size_t>(std::min(kChunk, n - first));
    if (!t.is_int_storage()) {
      floats.resize(len);
      for (double& x : floats) x = rng.uniform(-2.0, 2.0);
      t.write_contiguous_run(first, floats);
    } else {
      ints.resize(len);
      for (int64_t& x : ints) x = random_integer(dtype, rng);
      t.write_contiguous_run(first, ints);
    }
  }
  return t;
}

std::vector<std::string> input_symbols(const Graph& graph) {
  std::vector<std::string> out;
  for_each_input_symbol(graph, [&](const std::string& atom) { out.push_back(atom); });
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

RandomInputs random_inputs(const Graph& graph, uint64_t seed, const RandomInputOptions& options) {
  RandomInputs out;
  out.bindings = choose_symbols(graph, seed, options);
  std::vector<std::optional<Range>> ranges = ranges_from_uses(graph, options.registry);
  std::vector<std::optional<int64_t>> limits = index_limits(graph, options.registry, out.bindings);
  for (NodeRef r : graph.placeholders()) {
    const Node& ph = graph.node(r);
    const ValueType& t = ph.type;
    SplitMix64 rng(hash_string(seed, ph.name));
    switch (t.kind) {
      case ValueType::Kind::Tensor: {
        if (t.tensor.dtype == DType::Unknown || !t.tensor.shape) {
          fail_at(ph, fmt::format("its type {} is incomplete; give the dtype and shape with "
                                  "--input-types",
                                  describe(t)));
        }
        Dims shape;
        for (const SymInt& d : *t.tensor.shape) {
          std::optional<int64_t> v = evaluate_at(ph, d, out.bindings);
          if (!v)
            fail_at(ph, fmt::format("cannot choose a size for dim '{}'; bind it", d.to_string()));
          if (*v < 0) fail_at(ph, fmt::format("dim '{}' evaluates to {}", d.to_string(), *v));
          shape.push_back(*v);
        }
        std::optional<Range> range = ranges[static_cast<size_t>(r.index)];
        bool float_like = dtype_is_floating(t.tensor.dtype) || t.tensor.dtype == DType::Int64;
        Tensor x;
        try {
          const std::optional<int64_t> limit = limits[static_cast<size_t>(r.index)];
          if (limit && boundable(t.tensor.dtype)) {
            x = bounded_ints(t.tensor.dtype, shape, rng, *limit);
          } else {
            x = range && float_like ? fill_range(t.tensor.dtype, shape, rng, *range)
                                    : random_tensor(t.tensor.dtype, shape, rng);
          }
        } catch (const std::invalid_argument& e) {
          fail_at(ph, e.what());  // too large for the interpreter
        }
        x.storage()->version = 0;
        out.values.emplace_back(std::move(x));
        break;
      }
      case ValueType::Kind::SymInt: {
        std::optional<int64_t> v = t.sym ? evaluate_at(ph, *t.sym, out.bindings) : std::nullopt;
        if (!v) fail_at(ph, "the symbolic int has no value; bind its symbol");
        out.values.emplace_back(*v);
        break;
      }
      case ValueType::Kind::Int:
        out.values.emplace_back(rng.integer(1, 4));
        break;
      case ValueType::Kind::Float:
      case ValueType::Kind::SymFloat:
        out.values.emplace_back(round_to_fp32(rng.uniform(-2.0, 2.0)));
        break;
      case ValueType::Kind::Bool:
      case ValueType::Kind::SymBool:
        out.values.emplace_back(rng.integer(0, 1) == 1);
        break;
      case ValueType::Kind::None:
        out.values.emplace_back();
        break;
      default:
        fail_at(ph,
                "its type is unknown; give input types with --input-types "
                "(e.g. 'arg0_1=bf16[s0, 4096]; arg1_1=Sym(s0)')");
    }
  }
  out.attrs = attr_values(graph, seed, out.bindings, limits);
  return out;
}

AttrValues random_attr_values(const Graph& graph, uint64_t seed, const SymBindings& bindings,
                              const OpRegistry* registry) {
  return attr_values(graph, seed, bindings, index_limits(graph, registry, bindings));
}

}  // namespace eqfuse
