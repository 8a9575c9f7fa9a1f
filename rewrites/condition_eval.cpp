// Evaluation of rule conditions: three-valued (True / False / Unknown) over
// CondValues, with failure details that quote the innermost failing
// comparison, its operand values and the facts it read. Type errors become
// Verdict::Error; nothing here throws out of evaluate().
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <compare>
#include <limits>

#include "rewrites/condition_internal.hpp"

namespace eqfuse {
namespace {

using Node = CondExpr::Node;

// Index of each alternative in CondValue::V.
enum class VK : uint8_t { Unknown, None, Bool, Int, Float, Sym, DType, Str, List, Tensor };

VK kind_of(const CondValue& v) {
  return static_cast<VK>(v.v.index());
}

std::string_view kind_name(VK k) {
  static constexpr std::array<std::string_view, 10> kNames = {
      "unknown", "None", "bool", "int", "float", "symbolic int", "dtype", "str", "list", "tensor"};
  return kNames[static_cast<int>(k)];
}
std::string_view kind_name(const CondValue& v) {
  return kind_name(kind_of(v));
}

bool is_number(VK k) {
  return k == VK::Int || k == VK::Float || k == VK::Sym;
}

CondValue unknown(std::string why) {
  return CondValue{CondValue::Unknown{std::move(why)}};
}
const std::string& why_of(const CondValue& v) {
  return std::get<CondValue::Unknown>(v.v).why;
}

// Constant SymInts become plain ints so that `x.shape[0] == 4` and
// arithmetic on static dims stay in int64.
CondValue from_symint(const SymInt& s) {
  if (auto c = s.constant()) return CondValue{*c};
  return CondValue{s};
}
SymInt to_symint(const CondValue& v) {
  if (kind_of(v) == VK::Int) return SymInt(std::get<int64_t>(v.v));
  return std::get<SymInt>(v.v);
}
double to_double(const CondValue& v) {
  return kind_of(v) == VK::Int ? static_cast<double>(std::get<int64_t>(v.v))
                               : std::get<double>(v.v);
}

// Python's repr of a float: 1e-06, 2.5, 1.0.
std::string float_text(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Long renderings (big lists) are clipped in details.
std::string clipped(std::string s) {
  constexpr size_t kMax = 160;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

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

uint64_t coefficient_bound(const SymInt& s) {
  std::string text = s.to_string();
  uint64_t total = 0;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    uint64_t run = 0;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      if (run > kSymBound) continue;  // saturated; keep consuming digits
      run = run * 10 + static_cast<uint64_t>(text[i] - '0');
    }
    total = std::min(total + std::min(run, kSymBound + 1), kSymBound + 1);
  }
  return std::max<uint64_t>(total, 1);
}

class Evaluator {
 public:
  Evaluator(const CondExpr& e, const CondEnv& env, const CondFunctions& fns)
      : text_(e.text()), env_(env), fns_(fns) {}

  // --- boolean contexts ---------------------------------------------------------
  Truth truth(const Node& n) {
    switch (n.kind) {
      case CondKind::And:
        return conjunction(n);
      case CondKind::Or:
        return disjunction(n);
      case CondKind::Not:
        return negation(n);
      case CondKind::Compare:
        return comparison(n);
      default:
        return boolean_value(n);
    }
  }

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

  CondValue compute(const Node& n) {
    switch (n.kind) {
      case CondKind::Literal:
        return n.literal;
      case CondKind::Name:
        return lookup(n);
      case CondKind::Attribute:
        return attribute(n, value(n.children[0]));
      case CondKind::Method:
        return method(n);
      case CondKind::Call:
        return call(n);
      case CondKind::Index:
        return index(n, value(n.children[0]), value(n.children[1]));
      case CondKind::Slice:
        return slice(n);
      case CondKind::List: {
        CondList items;
        items.reserve(n.children.size());
        for (const Node& c : n.children) items.push_back(value(c));
        return CondValue{std::move(items)};
      }
      case CondKind::Negate:
        return negate(n, value(n.children[0]));
      case CondKind::Arith: {
        CondValue a = value(n.children[0]);
        CondValue b = value(n.children[1]);
        return arith(n, n.arith, a, b);
      }
      case CondKind::Not:
      case CondKind::And:
      case CondKind::Or:
      case CondKind::Compare:
        return from_truth(truth(n));
    }
    fail(n, "unsupported expression");
  }

  static CondValue from_truth(Truth t) {
    if (t.value == Tri::Unknown) return unknown(std::move(t.detail));
    return CondValue{t.value == Tri::True};
  }

  CondValue lookup(const Node& n) {
    std::optional<CondValue> v = env_ ? env_(n.name) : std::nullopt;
    if (!v) fail(n, fmt::format("unbound name '{}'", n.name));
    return std::move(*v);
  }

  // --- logic ------------------------------------------------------------------------

