// The FX reader's argument values: ints (the whole int64 range), floats,
// strings, None/True/False/inf/nan, tuples and lists (nested up to the
// limit), dotted names (dtypes, literals), devices in both print forms,
// node references, and a call's `(args, k = v)`. A separate file because
// values are the grammar the three forms (code, fragment, graph()) share.
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "graph/io/fx_parser_internal.hpp"
#include "graph/op_schema.hpp"

namespace eqfuse::fx_detail {
namespace {

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor" (registry naming).
// Higher-order ops (`torch.ops.higher_order.*`) keep their raw text: they
// are Python callables, not schema'd operators.
std::optional<std::string> qualified_from_fx(std::string_view target) {
  if (target.starts_with("torch.ops.higher_order.")) return std::nullopt;
  return qualified_name_from_fx_target(target);
}

}  // namespace

// --- values ---------------------------------------------------------------

Arg Parser::parse_value(int depth) {
  if (depth > limits_.max_nesting_depth)
    fail_at(lex_->peek(),
            fmt::format("arguments nested deeper than {} levels", limits_.max_nesting_depth));
  return parse_value_from(lex_->next(), depth);
}

// A value whose first token `t` is already consumed.
Arg Parser::parse_value_from(const Token& t, int depth) {
  switch (t.kind) {
    case Tok::Int:
      return parse_int(t, false);
    case Tok::Float:
      return parse_float(t, false);
    case Tok::String:
      return Arg(unquote(t.text));
    case Tok::Percent:
      if (form_ != Form::GraphPrint) fail_at(t, "'%name' references belong to the graph() form");
      return Arg(lookup_percent(t));
    case Tok::Name:
      return parse_value_from_name(t);
    case Tok::Punct:
      if (t.is("(")) return parse_sequence(t, ")", true, depth);
      if (t.is("[")) return parse_sequence(t, "]", false, depth);
      if (t.is("-")) {
        const Token n = lex_->next();
        if (n.kind == Tok::Int) return parse_int(n, true);
        if (n.kind == Tok::Float) return parse_float(n, true);
        if (n.is_name("inf")) return Arg(-std::numeric_limits<double>::infinity());
        fail_at(n, fmt::format("expected a number after '-', found {}", describe_token(n)));
      }
      if (t.is("{")) fail_at(t, "dict literals are not supported as arguments");
      break;
    default:
      break;
  }
  fail_at(t, fmt::format("expected a value, found {}", describe_token(t)));
}

NodeRef Parser::lookup_percent(const Token& t) {
  if (auto r = graph_.find(t.text)) return *r;
  fail_at(t, unknown_name_message(t));
}

Arg Parser::parse_int(const Token& t, bool negative) {
  // Parse the magnitude as unsigned so INT64_MIN is representable.
  uint64_t magnitude = 0;
  auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), magnitude);
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (ec != std::errc() || p != t.text.data() + t.text.size() || magnitude > limit)
    fail_at(t, fmt::format("bad number '{}{}': integer out of the int64 range", negative ? "-" : "",
                           t.text));
  if (negative) return Arg(static_cast<int64_t>(0 - magnitude));
  return Arg(static_cast<int64_t>(magnitude));
}

Arg Parser::parse_float(const Token& t, bool negative) {
  double v = 0;
  auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (ec != std::errc() || p != t.text.data() + t.text.size() || !std::isfinite(v))
    fail_at(t, fmt::format("bad number '{}'", t.text));
  return Arg(negative ? -v : v);
}

Arg Parser::parse_sequence(const Token& open, std::string_view close, bool tuple, int depth) {
  std::vector<Arg> items;
  bool trailing_comma = false;
  for (;;) {
    const Token& t = lex_->peek();
    if (t.is(close)) {
      lex_->next();
      break;
    }
    if (t.kind == Tok::End)
      fail_at(open, fmt::format("unterminated {}: '{}' is never closed", tuple ? "tuple" : "list",
                                open.text));
    items.push_back(parse_value(depth + 1));
    trailing_comma = false;
    const Token& sep = lex_->peek();
    if (sep.is(",")) {
      lex_->next();
      trailing_comma = true;
      continue;
    }
    if (sep.is(close)) continue;
    if (sep.kind == Tok::End)
      fail_at(open, fmt::format("unterminated {}: '{}' is never closed", tuple ? "tuple" : "list",
                                open.text));
    fail_at(sep, fmt::format("expected ',' or '{}' in {}, found {}", close,
                             tuple ? "tuple" : "list", describe_token(sep)));
  }
  // `(x)` is just x in Python; only `(x,)` is a 1-tuple.
  if (tuple && items.size() == 1 && !trailing_comma) return std::move(items[0]);
  return Arg::list(std::move(items), tuple);
}

// `a.b.c` starting at `first`; returns the whole dotted text.
std::string_view Parser::parse_dotted(const Token& first) {
  const std::string_view s = src_.text();
  size_t end = first.offset + first.text.size();
  while (lex_->peek().is(".")) {
    const Token dot = lex_->next();
    if (dot.offset != end) fail_at(dot, "unexpected space before '.'");
    const Token part = expect_name("after '.'");
    if (part.offset != end + 1) fail_at(part, "unexpected space after '.'");
    end = part.offset + part.text.size();
  }
  return s.substr(first.offset, end - first.offset);
}

bool Parser::is_device_type(std::string_view s) {
  return s == "cpu" || s == "cuda" || s == "npu" || s == "meta" || s == "xpu" || s == "mps";
}

