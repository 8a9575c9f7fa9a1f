#include "graph/symint.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <stdexcept>

#include <fmt/format.h>

namespace eqfuse {

using Bindings = std::map<std::string, int64_t, std::less<>>;
// Evaluates an opaque atom such as `(s0 + 1)//2` under bindings.
static std::optional<int64_t> evaluate_opaque(const std::string& atom, const Bindings& b);

SymInt::SymInt(int64_t value) {
  if (value != 0) terms_.push_back({value, {}});
}

SymInt SymInt::symbol(std::string name) {
  SymInt s;
  s.terms_.push_back({1, {std::move(name)}});
  return s;
}

std::optional<int64_t> SymInt::constant() const {
  if (terms_.empty()) return 0;
  if (terms_.size() == 1 && terms_[0].atoms.empty()) return terms_[0].coef;
  return std::nullopt;
}

void SymInt::normalize() {
  for (auto& t : terms_) std::sort(t.atoms.begin(), t.atoms.end());
  std::sort(terms_.begin(), terms_.end(),
            [](const Term& a, const Term& b) { return a.atoms < b.atoms; });
  std::vector<Term> merged;
  for (auto& t : terms_) {
    if (!merged.empty() && merged.back().atoms == t.atoms)
      merged.back().coef += t.coef;
    else
      merged.push_back(std::move(t));
  }
  std::erase_if(merged, [](const Term& t) { return t.coef == 0; });
  std::sort(merged.begin(), merged.end());
  terms_ = std::move(merged);
}

SymInt SymInt::operator+(const SymInt& o) const {
  SymInt r = *this;
  r.terms_.insert(r.terms_.end(), o.terms_.begin(), o.terms_.end());
  r.normalize();
  return r;
}

SymInt SymInt::operator-() const {
  SymInt r = *this;
  for (auto& t : r.terms_) t.coef = -t.coef;
  return r;
}

SymInt SymInt::operator-(const SymInt& o) const {
  return *this + (-o);
}

SymInt SymInt::operator*(const SymInt& o) const {
  SymInt r;
  for (const auto& a : terms_)
    for (const auto& b : o.terms_) {
      Term t{a.coef * b.coef, a.atoms};
      t.atoms.insert(t.atoms.end(), b.atoms.begin(), b.atoms.end());
      r.terms_.push_back(std::move(t));
    }
  r.normalize();
  return r;
}

namespace {
int64_t python_floordiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
std::string parenthesize(const SymInt& s) {
  std::string text = s.to_string();
  return s.is_constant() || text.find(' ') == std::string::npos ? text : "(" + text + ")";
}
}  // namespace

SymInt SymInt::floordiv(const SymInt& o) const {
  auto divisor = o.constant();
  if (divisor && *divisor == 0) throw std::invalid_argument("symbolic division by zero");
  if (auto a = constant(); a && divisor) return python_floordiv(*a, *divisor);
  if (divisor && *divisor == 1) return *this;
  if (divisor) {
    bool exact = std::all_of(terms_.begin(), terms_.end(),
                             [&](const Term& t) { return t.coef % *divisor == 0; });
    if (exact) {
      SymInt r = *this;
      for (auto& t : r.terms_) t.coef /= *divisor;
      return r;
    }
  }
  return symbol(parenthesize(*this) + "//" + parenthesize(o));
}

SymInt SymInt::mod(const SymInt& o) const {
  auto divisor = o.constant();
  if (auto a = constant(); a && divisor && *divisor != 0)
    return *a - python_floordiv(*a, *divisor) * *divisor;
  if (divisor && *divisor != 0) {
    bool exact = std::all_of(terms_.begin(), terms_.end(),
                             [&](const Term& t) { return t.coef % *divisor == 0; });
    if (exact) return 0;
  }
  return symbol(parenthesize(*this) + "%" + parenthesize(o));
}

std::optional<int64_t> SymInt::evaluate(
    const std::map<std::string, int64_t, std::less<>>& bindings) const {
  int64_t total = 0;
  for (const auto& t : terms_) {
    int64_t v = t.coef;
    for (const auto& a : t.atoms) {
      auto it = bindings.find(a);
      if (it == bindings.end()) {
        // Opaque atoms such as `(s0 + 1)//2` are re-parsed and evaluated.
        if (a.find_first_of("/%( ") == std::string::npos) return std::nullopt;
        auto inner = evaluate_opaque(a, bindings);
        if (!inner) return std::nullopt;
        v *= *inner;
      } else {
        v *= it->second;
      }
    }
    total += v;
  }
  return total;
}

std::optional<std::string> SymInt::single_symbol() const {
  if (terms_.size() != 1 || terms_[0].coef != 1 || terms_[0].atoms.size() != 1) return std::nullopt;
  return terms_[0].atoms[0];
}

std::vector<std::pair<int64_t, std::vector<std::string>>> SymInt::terms() const {
  std::vector<std::pair<int64_t, std::vector<std::string>>> out;
  for (const Term& t : terms_) out.emplace_back(t.coef, t.atoms);
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
  if (terms_.empty()) return "0";
  std::string out;
  for (size_t i = 0; i < terms_.size(); ++i) {
    const Term& t = terms_[i];
    int64_t coef = t.coef;
    if (i > 0) {
      out += coef < 0 ? " - " : " + ";
      coef = coef < 0 ? -coef : coef;
    } else if (coef < 0 && !t.atoms.empty()) {
      out += "-";
      coef = -coef;
    }
    std::string mono;
    for (size_t j = 0; j < t.atoms.size(); ++j) {
      // Repeated atoms print as powers: s0**2.
      size_t k = j;
      while (k + 1 < t.atoms.size() && t.atoms[k + 1] == t.atoms[j]) ++k;
      if (!mono.empty()) mono += "*";
      mono += t.atoms[j];
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

  SymInt parse_all() {
    SymInt r = parse_sum();
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
  SymInt parse_product() {
    SymInt r = parse_power();
    for (;;) {
      skip_ws();
      if (text_.substr(pos_, 2) == "**") return r;
      if (eat("//"))
        r = r.floordiv(parse_power());
      else if (eat("*"))
        r = r * parse_power();
      else if (eat("%"))
        r = r.mod(parse_power());
      else
        return r;
    }
  }
  SymInt parse_power() {
    SymInt base = parse_unary();
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
    return parse_atom();
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
        v = v * 10 + (text_[pos_] - '0');
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