  // Once an operand was Unknown, a later operand may fail only because the
  // unknown guard would have been false (`x.rank >= 3 and x.shape[2] ...`);
  // such an error makes the result Unknown instead of Error.
  Truth guarded_truth(const Node& c, bool after_unknown) {
    if (!after_unknown) return truth(c);
    try {
      return truth(c);
    } catch (const EvalError& e) {
      return {Tri::Unknown, fmt::format("{} (not decidable after an unknown operand)", e.message)};
    }
  }

  Truth conjunction(const Node& n) {
    std::optional<Truth> first_unknown;
    for (const Node& c : n.children) {
      Truth t = guarded_truth(c, first_unknown.has_value());
      if (t.value == Tri::False) return t;
      if (t.value == Tri::Unknown && !first_unknown) first_unknown = std::move(t);
    }
    return first_unknown ? std::move(*first_unknown) : Truth{};
  }

  Truth disjunction(const Node& n) {
    std::optional<Truth> first_unknown;
    std::string failures;
    for (const Node& c : n.children) {
      Truth t = guarded_truth(c, first_unknown.has_value());
      if (t.value == Tri::True) return t;
      if (t.value == Tri::Unknown && !first_unknown) first_unknown = std::move(t);
      if (t.value == Tri::False) failures += (failures.empty() ? "" : "; ") + t.detail;
    }
    if (first_unknown) return std::move(*first_unknown);
    return {Tri::False, std::move(failures)};
  }

  Truth negation(const Node& n) {
    size_t first_fact = facts_.size();
    Truth inner = truth(n.children[0]);
    switch (inner.value) {
      case Tri::True:
        return {Tri::False, fmt::format("{}: {} holds{}", text(n), text(n.children[0]),
                                        facts_since(first_fact))};
      case Tri::False:
        return {};
      case Tri::Unknown:
        break;
    }
    return inner;
  }

  Truth boolean_value(const Node& n) {
    size_t first_fact = facts_.size();
    CondValue v = value(n);
    switch (kind_of(v)) {
      case VK::Bool:
        if (std::get<bool>(v.v)) return {};
        return {Tri::False, fmt::format("{} is False{}", text(n), facts_since(first_fact))};
      case VK::Unknown: {
        // Reasons from builtins already start with the expression ("is_static(y): ...").
        std::string why = reason(why_of(v));
        if (why.starts_with(fmt::format("{}:", text(n)))) return {Tri::Unknown, why};
        return {Tri::Unknown, fmt::format("{}: {}", text(n), why)};
      }
      default:
        fail(n,
             fmt::format("expected a boolean, got {} ({})", kind_name(v), clipped(v.to_string())));
    }
  }

  static std::string reason(const std::string& why) { return why.empty() ? "unknown" : why; }

  Truth comparison(const Node& n) {
    size_t first_fact = facts_.size();
    CondValue left = value(n.children[0]);
    std::optional<Truth> first_unknown;
    for (size_t i = 0; i < n.compare_ops.size(); ++i) {
      CompareOp op = n.compare_ops[i];
      CondValue right = value(n.children[i + 1]);
      Tri r = compare(n, op, left, right);
      if (r == Tri::False)
        return {Tri::False, fmt::format("{}: {} {} {}{}", text(n), clipped(left.to_string()),
                                        compare_op_text(negated(op)), clipped(right.to_string()),
                                        facts_since(first_fact))};
      if (r == Tri::Unknown && !first_unknown)
        first_unknown =
            Truth{Tri::Unknown,
                  fmt::format("{}: {}", text(n), unknown_reason(left, op, right, first_fact))};
      left = std::move(right);
    }
    return first_unknown ? std::move(*first_unknown) : Truth{};
  }

  static CompareOp negated(CompareOp op) {
    switch (op) {
      case CompareOp::Eq:
        return CompareOp::Ne;
      case CompareOp::Ne:
        return CompareOp::Eq;
      case CompareOp::Lt:
        return CompareOp::Ge;
      case CompareOp::Le:
        return CompareOp::Gt;
      case CompareOp::Gt:
        return CompareOp::Le;
      case CompareOp::Ge:
        return CompareOp::Lt;
      case CompareOp::In:
        return CompareOp::NotIn;
      case CompareOp::NotIn:
        return CompareOp::In;
      case CompareOp::Is:
        return CompareOp::IsNot;
      case CompareOp::IsNot:
        return CompareOp::Is;
    }
    return op;
  }

  // Why a comparison is Unknown: an unknown operand says so itself; otherwise
  // it depends on a symbol, named through the first symbolic fact read.
  std::string unknown_reason(const CondValue& left, CompareOp op, const CondValue& right,
                             size_t first_fact) const {
    for (const CondValue* v : {&left, &right})
      if (v->is_unknown()) return reason(why_of(*v));
    for (size_t i = first_fact; i < facts_.size(); ++i)
      if (has_symbol(facts_[i].value))
        return fmt::format("{} is symbolic ({})", text(*facts_[i].node),
                           clipped(facts_[i].value.to_string()));
    return fmt::format("{} {} {} depends on the value of a symbol", clipped(left.to_string()),
                       compare_op_text(op), clipped(right.to_string()));
  }