Arg Parser::parse_value_from_name(const Token& first) {
  if (first.text == "None") return Arg::none();
  if (first.text == "True") return Arg(true);
  if (first.text == "False") return Arg(false);
  // FX never names a node `inf` or `nan` (they are its math globals), but a
  // hand-written graph may: a node of that name shadows the literal, as in Python.
  const bool shadowed = graph_.find(first.text).has_value();
  if (first.text == "inf" && !shadowed) return Arg(std::numeric_limits<double>::infinity());
  if (first.text == "nan" && !shadowed) return Arg(std::numeric_limits<double>::quiet_NaN());
  const std::string_view dotted = parse_dotted(first);
  const bool is_dotted = dotted.size() != first.text.size();
  if (!is_dotted && first.text == "device" && lex_->peek().is("(")) return parse_device_call();
  if (form_ == Form::GraphPrint && !is_dotted) {
    // graph.print() writes devices as `npu:0` and strings without quotes.
    if (is_device_type(first.text)) {
      Device d;
      d.type = std::string(first.text);
      if (lex_->accept(":")) {
        const Token idx = lex_->next();
        if (idx.kind != Tok::Int) fail_at(idx, "expected a device index after ':'");
        d.index = static_cast<int>(std::get<int64_t>(parse_int(idx, false).value));
      }
      return Arg(d);
    }
    return Arg(std::string(first.text));
  }
  if (is_dotted) {
    if (graph_.find(first.text))
      fail_at(first, fmt::format(kDynamoHint, fmt::format("attribute access `{}`", dotted)));
    if (lex_->peek().is("("))
      fail_at(lex_->peek(), fmt::format("unexpected call of '{}' inside an argument", dotted));
    if (dotted.starts_with("torch.")) {
      if (auto d = parse_dtype(dotted)) return Arg(*d);
    }
    return Arg(Literal{std::string(dotted)});
  }
  return Arg(lookup(first));
}

// `device(type='npu', index=0)` or `device('cpu')`, after the name.
Arg Parser::parse_device_call() {
  const Token open = expect("(", "after 'device'");
  Device d;
  bool have_type = false;
  while (!lex_->peek().is(")")) {
    const Token t = lex_->next();
    if (t.kind == Tok::String && !have_type) {
      d = device_from_text(unquote(t.text), t);
      have_type = true;
    } else if (t.is_name("type") || t.is_name("index")) {
      expect("=", "in device(...)");
      const Token v = lex_->next();
      if (t.text == "type") {
        if (v.kind != Tok::String) fail_at(v, "device type must be a string");
        Device parsed = device_from_text(unquote(v.text), v);
        d.type = parsed.type;
        if (parsed.index >= 0) d.index = parsed.index;
        have_type = true;
      } else {
        if (v.kind != Tok::Int) fail_at(v, "device index must be an integer");
        d.index = static_cast<int>(std::get<int64_t>(parse_int(v, false).value));
      }
    } else {
      fail_at(t, fmt::format("unexpected {} in device(...)", describe_token(t)));
    }
    if (!lex_->accept(",") && !lex_->peek().is(")"))
      fail_at(lex_->peek(), "expected ',' or ')' in device(...)");
  }
  lex_->next();
  if (!have_type) fail_at(open, "device(...) without a type");
  return Arg(d);
}

Device Parser::device_from_text(const std::string& text, const Token& where) {
  try {
    ValueType probe = parse_annotation("f32[]" + text);
    // An empty or device-less text parses as a bare f32[] (fuzz finding).
    if (probe.tensor.device) return *probe.tensor.device;
  } catch (const std::invalid_argument&) {
  }
  fail_at(where, fmt::format("bad device '{}'", text));
}

// `(a, b, k = v)`; the '(' is already consumed.
void Parser::parse_call_args(const Token& open, Node& node) {
  bool seen_kwarg = false;
  for (;;) {
    const Token& t = lex_->peek();
    if (t.is(")")) {
      lex_->next();
      return;
    }
    if (t.kind == Tok::End) fail_at(open, "unterminated call: '(' is never closed");
    if (t.kind == Tok::Name) {
      const Token name = lex_->next();
      if (lex_->accept("=")) {
        for (const auto& [k, v] : node.kwargs)
          if (k == name.text) fail_at(name, fmt::format("keyword argument '{}' repeated", k));
        node.kwargs.emplace_back(std::string(name.text), parse_value(1));
        seen_kwarg = true;
      } else {
        if (seen_kwarg) fail_at(name, "positional argument after keyword argument");
        node.args.push_back(parse_value_from_name(name));
      }
    } else {
      if (seen_kwarg) fail_at(t, "positional argument after keyword argument");
      node.args.push_back(parse_value(1));
    }
    const Token& sep = lex_->peek();
    if (sep.is(",")) {
      lex_->next();
    } else if (!sep.is(")")) {
      if (sep.kind == Tok::End) fail_at(open, "unterminated call: '(' is never closed");
      fail_at(sep,
              fmt::format("expected ',' or ')' in call arguments, found {}", describe_token(sep)));
    }
  }
}

// Turns `operator.getitem(x, i)` into a GetItem node.
void Parser::make_getitem_if_needed(Node& node, const Token& where) {
  if (node.kind != NodeKind::Call || node.target != "operator.getitem") return;
  if (node.args.size() != 2 || !node.kwargs.empty())
    fail_at(where, "operator.getitem takes exactly two positional arguments");
  if (!node.args[0].is_node()) fail_at(where, "getitem on a value that is not a node");
  if (!node.args[1].is_int()) fail_at(where, "getitem index must be an integer");
  node.kind = NodeKind::GetItem;
  node.target.clear();
}

void Parser::set_call_target(Node& node, std::string_view callable) {
  node.kind = NodeKind::Call;
  if (auto q = qualified_from_fx(callable))
    node.target = std::move(*q);
  else
    node.target = std::string(callable);
}

}  // namespace eqfuse::fx_detail
