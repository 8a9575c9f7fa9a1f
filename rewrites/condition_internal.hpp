// Internals of the condition language shared by its parser
// (condition_parse.cpp) and its evaluator (condition_eval.cpp): the syntax
// tree behind CondExpr, the builtin function and attribute tables, and the
// mapping from byte offsets in a condition to file positions. Not part of the
// public API; include rewrites/condition.hpp instead.
//
// The evaluator's own internals follow, in namespace condition_detail: the
// helpers over CondValue (condition_value.cpp) and the Evaluator class,
// whose members are defined in condition_eval.cpp (logic and comparisons)
// and condition_builtins.cpp (arithmetic, attributes, subscripts, builtin
// functions).
#pragma once
#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rewrites/condition.hpp"

namespace eqfuse {

enum class CondKind : uint8_t {
  Literal,    // 1, 2.5, True, None, "s", torch.float16
  Name,       // x1
  Attribute,  // children[0].name                       (x.dtype)
  Method,     // children[0].name(children[1..])        (x.size(-1))
  Call,       // name(children...)                      (len(xs))
  Index,      // children[0][children[1]]
  Slice,      // children[0][children[1]:children[2]]   (omitted bounds are None literals)
  List,       // [children...]
  Negate,     // -children[0]
  Not,        // not children[0]
  Arith,      // children[0] op children[1]
  Compare,    // children[0] ops[0] children[1] ops[1] children[2] ...  (Python chaining)
  And,        // children[0] and children[1] and ...
  Or,         // children[0] or children[1] or ...
};

enum class ArithOp : uint8_t { Add, Sub, Mul, FloorDiv, Mod, Div };
enum class CompareOp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, In, NotIn, Is, IsNot };

struct CondExpr::Node {
  CondKind kind = CondKind::Literal;
  ArithOp arith = ArithOp::Add;
  // A maximal postfix chain rooted at a name (`x2.shape[-1]`, `dtype`): its
  // value is a fact about the match and is quoted in failure details.
  bool is_fact = false;
  uint32_t begin = 0;  // byte range of the node in the condition text
  uint32_t end = 0;
  uint32_t name_begin = 0;  // offset of the identifier (Name, Attribute, Method, Call)
  uint32_t depth = 1;       // height of the subtree; bounded by the parser
  std::string name;
  CondValue literal;
  std::vector<CompareOp> compare_ops;
  std::vector<Node> children;
};

std::string_view arith_op_text(ArithOp op);
std::string_view compare_op_text(CompareOp op);

// Builtin functions: name and accepted argument counts.
struct BuiltinFunction {
  std::string_view name;
  int min_args;
  int max_args;  // -1: unbounded
};
const std::vector<BuiltinFunction>& builtin_functions();
const BuiltinFunction* find_builtin(std::string_view name);

// Attributes (`x.dtype`) and methods (`x.size(i)`) with their argument counts.
bool is_known_attribute(std::string_view name);
const BuiltinFunction* find_method(std::string_view name);
std::string known_attributes_list();  // "dtype, shape, ..." for messages
std::string known_methods_list();

// File position of byte `offset` of the condition text (see parse_condition).
SourceLoc condition_offset_loc(std::string_view text, const SourceLoc& loc, size_t offset);
// An Error at byte `offset` of the condition, with the source line (padded
// to the condition's column) attached so the caret lines up.
Error condition_error(std::string_view text, const SourceLoc& loc, size_t offset,
                      std::string message);

namespace condition_detail {

using Node = CondExpr::Node;

// ---- values (condition_value.cpp) -------------------------------------------------

// Index of each alternative in CondValue::V.
enum class VK : uint8_t { Unknown, None, Bool, Int, Float, Sym, DType, Str, List, Tensor };

VK kind_of(const CondValue& v);
std::string_view kind_name(VK k);
std::string_view kind_name(const CondValue& v);
bool is_number(VK k);
CondValue unknown(std::string why);
const std::string& why_of(const CondValue& v);
// Constant SymInts become plain ints so that `x.shape[0] == 4` and
// arithmetic on static dims stay in int64.
CondValue from_symint(const SymInt& s);
SymInt to_symint(const CondValue& v);
double to_double(const CondValue& v);
// Long renderings (big lists) are clipped in details.
std::string clipped(std::string s);

enum class Tri : uint8_t { False, True, Unknown };

struct Truth {
  Tri value = Tri::True;
  std::string detail;
};

// Thrown inside the evaluator, caught by evaluate(): a type error at `offset`.
struct EvalError {
  std::string message;
  uint32_t offset = 0;
};

// SymInt arithmetic has no overflow checks, so operands are bounded first:
// the sum of every integer printed in the polynomial bounds each coefficient
// (digits inside atom names only over-estimate).
constexpr uint64_t kSymBound = uint64_t{1} << 62;
uint64_t coefficient_bound(const SymInt& s);

// ---- the evaluator ------------------------------------------------------------------

class Evaluator {
 public:
  Evaluator(const CondExpr& e, const CondEnv& env, const CondFunctions& fns,
            const CondOriginEnv& origins)
      : text_(e.text()), env_(env), fns_(fns), origins_(origins) {}

