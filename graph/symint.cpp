#include "graph/symint.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/checked_int.hpp"

namespace eqfuse {

using Bindings = std::map<std::string, int64_t, std::less<>>;
// Evaluates an opaque atom such as `(s0 + 1)//2` under bindings.
static std::optional<int64_t> evaluate_opaque(const std::string& atom, const Bindings& b);

SymInt::SymInt(int64_t value) : value_(value) {}

SymInt SymInt::symbol(std::string name) {
  SymInt s;
  s.terms_.mut().push_back({1, {std::move(name)}});
  return s;
}

std::optional<int64_t> SymInt::constant() const {
  if (terms_.empty()) return value_;
  return std::nullopt;
}

std::vector<SymInt::Term> SymInt::canonical_terms() const {
  if (!terms_.empty()) return terms_.get();
  if (value_ == 0) return {};
  return {Term{value_, {}}};
}

SymInt SymInt::from_terms(std::vector<Term> terms) {
  SymInt r;
  if (terms.size() == 1 && terms[0].atoms.empty())
    r.value_ = terms[0].coef;
  else if (!terms.empty())
    r.terms_ = std::move(terms);
  return r;
}

namespace {

std::string parenthesize(const SymInt& s) {
  std::string text = s.to_string();
  return s.is_constant() || text.find(' ') == std::string::npos ? text : "(" + text + ")";
}

[[noreturn]] void throw_overflow(const SymInt& a, std::string_view op, const SymInt& b) {
  throw IntOverflow(fmt::format("symbolic size {} {} {} does not fit in 63 bits", parenthesize(a),
                                op, parenthesize(b)));
}

}  // namespace

// Coefficients are merged in 128 bits, so a sum whose parts leave int64 but
// whose total does not (s0 + MAX - MAX) stays exact; only the merged
// coefficients must fit.
std::optional<std::vector<SymInt::Term>> SymInt::combine(std::vector<WideTerm> wide) {
  for (auto& t : wide) std::sort(t.atoms.begin(), t.atoms.end());
  std::sort(wide.begin(), wide.end(),
            [](const WideTerm& a, const WideTerm& b) { return a.atoms < b.atoms; });
  std::vector<Term> merged;
  for (size_t i = 0; i < wide.size();) {
    __int128 coef = 0;
    size_t j = i;
    for (; j < wide.size() && wide[j].atoms == wide[i].atoms; ++j) coef += wide[j].coef;
    if (coef != 0) {
      std::optional<int64_t> narrow = narrow_to_int64(coef);
      if (!narrow) return std::nullopt;
      merged.push_back({*narrow, std::move(wide[i].atoms)});
    }
    i = j;
  }
  std::sort(merged.begin(), merged.end());
  return merged;
}

SymInt SymInt::add_scaled(const SymInt& o, int sign) const {
  if (terms_.empty() && o.terms_.empty()) {
    std::optional<int64_t> sum =
        narrow_to_int64(static_cast<__int128>(value_) + sign * static_cast<__int128>(o.value_));
    if (!sum) throw_overflow(*this, sign > 0 ? "+" : "-", o);
    return *sum;
  }
  if (o.terms_.empty() || terms_.empty()) {
    // Symbolic plus a constant: only the constant term (last, as it sorts) changes.
    const bool right_constant = o.terms_.empty();
    SymInt r = right_constant ? *this : o;
    if (!right_constant && sign < 0)
      for (Term& t : r.terms_.mut()) {
        if (t.coef == std::numeric_limits<int64_t>::min()) throw_overflow(*this, "-", o);
        t.coef = -t.coef;
      }
    const __int128 c = right_constant ? sign * static_cast<__int128>(o.value_) : value_;
    if (c != 0) {
      const bool has_constant = r.terms_.back().atoms.empty();
      std::optional<int64_t> merged =
          narrow_to_int64(c + (has_constant ? r.terms_.back().coef : 0));
      if (!merged) throw_overflow(*this, sign > 0 ? "+" : "-", o);
      if (has_constant && *merged == 0)
        r.terms_.mut().pop_back();
      else if (has_constant)
        r.terms_.mut().back().coef = *merged;
      else
        r.terms_.mut().push_back({*merged, {}});
    }
    return r;
  }
  std::vector<WideTerm> wide;
  for (const Term& t : canonical_terms()) wide.push_back({t.coef, t.atoms});
  for (const Term& t : o.canonical_terms())
    wide.push_back({sign * static_cast<__int128>(t.coef), t.atoms});
  std::optional<std::vector<Term>> merged = combine(std::move(wide));
  if (!merged) throw_overflow(*this, sign > 0 ? "+" : "-", o);
  return from_terms(std::move(*merged));
}

SymInt SymInt::operator+(const SymInt& o) const {
  return add_scaled(o, 1);
}

SymInt SymInt::operator-(const SymInt& o) const {
  return add_scaled(o, -1);
}

SymInt SymInt::operator-() const {
  return SymInt().add_scaled(*this, -1);
}

SymInt SymInt::operator*(const SymInt& o) const {
  if (terms_.empty() && o.terms_.empty()) {
    std::optional<int64_t> product = checked_mul(value_, o.value_);
    if (!product) throw_overflow(*this, "*", o);
    return *product;
  }
  if (o.terms_.empty() || terms_.empty()) {
    // Symbolic times a constant scales every coefficient; the order of the
    // terms (by their atoms, which differ) stays.
    const int64_t c = terms_.empty() ? value_ : o.value_;
    if (c == 0) return 0;
    SymInt r = terms_.empty() ? o : *this;
    for (Term& t : r.terms_.mut()) {
      std::optional<int64_t> scaled = checked_mul(t.coef, c);
      if (!scaled) throw_overflow(*this, "*", o);
      t.coef = *scaled;
    }
    return r;
  }
  std::vector<WideTerm> wide;
  const std::vector<Term> left = canonical_terms(), right = o.canonical_terms();
  for (const auto& a : left)
    for (const auto& b : right) {
      std::optional<int64_t> coef = checked_mul(a.coef, b.coef);
      if (!coef) throw_overflow(*this, "*", o);
      WideTerm t{*coef, a.atoms};
      t.atoms.insert(t.atoms.end(), b.atoms.begin(), b.atoms.end());
      wide.push_back(std::move(t));
    }
  std::optional<std::vector<Term>> merged = combine(std::move(wide));
  if (!merged) throw_overflow(*this, "*", o);
  return from_terms(std::move(*merged));
}

namespace {
// Python `//` and `%` for b != 0 and b != -1 (INT64_MIN // -1 does not fit;
// callers treat -1 as negation).
int64_t python_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t python_mod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;  // opposite signs: cannot overflow
  return r;
}
}  // namespace

