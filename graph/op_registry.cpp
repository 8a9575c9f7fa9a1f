// OpRegistry, catalog loading, call normalization (resolve_ops) and type
// inference driving (infer_types). The catalog format is documented in
// docs/ops.md; meta functions live in graph/meta/meta_*.cpp.
#include "graph/op_registry.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <set>

#include "graph/alias_analysis.hpp"
#include "graph/auto_functionalized.hpp"

namespace eqfuse {
namespace {

constexpr std::array<std::pair<OpKind, std::string_view>, 11> kKindNames = {{
    {OpKind::Free, "free"},
    {OpKind::Elementwise, "elementwise"},
    {OpKind::Reduction, "reduction"},
    {OpKind::Norm, "norm"},
    {OpKind::Quant, "quant"},
    {OpKind::Matmul, "matmul"},
    {OpKind::Cast, "cast"},
    {OpKind::Copy, "copy"},
    {OpKind::Creation, "creation"},
    {OpKind::Collective, "collective"},
    {OpKind::Other, "other"},
}};

// Position of the first `c` outside quotes, or npos.
size_t find_unquoted(std::string_view s, char c) {
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (quote) {
      if (s[i] == quote) quote = 0;
    } else if (s[i] == '"' || s[i] == '\'') {
      quote = s[i];
    } else if (s[i] == c) {
      return i;
    }
  }
  return std::string_view::npos;
}

// One catalog entry, possibly spread over continuation lines (lines that
// start with whitespace). `pieces` maps offsets in `text` back to lines.
struct CatalogEntry {
  std::string text;
  struct Piece {
    size_t offset;  // in text
    int line;
    int column;  // 1-based column of the piece's first char in its line
    std::string_view source_line;
  };
  std::vector<Piece> pieces;