  // --- boolean contexts ---------------------------------------------------------
  Truth truth(const Node& n);

  // --- values ---------------------------------------------------------------------
  CondValue value(const Node& n) {
    CondValue v = compute(n);
    if (n.is_fact) facts_.push_back({&n, v});
    return v;
  }

 private:
  struct Fact {
    const Node* node;
    CondValue value;
  };

  std::string_view text(const Node& n) const { return text_.substr(n.begin, n.end - n.begin); }

  [[noreturn]] void fail(const Node& n, std::string message) const {
    throw EvalError{fmt::format("{}: {}", text(n), message), n.begin};
  }
  [[noreturn]] void fail_at_name(const Node& n, std::string message) const {
    throw EvalError{fmt::format("{}: {}", text(n), message), n.name_begin};
  }

  // condition_eval.cpp: values, logic and comparisons.
  CondValue compute(const Node& n);
  static CondValue from_truth(Truth t);
  CondValue lookup(const Node& n);
  Truth guarded_truth(const Node& c, bool after_unknown);
  Truth conjunction(const Node& n);
  Truth disjunction(const Node& n);
  Truth negation(const Node& n);
  Truth boolean_value(const Node& n);
  static std::string reason(const std::string& why) { return why.empty() ? "unknown" : why; }
  Truth comparison(const Node& n);
  static CompareOp negated(CompareOp op);
  std::string unknown_reason(const CondValue& left, CompareOp op, const CondValue& right,
                             size_t first_fact) const;
  static bool has_symbol(const CondValue& v);
  std::string facts_since(size_t first) const;
  Tri compare(const Node& n, CompareOp op, const CondValue& a, const CondValue& b);
  static Tri invert(Tri t) {
    return t == Tri::Unknown ? t : t == Tri::True ? Tri::False : Tri::True;
  }
  static Tri tri(bool b) { return b ? Tri::True : Tri::False; }
  Tri equal(const Node& n, const CondValue& a, const CondValue& b);
  static Tri dtype_equals_code(DType d, const CondValue& code);
  Tri lists_equal(const Node& n, const CondList& a, const CondList& b);
  Tri numbers_equal(const Node& n, const CondValue& a, const CondValue& b);
  std::optional<std::partial_ordering> numbers_order(const Node& n, const CondValue& a,
                                                     const CondValue& b);
  Tri ordered(const Node& n, CompareOp op, const CondValue& a, const CondValue& b);
  Tri member(const Node& n, const CondValue& item, const CondValue& container);
  Tri identical(const Node& n, const CondValue& a, const CondValue& b);

  // condition_builtins.cpp: arithmetic, attributes and methods, subscripts,
  // builtin functions.
  CondValue arith(const Node& n, ArithOp op, const CondValue& a, const CondValue& b);
  int64_t int_arith(const Node& n, ArithOp op, int64_t a, int64_t b);
  double float_arith(const Node& n, ArithOp op, double a, double b);
  CondValue checked_sym(const Node& n, ArithOp op, const CondValue& a, const CondValue& b);
  CondValue negate(const Node& n, const CondValue& v);
  CondValue attribute(const Node& n, const CondValue& object);
  CondValue tensor_attribute(const Node& n, std::string_view name, const TensorType& t);
  CondValue numel(const Node& n, const Shape& shape);
  CondValue method(const Node& n);
  CondValue index(const Node& n, const CondValue& object, const CondValue& at);
  CondValue slice(const Node& n);
  int64_t slice_bound(const Node& n, const CondValue& bound, int64_t omitted, int64_t size);
  CondValue call(const Node& n);
  // is_leaf(name) and distinct(name, ...): about values, not types.
  CondValue origin_builtin(const Node& n);
  CondOrigin origin_of(const Node& arg);
  CondValue builtin(const Node& n, std::span<const CondValue> args);
  const CondList& list_argument(const Node& n, const CondValue& v);
  CondValue length(const Node& n, const CondValue& v);
  CondValue product(const Node& n, const CondValue& v);
  CondValue contiguous_strides(const Node& n, const CondValue& v);
  CondValue is_static(const Node& n, const CondValue& v);
  CondValue number_literal(const CondValue& v);  // is_number(v)
  CondValue power_of_two(const CondValue& v);    // is_power_of_two(v)
  CondValue canon_dim(const Node& n, const CondValue& dim, const CondValue& rank);
  CondValue canon_dims(const Node& n, const CondValue& dims, const CondValue& rank);
  std::optional<std::partial_ordering> order_of(const Node& n, const CondValue& a,
                                                const CondValue& b);
  CondValue sorted(const Node& n, const CondValue& v);
  CondValue extreme(const Node& n, std::span<const CondValue> args, bool want_max);
  CondValue quantifier(const Node& n, const CondValue& v, bool want_all);
  CondValue absolute(const Node& n, const CondValue& v);
  CondValue to_int(const Node& n, const CondValue& v);  // int(v)

  std::string_view text_;
  const CondEnv& env_;
  const CondFunctions& fns_;
  const CondOriginEnv& origins_;
  std::vector<Fact> facts_;
};

}  // namespace condition_detail

}  // namespace eqfuse