SymInt SymInt::floordiv(const SymInt& o) const {
  auto divisor = o.constant();
  if (divisor && *divisor == 0) throw std::invalid_argument("symbolic division by zero");
  if (divisor && *divisor == 1) return *this;
  if (divisor && *divisor == -1) return -*this;
  if (auto a = constant(); a && divisor) return python_floordiv(*a, *divisor);
  if (divisor) {
    bool exact = std::all_of(terms_.begin(), terms_.end(),
                             [&](const Term& t) { return t.coef % *divisor == 0; });
    if (exact) {
      SymInt r = *this;
      for (auto& t : r.terms_.mut()) t.coef /= *divisor;
      return r;
    }
  }
  return symbol(parenthesize(*this) + "//" + parenthesize(o));
}

SymInt SymInt::mod(const SymInt& o) const {
  auto divisor = o.constant();
  if (divisor && (*divisor == 1 || *divisor == -1)) return 0;
  if (auto a = constant(); a && divisor && *divisor != 0) return python_mod(*a, *divisor);
  if (divisor && *divisor != 0) {
    bool exact = std::all_of(terms_.begin(), terms_.end(),
                             [&](const Term& t) { return t.coef % *divisor == 0; });
    if (exact) return 0;
  }
  return symbol(parenthesize(*this) + "%" + parenthesize(o));
}

std::string SymInt::describe_bindings(const Bindings& bindings) const {
  std::vector<std::string> parts;
  for (const std::string& a : atoms())
    if (auto it = bindings.find(a); it != bindings.end())
      parts.push_back(fmt::format("{}={}", a, it->second));
  return fmt::format("{}", fmt::join(parts, ", "));
}

namespace {

// The value of canonical terms, each atom's value from `factor` (nullopt: the
// whole value is unknown); `overflow()` is thrown when a product or the sum
// leaves int64.
template <typename Terms, typename Factor, typename Overflow>
std::optional<int64_t> sum_of_terms(const Terms& terms, Factor factor, Overflow overflow) {
  __int128 total = 0;
  for (const auto& t : terms) {
    int64_t v = t.coef;
    for (const auto& a : t.atoms) {
      std::optional<int64_t> f = factor(a);
      if (!f) return std::nullopt;
      std::optional<int64_t> product = checked_mul(v, *f);
      if (!product) throw overflow();
      v = *product;
    }
    total += v;
  }
  std::optional<int64_t> value = narrow_to_int64(total);
  if (!value) throw overflow();
  return value;
}

}  // namespace

