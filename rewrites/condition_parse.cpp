// Parsing and static checking of rule conditions: a hand-written lexer and
// recursive-descent parser with Python's precedence, producing the tree in
// condition_internal.hpp. Every error points at the offending token.
#include <algorithm>
#include <array>
#include <charconv>
#include <set>

#include <fmt/ranges.h>

#include "base/ascii.hpp"
#include "rewrites/condition_internal.hpp"

namespace eqfuse {
namespace {

using Node = CondExpr::Node;

// Deeper expressions are rejected: the evaluator recurses over the tree and
// must not overflow the stack on hostile input.
constexpr uint32_t kMaxDepth = 100;

enum class TokKind : uint8_t { End, Int, Float, String, Ident, Op, Bad };

struct Token {
  TokKind kind = TokKind::End;
  uint32_t begin = 0;
  uint32_t end = 0;
  int64_t int_value = 0;
  double float_value = 0;
  std::string text;  // identifier / operator spelling, string contents, or Bad's message
};

// How a token is named in messages: 'foo', '==', end of condition.
std::string describe_token(const Token& t) {
  switch (t.kind) {
    case TokKind::End:
      return "end of condition";
    case TokKind::String:
      return "string literal";
    default:
      return "'" + t.text + "'";
  }
}

class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Token next() {
    skip_blanks();
    Token t;
    t.begin = t.end = static_cast<uint32_t>(pos_);
    if (pos_ >= text_.size()) return t;
    char c = text_[pos_];
    if (is_digit(c)) return number();
    if (is_ident_start(c)) return identifier();
    if (c == '"' || c == '\'') return string_literal();
    return op();
  }

 private:
  void skip_blanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r' || text_[pos_] == '\n'))
      ++pos_;
  }

  Token make(TokKind kind, size_t begin) {
    Token t;
    t.kind = kind;
    t.begin = static_cast<uint32_t>(begin);
    t.end = static_cast<uint32_t>(pos_);
    if (kind != TokKind::String) t.text = std::string(text_.substr(begin, pos_ - begin));
    return t;
  }
  Token bad(size_t begin, std::string message) {
    Token t = make(TokKind::Bad, begin);
    t.text = std::move(message);
    return t;
  }

  Token number() {
    size_t begin = pos_;
    bool is_float = false;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t exp = pos_ + 1;
      if (exp < text_.size() && (text_[exp] == '+' || text_[exp] == '-')) ++exp;
      if (exp < text_.size() && is_digit(text_[exp])) {
        is_float = true;
        pos_ = exp;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      }
    }
    if (pos_ < text_.size() && is_ident_char(text_[pos_])) {
      while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
      return bad(begin, fmt::format("invalid number '{}'", text_.substr(begin, pos_ - begin)));
    }
    Token t = make(is_float ? TokKind::Float : TokKind::Int, begin);
    const char* first = text_.data() + begin;
    const char* last = text_.data() + pos_;
    if (is_float) {
      // strtod needs a terminated string; numbers are short.
      t.float_value = std::strtod(std::string(first, last).c_str(), nullptr);
      return t;
    }
    auto [ptr, ec] = std::from_chars(first, last, t.int_value);
    if (ec != std::errc() || ptr != last)
      return bad(begin, fmt::format("integer literal '{}' is too large", t.text));
    return t;
  }

  Token identifier() {
    size_t begin = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    return make(TokKind::Ident, begin);
  }

  Token string_literal() {
    size_t begin = pos_;
    char quote = text_[pos_++];
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\n') {
      char c = text_[pos_++];
      if (c != '\\') {
        value += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case 'n':
          value += '\n';
          break;
        case 't':
          value += '\t';
          break;
        case '\\':
        case '\'':
        case '"':
          value += e;
          break;
        default:
          return bad(pos_ - 2, fmt::format("unknown escape '\\{}' in string", e));
      }
    }
    if (pos_ >= text_.size() || text_[pos_] != quote) return bad(begin, "unterminated string");
    ++pos_;
    Token t = make(TokKind::String, begin);
    t.text = std::move(value);
    return t;
  }

  Token op() {
    size_t begin = pos_;
    std::string_view rest = text_.substr(pos_);
    static constexpr std::array<std::string_view, 5> kTwoChar = {"==", "!=", "<=", ">=", "//"};
    for (std::string_view two : kTwoChar) {
      if (rest.starts_with(two)) {
        pos_ += 2;
        return make(TokKind::Op, begin);
      }
    }
    // Spellings from other languages get a pointed hint.
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kHints = {{
        {"&&", "use 'and'"},
        {"||", "use 'or'"},
        {"**", "powers are not supported"},
        {"=", "use '==' to compare"},
        {"!", "use 'not'"},
        {"&", "use 'and'"},
        {"|", "use 'or'"},
    }};
    for (auto [spelling, hint] : kHints) {
      if (rest.starts_with(spelling)) {
        pos_ += spelling.size();
        return bad(begin, fmt::format("unexpected '{}' ({})", spelling, hint));
      }
    }
    char c = text_[pos_++];
    if (std::string_view("<>+-*/%()[],.:").find(c) != std::string_view::npos)
      return make(TokKind::Op, begin);
    bool printable = c >= 0x20 && c < 0x7f;
    return bad(begin, printable
                          ? fmt::format("unexpected character '{}'", c)
                          : fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c)));
  }

  std::string_view text_;
  size_t pos_ = 0;
};

