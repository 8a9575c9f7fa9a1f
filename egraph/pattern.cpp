#include "egraph/pattern.hpp"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include <fmt/format.h>

namespace eqfuse {
namespace {

bool is_atom_char(char c) {
  return !std::isspace(static_cast<unsigned char>(c)) && c != '(' && c != ')' && c != '[' &&
         c != ']' && c != ',' && c != '"';
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_float(std::string_view s) {
  if (s.empty() || !(std::isdigit(static_cast<unsigned char>(s[0])) || s[0] == '-' || s[0] == '+' ||
                     s[0] == '.')) {
    return std::nullopt;
  }
  std::string buf(s);
  char* end = nullptr;
  double v = std::strtod(buf.c_str(), &end);
  if (end != buf.c_str() + buf.size()) return std::nullopt;
  return v;
}

// Recursive-descent s-expression reader producing PatternBuilder calls.
class Reader {
 public:
  Reader(std::string_view text, const SourceLoc& where, PatternBuilder& b)
      : text_(text), where_(where), b_(b) {}

  PatternBuilder::Handle term() {
    skip_space();
    if (at_end()) error(pos_, "expected a term, found end of input");
    char c = text_[pos_];
    if (c == '(') return list();
    if (c == '[') return int_list();
    if (c == '"') return string_lit();
    if (c == ')' || c == ']' || c == ',') error(pos_, "unexpected '{}'", c);
    size_t start = pos_;
    std::string_view atom = read_atom();
    return atom_term(atom, start);
  }
  void skip_space() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  size_t pos() const { return pos_; }
  void expect_end() {
    skip_space();
    if (!at_end()) error(pos_, "unexpected text after the pattern: '{}'", text_.substr(pos_));
  }
  std::string_view read_atom() {
    size_t start = pos_;
    while (!at_end() && is_atom_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }
  void advance() { ++pos_; }

  template <typename... Args>
  [[noreturn]] void error(size_t at, fmt::format_string<Args...> f, Args&&... args) const {
    SourceLoc loc = where_;
    int line = where_.line > 0 ? where_.line : 1;
    int col = where_.column > 0 ? where_.column : 1;
    size_t line_start = 0;
    for (size_t i = 0; i < at && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        col = 1;
        line_start = i + 1;
      } else {
        ++col;
      }
    }
    loc.line = line;
    loc.column = col;
    size_t line_end = text_.find('\n', line_start);
    std::string src(text_.substr(line_start, line_end == std::string_view::npos
                                                 ? std::string_view::npos
                                                 : line_end - line_start));
    throw Error(fmt::format(f, std::forward<Args>(args)...), loc, src);
  }

 private:
  PatternBuilder::Handle list() {
    size_t open = pos_;
    ++pos_;
    skip_space();
    if (at_end()) error(open, "unclosed '('");
    if (peek() == ')') error(pos_, "empty list '()' is not a term");
    size_t op_pos = pos_;
    std::string_view op = read_atom();
    if (op.empty()) error(op_pos, "expected an operator name after '('");
    if (op[0] == '?') error(op_pos, "operator position cannot be a variable ('{}')", op);
    std::vector<PatternBuilder::Handle> kids;
    for (;;) {
      skip_space();
      if (at_end()) error(open, "unclosed '('");
      if (peek() == ')') break;
      kids.push_back(term());
    }
    ++pos_;
    if (kids.empty()) return atom_term(op, op_pos);
    return b_.op(Symbol::intern(op), kids);
  }
  PatternBuilder::Handle int_list() {
    size_t open = pos_;
    ++pos_;
    std::vector<int64_t> values;
    for (;;) {
      skip_space();
      if (at_end()) error(open, "unclosed '['");
      if (peek() == ']') break;
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      size_t at = pos_;
      auto v = parse_int(read_atom());
      if (!v) error(at, "int lists may only contain integers");
      values.push_back(*v);
    }
    ++pos_;
    return b_.constant(Constant::int_list(values));
  }
  PatternBuilder::Handle string_lit() {
    size_t open = pos_;
    ++pos_;
    size_t start = pos_;
    while (!at_end() && text_[pos_] != '"') ++pos_;
    if (at_end()) error(open, "unterminated string");
    std::string_view s = text_.substr(start, pos_ - start);
    ++pos_;
    return b_.constant(Constant::string(s));
  }
  PatternBuilder::Handle atom_term(std::string_view atom, size_t at) {
    if (atom[0] == '?') {
      if (atom.size() == 1) error(at, "variable needs a name after '?'");
      return b_.var(atom.substr(1));
    }
    if (auto i = parse_int(atom)) return b_.constant(Constant::integer(*i));
    if (auto f = parse_float(atom)) return b_.constant(Constant::floating(*f));
    if (atom == "true" || atom == "True") return b_.constant(Constant::boolean(true));
    if (atom == "false" || atom == "False") return b_.constant(Constant::boolean(false));
    if (atom == "None") return b_.constant(Constant::none());
    if (atom.starts_with("torch.")) {
      auto d = parse_dtype(atom);
      if (!d) error(at, "unknown dtype '{}'", atom);
      return b_.constant(Constant::dtype(*d));
    }
    return b_.op(Symbol::intern(atom), std::span<const PatternBuilder::Handle>{});
  }

  std::string_view text_;
  SourceLoc where_;
  PatternBuilder& b_;
  size_t pos_ = 0;
};

}  // namespace

// ---- PatternBuilder --------------------------------------------------------

PatternBuilder::Handle PatternBuilder::var(std::string_view name) {
  PatternNode n;
  n.is_var = true;
  auto it = std::find(scratch_.vars_.begin(), scratch_.vars_.end(), name);
  if (it == scratch_.vars_.end()) {
    scratch_.vars_.emplace_back(name);
    it = scratch_.vars_.end() - 1;
  }
  n.var = static_cast<uint32_t>(it - scratch_.vars_.begin());
  scratch_.nodes_.push_back(n);
  return static_cast<Handle>(scratch_.nodes_.size() - 1);
}

PatternBuilder::Handle PatternBuilder::op(std::string_view name,
                                          std::initializer_list<Handle> children,
                                          uint64_t payload) {
  return op(Symbol::intern(name), std::span<const Handle>(children.begin(), children.size()),
            payload);
}

PatternBuilder::Handle PatternBuilder::op(Symbol sym, std::span<const Handle> children,
                                          uint64_t payload) {
  PatternNode n;
  n.op = sym;
  n.payload = payload;
  n.first_child = static_cast<uint32_t>(scratch_.child_pool_.size());
  n.arity = static_cast<uint32_t>(children.size());
  for (Handle h : children) {
    if (h >= scratch_.nodes_.size()) throw Error(fmt::format("pattern builder: bad handle {}", h));
    scratch_.child_pool_.push_back(h);
  }
  scratch_.nodes_.push_back(n);
  return static_cast<Handle>(scratch_.nodes_.size() - 1);
}

PatternBuilder::Handle PatternBuilder::constant(const Constant& c) {
  return op(c.op(), std::span<const Handle>{}, c.bits);
}

Pattern PatternBuilder::build(Handle root) const {
  if (root >= scratch_.nodes_.size())
    throw Error(fmt::format("pattern builder: bad root {}", root));
  Pattern out;
  std::vector<uint32_t> new_index(scratch_.nodes_.size(), UINT32_MAX);
  std::vector<uint32_t> var_map(scratch_.vars_.size(), UINT32_MAX);
  // Post-order copy; shared sub-patterns are copied once.
  auto visit = [&](auto& self, uint32_t i) -> uint32_t {
    if (new_index[i] != UINT32_MAX) return new_index[i];
    PatternNode n = scratch_.nodes_[i];
    if (n.is_var) {
      if (var_map[n.var] == UINT32_MAX) {
        var_map[n.var] = static_cast<uint32_t>(out.vars_.size());
        out.vars_.push_back(scratch_.vars_[n.var]);
      }
      n.var = var_map[n.var];
    } else {
      std::vector<uint32_t> kids;
      for (uint32_t k = 0; k < n.arity; ++k) {
        kids.push_back(self(self, scratch_.child_pool_[n.first_child + k]));
      }
      n.first_child = static_cast<uint32_t>(out.child_pool_.size());
      out.child_pool_.insert(out.child_pool_.end(), kids.begin(), kids.end());
    }
    out.nodes_.push_back(n);
    return new_index[i] = static_cast<uint32_t>(out.nodes_.size() - 1);
  };
  uint32_t r = visit(visit, root);
  if (r != out.nodes_.size() - 1) throw Error("pattern builder: root is not last");
  return out;
}

// ---- Pattern ---------------------------------------------------------------

Pattern Pattern::parse(std::string_view text, const SourceLoc& where) {
  PatternBuilder b;
  Reader r(text, where, b);
  auto root = r.term();
  r.expect_end();
  return b.build(root);
}

std::optional<uint32_t> Pattern::var_index(std::string_view name) const {
  for (uint32_t i = 0; i < vars_.size(); ++i) {
    if (vars_[i] == name) return i;
  }
  return std::nullopt;
}

std::string Pattern::node_string(uint32_t i) const {
  const PatternNode& n = nodes_[i];
  if (n.is_var) return fmt::format("?{}", vars_[n.var]);
  if (is_constant_op(n.op))
    return Constant{static_cast<ConstKind>(n.op.id()), n.payload}.to_string();
  if (n.arity == 0) return std::string(n.op.str());
  std::string s = fmt::format("({}", n.op.str());
  for (uint32_t c : children(n)) {
    s += ' ';
    s += node_string(c);
  }
  return s + ")";
}

std::string Pattern::to_string() const {
  return nodes_.empty() ? "" : node_string(root());
}

Id Pattern::instantiate(EGraph& g, std::span<const Id> values) const {
  return instantiate_mapped(g, values, {});
}

template <class VarClass, class OpClass>
std::optional<Id> Pattern::walk_bottom_up(std::span<const Id> values,
                                          std::span<const uint32_t> var_map, VarClass var_class,
                                          OpClass op_class) const {
  boost::container::small_vector<Id, 16> ids(nodes_.size());
  ChildVec kids;
  for (size_t i = 0; i < nodes_.size(); ++i) {
    const PatternNode& n = nodes_[i];
    if (n.is_var) {
      ids[i] = var_class(values[var_map.empty() ? n.var : var_map[n.var]]);
      continue;
    }
    kids.resize(n.arity);
    for (uint32_t k = 0; k < n.arity; ++k) kids[k] = ids[child_pool_[n.first_child + k]];
    std::optional<Id> id = op_class(n, as_span(kids));
    if (!id) return std::nullopt;
    ids[i] = *id;
  }
  return ids.back();
}

Id Pattern::instantiate_mapped(EGraph& g, std::span<const Id> values,
                               std::span<const uint32_t> var_map) const {
  return *walk_bottom_up(
      values, var_map, [](Id value) { return value; },
      [&g](const PatternNode& n, std::span<const Id> kids) -> std::optional<Id> {
        return g.add(n.op, kids, n.payload);
      });
}

std::optional<Id> Pattern::lookup_mapped(const EGraph& g, std::span<const Id> values,
                                         std::span<const uint32_t> var_map) const {
  return walk_bottom_up(
      values, var_map, [&g](Id value) { return g.find(value); },
      [&g](const PatternNode& n, std::span<const Id> kids) -> std::optional<Id> {
        std::optional<Id> found = g.lookup(n.op, kids, n.payload);
        return found ? std::optional<Id>(g.find(*found)) : std::nullopt;
      });
}

Id EGraph::add_expr(std::string_view sexpr) {
  Pattern p = Pattern::parse(sexpr);
  if (!p.is_ground()) throw Error(fmt::format("add_expr: '{}' contains variables", sexpr));
  return p.instantiate(*this, {});
}

// ---- MultiPattern ------------------------------------------------------------

MultiPattern::MultiPattern(Pattern single)
    : MultiPattern(std::vector<MultiPatternPart>{{"", std::move(single)}}) {}

MultiPattern::MultiPattern(std::vector<MultiPatternPart> parts) : parts_(std::move(parts)) {
  auto note = [&](const std::string& v) {
    if (std::find(vars_.begin(), vars_.end(), v) == vars_.end()) vars_.push_back(v);
  };
  for (const auto& part : parts_) {
    if (!part.root_var.empty()) note(part.root_var);
    for (const auto& v : part.pattern.vars()) note(v);
  }
}

std::optional<uint32_t> MultiPattern::var_index(std::string_view name) const {
  for (uint32_t i = 0; i < vars_.size(); ++i) {
    if (vars_[i] == name) return i;
  }
  return std::nullopt;
}

MultiPattern MultiPattern::parse(std::string_view text, const SourceLoc& where) {
  std::vector<MultiPatternPart> parts;
  PatternBuilder unused;
  Reader r(text, where, unused);
  for (;;) {
    r.skip_space();
    size_t start = r.pos();
    std::string root_var;
    if (r.peek() == '?') {
      std::string_view atom = r.read_atom();
      r.skip_space();
      if (r.peek() == '=') {
        r.advance();
        root_var = std::string(atom.substr(1));
        if (root_var.empty()) r.error(start, "variable needs a name after '?'");
        start = r.pos();
      }
    }
    // Find the end of this part: a top-level comma or the end of input.
    int depth = 0;
    size_t end = start;
    for (; end < text.size(); ++end) {
      char c = text[end];
      if (c == '(' || c == '[') ++depth;
      if (c == ')' || c == ']') --depth;
      if (c == ',' && depth == 0) break;
    }
    std::string_view part_text = text.substr(start, end - start);
    try {
      parts.push_back({root_var, Pattern::parse(part_text)});
    } catch (const Error&) {
      // Re-parse with the full text so the location is right.
      PatternBuilder b;
      Reader full(text, where, b);
      while (full.pos() < start) full.advance();
      full.term();
      throw;
    }
    if (end >= text.size()) break;
    while (r.pos() <= end) r.advance();
  }
  if (parts.empty()) r.error(0, "empty multi-pattern");
  return MultiPattern(std::move(parts));
}

std::string MultiPattern::to_string() const {
  std::string s;
  for (const auto& p : parts_) {
    if (!s.empty()) s += ", ";
    if (!p.root_var.empty()) s += fmt::format("?{} = ", p.root_var);
    s += p.pattern.to_string();
  }
  return s;
}

}  // namespace eqfuse
