// Parsing of rule conditions: a recursive-descent parser with Python's precedence over the
// tokens of condition_lexer.hpp, producing the tree in condition_internal.hpp. Every error
// points at the offending token; condition_error and condition_offset_loc, here too, map
// a byte offset of the condition to its file position. The static checks of a parsed
// condition are in condition_check.cpp.
#include <algorithm>
#include <array>

#include "rewrites/condition_internal.hpp"
#include "rewrites/condition_lexer.hpp"

namespace eqfuse {
namespace {

using condition_detail::describe_token;
using condition_detail::is_keyword;
using condition_detail::Lexer;
using condition_detail::Token;
using condition_detail::TokKind;

using Node = CondExpr::Node;

// Deeper expressions are rejected: the evaluator recurses over the tree and
// must not overflow the stack on hostile input.
constexpr uint32_t kMaxDepth = 100;

// Bare dtype words accepted without `torch.`: torch names (float16),
// annotation codes (bf16) and the common fp16/fp32/fp64 spellings, but not
// Python-builtin-like aliases (int, float), which would shadow rule inputs.
std::optional<DType> bare_dtype(std::string_view word) {
  if (word == "fp16") return DType::Float16;
  if (word == "fp32") return DType::Float32;
  if (word == "fp64") return DType::Float64;
  auto d = parse_dtype(word);
  if (!d || (word != dtype_code(*d) && word != dtype_torch_name(*d))) return std::nullopt;
  return d;
}

class Parser {
 public:
  Parser(std::string_view text, const SourceLoc& loc) : text_(text), loc_(loc), lexer_(text) {
    tokens_[0] = lexer_.next();
    tokens_[1] = lexer_.next();
  }

  Node parse() {
    Node root = parse_or();
    if (peek().kind != TokKind::End)
      fail_at(peek(),
              fmt::format("unexpected {} after the end of the expression", describe_token(peek())));
    return root;
  }

 private:
  // --- tokens -------------------------------------------------------------
  const Token& peek(int k = 0) {
    if (tokens_[k].kind == TokKind::Bad && k == 0) fail_at(tokens_[0], tokens_[0].text);
    return tokens_[k];
  }
  Token take() {
    Token t = peek();
    tokens_[0] = std::move(tokens_[1]);
    tokens_[1] = lexer_.next();
    return t;
  }
  bool at_op(std::string_view op) { return peek().kind == TokKind::Op && peek().text == op; }
  bool at_word(std::string_view word, int k = 0) {
    return peek(k).kind == TokKind::Ident && peek(k).text == word;
  }
  Token expect_op(std::string_view op, std::string_view context) {
    if (!at_op(op))
      fail_at(peek(),
              fmt::format("expected '{}' {}, found {}", op, context, describe_token(peek())));
    return take();
  }

  [[noreturn]] void fail_at(const Token& t, std::string message) {
    throw condition_error(text_, loc_, t.begin, std::move(message));
  }
  [[noreturn]] void fail_at(uint32_t offset, std::string message) {
    throw condition_error(text_, loc_, offset, std::move(message));
  }

  // --- tree building -------------------------------------------------------
  Node make(CondKind kind, uint32_t begin, std::vector<Node> children = {}) {
    Node n;
    n.kind = kind;
    n.begin = begin;
    n.end = begin;
    for (const Node& c : children) {
      n.end = std::max(n.end, c.end);
      n.depth = std::max(n.depth, c.depth + 1);
    }
    n.children = std::move(children);
    if (n.depth > kMaxDepth)
      fail_at(begin, fmt::format("expression nested too deeply (more than {} levels)", kMaxDepth));
    return n;
  }
  Node literal(const Token& t, CondValue value) {
    Node n = make(CondKind::Literal, t.begin);
    n.end = t.end;
    n.literal = std::move(value);
    return n;
  }

  // Guards the recursion of nested parentheses, brackets and prefix operators.
  struct DepthGuard {
    explicit DepthGuard(Parser& p, uint32_t offset) : parser(p) {
      if (++parser.nesting_ > kMaxDepth)
        parser.fail_at(
            offset, fmt::format("expression nested too deeply (more than {} levels)", kMaxDepth));
    }
    ~DepthGuard() { --parser.nesting_; }
    Parser& parser;
  };

