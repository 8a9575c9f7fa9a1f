// Internals of the FX text reader shared by its source files. Not part of the
// public API; include graph/io/fx_parser.hpp instead.
//
//   fx_parser_lexer.cpp   the source text and its errors, the lexer, Python
//                         string unquoting
//   fx_parser.cpp         parse_fx, validating the bytes and locating the
//                         graph, the parser's shared helpers, the fragment
//                         and graph() forms
//   fx_parser_values.cpp  argument values: numbers, sequences, dotted names,
//                         devices, call arguments
//   fx_parser_code.cpp    the code form: signature, body, statements,
//                         right-hand sides, return
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/ascii.hpp"
#include "graph/io/fx_parser.hpp"

namespace eqfuse::fx_detail {

// ---------------------------------------------------------------------------
// Source text and error reporting (fx_parser_lexer.cpp).

class Source {
 public:
  Source(std::string_view text, std::string_view file) : text_(text), file_(file) {
    line_starts_.push_back(0);
    for (size_t i = text.find('\n'); i != std::string_view::npos; i = text.find('\n', i + 1))
      line_starts_.push_back(i + 1);
  }
  std::string_view text() const { return text_; }
  size_t line_count() const { return line_starts_.size(); }

  [[noreturn]] void fail(size_t offset, std::string message) const;

  SourceLoc loc(size_t offset) const;

 private:
  // 1-based line number and start offset of the line holding `offset`.
  std::pair<int, size_t> line_of(size_t offset) const;

  std::vector<size_t> line_starts_;
  std::string_view text_;
  std::string_view file_;
};

// ---------------------------------------------------------------------------
// Lexer (fx_parser_lexer.cpp).

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
  // The "# eqfuse: ..." note line seen since the last call, without "eqfuse:".
  std::optional<std::string_view> take_note() {
    auto c = pending_note_;
    pending_note_.reset();
    if (c) c = trim_blanks(c->substr(std::string_view("eqfuse:").size()));
    return c;
  }

  // Raw text of an annotation after ':' (quoted or torch-2.0 unquoted).
  // Returns the text and its offset; `quoted` tells which form it was.
  std::string_view raw_annotation(size_t& offset, bool& quoted);

  // After an opcode or ':' in graph() form: `[ ... ]` taken verbatim.
  std::string_view raw_brackets();

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
  void start_line();
  Token lex();
  Token lex_number();
  Token lex_string();

  const Source& src_;
  std::string_view s_;
  size_t pos_;
  size_t line_start_ = 0;
  bool at_line_start_ = true;
  int depth_ = 0;
  Token peeked_;
  bool has_peek_ = false;
  std::optional<std::string_view> pending_comment_, pending_note_;
};

// Decodes the escapes Python's repr() produces.
std::string unquote(std::string_view quoted);

// Python binary operators as FX prints them, and the `operator` function
// each one stands for (the table is in fx_parser_code.cpp).
struct BinaryOp {
  std::string_view token;
  std::string_view target;
};

inline constexpr std::string_view kDynamoHint =
    "Dynamo-level graph: {} is not supported; eqfuse reads aten-level graphs "
    "(AOTAutograd / Inductor / TorchAir dumps)";

// ---------------------------------------------------------------------------
// Parser: one class, its members defined in fx_parser.cpp,
// fx_parser_values.cpp and fx_parser_code.cpp.

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

  Graph parse();

 private:
  // --- locating the graph (fx_parser.cpp) -----------------------------------
  void locate_graph();
  bool is_def_line(std::string_view line) const;
  static bool is_tabular_header(std::string_view line);
  static bool looks_like_statement(std::string_view s);

  // --- shared helpers (fx_parser.cpp) ---------------------------------------
  size_t end_of_last_line() const;
  [[noreturn]] void fail_at(const Token& t, std::string msg) const;
  static std::string describe_token(const Token& t);
  Token expect(std::string_view punct, std::string_view context);
  Token expect_name(std::string_view context);
  void expect_statement_end();
  ValueType annotation_type(std::string_view text, size_t offset, bool quoted);
  NodeRef lookup(const Token& t);
  std::string unknown_name_message(const Token& t) const;
  void check_fresh(const Token& name);
  NodeRef add_node(Node node, size_t offset);
  void note_comments();

  // --- values (fx_parser_values.cpp) ----------------------------------------
  Arg parse_value(int depth);
  Arg parse_value_from(const Token& t, int depth);
  NodeRef lookup_percent(const Token& t);
  Arg parse_int(const Token& t, bool negative);
  Arg parse_float(const Token& t, bool negative);
  Arg parse_sequence(const Token& open, std::string_view close, bool tuple, int depth);
  std::string_view parse_dotted(const Token& first);
  static bool is_device_type(std::string_view s);
  Arg parse_value_from_name(const Token& first);
  Arg parse_device_call();
  Device device_from_text(const std::string& text, const Token& where);
  void parse_call_args(const Token& open, Node& node);
  void make_getitem_if_needed(Node& node, const Token& where);
  void set_call_target(Node& node, std::string_view callable);

  // --- code form (fx_parser_code.cpp) ---------------------------------------
  void parse_code();
  void parse_params(const Token& open);
  void materialize_params();
  void add_placeholder(const Param& p);
  void parse_body(int outer_column);
  void parse_statement_line();
  void parse_statement();
  void parse_optional_annotation(Param& p);
  void parse_unpack(const Token& first, ValueType first_type, bool first_annotated);
  void skip_balanced(const Token& open);
  void parse_assignment(const Token& name, ValueType type, bool annotated);
  void parse_cleanup(const Token& first, Token next);
  Node new_node(const Token& name, ValueType type, bool annotated);
  void parse_rhs(const Token& name, ValueType type, bool annotated);
  void finish_binary(const Token& name, ValueType type, bool annotated, Arg lhs,
                     const BinaryOp& op);
  void parse_rhs_from_name(const Token& name, const Token& first, ValueType type, bool annotated);
  Arg value_of_bare_name(const Token& t);
  Arg parse_literal_dotted(const Token& first, std::string_view dotted);
  void parse_return(const Token& ret);

  // --- fragment form (fx_parser.cpp) ----------------------------------------
  Graph parse_fragment();

  // --- graph() form (fx_parser.cpp) -----------------------------------------
  void parse_graph_print();
  void parse_graph_node();
  void parse_graph_call_args(Node& node);
  void parse_graph_return(const Token& ret);

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
  std::string note_;  // the pending "# eqfuse: ..." note
  // Fragment form: names used without a definition, in order of first use.
  std::vector<std::string_view> free_names_;
  std::unordered_set<std::string_view> free_name_set_;
  bool pass_two_ = false;
};

}  // namespace eqfuse::fx_detail
