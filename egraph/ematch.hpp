// Compiled e-matching.
//
// A Matcher compiles a (multi-)pattern once into a tiny register program
// and runs it on a clean e-graph:
//   Scan     r op      r := each class containing `op` (operator index)
//   ScanAll  r         r := each class (pattern root is a bare variable)
//   Bind     r op n o  for each node of class r with op/payload/arity n:
//                      registers o..o+n-1 := its children
//   Compare  r s       continue only if r == s (repeated variable)
//   Guard    g         continue only if guard g holds for its variables
// Execution is depth-first backtracking. Within a class, Bind
// binary-searches the nodes (sorted by op) for its operator; constants in
// patterns (the `0` in `(* ?a 0)`) are Binds on a leaf, i.e. one binary
// search and a payload compare.
//
// Semi-naive search: with `since` > 0 only matches that use at least one
// node stamped at or after epoch `since` (EGraph::node_stamp) are produced;
// the last Bind skips old classes and old nodes when nothing new was bound
// before it. Any other match existed unchanged when the graph was searched
// at `since` (see EGraph::node_stamp), so a rule fully applied then has
// already added its consequences. Patterns that bind no node (a bare
// variable) always search everything.
//
// Matches are returned flat: each match is `1 + vars().size()` ids, the
// class of the first root followed by the variable values in vars() order.
//
// Guards: a predicate on some variables (add_guard), run right after the
// instruction that binds the last of them, so a failing binding prunes the
// whole search below it instead of every full match being enumerated and
// then refused. Multi-patterns joined on a shared variable enumerate the
// product of their parts' matches; a guard on one part's variable keeps that
// product small (rewrites/rule_compile.cpp turns `is_leaf` and `ordered`
// conditions into guards).
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "egraph/egraph.hpp"
#include "egraph/pattern.hpp"

namespace eqfuse {

class Matcher {
 public:
  explicit Matcher(MultiPattern pattern);

  // Holds for the classes bound to the guard's variables, in add_guard order.
  using GuardFn = std::function<bool(const EGraph&, std::span<const Id>)>;
  // Prunes matches whose `vars` (indices into vars()) fail `fn`.
  void add_guard(std::vector<uint32_t> vars, GuardFn fn);

  const MultiPattern& pattern() const { return pattern_; }
  const std::vector<std::string>& vars() const { return pattern_.vars(); }
  size_t stride() const { return 1 + pattern_.vars().size(); }
  // Appends matches to `out`; stops early once more than `limit` matches
  // have been produced. Returns the number of matches appended.
  size_t search(const EGraph& g, std::vector<Id>& out,
                size_t limit = std::numeric_limits<size_t>::max(), uint32_t since = 0) const;
  // Matches whose first root is class `cls` only.
  size_t search_class(const EGraph& g, Id cls, std::vector<Id>& out) const;
  // False if the pattern binds no e-node (then `since` is ignored).
  bool supports_semi_naive() const { return last_bind_ != kNoLastBind; }
  // The compiled program, one instruction per line (for docs and debugging).
  std::string program_string() const;

 private:
  // ScanParents: the root of a later part of a multi-pattern whose child `arity` is a
  // variable an earlier part bound (register `out`): its classes are the parents of
  // that variable's class with operator `op`, not every class with `op` (a join on the
  // shared variable instead of a cross product).
  enum class Code : uint8_t { Scan, ScanAll, ScanParents, Bind, Compare, Guard };
  struct Instr {
    Code code;
    uint32_t reg = 0;
    Symbol op;
    uint64_t payload = 0;
    uint32_t arity = 0;  // Bind: the node's arity; ScanParents: the bound child's position
    uint32_t out = 0;    // Bind: first output register; Compare: the other register;
                         // ScanParents: the bound child's register
  };
  static constexpr size_t kNoLastBind = std::numeric_limits<size_t>::max();
  struct Run;
  struct GuardDef {
    std::vector<uint32_t> vars;
    GuardFn fn;
  };
  void compile();
  void compile_node(const Pattern& p, uint32_t node, uint32_t reg);
  // A later part's root as a ScanParents (see Code) when one of its children is a
  // variable already in a register; false when none is.
  bool scan_parents(const Pattern& p, uint32_t reg);
  void place_guards();
  uint32_t new_reg() { return num_regs_++; }

  MultiPattern pattern_;
  std::vector<Instr> program_;
  uint32_t num_regs_ = 0;
  std::vector<uint32_t> var_reg_;  // var index -> register
  std::vector<GuardDef> guards_;
  size_t last_bind_ = kNoLastBind;
};

}  // namespace eqfuse
