#include "graph/io/graph_json.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "base/json_text.hpp"
#include "graph/io/fx_parser.hpp"
#include "graph/op_registry.hpp"

namespace eqfuse {

using ojson = nlohmann::ordered_json;

namespace {

// Arguments and tuple types nest at most as deep as FX text lets them
// (FxParseLimits::max_nesting_depth), so every graph one format reads the other
// can too.
constexpr int kMaxArgNesting = FxParseLimits{}.max_nesting_depth;

// ---------------------------------------------------------------- devices

std::string device_text(const Device& d) {
  return d.index >= 0 ? fmt::format("{}:{}", d.type, d.index) : d.type;
}

Device parse_device_text(std::string_view text) {
  Device d;
  size_t colon = text.find(':');
  d.type = std::string(text.substr(0, colon));
  if (d.type.empty()) throw std::invalid_argument("empty device type");
  if (colon != std::string_view::npos) {
    std::string_view idx = text.substr(colon + 1);
    if (idx.empty() || idx.size() > 6 || idx.find_first_not_of("0123456789") != idx.npos)
      throw std::invalid_argument(fmt::format("bad device index in '{}'", text));
    d.index = std::stoi(std::string(idx));
  }
  return d;
}

// ---------------------------------------------------------------- types

// Scalar kinds spelled as plain keywords.
struct KindKeyword {
  ValueType::Kind kind;
  std::string_view word;
};
constexpr KindKeyword kKindKeywords[] = {
    {ValueType::Kind::SymFloat, "SymFloat"}, {ValueType::Kind::SymBool, "SymBool"},
    {ValueType::Kind::Int, "int"},           {ValueType::Kind::Float, "float"},
    {ValueType::Kind::Bool, "bool"},         {ValueType::Kind::None, "None"},
};

ojson dims_to_json(const Shape& dims) {
  ojson out = ojson::array();
  for (const SymInt& d : dims) {
    if (auto c = d.constant())
      out.push_back(*c);
    else
      out.push_back(d.to_string());
  }
  return out;
}

Shape dims_from_json(const ojson& j, std::string_view what) {
  if (!j.is_array()) throw std::invalid_argument(fmt::format("'{}' must be an array", what));
  Shape dims;
  for (const ojson& d : j) {
    if (d.is_number_integer()) {
      if (d.is_number_unsigned() && d.get<uint64_t>() > uint64_t{INT64_MAX})
        throw std::invalid_argument(
            fmt::format("'{}' entry {} is out of the int64 range", what, d.dump()));
      if (d.get<int64_t>() < 0)
        throw std::invalid_argument(
            fmt::format("'{}' entry {} is negative", what, d.get<int64_t>()));
      dims.emplace_back(d.get<int64_t>());
    } else if (d.is_string()) {
      dims.push_back(SymInt::parse(d.get_ref<const std::string&>()));
    } else {
      throw std::invalid_argument(
          fmt::format("'{}' entries must be integers or symbolic strings", what));
    }
  }
  return dims;
}

// The object form for tensors the annotation string cannot express
// (unknown dtype or unknown rank).
ojson tensor_object(const TensorType& t) {
  ojson o = ojson::object();
  o["dtype"] = t.dtype == DType::Unknown ? ojson(nullptr) : ojson(dtype_code(t.dtype));
  o["shape"] = t.shape ? dims_to_json(*t.shape) : ojson(nullptr);
  if (t.strides) o["strides"] = dims_to_json(*t.strides);
  if (t.device) o["device"] = device_text(*t.device);
  return o;
}

TensorType tensor_from_object(const ojson& j) {
  TensorType t;
  for (const auto& [key, value] : j.items()) {
    if (key == "dtype") {
      if (value.is_null()) continue;
      if (!value.is_string()) throw std::invalid_argument("'dtype' must be a string or null");
      auto d = parse_dtype(value.get_ref<const std::string&>());
      if (!d) throw std::invalid_argument(fmt::format("unknown dtype {}", value.dump()));
      t.dtype = *d;
    } else if (key == "shape") {
      if (!value.is_null()) t.shape = dims_from_json(value, "shape");
    } else if (key == "strides") {
      t.strides = dims_from_json(value, "strides");
    } else if (key == "device") {
      if (!value.is_string()) throw std::invalid_argument("'device' must be a string");
      t.device = parse_device_text(value.get_ref<const std::string&>());
    } else {
      throw std::invalid_argument(fmt::format("unknown tensor type key '{}'", key));
    }
  }
  return t;
}

// ---------------------------------------------------------------- args

ojson float_to_json(double v) {
  if (std::isfinite(v)) return v;
  std::string_view word = std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf");
  return ojson{{"float", word}};
}

double float_from_json(const ojson& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
  }
  throw std::invalid_argument(fmt::format(
      "{{\"float\": ...}} takes a number, \"inf\", \"-inf\" or \"nan\", not {}", v.dump()));
}

// Error carrying a JSON path; converted to eqfuse::Error at the top.
struct PathError {
  std::string path;
  std::string message;
};

class GraphReader {
 public:
  GraphReader(const ojson& doc, std::string_view file) : doc_(doc), file_(file) {}

