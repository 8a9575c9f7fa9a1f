// Evaluation of rule conditions: three-valued (True / False / Unknown) over
// CondValues, with failure details that quote the innermost failing
// comparison, its operand values and the facts it read. Type errors become
// Verdict::Error; nothing here throws out of evaluate().
//
// This file holds the evaluator's core: dispatch over the syntax tree, the
// three-valued logic (and, or, not, chained comparisons) with its failure
// details, and the comparison operators. The values it computes with are in
// condition_value.cpp; arithmetic, attributes, subscripts and the builtin
// functions in condition_builtins.cpp; the Evaluator class is declared in
// condition_internal.hpp.
#include <algorithm>
#include <compare>

#include "rewrites/condition_internal.hpp"

namespace eqfuse {
namespace condition_detail {

Truth Evaluator::truth(const Node& n) {
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

CondValue Evaluator::compute(const Node& n) {
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

CondValue Evaluator::from_truth(Truth t) {
  if (t.value == Tri::Unknown) return unknown(std::move(t.detail));
  return CondValue{t.value == Tri::True};
}

CondValue Evaluator::lookup(const Node& n) {
  std::optional<CondValue> v = env_ ? env_(n.name) : std::nullopt;
  if (!v) fail(n, fmt::format("unbound name '{}'", n.name));
  return std::move(*v);
}

// --- logic ------------------------------------------------------------------------

// Once an operand was Unknown, a later operand may fail only because the
// unknown guard would have been false (`x.rank >= 3 and x.shape[2] ...`);
// such an error makes the result Unknown instead of Error.
Truth Evaluator::guarded_truth(const Node& c, bool after_unknown) {
  if (!after_unknown) return truth(c);
  try {
    return truth(c);
  } catch (const EvalError& e) {
    return {Tri::Unknown, fmt::format("{} (not decidable after an unknown operand)", e.message)};
  }
}

Truth Evaluator::conjunction(const Node& n) {
  std::optional<Truth> first_unknown;
  for (const Node& c : n.children) {
    Truth t = guarded_truth(c, first_unknown.has_value());
    if (t.value == Tri::False) return t;
    if (t.value == Tri::Unknown && !first_unknown) first_unknown = std::move(t);
  }
  return first_unknown ? std::move(*first_unknown) : Truth{};
}

Truth Evaluator::disjunction(const Node& n) {
  std::optional<Truth> first_unknown;
  std::string failures;
  for (const Node& c : n.children) {
    Truth t = guarded_truth(c, first_unknown.has_value());
    if (t.value == Tri::True) return t;
    if (t.value == Tri::False) failures += (failures.empty() ? "" : "; ") + t.detail;
    if (t.value == Tri::Unknown && !first_unknown) first_unknown = std::move(t);
  }
  if (first_unknown) return std::move(*first_unknown);
  return {Tri::False, std::move(failures)};
}

Truth Evaluator::negation(const Node& n) {
  size_t first_fact = facts_.size();
  Truth inner = truth(n.children[0]);
  switch (inner.value) {
    case Tri::True:
      return {Tri::False,
              fmt::format("{}: {} holds{}", text(n), text(n.children[0]), facts_since(first_fact))};
    case Tri::False:
      return {};
    case Tri::Unknown:
      break;
  }
  return inner;
}

Truth Evaluator::boolean_value(const Node& n) {
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
      fail(n, fmt::format("expected a boolean, got {} ({})", kind_name(v), clipped(v.to_string())));
  }
}

Truth Evaluator::comparison(const Node& n) {
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
      first_unknown = Truth{Tri::Unknown, fmt::format("{}: {}", text(n),
                                                      unknown_reason(left, op, right, first_fact))};
    left = std::move(right);
  }
  return first_unknown ? std::move(*first_unknown) : Truth{};
}

CompareOp Evaluator::negated(CompareOp op) {
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
std::string Evaluator::unknown_reason(const CondValue& left, CompareOp op, const CondValue& right,
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

bool Evaluator::has_symbol(const CondValue& v) {
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
std::string Evaluator::facts_since(size_t first) const {
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

Tri Evaluator::compare(const Node& n, CompareOp op, const CondValue& a, const CondValue& b) {
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

Tri Evaluator::equal(const Node& n, const CondValue& a, const CondValue& b) {
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

Tri Evaluator::dtype_equals_code(DType d, const CondValue& code) {
  auto c = scalar_type_code(d);
  return tri(c && *c == std::get<int64_t>(code.v));
}

Tri Evaluator::lists_equal(const Node& n, const CondList& a, const CondList& b) {
  if (a.size() != b.size()) return Tri::False;
  Tri result = Tri::True;
  for (size_t i = 0; i < a.size(); ++i) {
    Tri t = equal(n, a[i], b[i]);
    if (t == Tri::False) return t;
    if (t == Tri::Unknown) result = Tri::Unknown;
  }
  return result;
}

Tri Evaluator::numbers_equal(const Node& n, const CondValue& a, const CondValue& b) {
  auto order = numbers_order(n, a, b);
  if (!order) return Tri::Unknown;
  return tri(*order == std::partial_ordering::equivalent);
}

// nullopt: depends on a symbol. Symbolic values are decided only when their
// difference is a constant (identical polynomials, or `s0 + 1` vs `s0`).
std::optional<std::partial_ordering> Evaluator::numbers_order(const Node& n, const CondValue& a,
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

Tri Evaluator::ordered(const Node& n, CompareOp op, const CondValue& a, const CondValue& b) {
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

Tri Evaluator::member(const Node& n, const CondValue& item, const CondValue& container) {
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

Tri Evaluator::identical(const Node& n, const CondValue& a, const CondValue& b) {
  VK ka = kind_of(a), kb = kind_of(b);
  if (ka == VK::Unknown || kb == VK::Unknown) return Tri::Unknown;
  if (ka == VK::None || kb == VK::None) return tri(ka == kb);
  if (ka == VK::Bool && kb == VK::Bool) return tri(std::get<bool>(a.v) == std::get<bool>(b.v));
  fail(n, fmt::format("'is' compares with None, True or False (got {} and {}); use '=='",
                      kind_name(ka), kind_name(kb)));
}

}  // namespace condition_detail

using condition_detail::EvalError;
using condition_detail::Evaluator;
using condition_detail::Tri;
using condition_detail::Truth;

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

CondResult evaluate(const CondExpr& e, const CondEnv& env, const CondFunctions& fns,
                    const CondOriginEnv& origins) {
  if (!e.root()) return {Verdict::True, {}};  // no condition
  Evaluator evaluator(e, env, fns, origins);
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

CondValueResult evaluate_value(const CondExpr& e, const CondEnv& env, const CondFunctions& fns) {
  CondValueResult r;
  if (!e.root()) {
    r.error = "empty expression";
    return r;
  }
  try {
    CondValue v = Evaluator(e, env, fns, {}).value(*e.root());
    if (const auto* u = std::get_if<CondValue::Unknown>(&v.v)) {
      r.error = fmt::format("{} is not known: {}", e.text(), u->why);
    } else {
      r.value = std::move(v);
    }
  } catch (const EvalError& err) {
    r.error = err.message;
    r.error_loc = condition_offset_loc(e.text(), e.loc(), err.offset);
  } catch (const std::exception& ex) {
    r.error = fmt::format("{}: {}", e.text(), ex.what());
    r.error_loc = e.loc();
  }
  return r;
}

}  // namespace eqfuse
