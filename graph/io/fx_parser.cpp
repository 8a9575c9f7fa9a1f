// FX text reader. Structure:
//   1. validate the bytes (size, UTF-8) and locate the graph: a
//      `def forward(` line (optionally after a `class ...:` line), a
//      `graph():` line, or a header-less statement fragment;
//   2. a string_view lexer (one token of lookahead, no allocations) that
//      joins lines inside brackets like Python and remembers comments;
//   3. a recursive-descent parser per form, building the Graph directly.
//
// The reader is split by stage: fx_parser_lexer.cpp (source text, errors,
// lexer), this file (entry point, locating the graph, the parser's shared
// helpers, the fragment and graph() forms), fx_parser_values.cpp (argument
// values) and fx_parser_code.cpp (the code form); graph/io/fx_parser_internal.hpp
// declares the Lexer and Parser they share.
#include "graph/io/fx_parser.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "graph/io/fx_parser_internal.hpp"
#include "graph/streams.hpp"

namespace eqfuse {
namespace fx_detail {
namespace {

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

}  // namespace

// ---------------------------------------------------------------------------
// Parser.

Graph Parser::parse() {
  const std::string_view s = src_.text();
  if (s.size() > limits_.max_input_bytes)
    src_.fail(0, fmt::format("input of {} bytes exceeds the limit of {} bytes", s.size(),
                             limits_.max_input_bytes));
  if (size_t bad = find_invalid_utf8(s); bad != std::string_view::npos)
    src_.fail(bad, fmt::format("invalid UTF-8 byte 0x{:02X}", static_cast<unsigned char>(s[bad])));
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

// --- locating the graph ---------------------------------------------------

void Parser::locate_graph() {
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
    if (!first_significant && !line.starts_with("from __future__") && !line.starts_with("import "))
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

bool Parser::is_def_line(std::string_view line) const {
  if (!line.starts_with("def ")) return false;
  std::string_view rest = line.substr(4);
  if (!rest.starts_with(limits_.function_name)) return false;
  rest = trim_blanks(rest.substr(limits_.function_name.size()));
  return rest.starts_with("(");
}

bool Parser::is_tabular_header(std::string_view line) {
  size_t op = line.find("opcode");
  if (op == std::string_view::npos) return false;
  size_t name = line.find("name", op);
  size_t target = line.find("target", op);
  size_t args = line.find("args", op);
  return name != std::string_view::npos && target != std::string_view::npos &&
         args != std::string_view::npos;
}

// `name = ...`, `name: ann = ...` or `return ...`.
bool Parser::looks_like_statement(std::string_view s) {
  if (s.starts_with("return ") || s.starts_with("return\n")) return true;
  size_t i = 0;
  if (s.empty() || !is_ident_start(s[0])) return false;
  while (i < s.size() && is_ident_char(s[i])) ++i;
  while (i < s.size() && s[i] == ' ') ++i;
  return i < s.size() && (s[i] == '=' || s[i] == ':');
}

// --- shared helpers -------------------------------------------------------

// Just past the last visible character, so "missing X" errors show a line.
size_t Parser::end_of_last_line() const {
  const std::string_view s = src_.text();
  size_t i = s.find_last_not_of(" \t\r\n");
  return i == std::string_view::npos ? 0 : i + 1;
}

void Parser::fail_at(const Token& t, std::string msg) const {
  if (t.kind == Tok::End) msg += " (at end of input)";
  src_.fail(t.offset, std::move(msg));
}

std::string Parser::describe_token(const Token& t) {
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

Token Parser::expect(std::string_view punct, std::string_view context) {
  const Token& t = lex_->peek();
  if (!t.is(punct))
    fail_at(t, fmt::format("expected '{}' {}, found {}", punct, context, describe_token(t)));
  return lex_->next();
}

Token Parser::expect_name(std::string_view context) {
  const Token& t = lex_->peek();
  if (t.kind != Tok::Name)
    fail_at(t, fmt::format("expected a name {}, found {}", context, describe_token(t)));
  return lex_->next();
}

// After a statement: `;`, end of line or end of input.
void Parser::expect_statement_end() {
  const Token& t = lex_->peek();
  if (t.kind == Tok::Newline) {
    lex_->next();
    return;
  }
  if (t.kind == Tok::End || t.is(";")) return;
  fail_at(t, fmt::format("unexpected {} after the end of the statement", describe_token(t)));
}

ValueType Parser::annotation_type(std::string_view text, size_t offset, bool quoted) {
  // Dynamo placeholders carry Python types; they say nothing about shapes.
  if (!quoted && (text == "torch.Tensor" || text == "torch.SymInt" || text == "int"))
    return ValueType::unknown();
  try {
    return parse_annotation(text);
  } catch (const std::invalid_argument& e) {
    src_.fail(offset + (quoted ? 1 : 0), e.what());
  }
}

NodeRef Parser::lookup(const Token& t) {
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
std::string Parser::unknown_name_message(const Token& t) const {
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

void Parser::check_fresh(const Token& name) {
  if (graph_.find(name.text)) fail_at(name, fmt::format("duplicate definition of '{}'", name.text));
}

NodeRef Parser::add_node(Node node, size_t offset) {
  node.meta.loc = src_.loc(offset);
  node.meta.stack_trace = stack_trace_;
  // A note belongs to the next statement; placeholders are declared by the
  // signature, which the lexer may finish only after reading the note.
  if (node.kind != NodeKind::Placeholder) {
    node.meta.note = std::move(note_);
    note_.clear();
  }
  return graph_.add(std::move(node));
}

void Parser::note_comments() {
  if (auto c = lex_->take_comment()) stack_trace_ = c->starts_with("File:") ? std::string(*c) : "";
  if (auto n = lex_->take_note()) note_ = std::string(*n);
}

// --- fragment form --------------------------------------------------------

Graph Parser::parse_fragment() {
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

void Parser::parse_graph_print() {
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

namespace {

constexpr std::string_view kBuiltinPrefix = "<built-in function ";

}  // namespace

void Parser::parse_graph_node() {
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
  // FX prints Python builtins as `<built-in function mul>`: operator.mul.
  std::string builtin;
  if (target.starts_with(kBuiltinPrefix) && target.ends_with(">")) {
    builtin = "operator." + std::string(target.substr(kBuiltinPrefix.size(),
                                                      target.size() - kBuiltinPrefix.size() - 1));
    target = builtin;
  }
  // Anything else must be a dotted Python name, or the printed graph (a
  // Python call of the target) would not read back.
  if (opcode.text != "placeholder" && !is_call_target_name(target))
    fail_at(opcode, fmt::format("target '{}' is not a dotted Python name (like "
                                "torch.ops.aten.add.Tensor or operator.getitem)",
                                target));
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
void Parser::parse_graph_call_args(Node& node) {
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
      fail_at(key, fmt::format("expected a keyword name in kwargs, found {}", describe_token(key)));
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

void Parser::parse_graph_return(const Token& ret) {
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

}  // namespace fx_detail

Graph parse_fx(std::string_view text, std::string_view file_name, const FxParseLimits& limits) {
  const fx_detail::Source src(text, file_name);
  fx_detail::Parser parser(src, limits);
  Graph g = parser.parse();
  assign_stream_labels(g);
  return g;
}

}  // namespace eqfuse
