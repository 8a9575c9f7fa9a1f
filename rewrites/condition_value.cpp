// The evaluator's value model: what kind a CondValue is, the conversions
// between ints, symbolic ints and floats, the renderings used in failure
// details (CondValue::to_string, Python's float repr, clipping), the bound
// that keeps symbolic arithmetic from overflowing, and the registry of named
// C++ condition functions. Kept apart from the evaluator (condition_eval.cpp,
// condition_builtins.cpp), which only uses these.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>

#include "rewrites/condition_internal.hpp"

namespace eqfuse {
namespace condition_detail {

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

std::string clipped(std::string s) {
  constexpr size_t kMax = 160;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

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

}  // namespace condition_detail

namespace {

// Python's repr of a float: 1e-06, 2.5, 1.0.
std::string float_text(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  std::string s = fmt::format("{}", d);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

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

}  // namespace eqfuse