bool is_keyword(std::string_view s) {
  static constexpr std::array<std::string_view, 8> kKeywords = {"and", "or",   "not",   "in",
                                                                "is",  "True", "False", "None"};
  return std::find(kKeywords.begin(), kKeywords.end(), s) != kKeywords.end();
}

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

// --- static checks ----------------------------------------------------------

std::string join_limited(std::span<const std::string> names) {
  constexpr size_t kMaxListed = 12;
  std::string out;
  for (size_t i = 0; i < names.size() && i < kMaxListed; ++i) {
    if (i) out += ", ";
    out += names[i];
  }
  if (names.size() > kMaxListed) out += ", ...";
  return out.empty() ? "none" : out;
}

std::string arity_text(const BuiltinFunction& f) {
  if (f.max_args == f.min_args)
    return fmt::format("{} argument{}", f.min_args, f.min_args == 1 ? "" : "s");
  if (f.max_args < 0)
    return fmt::format("at least {} argument{}", f.min_args, f.min_args == 1 ? "" : "s");
  return fmt::format("{} to {} arguments", f.min_args, f.max_args);
}

bool arity_ok(const BuiltinFunction& f, size_t n) {
  return static_cast<int>(n) >= f.min_args && (f.max_args < 0 || static_cast<int>(n) <= f.max_args);
}

class Checker {
 public:
  Checker(const CondExpr& e, std::span<const std::string> known, const CondFunctions& fns)
      : e_(e), known_(known), fns_(fns) {}

  void check(const Node& n) {
    switch (n.kind) {
      case CondKind::Name:
        check_name(n);
        break;
      case CondKind::Call:
        check_call(n);
        break;
      case CondKind::Attribute:
        if (!is_known_attribute(n.name))
          fail(n.name_begin,
               fmt::format("unknown attribute '{}' (known: {})", n.name, known_attributes_list()));
        break;
      case CondKind::Method:
        check_method(n);
        break;
      default:
        break;
    }
    for (const Node& c : n.children) check(c);
  }

 private:
  void check_name(const Node& n) {
    if (std::find(known_.begin(), known_.end(), n.name) != known_.end()) return;
    if (find_builtin(n.name) || fns_.contains(n.name))
      fail(n.name_begin, fmt::format("'{}' is a function; call it as {}(...)", n.name, n.name));
    fail(n.name_begin, fmt::format("unknown name '{}' (known: {})", n.name, join_limited(known_)));
  }
  void check_call(const Node& n) {
    if (const BuiltinFunction* b = find_builtin(n.name)) {
      if (!arity_ok(*b, n.children.size()))
        fail(n.name_begin,
             fmt::format("{}() takes {}, got {}", n.name, arity_text(*b), n.children.size()));
      return;
    }
    if (!fns_.contains(n.name)) fail(n.name_begin, fmt::format("unknown function '{}'", n.name));
  }
  void check_method(const Node& n) {
    const BuiltinFunction* m = find_method(n.name);
    if (!m)
      fail(n.name_begin,
           fmt::format("unknown method '{}' (known: {})", n.name, known_methods_list()));
    if (!arity_ok(*m, n.children.size() - 1))
      fail(n.name_begin,
           fmt::format(".{}() takes {}, got {}", n.name, arity_text(*m), n.children.size() - 1));
  }
  [[noreturn]] void fail(uint32_t offset, std::string message) {
    throw condition_error(e_.text(), e_.loc(), offset, std::move(message));
  }

