#include "graph/io/fx_printer.hpp"

#include <charconv>
#include <cmath>

#include "graph/op_registry.hpp"

namespace eqfuse {
namespace {

// Qualified op names ("aten::add.Tensor") print as torch.ops paths; other
// targets ("operator.add", "torch.ops.higher_order.cond") are Python already.
std::string fx_callable(std::string_view target) {
  if (target.find("::") == std::string_view::npos) return std::string(target);
  return fx_target_from_qualified_name(target);
}

struct InfixOp {
  std::string_view target;
  std::string_view token;
};
constexpr InfixOp kInfixOps[] = {
    {"operator.add", "+"},     {"operator.sub", "-"},       {"operator.mul", "*"},
    {"operator.truediv", "/"}, {"operator.floordiv", "//"}, {"operator.mod", "%"},
    {"operator.pow", "**"},    {"operator.matmul", "@"},    {"operator.and_", "&"},
    {"operator.or_", "|"},     {"operator.xor", "^"},       {"operator.lshift", "<<"},
    {"operator.rshift", ">>"}, {"operator.eq", "=="},       {"operator.ne", "!="},
    {"operator.lt", "<"},      {"operator.le", "<="},       {"operator.gt", ">"},
    {"operator.ge", ">="},
};

const InfixOp* find_infix(std::string_view target) {
  for (const InfixOp& op : kInfixOps)
    if (op.target == target) return &op;
  return nullptr;
}

void append_arg(const Graph& g, const Arg& arg, std::string& out);

void append_list(const Graph& g, const ArgList& list, std::string& out) {
  out += list.is_tuple ? '(' : '[';
  for (size_t i = 0; i < list.items.size(); ++i) {
    if (i) out += ", ";
    append_arg(g, list.items[i], out);
  }
  if (list.is_tuple && list.items.size() == 1) out += ',';
  out += list.is_tuple ? ')' : ']';
}

void append_arg(const Graph& g, const Arg& arg, std::string& out) {
  struct Visitor {
    const Graph& g;
    std::string& out;
    void operator()(std::monostate) { out += "None"; }
    void operator()(bool b) { out += b ? "True" : "False"; }
    void operator()(int64_t v) { out += fmt::to_string(v); }
    void operator()(double v) { out += python_float_repr(v); }
    void operator()(const std::string& s) { out += python_str_repr(s); }
    void operator()(DType d) {
      out += "torch.";
      out += dtype_torch_name(d);
    }
    void operator()(const Device& d) {
      out += fmt::format("device(type='{}'", d.type);
      if (d.index >= 0) out += fmt::format(", index={}", d.index);
      out += ')';
    }
    void operator()(const Literal& l) { out += l.text; }
    void operator()(NodeRef r) {
      if (r.index >= 0 && static_cast<size_t>(r.index) < g.size())
        out += g.node(r).name;
      else
        out += fmt::format("<invalid node {}>", r.index);
    }
    void operator()(const ArgList& l) { append_list(g, l, out); }
  };
  std::visit(Visitor{g, out}, arg.value);
}

// Positional and keyword arguments as they should be written for `n`.
struct CallArgs {
  std::vector<const Arg*> positional;
  std::vector<std::pair<std::string_view, const Arg*>> keyword;
};

CallArgs call_args(const Node& n, const OpRegistry* reg) {
  CallArgs c;
  const OpSchema* schema = nullptr;
  if (reg && n.op != kNoOp && static_cast<size_t>(n.op) < reg->all().size())
    schema = &reg->info(n.op).schema;
  if (!schema || schema->args.size() != n.args.size() || !n.kwargs.empty()) {
    for (const Arg& a : n.args) c.positional.push_back(&a);
    for (const auto& [k, v] : n.kwargs) c.keyword.emplace_back(k, &v);
    return c;
  }
  auto is_default = [&](size_t i) {
    const SchemaArg& s = schema->args[i];
    return s.default_value && *s.default_value == n.args[i];
  };
  size_t last_positional = 0;  // one past the last positional to print
  for (size_t i = 0; i < schema->args.size(); ++i)
    if (!schema->args[i].kwarg_only && !is_default(i)) last_positional = i + 1;
  for (size_t i = 0; i < schema->args.size(); ++i) {
    if (schema->args[i].kwarg_only) {
      if (!is_default(i)) c.keyword.emplace_back(schema->args[i].name, &n.args[i]);
    } else if (i < last_positional) {
      c.positional.push_back(&n.args[i]);
    }
  }
  return c;
}

void append_call(const Graph& g, std::string_view callable, const CallArgs& c, std::string& out) {
  out += callable;
  out += '(';
  bool first = true;
  for (const Arg* a : c.positional) {
    if (!first) out += ", ";
    first = false;
    append_arg(g, *a, out);
  }
  for (const auto& [k, v] : c.keyword) {
    if (!first) out += ", ";
    first = false;
    out += k;
    out += " = ";
    append_arg(g, *v, out);
  }
  out += ')';
}

// Right-hand side of the statement defining `n`.
void append_rhs(const Graph& g, const Node& n, const OpRegistry* reg, std::string& out) {
  switch (n.kind) {
    case NodeKind::GetAttr:
      out += "self.";
      out += n.target;
      return;
    case NodeKind::GetItem:
      append_arg(g, n.args.at(0), out);
      out += '[';
      append_arg(g, n.args.at(1), out);
      out += ']';
      return;
    case NodeKind::Call: {
      if (n.op == kNoOp && n.kwargs.empty()) {
        if (const InfixOp* op = find_infix(n.target); op && n.args.size() == 2) {
          append_arg(g, n.args[0], out);
          out += fmt::format(" {} ", op->token);
          append_arg(g, n.args[1], out);
          return;
        }
        if (n.target == "operator.neg" && n.args.size() == 1 && n.args[0].is_node()) {
          out += '-';
          append_arg(g, n.args[0], out);
          return;
        }
      }
      append_call(g, fx_callable(n.target), call_args(n, reg), out);
      return;
    }
    default:
      return;
  }
}

void append_return(const Graph& g, const Node& out_node, std::string& out) {
  out += "return ";
  if (!out_node.target.empty()) {
    CallArgs c;
    for (const Arg& a : out_node.args) c.positional.push_back(&a);
    for (const auto& [k, v] : out_node.kwargs) c.keyword.emplace_back(k, &v);
    append_call(g, out_node.target, c, out);
  } else if (out_node.args.size() == 1) {
    append_arg(g, out_node.args[0], out);
  } else {
    append_list(g, ArgList{out_node.args, true}, out);
  }
}

void append_annotation(const ValueType& t, std::string& out) {
  std::string a = to_annotation(t);
  if (a.empty()) return;
  out += ": \"";
  out += a;
  out += '"';
}

}  // namespace

std::string python_float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<size_t>(res.ptr - buf));  // "-1.25e-05"
  const bool negative = sci.front() == '-';
  if (negative) sci.remove_prefix(1);
  const size_t e = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e))
    if (c != '.') digits += c;
  int exponent = 0;
  std::string_view exp_text = sci.substr(e + 1);
  if (exp_text.front() == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exponent);
  std::string out = negative ? "-" : "";
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const size_t int_len = static_cast<size_t>(exponent) + 1;
      if (digits.size() < int_len) digits.append(int_len - digits.size(), '0');
      out += digits.substr(0, int_len);
      out += '.';
      out += digits.size() > int_len ? digits.substr(int_len) : "0";
    } else {
      out += "0.";
      out.append(static_cast<size_t>(-exponent - 1), '0');
      out += digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  out += fmt::format("e{}{:02d}", exponent < 0 ? '-' : '+', std::abs(exponent));
  return out;
}

