// Parser and printer for torch operator schema strings (see op_schema.hpp).
//
// Grammar (the subset torch and torch_npu use):
//   schema  := ns '::' name ('.' overload)? '(' args? ')' '->' returns
//   args    := arg (',' arg)*          arg := '*' | type name ('=' default)?
//   type    := base ('(' alias ')')? ('?')? ('[' N? ']')? ('?')?
//   returns := '()' | type name? | '(' type name? (',' type name?)* ')'
#include "graph/op_schema.hpp"

#include <cctype>
#include <charconv>
#include <cmath>

#include "base/ascii.hpp"

namespace eqfuse {
namespace {

struct BaseType {
  std::string_view name;
  ArgType scalar;
  ArgType list;
};

// Every base type torch schemas use; lists of types without a dedicated
// ArgType become Any.
constexpr BaseType kBaseTypes[] = {
    {"Tensor", ArgType::Tensor, ArgType::TensorList},
    {"int", ArgType::Int, ArgType::IntList},
    {"SymInt", ArgType::Int, ArgType::IntList},
    {"float", ArgType::Float, ArgType::FloatList},
    {"SymFloat", ArgType::Float, ArgType::FloatList},
    {"bool", ArgType::Bool, ArgType::BoolList},
    {"SymBool", ArgType::Bool, ArgType::BoolList},
    {"Scalar", ArgType::Scalar, ArgType::Any},
    {"ScalarType", ArgType::ScalarType, ArgType::Any},
    {"str", ArgType::Str, ArgType::Any},
    {"Device", ArgType::Device, ArgType::Any},
    {"Layout", ArgType::Layout, ArgType::Any},
    {"MemoryFormat", ArgType::MemoryFormat, ArgType::Any},
    {"Generator", ArgType::Generator, ArgType::Any},
    {"Dimname", ArgType::Any, ArgType::Any},
    {"Storage", ArgType::Any, ArgType::Any},
    {"Stream", ArgType::Any, ArgType::Any},
    {"QScheme", ArgType::Any, ArgType::Any},
    {"complex", ArgType::Any, ArgType::Any},
    {"Any", ArgType::Any, ArgType::Any},
};

struct ParsedType {
  ArgType type = ArgType::Any;
  std::string text;
  bool optional = false;
  std::optional<int> list_length;
  std::string alias;
};

class SchemaParser {
 public:
  SchemaParser(std::string_view text, const SourceLoc& where) : text_(text), where_(where) {}

  OpSchema parse() {
    OpSchema s;
    skip_ws();
    s.ns = ident("namespace");
    if (!consume("::")) error("expected '::' after namespace '{}'", s.ns);
    s.name = ident("op name");
    if (consume(".")) s.overload = ident("overload name");
    skip_ws();
    expect('(');
    parse_args(s);
    skip_ws();
    if (!consume("->")) error("expected '->' before the returns");
    parse_returns(s);
    skip_ws();
    if (pos_ != text_.size()) error("unexpected text after the returns");
    return s;
  }

 private:
  template <typename... A>
  [[noreturn]] void error(fmt::format_string<A...> f, A&&... args) const {
    SourceLoc loc = where_;
    int base = where_.column > 0 ? where_.column : 1;
    loc.column = base + static_cast<int>(pos_);
    if (loc.line == 0) loc.line = 1;
    std::string line = where_.column > 1 ? std::string() : std::string(text_);
    throw Error(fmt::format("malformed op schema: {}", fmt::format(f, std::forward<A>(args)...)),
                std::move(loc), std::move(line));
  }

  void skip_ws() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool at(char c) {
    skip_ws();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  bool consume(std::string_view tok) {
    skip_ws();
    if (text_.substr(pos_).starts_with(tok)) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!consume(std::string_view(&c, 1))) {
      if (pos_ >= text_.size()) error("expected '{}' but the schema ended", c);
      error("expected '{}'", c);
    }
  }
  std::string ident(std::string_view what) {
    skip_ws();
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    if (start == pos_) error("expected {}", what);
    return std::string(text_.substr(start, pos_ - start));
  }