  SourceLoc loc_at(std::string_view origin, size_t offset, std::string* line_text) const {
    const Piece* p = &pieces.front();
    for (const Piece& q : pieces)
      if (q.offset <= offset) p = &q;
    if (line_text) *line_text = std::string(p->source_line);
    return SourceLoc{std::string(origin), p->line,
                     p->column + static_cast<int>(offset - p->offset)};
  }
};

std::vector<CatalogEntry> split_catalog(std::string_view text) {
  std::vector<CatalogEntry> entries;
  int line_no = 0;
  while (!text.empty()) {
    size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    ++line_no;
    size_t hash = find_unquoted(line, '#');
    std::string_view content = line.substr(0, hash);
    std::string_view body = trim_blanks(content);
    if (body.empty()) continue;
    int column = static_cast<int>(body.data() - line.data()) + 1;
    bool continuation = content.front() == ' ' || content.front() == '\t';
    if (continuation && !entries.empty()) {
      CatalogEntry& e = entries.back();
      e.text += ' ';
      e.pieces.push_back({e.text.size(), line_no, column, line});
      e.text += body;
    } else {
      CatalogEntry e;
      e.pieces.push_back({0, line_no, column, line});
      e.text = std::string(body);
      entries.push_back(std::move(e));
    }
  }
  return entries;
}

[[noreturn]] void catalog_error(const CatalogEntry& e, std::string_view origin, size_t offset,
                                const std::string& message) {
  std::string line;
  SourceLoc loc = e.loc_at(origin, offset, &line);
  throw Error(message, std::move(loc), std::move(line));
}

std::vector<int> parse_index_list(std::string_view v) {
  std::vector<int> out;
  while (!v.empty()) {
    size_t comma = v.find(',');
    std::string_view item = trim_blanks(v.substr(0, comma));
    int value = 0;
    auto [p, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || p != item.data() + item.size() || value < 0)
      throw std::invalid_argument(fmt::format("bad argument index '{}'", item));
    out.push_back(value);
    if (comma == std::string_view::npos) break;
    v.remove_prefix(comma + 1);
  }
  return out;
}

// Parses `kind=elementwise inplace=aten::add_.Tensor view mutates=0,1`.
OpTraits parse_traits(std::string_view text, const CatalogEntry& e, std::string_view origin,
                      size_t base) {
  OpTraits t;
  bool has_kind = false;
  size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && text[pos] == ' ') ++pos;
    if (pos >= text.size()) break;
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view tok = text.substr(pos, end - pos);
    size_t eq = tok.find('=');
    std::string_view key = tok.substr(0, eq);
    std::string_view value = eq == std::string_view::npos ? std::string_view() : tok.substr(eq + 1);
    auto bad = [&](const std::string& why) { catalog_error(e, origin, base + pos, why); };
    if (key == "kind") {
      auto k = parse_op_kind(value);
      if (!k) bad(fmt::format("unknown op kind '{}'", value));
      t.kind = *k;
      has_kind = true;
    } else if (key == "inplace") {
      if (value.find("::") == std::string_view::npos) bad("inplace= needs a qualified op name");
      t.inplace_variant = std::string(value);
    } else if (key == "mutates") {
      try {
        t.mutated_args = parse_index_list(value);
      } catch (const std::invalid_argument& ex) {
        bad(ex.what());
      }
    } else if (key == "view" && eq == std::string_view::npos) {
      t.is_view = true;
    } else if (key == "meta" && value.starts_with("like:")) {
      std::string_view like = value.substr(5);
      if (size_t open = like.find('('); open != std::string_view::npos) {
        if (!like.ends_with(')')) bad("meta=like:OP(a=b,...): missing ')'");
        std::string_view list = like.substr(open + 1, like.size() - open - 2);
        like = like.substr(0, open);
        while (!list.empty()) {
          size_t comma = list.find(',');
          std::string_view item = list.substr(0, comma);
          size_t is = item.find('=');
          if (is == std::string_view::npos || is == 0 || is + 1 == item.size())
            bad(fmt::format("meta=like: expected THEIR_ARG=MY_ARG, got '{}'", item));
          t.meta_like_args[std::string(item.substr(0, is))] = std::string(item.substr(is + 1));
          list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
      }
      t.meta_like = std::string(like);
      if (t.meta_like.find("::") == std::string::npos) bad("meta=like: needs a qualified op name");
    } else if (key.starts_with("out") && key.size() > 3 && !value.empty()) {
      int index = 0;
      auto [p, ec] = std::from_chars(key.data() + 3, key.data() + key.size(), index);
      if (ec != std::errc() || p != key.data() + key.size() || index < 0)
        bad(fmt::format("'{}': expected out<N>=<argument>, e.g. out3=x1", tok));
      t.output_as_arg.emplace_back(index, std::string(value));
    } else {
      bad(fmt::format("unknown trait '{}'", tok));
    }
    pos = end;
  }
  if (!has_kind) catalog_error(e, origin, base - 1, "catalog entry has no kind= trait");
  return t;
}

// --- call normalization -----------------------------------------------------

// `int[2] stride=1` accepts a single int for the whole list.
Arg coerce(const SchemaArg& a, Arg v) {
  if (a.type == ArgType::Float && v.is_int())
    return Arg(static_cast<double>(std::get<int64_t>(v.value)));
  if (a.type == ArgType::IntList && a.list_length && (v.is_int() || v.is_node())) {
    return Arg::list(std::vector<Arg>(static_cast<size_t>(*a.list_length), v));
  }
  return v;
}