  static bool has_symbol(const CondValue& v) {
    switch (kind_of(v)) {
      case VK::Sym:
        return true;
      case VK::List:
        return std::any_of(std::get<CondList>(v.v).begin(), std::get<CondList>(v.v).end(),
                           has_symbol);
      case VK::Tensor: {
        const auto& shape = std::get<TensorType>(v.v).shape;
        return shape && std::any_of(shape->begin(), shape->end(),
                                    [](const SymInt& d) { return d.is_symbolic(); });
      }
      default:
        return false;
    }
  }

  // " (x2.shape[-1] = 3, x2.itemsize = 2)" for the facts read since `first`.
  std::string facts_since(size_t first) const {
    std::vector<std::string_view> seen;
    std::string out;
    for (size_t i = first; i < facts_.size(); ++i) {
      std::string_view name = text(*facts_[i].node);
      if (std::find(seen.begin(), seen.end(), name) != seen.end()) continue;
      seen.push_back(name);
      out += fmt::format("{}{} = {}", out.empty() ? "" : ", ", name,
                         clipped(facts_[i].value.to_string()));
    }
    return out.empty() ? out : " (" + out + ")";
  }

  // --- comparisons --------------------------------------------------------------------

  Tri compare(const Node& n, CompareOp op, const CondValue& a, const CondValue& b) {
    switch (op) {
      case CompareOp::Eq:
        return equal(n, a, b);
      case CompareOp::Ne:
        return invert(equal(n, a, b));
      case CompareOp::In:
        return member(n, a, b);
      case CompareOp::NotIn:
        return invert(member(n, a, b));
      case CompareOp::Is:
        return identical(n, a, b);
      case CompareOp::IsNot:
        return invert(identical(n, a, b));
      default:
        return ordered(n, op, a, b);
    }
  }

  static Tri invert(Tri t) {
    return t == Tri::Unknown ? t : t == Tri::True ? Tri::False : Tri::True;
  }
  static Tri tri(bool b) { return b ? Tri::True : Tri::False; }

  Tri equal(const Node& n, const CondValue& a, const CondValue& b) {
    VK ka = kind_of(a), kb = kind_of(b);
    if (ka == VK::Unknown || kb == VK::Unknown) return Tri::Unknown;
    if (ka == VK::None || kb == VK::None) return tri(ka == kb);
    if (is_number(ka) && is_number(kb)) return numbers_equal(n, a, b);
    // Ops take dtypes as ScalarType codes: `dtype in [1, 12]` works either way.
    if (ka == VK::DType && kb == VK::Int) return dtype_equals_code(std::get<DType>(a.v), b);
    if (ka == VK::Int && kb == VK::DType) return dtype_equals_code(std::get<DType>(b.v), a);
    if (ka != kb || ka == VK::Tensor)
      fail(n, fmt::format("cannot compare {} ({}) with {} ({})", kind_name(ka),
                          clipped(a.to_string()), kind_name(kb), clipped(b.to_string())));
    switch (ka) {
      case VK::Bool:
        return tri(std::get<bool>(a.v) == std::get<bool>(b.v));
      case VK::DType:
        return tri(std::get<DType>(a.v) == std::get<DType>(b.v));
      case VK::Str:
        return tri(std::get<std::string>(a.v) == std::get<std::string>(b.v));
      default:
        return lists_equal(n, std::get<CondList>(a.v), std::get<CondList>(b.v));
    }
  }

  static Tri dtype_equals_code(DType d, const CondValue& code) {
    auto c = scalar_type_code(d);
    return tri(c && *c == std::get<int64_t>(code.v));
  }

  Tri lists_equal(const Node& n, const CondList& a, const CondList& b) {
    if (a.size() != b.size()) return Tri::False;
    Tri result = Tri::True;
    for (size_t i = 0; i < a.size(); ++i) {
      Tri t = equal(n, a[i], b[i]);
      if (t == Tri::False) return t;
      if (t == Tri::Unknown) result = Tri::Unknown;
    }
    return result;
  }

  Tri numbers_equal(const Node& n, const CondValue& a, const CondValue& b) {
    auto order = numbers_order(n, a, b);
    if (!order) return Tri::Unknown;
    return tri(*order == std::partial_ordering::equivalent);
  }

  // nullopt: depends on a symbol. Symbolic values are decided only when their
  // difference is a constant (identical polynomials, or `s0 + 1` vs `s0`).
  std::optional<std::partial_ordering> numbers_order(const Node& n, const CondValue& a,
                                                     const CondValue& b) {
    VK ka = kind_of(a), kb = kind_of(b);
    if (ka == VK::Int && kb == VK::Int) return std::get<int64_t>(a.v) <=> std::get<int64_t>(b.v);
    if (ka == VK::Sym || kb == VK::Sym) {
      if (ka == VK::Float || kb == VK::Float) return std::nullopt;
      auto diff = to_symint(checked_sym(n, ArithOp::Sub, a, b)).constant();
      if (!diff) return std::nullopt;
      return *diff <=> 0;
    }
    return to_double(a) <=> to_double(b);
  }