std::optional<int64_t> SymInt::evaluate(const Bindings& bindings) const {
  auto overflow = [&]() -> IntOverflow {
    return IntOverflow(fmt::format("symbolic size '{}' with {} does not fit in 63 bits",
                                   to_string(), describe_bindings(bindings)));
  };
  if (terms_.empty()) return value_;
  auto factor = [&](const std::string& a) -> std::optional<int64_t> {
    if (auto it = bindings.find(a); it != bindings.end()) return it->second;
    // Opaque atoms such as `(s0 + 1)//2` are re-parsed and evaluated.
    if (a.find_first_of("/%( ") == std::string::npos) return std::nullopt;
    try {
      return evaluate_opaque(a, bindings);
    } catch (const IntOverflow&) {
      throw overflow();
    }
  };
  return sum_of_terms(terms_, factor, overflow);
}

int64_t SymInt::evaluate_or(const Bindings& bindings, int64_t fallback) const {
  if (terms_.empty()) return value_;
  auto factor = [&](const std::string& a) -> std::optional<int64_t> {
    auto it = bindings.find(a);
    return it != bindings.end() ? it->second : fallback;
  };
  auto overflow = [&]() -> IntOverflow {
    return IntOverflow(fmt::format("symbolic size '{}' does not fit in 63 bits", to_string()));
  };
  return *sum_of_terms(terms_, factor, overflow);  // every atom has a value
}

std::optional<std::string> SymInt::single_symbol() const {
  if (terms_.size() != 1 || terms_[0].coef != 1 || terms_[0].atoms.size() != 1) return std::nullopt;
  return terms_[0].atoms[0];
}

std::vector<std::pair<int64_t, std::vector<std::string>>> SymInt::terms() const {
  std::vector<std::pair<int64_t, std::vector<std::string>>> out;
  for (const Term& t : canonical_terms()) out.emplace_back(t.coef, t.atoms);
  return out;
}

