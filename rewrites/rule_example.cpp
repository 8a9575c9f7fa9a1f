#include "rewrites/rule_example.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace eqfuse {
namespace {

// Copies `g`, replacing each placeholder that has an example literal by that
// literal wherever it is used, and giving the others `types[name]`.
Graph substitute(const Graph& g, const std::map<std::string, Arg>& literals,
                 const std::map<std::string, ValueType>& types) {
  Graph out;
  out.name = g.name;
  std::vector<std::optional<Arg>> mapped(g.size());
  auto remap = [&](auto&& self, const Arg& a) -> Arg {
    if (a.is_node()) return *mapped[static_cast<size_t>(a.node().index)];
    if (a.is_list()) {
      std::vector<Arg> items;
      for (const Arg& x : a.as_list().items) items.push_back(self(self, x));
      return Arg::list(std::move(items), a.as_list().is_tuple);
    }
    return a;
  };
  for (size_t i = 0; i < g.size(); ++i) {
    const Node& n = g.nodes()[i];
    if (n.kind == NodeKind::Placeholder) {
      if (auto it = literals.find(n.name); it != literals.end()) {
        mapped[i] = it->second;
        continue;
      }
    }
    Node copy = n;
    for (Arg& a : copy.args) a = remap(remap, a);
    for (auto& [k, v] : copy.kwargs) v = remap(remap, v);
    if (n.kind == NodeKind::Placeholder) {
      auto t = types.find(n.name);
      copy.type = t == types.end() ? ValueType::unknown() : t->second;
      copy.type_annotated = copy.type.is_known();
    } else if (n.kind != NodeKind::Output) {
      copy.type = ValueType::unknown();
      copy.type_annotated = false;
    }
    mapped[i] = Arg(out.add(std::move(copy)));
  }
  return out;
}

std::optional<ValueType> input_type(const RuleDef& r, const std::string& name) {
  for (const Graph* g : {&r.search, &r.replace}) {
    if (auto ref = g->find(name); ref && g->node(*ref).type.is_known()) return g->node(*ref).type;
  }
  return std::nullopt;
}

const ValueType* named_type(const RuleExample& ex, std::string_view name) {
  for (const Graph* g : {&ex.search, &ex.replace}) {
    if (auto ref = g->find(name)) return &g->node(*ref).type;
  }
  return nullptr;
}

void check_output_types(const RuleDef& r, const RuleExample& ex) {
  auto a = ex.search.output_values(), b = ex.replace.output_values();
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const ValueType& ta = ex.search.node(a[i]).type;
    const ValueType& tb = ex.replace.node(b[i]).type;
    bool same = ta.kind == tb.kind && (!ta.is_tensor() || (ta.tensor.dtype == tb.tensor.dtype &&
                                                           ta.tensor.shape == tb.tensor.shape));
    if (!same)
      throw Error(fmt::format("rule '{}': on the example inputs, output {} of search is {} but "
                              "output {} of replace is {}",
                              r.name, i, describe(ta), i, describe(tb)),
                  r.loc);
  }
}

// The example's `let:` values, computed from its literals and input types.
std::map<std::string, Arg> let_literals(const RuleDef& rule,
                                        const std::map<std::string, ValueType>& types) {
  std::map<std::string, Arg> out;
  CondEnv env = [&](std::string_view name) -> std::optional<CondValue> {
    if (auto it = rule.example_values.find(std::string(name)); it != rule.example_values.end())
      return arg_cond_value(it->second);
    if (auto it = types.find(std::string(name)); it != types.end())
      return type_cond_value(it->second);
    if (name == kWorldSizeName) return CondValue{int64_t{kRuleProofWorldSize}};
    return std::nullopt;
  };
  for (const RuleDef::Let& l : rule.lets) {
    CondValueResult r = evaluate_value(l.expr, env);
    std::optional<Arg> lit = r.value ? literal_of_cond_value(*r.value) : std::nullopt;
    if (!lit) {
      throw Error(
          fmt::format("rule '{}': `let: {} = {}` on the example inputs: {}", rule.name, l.name,
                      l.expr.text(),
                      r.value ? fmt::format("{} is not a literal a call can take (a number, bool, "
                                            "str, dtype, None or a list of ints)",
                                            r.value->to_string())
                              : r.error),
          r.error_loc.known() ? r.error_loc : l.expr.loc());
    }
    out[l.name] = std::move(*lit);
  }
  return out;
}

}  // namespace

