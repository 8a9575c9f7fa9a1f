// RuleLibrary: adding and validating rules, and the condition values of
// e-classes. Compilation into rewrites is in rule_compile.cpp.
#include "rewrites/rule.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "base/embedded.hpp"
#include "bridge/from_graph.hpp"
#include "rewrites/rule_check.hpp"
#include "rewrites/rule_example.hpp"
#include "rewrites/rule_file.hpp"

namespace eqfuse {

bool is_symmetry_condition(std::string_view text) {
  return text.starts_with("ordered(") && text.ends_with(")") &&
         text.find(" and ") == std::string_view::npos &&
         text.find(" or ") == std::string_view::npos;
}

bool RuleDef::has_label(std::string_view l) const {
  return std::find(labels.begin(), labels.end(), l) != labels.end();
}

const RuleDef::Let* RuleDef::find_let(std::string_view input) const {
  for (const Let& l : lets)
    if (l.name == input) return &l;
  return nullptr;
}

std::set<std::string> RuleDef::introduced_ops() const {
  std::set<std::string> in_search, out;
  for (const Node& n : search.nodes())
    if (n.kind == NodeKind::Call) in_search.insert(n.target);
  for (const Node& n : replace.nodes())
    if (n.kind == NodeKind::Call && !in_search.count(n.target)) out.insert(n.target);
  return out;
}

std::string RuleDef::load_check_text() const {
  switch (load_check) {
    case LoadCheck::Builtin:
      return "";
    case LoadCheck::Proven:
      return "proven at load on random inputs";
    case LoadCheck::Trusted:
      return "trusted, not checked at load";
    case LoadCheck::NotChecked:
      return "not checked at load: " + load_check_note;
  }
  return "";
}

// ---- RuleMatch ---------------------------------------------------------------

Id RuleMatch::class_of(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() || it->second == kNoId ? kNoId : g_.find(it->second);
}

ValueType RuleMatch::type(std::string_view name) const {
  Id c = class_of(name);
  if (c == kNoId || types_ == nullptr) return ValueType::unknown();
  return types_->data(c).type;
}

std::optional<Constant> RuleMatch::constant(std::string_view name) const {
  Id c = class_of(name);
  if (c == kNoId) return std::nullopt;
  return g_.constant_of(c);
}

// ---- condition values of classes ----------------------------------------------

CondValue constant_cond_value(const Constant& c) {
  switch (c.kind) {
    case ConstKind::Int:
      return {c.as_int()};
    case ConstKind::Float:
      return {c.as_float()};
    case ConstKind::Bool:
      return {c.as_bool()};
    case ConstKind::DType:
      return {c.as_dtype()};
    case ConstKind::String:
      return {std::string(c.as_string())};
    case ConstKind::IntList: {
      CondList items;
      for (int64_t v : c.as_int_list()) items.push_back({v});
      return {std::move(items)};
    }
    case ConstKind::None:
      break;
  }
  return {std::monostate{}};
}

namespace {

CondValue type_value(const TensorFact& f, const EGraph& g, Id cls) {
  if (f.constant) return {*f.constant};
  CondValue v = type_cond_value(f.type);
  if (v.is_unknown())
    return {CondValue::Unknown{fmt::format("nothing is known about {}", g.term_string(cls, 2))}};
  return v;
}

}  // namespace

CondValue class_cond_value(const EGraph& g, const TensorAnalysis* types, Id cls) {
  cls = g.find(cls);
  if (auto c = g.constant_of(cls)) return constant_cond_value(*c);
  static const Symbol kListSym = Symbol::intern(graph_ops::kList);
  for (Id n : g.class_nodes(cls)) {
    NodeView v = g.node(n);
    if (v.op != kListSym) continue;
    CondList items;
    for (Id child : v.children) items.push_back(class_cond_value(g, types, child));
    return {std::move(items)};
  }
  if (types == nullptr) return {CondValue::Unknown{"no tensor analysis attached to the e-graph"}};
  return type_value(types->data(cls), g, cls);
}

// ---- RuleLibrary -------------------------------------------------------------

namespace {

[[noreturn]] void rule_error(const RuleDef& r, const std::string& msg) {
  throw Error(fmt::format("rule '{}': {}", r.name, msg), r.loc);
}

std::vector<std::string> input_names(const Graph& g) {
  std::vector<std::string> out;
  for (NodeRef p : g.placeholders()) out.push_back(g.node(p).name);
  return out;
}

// Names of inputs actually referenced by some node of the graph.
std::set<std::string> used_inputs(const Graph& g) {
  std::set<std::string> used;
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::Placeholder) continue;
    std::vector<NodeRef> refs = node_inputs(n);
    for (NodeRef r : refs) {
      const Node& src = g.node(r);
      if (src.kind == NodeKind::Placeholder) used.insert(src.name);
    }
  }
  return used;
}