  ParsedType parse_type() {
    skip_ws();
    size_t start = pos_;
    std::string base = ident("a type");
    const BaseType* bt = nullptr;
    for (const auto& b : kBaseTypes)
      if (b.name == base) bt = &b;
    if (!bt) {
      pos_ = start;
      error("unknown type '{}'", base);
    }
    ParsedType t;
    t.type = bt->scalar;
    bool is_list = false;
    for (;;) {
      if (pos_ < text_.size() && text_[pos_] == '(') {
        size_t close = text_.find(')', pos_);
        if (close == std::string_view::npos) error("unterminated alias annotation");
        t.alias = std::string(text_.substr(pos_ + 1, close - pos_ - 1));
        if (t.alias.empty()) error("empty alias annotation");
        pos_ = close + 1;
      } else if (pos_ < text_.size() && text_[pos_] == '[') {
        size_t close = text_.find(']', pos_);
        if (close == std::string_view::npos) error("unterminated list type");
        std::string_view n = text_.substr(pos_ + 1, close - pos_ - 1);
        if (!n.empty()) {
          int len = 0;
          auto [p, ec] = std::from_chars(n.data(), n.data() + n.size(), len);
          if (ec != std::errc() || p != n.data() + n.size() || len <= 0) {
            ++pos_;
            error("bad list length '{}'", n);
          }
          t.list_length = len;
        }
        is_list = true;
        t.optional = false;  // `Tensor?[]`: the elements are optional, not the list
        pos_ = close + 1;
      } else if (pos_ < text_.size() && text_[pos_] == '?') {
        t.optional = true;
        ++pos_;
      } else {
        break;
      }
    }
    if (is_list) t.type = bt->list;
    t.text = std::string(text_.substr(start, pos_ - start));
    return t;
  }

  // Text of a default value: up to the next ',' or ')' outside brackets and quotes.
  std::string_view default_text() {
    skip_ws();
    size_t start = pos_;
    int depth = 0;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '"' || c == '\'') {
        size_t close = text_.find(c, pos_ + 1);
        if (close == std::string_view::npos) error("unterminated string in default value");
        pos_ = close + 1;
        continue;
      }
      if (c == '[') ++depth;
      if (c == ']' && --depth < 0) error("unbalanced ']' in default value");
      if (depth == 0 && (c == ',' || c == ')')) break;
      ++pos_;
    }
    if (depth != 0) {
      pos_ = start;
      error("unterminated list in default value");
    }
    size_t end = pos_;
    while (end > start && std::isspace(static_cast<unsigned char>(text_[end - 1]))) --end;
    if (end == start) error("missing default value");
    return text_.substr(start, end - start);
  }

  Arg default_value(std::string_view v, ArgType type, size_t at) {
    if (v == "None") return Arg::none();
    if (v == "True") return Arg(true);
    if (v == "False") return Arg(false);
    if (v.front() == '"' || v.front() == '\'') return Arg(std::string(v.substr(1, v.size() - 2)));
    if (v.front() == '[') return default_list(v, type, at);
    if (v == "inf" || v == "-inf") return Arg(v[0] == '-' ? -INFINITY : INFINITY);
    if (std::isdigit(static_cast<unsigned char>(v.front())) || v.front() == '-') {
      return number(v, type, at);
    }
    if (is_ident_char(v.front())) {
      if (type == ArgType::ScalarType) {
        if (auto d = parse_dtype(v)) return Arg(*d);
      }
      if (type == ArgType::MemoryFormat || type == ArgType::Layout) {
        return Arg(Literal{"torch." + std::string(v)});
      }
      return Arg(Literal{std::string(v)});
    }
    pos_ = at;
    error("bad default value '{}'", v);
  }