  Tri ordered(const Node& n, CompareOp op, const CondValue& a, const CondValue& b) {
    VK ka = kind_of(a), kb = kind_of(b);
    if (ka == VK::Unknown || kb == VK::Unknown) return Tri::Unknown;
    std::optional<std::partial_ordering> order;
    if (is_number(ka) && is_number(kb)) {
      order = numbers_order(n, a, b);
    } else if (ka == VK::Str && kb == VK::Str) {
      order = std::get<std::string>(a.v) <=> std::get<std::string>(b.v);
    } else {
      fail(n, fmt::format("cannot order {} ({}) and {} ({}) with '{}'", kind_name(ka),
                          clipped(a.to_string()), kind_name(kb), clipped(b.to_string()),
                          compare_op_text(op)));
    }
    if (!order) return Tri::Unknown;
    switch (op) {
      case CompareOp::Lt:
        return tri(*order < 0);
      case CompareOp::Le:
        return tri(*order <= 0);
      case CompareOp::Gt:
        return tri(*order > 0);
      default:
        return tri(*order >= 0);
    }
  }

  Tri member(const Node& n, const CondValue& item, const CondValue& container) {
    switch (kind_of(container)) {
      case VK::Unknown:
        return Tri::Unknown;
      case VK::Str:
        if (item.is_unknown()) return Tri::Unknown;
        if (kind_of(item) != VK::Str)
          fail(n, fmt::format("'in <str>' needs a str on the left, got {}", kind_name(item)));
        return tri(std::get<std::string>(container.v).find(std::get<std::string>(item.v)) !=
                   std::string::npos);
      case VK::List: {
        Tri result = Tri::False;
        for (const CondValue& element : std::get<CondList>(container.v)) {
          Tri t = equal(n, item, element);
          if (t == Tri::True) return t;
          if (t == Tri::Unknown) result = Tri::Unknown;
        }
        return result;
      }
      default:
        fail(n, fmt::format("'in' needs a list or a str on the right, got {} ({})",
                            kind_name(container), clipped(container.to_string())));
    }
  }

  Tri identical(const Node& n, const CondValue& a, const CondValue& b) {
    VK ka = kind_of(a), kb = kind_of(b);
    if (ka == VK::Unknown || kb == VK::Unknown) return Tri::Unknown;
    if (ka == VK::None || kb == VK::None) return tri(ka == kb);
    if (ka == VK::Bool && kb == VK::Bool) return tri(std::get<bool>(a.v) == std::get<bool>(b.v));
    fail(n, fmt::format("'is' compares with None, True or False (got {} and {}); use '=='",
                        kind_name(ka), kind_name(kb)));
  }

  // --- arithmetic ---------------------------------------------------------------------

  CondValue arith(const Node& n, ArithOp op, const CondValue& a, const CondValue& b) {
    VK ka = kind_of(a), kb = kind_of(b);
    if (ka == VK::Unknown) return a;
    if (kb == VK::Unknown) return b;
    if (op == ArithOp::Add && ka == VK::List && kb == VK::List) {
      CondList joined = std::get<CondList>(a.v);
      const CondList& tail = std::get<CondList>(b.v);
      joined.insert(joined.end(), tail.begin(), tail.end());
      return CondValue{std::move(joined)};
    }
    if (!is_number(ka) || !is_number(kb))
      fail(n, fmt::format("unsupported operand types for {}: {} ({}) and {} ({})",
                          arith_op_text(op), kind_name(ka), clipped(a.to_string()), kind_name(kb),
                          clipped(b.to_string())));
    if (ka == VK::Int && kb == VK::Int)
      return CondValue{int_arith(n, op, std::get<int64_t>(a.v), std::get<int64_t>(b.v))};
    if (ka == VK::Sym || kb == VK::Sym) {
      if (ka == VK::Float || kb == VK::Float)
        return unknown(fmt::format("{} mixes a float with a symbolic int", text(n)));
      return checked_sym(n, op, a, b);
    }
    return CondValue{float_arith(n, op, to_double(a), to_double(b))};
  }

  int64_t int_arith(const Node& n, ArithOp op, int64_t a, int64_t b) {
    int64_t r = 0;
    bool overflow = false;
    switch (op) {
      case ArithOp::Add:
        overflow = __builtin_add_overflow(a, b, &r);
        break;
      case ArithOp::Sub:
        overflow = __builtin_sub_overflow(a, b, &r);
        break;
      case ArithOp::Mul:
        overflow = __builtin_mul_overflow(a, b, &r);
        break;
      case ArithOp::FloorDiv:
      case ArithOp::Mod: {
        if (b == 0) fail(n, op == ArithOp::Mod ? "modulo by zero" : "division by zero");
        if (a == std::numeric_limits<int64_t>::min() && b == -1) {
          overflow = op == ArithOp::FloorDiv;
          break;
        }
        // Python floors: a nonzero remainder takes the sign of the divisor.
        // Adjust the C++ remainder rather than computing a - q * b, whose
        // product overflows near INT64_MIN (-(2^63 - 1) % 3).
        int64_t q = a / b;
        int64_t m = a % b;
        if (m != 0 && ((m < 0) != (b < 0))) {
          --q;
          m += b;
        }
        r = op == ArithOp::FloorDiv ? q : m;
        break;
      }
    }
    if (overflow) fail(n, "integer overflow");
    return r;
  }