  // --- grammar ----------------------------------------------------------------
  Node parse_or() { return parse_logical(CondKind::Or, "or", &Parser::parse_and); }
  Node parse_and() { return parse_logical(CondKind::And, "and", &Parser::parse_not); }

  Node parse_logical(CondKind kind, std::string_view word, Node (Parser::*operand)()) {
    Node first = (this->*operand)();
    if (!at_word(word)) return first;
    std::vector<Node> operands;
    operands.push_back(std::move(first));
    while (at_word(word)) {
      take();
      operands.push_back((this->*operand)());
    }
    uint32_t begin = operands.front().begin;
    return make(kind, begin, std::move(operands));
  }

  Node parse_not() {
    if (!at_word("not")) return parse_comparison();
    Token t = take();
    DepthGuard guard(*this, t.begin);
    return make(CondKind::Not, t.begin, {parse_not()});
  }

  std::optional<CompareOp> comparison_op() {
    const Token& t = peek();
    if (t.kind == TokKind::Op) {
      static constexpr std::array<std::pair<std::string_view, CompareOp>, 6> kOps = {{
          {"==", CompareOp::Eq},
          {"!=", CompareOp::Ne},
          {"<", CompareOp::Lt},
          {"<=", CompareOp::Le},
          {">", CompareOp::Gt},
          {">=", CompareOp::Ge},
      }};
      for (auto [text, op] : kOps) {
        if (t.text == text) {
          take();
          return op;
        }
      }
      return std::nullopt;
    }
    if (at_word("in")) {
      take();
      return CompareOp::In;
    }
    if (at_word("not") && at_word("in", 1)) {
      take();
      take();
      return CompareOp::NotIn;
    }
    if (at_word("is")) {
      take();
      if (!at_word("not")) return CompareOp::Is;
      take();
      return CompareOp::IsNot;
    }
    return std::nullopt;
  }

  Node parse_comparison() {
    Node first = parse_arith();
    std::vector<CompareOp> ops;
    std::vector<Node> operands;
    operands.push_back(std::move(first));
    while (auto op = comparison_op()) {
      ops.push_back(*op);
      operands.push_back(parse_arith());
    }
    if (ops.empty()) return std::move(operands.front());
    uint32_t begin = operands.front().begin;
    Node n = make(CondKind::Compare, begin, std::move(operands));
    n.compare_ops = std::move(ops);
    return n;
  }

  Node parse_arith() {
    Node left = parse_term();
    while (at_op("+") || at_op("-")) {
      ArithOp op = take().text == "+" ? ArithOp::Add : ArithOp::Sub;
      left = arith(op, std::move(left), parse_term());
    }
    return left;
  }

  Node parse_term() {
    Node left = parse_unary();
    while (at_op("*") || at_op("//") || at_op("/") || at_op("%")) {
      ArithOp a = multiplicative_op(take().text);
      left = arith(a, std::move(left), parse_unary());
    }
    return left;
  }

  static ArithOp multiplicative_op(std::string_view text) {
    if (text == "*") return ArithOp::Mul;
    if (text == "/") return ArithOp::Div;
    return text == "//" ? ArithOp::FloorDiv : ArithOp::Mod;
  }

  Node arith(ArithOp op, Node left, Node right) {
    uint32_t begin = left.begin;
    std::vector<Node> operands;
    operands.push_back(std::move(left));
    operands.push_back(std::move(right));
    Node n = make(CondKind::Arith, begin, std::move(operands));
    n.arith = op;
    return n;
  }

  Node parse_unary() {
    if (at_op("-") || at_op("+")) {
      Token t = take();
      DepthGuard guard(*this, t.begin);
      Node operand = parse_unary();
      if (t.text == "+") {
        operand.begin = t.begin;
        return operand;
      }
      return make(CondKind::Negate, t.begin, {std::move(operand)});
    }
    return parse_postfix();
  }

