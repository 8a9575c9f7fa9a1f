// The `where` condition language of rules: small Python-like boolean
// expressions over the facts of the values a rule binds.
//
//   Expr e = parse_condition("x2.shape[-1] * x2.itemsize % 32 == 0", loc);
//   CondEnv env = [&](std::string_view name) -> std::optional<CondValue> { ... };
//   CondResult r = evaluate(e, env, functions);
//   if (r.verdict != Verdict::True) log(r.detail);   // "x2.shape[-1] * x2.itemsize % 32
//                                                     //  == 0: 6 != 0 (x2.shape[-1] = 3,
//                                                     //  x2.itemsize = 2)"
//
// Syntax (full reference with examples: docs/conditions.md):
//   literals      1  -1  2.5e-6  True  False  None  "pertoken"
//                 torch.float16 / torch.bfloat16 / ... (dtypes; also the
//                 bare names float16, bf16, fp16, int8, ...), lists [a, b, [c]]
//   names         rule inputs and named values of the search function
//   postfix       x.dtype  x.shape  x.rank  x.itemsize  x.numel
//                 x.shape[-1]  x.shape[1:]  xs[0]  f(a, b)
//   operators     + - * // %  (ints and symbolic ints)
//                 == != < <= > >=  (chainable)   in   not in
//                 and  or  not   (...)
//   functions     len(list)  prod(list)  is_static(v)  canon_dim(d, rank)
//                 canon_dims(list, rank)  sorted(list)  min(a, b)  max(a, b)
//                 plus named C++ predicates registered in a CondFunctions.
// One name is not a value of the rule's: `world_size`, the ranks of the tensor-parallel
// group the run prices collectives for (RuleConfig::world_size; kRuleProofWorldSize in a
// rule's example and its proof), which a rule over collectives may need (a bias
// shared out over the ranks). Unknown where the run gives none.
// Values: None, bool, int, float, symbolic int (graph/symint.hpp), dtype,
// string, list, tensor (dtype + shape) and Unknown.
//
// Three-valued: anything computed from an Unknown fact, or a comparison
// that depends on the value of a symbol (`s0 % 16 == 0`), is Unknown, and
// an Unknown condition does NOT hold (the rule does not fire) — the detail
// says which operand was unknown or symbolic. Symbolic equality that holds
// for all values (`x1.shape == x2.shape` with the same symbols) is True.
//
// Errors: parse_condition throws eqfuse::Error at the exact column;
// check_condition throws for unknown names, functions and attributes;
// evaluating an ill-typed expression (`x.dtype + 1`) returns Verdict::Error
// with a message, which a rule loader reports at the condition's location.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/diagnostics.hpp"
#include "base/dtype.hpp"
#include "graph/symint.hpp"
#include "graph/value_type.hpp"

namespace eqfuse {

// The run fact every condition and `let:` may read (above).
inline constexpr std::string_view kWorldSizeName = "world_size";
// The group a rule over collectives is proven on (rewrites/rule_check.hpp), and the
// `world_size` its example is checked with.
inline constexpr int kRuleProofWorldSize = 4;

struct CondValue;
using CondList = std::vector<CondValue>;

struct CondValue {
  struct Unknown {
    std::string why;  // "x1.shape[-1] is symbolic (s1)", "type of gamma unknown"
    bool operator==(const Unknown&) const = default;
  };
  using V = std::variant<Unknown, std::monostate /*None*/, bool, int64_t, double, SymInt, DType,
                         std::string, CondList, TensorType>;
  V v;
  // A readable rendering for details: "6", "[0, 1]", "torch.float16", "bf16[s0, 7168]".
  std::string to_string() const;
  bool is_unknown() const { return std::holds_alternative<Unknown>(v); }
  bool operator==(const CondValue&) const = default;
};

// A parsed expression (opaque tree; shared so rules copy cheaply).
class CondExpr {
 public:
  struct Node;
  CondExpr() = default;
  explicit CondExpr(std::shared_ptr<const Node> root, std::string text, SourceLoc loc)
      : root_(std::move(root)), text_(std::move(text)), loc_(std::move(loc)) {}
  const std::string& text() const { return text_; }  // as written
  const SourceLoc& loc() const { return loc_; }      // of its first character
  const Node* root() const { return root_.get(); }
  // Every free name used (not function names), sorted, unique.
  std::vector<std::string> names() const;
  // For an expression that is only calls of `fn` on bare names joined by `and`
  // (`is_leaf(w1) and is_leaf(w2)`, `ordered(a, b, c)`): the arguments of each
  // call, in order. nullopt for anything else.
  std::optional<std::vector<std::vector<std::string>>> calls_only(std::string_view fn) const;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
  SourceLoc loc_;
};

// Named C++ predicates/functions callable from conditions.
using CondFunction = std::function<CondValue(std::span<const CondValue> args)>;
class CondFunctions {
 public:
  // Throws Error on a duplicate or a builtin name.
  void add(std::string name, CondFunction fn, std::string description = {});
  const CondFunction* find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != nullptr; }

 private:
  std::map<std::string, std::pair<CondFunction, std::string>, std::less<>> fns_;
};

enum class Verdict { True, False, Unknown, Error };
std::string_view verdict_name(Verdict v);

struct CondResult {
  Verdict verdict = Verdict::False;
  // Why it is not True, with values: the innermost failing comparison and
  // its operands ("x1.dtype in [torch.float16, torch.bfloat16]: x1.dtype is
  // torch.float32"). Empty when True.
  std::string detail;
  // Verdict::Error only: where in the rule file the failing sub-expression starts.
  SourceLoc error_loc = {};
};

using CondEnv = std::function<std::optional<CondValue>(std::string_view name)>;

// Where a bound name's value comes from, for the builtins that ask about the
// value itself rather than its type: `is_leaf(w)` (a graph input or constant:
// placeholder or get_attr) and `distinct(a, b, ...)` (different values, not
// just different types). `id` identifies the value (its e-class); equal ids
// are the same value.
struct CondOrigin {
  uint64_t id = 0;
  bool is_leaf = false;
};
using CondOriginEnv = std::function<std::optional<CondOrigin>(std::string_view name)>;

// `loc` locates text[0]; error columns are offset from it.
CondExpr parse_condition(std::string_view text, const SourceLoc& loc = {});
// Throws Error (at the offending token) for names not in `known_names`,
// unknown functions or attributes.
void check_condition(const CondExpr& e, std::span<const std::string> known_names,
                     const CondFunctions& fns);
// Without `origins`, is_leaf() and distinct() are Unknown.
CondResult evaluate(const CondExpr& e, const CondEnv& env, const CondFunctions& fns = {},
                    const CondOriginEnv& origins = {});

// The value of an expression (a rule's `let:` binding, rewrites/rule.hpp): `value` on
// success; otherwise `error` says why (an Unknown value names what is not known) and
// `error_loc` points into the text for a failing sub-expression.
struct CondValueResult {
  std::optional<CondValue> value;
  std::string error;
  SourceLoc error_loc = {};
};
CondValueResult evaluate_value(const CondExpr& e, const CondEnv& env,
                               const CondFunctions& fns = {});

}  // namespace eqfuse
