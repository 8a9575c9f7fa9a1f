// What the condition language's operators and names mean on values:
// arithmetic (Python's floor division and modulo, overflow-checked ints,
// bounded symbolic ints), tensor and dtype attributes and methods
// (x.shape, x.size(i)), subscripts and slices, and the builtin functions
// (len, prod, is_static, is_number, canon_dim(s), sorted, min/max, all/any, abs) and
// calls of registered C++ functions. Apart from condition_eval.cpp, which
// decides truth, because these compute values.
#include <algorithm>
#include <cmath>
#include <compare>
#include <limits>

#include "rewrites/condition_internal.hpp"

namespace eqfuse::condition_detail {

// --- arithmetic ---------------------------------------------------------------------

CondValue Evaluator::arith(const Node& n, ArithOp op, const CondValue& a, const CondValue& b) {
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
    fail(n,
         fmt::format("unsupported operand types for {}: {} ({}) and {} ({})", arith_op_text(op),
                     kind_name(ka), clipped(a.to_string()), kind_name(kb), clipped(b.to_string())));
  if (op == ArithOp::Div) {  // Python's true division: always a float
    if (ka == VK::Sym || kb == VK::Sym)
      return unknown(fmt::format("{} divides a symbolic int", text(n)));
    return CondValue{float_arith(n, op, to_double(a), to_double(b))};
  }
  if (ka == VK::Int && kb == VK::Int)
    return CondValue{int_arith(n, op, std::get<int64_t>(a.v), std::get<int64_t>(b.v))};
  if (ka == VK::Sym || kb == VK::Sym) {
    if (ka == VK::Float || kb == VK::Float)
      return unknown(fmt::format("{} mixes a float with a symbolic int", text(n)));
    return checked_sym(n, op, a, b);
  }
  return CondValue{float_arith(n, op, to_double(a), to_double(b))};
}

int64_t Evaluator::int_arith(const Node& n, ArithOp op, int64_t a, int64_t b) {
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
    case ArithOp::Div:  // never reaches ints (arith() makes it a float division)
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

double Evaluator::float_arith(const Node& n, ArithOp op, double a, double b) {
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
    case ArithOp::Div:
      if (b == 0) fail(n, "division by zero");
      return a / b;
    case ArithOp::Mod: {
      if (b == 0) fail(n, "modulo by zero");
      double m = std::fmod(a, b);
      return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;  // sign of the divisor, as Python
    }
  }
  return 0;
}

CondValue Evaluator::checked_sym(const Node& n, ArithOp op, const CondValue& a,
                                 const CondValue& b) {
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
    case ArithOp::Div:  // never reaches symbolic ints (arith() makes it Unknown)
    case ArithOp::FloorDiv:
      return from_symint(x.floordiv(y));
    case ArithOp::Mod:
      return from_symint(x.mod(y));
  }
  return from_symint(x);
}