  Node parse_postfix() {
    Node n = parse_primary();
    bool rooted_at_name = n.kind == CondKind::Name;
    if (rooted_at_name && at_op("(")) {
      n = parse_call(std::move(n));
      rooted_at_name = false;
    }
    while (true) {
      if (at_op(".")) {
        n = parse_member(std::move(n));
      } else if (at_op("[")) {
        n = parse_subscript(std::move(n));
      } else if (at_op("(")) {
        fail_at(peek(), "only named functions and methods can be called");
      } else {
        break;
      }
    }
    // A parenthesized fact `(x.dtype)` stays a fact.
    n.is_fact = n.is_fact || rooted_at_name;
    return n;
  }

  std::vector<Node> parse_arguments(std::string_view context) {
    Token open = expect_op("(", context);
    DepthGuard guard(*this, open.begin);
    std::vector<Node> args;
    while (!at_op(")")) {
      args.push_back(parse_or());
      if (!at_op(",")) break;
      take();
    }
    close_ = expect_op(")", fmt::format("to close '(' at column {}", column_of(open.begin))).end;
    return args;
  }

  Node parse_call(Node callee) {
    std::vector<Node> args = parse_arguments("after the function name");
    Node n = make(CondKind::Call, callee.begin, std::move(args));
    n.name = std::move(callee.name);
    n.name_begin = callee.begin;
    n.end = close_;
    return n;
  }

  Node parse_member(Node object) {
    take();  // '.'
    if (peek().kind != TokKind::Ident || is_keyword(peek().text))
      fail_at(peek(), fmt::format("expected an attribute name after '.', found {}",
                                  describe_token(peek())));
    Token name = take();
    uint32_t begin = object.begin;
    std::vector<Node> children;
    children.push_back(std::move(object));
    CondKind kind = CondKind::Attribute;
    uint32_t end = name.end;
    if (at_op("(")) {
      kind = CondKind::Method;
      for (Node& arg : parse_arguments("after the method name")) children.push_back(std::move(arg));
      end = close_;
    }
    Node n = make(kind, begin, std::move(children));
    n.name = name.text;
    n.name_begin = name.begin;
    n.end = end;
    return n;
  }

  Node parse_subscript(Node object) {
    Token open = take();  // '['
    DepthGuard guard(*this, open.begin);
    uint32_t begin = object.begin;
    std::vector<Node> children;
    children.push_back(std::move(object));
    auto omitted = [&] { return literal(peek(), CondValue{std::monostate{}}); };
    CondKind kind = CondKind::Index;
    if (at_op(":")) {
      kind = CondKind::Slice;
      children.push_back(omitted());
    } else {
      if (at_op("]")) fail_at(peek(), "expected an index or a slice inside '[]'");
      children.push_back(parse_or());
    }
    if (at_op(":")) {
      kind = CondKind::Slice;
      take();
      children.push_back(at_op("]") ? omitted() : parse_or());
    }
    Token close = expect_op("]", fmt::format("to close '[' at column {}", column_of(open.begin)));
    Node n = make(kind, begin, std::move(children));
    n.end = close.end;
    return n;
  }

  Node parse_list() {
    Token open = take();  // '['
    DepthGuard guard(*this, open.begin);
    std::vector<Node> elements;
    while (!at_op("]")) {
      elements.push_back(parse_or());
      if (!at_op(",")) break;
      take();
    }
    Token close = expect_op("]", fmt::format("to close '[' at column {}", column_of(open.begin)));
    Node n = make(CondKind::List, open.begin, std::move(elements));
    n.end = close.end;
    return n;
  }

  Node parse_parenthesized() {
    Token open = take();  // '('
    DepthGuard guard(*this, open.begin);
    Node inner = parse_or();
    Token close = expect_op(")", fmt::format("to close '(' at column {}", column_of(open.begin)));
    // The parenthesized node spans its parentheses so details quote them.
    inner.begin = open.begin;
    inner.end = close.end;
    return inner;
  }

  Node parse_torch_dtype() {
    Token torch = take();
    if (!at_op(".")) fail_at(torch, "expected '.' and a dtype name after 'torch'");
    take();
    if (peek().kind != TokKind::Ident)
      fail_at(peek(), fmt::format("expected a dtype name after 'torch.', found {}",
                                  describe_token(peek())));
    Token name = take();
    auto d = parse_dtype("torch." + name.text);
    if (!d) fail_at(torch, fmt::format("unknown dtype 'torch.{}'", name.text));
    Node n = literal(torch, CondValue{*d});
    n.end = name.end;
    return n;
  }

