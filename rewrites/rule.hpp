// Rules: fusions and layout equalities written as two FX functions.
//
// A RuleDef is what a `.rules` file block (rewrites/rule_file.hpp) or a
// register_replacement call (rewrites/register_replacement.hpp) produces:
// a search function and a replace function over the same named inputs,
// returning the same number of values; output i of search equals output i
// of replace. A RuleLibrary holds the rules by unique name and compiles the
// enabled ones into e-graph rewrites (egraph/rewrite.hpp):
//
//   RuleLibrary lib = RuleLibrary::builtin(reg);                // rewrites/library/*.rules
//   lib.load_text(read_file_or_stdin(my_rules), my_rules);      // user rules
//   const std::vector<std::string> streams{"", "stream2"};      // "" = the default stream
//   CompiledRules rules = lib.compile(RuleConfig{}, streams, nullptr);
//   Runner(g).run(rules.rewrites);
//
// (Compiled and run by tests/docs/doc_examples_test.cpp.)
//
// Compilation: every input becomes a pattern variable; op calls become op
// patterns (arguments encoded as in bridge/arg_encoding.hpp, so literals must
// match exactly and every defaulted argument takes part); the searcher is
// the multi-pattern of the search outputs' *anchors* (an output `t[k]` whose
// producer `t` is already inside another output's term is not searched: it
// is instantiated, so e.g. rule (a) fires whether or not xOut is used);
// each output pair becomes one equality. `<=>` rules compile in both
// directions (the reverse named `<name>-rev`), `=>` only forwards.
// Conditions (`where`, rewrites/condition.hpp) may name inputs and values of
// either function; values are looked up in the e-graph.
//
// Computed inputs (`let:`, RuleDef::lets) become computed variables of the
// forward rewrite (egraph/rewrite.hpp ComputedVar): evaluated on the match
// like a condition, the literal added as a constant e-node.
//
// Rules that return an input (`op(x, ...) => x`: layout/noop-view, the
// noop/* rules) merge the op's class with x's. Compiled for a loaded graph,
// each such output gets two implicit conditions, named in the rejection log
// and the rule statistics:
//   "x is not a storage written in place": an e-class is one value, but the
//     emitted graph names x's storage, which after an in-place write (add_,
//     a copy_ epilogue) holds other data, so a copy of x taken before the
//     write must not become x itself;
//   "x would not alias a graph input or output": as inductor's
//     remove_noop_ops, a returned value (or a value sharing its storage) is
//     not replaced by a graph input or another returned value, so outputs
//     never become new aliases (TorchAir keeps a returned clone).
//
// Streams: a rule matches only nodes of one stream. It is compiled once per
// stream label in the graph (payload of op e-nodes, bridge/from_graph.hpp);
// copies for non-default streams are named `<name>@<label>`.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bridge/from_graph.hpp"
#include "bridge/tensor_analysis.hpp"
#include "egraph/rewrite.hpp"
#include "graph/graph.hpp"
#include "graph/op_registry.hpp"
#include "interp/input_assumptions.hpp"
#include "rewrites/condition.hpp"
#include "rewrites/config.hpp"

namespace eqfuse {

// The bindings of one match, for C++ extra checks.
class RuleMatch {
 public:
  RuleMatch(const EGraph& g, const TensorAnalysis* types,
            const std::map<std::string, Id, std::less<>>& values)
      : g_(g), types_(types), values_(values) {}
  // Class bound to an input or a named value; kNoId if it does not exist.
  Id class_of(std::string_view name) const;
  // Its type (Unknown if not known), and its constant if it holds one.
  ValueType type(std::string_view name) const;
  std::optional<Constant> constant(std::string_view name) const;
  const EGraph& egraph() const { return g_; }

