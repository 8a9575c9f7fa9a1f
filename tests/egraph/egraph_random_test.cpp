// ctest-label: property
// Property tests for the e-graph engine on random inputs: invariants after
// random add/merge/rebuild sequences, compiled e-matching against a
// brute-force matcher, and semi-naive vs full search giving the same graph.
#include <algorithm>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "egraph/egraph.hpp"
#include "egraph/ematch.hpp"
#include "egraph/runner.hpp"
#include "egraph/workloads.hpp"

namespace eqfuse {
namespace {

const char* kOps[] = {"f", "g", "h"};

// Builds a random e-graph over leaves a,b,c, ints 0/1 and ops f/1, g/2, h/2.
void random_egraph(EGraph& g, std::mt19937& rng, int adds, int merges) {
  std::vector<Id> ids;
  for (const char* leaf : {"a", "b", "c"}) ids.push_back(g.add_expr(leaf));
  ids.push_back(g.add_constant(Constant::integer(0)));
  ids.push_back(g.add_constant(Constant::integer(1)));
  for (int i = 0; i < adds + merges; ++i) {
    auto pick = [&] { return ids[rng() % ids.size()]; };
    if (static_cast<int>(rng() % (adds + merges)) < merges) {
      g.merge(pick(), pick());
      if (rng() % 4 == 0) g.rebuild();
      continue;
    }
    int op = rng() % 3;
    if (op == 0) {
      ids.push_back(g.add(ENode(Symbol::intern(kOps[0]), {pick()})));
    } else {
      ids.push_back(g.add(ENode(Symbol::intern(kOps[op]), {pick(), pick()})));
    }
  }
  g.rebuild();
}

TEST(EGraphProperty, InvariantsHoldAfterRandomOperations) {
  for (unsigned seed = 0; seed < 60; ++seed) {
    std::mt19937 rng(seed);
    EGraph g;
    random_egraph(g, rng, 40 + seed, 5 + seed / 3);
    ASSERT_NO_THROW(g.check_invariants()) << "seed " << seed;
    // Union-find and hashcons agree: every node finds a live class.
    size_t listed = 0;
    for (Id c : g.class_ids()) listed += g.class_nodes(c).size();
    EXPECT_EQ(listed, g.num_nodes());
  }
}

// Brute force: try every class as root and every node choice recursively.
using Subst = std::vector<Id>;
void brute(const EGraph& g, const Pattern& p, uint32_t node, Id cls, Subst& s,
           const std::function<void(Subst&)>& k) {
  const PatternNode& n = p.nodes()[node];
  if (n.is_var) {
    if (s[n.var] == kNoId) {
      s[n.var] = cls;
      k(s);
      s[n.var] = kNoId;
    } else if (s[n.var] == cls) {
      k(s);
    }
    return;
  }
  for (Id id : g.class_nodes(cls)) {
    NodeView v = g.node(id);
    if (v.op != n.op || v.payload != n.payload || v.children.size() != n.arity) continue;
    auto kids = p.children(n);
    // Match children left to right with continuation passing.
    std::function<void(size_t, Subst&)> step = [&](size_t i, Subst& cur) {
      if (i == kids.size()) {
        k(cur);
        return;
      }
      brute(g, p, kids[i], v.children[i], cur, [&](Subst& next) { step(i + 1, next); });
    };
    step(0, s);
  }
}

std::set<std::vector<Id>> brute_matches(const EGraph& g, const Pattern& p) {
  std::set<std::vector<Id>> out;
  for (Id c : g.class_ids()) {
    Subst s(p.vars().size(), kNoId);
    brute(g, p, p.root(), c, s, [&](Subst& full) {
      std::vector<Id> m{c};
      m.insert(m.end(), full.begin(), full.end());
      out.insert(m);
    });
  }
  return out;
}

TEST(EGraphProperty, CompiledMatcherAgreesWithBruteForce) {
  const char* patterns[] = {"(f ?x)",           "(g ?x ?y)", "(g ?x ?x)",         "(h (f ?x) ?y)",
                            "(g ?x (h ?y ?x))", "(h ?x 0)",  "(g (f ?x) (f ?x))", "(f (f (f ?x)))",
                            "(h 1 (g ?a ?b))",  "?z"};
  for (unsigned seed = 0; seed < 40; ++seed) {
    std::mt19937 rng(1000 + seed);
    EGraph g;
    random_egraph(g, rng, 60, 12);
    for (const char* text : patterns) {
      Pattern p = Pattern::parse(text);
      Matcher m(p);
      std::vector<Id> flat;
      size_t n = m.search(g, flat);
      std::set<std::vector<Id>> got;
      for (size_t i = 0; i < n; ++i) {
        got.insert(
            std::vector<Id>(flat.begin() + i * m.stride(), flat.begin() + (i + 1) * m.stride()));
      }
      EXPECT_EQ(got.size(), n) << "duplicate matches for " << text;
      EXPECT_EQ(got, brute_matches(g, p)) << "seed " << seed << " pattern " << text;
      // search_class restricted to each class gives the same matches.
      size_t per_class = 0;
      for (Id c : g.class_ids()) {
        std::vector<Id> one;
        per_class += m.search_class(g, c, one);
      }
      EXPECT_EQ(per_class, n) << text;
    }
  }
}

TEST(EGraphProperty, SemiNaiveSearchReachesTheSameGraph) {
  for (unsigned seed = 0; seed < 10; ++seed) {
    auto run = [&](bool semi) {
      std::mt19937 rng(77 + seed);
      EGraph g;
      random_egraph(g, rng, 25, 3);
      std::vector<Rewrite> rules;
      rules.push_back(Rewrite::parse("comm", "(g ?x ?y)", "(g ?y ?x)"));
      rules.push_back(Rewrite::parse("assoc", "(g ?x (g ?y ?z))", "(g (g ?x ?y) ?z)"));
      rules.push_back(Rewrite::parse("fold", "(h ?x 0)", "?x"));
      rules.push_back(Rewrite::parse("ff", "(f (f ?x))", "?x"));
      RunnerConfig cfg;
      cfg.semi_naive = semi;
      cfg.limits.iterations = 6;
      cfg.limits.nodes = 1'000'000;
      cfg.scheduler.kind = SchedulerConfig::Kind::Simple;
      Runner(g, cfg).run(rules);
      g.check_invariants();
      return std::pair(g.num_nodes(), g.num_classes());
    };
    EXPECT_EQ(run(true), run(false)) << "seed " << seed;
  }
}

}  // namespace
}  // namespace eqfuse