void resolve_side(RuleDef& r, Graph& g, const OpRegistry& reg, std::string_view side) {
  std::vector<std::string> unknown = resolve_ops(g, reg);
  if (!unknown.empty()) {
    for (const Node& n : g.nodes()) {
      if (n.kind == NodeKind::Call && n.op == kNoOp)
        throw Error(fmt::format("rule '{}': unknown op '{}' in {} (ops must be in the op "
                                "catalog, see `eqfuse ops`)",
                                r.name, n.target, side),
                    n.meta.loc);
    }
  }
  for (const Node& n : g.nodes()) {
    if (n.kind == NodeKind::GetAttr)
      throw Error(fmt::format("rule '{}': attributes (`self.{}`) are not allowed in {}", r.name,
                              n.target, side),
                  n.meta.loc);
  }
}

void check_inputs(const RuleDef& r) {
  std::vector<std::string> s = input_names(r.search), p = input_names(r.replace);
  if (s != p)
    rule_error(r, fmt::format("search and replace must take the same inputs in the same order "
                              "(search: {}; replace: {})",
                              fmt::join(s, ", "), fmt::join(p, ", ")));
  std::set<std::string> in_search = used_inputs(r.search), in_replace = used_inputs(r.replace);
  for (const std::string& name : in_replace) {
    if (!in_search.count(name) && !r.find_let(name))
      rule_error(r, fmt::format("input '{}' is used by replace but not by search, so a match "
                                "cannot bind it",
                                name));
  }
  if (r.bidirectional) {
    for (const std::string& name : in_search) {
      if (!in_replace.count(name))
        rule_error(r, fmt::format("input '{}' is used by search but not by replace; the reverse "
                                  "direction could not bind it: write the rule with `=>`",
                                  name));
    }
  }
}

void check_outputs(const RuleDef& r) {
  auto outs_s = r.search.output_values(), outs_r = r.replace.output_values();
  if (outs_s.empty()) rule_error(r, "search returns nothing");
  if (outs_s.size() != outs_r.size())
    rule_error(r, fmt::format("search returns {} values but replace returns {}", outs_s.size(),
                              outs_r.size()));
  auto bare_input = [](const Graph& g, NodeRef n) {
    return g.node(n).kind == NodeKind::Placeholder;
  };
  for (size_t i = 0; i < outs_s.size(); ++i) {
    if (bare_input(r.search, outs_s[i]))
      rule_error(r, fmt::format("search output {} is the input '{}': such a rule would match "
                                "every e-class",
                                i, r.search.node(outs_s[i]).name));
    if (r.bidirectional && bare_input(r.replace, outs_r[i]))
      rule_error(r, fmt::format("replace output {} is the input '{}', so the reverse direction "
                                "would match every e-class: write the rule with `=>`",
                                i, r.replace.node(outs_r[i]).name));
  }
}

// Conditions run before `let:` values exist, so they cannot name them.
std::vector<std::string> condition_names(const RuleDef& r) {
  std::vector<std::string> names = r.inputs;
  for (const Graph* g : {&r.search, &r.replace})
    for (const Node& n : g->nodes())
      if (n.kind != NodeKind::Output) names.push_back(n.name);
  std::erase_if(names, [&](const std::string& n) { return r.find_let(n) != nullptr; });
  names.emplace_back(kWorldSizeName);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// A `let:` names an input that search leaves unused, in a `=>` rule, and reads only inputs
// that search binds (its expression is checked like a condition's).
void check_lets(const RuleDef& r, const CondFunctions& fns) {
  if (r.lets.empty()) return;
  if (r.bidirectional)
    rule_error(r,
               "a rule with `let:` must be written with `=>` (the reverse direction could "
               "not compute the search side's values back)");
  std::set<std::string> in_search = used_inputs(r.search);
  std::vector<std::string> bound;
  for (const std::string& n : r.inputs)
    if (in_search.count(n)) bound.push_back(n);
  bound.emplace_back(kWorldSizeName);
  for (const RuleDef::Let& l : r.lets) {
    if (std::count_if(r.lets.begin(), r.lets.end(),
                      [&](const RuleDef::Let& o) { return o.name == l.name; }) > 1)
      throw Error(fmt::format("rule '{}': `let: {}` is given twice", r.name, l.name), l.expr.loc());
    if (std::find(r.inputs.begin(), r.inputs.end(), l.name) == r.inputs.end())
      throw Error(fmt::format("rule '{}': `let: {}` names no input (add it to both functions' "
                              "parameters)",
                              r.name, l.name),
                  l.expr.loc());
    if (in_search.count(l.name))
      throw Error(fmt::format("rule '{}': `let: {}` is used by search, which must bind it from "
                              "the graph instead",
                              r.name, l.name),
                  l.expr.loc());
    if (r.example_values.count(l.name))
      throw Error(fmt::format("rule '{}': '{}' is computed by `let:`; give examples of the "
                              "inputs it reads instead",
                              r.name, l.name),
                  l.expr.loc());
    check_condition(l.expr, bound, fns);
  }
}

// An `assume:` relates inputs of the rule through an op of the catalog; the rule is
// labelled `assumption` so that it stays off until someone accepts the assumption.
void check_assumptions(RuleDef& r, const OpRegistry& reg) {
  const std::set<std::string> bound = used_inputs(r.search);
  for (const InputAssumption& a : r.assumes) {
    std::vector<std::string> names = a.sources;
    names.push_back(a.derived);
    for (const std::string& name : names) {
      if (std::find(r.inputs.begin(), r.inputs.end(), name) == r.inputs.end())
        throw Error(fmt::format("rule '{}': `assume: {}` names '{}', which is not an input", r.name,
                                a.text(), name),
                    a.loc);
      if (!bound.count(name))
        throw Error(fmt::format("rule '{}': `assume: {}` names '{}', which search does not "
                                "use, so no match binds it",
                                r.name, a.text(), name),
                    a.loc);
    }
    check_input_assumption(a, reg);
  }
  if (!r.assumes.empty() && !r.has_label("assumption")) r.labels.emplace_back("assumption");
}

// The load-time soundness check of a user rule (rewrites/rule_check.hpp): an
// unsound rule is refused with its counterexample, so that a wrong `.rules`
// line cannot silently produce a wrong graph.
void check_soundness(RuleDef& rule, const OpRegistry& reg) {
  if (rule.trusted) {
    rule.load_check = LoadCheck::Trusted;
    return;
  }
  RuleProof proof = prove_rule(rule, reg, user_rule_check_options());
  switch (proof.verdict) {
    case RuleProof::Verdict::Sound:
      rule.load_check = LoadCheck::Proven;
      return;
    case RuleProof::Verdict::NotChecked:
      rule.load_check = LoadCheck::NotChecked;
      rule.load_check_note = proof.detail;
      return;
    case RuleProof::Verdict::Unsound:
      break;
  }
  const bool traced = rule.loc.file.starts_with("register_replacement(");
  throw Error(fmt::format("rule '{}' is unsound ({} skips this check): {}", rule.name,
                          traced ? "check = false" : "`trust: true`", proof.detail),
              rule.loc);
}

}  // namespace

