// Patterns: terms with `?variables`, written as s-expressions or built in C++.
//
//   Pattern p = Pattern::parse("(+ ?a (* ?b 0))");
//
//   PatternBuilder b;                      // the same pattern in C++
//   auto a = b.var("a"), bb = b.var("b");
//   Pattern q = b.build(b.op("+", {a, b.op("*", {bb, b.constant(Constant::integer(0))})}));
//
// Atoms: `?x` variable; integers `3`, `-1`; floats `1.5`, `1e-6`; `true` /
// `false`; `None`; `"text"`; int lists `[1, 2]`; dtypes `torch.float16`;
// any other atom is a leaf operator (`x`). `(op args...)` is an operator
// node. Nodes are stored flat in post-order (children before parents, root
// last); variables are numbered by first appearance.
//
// MultiPattern holds several roots sharing variables, each optionally named
// by a variable: "?m1 = (mm ?x ?w1), ?m2 = (mm ?x ?w2)".
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/diagnostics.hpp"
#include "egraph/egraph.hpp"
#include "egraph/enode.hpp"

namespace eqfuse {

struct PatternNode {
  bool is_var = false;
  Symbol op;             // operator (non-var)
  uint64_t payload = 0;  // constant value / payload (non-var)
  uint32_t var = 0;      // variable index (var)
  uint32_t first_child = 0;
  uint32_t arity = 0;
};

class Pattern {
 public:
  // Throws eqfuse::Error pointing at the offending token. `where` names the
  // input (file, line, column of the first character of `text`).
  static Pattern parse(std::string_view text, const SourceLoc& where = {});

  const std::vector<PatternNode>& nodes() const { return nodes_; }
  std::span<const uint32_t> children(const PatternNode& n) const {
    return {child_pool_.data() + n.first_child, n.arity};
  }
  uint32_t root() const { return static_cast<uint32_t>(nodes_.size() - 1); }
  const PatternNode& root_node() const { return nodes_.back(); }
  const std::vector<std::string>& vars() const { return vars_; }
  std::optional<uint32_t> var_index(std::string_view name) const;
  bool is_ground() const { return vars_.empty(); }
  std::string to_string() const;

  // Adds the term to the e-graph; variable i takes the value values[i].
  Id instantiate(EGraph& g, std::span<const Id> values) const;
  // Same, with var i read from values[var_map[i]] (rewrite right sides).
  Id instantiate_mapped(EGraph& g, std::span<const Id> values,
                        std::span<const uint32_t> var_map) const;
  // The class of the term if it is already in the (clean) e-graph, without
  // adding anything; var i is values[var_map[i]] (values[i] if var_map is empty).
  std::optional<Id> lookup_mapped(const EGraph& g, std::span<const Id> values,
                                  std::span<const uint32_t> var_map = {}) const;

 private:
  friend class PatternBuilder;
  std::string node_string(uint32_t i) const;
  // Walks the nodes bottom-up: a variable's class is `var_class(id)` of its
  // value, an op node's is `op_class(node, children)`; nullopt stops the walk.
  template <class VarClass, class OpClass>
  std::optional<Id> walk_bottom_up(std::span<const Id> values, std::span<const uint32_t> var_map,
                                   VarClass var_class, OpClass op_class) const;
  std::vector<PatternNode> nodes_;
  std::vector<uint32_t> child_pool_;
  std::vector<std::string> vars_;
};

// Builds patterns in C++. Handles are indices of built sub-patterns.
class PatternBuilder {
 public:
  using Handle = uint32_t;
  Handle var(std::string_view name);
  Handle op(std::string_view name, std::initializer_list<Handle> children = {},
            uint64_t payload = 0);
  Handle op(Symbol op, std::span<const Handle> children, uint64_t payload = 0);
  Handle constant(const Constant& c);
  // Keeps only what `root` reaches, in post-order.
  Pattern build(Handle root) const;

 private:
  Pattern scratch_;
};

struct MultiPatternPart {
  std::string root_var;  // empty: unnamed root
  Pattern pattern;
};

class MultiPattern {
 public:
  MultiPattern() = default;
  MultiPattern(Pattern single);  // NOLINT: a pattern is a one-root multi-pattern
  explicit MultiPattern(std::vector<MultiPatternPart> parts);
  // "?a = (f ?x), ?b = (g ?x)"; a single pattern without `?v =` is allowed.
  static MultiPattern parse(std::string_view text, const SourceLoc& where = {});

  const std::vector<MultiPatternPart>& parts() const { return parts_; }
  // All variables: part root vars and pattern vars, by first appearance.
  const std::vector<std::string>& vars() const { return vars_; }
  std::optional<uint32_t> var_index(std::string_view name) const;
  std::string to_string() const;

 private:
  std::vector<MultiPatternPart> parts_;
  std::vector<std::string> vars_;
};

}  // namespace eqfuse
