// FX text reader. Structure:
//   1. validate the bytes (size, UTF-8) and locate the graph: a
//      `def forward(` line (optionally after a `class ...:` line), a
//      `graph():` line, or a header-less statement fragment;
//   2. a string_view lexer (one token of lookahead, no allocations) that
//      joins lines inside brackets like Python and remembers comments;
//   3. a recursive-descent parser per form, building the Graph directly.
#include "graph/fx_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "graph/op_schema.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// ---------------------------------------------------------------------------
// Source text and error reporting.

class Source {
 public:
  Source(std::string_view text, std::string_view file) : text_(text), file_(file) {
    line_starts_.push_back(0);
    for (size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
      line_starts_.push_back(i + 1);
  }
  std::string_view text() const { return text_; }
  size_t line_count() const { return line_starts_.size(); }

  [[noreturn]] void fail(size_t offset, std::string message) const {
    offset = std::min(offset, text_.size());
    const auto [line, line_start] = line_of(offset);
    size_t line_end = text_.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text_.size();
    std::string_view src_line = text_.substr(line_start, line_end - line_start);
    if (!src_line.empty() && src_line.back() == '\r') src_line.remove_suffix(1);
    const int column = static_cast<int>(offset - line_start) + 1;
    // Very long lines (signatures with hundreds of inputs) are cut around
    // the column so the caret line stays readable.
    constexpr size_t kMaxShown = 200;
    int shown_column = column;
    if (src_line.size() > kMaxShown) {
      size_t from = offset - line_start > kMaxShown / 2 ? offset - line_start - kMaxShown / 2 : 0;
      src_line = src_line.substr(from, kMaxShown);
      shown_column = column - static_cast<int>(from);
      throw Error(std::move(message) + fmt::format(" (column {})", column),
                  SourceLoc{std::string(file_), line, shown_column}, std::string(src_line));
    }
    throw Error(std::move(message), SourceLoc{std::string(file_), line, column},
                std::string(src_line));
  }

  SourceLoc loc(size_t offset) const {
    offset = std::min(offset, text_.size());
    const auto [line, line_start] = line_of(offset);
    return SourceLoc{std::string(file_), line, static_cast<int>(offset - line_start) + 1};
  }

 private:
  // 1-based line number and start offset of the line holding `offset`.
  std::pair<int, size_t> line_of(size_t offset) const {
    auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
    const auto index = static_cast<size_t>(it - line_starts_.begin()) - 1;
    return {static_cast<int>(index) + 1, line_starts_[index]};
  }

  std::vector<size_t> line_starts_;
  std::string_view text_;
  std::string_view file_;
};

// Offset of the first byte that is not valid UTF-8, or npos.
size_t find_invalid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    int extra = 0;
    unsigned min_cp = 0;
    unsigned cp = 0;
    if ((c & 0xE0) == 0xC0) {
      extra = 1, min_cp = 0x80, cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, min_cp = 0x800, cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, min_cp = 0x10000, cp = c & 0x07;
    } else {
      return i;
    }
    if (i + static_cast<size_t>(extra) >= s.size()) return i;
    for (int k = 1; k <= extra; ++k) {
      const auto cc = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((cc & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return i;
    i += static_cast<size_t>(extra) + 1;
  }
  return std::string_view::npos;
}

// ---------------------------------------------------------------------------
// Lexer.

enum class Tok : uint8_t { Name, Int, Float, String, Percent, Punct, Newline, Other, End };

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // Percent: the name without '%'; String: with quotes
  size_t offset = 0;
  int column = 1;  // 1-based byte column, used for indentation
  bool is(std::string_view punct) const { return kind == Tok::Punct && text == punct; }
  bool is_name(std::string_view name) const { return kind == Tok::Name && text == name; }
};

class Lexer {
 public:
  Lexer(const Source& src, size_t begin) : src_(src), s_(src.text()), pos_(begin) {
    line_start_ = s_.rfind('\n', begin == 0 ? 0 : begin - 1);
    line_start_ = (line_start_ == std::string_view::npos || begin == 0) ? 0 : line_start_ + 1;
    at_line_start_ = true;
  }

  const Token& peek() {
    if (!has_peek_) {
      peeked_ = lex();
      has_peek_ = true;
    }
    return peeked_;
  }
  Token next() {
    peek();
    has_peek_ = false;
    return peeked_;
  }
  bool accept(std::string_view punct) {
    if (peek().is(punct)) {
      next();
      return true;
    }
    return false;
  }
  size_t position() const { return has_peek_ ? peeked_.offset : pos_; }