const RuleDef* RuleLibrary::find(std::string_view name) const {
  for (const RuleDef& r : rules_)
    if (r.name == name) return &r;
  return nullptr;
}

bool RuleLibrary::add(RuleDef rule, bool skip_duplicates) {
  if (rule.name.empty()) throw Error("a rule needs a name", rule.loc);
  if (find(rule.name) != nullptr) {
    if (skip_duplicates) return false;
    const RuleDef* old = find(rule.name);
    rule_error(rule, fmt::format("duplicate rule name (first defined at {}:{}); pass "
                                 "skip_duplicates to ignore the new one",
                                 old->loc.file, old->loc.line));
  }
  resolve_side(rule, rule.search, *reg_, "search");
  resolve_side(rule, rule.replace, *reg_, "replace");
  rule.inputs = input_names(rule.search);
  check_lets(rule, functions_);
  check_assumptions(rule, *reg_);
  check_inputs(rule);
  check_outputs(rule);
  for (const auto& [name, value] : rule.example_values) {
    if (std::find(rule.inputs.begin(), rule.inputs.end(), name) == rule.inputs.end())
      rule_error(rule, fmt::format("example value for '{}', which is not an input", name));
  }
  for (const std::string& name : rule.replicated)
    if (std::find(rule.inputs.begin(), rule.inputs.end(), name) == rule.inputs.end())
      rule_error(rule, fmt::format("`replicated: {}` names no input of the rule", name));
  std::vector<std::string> names = condition_names(rule);
  for (const CondExpr& c : rule.where) check_condition(c, names, functions_);
  check_example(rule, *reg_, functions_);
  if (check_soundness_) check_soundness(rule, *reg_);
  rules_.push_back(std::move(rule));
  return true;
}

std::vector<std::string> RuleLibrary::load_notes() const {
  std::vector<std::string> out;
  for (const RuleDef& r : rules_)
    if (r.load_check == LoadCheck::NotChecked)
      out.push_back(fmt::format("rule '{}' not checked: {}", r.name, r.load_check_note));
  return out;
}

void RuleLibrary::load_text(std::string_view text, std::string_view file_name,
                            bool skip_duplicates) {
  for (RuleDef& r : parse_rules_file(text, file_name)) add(std::move(r), skip_duplicates);
}

RuleLibrary RuleLibrary::builtin(const OpRegistry& reg) {
  RuleLibrary lib(reg);
  // Proven by tests/rewrites/rule_soundness_test.cpp; running them here would
  // slow every command's start for nothing.
  lib.check_soundness_ = false;
  for (const EmbeddedFile* f :
       rule_files_in_registry_order(eqfuse_default_rules(), kBuiltinRuleRegistry))
    lib.load_text(f->contents, f->path);
  lib.check_soundness_ = true;
  return lib;
}

}  // namespace eqfuse