 private:
  const EGraph& g_;
  const TensorAnalysis* types_;
  const std::map<std::string, Id, std::less<>>& values_;
};
using ExtraCheck = std::function<bool(const RuleMatch&)>;

// What the load-time soundness check (rewrites/rule_check.hpp) found for a rule.
enum class LoadCheck {
  Builtin,     // the default library: proven by tests/rewrites/rule_soundness_test.cpp, not at load
  Proven,      // a user rule whose sides agreed on every random trial
  Trusted,     // a user rule marked `trust: true` (check = false): loaded on the user's word
  NotChecked,  // a user rule that could not be run (RuleDef::load_check_note says why)
};

// A `where:` line that is only `ordered(...)`: it picks one permutation of a
// match symmetric in some inputs (docs/conditions.md). Its failures are the
// same match again, not rejections: explain and the rule statistics skip them.
bool is_symmetry_condition(std::string_view condition_text);

struct RuleDef {
  std::string name;  // unique: "torchair/add-rms-norm-dynamic-quant"
  std::vector<std::string> labels;
  bool bidirectional = true;
  std::string description;
  std::vector<std::string> inputs;            // parameter names, in order
  std::map<std::string, Arg> example_values;  // scalar inputs' example literals
  std::vector<CondExpr> where;
  // `let: name = expression`: an input that only replace uses, computed from the matched
  // ones once the conditions hold (a reciprocal, a product of sizes). `=>` rules only; the
  // value must be a literal (number, bool, str, dtype, None, list of ints).
  struct Let {
    std::string name;
    CondExpr expr;
  };
  std::vector<Let> lets;
  // `assume: scale_reciprocal == reciprocal(scale)`: the rule is an equality only when the
  // matched inputs hold these relations (interp/input_assumptions.hpp), which the graph
  // cannot show: a peer's stated assumption about a model's weights. Such a rule carries
  // the label `assumption` and is off unless the assumption is accepted (RuleConfig::assume,
  // a preset, or --enable-rule); it is proven on inputs that hold it, and every site it
  // rewrites is reported with it (OptimizeResult::assumptions, explain).
  std::vector<InputAssumption> assumes;
  // `replicated: bias`: inputs of a rule over collectives that hold the same value on
  // every rank of the group (a row-parallel layer's bias, an activation after an
  // all_reduce). The rule is an equality only then; its proof gives every rank the same
  // value for them (EquivalenceOptions::replicated_inputs).
  std::vector<std::string> replicated;
  ExtraCheck extra_check;        // C++ predicate (register_replacement)
  std::string extra_check_name;  // for logs: "extra_check"
  Graph search, replace;         // resolved (normalized) FX graphs
  SourceLoc loc;                 // where the rule was defined
  // `trust: true` (ReplacementOptions::check = false, Python check=False): a knowingly
  // inexact user rule, loaded without the soundness check.
  bool trusted = false;
  LoadCheck load_check = LoadCheck::Builtin;  // set by RuleLibrary::add
  std::string load_check_note;                // NotChecked: why ("op X has no reference kernel")
  bool has_label(std::string_view l) const;
  const Let* find_let(std::string_view input) const;
  // Ops the rule introduces: called in replace but not in search (the fused
  // kernel of a fusion rule). Used to credit fused nodes to their rule.
  std::set<std::string> introduced_ops() const;
  // For listings and explain: "" for a built-in rule, else "proven at load on random
  // inputs", "trusted, not checked at load" or "not checked at load: <why>".
  std::string load_check_text() const;
};

// A rejected match, kept for explanations: which rule, where (the class of
// the first search output), which condition and why.
struct Rejection {
  std::string rule;        // base rule name (no @stream suffix)
  Id root = kNoId;         // class of the match root (canonical when recorded; kNoId
                           // when it could not be looked up mid-iteration)
  std::string condition;   // condition text
  std::string detail;      // CondResult::detail
  std::string rewrite;     // the compiled rewrite ("<rule>[-rev][@stream]")
  std::vector<Id> values;  // the match's bindings, in that rewrite's vars() order
};
struct RejectionLog {
  std::vector<Rejection> entries;
  size_t limit = 10'000;  // entries kept (counts are in RunReport anyway)
};

// The classes each `assumption` rule's matches bound its assumptions' inputs to, so
// that the run can say which graph inputs it assumed related (pipeline/optimize.cpp):
// rule name -> the distinct bindings, each the derived then the source classes of every
// `assume:` of the rule, in order. Classes as matched (call EGraph::find).
struct AssumptionLog {
  std::map<std::string, std::set<std::vector<Id>>, std::less<>> uses;
};

struct CompiledRules {
  std::vector<Rewrite> rewrites;
  // base rule name for each rewrite (strips "-rev" and "@stream").
  std::vector<std::string> base_name;
  std::vector<bool> reverse;
  std::vector<std::string> streams;  // the labels compiled for ("" = default stream)
  std::shared_ptr<RejectionLog> rejections = std::make_shared<RejectionLog>();
  std::shared_ptr<AssumptionLog> assumptions = std::make_shared<AssumptionLog>();

