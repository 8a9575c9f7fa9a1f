// The flat, immutable extraction problem every extractor works on.
//
// An ExtractionProblem is an e-graph frozen for extraction: classes and nodes
// with dense ids, each node with an op name, a finite cost (normally non-negative) and its
// children given as CLASS ids, plus the root classes that must be extracted.
// It is independent of the e-graph engine: the extraction-gym JSON files
// (egraph-serialize format) load into it with load_egraph_serialize_json(),
// and our own e-graph converts into it through ProblemBuilder. Keeping one
// representation makes our extraction numbers directly comparable with
// extraction-gym's.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>

namespace eqfuse {

using ClassId = std::uint32_t;
using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = static_cast<NodeId>(-1);

class ExtractionProblem {
 public:
  std::size_t num_classes() const { return class_names_.size(); }
  std::size_t num_nodes() const { return node_class_.size(); }

  ClassId node_class(NodeId n) const { return node_class_[n]; }
  double node_cost(NodeId n) const { return node_cost_[n]; }
  const std::string& node_op(NodeId n) const { return ops_[node_op_[n]]; }
  // Child classes of node n, in argument order (duplicates kept).
  std::span<const ClassId> children(NodeId n) const {
    return {child_data_.data() + child_begin_[n], child_data_.data() + child_begin_[n + 1]};
  }
  // Nodes of class c, in insertion order.
  std::span<const NodeId> class_nodes(ClassId c) const {
    return {class_node_data_.data() + class_node_begin_[c],
            class_node_data_.data() + class_node_begin_[c + 1]};
  }
  // Nodes having class c among their children, once per occurrence.
  std::span<const NodeId> parents(ClassId c) const {
    return {parent_data_.data() + parent_begin_[c], parent_data_.data() + parent_begin_[c + 1]};
  }
  const std::vector<ClassId>& roots() const { return roots_; }

  // External names (the JSON ids, or whatever the builder was given).
  const std::string& class_name(ClassId c) const { return class_names_[c]; }
  const std::string& node_name(NodeId n) const { return node_names_[n]; }

 private:
  friend class ProblemBuilder;
  std::vector<std::string> class_names_;
  std::vector<std::string> node_names_;
  std::vector<std::string> ops_;
  std::vector<std::uint32_t> node_op_;
  std::vector<ClassId> node_class_;
  std::vector<double> node_cost_;
  std::vector<std::uint32_t> child_begin_{0};
  std::vector<ClassId> child_data_;
  std::vector<std::uint32_t> class_node_begin_;
  std::vector<NodeId> class_node_data_;
  std::vector<std::uint32_t> parent_begin_;
  std::vector<NodeId> parent_data_;
  std::vector<ClassId> roots_;
};

// Incremental construction. Classes and nodes get dense ids in creation
// order; build() computes the per-class node and parent indices and checks
// that every class has at least one node and every child class exists.
// Throws eqfuse::Error on invalid input (NaN/infinite cost, unknown
// class id, class without nodes, no roots).
class ProblemBuilder {
 public:
  // Returns the id of the class named `name`, creating it if new.
  ClassId add_class(std::string_view name);
  NodeId add_node(std::string_view op, ClassId eclass, double cost,
                  std::span<const ClassId> children, std::string_view name = {});
  void add_root(ClassId c);
  std::size_t num_classes() const { return p_.class_names_.size(); }
  ExtractionProblem build() &&;

 private:
  ExtractionProblem p_;
  absl::flat_hash_map<std::string, ClassId> class_ids_;
  absl::flat_hash_map<std::string, std::uint32_t> op_ids_;
};

// Loads an e-graph in the egraph-serialize JSON format (extraction-gym):
// {"nodes": {id: {"op", "children": [node ids], "eclass", "cost"}},
//  "root_eclasses": [...], "class_data": {...}}. A child node id stands for
// that node's class. Classes are numbered in order of first appearance in the
// file (deterministic). Errors name the file and the offending node.
ExtractionProblem load_egraph_serialize_json(const std::string& path);
ExtractionProblem parse_egraph_serialize_json(std::string_view text,
                                              const std::string& file_name = "<json>");
// The problem in the same format (node and class names as ids), so that
// `eqfuse extract` can re-run any extractor on what optimize extracted from
// (`eqfuse optimize --dump-dir`). Node names must be unique.
std::string to_egraph_serialize_json(const ExtractionProblem& p);

}  // namespace eqfuse