// Returns the normalized args, or an error message (without location).
std::variant<std::vector<Arg>, std::string> normalize(const Node& n, const OpSchema& s) {
  const size_t na = s.args.size();
  std::vector<std::optional<Arg>> slots(na);
  for (size_t i = 0; i < n.args.size(); ++i) {
    if (i >= na || s.args[i].kwarg_only) {
      size_t positional = 0;
      while (positional < na && !s.args[positional].kwarg_only) ++positional;
      return fmt::format("too many positional arguments ({} given, at most {})", n.args.size(),
                         positional);
    }
    slots[i] = n.args[i];
  }
  for (const auto& [key, value] : n.kwargs) {
    int idx = s.arg_index(key);
    if (idx < 0) return fmt::format("unknown keyword argument '{}'", key);
    if (slots[static_cast<size_t>(idx)])
      return fmt::format("argument '{}' given more than once", key);
    slots[static_cast<size_t>(idx)] = value;
  }
  std::vector<Arg> out;
  out.reserve(na);
  for (size_t i = 0; i < na; ++i) {
    const SchemaArg& a = s.args[i];
    if (!slots[i]) {
      if (!a.default_value) return fmt::format("missing required argument '{}'", a.name);
      slots[i] = *a.default_value;
    }
    out.push_back(coerce(a, std::move(*slots[i])));
  }
  return out;
}

// For packets: Tensor arguments receive nodes (or None), scalar arguments
// receive literals. Used to pick `add.Tensor` over `add.Scalar`.
bool fits_strictly(const std::vector<Arg>& args, const OpSchema& s) {
  for (size_t i = 0; i < args.size(); ++i) {
    const SchemaArg& a = s.args[i];
    if (a.type == ArgType::Tensor && !args[i].is_node() && !args[i].is_none()) return false;
    if (a.type == ArgType::Scalar && args[i].is_node()) return false;
  }
  return true;
}

}  // namespace

std::string_view op_kind_name(OpKind k) {
  for (const auto& [kind, name] : kKindNames)
    if (kind == k) return name;
  return "?";
}

std::optional<OpKind> parse_op_kind(std::string_view text) {
  for (const auto& [kind, name] : kKindNames)
    if (name == text) return kind;
  return std::nullopt;
}

const Arg& CallContext::arg(std::string_view name) const {
  int idx = schema_.arg_index(name);
  if (idx < 0 || static_cast<size_t>(idx) >= args_.size())
    throw Error(fmt::format("{} has no argument '{}'", schema_.qualified_name(), name));
  return args_[static_cast<size_t>(idx)];
}

const ValueType& CallContext::type(std::string_view name) const {
  static const ValueType kUnknown;
  const Arg& a = arg(name);
  if (!a.is_node()) return kUnknown;
  return type_of_(a.node());
}

// OpRegistry::with_builtin_ops is defined with the meta functions it attaches
// (graph/meta/builtin_registry.cpp): shape inference sits above the registry.

OpId OpRegistry::register_op(std::string_view schema, OpTraits traits, MetaFn meta, bool replace) {
  OpSchema s = OpSchema::parse(schema);
  std::string q = s.qualified_name();
  if (traits.mutated_args.empty()) {
    for (size_t i = 0; i < s.args.size(); ++i)
      if (s.args[i].mutates()) traits.mutated_args.push_back(static_cast<int>(i));
  }
  for (int idx : traits.mutated_args)
    if (idx < 0 || static_cast<size_t>(idx) >= s.args.size())
      throw Error(fmt::format("{}: mutated argument index {} out of range", q, idx));
  if (auto it = by_name_.find(q); it != by_name_.end()) {
    if (!replace) throw Error(fmt::format("op '{}' is already registered", q));
    OpInfo& info = ops_[static_cast<size_t>(it->second)];
    info.schema = std::move(s);
    info.traits = std::move(traits);
    info.meta = std::move(meta);
    return info.id;
  }
  OpId id = static_cast<OpId>(ops_.size());
  ops_.push_back(OpInfo{id, std::move(s), std::move(traits), std::move(meta)});
  by_name_.emplace(std::move(q), id);
  return id;
}