CondValue Evaluator::negate(const Node& n, const CondValue& v) {
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

CondValue Evaluator::attribute(const Node& n, const CondValue& object) {
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

CondValue Evaluator::tensor_attribute(const Node& n, std::string_view name, const TensorType& t) {
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

CondValue Evaluator::numel(const Node& n, const Shape& shape) {
  CondValue product{int64_t{1}};
  for (const SymInt& d : shape) product = arith(n, ArithOp::Mul, product, from_symint(d));
  return product;
}

CondValue Evaluator::method(const Node& n) {
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

CondValue Evaluator::index(const Node& n, const CondValue& object, const CondValue& at) {
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

CondValue Evaluator::slice(const Node& n) {
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
int64_t Evaluator::slice_bound(const Node& n, const CondValue& bound, int64_t omitted,
                               int64_t size) {
  if (kind_of(bound) == VK::None) return omitted;
  if (kind_of(bound) != VK::Int)
    fail(n, fmt::format("slice bounds must be ints, not {}", kind_name(bound)));
  int64_t b = std::get<int64_t>(bound.v);
  if (b < 0) b = std::max<int64_t>(b + size, 0);
  return std::min(b, size);
}

// --- functions
// ----------------------------------------------------------------------------------

CondValue Evaluator::call(const Node& n) {
  if (n.name == "is_leaf" || n.name == "distinct" || n.name == "ordered") return origin_builtin(n);
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

// The argument must be a bare bound name: the question is about the value
// that name is bound to, which no expression over it has.
CondOrigin Evaluator::origin_of(const Node& arg) {
  if (arg.kind != CondKind::Name) fail(arg, "expected the name of an input or a value of the rule");
  std::optional<CondOrigin> o = origins_(arg.name);
  if (!o) fail(arg, fmt::format("unbound name '{}'", arg.name));
  return *o;
}

CondValue Evaluator::origin_builtin(const Node& n) {
  const bool leaf = n.name == "is_leaf";
  const size_t count = n.children.size();
  if (leaf ? count != 1 : count < 2)
    fail_at_name(n, fmt::format("{}() got {} arguments", n.name, count));
  if (!origins_) return unknown(fmt::format("{}() needs the matched graph", n.name));
  if (leaf) return CondValue{origin_of(n.children[0]).is_leaf};
  // ordered(): strictly increasing ids, i.e. distinct values in the order the
  // graph defines them (e-class ids follow the input's program order). A rule
  // symmetric in some inputs uses it to match each set once, not once per
  // permutation.
  const bool in_order = n.name == "ordered";
  std::vector<uint64_t> ids;
  for (const Node& c : n.children) {
    uint64_t id = origin_of(c).id;
    if (in_order ? (!ids.empty() && id <= ids.back())
                 : std::find(ids.begin(), ids.end(), id) != ids.end())
      return CondValue{false};
    ids.push_back(id);
  }
  return CondValue{true};
}

CondValue Evaluator::builtin(const Node& n, std::span<const CondValue> args) {
  std::string_view name = n.name;
  if (name == "len") return length(n, args[0]);
  if (name == "prod") return product(n, args[0]);
  if (name == "contiguous_strides") return contiguous_strides(n, args[0]);
  if (name == "is_static") return is_static(n, args[0]);
  if (name == "is_number") return number_literal(args[0]);
  if (name == "is_power_of_two") return power_of_two(args[0]);
  if (name == "canon_dim") return canon_dim(n, args[0], args[1]);
  if (name == "canon_dims") return canon_dims(n, args[0], args[1]);
  if (name == "sorted") return sorted(n, args[0]);
  if (name == "min" || name == "max") return extreme(n, args, name == "max");
  if (name == "all" || name == "any") return quantifier(n, args[0], name == "all");
  if (name == "int") return to_int(n, args[0]);
  return absolute(n, args[0]);
}

const CondList& Evaluator::list_argument(const Node& n, const CondValue& v) {
  if (kind_of(v) != VK::List)
    fail(n, fmt::format("{}() expects a list, got {} ({})", n.name, kind_name(v),
                        clipped(v.to_string())));
  return std::get<CondList>(v.v);
}

CondValue Evaluator::length(const Node& n, const CondValue& v) {
  if (v.is_unknown()) return v;
  if (kind_of(v) == VK::Str)
    return CondValue{static_cast<int64_t>(std::get<std::string>(v.v).size())};
  return CondValue{static_cast<int64_t>(list_argument(n, v).size())};
}

CondValue Evaluator::product(const Node& n, const CondValue& v) {
  if (v.is_unknown()) return v;
  CondValue result{int64_t{1}};
  for (const CondValue& item : list_argument(n, v)) result = arith(n, ArithOp::Mul, result, item);
  return result;
}

// Row-major strides of a list of sizes: the product of the sizes after each.
CondValue Evaluator::contiguous_strides(const Node& n, const CondValue& v) {
  if (v.is_unknown()) return v;
  const CondList& sizes = list_argument(n, v);
  CondList strides(sizes.size());
  CondValue running{int64_t{1}};
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = running;
    running = arith(n, ArithOp::Mul, running, sizes[i]);
  }
  return CondValue{std::move(strides)};
}

// A number known when the graph is built (an int or float literal), as a
// kernel's `float` attribute takes it; a tensor or a symbolic size is not.
CondValue Evaluator::number_literal(const CondValue& v) {
  VK k = kind_of(v);
  if (k == VK::Unknown) return v;
  return CondValue{k == VK::Int || k == VK::Float};
}

// A positive number 2^k (k may be negative): then x / v and x * (1 / v) are the same real
// number for every x, so they round alike in every float format. Not a number: False.
CondValue Evaluator::power_of_two(const CondValue& v) {
  switch (kind_of(v)) {
    case VK::Unknown:
      return v;
    case VK::Int: {
      const int64_t i = std::get<int64_t>(v.v);
      return CondValue{i > 0 && (i & (i - 1)) == 0};
    }
    case VK::Float: {
      const double d = std::get<double>(v.v);
      int exponent = 0;
      return CondValue{std::isfinite(d) && d > 0 && std::frexp(d, &exponent) == 0.5};
    }
    default:
      return CondValue{false};
  }
}

CondValue Evaluator::is_static(const Node& n, const CondValue& v) {
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

CondValue Evaluator::canon_dim(const Node& n, const CondValue& dim, const CondValue& rank) {
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

CondValue Evaluator::canon_dims(const Node& n, const CondValue& dims, const CondValue& rank) {
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
std::optional<std::partial_ordering> Evaluator::order_of(const Node& n, const CondValue& a,
                                                         const CondValue& b) {
  if (a.is_unknown() || b.is_unknown()) return std::nullopt;
  if (is_number(kind_of(a)) && is_number(kind_of(b))) return numbers_order(n, a, b);
  if (kind_of(a) == VK::Str && kind_of(b) == VK::Str)
    return std::get<std::string>(a.v) <=> std::get<std::string>(b.v);
  fail(n, fmt::format("{}() cannot order {} and {}", n.name, kind_name(a), kind_name(b)));
}

CondValue Evaluator::sorted(const Node& n, const CondValue& v) {
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

CondValue Evaluator::extreme(const Node& n, std::span<const CondValue> args, bool want_max) {
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

CondValue Evaluator::quantifier(const Node& n, const CondValue& v, bool want_all) {
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

CondValue Evaluator::absolute(const Node& n, const CondValue& v) {
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

// Python's int(): a bool is 0 or 1 (so a comparison can index a list), a float is
// truncated toward zero; ints and symbolic ints stay as they are.
CondValue Evaluator::to_int(const Node& n, const CondValue& v) {
  switch (kind_of(v)) {
    case VK::Unknown:
    case VK::Int:
    case VK::Sym:
      return v;
    case VK::Bool:
      return CondValue{static_cast<int64_t>(std::get<bool>(v.v) ? 1 : 0)};
    case VK::Float: {
      double d = std::get<double>(v.v);
      if (!std::isfinite(d) || std::fabs(d) >= 9.2e18)
        fail(n, fmt::format("int() of {} is out of range", d));
      return CondValue{static_cast<int64_t>(std::trunc(d))};
    }
    default:
      fail(n, fmt::format("int() expects a bool or a number, got {}", kind_name(v)));
  }
}

}  // namespace eqfuse::condition_detail
