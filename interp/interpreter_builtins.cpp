// Python operator builtins (operator.add, math.ceil, sym_int, ...) on ints,
// floats and bools, which dynamic-shape graphs use to compute sizes. Calls
// with other operands are not builtins here and go to the opaque path.
#include <cmath>

#include "interp/interpreter_internal.hpp"

namespace eqfuse::interpreter_detail {

// Python builtins on SymInts/floats (`operator.mul(sym_size, 4)`) in
// dynamic-shape graphs. Tensor operands are left to the opaque path.
std::optional<RuntimeValue> Evaluation::eval_builtin(const Node& n) const {
  std::string_view op = n.target;
  for (std::string_view prefix : {"_operator.", "operator."}) {
    if (op.starts_with(prefix)) op.remove_prefix(prefix.size());
  }
  std::vector<RuntimeValue> args;
  for (const Arg& a : n.args) {
    RuntimeValue v;
    try {
      v = resolve(a);
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    if (!(v.is_int() || v.is_double() || v.is_bool())) return std::nullopt;
    args.push_back(v);
  }
  if (!n.kwargs.empty()) return std::nullopt;
  bool all_int = true;
  std::vector<double> f;
  std::vector<int64_t> i;
  for (const RuntimeValue& v : args) {
    if (v.is_double()) all_int = false;
    f.push_back(v.is_double() ? std::get<double>(v.v)
                              : static_cast<double>(v.is_int() ? v.as_int() : std::get<bool>(v.v)));
    i.push_back(v.is_int() ? v.as_int() : static_cast<int64_t>(f.back()));
  }
  auto num = [&](int64_t iv, double fv) { return all_int ? RuntimeValue(iv) : RuntimeValue(fv); };
  if (args.size() == 1) {
    if (op == "neg") return num(-i[0], -f[0]);
    if (op == "math.ceil" || op == "ceil")
      return RuntimeValue(static_cast<int64_t>(std::ceil(f[0])));
    if (op == "math.floor" || op == "floor")
      return RuntimeValue(static_cast<int64_t>(std::floor(f[0])));
    if (op == "torch.sym_float" || op == "sym_float") return RuntimeValue(f[0]);
    if (op == "torch.sym_int" || op == "sym_int") return RuntimeValue(static_cast<int64_t>(f[0]));
    return std::nullopt;
  }
  if (args.size() != 2) return std::nullopt;
  if (op == "add") return num(i[0] + i[1], f[0] + f[1]);
  if (op == "sub") return num(i[0] - i[1], f[0] - f[1]);
  if (op == "mul") return num(i[0] * i[1], f[0] * f[1]);
  if (op == "truediv") return RuntimeValue(f[0] / f[1]);
  if (op == "floordiv" || op == "mod") {
    if (all_int) {
      if (i[1] == 0) fail(n, "integer division by zero");
      int64_t q = i[0] / i[1];
      if ((i[0] % i[1] != 0) && ((i[0] < 0) != (i[1] < 0))) --q;
      return op == "floordiv" ? RuntimeValue(q) : RuntimeValue(i[0] - q * i[1]);
    }
    double q = std::floor(f[0] / f[1]);
    return op == "floordiv" ? RuntimeValue(q) : RuntimeValue(f[0] - q * f[1]);
  }
  if (op == "pow")
    return all_int && i[1] >= 0 ? RuntimeValue(static_cast<int64_t>(std::pow(f[0], f[1])))
                                : RuntimeValue(std::pow(f[0], f[1]));
  if (op == "eq") return RuntimeValue(f[0] == f[1]);
  if (op == "ne") return RuntimeValue(f[0] != f[1]);
  if (op == "lt") return RuntimeValue(f[0] < f[1]);
  if (op == "le") return RuntimeValue(f[0] <= f[1]);
  if (op == "gt") return RuntimeValue(f[0] > f[1]);
  if (op == "ge") return RuntimeValue(f[0] >= f[1]);
  return std::nullopt;
}

}  // namespace eqfuse::interpreter_detail