  Graph read() {
    try {
      return read_document();
    } catch (const PathError& e) {
      throw Error(fmt::format("{}: {}", e.path, e.message), SourceLoc{std::string(file_), 0, 0});
    }
  }

 private:
  [[noreturn]] static void fail_at(std::string path, std::string message) {
    throw PathError{std::move(path), std::move(message)};
  }

  Graph read_document() {
    if (!doc_.is_object()) fail_at("$", "the document must be a JSON object");
    check_header();
    Graph g;
    for (const auto& [key, value] : doc_.items()) {
      if (key == "name") {
        if (!value.is_string()) fail_at("name", "must be a string");
        g.name = value.get<std::string>();
      } else if (key != "format" && key != "version" && key != "nodes") {
        fail_at(key, "unknown top-level key (expected format, version, name, nodes)");
      }
    }
    auto nodes = doc_.find("nodes");
    if (nodes == doc_.end()) fail_at("$", "missing \"nodes\"");
    if (!nodes->is_array()) fail_at("nodes", "must be an array");
    collect_names(*nodes);
    for (size_t i = 0; i < nodes->size(); ++i) {
      read_node(g, (*nodes)[i], i, nodes->size());
    }
    // An FX graph always ends in its output node (the printer's `return`).
    if (g.nodes().empty() || g.nodes().back().kind != NodeKind::Output)
      fail_at("nodes", "the last node must be the output node ({\"op\": \"output\", ...})");
    return g;
  }

  void check_header() {
    auto format = doc_.find("format");
    if (format == doc_.end() || !format->is_string() ||
        format->get<std::string>() != kGraphJsonFormat)
      fail_at("format", fmt::format("expected \"{}\"", kGraphJsonFormat));
    auto version = doc_.find("version");
    if (version == doc_.end() || !version->is_number_integer())
      fail_at("version", "missing or not an integer");
    if (version->get<int64_t>() != kGraphJsonVersion)
      fail_at("version", fmt::format("unsupported version {} (this build reads version {})",
                                     version->dump(), kGraphJsonVersion));
  }

  // Records every node name first so a forward reference can be reported
  // as "used before its definition" rather than "unknown".
  void collect_names(const ojson& nodes) {
    for (size_t i = 0; i < nodes.size(); ++i) {
      const ojson& n = nodes[i];
      if (!n.is_object()) continue;
      auto name = n.find("name");
      if (name != n.end() && name->is_string()) defined_at_.emplace(name->get<std::string>(), i);
    }
  }

  static std::optional<NodeKind> parse_kind(std::string_view op) {
    if (op == "placeholder") return NodeKind::Placeholder;
    if (op == "get_attr") return NodeKind::GetAttr;
    if (op == "call_function") return NodeKind::Call;
    if (op == "getitem") return NodeKind::GetItem;
    if (op == "output") return NodeKind::Output;
    return std::nullopt;
  }

