// SymbolHints (symbolic dims evaluated to numbers) and check_sizes_fit, the
// check that every tensor's byte count fits in int64 under the hints. Apart
// from the kernel formula (cost_model.cpp): commands run the check on a whole
// graph before any cost is computed.
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/diagnostics.hpp"
#include "cost/cost_model.hpp"

namespace eqfuse {

SymInt::Bindings SymbolHints::bindings_for(const SymInt& s) const {
  SymInt::Bindings bindings = values;
  for (const std::string& atom : s.atoms()) bindings.try_emplace(atom, fallback);
  return bindings;
}

int64_t SymbolHints::evaluate(const SymInt& s) const {
  if (auto c = s.constant()) return *c;
  try {
    return s.evaluate_or(values, fallback);  // no copy of the hints per value
  } catch (const IntOverflow&) {
    // The same overflow again, with the message naming each symbol's value.
    return s.evaluate(bindings_for(s)).value_or(fallback);
  }
}

namespace {

// `s0=4611686018427387904, s1=1024`: the values `hints` gives the symbols of `t`.
std::string hinted_symbols(const TensorType& t, const SymbolHints& hints) {
  std::vector<std::string> parts;
  std::set<std::string> seen;
  for (const SymInt& d : *t.shape)
    for (const std::string& atom : d.atoms())
      if (seen.insert(atom).second)
        parts.push_back(fmt::format("{}={}", atom, hints.bindings_for(d).at(atom)));
  return fmt::format("{}", fmt::join(parts, ", "));
}

void check_tensor_bytes(const Node& n, const ValueType& t, const SymbolHints& hints) {
  for (const ValueType& e : t.elements) check_tensor_bytes(n, e, hints);
  if (!t.is_tensor() || !t.tensor.shape) return;
  try {
    std::optional<SymInt> bytes = t.tensor.bytes();
    if (bytes) (void)hints.evaluate(*bytes);
  } catch (const IntOverflow&) {
    fail(n.meta.loc, "size of {} '{}' {} with {} does not fit in 63 bits",
         n.kind == NodeKind::Placeholder ? "input" : "node", n.name, describe(t),
         hinted_symbols(t.tensor, hints));
  }
}

}  // namespace

void check_sizes_fit(const Graph& g, const SymbolHints& hints) {
  for (const Node& n : g.nodes()) check_tensor_bytes(n, n.type, hints);
}

}  // namespace eqfuse
