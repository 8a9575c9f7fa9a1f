// ExtractionProblem: builder indices and the egraph-serialize JSON loader,
// including its errors.
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "extract/problem.hpp"

namespace eqfuse {
namespace {

TEST(ExtractProblem, BuilderIndexesNodesAndParents) {
  ProblemBuilder b;
  const ClassId leaf = b.add_class("leaf");
  const ClassId top = b.add_class("top");
  EXPECT_EQ(b.add_class("leaf"), leaf);
  const NodeId x = b.add_node("x", leaf, 1.0, {});
  const std::vector<ClassId> twice = {leaf, leaf};
  const NodeId add = b.add_node("add", top, 2.5, twice);
  const std::vector<ClassId> self = {top};
  const NodeId loop = b.add_node("id", top, 0.0, self);
  b.add_root(top);
  const ExtractionProblem p = std::move(b).build();
  ASSERT_EQ(p.num_classes(), 2u);
  ASSERT_EQ(p.num_nodes(), 3u);
  EXPECT_EQ(p.node_op(add), "add");
  EXPECT_EQ(p.node_cost(add), 2.5);
  EXPECT_EQ(std::vector<ClassId>(p.children(add).begin(), p.children(add).end()), twice);
  EXPECT_EQ(std::vector<NodeId>(p.class_nodes(top).begin(), p.class_nodes(top).end()),
            (std::vector<NodeId>{add, loop}));
  // add uses leaf twice: it is listed once per occurrence.
  EXPECT_EQ(std::vector<NodeId>(p.parents(leaf).begin(), p.parents(leaf).end()),
            (std::vector<NodeId>{add, add}));
  EXPECT_EQ(std::vector<NodeId>(p.parents(top).begin(), p.parents(top).end()),
            (std::vector<NodeId>{loop}));
  EXPECT_EQ(p.roots(), (std::vector<ClassId>{top}));
  EXPECT_EQ(p.class_nodes(leaf).size(), 1u);
  EXPECT_EQ(p.node_class(x), leaf);
}

TEST(ExtractProblem, BuilderRejectsBadCostsAndEmptyClasses) {
  ProblemBuilder b;
  const ClassId c = b.add_class("c");
  EXPECT_NO_THROW(b.add_node("neg", c, -1.0, {}));  // maxsat encodings use negative costs
  EXPECT_THROW(b.add_node("n", c, std::numeric_limits<double>::quiet_NaN(), {}), Error);
  EXPECT_THROW(b.add_node("n", c, std::numeric_limits<double>::infinity(), {}), Error);
  const std::vector<ClassId> bad = {7};
  EXPECT_THROW(b.add_node("n", c, 1.0, bad), Error);
  b.add_class("empty");
  b.add_node("n", c, 1.0, {});
  b.add_root(c);
  EXPECT_THROW(std::move(b).build(), Error);
}

constexpr const char* kSmall = R"({
  "nodes": {
    "a": {"op": "A", "children": [], "eclass": "0", "cost": 1.0},
    "b": {"op": "B", "children": [], "eclass": "0", "cost": 3.0},
    "f": {"op": "f", "children": ["a", "b"], "eclass": "1", "cost": 2.0}
  },
  "root_eclasses": ["1"],
  "class_data": {"0": {"type": "T"}}
})";

TEST(ExtractProblem, ParsesEgraphSerializeJson) {
  const ExtractionProblem p = parse_egraph_serialize_json(kSmall, "small.json");
  ASSERT_EQ(p.num_classes(), 2u);
  ASSERT_EQ(p.num_nodes(), 3u);
  ASSERT_EQ(p.roots().size(), 1u);
  const ClassId root = p.roots()[0];
  EXPECT_EQ(p.class_name(root), "1");
  ASSERT_EQ(p.class_nodes(root).size(), 1u);
  const NodeId f = p.class_nodes(root)[0];
  EXPECT_EQ(p.node_op(f), "f");
  EXPECT_EQ(p.node_name(f), "f");
  // Children refer to nodes; both "a" and "b" stand for class "0".
  ASSERT_EQ(p.children(f).size(), 2u);
  EXPECT_EQ(p.class_name(p.children(f)[0]), "0");
  EXPECT_EQ(p.children(f)[0], p.children(f)[1]);
  EXPECT_EQ(p.class_nodes(p.children(f)[0]).size(), 2u);
}

std::string error_of(const std::string& text) {
  try {
    parse_egraph_serialize_json(text, "bad.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "bad.json");
    return e.what();
  }
  ADD_FAILURE() << "no error for: " << text;
  return {};
}

TEST(ExtractProblem, JsonErrorsNameTheNode) {
  EXPECT_NE(error_of(R"({"nodes": {"n1": {"op": "f", "children": ["zz"], "eclass": "0",
             "cost": 1}}, "root_eclasses": ["0"]})")
                .find("node 'n1': child 'zz'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"nodes": {"n1": {"op": "f", "children": [], "eclass": "0",
             "cost": "x"}}, "root_eclasses": ["0"]})")
                .find("node 'n1'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"nodes": {"n1": {"op": "f", "children": [], "eclass": "0",
             "cost": 1}}, "root_eclasses": ["9"]})")
                .find("root class '9'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"nodes": {"n1": {"children": [], "eclass": "0"}},
             "root_eclasses": ["0"]})")
                .find("op"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"edges": []})").find("nodes"), std::string::npos);
}

TEST(ExtractProblem, JsonSyntaxErrorHasLineAndColumn) {
  try {
    parse_egraph_serialize_json("{\n  \"nodes\": {,\n}", "broken.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "broken.json");
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_GT(e.loc().column, 1);
  }
}

TEST(ExtractProblem, LoadsEveryGymDummyExample) {
  for (const char* name : {"ab_add", "choice", "loop"}) {
    const auto p = load_egraph_serialize_json(std::string(EQFUSE_TEST_DATA) +
                                              "/extraction-gym/dummy_examples/" + name + ".json");
    EXPECT_GT(p.num_nodes(), 0u) << name;
    EXPECT_FALSE(p.roots().empty()) << name;
  }
  EXPECT_THROW(load_egraph_serialize_json("/nonexistent/file.json"), Error);
}

}  // namespace
}  // namespace eqfuse