  // The comment lines seen since the last call (the last one wins).
  std::optional<std::string_view> take_comment() {
    auto c = pending_comment_;
    pending_comment_.reset();
    return c;
  }

  // Raw text of an annotation after ':' (quoted or torch-2.0 unquoted).
  // Returns the text and its offset; `quoted` tells which form it was.
  std::string_view raw_annotation(size_t& offset, bool& quoted) {
    skip_inline_spaces();
    offset = pos_;
    if (pos_ < s_.size() && (s_[pos_] == '"' || s_[pos_] == '\'')) {
      quoted = true;
      Token t = lex_string();
      return t.text.substr(1, t.text.size() - 2);
    }
    quoted = false;
    int depth = 0;
    size_t i = pos_;
    for (; i < s_.size(); ++i) {
      const char c = s_[i];
      if (c == '\n') break;
      if (c == '[' || c == '(') ++depth;
      if ((c == ']' || c == ')') && --depth < 0) break;
      if (depth == 0 && (c == '=' || c == ',' || c == ';')) break;
    }
    std::string_view text = trim_blanks(s_.substr(pos_, i - pos_));
    pos_ = i;
    return text;
  }

  // After an opcode or ':' in graph() form: `[ ... ]` taken verbatim.
  std::string_view raw_brackets() {
    skip_inline_spaces();
    if (pos_ >= s_.size() || s_[pos_] != '[') src_.fail(pos_, "expected '['");
    const size_t open = pos_;
    int depth = 0;
    for (size_t i = pos_; i < s_.size() && s_[i] != '\n'; ++i) {
      if (s_[i] == '[') ++depth;
      if (s_[i] == ']' && --depth == 0) {
        pos_ = i + 1;
        return s_.substr(open + 1, i - open - 1);
      }
    }
    src_.fail(open, "unterminated '[': no matching ']' on this line");
  }

 private:
  void skip_inline_spaces() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }

  Token make(Tok kind, size_t start, size_t end) {
    pos_ = end;
    return Token{kind, s_.substr(start, end - start), start,
                 static_cast<int>(start - line_start_) + 1};
  }

  // Skips indentation, blank lines and comment lines at the start of a line.
  void start_line() {
    while (pos_ < s_.size()) {
      if (pos_ == 0 || s_[pos_ - 1] == '\n') line_start_ = pos_;
      size_t i = pos_;
      bool tab = false;
      while (i < s_.size() && (s_[i] == ' ' || s_[i] == '\t' || s_[i] == '\r')) {
        tab |= s_[i] == '\t';
        ++i;
      }
      if (i < s_.size() && s_[i] == '#') {
        size_t end = s_.find('\n', i);
        if (end == std::string_view::npos) end = s_.size();
        pending_comment_ = trim_blanks(s_.substr(i + 1, end - i - 1));
        pos_ = end;
        if (pos_ < s_.size()) ++pos_;
        continue;
      }
      if (i < s_.size() && s_[i] == '\n') {
        pos_ = i + 1;
        continue;
      }
      if (tab && i < s_.size() && depth_ == 0)
        src_.fail(line_start_ + (s_.substr(line_start_, i - line_start_).find('\t')),
                  "tab character in indentation (FX code is indented with spaces)");
      pos_ = i;
      break;
    }
    at_line_start_ = false;
  }

  Token lex() {
    if (at_line_start_) start_line();
    for (;;) {
      skip_inline_spaces();
      if (pos_ >= s_.size()) return Token{Tok::End, {}, s_.size(), 1};
      const char c = s_[pos_];
      if (c == '#') {  // trailing comment
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      if (c == '\\' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '\n') {  // explicit joining
        pos_ += 2;
        line_start_ = pos_;
        continue;
      }
      if (c == '\n') {
        const size_t at = pos_;
        ++pos_;
        if (depth_ > 0) {
          line_start_ = pos_;
          continue;
        }
        at_line_start_ = true;
        return Token{Tok::Newline, s_.substr(at, 1), at, static_cast<int>(at - line_start_) + 1};
      }
      break;
    }
    const size_t start = pos_;
    const char c = s_[pos_];
    if (is_ident_start(c)) {
      size_t i = pos_ + 1;
      while (i < s_.size() && is_ident_char(s_[i])) ++i;
      return make(Tok::Name, start, i);
    }
    if (is_digit(c)) return lex_number();
    if (c == '"' || c == '\'') return lex_string();
    if (c == '%' && pos_ + 1 < s_.size() && is_ident_start(s_[pos_ + 1])) {
      size_t i = pos_ + 2;
      while (i < s_.size() && is_ident_char(s_[i])) ++i;
      Token t = make(Tok::Percent, start, i);
      t.text.remove_prefix(1);
      return t;
    }
    static constexpr std::string_view kTwoChar[] = {"**", "//", "==", "!=", "<=", ">=", "<<",
                                                    ">>", "->", "+=", "-=", "*=", "/=", "%="};
    for (std::string_view op : kTwoChar)
      if (s_.substr(pos_, 2) == op) return make(Tok::Punct, start, pos_ + 2);
    static constexpr std::string_view kOneChar = "()[]{},:;=.+-*/%@&|^~<>";
    if (kOneChar.find(c) != std::string_view::npos) {
      if (c == '(' || c == '[' || c == '{') ++depth_;
      if ((c == ')' || c == ']' || c == '}') && depth_ > 0) --depth_;
      return make(Tok::Punct, start, pos_ + 1);
    }
    // Anything else (one UTF-8 sequence) is reported by the parser in context.
    size_t len = 1;
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0xF0)
      len = 4;
    else if (u >= 0xE0)
      len = 3;
    else if (u >= 0xC0)
      len = 2;
    return make(Tok::Other, start, std::min(s_.size(), pos_ + len));
  }

