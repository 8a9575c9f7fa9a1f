#include "egraph/rewrite.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

namespace eqfuse {

Rewrite::Rewrite(std::string name, MultiPattern lhs, std::vector<Equality> rhs,
                 std::vector<Condition> conditions, std::vector<std::string> labels)
    : name_(std::move(name)),
      labels_(std::move(labels)),
      matcher_(std::move(lhs)),
      equalities_(std::move(rhs)),
      conditions_(std::move(conditions)) {
  validate_and_compile();
}

Rewrite::Rewrite(std::string name, MultiPattern lhs, CustomApplier applier,
                 std::vector<Condition> conditions, std::vector<std::string> labels)
    : name_(std::move(name)),
      labels_(std::move(labels)),
      matcher_(std::move(lhs)),
      custom_(std::move(applier)),
      conditions_(std::move(conditions)) {
  validate_and_compile();
}

Rewrite::Rewrite(std::string name, MultiPattern lhs, std::vector<ComputedVar> computed,
                 std::vector<Equality> rhs, std::vector<Condition> conditions,
                 std::vector<std::string> labels)
    : name_(std::move(name)),
      labels_(std::move(labels)),
      matcher_(std::move(lhs)),
      equalities_(std::move(rhs)),
      computed_(std::move(computed)),
      conditions_(std::move(conditions)) {
  validate_and_compile();
}

std::optional<uint32_t> Rewrite::subst_index(std::string_view var) const {
  for (size_t i = 0; i < subst_vars_.size(); ++i)
    if (subst_vars_[i] == var) return static_cast<uint32_t>(i);
  return std::nullopt;
}

void Rewrite::add_search_guard(const std::vector<std::string>& vars, Matcher::GuardFn fn) {
  std::vector<uint32_t> idx;
  for (const std::string& v : vars) {
    std::optional<uint32_t> i = matcher_.pattern().var_index(v);
    if (!i) throw Error(fmt::format("rewrite {}: guard on unknown variable '{}'", name_, v));
    idx.push_back(*i);
  }
  matcher_.add_guard(std::move(idx), std::move(fn));
}

void Rewrite::validate_and_compile() {
  if (name_.empty()) throw Error("rewrite needs a name");
  const MultiPattern& lhs = matcher_.pattern();
  subst_vars_ = matcher_.vars();
  for (const ComputedVar& c : computed_) {
    if (lhs.var_index(c.name) || std::count(subst_vars_.begin(), subst_vars_.end(), c.name))
      throw Error(fmt::format("rule '{}': computed variable ?{} is already bound", name_, c.name));
    subst_vars_.push_back(c.name);
  }
  for (const ComputedVar& c : computed_) {
    std::vector<uint32_t> slots;
    for (const std::string& v : c.inputs) {
      auto idx = lhs.var_index(v);
      if (!idx)
        throw Error(
            fmt::format("rule '{}': computed variable ?{} reads ?{}, which the left side "
                        "'{}' does not bind",
                        name_, c.name, v, lhs.to_string()));
      slots.push_back(1 + *idx);
    }
    computed_slots_.push_back(std::move(slots));
  }
  // The match slot of `var`: a searcher variable; on a right side also a computed one, whose
  // slots follow the searcher's (subst_vars_).
  auto slot_of = [&](const std::string& var, std::string_view where,
                     bool computed_ok = false) -> uint32_t {
    std::optional<uint32_t> idx = computed_ok ? subst_index(var) : lhs.var_index(var);
    if (!idx) {
      throw Error(fmt::format("rule '{}': variable ?{} in {} is not bound by the left side '{}'",
                              name_, var, where, lhs.to_string()));
    }
    return 1 + *idx;
  };
  if (!custom_ && equalities_.empty()) {
    throw Error(fmt::format("rule '{}' has no right side", name_));
  }
  for (const Equality& eq : equalities_) {
    CompiledEq c;
    c.target = eq.target.empty() ? 0 : slot_of(eq.target, "an equality target");
    for (const auto& v : eq.rhs.vars()) c.var_map.push_back(slot_of(v, "the right side", true));
    if (eq.lhs) {
      for (const auto& v : eq.lhs->vars())
        c.lhs_var_map.push_back(slot_of(v, "an equality's left term"));
    }
    c.rhs = flatten(eq.rhs, c.var_map);
    compiled_eqs_.push_back(std::move(c));
  }
  flat_only_ = computed_.empty() && !custom_;
  for (size_t i = 0; i < equalities_.size(); ++i)
    flat_only_ = flat_only_ && !equalities_[i].lhs && !compiled_eqs_[i].rhs.generic;
  for (const Condition& cond : conditions_) {
    std::vector<uint32_t> slots;
    for (const auto& v : cond.vars)
      slots.push_back(slot_of(v, fmt::format("condition '{}'", cond.name)));
    condition_slots_.push_back(std::move(slots));
  }
}

Rewrite::FlatTerm Rewrite::flatten(const Pattern& p, std::span<const uint32_t> var_map) {
  FlatTerm t;
  std::vector<uint32_t> where(p.nodes().size());  // pattern node -> src
  for (size_t i = 0; i < p.nodes().size(); ++i) {
    const PatternNode& n = p.nodes()[i];
    if (n.is_var) {
      where[i] = var_map[n.var];
      continue;
    }
    if (n.arity > FlatTerm::kMaxArity || t.nodes.size() == FlatTerm::kMaxNodes) {
      t.generic = true;
      return t;
    }
    FlatTerm::Node f{n.op, n.payload, n.arity, {}};
    auto kids = p.children(n);
    for (uint32_t k = 0; k < n.arity; ++k) f.src[k] = where[kids[k]];
    where[i] = FlatTerm::kFromNode + static_cast<uint32_t>(t.nodes.size());
    t.nodes.push_back(f);
  }
  if (p.root_node().is_var) t.root_slot = where.back();
  return t;
}

Id Rewrite::instantiate_flat(EGraph& g, const FlatTerm& t, std::span<const Id> match) {
  const FlatTerm::Node* nodes = t.nodes.data();
  const size_t count = t.nodes.size();
  if (count == 0) return match[t.root_slot];
  std::array<Id, FlatTerm::kMaxNodes> made;
  auto value = [&](uint32_t src) {
    return src >= FlatTerm::kFromNode ? made[src - FlatTerm::kFromNode] : match[src];
  };
  for (size_t i = 0; i < count; ++i) {
    const FlatTerm::Node& n = nodes[i];
    std::array<Id, FlatTerm::kMaxArity> kids;
    // A constant arity per case lets the inlined add() unroll its loops.
    switch (n.arity) {
      case 0:
        made[i] = g.add(n.op, {}, n.payload);
        break;
      case 1:
        kids[0] = value(n.src[0]);
        made[i] = g.add(n.op, std::span<const Id>(kids.data(), 1), n.payload);
        break;
      case 2:
        kids[0] = value(n.src[0]);
        kids[1] = value(n.src[1]);
        made[i] = g.add(n.op, std::span<const Id>(kids.data(), 2), n.payload);
        break;
      default:
        for (uint32_t k = 0; k < n.arity; ++k) kids[k] = value(n.src[k]);
        made[i] = g.add(n.op, {kids.data(), n.arity}, n.payload);
        break;
    }
  }
  return made[count - 1];
}

Rewrite Rewrite::parse(std::string name, std::string_view lhs, std::string_view rhs,
                       std::vector<Condition> conditions, std::vector<std::string> labels) {
  MultiPattern left = MultiPattern::parse(lhs);
  MultiPattern right = MultiPattern::parse(rhs);
  std::vector<Equality> eqs;
  for (const auto& part : right.parts()) eqs.push_back({part.root_var, part.pattern, std::nullopt});
  return Rewrite(std::move(name), std::move(left), std::move(eqs), std::move(conditions),
                 std::move(labels));
}

bool Rewrite::has_label(std::string_view l) const {
  return std::find(labels_.begin(), labels_.end(), l) != labels_.end();
}

std::string Rewrite::to_string() const {
  std::string rhs;
  for (const auto& eq : equalities_) {
    if (!rhs.empty()) rhs += ", ";
    if (eq.lhs) {
      rhs += fmt::format("{} = ", eq.lhs->to_string());
    } else if (!eq.target.empty()) {
      rhs += fmt::format("?{} = ", eq.target);
    }
    rhs += eq.rhs.to_string();
  }
  if (custom_) rhs = "<custom>";
  for (const ComputedVar& c : computed_)
    rhs += fmt::format(" where ?{} = f({})", c.name, fmt::join(c.inputs, ", "));
  return fmt::format("{}: {} => {}", name_, matcher_.pattern().to_string(), rhs);
}

int Rewrite::first_failing_condition(const EGraph& g, std::span<const Id> match) const {
  for (size_t i = 0; i < conditions_.size(); ++i) {
    cond_scratch_.clear();
    for (uint32_t s : condition_slots_[i]) cond_scratch_.push_back(match[s]);
    if (!conditions_[i].pred(g, cond_scratch_)) return static_cast<int>(i);
  }
  return -1;
}

size_t Rewrite::apply_match(EGraph& g, std::span<const Id> match, uint32_t rule_id) const {
  return apply_matches(g, match, rule_id, std::numeric_limits<size_t>::max()).unions;
}

Rewrite::Applied Rewrite::apply_matches(EGraph& g, std::span<const Id> matches, uint32_t rule_id,
                                        size_t node_limit) const {
  const size_t stride = matcher_.stride();
  Applied done;
  for (size_t off = 0; off < matches.size(); off += stride) {
    std::span<const Id> match(matches.data() + off, stride);
    if (flat_only_) {
      Reason why = Reason::by_rule(rule_id, match.subspan(1));
      for (const CompiledEq& c : compiled_eqs_) {
        if (g.merge(match[c.target], instantiate_flat(g, c.rhs, match), why)) ++done.unions;
      }
    } else {
      done.unions += apply_match_general(g, match, rule_id);
    }
    ++done.matches;
    if (g.num_nodes() >= node_limit) break;
  }
  return done;
}

size_t Rewrite::apply_match_general(EGraph& g, std::span<const Id> match, uint32_t rule_id) const {
  std::vector<Id> extended;
  if (!computed_.empty()) {  // the match, then each computed variable
    extended.assign(match.begin(), match.end());
    std::vector<Id> inputs;
    for (size_t i = 0; i < computed_.size(); ++i) {
      inputs.clear();
      for (uint32_t s : computed_slots_[i]) inputs.push_back(extended[s]);
      std::optional<Id> id = computed_[i].compute(g, inputs);
      if (!id) return 0;
      extended.push_back(*id);
    }
    match = extended;
  }
  Reason why = Reason::by_rule(rule_id, match.subspan(1));
  if (custom_) return custom_(g, match, why);
  size_t unions = 0;
  for (size_t i = 0; i < equalities_.size(); ++i) {
    const CompiledEq& c = compiled_eqs_[i];
    const Equality& eq = equalities_[i];
    Id lhs = eq.lhs ? eq.lhs->instantiate_mapped(g, match, c.lhs_var_map) : match[c.target];
    Id rhs = c.rhs.generic ? eq.rhs.instantiate_mapped(g, match, c.var_map)
                           : instantiate_flat(g, c.rhs, match);
    if (g.merge(lhs, rhs, why)) ++unions;
  }
  return unions;
}

std::vector<Rewrite> parse_rules(std::string_view name, std::string_view text,
                                 std::vector<Condition> conditions,
                                 std::vector<std::string> labels) {
  size_t bi = text.find("<=>");
  std::vector<Rewrite> out;
  if (bi != std::string_view::npos) {
    std::string_view a = text.substr(0, bi);
    std::string_view b = text.substr(bi + 3);
    out.push_back(Rewrite::parse(std::string(name), a, b, conditions, labels));
    out.push_back(Rewrite::parse(std::string(name) + "-rev", b, a, conditions, labels));
    return out;
  }
  size_t ui = text.find("=>");
  if (ui == std::string_view::npos) {
    throw Error(fmt::format("rule '{}': expected 'lhs => rhs' or 'lhs <=> rhs'", name));
  }
  out.push_back(Rewrite::parse(std::string(name), text.substr(0, ui), text.substr(ui + 2),
                               std::move(conditions), std::move(labels)));
  return out;
}

}  // namespace eqfuse