  double float_arith(const Node& n, ArithOp op, double a, double b) {
    switch (op) {
      case ArithOp::Add:
        return a + b;
      case ArithOp::Sub:
        return a - b;
      case ArithOp::Mul:
        return a * b;
      case ArithOp::FloorDiv:
        if (b == 0) fail(n, "division by zero");
        return std::floor(a / b);
      case ArithOp::Mod: {
        if (b == 0) fail(n, "modulo by zero");
        double m = std::fmod(a, b);
        return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;  // sign of the divisor, as Python
      }
    }
    return 0;
  }

  CondValue checked_sym(const Node& n, ArithOp op, const CondValue& a, const CondValue& b) {
    SymInt x = to_symint(a), y = to_symint(b);
    uint64_t bx = coefficient_bound(x), by = coefficient_bound(y);
    uint64_t grown = 0;
    bool overflow = op == ArithOp::Mul ? __builtin_mul_overflow(bx, by, &grown)
                                       : __builtin_add_overflow(bx, by, &grown);
    if (overflow || grown > kSymBound) fail(n, "integer overflow in symbolic arithmetic");
    if ((op == ArithOp::FloorDiv || op == ArithOp::Mod) && y.constant() == 0)
      fail(n, op == ArithOp::Mod ? "modulo by zero" : "division by zero");
    switch (op) {
      case ArithOp::Add:
        return from_symint(x + y);
      case ArithOp::Sub:
        return from_symint(x - y);
      case ArithOp::Mul:
        return from_symint(x * y);
      case ArithOp::FloorDiv:
        return from_symint(x.floordiv(y));
      case ArithOp::Mod:
        return from_symint(x.mod(y));
    }
    return from_symint(x);
  }

  CondValue negate(const Node& n, const CondValue& v) {
    switch (kind_of(v)) {
      case VK::Unknown:
        return v;
      case VK::Int:
      case VK::Sym:
        return arith(n, ArithOp::Sub, CondValue{int64_t{0}}, v);
      case VK::Float:
        return CondValue{-std::get<double>(v.v)};
      default:
        fail(n, fmt::format("bad operand type for unary -: {}", kind_name(v)));
    }
  }

  // --- attributes and methods -------------------------------------------------------------

  CondValue attribute(const Node& n, const CondValue& object) {
    if (!is_known_attribute(n.name)) fail_at_name(n, fmt::format("unknown attribute '{}'", n.name));
    switch (kind_of(object)) {
      case VK::Unknown:
        return object;
      case VK::Tensor:
        return tensor_attribute(n, n.name, std::get<TensorType>(object.v));
      case VK::DType:
        if (n.name == "itemsize")
          return CondValue{int64_t{dtype_itemsize(std::get<DType>(object.v))}};
        if (n.name == "is_floating_point")
          return CondValue{dtype_is_floating(std::get<DType>(object.v))};
        break;
      default:
        break;
    }
    fail_at_name(n, fmt::format("{} has no attribute '{}'", kind_name(object), n.name));
  }

  CondValue tensor_attribute(const Node& n, std::string_view name, const TensorType& t) {
    auto unknown_fact = [&] { return unknown(fmt::format("{} is unknown", text(n))); };
    bool dtype_known = t.dtype != DType::Unknown;
    if (name == "dtype") return dtype_known ? CondValue{t.dtype} : unknown_fact();
    if (name == "itemsize" || name == "element_size")
      return dtype_known ? CondValue{int64_t{dtype_itemsize(t.dtype)}} : unknown_fact();
    if (name == "is_floating_point")
      return dtype_known ? CondValue{dtype_is_floating(t.dtype)} : unknown_fact();
    if (name == "device") return t.device ? CondValue{t.device->to_string()} : unknown_fact();
    if (!t.shape) {
      if (name == "shape" || name == "size" || name == "rank" || name == "ndim" || name == "dim" ||
          name == "numel")
        return unknown_fact();
    } else if (name == "shape" || name == "size") {
      CondList dims;
      dims.reserve(t.shape->size());
      for (const SymInt& d : *t.shape) dims.push_back(from_symint(d));
      return CondValue{std::move(dims)};
    } else if (name == "rank" || name == "ndim" || name == "dim") {
      return CondValue{static_cast<int64_t>(t.shape->size())};
    } else if (name == "numel") {
      return numel(n, *t.shape);
    }
    fail_at_name(n, fmt::format("tensor has no attribute '{}'", name));
  }

  CondValue numel(const Node& n, const Shape& shape) {
    CondValue product{int64_t{1}};
    for (const SymInt& d : shape) product = arith(n, ArithOp::Mul, product, from_symint(d));
    return product;
  }

