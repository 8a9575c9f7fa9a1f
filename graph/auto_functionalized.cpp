// Decoding and typing of auto_functionalized / auto_functionalized_v2 calls
// (graph/auto_functionalized.hpp). The keyword layout follows torch's
// `torch/_higher_order_ops/auto_functionalize.py`: v1 passes every argument of
// the wrapped op by name; v2 passes the non-mutable ones by name and, for each
// mutable argument `x`, `_x_base_index` plus optional view information
// (`_x_alias`, `_x_slice_dim/_start/_end`, `_x_size/_stride/_storage_offset`;
// lists: `_x_length` and `_x_<i>_...` per element).
#include "graph/auto_functionalized.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "graph/op_schema.hpp"

namespace eqfuse {
namespace {

// The keyword arguments of one call, with the ones already read marked, so
// that leftovers can be reported as unknown.
class Keywords {
 public:
  Keywords(const Node& n, std::string_view hop) : n_(n), hop_(hop) {
    for (size_t i = 0; i < n.kwargs.size(); ++i) {
      if (!index_.emplace(n.kwargs[i].first, i).second)
        error("argument '{}' is given more than once", n.kwargs[i].first);
    }
  }

  bool has(const std::string& key) const { return index_.contains(key); }
  const Arg* find(const std::string& key) {
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    used_.insert(key);
    return &n_.kwargs[it->second].second;
  }
  const Arg& require(const std::string& key, std::string_view why) {
    if (const Arg* a = find(key)) return *a;
    error("missing argument '{}' ({})", key, why);
  }
  std::vector<std::string> unused() const {
    std::vector<std::string> out;
    for (const auto& kv : n_.kwargs)
      if (!used_.contains(kv.first)) out.push_back(kv.first);
    return out;
  }

  template <typename... A>
  [[noreturn]] void error(fmt::format_string<A...> f, A&&... args) const {
    throw Error(
        fmt::format("node '{}' ({}): {}", n_.name, hop_, fmt::format(f, std::forward<A>(args)...)),
        n_.meta.loc);
  }