std::string python_str_repr(std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (char c : s) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c == quote) {
          out += '\\';
          out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
        } else {
          out += c;
        }
    }
  }
  out += quote;
  return out;
}

std::string format_fx_arg(const Graph& g, const Arg& arg) {
  std::string out;
  append_arg(g, arg, out);
  return out;
}

std::string print_fx(const Graph& g, const OpRegistry* reg) {
  const auto& nodes = g.nodes();
  // last_use[i]: the last node reading node i (-1: never read).
  std::vector<int32_t> last_use(nodes.size(), -1);
  std::vector<std::vector<NodeRef>> inputs(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    inputs[i] = node_inputs(nodes[i]);
    for (NodeRef r : inputs[i])
      if (r.index >= 0 && static_cast<size_t>(r.index) < nodes.size())
        last_use[static_cast<size_t>(r.index)] = static_cast<int32_t>(i);
  }

  std::string out = fmt::format("class {}(torch.nn.Module):\n    def forward(self", g.name);
  for (const Node& n : nodes) {
    if (n.kind != NodeKind::Placeholder) continue;
    out += ", ";
    out += n.name;
    append_annotation(n.type, out);
  }
  out += "):\n";

  std::string stack_trace;
  std::vector<std::string_view> released;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    if (n.kind == NodeKind::Placeholder) continue;
    if (n.meta.stack_trace != stack_trace) {
      stack_trace = n.meta.stack_trace;
      // Like torch, say so when the trace stops (otherwise the next node
      // would inherit the previous comment when read back).
      out += "        # ";
      out += stack_trace.empty() ? "No stacktrace found for following nodes" : stack_trace;
      out += '\n';
    }
    if (!n.meta.note.empty()) {
      out += "        # eqfuse: ";
      out += n.meta.note;
      out += '\n';
    }
    out += "        ";
    if (n.kind == NodeKind::Output) {
      append_return(g, n, out);
      out += '\n';
      continue;
    }
    out += n.name;
    append_annotation(n.type, out);
    out += " = ";
    append_rhs(g, n, reg, out);
    // Clean-ups as torch writes them: inputs read for the last time here,
    // then the node itself if nothing reads it.
    released.clear();
    for (NodeRef r : inputs[i]) {
      const auto idx = static_cast<size_t>(r.index);
      if (r.index < 0 || idx >= nodes.size() || last_use[idx] != static_cast<int32_t>(i)) continue;
      if (std::find(released.begin(), released.end(), nodes[idx].name) == released.end())
        released.push_back(nodes[idx].name);
    }
    if (last_use[i] < 0) released.push_back(n.name);
    if (!released.empty()) {
      out += ";  ";
      for (std::string_view name : released) {
        out += name;
        out += " = ";
      }
      out += "None";
    }
    out += '\n';
  }
  return out;
}

}  // namespace eqfuse
