// Shared meta-function helpers and the infer_types() driver.
#include "graph/meta/meta_common.hpp"

#include <algorithm>

#include "base/checked_int.hpp"
#include "graph/auto_functionalized.hpp"

namespace eqfuse {

void attach_builtin_meta(OpRegistry& reg) {
  add_elementwise_meta(reg);
  add_layout_meta(reg);
  add_reduction_meta(reg);
  add_matmul_meta(reg);
  add_npu_meta(reg);
  add_misc_meta(reg);
  add_indexing_meta(reg);
  add_nn_meta(reg);
  add_llm_meta(reg);
  add_collective_meta(reg);
}

namespace meta {

void set_all(OpRegistry& reg, std::initializer_list<std::string_view> names, const MetaFn& fn) {
  for (std::string_view n : names)
    if (reg.find(n)) reg.set_meta(n, fn);
}

ValueType tensor(DType dtype, std::optional<Shape> shape) {
  ValueType t;
  t.kind = ValueType::Kind::Tensor;
  t.tensor.dtype = dtype;
  t.tensor.shape = std::move(shape);
  return t;
}

DType for_each_tensor_item(const CallContext& ctx, std::string_view name,
                           const std::function<void(size_t, const TensorType*)>& item) {
  const Arg& list = ctx.arg(name);
  if (!list.is_list() || list.as_list().items.empty())
    fail("argument '{}' must be a non-empty list of tensors", name);
  DType d = DType::Unknown;
  bool dtype_known = true;
  size_t index = 0;
  for (const Arg& a : list.as_list().items) {
    const ValueType& t = a.is_node() ? ctx.type_of(a.node()) : ValueType{};
    if (!t.is_tensor()) {
      if (t.is_known()) fail("argument '{}'[{}] is not a tensor", name, index);
      dtype_known = false;
      item(index++, nullptr);
      continue;
    }
    d = index == 0 ? t.tensor.dtype : promote(d, t.tensor.dtype);
    if (t.tensor.dtype == DType::Unknown) dtype_known = false;
    item(index++, &t.tensor);
  }
  return dtype_known ? d : DType::Unknown;
}

ValueType same_as_self(const CallContext& ctx) {
  const TensorType* self = tensor_arg(ctx, "self");
  if (!self) return ValueType::unknown();
  return tensor(self->dtype, self->shape);
}

ValueType tuple(std::vector<ValueType> elements) {
  ValueType t;
  t.kind = ValueType::Kind::Tuple;
  t.elements = std::move(elements);
  return t;
}

ValueType symint(std::optional<SymInt> value) {
  ValueType t;
  t.kind = ValueType::Kind::SymInt;
  t.sym = std::move(value);
  return t;
}

const TensorType* tensor_arg(const CallContext& ctx, std::string_view name) {
  const ValueType& t = ctx.type(name);
  if (t.kind == ValueType::Kind::Unknown || t.kind == ValueType::Kind::None) return nullptr;
  if (!t.is_tensor()) fail("argument '{}' must be a tensor", name);
  return &t.tensor;
}

std::optional<Shape> shape_arg(const CallContext& ctx, std::string_view name) {
  const TensorType* t = tensor_arg(ctx, name);
  if (!t || !t->shape) return std::nullopt;
  return *t->shape;
}

DType dtype_of_arg(const CallContext& ctx, std::string_view name) {
  const TensorType* t = tensor_arg(ctx, name);
  return t ? t->dtype : DType::Unknown;
}

std::optional<SymInt> symint_value(const CallContext& ctx, const Arg& a) {
  if (a.is_int()) return SymInt(std::get<int64_t>(a.value));
  if (a.is_node()) {
    const ValueType& t = ctx.type_of(a.node());
    if (t.kind == ValueType::Kind::SymInt) return t.sym;
    if (t.kind == ValueType::Kind::Unknown) return std::nullopt;
    fail("expected an int or SymInt, got {}", describe(t));
  }
  return std::nullopt;
}

std::optional<SymInt> symint_arg(const CallContext& ctx, std::string_view name) {
  return symint_value(ctx, ctx.arg(name));
}

std::optional<int64_t> int_arg(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return std::nullopt;
  if (a.is_int()) return std::get<int64_t>(a.value);
  if (a.is_bool()) return std::get<bool>(a.value) ? 1 : 0;
  if (a.is_node()) {
    if (auto s = symint_value(ctx, a); s && s->constant()) return *s->constant();
    fail("argument '{}' must be a constant int", name);
  }
  fail("argument '{}' must be an int", name);
}

int64_t require_int(const CallContext& ctx, std::string_view name) {
  auto v = int_arg(ctx, name);
  if (!v) fail("argument '{}' must not be None", name);
  return *v;
}

std::optional<std::vector<SymInt>> symint_list_arg(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return std::nullopt;
  if (!a.is_list()) {
    auto v = symint_value(ctx, a);
    if (!v) return std::nullopt;
    return std::vector<SymInt>{*v};
  }
  std::vector<SymInt> out;
  for (const Arg& item : a.as_list().items) {
    if (!item.is_int() && !item.is_node()) fail("argument '{}' must be a list of ints", name);
    auto v = symint_value(ctx, item);
    if (!v) return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<std::vector<int64_t>> int_list_arg(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return std::nullopt;
  if (a.is_int()) return std::vector<int64_t>{std::get<int64_t>(a.value)};
  if (!a.is_list()) fail("argument '{}' must be a list of ints", name);
  std::vector<int64_t> out;
  for (const Arg& item : a.as_list().items) {
    if (!item.is_int()) fail("argument '{}' must be a list of int literals", name);
    out.push_back(std::get<int64_t>(item.value));
  }
  return out;
}

std::optional<DType> dtype_arg(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return std::nullopt;
  if (const auto* d = std::get_if<DType>(&a.value)) return *d;
  if (a.is_int()) {
    int64_t code = std::get<int64_t>(a.value);
    if (auto d = dtype_from_scalar_type(code)) return d;
    fail("argument '{}': unknown ScalarType code {}", name, code);
  }
  if (const auto* s = std::get_if<std::string>(&a.value)) {
    if (auto d = parse_dtype(*s)) return d;
  }
  if (const auto* l = std::get_if<Literal>(&a.value)) {
    if (auto d = parse_dtype(l->text)) return d;
  }
  fail("argument '{}' must be a dtype", name);
}

std::optional<bool> bool_arg(const CallContext& ctx, std::string_view name) {
  const Arg& a = ctx.arg(name);
  if (a.is_none()) return std::nullopt;
  if (a.is_bool()) return std::get<bool>(a.value);
  if (a.is_int()) return std::get<int64_t>(a.value) != 0;
  fail("argument '{}' must be a bool", name);
}

int64_t wrap_dim(int64_t dim, int64_t rank, std::string_view what) {
  int64_t r = std::max<int64_t>(rank, 1);  // scalars accept dim 0 / -1
  if (dim < -r || dim >= r) fail("{} {} is out of range for a rank-{} tensor", what, dim, rank);
  return dim < 0 ? dim + r : dim;
}

bool dims_differ(const SymInt& a, const SymInt& b) {
  if (a == b) return false;
  SymInt d = a - b;
  return d.is_constant();  // equal symbols, different constants; or two unequal constants
}

std::string shape_str(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += s[i].to_string();
  }
  return out + "]";
}

Shape broadcast(const Shape& a, const Shape& b, std::string_view a_name, std::string_view b_name) {
  size_t n = std::max(a.size(), b.size());
  Shape out(n);
  for (size_t i = 0; i < n; ++i) {
    const SymInt* da = i < n - a.size() ? nullptr : &a[i - (n - a.size())];
    const SymInt* db = i < n - b.size() ? nullptr : &b[i - (n - b.size())];
    if (!da) {
      out[i] = *db;
    } else if (!db) {
      out[i] = *da;
    } else if (*da == *db || *db == SymInt(1)) {
      out[i] = *da;
    } else if (*da == SymInt(1)) {
      out[i] = *db;
    } else if (da->is_constant() && db->is_constant()) {
      fail("shapes of '{}' {} and '{}' {} cannot be broadcast (dim {}: {} vs {})", a_name,
           shape_str(a), b_name, shape_str(b), i, da->to_string(), db->to_string());
    } else {
      // Different symbolic sizes: torch guards that they are equal (or one is
      // 1); keep the constant one if any, else the first.
      out[i] = db->is_constant() ? *db : *da;
    }
  }
  return out;
}

namespace {

// The floating dtypes' order in type promotion: f16 and bf16 tie (their
// promotion is f32), unlike their precision order (interp/equivalence.cpp).
int promotion_rank(DType d) {
  switch (d) {
    case DType::Float16:
      return 1;
    case DType::BFloat16:
      return 1;
    case DType::Float32:
      return 2;
    case DType::Float64:
      return 3;
    default:
      return 0;
  }
}

int int_rank(DType d) {
  switch (d) {
    case DType::Bool:
      return 0;
    case DType::UInt8:
      return 1;
    case DType::Int8:
      return 1;
    case DType::Int16:
      return 2;
    case DType::Int32:
      return 3;
    case DType::Int64:
      return 4;
    default:
      return -1;
  }
}

}  // namespace

DType promote(DType a, DType b) {
  if (a == DType::Unknown || b == DType::Unknown) return DType::Unknown;
  if (a == b) return a;
  if (dtype_is_float8(a) || dtype_is_float8(b))  // torch refuses these promotions too
    fail("no type promotion between {} and {}", dtype_torch_name(a), dtype_torch_name(b));
  if (a == DType::Complex64 || b == DType::Complex64) {
    // complex64 absorbs bool, integers and the floats narrower than float64; with float64
    // torch gives complex128, which eqfuse has no dtype for.
    DType other = a == DType::Complex64 ? b : a;
    if (dtype_is_quantized(other))
      fail("no type promotion between {} and {}", dtype_torch_name(a), dtype_torch_name(b));
    return other == DType::Float64 ? DType::Unknown : DType::Complex64;
  }
  bool fa = dtype_is_floating(a), fb = dtype_is_floating(b);
  if (fa && !fb) return a;
  if (fb && !fa) return b;
  if (fa && fb) {
    if (promotion_rank(a) == promotion_rank(b)) return DType::Float32;  // f16 with bf16
    return promotion_rank(a) > promotion_rank(b) ? a : b;
  }
  if (a == DType::Bool) return b;
  if (b == DType::Bool) return a;
  if ((a == DType::UInt8 && b == DType::Int8) || (a == DType::Int8 && b == DType::UInt8))
    return DType::Int16;
  if (int_rank(a) < 0 || int_rank(b) < 0)
    fail("no type promotion between {} and {}", dtype_torch_name(a), dtype_torch_name(b));
  return int_rank(a) > int_rank(b) ? a : b;
}

}  // namespace meta

namespace {

// A Python-number operand of a builtin call (`operator.mul(sym_size, 4)`).
struct PyNumber {
  ValueType::Kind kind = ValueType::Kind::Unknown;  // SymInt, SymFloat or SymBool
  std::optional<SymInt> sym;                        // SymInt: the value when known
};

std::optional<PyNumber> py_number(const Graph& g, const Arg& a) {
  using K = ValueType::Kind;
  if (a.is_int()) return PyNumber{K::SymInt, SymInt(std::get<int64_t>(a.value))};
  if (a.is_float()) return PyNumber{K::SymFloat, std::nullopt};
  if (a.is_bool()) return PyNumber{K::SymBool, std::nullopt};
  if (!a.is_node()) return std::nullopt;
  const ValueType& t = g.node(a.node()).type;
  switch (t.kind) {
    case K::SymInt:
    case K::Int:
      return PyNumber{K::SymInt, t.sym};
    case K::SymFloat:
    case K::Float:
      return PyNumber{K::SymFloat, std::nullopt};
    case K::SymBool:
    case K::Bool:
      return PyNumber{K::SymBool, std::nullopt};
    default:
      return std::nullopt;
  }
}

ValueType of_kind(ValueType::Kind k) {
  ValueType v;
  v.kind = k;
  return v;
}

// The value of int arithmetic on known SymInts; nullopt when an operand is
// unknown or the op has no polynomial form here.
std::optional<SymInt> symint_result(std::string_view op, const std::vector<PyNumber>& v) {
  for (const PyNumber& x : v)
    if (!x.sym) return std::nullopt;
  if (op == "neg") return -*v[0].sym;
  const SymInt &a = *v[0].sym, &b = *v[1].sym;
  if (op == "add") return a + b;
  if (op == "sub") return a - b;
  if (op == "mul") return a * b;
  if (b == SymInt(0)) return std::nullopt;  // Python raises; leave it to the run
  if (op == "floordiv") return a.floordiv(b);
  if (op == "mod") return a.mod(b);
  return std::nullopt;
}

// Python builtins on SymInts, SymFloats and SymBools in dynamic-shape
// graphs (`operator.*` as the parser names `+ - * / // % ** == < ...`,
// `torch.sym_float`, `torch.sym_int`, `math.ceil/floor`): their types, and
// the symbolic value of int arithmetic. Tensor operands are not builtins.
std::optional<ValueType> infer_python_op(const Graph& g, const Node& n) {
  using K = ValueType::Kind;
  std::string_view op = n.target;
  for (std::string_view prefix : {"_operator.", "operator."})
    if (op.starts_with(prefix)) op.remove_prefix(prefix.size());
  if (!n.kwargs.empty()) return std::nullopt;
  std::vector<PyNumber> v;
  for (const Arg& a : n.args) {
    auto x = py_number(g, a);
    if (!x) return std::nullopt;
    v.push_back(*x);
  }
  if (v.size() == 1) {
    if (op == "neg")
      return v[0].kind == K::SymFloat ? of_kind(K::SymFloat) : meta::symint(symint_result(op, v));
    if (op == "torch.sym_float" || op == "sym_float") return of_kind(K::SymFloat);
    if (op == "torch.sym_int" || op == "sym_int" || op == "math.ceil" || op == "math.floor")
      return meta::symint(v[0].kind == K::SymInt ? v[0].sym : std::nullopt);
    return std::nullopt;
  }
  if (v.size() != 2) return std::nullopt;
  static constexpr std::string_view kCompare[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  if (std::find(std::begin(kCompare), std::end(kCompare), op) != std::end(kCompare))
    return of_kind(K::SymBool);
  static constexpr std::string_view kArith[] = {"add", "sub",     "mul", "floordiv",
                                                "mod", "truediv", "pow"};
  if (std::find(std::begin(kArith), std::end(kArith), op) == std::end(kArith)) return std::nullopt;
  // Python: `/` always gives a float, a float operand makes a float, and
  // int ** int is an int only for a known non-negative exponent.
  bool floating = op == "truediv" || v[0].kind == K::SymFloat || v[1].kind == K::SymFloat;
  if (op == "pow" && !floating) {
    std::optional<int64_t> e = v[1].sym ? v[1].sym->constant() : std::nullopt;
    if (!e) return std::nullopt;
    if (*e < 0) return of_kind(K::SymFloat);
    if (!v[0].sym || *e > 64) return meta::symint(std::nullopt);
    SymInt r(1);
    for (int64_t k = 0; k < *e; ++k) r = r * *v[0].sym;
    return meta::symint(r);
  }
  if (floating) return of_kind(K::SymFloat);
  return meta::symint(symint_result(op, v));
}

// Annotated and inferred types disagree in a way no guard can explain.
bool tensor_types_conflict(const TensorType& ann, const TensorType& inf) {
  if (ann.dtype != DType::Unknown && inf.dtype != DType::Unknown && ann.dtype != inf.dtype)
    return true;
  if (!ann.shape || !inf.shape) return false;
  if (ann.shape->size() != inf.shape->size()) return true;
  for (size_t i = 0; i < ann.shape->size(); ++i)
    if (meta::dims_differ((*ann.shape)[i], (*inf.shape)[i])) return true;
  return false;
}

bool types_conflict(const ValueType& ann, const ValueType& inf) {
  if (!ann.is_known() || !inf.is_known()) return false;
  if (ann.kind != inf.kind) {
    // Python scalars and their symbolic forms are interchangeable.
    auto intlike = [](ValueType::Kind k) {
      return k == ValueType::Kind::SymInt || k == ValueType::Kind::Int;
    };
    return !(intlike(ann.kind) && intlike(inf.kind));
  }
  if (ann.kind == ValueType::Kind::Tensor) return tensor_types_conflict(ann.tensor, inf.tensor);
  if (ann.kind == ValueType::Kind::SymInt && ann.sym && inf.sym)
    return meta::dims_differ(*ann.sym, *inf.sym);
  if (ann.kind == ValueType::Kind::Tuple) {
    if (ann.elements.size() != inf.elements.size()) return true;
    for (size_t i = 0; i < ann.elements.size(); ++i)
      if (types_conflict(ann.elements[i], inf.elements[i])) return true;
  }
  return false;
}

ValueType getitem_type(const Graph& g, const Node& n) {
  const ValueType& src = g.node(n.getitem_source()).type;
  if (src.kind != ValueType::Kind::Tuple) return ValueType::unknown();
  int64_t i = n.getitem_index();
  int64_t size = static_cast<int64_t>(src.elements.size());
  if (i < 0) i += size;
  if (i < 0 || i >= size)
    fail(n.meta.loc, "node '{}': index {} out of range for a tuple of {} values", n.name,
         n.getitem_index(), size);
  return src.elements[static_cast<size_t>(i)];
}

// A tuple element the meta function left without a dtype (native_layer_norm's statistics
// of a half input, whose dtype depends on the device the graph was traced for) takes it
// from the annotation of the getitem reading it, so that the interpreter computes what the
// graph says.
void refine_tuple_element(Graph& g, const Node& getitem) {
  if (!getitem.type_annotated || !getitem.type.is_tensor()) return;
  const TensorType& ann = getitem.type.tensor;
  if (ann.dtype == DType::Unknown) return;
  Node& src = g.nodes()[static_cast<size_t>(getitem.getitem_source().index)];
  if (src.type.kind != ValueType::Kind::Tuple) return;
  int64_t i = getitem.getitem_index();
  int64_t size = static_cast<int64_t>(src.type.elements.size());
  if (i < 0) i += size;
  if (i < 0 || i >= size) return;
  ValueType& e = src.type.elements[static_cast<size_t>(i)];
  if (e.is_tensor() && e.tensor.dtype == DType::Unknown) e.tensor.dtype = ann.dtype;
}

void merge_type(Node& n, ValueType inferred) {
  if (!n.type_annotated || !n.type.is_known()) {
    n.type = std::move(inferred);
    return;
  }
  if (types_conflict(n.type, inferred)) {
    fail(n.meta.loc, "node '{}': annotated type {} does not match the inferred type {}", n.name,
         describe(n.type), describe(inferred));
  }
  // The annotation is kept: it may carry strides, device and guard-simplified dims.
}

// infer_python_op with its errors (a symbolic int leaving int64) naming the node.
std::optional<ValueType> python_op_type(const Graph& g, const Node& n) {
  try {
    return infer_python_op(g, n);
  } catch (const Error& e) {
    fail(n.meta.loc, "node '{}' ({}): {}", n.name, n.target, e.what());
  }
}

// A tensor whose element or byte count leaves int64 cannot exist (torch keeps both
// in int64); reporting it here, at the node that has it, keeps every later size
// computation (costs, reinplace savings, strides) inside int64.
void check_size_fits(const Node& n, const ValueType& t) {
  for (const ValueType& e : t.elements) check_size_fits(n, e);
  if (!t.is_tensor()) return;
  try {
    (void)t.tensor.bytes();
  } catch (const IntOverflow&) {
    fail(n.meta.loc, "size of {} '{}' {} does not fit in 63 bits",
         n.kind == NodeKind::Placeholder ? "input" : "node", n.name, describe(t));
  }
}

}  // namespace

void infer_types(Graph& g, const OpRegistry& reg) {
  auto type_of = [&g](NodeRef r) -> const ValueType& { return g.node(r).type; };
  for (size_t i = 0; i < g.size(); ++i) {
    Node& n = g.nodes()[i];
    switch (n.kind) {
      case NodeKind::Placeholder:
      case NodeKind::GetAttr:
      case NodeKind::Output:
        break;
      case NodeKind::GetItem:
        merge_type(n, getitem_type(g, n));
        refine_tuple_element(g, n);
        break;
      case NodeKind::Call: {
        if (n.op == kNoOp) {
          if (auto af = decode_auto_functionalized(n, reg)) {
            ValueType t;
            try {
              t = auto_functionalized_type(*af, g, reg);
            } catch (const Error& e) {
              fail(n.meta.loc, "node '{}' ({}): {}", n.name,
                   reg.info(af->op).schema.qualified_name(), e.what());
            }
            merge_type(n, std::move(t));
          } else if (auto t = python_op_type(g, n)) {
            // Annotations spell only SymInts (`Sym(...)`): a float or bool
            // result keeps whatever annotation the dump gives it.
            if (t->kind == ValueType::Kind::SymInt || !n.type_annotated || !n.type.is_known())
              merge_type(n, std::move(*t));
          }
          break;
        }
        const OpInfo& info = reg.info(n.op);
        if (!info.meta) break;
        ValueType inferred;
        try {
          CallContext ctx(info.schema, n.args, type_of);
          inferred = info.meta(ctx);
        } catch (const Error& e) {
          fail(n.meta.loc, "node '{}' ({}): {}", n.name, info.schema.qualified_name(), e.what());
        }
        merge_type(n, std::move(inferred));
        break;
      }
    }
    check_size_fits(n, n.type);
  }
}

}  // namespace eqfuse