std::optional<Arg> literal_of_cond_value(const CondValue& v) {
  return std::visit(
      [](const auto& x) -> std::optional<Arg> {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return Arg::none();
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                             std::is_same_v<T, double> || std::is_same_v<T, std::string> ||
                             std::is_same_v<T, DType>) {
          return Arg(x);
        } else if constexpr (std::is_same_v<T, CondList>) {
          std::vector<Arg> items;
          for (const CondValue& item : x) {
            const auto* i = std::get_if<int64_t>(&item.v);
            if (i == nullptr) return std::nullopt;
            items.emplace_back(*i);
          }
          return Arg::list(std::move(items));
        } else {
          return std::nullopt;
        }
      },
      v.v);
}

CondValue arg_cond_value(const Arg& a) {
  return std::visit(
      [](const auto& v) -> CondValue {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return {std::monostate{}};
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int64_t> ||
                             std::is_same_v<T, double> || std::is_same_v<T, std::string> ||
                             std::is_same_v<T, DType>) {
          return {v};
        } else if constexpr (std::is_same_v<T, ArgList>) {
          CondList items;
          for (const Arg& x : v.items) items.push_back(arg_cond_value(x));
          return {std::move(items)};
        } else {
          return {CondValue::Unknown{"not a literal"}};
        }
      },
      a.value);
}

CondValue type_cond_value(const ValueType& t) {
  switch (t.kind) {
    case ValueType::Kind::Tensor:
      return {t.tensor};
    case ValueType::Kind::SymInt:
      if (t.sym) return t.sym->constant() ? CondValue{*t.sym->constant()} : CondValue{*t.sym};
      break;
    case ValueType::Kind::None:
      return {std::monostate{}};
    default:
      break;
  }
  return {CondValue::Unknown{"type unknown"}};
}

std::optional<RuleExample> instantiate_example(const RuleDef& rule, const OpRegistry& reg) {
  std::map<std::string, ValueType> types;
  for (const std::string& name : rule.inputs) {
    if (rule.example_values.count(name) || rule.find_let(name)) continue;
    auto t = input_type(rule, name);
    if (!t) return std::nullopt;
    types[name] = *t;
  }
  std::map<std::string, Arg> literals = rule.example_values;
  literals.merge(let_literals(rule, types));
  RuleExample ex{substitute(rule.search, literals, types),
                 substitute(rule.replace, literals, types)};
  for (auto* side : {&ex.search, &ex.replace}) {
    try {
      infer_types(*side, reg);
    } catch (const Error& e) {
      throw Error(fmt::format("rule '{}': the example inputs do not type-check on the {} side: {}",
                              rule.name, side == &ex.search ? "search" : "replace", e.what()),
                  e.loc().known() ? e.loc() : rule.loc);
    }
  }
  return ex;
}

void check_example(const RuleDef& rule, const OpRegistry& reg, const CondFunctions& fns) {
  std::optional<RuleExample> ex = instantiate_example(rule, reg);
  if (!ex) return;  // nothing to check without types
  check_output_types(rule, *ex);
  CondEnv env = [&](std::string_view name) -> std::optional<CondValue> {
    if (auto it = rule.example_values.find(std::string(name)); it != rule.example_values.end())
      return arg_cond_value(it->second);
    if (const ValueType* t = named_type(*ex, name)) return type_cond_value(*t);
    if (name == kWorldSizeName) return CondValue{int64_t{kRuleProofWorldSize}};
    return std::nullopt;
  };
  // The example's inputs are distinct graph inputs; its intermediates are neither.
  std::map<std::string, uint64_t, std::less<>> intermediate_ids;
  CondOriginEnv origins = [&](std::string_view name) -> std::optional<CondOrigin> {
    auto it = std::find(rule.inputs.begin(), rule.inputs.end(), name);
    if (it != rule.inputs.end())
      return CondOrigin{static_cast<uint64_t>(it - rule.inputs.begin()), true};
    if (named_type(*ex, name) == nullptr) return std::nullopt;
    auto [slot, added] = intermediate_ids.try_emplace(std::string(name),
                                                      rule.inputs.size() + intermediate_ids.size());
    return CondOrigin{slot->second, false};
  };
  for (const CondExpr& c : rule.where) {
    CondResult r = evaluate(c, env, fns, origins);
    if (r.verdict == Verdict::True) continue;
    throw Error(fmt::format("rule '{}': condition `{}` is {} on the example inputs: {}", rule.name,
                            c.text(), verdict_name(r.verdict), r.detail),
                r.error_loc.known() ? r.error_loc : c.loc());
  }
}

}  // namespace eqfuse