  void read_node(Graph& g, const ojson& j, size_t index, size_t count) {
    std::string path = fmt::format("nodes[{}]", index);
    if (!j.is_object()) fail_at(path, "each node must be a JSON object");
    Node n;
    auto name = j.find("name");
    if (name == j.end() || !name->is_string() || name->get_ref<const std::string&>().empty())
      fail_at(path, "missing \"name\" (a non-empty string)");
    n.name = name->get<std::string>();
    path = fmt::format("nodes[{}] ({})", index, n.name);
    if (g.find(n.name)) fail_at(path, fmt::format("duplicate definition of '{}'", n.name));

    auto op = j.find("op");
    if (op == j.end() || !op->is_string()) fail_at(path + ".op", "missing or not a string");
    auto kind = parse_kind(op->get_ref<const std::string&>());
    if (!kind)
      fail_at(path + ".op",
              fmt::format("unknown op kind {} (expected placeholder, get_attr, call_function, "
                          "getitem or output)",
                          op->dump()));
    n.kind = *kind;

    for (const auto& [key, value] : j.items()) {
      if (key == "name" || key == "op") continue;
      if (key == "target") {
        if (!value.is_string()) fail_at(path + ".target", "must be a string");
        n.target = value.get<std::string>();
        if (n.kind == NodeKind::Call && !is_call_target_name(n.target))
          fail_at(path + ".target",
                  fmt::format("'{}' is not an op or Python function name (like aten::add.Tensor "
                              "or operator.getitem)",
                              n.target));
      } else if (key == "args") {
        if (!value.is_array()) fail_at(path + ".args", "must be an array");
        for (size_t a = 0; a < value.size(); ++a)
          n.args.push_back(read_arg(g, value[a], fmt::format("{}.args[{}]", path, a)));
      } else if (key == "kwargs") {
        if (!value.is_object()) fail_at(path + ".kwargs", "must be an object");
        for (const auto& [k, v] : value.items())
          n.kwargs.emplace_back(k, read_arg(g, v, fmt::format("{}.kwargs.{}", path, k)));
      } else if (key == "meta") {
        read_meta(n, value, path + ".meta");
      } else {
        fail_at(path + "." + key,
                "unknown node key (expected name, op, target, args, kwargs, meta)");
      }
    }
    fill_default_target(n, path);
    check_shape_of_kind(g, n, path, index, count);
    g.add(std::move(n));
  }

  // Placeholders default to their own name (as torch.fx does); getitem and
  // output nodes have no target in the IR.
  static void fill_default_target(Node& n, const std::string& path) {
    if (!n.target.empty()) return;
    if (n.kind == NodeKind::Placeholder) n.target = n.name;
    if (n.kind == NodeKind::Call || n.kind == NodeKind::GetAttr)
      fail_at(path + ".target", "missing (required for this op kind)");
  }

  void check_shape_of_kind(const Graph& g, const Node& n, const std::string& path, size_t index,
                           size_t count) const {
    switch (n.kind) {
      case NodeKind::GetItem: {
        if (n.args.size() != 2 || !n.args[0].is_node() || !n.args[1].is_int() || !n.kwargs.empty())
          fail_at(path + ".args", "a getitem takes exactly [{\"node\": source}, index]");
        const Node& src = g.node(n.args[0].node());
        if (src.kind == NodeKind::Output) fail_at(path + ".args[0]", "cannot project the output");
        break;
      }
      case NodeKind::Output:
        if (index + 1 != count) fail_at(path, "the output node must be the last node");
        if (n.args.size() != 1 || !n.kwargs.empty())
          fail_at(path + ".args", "an output takes exactly one argument (the returned value)");
        break;
      case NodeKind::Placeholder:
      case NodeKind::GetAttr:
        if (!n.args.empty() || !n.kwargs.empty())
          fail_at(path, fmt::format("a {} has no args or kwargs", node_kind_name(n.kind)));
        break;
      case NodeKind::Call:
        break;
    }
  }