  Node parse_word() {
    const std::string word = peek().text;
    if (word == "True" || word == "False") return literal(take(), CondValue{word == "True"});
    if (word == "None") return literal(take(), CondValue{std::monostate{}});
    if (is_keyword(word)) fail_at(peek(), fmt::format("expected an expression, found '{}'", word));
    if (word == "torch") return parse_torch_dtype();
    if (auto d = bare_dtype(word); d && !at_op_after_word("("))
      return literal(take(), CondValue{*d});
    Token name = take();
    Node n = make(CondKind::Name, name.begin);
    n.end = name.end;
    n.name_begin = name.begin;
    n.name = name.text;
    return n;
  }
  bool at_op_after_word(std::string_view op) {
    return peek(1).kind == TokKind::Op && peek(1).text == op;
  }

  Node parse_primary() {
    const Token& t = peek();
    switch (t.kind) {
      case TokKind::Int:
      case TokKind::Float:
      case TokKind::String: {
        Token tok = take();
        CondValue value{tok.kind == TokKind::Int     ? CondValue::V{tok.int_value}
                        : tok.kind == TokKind::Float ? CondValue::V{tok.float_value}
                                                     : CondValue::V{tok.text}};
        return literal(tok, std::move(value));
      }
      case TokKind::Ident:
        return parse_word();
      case TokKind::Op:
        if (t.text == "(") return parse_parenthesized();
        if (t.text == "[") return parse_list();
        break;
      default:
        break;
    }
    fail_at(t, fmt::format("expected an expression, found {}", describe_token(t)));
  }

  int column_of(uint32_t offset) const { return condition_offset_loc(text_, loc_, offset).column; }

  std::string_view text_;
  const SourceLoc& loc_;
  Lexer lexer_;
  std::array<Token, 2> tokens_;
  uint32_t nesting_ = 0;
  uint32_t close_ = 0;  // end offset of the last ')' consumed by parse_arguments
};

}  // namespace

// --- locations ------------------------------------------------------------------

SourceLoc condition_offset_loc(std::string_view text, const SourceLoc& loc, size_t offset) {
  offset = std::min(offset, text.size());
  SourceLoc out = loc;
  out.line = loc.line > 0 ? loc.line : 1;
  int first_column = loc.column > 0 ? loc.column : 1;
  size_t last_newline = text.substr(0, offset).rfind('\n');
  if (last_newline == std::string_view::npos) {
    out.column = first_column + static_cast<int>(offset);
  } else {
    // Later lines of a multi-line condition are taken as whole source lines.
    out.line += static_cast<int>(std::count(text.begin(), text.begin() + offset, '\n'));
    out.column = static_cast<int>(offset - last_newline);
  }
  return out;
}

Error condition_error(std::string_view text, const SourceLoc& loc, size_t offset,
                      std::string message) {
  SourceLoc at = condition_offset_loc(text, loc, offset);
  offset = std::min(offset, text.size());
  size_t line_start = text.substr(0, offset).rfind('\n');
  bool first_line = line_start == std::string_view::npos;
  line_start = first_line ? 0 : line_start + 1;
  size_t line_end = text.find('\n', line_start);
  std::string source(
      text.substr(line_start, line_end == text.npos ? text.npos : line_end - line_start));
  // On the first line the condition starts at loc.column: pad so the caret
  // lines up under the offending token.
  if (first_line && loc.column > 1) source.insert(0, static_cast<size_t>(loc.column - 1), ' ');
  return Error(std::move(message), std::move(at), std::move(source));
}

// --- public entry points ----------------------------------------------------------

CondExpr parse_condition(std::string_view text, const SourceLoc& loc) {
  if (text.size() > UINT32_MAX / 2) throw Error("condition text is too long", loc);
  Parser parser(text, loc);
  auto root = std::make_shared<const Node>(parser.parse());
  return CondExpr(std::move(root), std::string(text), loc);
}

}  // namespace eqfuse
