// The FX reader's code form (print_readable / GraphModule.code, and the
// statements of a header-less fragment): the `def forward(self, ...)`
// signature and its annotations, the indented body, statements (annotated
// assignments, clean-up chains, joint-graph tuple unpacks), right-hand sides
// (op calls, getitem, self.attr, SymInt arithmetic) and `return`, with the
// Dynamo-level constructs it refuses. The largest of the three forms, so it
// has a file of its own.
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "graph/io/fx_parser_internal.hpp"

namespace eqfuse::fx_detail {
namespace {

constexpr BinaryOp kBinaryOps[] = {
    {"+", "operator.add"},     {"-", "operator.sub"},       {"*", "operator.mul"},
    {"/", "operator.truediv"}, {"//", "operator.floordiv"}, {"%", "operator.mod"},
    {"**", "operator.pow"},    {"@", "operator.matmul"},    {"&", "operator.and_"},
    {"|", "operator.or_"},     {"^", "operator.xor"},       {"<<", "operator.lshift"},
    {">>", "operator.rshift"}, {"==", "operator.eq"},       {"!=", "operator.ne"},
    {"<", "operator.lt"},      {"<=", "operator.le"},       {">", "operator.gt"},
    {">=", "operator.ge"},
};

const BinaryOp* find_binary_op(const Token& t) {
  if (t.kind != Tok::Punct) return nullptr;
  for (const BinaryOp& op : kBinaryOps)
    if (op.token == t.text) return &op;
  return nullptr;
}

}  // namespace

// --- code form ------------------------------------------------------------

void Parser::parse_code() {
  if (class_name_) graph_.name = *class_name_;
  const Token def = lex_->next();  // `def` (located by locate_graph)
  def_column_ = def.column;
  const Token fn = expect_name("after 'def'");
  if (fn.text != limits_.function_name)
    fail_at(fn, fmt::format("expected '{}'", limits_.function_name));
  const Token open = expect("(", "after the function name");
  parse_params(open);
  expect(":", "after the forward() signature");
  if (lex_->peek().kind != Tok::Newline) fail_at(lex_->peek(), "expected a new line after ':'");
  lex_->next();
  parse_body(def_column_);
}

void Parser::parse_params(const Token& open) {
  // `self` comes first in forward(); rule functions may omit it.
  const bool self_optional = limits_.function_name != "forward";
  bool need_comma = false;
  if (!self_optional || lex_->peek().is("self")) {
    const Token self = expect_name("(the first parameter)");
    if (self.text != "self") fail_at(self, "the first parameter of forward() must be 'self'");
    need_comma = true;
  }
  std::unordered_set<std::string_view> seen;
  while (lex_->peek().kind != Tok::End && !lex_->peek().is(")")) {
    if (need_comma && !lex_->accept(",")) break;
    need_comma = true;
    if (lex_->peek().is(")")) break;
    const Token name = expect_name("as a parameter");
    if (!seen.insert(name.text).second)
      fail_at(name, fmt::format("duplicate definition of '{}'", name.text));
    Param p{name.text, name.offset, ValueType::unknown(), false};
    parse_optional_annotation(p);
    if (lex_->peek().is("=")) fail_at(lex_->peek(), "default values for inputs are not supported");
    params_.push_back(p);
  }
  if (lex_->peek().kind == Tok::End) fail_at(open, "unterminated parameter list");
  expect(")", "to close the parameter list");
}

void Parser::materialize_params() {
  if (params_done_) return;
  params_done_ = true;
  for (const Param& p : params_) add_placeholder(p);
}

void Parser::add_placeholder(const Param& p) {
  if (graph_.find(p.name)) src_.fail(p.offset, fmt::format("duplicate definition of '{}'", p.name));
  Node n;
  n.kind = NodeKind::Placeholder;
  n.name = std::string(p.name);
  n.target = n.name;
  n.type = p.type;
  n.type_annotated = p.annotated;
  add_node(std::move(n), p.offset);
}

// Statements indented deeper than `outer_column`, all at one column.
void Parser::parse_body(int outer_column) {
  int body_column = -1;
  for (;;) {
    const Token& t = lex_->peek();
    if (t.kind == Tok::End || t.column <= outer_column) break;
    if (t.kind == Tok::Newline) {  // `;` at the end of a line leaves one
      lex_->next();
      continue;
    }
    if (body_column < 0) body_column = t.column;
    if (t.column != body_column)
      fail_at(t, t.column > body_column
                     ? fmt::format("unexpected indentation (column {}, the body is at column {})",
                                   t.column, body_column)
                     : fmt::format("inconsistent dedent (column {}, the body is at column {})",
                                   t.column, body_column));
    if (returned_) fail_at(t, "statement after 'return'");
    parse_statement_line();
  }
  if (!returned_) {
    const Token& t = lex_->peek();
    src_.fail(t.kind == Tok::End ? end_of_last_line() : t.offset,
              "missing 'return': the graph body ends without a return statement");
  }
}

void Parser::parse_statement_line() {
  for (;;) {
    note_comments();
    parse_statement();
    if (lex_->peek().is(";")) {
      lex_->next();
      const Token& t = lex_->peek();
      if (t.kind == Tok::Newline || t.kind == Tok::End) break;  // trailing `;`
      continue;
    }
    expect_statement_end();
    return;
  }
  if (lex_->peek().kind == Tok::Newline) lex_->next();
}

void Parser::parse_statement() {
  const Token first = lex_->peek();
  if (first.is_name("return")) {
    lex_->next();
    materialize_params();
    parse_return(first);
    return;
  }
  if (first.kind != Tok::Name)
    fail_at(first, fmt::format("expected a statement, found {}", describe_token(first)));
  const Token name = lex_->next();
  const Token& after = lex_->peek();
  if (after.is(":")) {
    lex_->next();
    size_t offset = 0;
    bool quoted = false;
    const std::string_view text = lex_->raw_annotation(offset, quoted);
    ValueType type = annotation_type(text, offset, quoted);
    const Token& t = lex_->peek();
    if (t.is("=")) {
      lex_->next();
      materialize_params();
      parse_assignment(name, type, true);
    } else if (t.is(",")) {
      parse_unpack(name, type, true);
    } else if (t.is(";") || t.kind == Tok::Newline || t.kind == Tok::End) {
      pending_types_[name.text] = type;  // joint graphs: `primals_1: "f32[2]";`
    } else {
      fail_at(t, fmt::format("expected '=' after the annotation, found {}", describe_token(t)));
    }
    return;
  }
  if (after.is(",")) {
    parse_unpack(name, ValueType::unknown(), false);
    return;
  }
  if (after.is("=")) {
    lex_->next();
    materialize_params();
    parse_assignment(name, ValueType::unknown(), false);
    return;
  }
  if (after.is("+=") || after.is("-=") || after.is("*=") || after.is("/=") || after.is("%="))
    fail_at(after, fmt::format(kDynamoHint, "augmented assignment"));
  if (after.is("(") || after.is("."))
    fail_at(name, "expected an assignment `name = ...`; expression statements are not FX nodes");
  fail_at(after, fmt::format("expected ':' or '=' after '{}', found {}", name.text,
                             describe_token(after)));
}

// `: "f16[s0, 64]"` (quoted or not) after a parameter or unpack target.
void Parser::parse_optional_annotation(Param& p) {
  if (!lex_->accept(":")) return;
  size_t offset = 0;
  bool quoted = false;
  std::string_view text = lex_->raw_annotation(offset, quoted);
  p.type = annotation_type(text, offset, quoted);
  p.annotated = p.type.is_known();
}

// `a, b, c, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)`
void Parser::parse_unpack(const Token& first, ValueType first_type, bool first_annotated) {
  std::vector<Param> targets{{first.text, first.offset, std::move(first_type), first_annotated}};
  while (lex_->accept(",")) {
    if (lex_->peek().is("=")) break;
    const Token name = expect_name("in the tuple unpack");
    Param p{name.text, name.offset, ValueType::unknown(), false};
    parse_optional_annotation(p);
    targets.push_back(std::move(p));
  }
  expect("=", "after the tuple unpack targets");
  const Token callee = expect_name("(fx_pytree.tree_flatten_spec)");
  const std::string_view dotted = parse_dotted(callee);
  if (dotted != "fx_pytree.tree_flatten_spec")
    fail_at(callee, "tuple unpacking is only supported from fx_pytree.tree_flatten_spec(...)");
  if (params_done_) fail_at(first, "tuple unpack of the inputs after other statements");
  const Token open = expect("(", "after fx_pytree.tree_flatten_spec");
  skip_balanced(open);
  params_done_ = true;  // the forward() parameters were pytree containers
  for (Param& p : targets) {
    if (!p.annotated) {
      if (auto it = pending_types_.find(p.name); it != pending_types_.end()) {
        p.type = it->second;
        p.annotated = p.type.is_known();
      }
    }
    add_placeholder(p);
  }
}

void Parser::skip_balanced(const Token& open) {
  int depth = 1;
  while (depth > 0) {
    const Token t = lex_->next();
    if (t.kind == Tok::End) fail_at(open, "unterminated call: '(' is never closed");
    if (t.is("(") || t.is("[") || t.is("{")) ++depth;
    if (t.is(")") || t.is("]") || t.is("}")) --depth;
  }
}

void Parser::parse_assignment(const Token& name, ValueType type, bool annotated) {
  // Clean-up chains `a = b = None` release names; they create nothing.
  const Token& t = lex_->peek();
  if (t.kind == Tok::Name && !annotated) {
    const Token rhs = lex_->next();
    if (rhs.text == "None" || lex_->peek().is("=")) {
      parse_cleanup(name, rhs);
      return;
    }
    parse_rhs_from_name(name, rhs, std::move(type), annotated);
    return;
  }
  parse_rhs(name, std::move(type), annotated);
}

void Parser::parse_cleanup(const Token& first, Token next) {
  std::vector<Token> names{first};
  while (next.text != "None") {
    names.push_back(next);
    expect("=", "in a clean-up `a = b = None`");
    next = expect_name("in a clean-up `a = b = None`");
  }
  for (const Token& n : names)
    if (!graph_.find(n.text) && !(form_ == Form::Fragment && !pass_two_))
      fail_at(n, unknown_name_message(n));
}

Node Parser::new_node(const Token& name, ValueType type, bool annotated) {
  check_fresh(name);
  Node node;
  node.name = std::string(name.text);
  node.type = std::move(type);
  node.type_annotated = annotated;
  return node;
}

// Right-hand side not starting with a name: `-x`, or an error.
void Parser::parse_rhs(const Token& name, ValueType type, bool annotated) {
  const Token t = lex_->next();
  if (t.kind == Tok::Name) {
    parse_rhs_from_name(name, t, std::move(type), annotated);
    return;
  }
  if (t.is("-") && lex_->peek().kind == Tok::Name) {
    const Token operand = lex_->next();
    Node node = new_node(name, std::move(type), annotated);
    node.kind = NodeKind::Call;
    node.target = "operator.neg";
    node.args.push_back(Arg(lookup(operand)));
    add_node(std::move(node), name.offset);
    return;
  }
  if (t.kind == Tok::Int || t.kind == Tok::Float || t.kind == Tok::String || t.is("(") ||
      t.is("[") || t.is("-")) {
    // `x = 5 + s0` style arithmetic with a constant on the left.
    Arg lhs = parse_value_from(t, 1);
    if (const BinaryOp* op = find_binary_op(lex_->peek())) {
      lex_->next();
      finish_binary(name, std::move(type), annotated, std::move(lhs), *op);
      return;
    }
    fail_at(t, "expected an op call on the right-hand side, found a constant");
  }
  fail_at(t,
          fmt::format("expected an op call on the right-hand side, found {}", describe_token(t)));
}

void Parser::finish_binary(const Token& name, ValueType type, bool annotated, Arg lhs,
                           const BinaryOp& op) {
  Node node = new_node(name, std::move(type), annotated);
  node.kind = NodeKind::Call;
  node.target = std::string(op.target);
  node.args.push_back(std::move(lhs));
  node.args.push_back(parse_value(1));
  if (find_binary_op(lex_->peek()))
    fail_at(lex_->peek(), "chained operators are not FX node syntax (one operator per node)");
  add_node(std::move(node), name.offset);
}

void Parser::parse_rhs_from_name(const Token& name, const Token& first, ValueType type,
                                 bool annotated) {
  const std::string_view dotted = parse_dotted(first);
  const bool is_dotted = dotted.size() != first.text.size();
  const Token& next = lex_->peek();

  if (is_dotted && first.text == "self") {
    if (next.is("("))
      fail_at(first, fmt::format(kDynamoHint, fmt::format("module call `{}(...)`", dotted)));
    Node node = new_node(name, std::move(type), annotated);
    node.kind = NodeKind::GetAttr;
    node.target = std::string(dotted.substr(5));
    add_node(std::move(node), name.offset);
    return;
  }
  if (next.is("(")) {
    if (graph_.find(first.text) || (form_ == Form::Fragment && free_name_set_.contains(first.text)))
      fail_at(first, fmt::format(kDynamoHint,
                                 is_dotted ? fmt::format("method call `{}(...)`", dotted)
                                           : fmt::format("call of a value `{}(...)`", dotted)));
    const Token open = lex_->next();
    Node node = new_node(name, std::move(type), annotated);
    set_call_target(node, dotted);
    parse_call_args(open, node);
    make_getitem_if_needed(node, first);
    add_node(std::move(node), name.offset);
    return;
  }
  if (!is_dotted && next.is("[")) {
    const Token open = lex_->next();
    const NodeRef source = lookup(first);
    Arg index = lex_->peek().is("]") ? Arg() : parse_value(1);
    expect("]", "to close the subscript");
    if (!index.is_int()) fail_at(open, "getitem index must be an integer");
    Node node = new_node(name, std::move(type), annotated);
    node.kind = NodeKind::GetItem;
    node.args = {Arg(source), std::move(index)};
    add_node(std::move(node), name.offset);
    return;
  }
  if (const BinaryOp* op = find_binary_op(next)) {
    lex_->next();
    Arg lhs = is_dotted ? parse_literal_dotted(first, dotted) : value_of_bare_name(first);
    finish_binary(name, std::move(type), annotated, std::move(lhs), *op);
    return;
  }
  if (!is_dotted && (graph_.find(first.text) || free_name_set_.contains(first.text)))
    fail_at(first, fmt::format(kDynamoHint,
                               fmt::format("alias assignment `{} = {}`", name.text, first.text)));
  fail_at(first, fmt::format("expected an op call on the right-hand side, found '{}'", dotted));
}

Arg Parser::value_of_bare_name(const Token& t) {
  if (t.text == "True") return Arg(true);
  if (t.text == "False") return Arg(false);
  if (t.text == "None") return Arg::none();
  return Arg(lookup(t));
}

Arg Parser::parse_literal_dotted(const Token& first, std::string_view dotted) {
  if (graph_.find(first.text))
    fail_at(first, fmt::format(kDynamoHint, fmt::format("attribute access `{}`", dotted)));
  return Arg(Literal{std::string(dotted)});
}

void Parser::parse_return(const Token& ret) {
  Node out;
  out.kind = NodeKind::Output;
  out.name = graph_.fresh_name("output");
  const Token& t = lex_->peek();
  if (t.kind == Tok::Newline || t.kind == Tok::End || t.is(";"))
    fail_at(t, "'return' without a value (FX writes `return None` or `return ()`)");
  if (t.is_name("pytree")) {
    const Token first = lex_->next();
    const std::string_view dotted = parse_dotted(first);
    if (dotted != "pytree.tree_unflatten")
      fail_at(first, "only pytree.tree_unflatten(...) may wrap the returned values");
    const Token open = expect("(", "after pytree.tree_unflatten");
    out.target = std::string(dotted);
    parse_call_args(open, out);
  } else {
    out.args.push_back(parse_value(1));
  }
  returned_ = true;
  add_node(std::move(out), ret.offset);
}

}  // namespace eqfuse::fx_detail