  Arg read_arg(const Graph& g, const ojson& v, const std::string& path, int depth = 0) const {
    // The same bound as FX text arguments; documents from parse_json_text are
    // already bounded, a document built in C++ is not.
    if (depth > kMaxArgNesting)
      fail_at(path, fmt::format("arguments nested deeper than {} levels", kMaxArgNesting));
    switch (v.type()) {
      case ojson::value_t::null:
        return Arg::none();
      case ojson::value_t::boolean:
        return Arg(v.get<bool>());
      case ojson::value_t::number_integer:
        return Arg(v.get<int64_t>());
      case ojson::value_t::number_unsigned: {
        uint64_t u = v.get<uint64_t>();
        if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
          fail_at(path, fmt::format("integer {} does not fit in int64", u));
        return Arg(static_cast<int64_t>(u));
      }
      case ojson::value_t::number_float:
        return Arg(v.get<double>());
      case ojson::value_t::string:
        return Arg(v.get<std::string>());
      case ojson::value_t::array: {
        std::vector<Arg> items;
        for (size_t i = 0; i < v.size(); ++i)
          items.push_back(read_arg(g, v[i], fmt::format("{}[{}]", path, i), depth + 1));
        return Arg::list(std::move(items), false);
      }
      case ojson::value_t::object:
        return read_tagged(g, v, path, depth);
      default:
        fail_at(path, fmt::format("unsupported JSON value {}", v.dump()));
    }
  }

  Arg read_tagged(const Graph& g, const ojson& v, const std::string& path, int depth) const {
    if (v.size() != 1)
      fail_at(path,
              "a tagged argument is an object with exactly one key (node, dtype, device, "
              "literal, tuple or float)");
    const std::string& tag = v.begin().key();
    const ojson& value = v.begin().value();
    std::string inner = path + "." + tag;
    if (tag == "tuple") {
      if (!value.is_array()) fail_at(inner, "must be an array");
      std::vector<Arg> items;
      for (size_t i = 0; i < value.size(); ++i)
        items.push_back(read_arg(g, value[i], fmt::format("{}[{}]", inner, i), depth + 1));
      return Arg::list(std::move(items), true);
    }
    if (tag == "float") {
      try {
        return Arg(float_from_json(value));
      } catch (const std::invalid_argument& e) {
        fail_at(inner, e.what());
      }
    }
    if (!value.is_string()) fail_at(inner, "must be a string");
    const std::string& text = value.get_ref<const std::string&>();
    if (tag == "node") return Arg(resolve_node(g, text, inner));
    if (tag == "dtype") {
      auto d = parse_dtype(text);
      if (!d) fail_at(inner, fmt::format("unknown dtype '{}'", text));
      return Arg(*d);
    }
    if (tag == "device") {
      try {
        return Arg(parse_device_text(text));
      } catch (const std::invalid_argument& e) {
        fail_at(inner, e.what());
      }
    }
    if (tag == "literal") return Arg(Literal{text});
    fail_at(path, fmt::format("unknown tag '{}' (expected node, dtype, device, literal, tuple or "
                              "float)",
                              tag));
  }

  NodeRef resolve_node(const Graph& g, const std::string& name, const std::string& path) const {
    if (auto r = g.find(name)) {
      if (g.node(*r).kind == NodeKind::Output) fail_at(path, "cannot refer to the output node");
      return *r;
    }
    auto later = defined_at_.find(name);
    if (later != defined_at_.end())
      fail_at(path, fmt::format("node '{}' is used before its definition (nodes[{}])", name,
                                later->second));
    fail_at(path, fmt::format("unknown node '{}'", name));
  }

  static SourceLoc parse_loc(std::string_view text) {
    // "file:line:col"; the file part may itself contain ':'.
    SourceLoc loc;
    size_t c2 = text.rfind(':');
    size_t c1 = c2 == text.npos || c2 == 0 ? text.npos : text.rfind(':', c2 - 1);
    if (c1 == text.npos) throw std::invalid_argument("expected \"file:line:column\"");
    try {
      loc.file = std::string(text.substr(0, c1));
      loc.line = std::stoi(std::string(text.substr(c1 + 1, c2 - c1 - 1)));
      loc.column = std::stoi(std::string(text.substr(c2 + 1)));
    } catch (const std::exception&) {
      throw std::invalid_argument("expected \"file:line:column\"");
    }
    return loc;
  }