  Token lex_number() {
    const size_t start = pos_;
    size_t i = pos_;
    bool is_float = false;
    while (i < s_.size() && is_digit(s_[i])) ++i;
    if (i < s_.size() && s_[i] == '.' && i + 1 < s_.size() && is_digit(s_[i + 1])) {
      is_float = true;
      ++i;
      while (i < s_.size() && is_digit(s_[i])) ++i;
    } else if (i < s_.size() && s_[i] == '.' &&
               (i + 1 >= s_.size() || !is_ident_start(s_[i + 1]))) {
      is_float = true;  // `1.`
      ++i;
    }
    if (i < s_.size() && (s_[i] == 'e' || s_[i] == 'E')) {
      size_t j = i + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j < s_.size() && is_digit(s_[j])) {
        is_float = true;
        i = j;
        while (i < s_.size() && is_digit(s_[i])) ++i;
      }
    }
    if (i < s_.size() && (is_ident_char(s_[i]) || s_[i] == '.')) {
      size_t end = i;
      while (end < s_.size() && (is_ident_char(s_[end]) || s_[end] == '.')) ++end;
      src_.fail(start, fmt::format("bad number '{}'", s_.substr(start, end - start)));
    }
    return make(is_float ? Tok::Float : Tok::Int, start, i);
  }

  Token lex_string() {
    const size_t start = pos_;
    const char quote = s_[pos_];
    size_t i = pos_ + 1;
    while (i < s_.size() && s_[i] != quote) {
      if (s_[i] == '\n') break;
      if (s_[i] == '\\' && i + 1 < s_.size() && s_[i + 1] != '\n') ++i;
      ++i;
    }
    if (i >= s_.size() || s_[i] != quote) src_.fail(start, "unterminated string");
    return make(Tok::String, start, i + 1);
  }

  const Source& src_;
  std::string_view s_;
  size_t pos_;
  size_t line_start_ = 0;
  bool at_line_start_ = true;
  int depth_ = 0;
  Token peeked_;
  bool has_peek_ = false;
  std::optional<std::string_view> pending_comment_;
};

// Decodes the escapes Python's repr() produces.
std::string unquote(std::string_view quoted) {
  std::string out;
  std::string_view s = quoted.substr(1, quoted.size() - 2);
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    switch (e) {
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case '0':
        out += '\0';
        break;
      case 'x': {
        unsigned v = 0;
        const char* end = s.data() + std::min(s.size(), i + 3);
        auto r = std::from_chars(s.data() + i + 1, end, v, 16);
        if (r.ec == std::errc() && i + 3 <= s.size() && r.ptr == end) {
          out += static_cast<char>(v);
          i += 2;
        } else {
          out += 'x';
        }
        break;
      }
      default:
        out += e;
        break;  // \\ \' \"
    }
  }
  return out;
}

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor" (registry naming).
// Higher-order ops (`torch.ops.higher_order.*`) keep their raw text: they
// are Python callables, not schema'd operators.
std::optional<std::string> qualified_from_fx(std::string_view target) {
  if (target.starts_with("torch.ops.higher_order.")) return std::nullopt;
  return qualified_name_from_fx_target(target);
}

// Python binary operators as FX prints them, and the `operator` function
// each one stands for.
struct BinaryOp {
  std::string_view token;
  std::string_view target;
};
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

constexpr std::string_view kDynamoHint =
    "Dynamo-level graph: {} is not supported; eqfuse reads aten-level graphs "
    "(AOTAutograd / Inductor / TorchAir dumps)";