 private:
  const Node& n_;
  std::string_view hop_;
  std::map<std::string, size_t, std::less<>> index_;
  std::set<std::string, std::less<>> used_;
};

bool is_int_like(const Arg& a) {
  return a.is_int() || a.is_node();
}

bool is_int_list(const Arg& a) {
  if (!a.is_list()) return false;
  for (const Arg& e : a.as_list().items)
    if (!is_int_like(e)) return false;
  return true;
}

// The three keywords `{prefix}_{name}` of one kind of view information, all
// required once any of them is given; false when none is.
bool read_view_keywords(Keywords& kw, const std::string& prefix,
                        const std::array<std::string_view, 3>& names, std::string_view kind,
                        const std::array<Arg*, 3>& out) {
  auto key = [&](size_t i) { return fmt::format("{}_{}", prefix, names[i]); };
  if (!kw.has(key(0)) && !kw.has(key(1)) && !kw.has(key(2))) return false;
  for (size_t i = 0; i < 3; ++i)
    *out[i] = kw.require(key(i), fmt::format("{} view information", kind));
  return true;
}

// One `{prefix}_base_index` entry and its view information (v2).
std::optional<BaseView> read_view(Keywords& kw, const std::string& prefix, size_t base_count) {
  const Arg& index = kw.require(prefix + "_base_index", "the index of its base in _all_bases");
  if (index.is_none()) return std::nullopt;
  if (!index.is_int()) kw.error("'{}_base_index' must be an int or None", prefix);
  BaseView v;
  v.base_index = std::get<int64_t>(index.value);
  if (v.base_index < 0 || static_cast<size_t>(v.base_index) >= base_count)
    kw.error("'{}_base_index' is {} but _all_bases has {} entr{}", prefix, v.base_index, base_count,
             base_count == 1 ? "y" : "ies");
  if (const Arg* alias = kw.find(prefix + "_alias")) {
    if (!alias->is_bool()) kw.error("'{}_alias' must be True", prefix);
    v.kind = BaseView::Kind::Alias;
  } else if (read_view_keywords(kw, prefix, {"size", "stride", "storage_offset"}, "as_strided",
                                {&v.size, &v.stride, &v.storage_offset})) {
    v.kind = BaseView::Kind::AsStrided;
    if (!is_int_list(v.size) || !is_int_list(v.stride) || !is_int_like(v.storage_offset))
      kw.error("the as_strided view information of '{}' must be int lists and an int", prefix);
  } else if (read_view_keywords(kw, prefix, {"slice_dim", "slice_start", "slice_end"}, "slice",
                                {&v.dim, &v.start, &v.end})) {
    v.kind = BaseView::Kind::Slice;
    if (!is_int_like(v.dim) || !is_int_like(v.start) || !is_int_like(v.end))
      kw.error("the slice view information of '{}' must be ints", prefix);
  }
  return v;
}

void read_v2_mutable(Keywords& kw, MutableArg& m, size_t base_count) {
  if (kw.has(m.name))
    kw.error(
        "mutable argument '{}' is passed directly; auto_functionalized_v2 passes it as "
        "_{}_base_index into _all_bases",
        m.name, m.name);
  std::string prefix = "_" + m.name;
  if (!m.is_list) {
    m.views.push_back(read_view(kw, prefix, base_count));
    m.is_none = !m.views.back();
    return;
  }
  const Arg& length = kw.require(prefix + "_length", "the length of the mutable list");
  if (length.is_none()) {
    m.is_none = true;
    return;
  }
  if (!length.is_int() || std::get<int64_t>(length.value) < 0)
    kw.error("'{}_length' must be a non-negative int or None", prefix);
  for (int64_t i = 0; i < std::get<int64_t>(length.value); ++i)
    m.views.push_back(read_view(kw, fmt::format("{}_{}", prefix, i), base_count));
}

void read_v1_mutable(Keywords& kw, MutableArg& m, const SchemaArg& a) {
  const Arg* v = kw.find(m.name);
  if (!v) kw.error("missing mutable argument '{}'", m.name);
  m.value = *v;
  m.is_none = v->is_none();
  if (m.is_none && !a.optional) kw.error("mutable argument '{}' is None", m.name);
  bool ok = m.is_none || (m.is_list ? v->is_list() : v->is_node());
  if (m.is_list && ok) {
    for (const Arg& e : v->as_list().items) ok = ok && (e.is_node() || e.is_none());
  }
  if (!ok)
    kw.error("mutable argument '{}' must be {}", m.name,
             m.is_list ? "a list of tensors" : "a tensor");
}

std::vector<Arg> read_bases(Keywords& kw) {
  const Arg& bases = kw.require("_all_bases", "the bases of the mutable arguments");
  if (!bases.is_list()) kw.error("'_all_bases' must be a list of tensors");
  for (const Arg& b : bases.as_list().items)
    if (!b.is_node()) kw.error("'_all_bases' must be a list of tensors");
  return bases.as_list().items;
}

ValueType type_of_arg(const Graph& g, const Arg& a) {
  if (a.is_node()) return g.node(a.node()).type;
  if (a.is_list()) {
    std::vector<ValueType> elements;
    for (const Arg& e : a.as_list().items) elements.push_back(type_of_arg(g, e));
    return ValueType::of_tuple(std::move(elements));
  }
  if (a.is_none()) return ValueType::none();
  return ValueType::unknown();
}

}  // namespace

std::optional<AutoFunctionalizedVersion> auto_functionalized_version(const Node& n) {
  if (n.kind != NodeKind::Call) return std::nullopt;
  if (n.target == kAutoFunctionalizedTarget) return AutoFunctionalizedVersion::V1;
  if (n.target == kAutoFunctionalizedV2Target) return AutoFunctionalizedVersion::V2;
  return std::nullopt;
}

std::string_view auto_functionalized_name(AutoFunctionalizedVersion v) {
  return v == AutoFunctionalizedVersion::V1 ? "auto_functionalized" : "auto_functionalized_v2";
}

std::optional<std::string> auto_functionalized_wrapped_op(const Node& n) {
  if (n.args.empty() || !std::holds_alternative<Literal>(n.args[0].value)) return std::nullopt;
  std::string_view text = std::get<Literal>(n.args[0].value).text;
  // An overload, never a packet: torch.ops.ns.name.overload has four dots.
  if (!text.starts_with("torch.ops.") || std::count(text.begin(), text.end(), '.') != 4)
    return std::nullopt;
  return qualified_name_from_fx_target(text);
}

std::optional<AutoFunctionalized> decode_auto_functionalized(const Node& n, const OpRegistry& reg) {
  std::optional<AutoFunctionalizedVersion> version = auto_functionalized_version(n);
  if (!version) return std::nullopt;
  Keywords kw(n, auto_functionalized_name(*version));
  std::optional<std::string> wrapped = auto_functionalized_wrapped_op(n);
  if (!wrapped)
    kw.error("the first argument must be an op overload such as torch.ops.custom.sin.default");
  if (n.args.size() != 1)
    kw.error("takes the op and then keyword arguments only ({} positional arguments given)",
             n.args.size());
  std::optional<OpId> op = reg.find(*wrapped);
  if (!op) return std::nullopt;
  const OpSchema& schema = reg.info(*op).schema;
  if (!schema.mutates_any())
    kw.error("'{}' mutates none of its arguments, so it cannot be auto-functionalized", *wrapped);

  AutoFunctionalized af;
  af.version = *version;
  af.op = *op;
  af.op_outputs = std::max<size_t>(1, schema.returns.size());
  if (af.version == AutoFunctionalizedVersion::V2) af.bases = read_bases(kw);
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const SchemaArg& a = schema.args[i];
    if (a.mutates()) {
      MutableArg m{.name = a.name,
                   .position = static_cast<int>(i),
                   .is_list = a.type == ArgType::TensorList};
      if (af.version == AutoFunctionalizedVersion::V1) {
        read_v1_mutable(kw, m, a);
        af.args.push_back(m.value);
      } else {
        read_v2_mutable(kw, m, af.bases.size());
        af.args.push_back(Arg::none());
      }
      af.mutables.push_back(std::move(m));
      continue;
    }
    if (const Arg* v = kw.find(a.name)) {
      af.args.push_back(*v);
    } else if (a.default_value) {
      af.args.push_back(*a.default_value);
    } else {
      kw.error("missing argument '{}' of {}", a.name, *wrapped);
    }
  }
  if (std::vector<std::string> extra = kw.unused(); !extra.empty()) {
    if (extra.front() == "_op_schema")
      kw.error("wrapping a higher-order op (_op_schema) is not supported");
    kw.error("unknown argument '{}' for {} ({})", extra.front(), *wrapped, schema.to_string());
  }
  return af;
}

ValueType auto_functionalized_type(const AutoFunctionalized& af, const Graph& g,
                                   const OpRegistry& reg) {
  const OpInfo& info = reg.info(af.op);
  std::vector<ValueType> elements(af.op_outputs);
  if (info.schema.returns.empty()) {
    elements[0] = ValueType::none();
  } else if (info.meta && af.version == AutoFunctionalizedVersion::V1) {
    CallContext ctx(info.schema, af.args,
                    [&g](NodeRef r) -> const ValueType& { return g.node(r).type; });
    ValueType out = info.meta(ctx);
    if (info.schema.returns.size() == 1) {
      elements[0] = out;
    } else if (out.kind == ValueType::Kind::Tuple && out.elements.size() == elements.size()) {
      elements = out.elements;
    }
  }
  if (af.version == AutoFunctionalizedVersion::V1) {
    for (const MutableArg& m : af.mutables) elements.push_back(type_of_arg(g, m.value));
  } else {
    for (const Arg& b : af.bases) elements.push_back(type_of_arg(g, b));
  }
  return ValueType::of_tuple(std::move(elements));
}

}  // namespace eqfuse
