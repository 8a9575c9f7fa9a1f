// ExtractionProblem construction and the egraph-serialize JSON loader.
#include "extract/problem.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/json_text.hpp"

namespace eqfuse {

ClassId ProblemBuilder::add_class(std::string_view name) {
  auto [it, inserted] =
      class_ids_.try_emplace(std::string(name), static_cast<ClassId>(p_.class_names_.size()));
  if (inserted) p_.class_names_.emplace_back(name);
  return it->second;
}

NodeId ProblemBuilder::add_node(std::string_view op, ClassId eclass, double cost,
                                std::span<const ClassId> children, std::string_view name) {
  const auto id = static_cast<NodeId>(p_.node_class_.size());
  const std::string shown = name.empty() ? fmt::format("#{}", id) : std::string(name);
  if (!std::isfinite(cost))
    fail({}, "node '{}': cost must be a finite number, got {}", shown, cost);
  if (eclass >= num_classes()) fail({}, "node '{}': unknown class id {}", shown, eclass);
  for (ClassId c : children)
    if (c >= num_classes()) fail({}, "node '{}': unknown child class id {}", shown, c);
  auto [op_it, op_new] =
      op_ids_.try_emplace(std::string(op), static_cast<std::uint32_t>(p_.ops_.size()));
  if (op_new) p_.ops_.emplace_back(op);
  p_.node_op_.push_back(op_it->second);
  p_.node_class_.push_back(eclass);
  p_.node_cost_.push_back(cost);
  p_.node_names_.push_back(shown);
  p_.child_data_.insert(p_.child_data_.end(), children.begin(), children.end());
  p_.child_begin_.push_back(static_cast<std::uint32_t>(p_.child_data_.size()));
  return id;
}

void ProblemBuilder::add_root(ClassId c) {
  if (c >= num_classes()) fail({}, "unknown root class id {}", c);
  p_.roots_.push_back(c);
}

namespace {

// Counting sort of `items` into buckets given by key(item): fills a CSR
// (begin offsets, data) pair.
template <typename KeyFn>
void bucket(std::size_t num_buckets, std::size_t num_items, KeyFn&& for_each_key,
            std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& data) {
  begin.assign(num_buckets + 1, 0);
  for_each_key([&](std::uint32_t key, std::uint32_t) { ++begin[key + 1]; });
  for (std::size_t i = 0; i < num_buckets; ++i) begin[i + 1] += begin[i];
  data.assign(begin[num_buckets], 0);
  std::vector<std::uint32_t> fill(begin.begin(), begin.end() - 1);
  for_each_key([&](std::uint32_t key, std::uint32_t item) { data[fill[key]++] = item; });
  (void)num_items;
}

}  // namespace

ExtractionProblem ProblemBuilder::build() && {
  const std::size_t nc = num_classes();
  const std::size_t nn = p_.node_class_.size();
  bucket(
      nc, nn,
      [&](auto&& emit) {
        for (NodeId n = 0; n < nn; ++n) emit(p_.node_class_[n], n);
      },
      p_.class_node_begin_, p_.class_node_data_);
  bucket(
      nc, nn,
      [&](auto&& emit) {
        for (NodeId n = 0; n < nn; ++n)
          for (std::uint32_t i = p_.child_begin_[n]; i < p_.child_begin_[n + 1]; ++i)
            emit(p_.child_data_[i], n);
      },
      p_.parent_begin_, p_.parent_data_);
  for (ClassId c = 0; c < nc; ++c)
    if (p_.class_node_begin_[c] == p_.class_node_begin_[c + 1])
      fail({}, "class '{}' has no nodes", p_.class_names_[c]);
  if (p_.roots_.empty() && nc > 0) fail({}, "the e-graph has no root classes");
  return std::move(p_);
}

namespace {

std::string json_id(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  return v.dump();
}

}  // namespace

ExtractionProblem parse_egraph_serialize_json(std::string_view text, const std::string& file_name) {
  using nlohmann::json;
  const SourceLoc file_loc{file_name};
  json doc = parse_json_text(text, file_name);
  if (!doc.is_object() || !doc.contains("nodes") || !doc["nodes"].is_object())
    fail(file_loc, "expected an object with a \"nodes\" object (egraph-serialize format)");
  const json& nodes = doc["nodes"];

  ProblemBuilder b;
  // Pass 1: every node's class, so children (node ids) can be mapped.
  absl::flat_hash_map<std::string, ClassId> node_to_class;
  node_to_class.reserve(nodes.size());
  for (const auto& [id, node] : nodes.items()) {
    if (!node.is_object() || !node.contains("eclass"))
      fail(file_loc, "node '{}': expected an object with \"eclass\"", id);
    node_to_class.emplace(id, b.add_class(json_id(node["eclass"])));
  }
  // Pass 2: nodes.
  std::vector<ClassId> kids;
  for (const auto& [id, node] : nodes.items()) {
    const std::string op = node.contains("op") && node["op"].is_string()
                               ? node["op"].get<std::string>()
                               : std::string();
    if (!node.contains("op") || !node["op"].is_string())
      fail(file_loc, "node '{}': missing string \"op\"", id);
    double cost = 1.0;
    if (node.contains("cost")) {
      if (!node["cost"].is_number()) fail(file_loc, "node '{}': \"cost\" is not a number", id);
      cost = node["cost"].get<double>();
    }
    kids.clear();
    if (node.contains("children")) {
      if (!node["children"].is_array())
        fail(file_loc, "node '{}': \"children\" is not an array", id);
      for (const json& child : node["children"]) {
        auto it = node_to_class.find(json_id(child));
        if (it == node_to_class.end())
          fail(file_loc, "node '{}': child '{}' is not a node of the e-graph", id, json_id(child));
        kids.push_back(it->second);
      }
    }
    try {
      b.add_node(op, node_to_class.at(id), cost, kids, id);
    } catch (const Error& e) {
      throw Error(e.what(), file_loc);
    }
  }
  if (!doc.contains("root_eclasses") || !doc["root_eclasses"].is_array())
    fail(file_loc, "missing \"root_eclasses\" array");
  const std::size_t known_classes = b.num_classes();
  for (const json& r : doc["root_eclasses"]) {
    const ClassId c = b.add_class(json_id(r));
    if (c >= known_classes) fail(file_loc, "root class '{}' has no nodes", json_id(r));
    b.add_root(c);
  }
  try {
    return std::move(b).build();
  } catch (const Error& e) {
    throw Error(e.what(), file_loc);
  }
}

std::string to_egraph_serialize_json(const ExtractionProblem& p) {
  // A child is written as the first node of its class; the reader maps it
  // back to that class, so the round trip is exact.
  nlohmann::ordered_json nodes = nlohmann::ordered_json::object();
  for (NodeId n = 0; n < p.num_nodes(); ++n) {
    nlohmann::ordered_json kids = nlohmann::ordered_json::array();
    for (ClassId d : p.children(n)) kids.push_back(p.node_name(p.class_nodes(d)[0]));
    nodes[p.node_name(n)] = {{"op", p.node_op(n)},
                             {"children", std::move(kids)},
                             {"eclass", p.class_name(p.node_class(n))},
                             {"cost", p.node_cost(n)}};
  }
  nlohmann::ordered_json roots = nlohmann::ordered_json::array();
  for (ClassId r : p.roots()) roots.push_back(p.class_name(r));
  nlohmann::ordered_json doc;
  doc["nodes"] = std::move(nodes);
  doc["root_eclasses"] = std::move(roots);
  return doc.dump();
}

ExtractionProblem load_egraph_serialize_json(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(SourceLoc{path}, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_egraph_serialize_json(ss.str(), path);
}

}  // namespace eqfuse