  const CondExpr& e_;
  std::span<const std::string> known_;
  const CondFunctions& fns_;
};

void collect_names(const Node& n, std::set<std::string>& out) {
  if (n.kind == CondKind::Name) out.insert(n.name);
  for (const Node& c : n.children) collect_names(c, out);
}

}  // namespace

// --- tables -------------------------------------------------------------------

std::string_view arith_op_text(ArithOp op) {
  static constexpr std::array<std::string_view, 6> kText = {"+", "-", "*", "//", "%", "/"};
  return kText[static_cast<int>(op)];
}

std::string_view compare_op_text(CompareOp op) {
  static constexpr std::array<std::string_view, 10> kText = {"==", "!=", "<",      "<=", ">",
                                                             ">=", "in", "not in", "is", "is not"};
  return kText[static_cast<int>(op)];
}

const std::vector<BuiltinFunction>& builtin_functions() {
  static const std::vector<BuiltinFunction> kBuiltins = {
      {"len", 1, 1},       {"prod", 1, 1},      {"contiguous_strides", 1, 1},
      {"is_static", 1, 1}, {"canon_dim", 2, 2}, {"canon_dims", 2, 2},
      {"sorted", 1, 1},    {"min", 1, -1},      {"max", 1, -1},
      {"all", 1, 1},       {"any", 1, 1},       {"abs", 1, 1},
      {"int", 1, 1},       {"is_number", 1, 1}, {"is_leaf", 1, 1},
      {"distinct", 2, -1}, {"ordered", 2, -1},  {"is_power_of_two", 1, 1},
  };
  return kBuiltins;
}

const BuiltinFunction* find_builtin(std::string_view name) {
  for (const BuiltinFunction& f : builtin_functions())
    if (f.name == name) return &f;
  return nullptr;
}

namespace {
constexpr std::array<std::string_view, 8> kAttributes = {
    "dtype", "shape", "rank", "ndim", "itemsize", "numel", "device", "is_floating_point"};
const std::array<BuiltinFunction, 4> kMethods = {{
    {"dim", 0, 0},
    {"size", 0, 1},
    {"element_size", 0, 0},
    {"numel", 0, 0},
}};
}  // namespace

bool is_known_attribute(std::string_view name) {
  return std::find(kAttributes.begin(), kAttributes.end(), name) != kAttributes.end();
}

const BuiltinFunction* find_method(std::string_view name) {
  for (const BuiltinFunction& m : kMethods)
    if (m.name == name) return &m;
  return nullptr;
}

std::string known_attributes_list() {
  return fmt::format("{}", fmt::join(kAttributes, ", "));
}

std::string known_methods_list() {
  std::string out;
  for (const BuiltinFunction& m : kMethods) {
    if (!out.empty()) out += ", ";
    out += std::string(m.name) + "()";
  }
  return out;
}

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

void check_condition(const CondExpr& e, std::span<const std::string> known_names,
                     const CondFunctions& fns) {
  if (!e.root()) return;
  Checker(e, known_names, fns).check(*e.root());
}

std::vector<std::string> CondExpr::names() const {
  std::set<std::string> names;
  if (root_) collect_names(*root_, names);
  return {names.begin(), names.end()};
}

std::optional<std::vector<std::vector<std::string>>> CondExpr::calls_only(
    std::string_view fn) const {
  if (!root_) return std::nullopt;
  std::vector<const Node*> calls;
  if (root_->kind == CondKind::And) {
    for (const Node& c : root_->children) calls.push_back(&c);
  } else {
    calls.push_back(root_.get());
  }
  std::vector<std::vector<std::string>> out;
  for (const Node* c : calls) {
    if (c->kind != CondKind::Call || c->name != fn) return std::nullopt;
    std::vector<std::string>& args = out.emplace_back();
    for (const Node& a : c->children) {
      if (a.kind != CondKind::Name) return std::nullopt;
      args.push_back(a.name);
    }
  }
  return out;
}

}  // namespace eqfuse
