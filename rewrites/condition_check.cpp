// Static checking of parsed rule conditions, before any match: every name is a rule input,
// every call a builtin (with a valid argument count) or a registered function, every
// attribute and method one the evaluator knows. Also the tables those checks and the
// evaluator share (operator spellings, builtin functions, attributes, methods), and the
// queries over a parsed tree (CondExpr::names, calls_only). Apart from condition_parse.cpp,
// which builds the tree, because this only reads it.
#include <algorithm>
#include <array>
#include <set>

#include <fmt/ranges.h>

#include "rewrites/condition_internal.hpp"

namespace eqfuse {
namespace {

using Node = CondExpr::Node;

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

// --- public entry points ----------------------------------------------------------

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
