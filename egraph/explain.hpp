// Explanations: why two terms of an e-graph are equal, as a flat chain of
// rewrite steps.
//
//   EGraph g;
//   Id start = g.add_expr("(+ x0 (+ x1 x2))");   // before running: the exact term
//   Runner(g).run(rules);
//   Explanation e = explain(g, start, other_node_id, rules);
//   Explanation f = Explainer(g, rules).explain_terms("(+ x0 (+ x1 x2))", "(+ (+ x2 x1) x0)");
//   fmt::print("{}", e.to_string());
//
// Every node id denotes one fixed term: its op over the terms of the
// children it was added with (EGraph::original_children). The e-graph logs
// every effective union (UnionRecord: rule + substitution, congruence or
// given); the Explainer replays that log into
//   - an egg-style proof forest (one edge per union, between the two node
//     ids that were merged), giving the unique path between two nodes, and
//   - a persistent union-find whose links carry their log index, answering
//     "were u and v equal before union t?" in O(log n).
// A rule edge is re-derived: the rule's left side is matched under the
// recorded substitution among the nodes equal to the merged node *before*
// that union, the right side likewise, and the step lhsσ -> rhsσ is emitted
// between the two proofs that reach them. Congruence edges become the
// child proofs embedded at each argument position. Every sub-proof only
// uses unions older than the edge it justifies, so the recursion is
// well-founded. Edge proofs are memoised and term repetitions (loops) are
// cut from every chain, which keeps explanations polynomial where naive
// expansion blows up (egg issues #153 and #340).
//
// A step is a whole term plus the rule (name, direction, substitution,
// position) that produced it from the previous one. Rules applied by a
// custom applier, or unions whose rule is not passed in, become "coarse"
// steps (the term jumps; no instance could be re-derived).
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "egraph/egraph.hpp"
#include "egraph/rewrite.hpp"

namespace eqfuse {

// A ground term of an explanation.
struct ProofTerm {
  Symbol op;
  uint64_t payload = 0;
  std::vector<uint32_t> children;  // term ids
  bool elided = false;             // a subterm cut off by a depth limit: prints as `…`
};

// How the head (op and payload) of a term prints; empty: `op`, plus
// `@<payload>` when the payload is not 0. Graph loaders give heads meaning
// (bridge/from_graph.hpp: loaded_head_name).
using TermHeadNamer = std::function<std::string(Symbol op, uint64_t payload)>;

// Hash-consed ground terms: equal terms have equal ids.
class TermBank {
 public:
  uint32_t intern(Symbol op, uint64_t payload, std::span<const uint32_t> children);
  const ProofTerm& get(uint32_t t) const { return terms_[t]; }
  size_t size() const { return terms_.size(); }
  // `t` with child `i` replaced by `child`.
  uint32_t with_child(uint32_t t, size_t i, uint32_t child);
  // The one elided term of this bank (created on first use): what a copy
  // limited in depth puts where it stops.
  uint32_t elided();
  // S-expression; subterms deeper than `depth` print as `…` (-1: no limit).
  std::string to_string(uint32_t t, int depth = -1, const TermHeadNamer& head = {}) const;

 private:
  using Key = std::pair<std::pair<uint32_t, uint64_t>, std::vector<uint32_t>>;
  std::vector<ProofTerm> terms_;
  absl::flat_hash_map<Key, uint32_t> ids_;
  uint32_t elided_ = UINT32_MAX;
};

struct ExplanationStep {
  uint32_t term = 0;           // the whole term after this step
  std::string rule;            // empty for the first step; "given" for a given union
  bool backward = false;       // the rule was applied right-to-left
  bool coarse = false;         // not re-derived: the term jumps (see header)
  std::vector<uint32_t> path;  // child indices from the root to the rewritten subterm
  std::vector<std::pair<std::string, uint32_t>> subst;  // rule variable -> term
};

struct Explanation {
  TermBank terms;
  std::vector<ExplanationStep> steps;  // steps[0]: start term; back(): goal term
  size_t num_rewrites() const { return steps.empty() ? 0 : steps.size() - 1; }
  // One line per step: the term (depth-limited) and the rule that produced it.
  std::string to_string(int depth = 8) const;
};

class Explainer {
 public:
  // Snapshot of the e-graph's union log; the e-graph must not change while
  // the Explainer is used. `rules` are looked up by name to re-derive steps.
  explicit Explainer(const EGraph& g, std::span<const Rewrite> rules = {});
  ~Explainer();
  Explainer(const Explainer&) = delete;
  Explainer& operator=(const Explainer&) = delete;

  // Chain from the term of node `a` to the term of node `b` (node ids; the
  // id add()/add_expr() returned for a term freshly added is that term's
  // node). Throws eqfuse::Error if they are not in one class. With `depth`
  // >= 0 the explanation's terms keep that many levels below each root and
  // elide the rest (they print as `…`, as to_string(t, depth) prints them; a
  // step's path may lead into an elided subterm): a node's term holds all
  // the graph above it, so a full copy per explanation is what makes many
  // explanations of a large graph quadratic.
  Explanation explain(Id a, Id b, int depth = -1);
  // Chain between two ground s-expression terms present in the e-graph.
  Explanation explain_terms(std::string_view a, std::string_view b);
  // The term a node id denotes, printed.
  std::string node_term(Id n, int depth = -1);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

Explanation explain(const EGraph& g, Id a, Id b, std::span<const Rewrite> rules = {});

// The rule (EGraph::register_rule id) whose application added node `n`, for
// a node a rewrite added (not one loaded before saturation): a rewrite
// instantiates its right side, new nodes included, and unions it with the
// match at once, so the first logged union whose merged term (a or b, read
// through original_children) contains `n` is that application's. nullopt
// when no union contains `n`, or the first one is not a rule's (given,
// congruence). Scans the union log once: O(log size) plus the new terms.
std::optional<uint32_t> creating_rule(const EGraph& g, Id n);

// creating_rule of every node id at once (index: node id; kNoCreatingRule
// where creating_rule is nullopt). One pass over the union log that visits
// each node once: O(log size + nodes), for callers asking about many nodes.
inline constexpr uint32_t kNoCreatingRule = UINT32_MAX;
std::vector<uint32_t> creating_rules(const EGraph& g);

// Re-checks a chain independently of how it was built: consecutive terms
// differ only at the step's path; there the rule's left side (right side
// when backward) matches the old subterm and the other side, under the
// same bindings, the new one. Given and coarse steps are only checked for
// position. Returns a description of the first bad step, or nullopt.
std::optional<std::string> verify_explanation(const Explanation& e, std::span<const Rewrite> rules);

}  // namespace eqfuse