  static void read_meta(Node& n, const ojson& meta, const std::string& path) {
    if (!meta.is_object()) fail_at(path, "must be an object");
    bool inferred = false;
    for (const auto& [key, value] : meta.items()) {
      std::string inner = path + "." + key;
      try {
        if (key == "type") {
          n.type = type_from_json(value);
        } else if (key == "inferred") {
          if (!value.is_boolean()) fail_at(inner, "must be a boolean");
          inferred = value.get<bool>();
        } else if (key == "stream" || key == "stack_trace" || key == "loc") {
          if (!value.is_string()) fail_at(inner, "must be a string");
          const std::string& s = value.get_ref<const std::string&>();
          if (key == "stream") n.meta.stream = s;
          if (key == "stack_trace") n.meta.stack_trace = s;
          if (key == "loc") n.meta.loc = parse_loc(s);
        } else {
          fail_at(inner, "unknown meta key (expected type, inferred, stream, loc, stack_trace)");
        }
      } catch (const std::invalid_argument& e) {
        fail_at(inner, e.what());
      }
    }
    n.type_annotated = n.type.is_known() && !inferred;
  }

  const ojson& doc_;
  std::string_view file_;
  std::unordered_map<std::string, size_t> defined_at_;
};

// A call's arguments as torch writes them (see graph_to_json).
void write_call_args(const Graph& g, const Node& n, const OpRegistry* reg, ojson& args,
                     ojson& kwargs) {
  const OpSchema* schema = nullptr;
  if (reg && n.op != kNoOp && static_cast<size_t>(n.op) < reg->all().size())
    schema = &reg->info(n.op).schema;
  if (!schema || schema->args.size() != n.args.size() || !n.kwargs.empty()) {
    for (const Arg& a : n.args) args.push_back(arg_to_json(a, g));
    for (const auto& [k, a] : n.kwargs) kwargs[k] = arg_to_json(a, g);
    return;
  }
  auto is_default = [&](size_t i) {
    const SchemaArg& s = schema->args[i];
    return s.default_value && *s.default_value == n.args[i];
  };
  size_t positional_end = 0;
  for (size_t i = 0; i < n.args.size(); ++i)
    if (!schema->args[i].kwarg_only && !is_default(i)) positional_end = i + 1;
  for (size_t i = 0; i < n.args.size(); ++i) {
    if (schema->args[i].kwarg_only) {
      if (!is_default(i)) kwargs[schema->args[i].name] = arg_to_json(n.args[i], g);
    } else if (i < positional_end) {
      args.push_back(arg_to_json(n.args[i], g));
    }
  }
}

std::string loc_text(const SourceLoc& loc) {
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

}  // namespace

// ---------------------------------------------------------------- public

ojson type_to_json(const ValueType& t) {
  using K = ValueType::Kind;
  switch (t.kind) {
    case K::Unknown:
      return nullptr;
    case K::Tensor:
      if (t.tensor.dtype != DType::Unknown && t.tensor.shape) return to_annotation(t);
      return tensor_object(t.tensor);
    case K::SymInt:
      return t.sym ? ojson(to_annotation(t)) : ojson("SymInt");
    case K::Tuple: {
      ojson out = ojson::array();
      for (const ValueType& e : t.elements) out.push_back(type_to_json(e));
      return out;
    }
    default:
      for (const KindKeyword& k : kKindKeywords)
        if (k.kind == t.kind) return k.word;
  }
  return nullptr;
}

namespace {

ValueType type_from_json_at(const ojson& j, int depth) {
  if (depth > kMaxArgNesting)
    throw std::invalid_argument(
        fmt::format("tuple types nested deeper than {} levels", kMaxArgNesting));
  if (j.is_null()) return ValueType::unknown();
  if (j.is_array()) {
    std::vector<ValueType> elements;
    for (const ojson& e : j) elements.push_back(type_from_json_at(e, depth + 1));
    return ValueType::of_tuple(std::move(elements));
  }
  if (j.is_object()) return ValueType::of_tensor(tensor_from_object(j));
  if (!j.is_string()) throw std::invalid_argument("a type is a string, an array (tuple) or null");
  const std::string& s = j.get_ref<const std::string&>();
  for (const KindKeyword& k : kKindKeywords) {
    if (s == k.word) {
      ValueType t;
      t.kind = k.kind;
      return t;
    }
  }
  if (s == "SymInt") return ValueType::of_symint(std::nullopt);
  return parse_annotation(s);
}

}  // namespace

ValueType type_from_json(const ojson& j) {
  return type_from_json_at(j, 0);
}

ojson arg_to_json(const Arg& arg, const Graph& g) {
  return std::visit(
      [&](const auto& v) -> ojson {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, double>) {
          return float_to_json(v);
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                             std::is_same_v<T, std::string>) {
          return v;
        } else if constexpr (std::is_same_v<T, DType>) {
          return ojson{{"dtype", dtype_torch_name(v)}};
        } else if constexpr (std::is_same_v<T, Device>) {
          return ojson{{"device", device_text(v)}};
        } else if constexpr (std::is_same_v<T, Literal>) {
          return ojson{{"literal", v.text}};
        } else if constexpr (std::is_same_v<T, NodeRef>) {
          return ojson{{"node", g.node(v).name}};
        } else {
          static_assert(std::is_same_v<T, ArgList>);
          ojson items = ojson::array();
          for (const Arg& a : v.items) items.push_back(arg_to_json(a, g));
          if (v.is_tuple) return ojson{{"tuple", std::move(items)}};
          return items;
        }
      },
      arg.value);
}