// ---------------------------------------------------------------------------
// Parser.

enum class Form { Code, GraphPrint, Fragment };

struct Param {
  std::string_view name;
  size_t offset;
  ValueType type;
  bool annotated = false;
};

class Parser {
 public:
  Parser(const Source& src, const FxParseLimits& limits) : src_(src), limits_(limits) {}

  Graph parse() {
    const std::string_view s = src_.text();
    if (s.size() > limits_.max_input_bytes)
      src_.fail(0, fmt::format("input of {} bytes exceeds the limit of {} bytes", s.size(),
                               limits_.max_input_bytes));
    if (size_t bad = find_invalid_utf8(s); bad != std::string_view::npos)
      src_.fail(bad,
                fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned char>(s[bad])));
    locate_graph();
    // One node per line at most, bar joint-graph unpacks: reserving avoids
    // relocating every node as the vector grows on big graphs.
    graph_.reserve(std::min<size_t>(src_.line_count() + 64, size_t{1} << 22));
    if (form_ == Form::Fragment) return parse_fragment();
    Lexer lex(src_, body_begin_);
    lex_ = &lex;
    if (form_ == Form::GraphPrint)
      parse_graph_print();
    else
      parse_code();
    return std::move(graph_);
  }

 private:
  // --- locating the graph ---------------------------------------------------

  void locate_graph() {
    const std::string_view s = src_.text();
    size_t pos = 0;
    std::optional<size_t> first_significant;
    while (pos < s.size()) {
      size_t end = s.find('\n', pos);
      if (end == std::string_view::npos) end = s.size();
      const std::string_view raw = s.substr(pos, end - pos);
      std::string_view line = trim_blanks(raw);
      const size_t indent = static_cast<size_t>(line.data() - raw.data());
      const size_t next = end < s.size() ? end + 1 : end;
      if (line.empty() || line.front() == '#') {
        pos = next;
        continue;
      }
      // A logger prefix such as `[aot_autograd.py:2126 DEBUG] ` before the header.
      std::string_view unprefixed = line;
      if (line.front() == '[') {
        if (size_t close = line.find("] "); close != std::string_view::npos)
          unprefixed = trim_blanks(line.substr(close + 2));
      }
      if (unprefixed.starts_with("class ") && unprefixed.ends_with("):")) {
        if (!class_name_) {
          class_line_ = pos + indent;
          size_t paren = unprefixed.find('(');
          class_name_ = std::string(trim_blanks(unprefixed.substr(6, paren - 6)));
        }
        pos = next;
        continue;
      }
      if (is_def_line(unprefixed)) {
        form_ = Form::Code;
        // Lex from the line start so columns (indentation) are true columns.
        body_begin_ = unprefixed.data() == line.data()
                          ? pos
                          : pos + indent + static_cast<size_t>(unprefixed.data() - line.data());
        return;
      }
      if (unprefixed == "graph():" || unprefixed.ends_with(" graph():")) {
        form_ = Form::GraphPrint;
        body_begin_ = next;
        return;
      }
      if (is_tabular_header(line))
        src_.fail(pos + indent,
                  "tabular print_tabular() dump (opcode/name/target/args/kwargs columns) is not "
                  "supported; dump the graph with print_readable() or str(graph) instead");
      if (!first_significant && !line.starts_with("from __future__") &&
          !line.starts_with("import "))
        first_significant = pos + indent;
      pos = next;
    }
    if (class_line_)
      src_.fail(*class_line_, "no `def forward(self, ...):` found after this class header");
    if (!first_significant) src_.fail(0, "empty input: no FX graph found");
    if (!looks_like_statement(s.substr(*first_significant)))
      src_.fail(*first_significant,
                "no FX graph found: expected `def forward(self, ...):`, `graph():`, or FX "
                "statements such as `x = torch.ops.aten.add.Tensor(a, b)`");
    form_ = Form::Fragment;
    body_begin_ = *first_significant;
  }

  bool is_def_line(std::string_view line) const {
    if (!line.starts_with("def ")) return false;
    std::string_view rest = line.substr(4);
    if (!rest.starts_with(limits_.function_name)) return false;
    rest = trim_blanks(rest.substr(limits_.function_name.size()));
    return rest.starts_with("(");
  }

  static bool is_tabular_header(std::string_view line) {
    size_t op = line.find("opcode");
    if (op == std::string_view::npos) return false;
    size_t name = line.find("name", op);
    size_t target = line.find("target", op);
    size_t args = line.find("args", op);
    return name != std::string_view::npos && target != std::string_view::npos &&
           args != std::string_view::npos;
  }

  // `name = ...`, `name: ann = ...` or `return ...`.
  static bool looks_like_statement(std::string_view s) {
    if (s.starts_with("return ") || s.starts_with("return\n")) return true;
    size_t i = 0;
    if (s.empty() || !is_ident_start(s[0])) return false;
    while (i < s.size() && is_ident_char(s[i])) ++i;
    while (i < s.size() && s[i] == ' ') ++i;
    return i < s.size() && (s[i] == '=' || s[i] == ':');
  }

  // --- shared helpers -------------------------------------------------------

  // Just past the last visible character, so "missing X" errors show a line.
  size_t end_of_last_line() const {
    const std::string_view s = src_.text();
    size_t i = s.find_last_not_of(" \t\r\n");
    return i == std::string_view::npos ? 0 : i + 1;
  }

  [[noreturn]] void fail_at(const Token& t, std::string msg) const {
    if (t.kind == Tok::End) msg += " (at end of input)";
    src_.fail(t.offset, std::move(msg));
  }

  static std::string describe_token(const Token& t) {
    // Tokens can be arbitrarily long (a 1 MB identifier); messages stay short.
    constexpr size_t kMaxShown = 60;
    const std::string_view text = t.text.substr(0, kMaxShown);
    const char* more = t.text.size() > kMaxShown ? "..." : "";
    switch (t.kind) {
      case Tok::End:
        return "end of input";
      case Tok::Newline:
        return "end of line";
      case Tok::Percent:
        return fmt::format("'%{}{}'", text, more);
      default:
        return fmt::format("'{}{}'", text, more);
    }
  }

  Token expect(std::string_view punct, std::string_view context) {
    const Token& t = lex_->peek();
    if (!t.is(punct))
      fail_at(t, fmt::format("expected '{}' {}, found {}", punct, context, describe_token(t)));
    return lex_->next();
  }

  Token expect_name(std::string_view context) {
    const Token& t = lex_->peek();
    if (t.kind != Tok::Name)
      fail_at(t, fmt::format("expected a name {}, found {}", context, describe_token(t)));
    return lex_->next();
  }

  // After a statement: `;`, end of line or end of input.
  void expect_statement_end() {
    const Token& t = lex_->peek();
    if (t.kind == Tok::Newline) {
      lex_->next();
      return;
    }
    if (t.kind == Tok::End || t.is(";")) return;
    fail_at(t, fmt::format("unexpected {} after the end of the statement", describe_token(t)));
  }

  ValueType annotation_type(std::string_view text, size_t offset, bool quoted) {
    // Dynamo placeholders carry Python types; they say nothing about shapes.
    if (!quoted && (text == "torch.Tensor" || text == "torch.SymInt" || text == "int"))
      return ValueType::unknown();
    try {
      return parse_annotation(text);
    } catch (const std::invalid_argument& e) {
      src_.fail(offset + (quoted ? 1 : 0), e.what());
    }
  }

  NodeRef lookup(const Token& t) {
    if (auto r = graph_.find(t.text)) return *r;
    if (form_ == Form::Fragment && !pass_two_) {
      if (!free_name_set_.contains(t.text)) {
        free_name_set_.insert(t.text);
        free_names_.push_back(t.text);
      }
      return NodeRef{0};
    }
    fail_at(t, unknown_name_message(t));
  }

  // Distinguishes "never defined" from "defined further down".
  std::string unknown_name_message(const Token& t) const {
    const std::string_view s = src_.text();
    size_t from = t.offset + t.text.size();
    while ((from = s.find(t.text, from)) != std::string_view::npos) {
      const bool line_start =
          from > 0 && s.substr(0, from).find_last_not_of(" %") == s.rfind('\n', from - 1);
      const size_t after = from + t.text.size();
      if (line_start && after < s.size() && !is_ident_char(s[after])) {
        std::string_view rest = trim_blanks(s.substr(after, 3));
        if (!rest.empty() && (rest[0] == ':' || rest[0] == '=')) {
          return fmt::format("'{}' is used before its definition on line {}", t.text,
                             src_.loc(from).line);
        }
      }
      from = after;
    }
    return fmt::format("unknown name '{}'", t.text);
  }

  void check_fresh(const Token& name) {
    if (graph_.find(name.text))
      fail_at(name, fmt::format("duplicate definition of '{}'", name.text));
  }

  NodeRef add_node(Node node, size_t offset) {
    node.meta.loc = src_.loc(offset);
    node.meta.stack_trace = stack_trace_;
    return graph_.add(std::move(node));
  }

  void note_comments() {
    if (auto c = lex_->take_comment())
      stack_trace_ = c->starts_with("File:") ? std::string(*c) : "";
  }

  // --- values ---------------------------------------------------------------

  Arg parse_value(int depth) {
    if (depth > limits_.max_nesting_depth)
      fail_at(lex_->peek(),
              fmt::format("arguments nested deeper than {} levels", limits_.max_nesting_depth));
    return parse_value_from(lex_->next(), depth);
  }

  // A value whose first token `t` is already consumed.
  Arg parse_value_from(const Token& t, int depth) {
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

  NodeRef lookup_percent(const Token& t) {
    if (auto r = graph_.find(t.text)) return *r;
    fail_at(t, unknown_name_message(t));
  }

  Arg parse_int(const Token& t, bool negative) {
    // Parse the magnitude as unsigned so INT64_MIN is representable.
    uint64_t magnitude = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), magnitude);
    const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
    if (ec != std::errc() || p != t.text.data() + t.text.size() || magnitude > limit)
      fail_at(t, fmt::format("bad number '{}{}': integer out of the int64 range",
                             negative ? "-" : "", t.text));
    if (negative) return Arg(static_cast<int64_t>(0 - magnitude));
    return Arg(static_cast<int64_t>(magnitude));
  }

  Arg parse_float(const Token& t, bool negative) {
    double v = 0;
    auto [p, ec] = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
    if (ec != std::errc() || p != t.text.data() + t.text.size() || !std::isfinite(v))
      fail_at(t, fmt::format("bad number '{}'", t.text));
    return Arg(negative ? -v : v);
  }

  Arg parse_sequence(const Token& open, std::string_view close, bool tuple, int depth) {
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
  std::string_view parse_dotted(const Token& first) {
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

  static bool is_device_type(std::string_view s) {
    return s == "cpu" || s == "cuda" || s == "npu" || s == "meta" || s == "xpu" || s == "mps";
  }

  Arg parse_value_from_name(const Token& first) {
    if (first.text == "None") return Arg::none();
    if (first.text == "True") return Arg(true);
    if (first.text == "False") return Arg(false);
    if (first.text == "inf") return Arg(std::numeric_limits<double>::infinity());
    if (first.text == "nan") return Arg(std::numeric_limits<double>::quiet_NaN());
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
  Arg parse_device_call() {
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

  Device device_from_text(const std::string& text, const Token& where) {
    try {
      ValueType probe = parse_annotation("f32[]" + text);
      return *probe.tensor.device;
    } catch (const std::invalid_argument&) {
      fail_at(where, fmt::format("bad device '{}'", text));
    }
  }

  // `(a, b, k = v)`; the '(' is already consumed.
  void parse_call_args(const Token& open, Node& node) {
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
        fail_at(sep, fmt::format("expected ',' or ')' in call arguments, found {}",
                                 describe_token(sep)));
      }
    }
  }

  // Turns `operator.getitem(x, i)` into a GetItem node.
  void make_getitem_if_needed(Node& node, const Token& where) {
    if (node.kind != NodeKind::Call || node.target != "operator.getitem") return;
    if (node.args.size() != 2 || !node.kwargs.empty())
      fail_at(where, "operator.getitem takes exactly two positional arguments");
    if (!node.args[0].is_node()) fail_at(where, "getitem on a value that is not a node");
    if (!node.args[1].is_int()) fail_at(where, "getitem index must be an integer");
    node.kind = NodeKind::GetItem;
    node.target.clear();
  }

  void set_call_target(Node& node, std::string_view callable) {
    node.kind = NodeKind::Call;
    if (auto q = qualified_from_fx(callable))
      node.target = std::move(*q);
    else
      node.target = std::string(callable);
  }

  // --- code form ------------------------------------------------------------

  void parse_code() {
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

  void parse_params(const Token& open) {
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
      if (lex_->peek().is("="))
        fail_at(lex_->peek(), "default values for inputs are not supported");
      params_.push_back(p);
    }
    if (lex_->peek().kind == Tok::End) fail_at(open, "unterminated parameter list");
    expect(")", "to close the parameter list");
  }

  void materialize_params() {
    if (params_done_) return;
    params_done_ = true;
    for (const Param& p : params_) add_placeholder(p);
  }

  void add_placeholder(const Param& p) {
    if (graph_.find(p.name))
      src_.fail(p.offset, fmt::format("duplicate definition of '{}'", p.name));
    Node n;
    n.kind = NodeKind::Placeholder;
    n.name = std::string(p.name);
    n.target = n.name;
    n.type = p.type;
    n.type_annotated = p.annotated;
    add_node(std::move(n), p.offset);
  }

  // Statements indented deeper than `outer_column`, all at one column.
  void parse_body(int outer_column) {
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

  void parse_statement_line() {
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

  void parse_statement() {
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
  void parse_optional_annotation(Param& p) {
    if (!lex_->accept(":")) return;
    size_t offset = 0;
    bool quoted = false;
    std::string_view text = lex_->raw_annotation(offset, quoted);
    p.type = annotation_type(text, offset, quoted);
    p.annotated = p.type.is_known();
  }

  // `a, b, c, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)`
  void parse_unpack(const Token& first, ValueType first_type, bool first_annotated) {
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

  void skip_balanced(const Token& open) {
    int depth = 1;
    while (depth > 0) {
      const Token t = lex_->next();
      if (t.kind == Tok::End) fail_at(open, "unterminated call: '(' is never closed");
      if (t.is("(") || t.is("[") || t.is("{")) ++depth;
      if (t.is(")") || t.is("]") || t.is("}")) --depth;
    }
  }

  void parse_assignment(const Token& name, ValueType type, bool annotated) {
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

  void parse_cleanup(const Token& first, Token next) {
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

  Node new_node(const Token& name, ValueType type, bool annotated) {
    check_fresh(name);
    Node node;
    node.name = std::string(name.text);
    node.type = std::move(type);
    node.type_annotated = annotated;
    return node;
  }

  // Right-hand side not starting with a name: `-x`, or an error.
  void parse_rhs(const Token& name, ValueType type, bool annotated) {
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

  void finish_binary(const Token& name, ValueType type, bool annotated, Arg lhs,
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

  void parse_rhs_from_name(const Token& name, const Token& first, ValueType type, bool annotated) {
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
      if (graph_.find(first.text) ||
          (form_ == Form::Fragment && free_name_set_.contains(first.text)))
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

  Arg value_of_bare_name(const Token& t) {
    if (t.text == "True") return Arg(true);
    if (t.text == "False") return Arg(false);
    if (t.text == "None") return Arg::none();
    return Arg(lookup(t));
  }

  Arg parse_literal_dotted(const Token& first, std::string_view dotted) {
    if (graph_.find(first.text))
      fail_at(first, fmt::format(kDynamoHint, fmt::format("attribute access `{}`", dotted)));
    return Arg(Literal{std::string(dotted)});
  }

  void parse_return(const Token& ret) {
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

  // --- fragment form --------------------------------------------------------

  Graph parse_fragment() {
    // Pass one discovers free names; pass two declares them as inputs first.
    {
      Lexer lex(src_, body_begin_);
      lex_ = &lex;
      params_done_ = true;
      parse_body(0);
    }
    std::vector<std::string> free(free_names_.begin(), free_names_.end());
    graph_ = Graph();
    graph_.reserve(std::min<size_t>(src_.line_count() + 64, size_t{1} << 22));
    returned_ = false;
    stack_trace_.clear();
    pass_two_ = true;
    Lexer lex(src_, body_begin_);
    lex_ = &lex;
    for (const std::string& name : free) {
      Node n;
      n.kind = NodeKind::Placeholder;
      n.name = name;
      n.target = name;
      n.meta.loc = src_.loc(body_begin_);
      graph_.add(std::move(n));
    }
    parse_body(0);
    return std::move(graph_);
  }

  // --- graph() form ---------------------------------------------------------

  void parse_graph_print() {
    for (;;) {
      note_comments();
      const Token t = lex_->peek();
      if (t.kind == Tok::End) src_.fail(end_of_last_line(), "missing 'return' in graph() listing");
      if (t.kind == Tok::Newline) {
        lex_->next();
        continue;
      }
      if (t.is_name("return")) {
        lex_->next();
        parse_graph_return(t);
        return;  // the listing ends at its return
      }
      if (t.kind != Tok::Percent)
        fail_at(t, fmt::format("expected a node line `%name : ... = opcode[target=...](...)` or "
                               "`return`, found {}",
                               describe_token(t)));
      parse_graph_node();
    }
  }

  void parse_graph_node() {
    const Token name = lex_->next();
    check_fresh(name);
    expect(":", "after the node name");
    lex_->raw_brackets();  // `[num_users=1]` / `[#users=1]`
    expect("=", "after the node's user count");
    const Token opcode = expect_name("(the opcode)");
    const std::string_view raw_target = lex_->raw_brackets();
    std::string_view target = trim_blanks(raw_target);
    if (!target.starts_with("target=")) fail_at(opcode, "expected `[target=...]` after the opcode");
    target = trim_blanks(target.substr(7));
    if (target.empty()) fail_at(opcode, "empty target");
    Node node;
    node.name = std::string(name.text);
    if (opcode.text == "placeholder") {
      node.kind = NodeKind::Placeholder;
      node.target = node.name;
    } else if (opcode.text == "get_attr") {
      node.kind = NodeKind::GetAttr;
      node.target = std::string(target);
    } else if (opcode.text == "call_function") {
      set_call_target(node, target);
      parse_graph_call_args(node);
      make_getitem_if_needed(node, opcode);
    } else if (opcode.text == "call_module" || opcode.text == "call_method") {
      fail_at(opcode, fmt::format(kDynamoHint, opcode.text));
    } else {
      fail_at(opcode, fmt::format("unknown opcode '{}'", opcode.text));
    }
    const Token& end = lex_->peek();
    if (end.kind != Tok::Newline && end.kind != Tok::End)
      fail_at(end, fmt::format("unexpected {} after the node", describe_token(end)));
    add_node(std::move(node), name.offset);
  }

  // `(args = (...), kwargs = {k: v, ...})`
  void parse_graph_call_args(Node& node) {
    const Token open = expect("(", "after the target (`(args = (...), kwargs = {...})`)");
    const Token args_kw = expect_name("(`args`)");
    if (args_kw.text != "args") fail_at(args_kw, "expected `args = (...)`");
    expect("=", "after 'args'");
    const Token tuple_open = expect("(", "to start the args tuple");
    Arg args = parse_sequence(tuple_open, ")", true, 1);
    if (args.is_list())
      node.args = args.as_list().items;
    else
      node.args.push_back(std::move(args));  // `(x)` without a comma
    expect(",", "between args and kwargs");
    const Token kwargs_kw = expect_name("(`kwargs`)");
    if (kwargs_kw.text != "kwargs") fail_at(kwargs_kw, "expected `kwargs = {...}`");
    expect("=", "after 'kwargs'");
    const Token brace = expect("{", "to start the kwargs");
    while (!lex_->peek().is("}")) {
      const Token key = lex_->next();
      if (key.kind == Tok::End) fail_at(brace, "unterminated kwargs: '{' is never closed");
      if (key.kind != Tok::Name && key.kind != Tok::String)
        fail_at(key,
                fmt::format("expected a keyword name in kwargs, found {}", describe_token(key)));
      std::string k = key.kind == Tok::String ? unquote(key.text) : std::string(key.text);
      expect(":", "after the keyword name in kwargs");
      for (const auto& [existing, v] : node.kwargs)
        if (existing == k) fail_at(key, fmt::format("keyword argument '{}' repeated", k));
      node.kwargs.emplace_back(std::move(k), parse_value(1));
      if (!lex_->accept(",") && !lex_->peek().is("}")) {
        const Token& bad = lex_->peek();
        if (bad.kind == Tok::End) fail_at(brace, "unterminated kwargs: '{' is never closed");
        fail_at(bad, fmt::format("expected ',' or '}}' in kwargs, found {}", describe_token(bad)));
      }
    }
    lex_->next();
    if (lex_->peek().kind == Tok::End) fail_at(open, "unterminated call: '(' is never closed");
    expect(")", "to close the node's arguments");
  }

  void parse_graph_return(const Token& ret) {
    // Return values are bare names here; parse them as code-form values.
    form_ = Form::Code;
    Node out;
    out.kind = NodeKind::Output;
    out.name = graph_.fresh_name("output");
    out.args.push_back(parse_value(1));
    form_ = Form::GraphPrint;
    const Token& end = lex_->peek();
    if (end.kind != Tok::Newline && end.kind != Tok::End)
      fail_at(end, fmt::format("unexpected {} after the return value", describe_token(end)));
    add_node(std::move(out), ret.offset);
  }

  const Source& src_;
  const FxParseLimits& limits_;
  Form form_ = Form::Code;
  size_t body_begin_ = 0;
  std::optional<std::string> class_name_;
  std::optional<size_t> class_line_;
  Lexer* lex_ = nullptr;
  Graph graph_;
  int def_column_ = 1;
  std::vector<Param> params_;
  bool params_done_ = false;
  bool returned_ = false;
  std::unordered_map<std::string_view, ValueType> pending_types_;
  std::string stack_trace_;
  // Fragment form: names used without a definition, in order of first use.
  std::vector<std::string_view> free_names_;
  std::unordered_set<std::string_view> free_name_set_;
  bool pass_two_ = false;
};

}  // namespace

Graph parse_fx(std::string_view text, std::string_view file_name, const FxParseLimits& limits) {
  const Source src(text, file_name);
  Parser parser(src, limits);
  Graph g = parser.parse();
  assign_stream_labels(g);
  return g;
}

}  // namespace eqfuse