  CondValue method(const Node& n) {
    CondValue object = value(n.children[0]);
    std::vector<CondValue> args;
    for (size_t i = 1; i < n.children.size(); ++i) args.push_back(value(n.children[i]));
    const BuiltinFunction* m = find_method(n.name);
    if (!m) fail_at_name(n, fmt::format("unknown method '{}'", n.name));
    if (object.is_unknown()) return object;
    if (kind_of(object) != VK::Tensor)
      fail_at_name(n, fmt::format("{} has no method '{}'", kind_name(object), n.name));
    if (args.size() < static_cast<size_t>(m->min_args) ||
        args.size() > static_cast<size_t>(m->max_args))
      fail_at_name(n, fmt::format(".{}() got {} arguments", n.name, args.size()));
    const TensorType& t = std::get<TensorType>(object.v);
    CondValue whole = tensor_attribute(n, n.name, t);
    if (args.empty()) return whole;
    return index(n, whole, args[0]);  // x.size(i) is x.shape[i]
  }

  // --- subscripts ------------------------------------------------------------------------------

  CondValue index(const Node& n, const CondValue& object, const CondValue& at) {
    if (object.is_unknown()) return object;
    if (at.is_unknown()) return at;
    VK k = kind_of(object);
    if (k != VK::List && k != VK::Str)
      fail(n, fmt::format("{} is not subscriptable{}", kind_name(k),
                          k == VK::Tensor ? " (use .shape[...])" : ""));
    if (kind_of(at) == VK::Sym) return unknown(fmt::format("{}: the index is symbolic", text(n)));
    if (kind_of(at) != VK::Int) fail(n, fmt::format("indices must be ints, not {}", kind_name(at)));
    int64_t i = std::get<int64_t>(at.v);
    int64_t size = k == VK::List ? static_cast<int64_t>(std::get<CondList>(object.v).size())
                                 : static_cast<int64_t>(std::get<std::string>(object.v).size());
    int64_t j = i < 0 ? i + size : i;
    if (j < 0 || j >= size) fail(n, fmt::format("index {} out of range for length {}", i, size));
    if (k == VK::Str) return CondValue{std::string(1, std::get<std::string>(object.v)[j])};
    return std::get<CondList>(object.v)[static_cast<size_t>(j)];
  }

  CondValue slice(const Node& n) {
    CondValue object = value(n.children[0]);
    CondValue lower = value(n.children[1]);
    CondValue upper = value(n.children[2]);
    for (const CondValue* v : {&object, &lower, &upper})
      if (v->is_unknown()) return *v;
    VK k = kind_of(object);
    if (k != VK::List && k != VK::Str) fail(n, fmt::format("{} cannot be sliced", kind_name(k)));
    int64_t size = k == VK::List ? static_cast<int64_t>(std::get<CondList>(object.v).size())
                                 : static_cast<int64_t>(std::get<std::string>(object.v).size());
    int64_t from = slice_bound(n, lower, 0, size);
    int64_t to = std::max(from, slice_bound(n, upper, size, size));
    if (k == VK::Str)
      return CondValue{std::get<std::string>(object.v).substr(static_cast<size_t>(from),
                                                              static_cast<size_t>(to - from))};
    const CondList& items = std::get<CondList>(object.v);
    return CondValue{CondList(items.begin() + from, items.begin() + to)};
  }

  // Python slice bounds: negative counts from the end, out of range clamps.
  int64_t slice_bound(const Node& n, const CondValue& bound, int64_t omitted, int64_t size) {
    if (kind_of(bound) == VK::None) return omitted;
    if (kind_of(bound) != VK::Int)
      fail(n, fmt::format("slice bounds must be ints, not {}", kind_name(bound)));
    int64_t b = std::get<int64_t>(bound.v);
    if (b < 0) b = std::max<int64_t>(b + size, 0);
    return std::min(b, size);
  }

  // --- functions
  // ----------------------------------------------------------------------------------

  CondValue call(const Node& n) {
    std::vector<CondValue> args;
    args.reserve(n.children.size());
    for (const Node& c : n.children) args.push_back(value(c));
    if (const BuiltinFunction* b = find_builtin(n.name)) {
      if (static_cast<int>(args.size()) < b->min_args ||
          (b->max_args >= 0 && static_cast<int>(args.size()) > b->max_args))
        fail_at_name(n, fmt::format("{}() got {} arguments", n.name, args.size()));
      return builtin(n, args);
    }
    const CondFunction* f = fns_.find(n.name);
    if (!f) fail_at_name(n, fmt::format("unknown function '{}'", n.name));
    // User predicates never see Unknown: the result is Unknown without a call.
    for (const CondValue& a : args)
      if (a.is_unknown()) return a;
    try {
      return (*f)(args);
    } catch (const std::exception& e) {
      fail(n, fmt::format("{}() failed: {}", n.name, e.what()));
    }
  }

