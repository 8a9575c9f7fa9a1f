// Rewrites: a unique name, labels, a searcher (multi-pattern), named
// conditions and an applier producing one or more equalities per match.
//
//   Rewrite r = Rewrite::parse("zero-add", "(+ ?a 0)", "?a");
//   auto both = parse_rules("comm", "(+ ?a ?b) <=> (+ ?b ?a)");   // comm, comm-rev
//
// Equalities: each match of the searcher yields `target = rhs` for every
// Equality; the target is the match root (empty name) or a variable bound by
// the searcher (multi-output fusions: one match, several unions). A right
// side or condition that uses a variable the searcher does not bind is
// rejected when the rule is built (eqfuse::Error naming rule and variable).
//
// Conditions are named predicates over facts that never change when classes
// merge (dtype, shape, constant values). They receive the ids of the
// variables they declare, in that order. The Runner counts failures per rule
// and per condition so "why did this fusion not happen" can be answered.
//
// A custom applier may replace the pattern equalities (for rules that
// compute their right side); it must only add nodes and call g.merge with
// the given reason.
//
// Computed variables: a right side may also use variables the searcher does
// not bind, each computed from some bound ones when a match is applied (after
// its conditions hold), e.g. a constant derived from matched constants:
//
//   ComputedVar half{"h", {"c"}, [](EGraph& g, std::span<const Id> c) -> std::optional<Id> {
//     return g.add_constant(Constant::floating(...));   // or std::nullopt: skip the match
//   }};
//
// Their ids follow the searcher's in the recorded substitution (subst_vars()),
// so proofs replay such rules like any other.
#pragma once
#include <array>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "egraph/ematch.hpp"
#include "egraph/pattern.hpp"

namespace eqfuse {

struct Condition {
  std::string name;
  std::vector<std::string> vars;  // names without '?'
  std::function<bool(const EGraph&, std::span<const Id>)> pred;
};

struct Equality {
  std::string target;  // "" = match root, else a searcher variable (no '?')
  Pattern rhs;
  // When set, the left term is this pattern instantiated with the match
  // (instead of `target`): multi-output rules equate search output i with
  // replace output i, and an output such as `(getitem ?t 2)` need not exist
  // in the graph for the rule to fire (it is created).
  std::optional<Pattern> lhs;
};

// A right-side variable computed from the match (see above): `inputs` are
// searcher variables, passed to `compute` in that order.
struct ComputedVar {
  std::string name;
  std::vector<std::string> inputs;
  std::function<std::optional<Id>(EGraph&, std::span<const Id>)> compute;
};

// Applies one match. `match` is [root, vars...] in Rewrite::vars() order.
// Returns the number of effective unions.
using CustomApplier =
    std::function<size_t(EGraph& g, std::span<const Id> match, const Reason& why)>;

class Rewrite {
 public:
  Rewrite(std::string name, MultiPattern lhs, std::vector<Equality> rhs,
          std::vector<Condition> conditions = {}, std::vector<std::string> labels = {});
  Rewrite(std::string name, MultiPattern lhs, CustomApplier applier,
          std::vector<Condition> conditions = {}, std::vector<std::string> labels = {});
  Rewrite(std::string name, MultiPattern lhs, std::vector<ComputedVar> computed,
          std::vector<Equality> rhs, std::vector<Condition> conditions = {},
          std::vector<std::string> labels = {});
  // One-directional rule from s-expressions; `rhs` may be a multi-part
  // "?v = (..), ?w = (..)" list of equalities on searcher variables.
  static Rewrite parse(std::string name, std::string_view lhs, std::string_view rhs,
                       std::vector<Condition> conditions = {},
                       std::vector<std::string> labels = {});