std::vector<std::string> SymInt::atoms() const {
  std::vector<std::string> out;
  for (const auto& t : terms_) out.insert(out.end(), t.atoms.begin(), t.atoms.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string SymInt::to_string() const {
  if (terms_.empty()) return std::to_string(value_);
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Term& t = terms_[i];
    // The magnitude is unsigned: -INT64_MIN does not fit in int64.
    const bool negative = t.coef < 0;
    uint64_t coef = negative ? 0 - static_cast<uint64_t>(t.coef) : static_cast<uint64_t>(t.coef);
    if (i > 0)
      out += negative ? " - " : " + ";
    else if (negative)
      out += "-";
    // An opaque atom (`(s0 + 1)//2`) is bracketed unless it stands alone:
    // `7*(s0 + 1)//2`, `-(s0 + 1)//2` and `s1*(s0 + 1)//2` divide after the
    // product in Python, not before.
    const bool alone = t.atoms.size() == 1 && coef == 1 && !(i == 0 && negative);
    std::string mono;
    for (size_t j = 0; j < t.atoms.size(); ++j) {
      // Repeated atoms print as powers: s0**2.
      size_t k = j;
      while (k + 1 < t.atoms.size() && t.atoms[k + 1] == t.atoms[j]) ++k;
      if (!mono.empty()) mono += "*";
      const bool opaque = t.atoms[j].find_first_of("/%") != std::string::npos;
      mono += opaque && !alone ? "(" + t.atoms[j] + ")" : t.atoms[j];
      if (k > j) mono += fmt::format("**{}", k - j + 1);
      j = k;
    }
    if (mono.empty())
      out += std::to_string(coef);
    else if (coef == 1)
      out += mono;
    else
      out += fmt::format("{}*{}", coef, mono);
  }
  return out;
}

size_t SymInt::hash() const {
  size_t h = 0x9e3779b97f4a7c15ull;
  // A constant hashes as its one canonical term did.
  if (terms_.empty() && value_ != 0)
    h ^= std::hash<int64_t>{}(value_) + 0x9e3779b9 + (h << 6) + (h >> 2);
  for (const auto& t : terms_) {
    h ^= std::hash<int64_t>{}(t.coef) + 0x9e3779b9 + (h << 6) + (h >> 2);
    for (const auto& a : t.atoms)
      h ^= std::hash<std::string>{}(a) + 0x9e3779b9 + (h << 6) + (h >> 2);
  }
  return h;
}

// ---------------------------------------------------------------- parsing

namespace {

class SymParser {
 public:
  // With bindings, symbols are replaced by their values while parsing, so
  // divisions fold to constants; an unbound symbol is an error.
  explicit SymParser(std::string_view text, const Bindings* bindings = nullptr)
      : text_(text), bindings_(bindings) {}

  // Without bindings (parsing text) arithmetic that leaves int64 is bad text at
  // an offset; with bindings (evaluating) it stays IntOverflow for the caller.
  SymInt parse_all() {
    SymInt r;
    try {
      r = parse_sum();
    } catch (const IntOverflow&) {
      if (bindings_) throw;
      error("arithmetic leaves the int64 range");
    }
    skip_ws();
    if (pos_ != text_.size()) error("unexpected character");
    return r;
  }

 private:
  [[noreturn]] void error(const char* what) {
    throw std::invalid_argument(
        fmt::format("bad symbolic expression '{}': {} at offset {}", text_, what, pos_));
  }
  void skip_ws() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool eat(std::string_view tok) {
    skip_ws();
    if (text_.substr(pos_, tok.size()) == tok) {
      pos_ += tok.size();
      return true;
    }
    return false;
  }
  SymInt parse_sum() {
    SymInt r = parse_product();
    for (;;) {
      if (eat("+"))
        r = r + parse_product();
      else if (eat("-"))
        r = r - parse_product();
      else
        return r;
    }
  }
  // Python's precedence: `-x**2` is -(x**2), `2**-1` takes a signed exponent.
  SymInt parse_product() {
    SymInt r = parse_unary();
    for (;;) {
      skip_ws();
      if (text_.substr(pos_, 2) == "**") return r;
      if (eat("//"))
        r = r.floordiv(parse_unary());
      else if (eat("*"))
        r = r * parse_unary();
      else if (eat("%"))
        r = r.mod(parse_unary());
      else
        return r;
    }
  }
  SymInt parse_power() {
    SymInt base = parse_atom();
    if (eat("**")) {
      SymInt e = parse_unary();
      auto n = e.constant();
      if (!n || *n < 0 || *n > 16) error("unsupported exponent");
      SymInt r = 1;
      for (int64_t i = 0; i < *n; ++i) r = r * base;
      return r;
    }
    return base;
  }
  SymInt parse_unary() {
    if (eat("-")) return -parse_unary();
    if (eat("+")) return parse_unary();
    return parse_power();
  }
  SymInt parse_atom() {
    skip_ws();
    if (pos_ >= text_.size()) error("expected a value");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      SymInt r = parse_sum();
      if (!eat(")")) error("expected ')'");
      return r;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        std::optional<int64_t> shifted = checked_mul(v, 10);
        std::optional<int64_t> next =
            shifted ? checked_add(*shifted, text_[pos_] - '0') : std::nullopt;
        if (!next) error("number out of the int64 range");
        v = *next;
        ++pos_;
      }
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string name(text_.substr(start, pos_ - start));
      skip_ws();
      if (pos_ < text_.size() && text_[pos_] == '(') {
        // Function call (floor, Max, ...): kept whole as an opaque atom.
        int depth = 0;
        size_t call_start = start;
        do {
          if (text_[pos_] == '(') ++depth;
          if (text_[pos_] == ')') --depth;
          ++pos_;
        } while (pos_ < text_.size() && depth > 0);
        if (depth != 0) error("unbalanced parentheses");
        if (bindings_) error("function calls cannot be evaluated");
        return SymInt::symbol(std::string(text_.substr(call_start, pos_ - call_start)));
      }
      if (bindings_) {
        auto it = bindings_->find(name);
        if (it == bindings_->end()) error("unbound symbol");
        return it->second;
      }
      return SymInt::symbol(std::move(name));
    }
    error("expected a number or symbol");
  }

  std::string_view text_;
  const Bindings* bindings_ = nullptr;
  size_t pos_ = 0;
};

}  // namespace

SymInt SymInt::parse(std::string_view text) {
  return SymParser(text).parse_all();
}

static std::optional<int64_t> evaluate_opaque(const std::string& atom, const Bindings& b) {
  try {
    return SymParser(atom, &b).parse_all().constant();
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

}  // namespace eqfuse