  CondValue builtin(const Node& n, std::span<const CondValue> args) {
    std::string_view name = n.name;
    if (name == "len") return length(n, args[0]);
    if (name == "prod") return product(n, args[0]);
    if (name == "is_static") return is_static(n, args[0]);
    if (name == "canon_dim") return canon_dim(n, args[0], args[1]);
    if (name == "canon_dims") return canon_dims(n, args[0], args[1]);
    if (name == "sorted") return sorted(n, args[0]);
    if (name == "min" || name == "max") return extreme(n, args, name == "max");
    if (name == "all" || name == "any") return quantifier(n, args[0], name == "all");
    return absolute(n, args[0]);
  }

  const CondList& list_argument(const Node& n, const CondValue& v) {
    if (kind_of(v) != VK::List)
      fail(n, fmt::format("{}() expects a list, got {} ({})", n.name, kind_name(v),
                          clipped(v.to_string())));
    return std::get<CondList>(v.v);
  }

  CondValue length(const Node& n, const CondValue& v) {
    if (v.is_unknown()) return v;
    if (kind_of(v) == VK::Str)
      return CondValue{static_cast<int64_t>(std::get<std::string>(v.v).size())};
    return CondValue{static_cast<int64_t>(list_argument(n, v).size())};
  }

  CondValue product(const Node& n, const CondValue& v) {
    if (v.is_unknown()) return v;
    CondValue result{int64_t{1}};
    for (const CondValue& item : list_argument(n, v)) result = arith(n, ArithOp::Mul, result, item);
    return result;
  }

  CondValue is_static(const Node& n, const CondValue& v) {
    switch (kind_of(v)) {
      case VK::Unknown:
        return v;
      case VK::Int:
        return CondValue{true};
      case VK::Sym:
        return CondValue{false};
      case VK::List: {
        bool any_unknown = false;
        for (const CondValue& item : std::get<CondList>(v.v)) {
          CondValue s = is_static(n, item);
          if (s.is_unknown())
            any_unknown = true;
          else if (!std::get<bool>(s.v))
            return s;
        }
        return any_unknown ? unknown(fmt::format("{}: an element is unknown", text(n)))
                           : CondValue{true};
      }
      case VK::Tensor: {
        const TensorType& t = std::get<TensorType>(v.v);
        if (!t.shape) return unknown(fmt::format("{}: the shape is unknown", text(n)));
        return CondValue{std::none_of(t.shape->begin(), t.shape->end(),
                                      [](const SymInt& d) { return d.is_symbolic(); })};
      }
      default:
        fail(n, fmt::format("is_static() expects an int, a list of ints or a tensor, got {}",
                            kind_name(v)));
    }
  }

  CondValue canon_dim(const Node& n, const CondValue& dim, const CondValue& rank) {
    for (const CondValue* v : {&dim, &rank}) {
      if (v->is_unknown()) return *v;
      if (kind_of(*v) == VK::Sym) return unknown(fmt::format("{} is symbolic", text(n)));
      if (kind_of(*v) != VK::Int)
        fail(n, fmt::format("{}() expects ints, got {}", n.name, kind_name(*v)));
    }
    int64_t d = std::get<int64_t>(dim.v), r = std::get<int64_t>(rank.v);
    if (r < 0) fail(n, fmt::format("negative rank {}", r));
    int64_t wrap = std::max<int64_t>(r, 1);  // a 0-d tensor accepts dims -1 and 0, as torch
    if (d < -wrap || d >= wrap) fail(n, fmt::format("dim {} out of range for rank {}", d, r));
    return CondValue{d < 0 ? d + wrap : d};
  }

  CondValue canon_dims(const Node& n, const CondValue& dims, const CondValue& rank) {
    if (dims.is_unknown()) return dims;
    CondList out;
    for (const CondValue& d : list_argument(n, dims)) {
      CondValue c = canon_dim(n, d, rank);
      if (c.is_unknown()) return c;
      out.push_back(std::move(c));
    }
    return CondValue{std::move(out)};
  }

  // Orders two values for sorted/min/max; nullopt when it depends on a symbol.
  std::optional<std::partial_ordering> order_of(const Node& n, const CondValue& a,
                                                const CondValue& b) {
    if (a.is_unknown() || b.is_unknown()) return std::nullopt;
    if (is_number(kind_of(a)) && is_number(kind_of(b))) return numbers_order(n, a, b);
    if (kind_of(a) == VK::Str && kind_of(b) == VK::Str)
      return std::get<std::string>(a.v) <=> std::get<std::string>(b.v);
    fail(n, fmt::format("{}() cannot order {} and {}", n.name, kind_name(a), kind_name(b)));
  }

  CondValue sorted(const Node& n, const CondValue& v) {
    if (v.is_unknown()) return v;
    CondList items = list_argument(n, v);
    // Insertion sort: lists are short, and it stays safe however the
    // comparisons come out.
    for (size_t i = 1; i < items.size(); ++i) {
      for (size_t j = i; j > 0; --j) {
        auto order = order_of(n, items[j - 1], items[j]);
        if (!order) return unknown(fmt::format("{}: the order depends on a symbol", text(n)));
        if (!(*order > 0)) break;
        std::swap(items[j - 1], items[j]);
      }
    }
    return CondValue{std::move(items)};
  }