  Arg number(std::string_view v, ArgType type, size_t at) {
    bool is_float = v.find_first_of(".eE") != std::string_view::npos;
    if (!is_float) {
      int64_t i = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), i);
      if (ec == std::errc() && p == v.data() + v.size()) {
        if (type == ArgType::Float || type == ArgType::FloatList)
          return Arg(static_cast<double>(i));
        return Arg(i);
      }
    } else {
      double d = 0;
      auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
      if (ec == std::errc() && p == v.data() + v.size()) return Arg(d);
    }
    pos_ = at;
    error("bad number '{}'", v);
  }

  Arg default_list(std::string_view v, ArgType type, size_t at) {
    if (v.back() != ']') {
      pos_ = at;
      error("bad list default '{}'", v);
    }
    std::vector<Arg> items;
    std::string_view body = v.substr(1, v.size() - 2);
    while (!body.empty()) {
      size_t comma = body.find(',');
      std::string_view item = body.substr(0, comma);
      while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
        item.remove_prefix(1);
      while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
        item.remove_suffix(1);
      if (item.empty()) {
        pos_ = at;
        error("empty element in list default '{}'", v);
      }
      items.push_back(default_value(item, type, at));
      if (comma == std::string_view::npos) break;
      body.remove_prefix(comma + 1);
    }
    return Arg::list(std::move(items));
  }

  void parse_args(OpSchema& s) {
    if (consume(")")) return;
    bool kwarg_only = false;
    for (;;) {
      if (consume("*")) {
        if (kwarg_only) error("duplicate '*' marker");
        kwarg_only = true;
      } else {
        s.args.push_back(parse_arg(kwarg_only));
        for (size_t i = 0; i + 1 < s.args.size(); ++i)
          if (s.args[i].name == s.args.back().name)
            error("duplicate argument '{}'", s.args[i].name);
      }
      if (consume(")")) return;
      expect(',');
    }
  }

  SchemaArg parse_arg(bool kwarg_only) {
    ParsedType t = parse_type();
    SchemaArg a;
    a.type = t.type;
    a.type_text = std::move(t.text);
    a.optional = t.optional;
    a.list_length = t.list_length;
    a.alias = std::move(t.alias);
    a.kwarg_only = kwarg_only;
    a.name = ident("an argument name");
    if (consume("=")) {
      skip_ws();
      size_t at = pos_;
      std::string_view text = default_text();
      a.default_value = default_value(text, a.type, at);
      a.default_text = std::string(text);
    }
    return a;
  }

  SchemaReturn parse_return() {
    ParsedType t = parse_type();
    SchemaReturn r;
    r.type = t.type;
    r.type_text = std::move(t.text);
    r.alias = std::move(t.alias);
    skip_ws();
    if (pos_ < text_.size() && is_ident_char(text_[pos_])) r.name = ident("a return name");
    return r;
  }

  void parse_returns(OpSchema& s) {
    if (!consume("(")) {
      s.returns.push_back(parse_return());
      return;
    }
    if (consume(")")) return;
    for (;;) {
      s.returns.push_back(parse_return());
      if (consume(")")) return;
      expect(',');
    }
  }

  std::string_view text_;
  SourceLoc where_;
  size_t pos_ = 0;
};

std::string return_to_string(const SchemaReturn& r) {
  return r.name.empty() ? r.type_text : r.type_text + " " + r.name;
}

}  // namespace

std::string OpSchema::qualified_name() const {
  std::string q = ns + "::" + name;
  if (!overload.empty()) q += "." + overload;
  return q;
}

std::string OpSchema::fx_target() const {
  return fx_target_from_qualified_name(qualified_name());
}

std::string OpSchema::to_string() const {
  std::string out = qualified_name() + "(";
  bool kwarg_only = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const SchemaArg& a = args[i];
    if (i > 0) out += ", ";
    if (a.kwarg_only && !kwarg_only) {
      out += "*, ";
      kwarg_only = true;
    }
    out += a.type_text + " " + a.name;
    if (a.default_value) out += "=" + a.default_text;
  }
  out += ") -> ";
  if (returns.size() == 1) {
    out += return_to_string(returns[0]);
  } else {
    out += "(";
    for (size_t i = 0; i < returns.size(); ++i) {
      if (i > 0) out += ", ";
      out += return_to_string(returns[i]);
    }
    out += ")";
  }
  return out;
}

int OpSchema::arg_index(std::string_view arg_name) const {
  for (size_t i = 0; i < args.size(); ++i)
    if (args[i].name == arg_name) return static_cast<int>(i);
  return -1;
}

bool OpSchema::mutates_any() const {
  for (const auto& a : args)
    if (a.mutates()) return true;
  return false;
}

OpSchema OpSchema::parse(std::string_view text, const SourceLoc& where) {
  return SchemaParser(text, where).parse();
}

std::optional<std::string> qualified_name_from_fx_target(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  if (!target.starts_with(kPrefix)) return std::nullopt;
  target.remove_prefix(kPrefix.size());
  std::vector<std::string_view> parts;
  while (true) {
    size_t dot = target.find('.');
    parts.push_back(target.substr(0, dot));
    if (dot == std::string_view::npos) break;
    target.remove_prefix(dot + 1);
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  for (auto p : parts) {
    if (p.empty()) return std::nullopt;
    for (char c : p)
      if (!is_ident_char(c)) return std::nullopt;
  }
  std::string q;
  q.append(parts[0]).append("::").append(parts[1]);
  if (parts.size() == 3 && parts[2] != "default") q.append(".").append(parts[2]);
  return q;
}

std::string fx_target_from_qualified_name(std::string_view qualified) {
  size_t sep = qualified.find("::");
  if (sep == std::string_view::npos) return std::string(qualified);
  std::string ns(qualified.substr(0, sep));
  std::string_view rest = qualified.substr(sep + 2);
  size_t dot = rest.find('.');
  std::string name(rest.substr(0, dot));
  std::string overload =
      dot == std::string_view::npos ? "default" : std::string(rest.substr(dot + 1));
  return "torch.ops." + ns + "." + name + "." + overload;
}

}  // namespace eqfuse