// The meta function of a `meta=like:` op, called with this op's arguments
// matched by name (an argument this op lacks takes the other's default).
MetaFn OpRegistry::like_meta(const OpSchema& mine, const std::string& other_name,
                             const std::map<std::string, std::string>& renames) const {
  std::optional<OpId> other_id = find(other_name);
  if (!other_id) throw Error(fmt::format("meta=like:{}: no such op is registered", other_name));
  const OpInfo& other = info(*other_id);
  if (!other.meta) throw Error(fmt::format("meta=like:{}: that op has no shape rule", other_name));
  for (const auto& [theirs, ours] : renames) {
    if (other.schema.arg_index(theirs) < 0)
      throw Error(fmt::format("meta=like:{}: it has no argument '{}'", other_name, theirs));
    if (mine.arg_index(ours) < 0)
      throw Error(fmt::format("meta=like:{}: this op has no argument '{}'", other_name, ours));
  }
  std::vector<int> source;
  for (const SchemaArg& a : other.schema.args) {
    auto renamed = renames.find(a.name);
    source.push_back(mine.arg_index(renamed == renames.end() ? a.name : renamed->second));
    if (source.back() < 0 && !a.default_value && !a.optional)
      throw Error(
          fmt::format("meta=like:{}: its argument '{}' has no default and this op has "
                      "no argument of that name",
                      other_name, a.name, a.name));
  }
  return [other_schema = other.schema, other_meta = other.meta, source](const CallContext& c) {
    std::vector<Arg> args;
    for (size_t i = 0; i < source.size(); ++i) {
      const SchemaArg& a = other_schema.args[i];
      args.push_back(source[i] >= 0 ? c.args()[static_cast<size_t>(source[i])]
                                    : a.default_value.value_or(Arg::none()));
    }
    CallContext theirs(other_schema, args,
                       [&c](NodeRef r) -> const ValueType& { return c.type_of(r); });
    return other_meta(theirs);
  };
}

// The shape rule a catalog entry declares (empty: none).
MetaFn OpRegistry::declared_meta(const OpSchema& mine, const OpTraits& traits) const {
  if (traits.meta_like.empty() && traits.output_as_arg.empty()) return {};
  for (const auto& [index, arg] : traits.output_as_arg) {
    if (static_cast<size_t>(index) >= mine.returns.size())
      throw Error(
          fmt::format("out{}={}: the op returns {} value(s)", index, arg, mine.returns.size()));
    if (mine.arg_index(arg) < 0)
      throw Error(fmt::format("out{}={}: the op has no argument '{}'", index, arg, arg));
  }
  MetaFn base = traits.meta_like.empty() ? MetaFn()
                                         : like_meta(mine, traits.meta_like, traits.meta_like_args);
  const size_t returns = mine.returns.size();
  return [base, returns, outs = traits.output_as_arg](const CallContext& c) {
    std::vector<ValueType> types(returns);
    if (base) {
      ValueType t = base(c);
      if (t.kind == ValueType::Kind::Tuple) {
        for (size_t i = 0; i < returns && i < t.elements.size(); ++i) types[i] = t.elements[i];
      } else if (returns > 0) {
        types[0] = t;
      }
    }
    for (const auto& [index, arg] : outs) types[static_cast<size_t>(index)] = c.type(arg);
    if (returns == 1) return types[0];
    return ValueType::of_tuple(std::move(types));
  };
}

void OpRegistry::load_catalog(std::string_view text, std::string_view origin) {
  for (const CatalogEntry& e : split_catalog(text)) {
    std::string_view entry = e.text;
    size_t bar = find_unquoted(entry, '|');
    std::string_view schema_text = trim_blanks(entry.substr(0, bar));
    OpSchema s;
    try {
      s = OpSchema::parse(schema_text);
    } catch (const Error& ex) {
      std::string line;
      SourceLoc loc =
          e.loc_at(origin, static_cast<size_t>(std::max(ex.loc().column - 1, 0)), &line);
      throw Error(ex.what(), std::move(loc), std::move(line));
    }
    if (bar == std::string_view::npos)
      catalog_error(e, origin, entry.size(), "expected '| kind=...' traits after the schema");
    OpTraits traits = parse_traits(entry.substr(bar + 1), e, origin, bar + 1);
    MetaFn meta;
    try {
      meta = declared_meta(s, traits);
    } catch (const Error& ex) {
      catalog_error(e, origin, bar + 1, ex.what());
    }
    try {
      register_op(schema_text, std::move(traits), std::move(meta));
    } catch (const Error& ex) {
      catalog_error(e, origin, 0, ex.what());
    }
  }
}