  CondValue extreme(const Node& n, std::span<const CondValue> args, bool want_max) {
    if (args.size() == 1 && args[0].is_unknown()) return args[0];
    std::span<const CondValue> items = args;
    if (args.size() == 1) items = list_argument(n, args[0]);
    if (items.empty()) fail(n, fmt::format("{}() of an empty list", n.name));
    const CondValue* best = &items[0];
    for (const CondValue& item : items.subspan(1)) {
      auto order = order_of(n, item, *best);
      if (!order) return unknown(fmt::format("{} depends on a symbol", text(n)));
      if (want_max ? *order > 0 : *order < 0) best = &item;
    }
    return *best;
  }

  CondValue quantifier(const Node& n, const CondValue& v, bool want_all) {
    if (v.is_unknown()) return v;
    std::optional<CondValue> first_unknown;
    for (const CondValue& item : list_argument(n, v)) {
      if (item.is_unknown()) {
        if (!first_unknown) first_unknown = item;
        continue;
      }
      if (kind_of(item) != VK::Bool)
        fail(n, fmt::format("{}() expects a list of bools, got {}", n.name, kind_name(item)));
      if (std::get<bool>(item.v) != want_all) return item;
    }
    return first_unknown ? *first_unknown : CondValue{want_all};
  }

  CondValue absolute(const Node& n, const CondValue& v) {
    switch (kind_of(v)) {
      case VK::Unknown:
        return v;
      case VK::Int:
        return std::get<int64_t>(v.v) < 0 ? negate(n, v) : v;
      case VK::Float:
        return CondValue{std::fabs(std::get<double>(v.v))};
      case VK::Sym:
        return unknown(fmt::format("{} is symbolic", text(n)));
      default:
        fail(n, fmt::format("abs() expects a number, got {}", kind_name(v)));
    }
  }

  std::string_view text_;
  const CondEnv& env_;
  const CondFunctions& fns_;
  std::vector<Fact> facts_;
};

}  // namespace

std::string CondValue::to_string() const {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Unknown>) {
          return "unknown";
        } else if constexpr (std::is_same_v<T, std::monostate>) {
          return "None";
        } else if constexpr (std::is_same_v<T, bool>) {
          return x ? "True" : "False";
        } else if constexpr (std::is_same_v<T, int64_t>) {
          return std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          return float_text(x);
        } else if constexpr (std::is_same_v<T, SymInt>) {
          return x.to_string();
        } else if constexpr (std::is_same_v<T, DType>) {
          return fmt::format("torch.{}", dtype_torch_name(x));
        } else if constexpr (std::is_same_v<T, std::string>) {
          return fmt::format("'{}'", x);
        } else if constexpr (std::is_same_v<T, CondList>) {
          std::string out = "[";
          for (size_t i = 0; i < x.size(); ++i) out += (i ? ", " : "") + x[i].to_string();
          return out + "]";
        } else {
          return describe(ValueType::of_tensor(x));
        }
      },
      v);
}

void CondFunctions::add(std::string name, CondFunction fn, std::string description) {
  bool identifier =
      !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
      std::all_of(name.begin(), name.end(),
                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (!identifier)
    throw Error(fmt::format("condition function name '{}' is not an identifier", name));
  if (find_builtin(name) || name == "torch" || name == "and" || name == "or" || name == "not" ||
      name == "in" || name == "is" || name == "True" || name == "False" || name == "None")
    throw Error(fmt::format("condition function '{}' would shadow a builtin", name));
  if (!fn) throw Error(fmt::format("condition function '{}' is empty", name));
  if (fns_.contains(name))
    throw Error(fmt::format("condition function '{}' is already registered", name));
  fns_.emplace(std::move(name), std::pair{std::move(fn), std::move(description)});
}

const CondFunction* CondFunctions::find(std::string_view name) const {
  auto it = fns_.find(name);
  return it == fns_.end() ? nullptr : &it->second.first;
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::True:
      return "true";
    case Verdict::False:
      return "false";
    case Verdict::Unknown:
      return "unknown";
    case Verdict::Error:
      return "error";
  }
  return "?";
}

CondResult evaluate(const CondExpr& e, const CondEnv& env, const CondFunctions& fns) {
  if (!e.root()) return {Verdict::True, {}};  // no condition
  Evaluator evaluator(e, env, fns);
  auto error = [&](std::string message, size_t offset) {
    CondResult r{Verdict::Error, std::move(message)};
    r.error_loc = condition_offset_loc(e.text(), e.loc(), offset);
    return r;
  };
  try {
    Truth t = evaluator.truth(*e.root());
    switch (t.value) {
      case Tri::True:
        return {Verdict::True, {}};
      case Tri::False:
        return {Verdict::False, std::move(t.detail)};
      case Tri::Unknown:
        return {Verdict::Unknown, std::move(t.detail)};
    }
  } catch (const EvalError& err) {
    return error(err.message, err.offset);
  } catch (const std::exception& ex) {
    return error(fmt::format("{}: {}", e.text(), ex.what()), 0);
  }
  return {Verdict::Error, "unreachable"};
}

}  // namespace eqfuse