ojson graph_to_json(const Graph& g, const OpRegistry* reg) {
  ojson doc = ojson::object();
  doc["format"] = kGraphJsonFormat;
  doc["version"] = kGraphJsonVersion;
  doc["name"] = g.name;
  ojson nodes = ojson::array();
  for (const Node& n : g.nodes()) {
    ojson j = ojson::object();
    j["name"] = n.name;
    j["op"] = node_kind_name(n.kind);
    j["target"] = n.target;
    ojson args = ojson::array();
    ojson kwargs = ojson::object();
    write_call_args(g, n, reg, args, kwargs);
    j["args"] = std::move(args);
    j["kwargs"] = std::move(kwargs);
    ojson meta = ojson::object();
    if (n.type.is_known()) {
      meta["type"] = type_to_json(n.type);
      if (!n.type_annotated) meta["inferred"] = true;
    }
    if (!n.meta.stream.empty()) meta["stream"] = n.meta.stream;
    if (n.meta.loc.known()) meta["loc"] = loc_text(n.meta.loc);
    if (!n.meta.stack_trace.empty()) meta["stack_trace"] = n.meta.stack_trace;
    if (!meta.empty()) j["meta"] = std::move(meta);
    nodes.push_back(std::move(j));
  }
  doc["nodes"] = std::move(nodes);
  return doc;
}

std::string save_graph_json(const Graph& g, int indent, const OpRegistry* reg) {
  std::string out = graph_to_json(g, reg).dump(indent, ' ', false, ojson::error_handler_t::replace);
  out += '\n';
  return out;
}

Graph graph_from_json(const ojson& doc, std::string_view file_name) {
  return GraphReader(doc, file_name).read();
}

Graph load_graph_json(std::string_view text, std::string_view file_name) {
  return graph_from_json(parse_json_text<ojson>(text, file_name), file_name);
}

bool is_graph_json(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == text.npos || text[first] != '{') return false;
  ojson doc = ojson::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return false;
  auto format = doc.find("format");
  return format != doc.end() && format->is_string() &&
         format->get_ref<const std::string&>() == kGraphJsonFormat;
}

}  // namespace eqfuse