void OpRegistry::set_meta(std::string_view qualified_name, MetaFn meta) {
  auto id = find(qualified_name);
  if (!id) throw Error(fmt::format("set_meta: op '{}' is not registered", qualified_name));
  ops_[static_cast<size_t>(*id)].meta = std::move(meta);
}

std::vector<OpId> OpRegistry::packet_members(std::string_view packet) const {
  // by_name_ is sorted: every `packet.overload` (and `packet` itself) follows
  // `packet`, among other names sharing the prefix (`packet_x`).
  std::vector<OpId> out;
  for (auto it = by_name_.lower_bound(packet);
       it != by_name_.end() && std::string_view(it->first).starts_with(packet); ++it) {
    const std::string_view rest = std::string_view(it->first).substr(packet.size());
    if (rest.empty() || rest.front() == '.') out.push_back(it->second);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<OpId> OpRegistry::find(std::string_view qualified_name) const {
  auto it = by_name_.find(qualified_name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> resolve_ops(Graph& g, const OpRegistry& reg) {
  std::set<std::string> unknown;
  for (Node& n : g.nodes()) {
    if (n.kind != NodeKind::Call) continue;
    if (auto_functionalized_version(n)) {
      // Validated against the wrapped op's schema when it is registered; the
      // call itself keeps its raw form (graph/auto_functionalized.hpp).
      if (!decode_auto_functionalized(n, reg)) {
        std::optional<std::string> wrapped = auto_functionalized_wrapped_op(n);
        unknown.insert(wrapped ? *wrapped : n.target);
      }
      continue;
    }
    std::optional<OpId> exact = reg.find(n.target);
    std::vector<OpId> candidates;
    if (exact) candidates.push_back(*exact);
    // An overload packet (`aten::sym_size`) may name several overloads.
    if (n.target.find('.') == std::string::npos) {
      for (OpId id : reg.packet_members(n.target))
        if (id != exact) candidates.push_back(id);
    }
    if (candidates.empty()) {
      // A builtin on numbers and SymInts (graph/alias_analysis.hpp) is evaluated by the
      // interpreter and typed by infer_types: not an unknown op (on tensors it would be).
      if (!is_scalar_builtin_call(g, n)) unknown.insert(n.target);
      continue;
    }
    std::optional<std::string> first_error;
    std::vector<std::pair<OpId, std::vector<Arg>>> fits;
    for (OpId id : candidates) {
      auto r = normalize(n, reg.info(id).schema);
      if (auto* args = std::get_if<std::vector<Arg>>(&r)) {
        fits.emplace_back(id, std::move(*args));
        if (exact && id == *exact) break;  // the exact name wins
      } else if (!first_error) {
        first_error = std::get<std::string>(r);
      }
    }
    if (fits.empty()) {
      fail(n.meta.loc, "node '{}': {}: {}", n.name,
           reg.info(candidates.front()).schema.qualified_name(), *first_error);
    }
    if (fits.size() > 1 && !(exact && fits.front().first == *exact)) {
      std::erase_if(
          fits, [&](const auto& f) { return !fits_strictly(f.second, reg.info(f.first).schema); });
    }
    if (fits.empty()) {
      fail(n.meta.loc, "node '{}': no overload of '{}' fits the arguments", n.name, n.target);
    }
    if (fits.size() > 1 && !(exact && fits.front().first == *exact)) {
      fail(n.meta.loc, "node '{}': call to overload packet '{}' is ambiguous ({} and {} both fit)",
           n.name, n.target, reg.info(fits[0].first).schema.qualified_name(),
           reg.info(fits[1].first).schema.qualified_name());
    }
    n.op = fits.front().first;
    n.target = reg.info(n.op).schema.qualified_name();
    n.args = std::move(fits.front().second);
    n.kwargs.clear();
  }
  return {unknown.begin(), unknown.end()};
}

}  // namespace eqfuse