  const std::string& name() const { return name_; }
  const std::vector<std::string>& labels() const { return labels_; }
  bool has_label(std::string_view l) const;
  const Matcher& searcher() const { return matcher_; }
  // A guard the matcher checks while searching (Matcher::add_guard), on
  // variables by name: for conditions that can refuse a partial match.
  void add_search_guard(const std::vector<std::string>& vars, Matcher::GuardFn fn);
  const std::vector<std::string>& vars() const { return matcher_.vars(); }
  const std::vector<ComputedVar>& computed_vars() const { return computed_; }
  // The variables of a recorded substitution (Reason::subst): vars() then the
  // computed ones; and the index of one of them there.
  const std::vector<std::string>& subst_vars() const { return subst_vars_; }
  std::optional<uint32_t> subst_index(std::string_view var) const;
  const std::vector<Condition>& conditions() const { return conditions_; }
  const std::vector<Equality>& equalities() const { return equalities_; }
  bool has_custom_applier() const { return static_cast<bool>(custom_); }
  std::string to_string() const;

  // Index of the first failing condition, or -1 if all hold.
  int failing_condition(const EGraph& g, std::span<const Id> match) const {
    return conditions_.empty() ? -1 : first_failing_condition(g, match);
  }
  // Applies the equalities for one match (conditions not checked).
  // `rule_id` is this rule's id in g (EGraph::register_rule).
  size_t apply_match(EGraph& g, std::span<const Id> match, uint32_t rule_id) const;
  // apply_match on each match of `matches` (stride() ids each) in order,
  // stopping after the one that brings g to `node_limit` live nodes.
  // Conditions are not checked. One call per batch keeps the per-match
  // overhead out of the loop.
  struct Applied {
    size_t matches = 0;  // matches applied
    size_t unions = 0;   // effective unions they made
  };
  Applied apply_matches(EGraph& g, std::span<const Id> matches, uint32_t rule_id,
                        size_t node_limit) const;

 private:
  // A right side compiled for apply_match: its operator nodes in post-order
  // (the order Pattern::instantiate_mapped adds them), each child reading a
  // match slot or the class of an earlier node, so applying a match is one
  // add() per node and no pattern walk. Bigger terms keep the generic walk.
  struct FlatTerm {
    static constexpr uint32_t kMaxNodes = 16;
    static constexpr uint32_t kMaxArity = 4;
    static constexpr uint32_t kFromNode = 1u << 31;  // src >= kFromNode: node src - kFromNode
    struct Node {
      Symbol op;
      uint64_t payload = 0;
      uint32_t arity = 0;
      std::array<uint32_t, kMaxArity> src{};
    };
    std::vector<Node> nodes;
    uint32_t root_slot = 0;  // the root is a variable: this match slot
    bool generic = false;
  };
  struct CompiledEq {
    uint32_t target;                    // 0 = root, else 1 + var index (match slot)
    std::vector<uint32_t> var_map;      // rhs var -> match slot
    std::vector<uint32_t> lhs_var_map;  // lhs var -> match slot (Equality::lhs set)
    FlatTerm rhs;
  };
  int first_failing_condition(const EGraph& g, std::span<const Id> match) const;
  // apply_match() of rules with computed variables, custom appliers,
  // equality left terms or right sides too big to flatten.
  size_t apply_match_general(EGraph& g, std::span<const Id> match, uint32_t rule_id) const;
  static FlatTerm flatten(const Pattern& p, std::span<const uint32_t> var_map);
  static Id instantiate_flat(EGraph& g, const FlatTerm& t, std::span<const Id> match);
  void validate_and_compile();

  std::string name_;
  std::vector<std::string> labels_;
  Matcher matcher_;
  std::vector<Equality> equalities_;
  std::vector<ComputedVar> computed_;
  std::vector<std::vector<uint32_t>> computed_slots_;  // match slots of each one's inputs
  std::vector<std::string> subst_vars_;
  CustomApplier custom_;
  std::vector<Condition> conditions_;
  std::vector<CompiledEq> compiled_eqs_;
  std::vector<std::vector<uint32_t>> condition_slots_;
  bool flat_only_ = false;  // every equality is `target = flat right side`
  mutable std::vector<Id> cond_scratch_;
};

// Parses "lhs => rhs" (one rule) or "lhs <=> rhs" (two rules: `name` and
// `name-rev`). Conditions are attached to both directions.
std::vector<Rewrite> parse_rules(std::string_view name, std::string_view text,
                                 std::vector<Condition> conditions = {},
                                 std::vector<std::string> labels = {});

}  // namespace eqfuse
