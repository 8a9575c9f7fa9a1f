// Symbolic integers for tensor dims: `4096`, `s0`, `s0*4`, `s57 + s75`.
// A SymInt is a polynomial with int64 coefficients over atoms (symbol names
// such as `s0`, or opaque sub-expressions such as `floor(s0/3)` that the
// polynomial form cannot express). Polynomials are kept canonical (sorted
// terms, no zero coefficients) so equal expressions compare and hash equal.
// Arithmetic is exact or fails: a coefficient or value that leaves int64 throws
// IntOverflow (base/checked_int.hpp, an eqfuse::Error) instead of wrapping.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/checked_int.hpp"

namespace eqfuse {

class SymInt {
 public:
  using Bindings = std::map<std::string, int64_t, std::less<>>;

  SymInt() = default;     // zero
  SymInt(int64_t value);  // NOLINT: implicit, dims are usually constants
  static SymInt symbol(std::string name);

  bool is_constant() const { return terms_.empty(); }
  // Value if constant.
  std::optional<int64_t> constant() const;
  bool is_symbolic() const { return !is_constant(); }

  // Throw IntOverflow when a coefficient of the result leaves int64.
  SymInt operator+(const SymInt& o) const;
  SymInt operator-(const SymInt& o) const;
  SymInt operator*(const SymInt& o) const;
  SymInt operator-() const;
  // Python `//`: exact when every coefficient is divisible by a constant
  // divisor, otherwise an opaque atom `(a//b)` (constants fold exactly).
  SymInt floordiv(const SymInt& o) const;
  SymInt mod(const SymInt& o) const;
  bool operator==(const SymInt& o) const { return value_ == o.value_ && terms_ == o.terms_; }
  bool operator!=(const SymInt& o) const { return !(*this == o); }
  // The order of the canonical term lists: 0 first, other constants by
  // value, a symbolic value before every constant but 0.
  bool operator<(const SymInt& o) const {
    if (terms_.empty() && o.terms_.empty())
      return value_ != o.value_ && (value_ == 0 || (o.value_ != 0 && value_ < o.value_));
    return canonical_terms() < o.canonical_terms();
  }

  // Evaluates with concrete values for atoms; nullopt if an atom is unbound.
  // Throws IntOverflow naming the expression and the bindings when the value
  // (or a product on the way) leaves int64.
  std::optional<int64_t> evaluate(const Bindings& bindings) const;
  // The value with every atom `bindings` lacks (an opaque one as a whole)
  // taken as `fallback`: evaluate() over the bindings so completed, without
  // building them. Throws IntOverflow, whose message names the expression
  // only; evaluate() names the bindings too.
  int64_t evaluate_or(const Bindings& bindings, int64_t fallback) const;
  // Symbol names used (opaque atoms are not split).
  std::vector<std::string> atoms() const;
  // The symbol when the value is exactly one symbol (`s0`, not `2*s0` or `s0 + 1`).
  std::optional<std::string> single_symbol() const;
  // The canonical terms: coefficient and the atoms multiplied (sorted, repeated for
  // powers; empty for the constant term). For building the value from its atoms.
  std::vector<std::pair<int64_t, std::vector<std::string>>> terms() const;
  // Sympy-like printing: `4096`, `s0`, `4*s0`, `s57 + s75`, `s0 - 1`.
  std::string to_string() const;
  size_t hash() const;

  // Parses `s0`, `4*s0`, `s0*4`, `s57 + s75`, `(s0 + 1)//2`, `-3`. Throws
  // std::invalid_argument with a message naming the offset on bad text,
  // numbers and coefficients that leave int64 included.
  static SymInt parse(std::string_view text);

 private:
  struct Term {
    int64_t coef = 0;
    std::vector<std::string> atoms;  // sorted, repeated for powers
    bool operator==(const Term&) const = default;
    bool operator<(const Term& o) const {
      if (atoms != o.atoms) {
        // Constants sort last, as sympy prints them.
        if (atoms.empty()) return false;
        if (o.atoms.empty()) return true;
        return atoms < o.atoms;
      }
      return coef < o.coef;
    }
  };
  // A term before its coefficient is known to fit.
  struct WideTerm {
    __int128 coef = 0;
    std::vector<std::string> atoms;
  };
  // Canonical terms (sorted, merged, no zeros); nullopt when a merged
  // coefficient leaves int64.
  static std::optional<std::vector<Term>> combine(std::vector<WideTerm> wide);
  // *this + sign * o (sign is 1 or -1), checked.
  SymInt add_scaled(const SymInt& o, int sign) const;
  // `s0=4, s1=8`: the bindings of this value's atoms, for messages.
  std::string describe_bindings(const Bindings& bindings) const;
  // The value as canonical terms (a constant is one term without atoms, 0 none).
  std::vector<Term> canonical_terms() const;
  // The value of canonical terms: a constant when no term has atoms.
  static SymInt from_terms(std::vector<Term> terms);

  // The terms of a symbolic value, shared between copies and copied only
  // when one of them is changed: shapes are copied far more often than
  // computed, and a copy then costs a reference count, not two allocations.
  class TermList {
   public:
    TermList() = default;
    TermList(std::vector<Term> terms)  // NOLINT: built from computed terms
        : p_(terms.empty() ? nullptr : std::make_shared<std::vector<Term>>(std::move(terms))) {}
    const std::vector<Term>& get() const { return p_ ? *p_ : empty_list(); }
    operator const std::vector<Term>&() const { return get(); }  // NOLINT
    bool empty() const { return !p_ || p_->empty(); }
    size_t size() const { return p_ ? p_->size() : 0; }
    const Term& operator[](size_t i) const { return (*p_)[i]; }
    const Term& back() const { return p_->back(); }
    auto begin() const { return get().begin(); }
    auto end() const { return get().end(); }
    // The terms for changing, copied first when another value shares them.
    std::vector<Term>& mut() {
      if (!p_) {
        p_ = std::make_shared<std::vector<Term>>();
      } else if (p_.use_count() > 1) {
        p_ = std::make_shared<std::vector<Term>>(*p_);
      }
      return *p_;
    }
    bool operator==(const TermList& o) const { return p_ == o.p_ || get() == o.get(); }

   private:
    static const std::vector<Term>& empty_list() {
      static const std::vector<Term> kEmpty;
      return kEmpty;
    }
    std::shared_ptr<std::vector<Term>> p_;
  };

  // A constant is `value_` with no terms: sizes are mostly constants, and
  // copying one then allocates nothing. A symbolic value keeps its canonical
  // terms (at least one with atoms) and `value_` 0.
  int64_t value_ = 0;
  TermList terms_;
};

}  // namespace eqfuse

template <>
struct std::hash<eqfuse::SymInt> {
  size_t operator()(const eqfuse::SymInt& s) const { return s.hash(); }
};