  const Rewrite* find(std::string_view rewrite_name) const;
  // The class (canonical in `g`, which must be clean) a rejected match is
  // rooted at: the recorded root, else its anchor looked up from the
  // bindings (a match rejected mid-iteration may not have been found then).
  // kNoId if neither works.
  Id rejection_root(const EGraph& g, const Rejection& r) const;
};

class RuleLibrary {
 public:
  // The default library embedded from rewrites/library/*.rules, loaded in the
  // order of rewrites/library/registry.txt (rewrites/rule_file.hpp). The library
  // keeps a reference to `reg`, which must outlive it: passing a temporary
  // (`builtin(OpRegistry::with_builtin_ops())`) does not compile.
  static RuleLibrary builtin(const OpRegistry& reg);
  static RuleLibrary builtin(const OpRegistry&& reg) = delete;
  explicit RuleLibrary(const OpRegistry& reg) : reg_(&reg) {}
  explicit RuleLibrary(const OpRegistry&& reg) = delete;

  // Validates (unknown ops, unbound inputs, output counts, types on the
  // example inputs, condition names) and adds. Throws Error at the rule's
  // location; a duplicate name is an error unless `skip_duplicates`, in
  // which case the new rule is ignored and false is returned.
  // Every rule added after builtin() returns (user rules) is also run on
  // random inputs (rewrites/rule_check.hpp) unless it is `trusted`: an
  // unsound one is an Error naming it, with the counterexample; one that
  // cannot be run is added with a note (load_notes()).
  bool add(RuleDef rule, bool skip_duplicates = false);
  // Parses a .rules text (rewrites/rule_file.hpp) and adds every rule.
  void load_text(std::string_view text, std::string_view file_name, bool skip_duplicates = false);

  const std::vector<RuleDef>& rules() const { return rules_; }
  // Every --disable-rule / --enable-rule selector (RuleConfig::disable,
  // ::enable) must name a rule or a label of this library: an unknown one is
  // an Error with a did-you-mean suggestion (compile() checks this first).
  // Returns notes for selectors that cannot take effect, e.g. enabling a rule
  // that the mode excludes.
  std::vector<std::string> check_selectors(const RuleConfig& cfg) const;
  const RuleDef* find(std::string_view name) const;
  // "rule 'R' not checked: op X has no reference kernel", one per user rule the
  // soundness check could not run, in library order (printed by the CLI as notes).
  std::vector<std::string> load_notes() const;
  CondFunctions& functions() { return functions_; }
  const CondFunctions& functions() const { return functions_; }
  const OpRegistry& registry() const { return *reg_; }

  // Rewrites for the rules enabled under `cfg`, one copy per stream label
  // ("" = default stream). `types` (may be null) gives conditions their facts.
  // `graph` (may be null; must outlive the rewrites) is the loaded graph the
  // rules will run on: with it, rules that return an input are guarded (see
  // "Rules that return an input" above).
  CompiledRules compile(const RuleConfig& cfg, std::span<const std::string> streams,
                        const TensorAnalysis* types, const LoadedEGraph* graph = nullptr) const;

 private:
  const OpRegistry* reg_;
  std::vector<RuleDef> rules_;
  CondFunctions functions_;
  bool check_soundness_ = true;  // false only while builtin() loads the default library
};

// A rule's search side as one e-matching pattern (the anchors, as
// RuleLibrary::compile searches them) for the ops of `stream`. With
// `relax_literals`, every literal argument of an op call (a dtype, dims, an
// int list, a defaulted None) is a fresh variable instead, listed in
// `literals`; getitem indices stay literal. Explanations match the relaxed
// pattern to find sites where only a literal differs from the rule's
// (pipeline/explain/near_miss.hpp).
struct SearchLiteral {
  std::string var;   // the pattern variable standing for it ("lit:3")
  std::string node;  // the search-side call carrying it ("transpose")
  std::string op;    // that call's qualified op ("aten::transpose.int")
  std::string arg;   // schema argument name; "name[i]" for an item of a list
  Constant value;    // the literal the rule requires
  Pattern owner;     // the call as a pattern (variables named as in the search)
};
struct SearchPattern {
  MultiPattern pattern;
  std::vector<SearchLiteral> literals;  // empty unless relaxed
};
SearchPattern compile_search_pattern(const RuleDef& rule, const OpRegistry& reg,
                                     const std::string& stream, bool relax_literals);

// The value of a constant for conditions and reports (an int list is a list).
CondValue constant_cond_value(const Constant& c);

// The value of a class for conditions: its constant, or its type
// (tensor -> TensorType, SymInt -> int or symbolic int), prim::list -> list.
CondValue class_cond_value(const EGraph& g, const TensorAnalysis* types, Id cls);

}  // namespace eqfuse
