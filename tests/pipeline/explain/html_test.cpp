// The pieces of the HTML explanation's layout (pipeline/explain/html_layout.hpp,
// pipeline/explain/html_svg.hpp, pipeline/explain/html.hpp): node labels
// without repetition, region grouping of large graphs, the bar chart and
// local drawings, and the page's first screen and overview.
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "pipeline/explain/html.hpp"
#include "pipeline/explain/html_layout.hpp"
#include "pipeline/explain/html_svg.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/html_checks.hpp"

namespace eqfuse {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using namespace html_detail;

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

Node call(std::string name, std::string target) {
  Node n;
  n.kind = NodeKind::Call;
  n.name = std::move(name);
  n.target = std::move(target);
  return n;
}

// A graph of placeholders and calls with the given names, no edges needed.
Graph named_graph(const std::vector<std::string>& names) {
  Graph g;
  for (const std::string& name : names) g.add(call(name, "aten::relu"));
  return g;
}

// ---- labels ------------------------------------------------------------------

TEST(ExplainHtmlLabels, OpIsShownOnlyWhenItDiffersFromTheName) {
  EXPECT_TRUE(op_repeats_name("bmm", "bmm"));
  EXPECT_TRUE(op_repeats_name("bmm_3", "bmm"));
  EXPECT_FALSE(op_repeats_name("add", "add_"));
  EXPECT_FALSE(op_repeats_name("bmm_x", "bmm"));
  EXPECT_FALSE(op_repeats_name("mm", "bmm"));
  EXPECT_EQ(node_label_lines(call("bmm_1", "aten::bmm.default")),
            (std::vector<std::string>{"bmm_1"}));
  EXPECT_EQ(node_label_lines(call("scores", "aten::bmm.default")),
            (std::vector<std::string>{"scores", "bmm"}));
}

TEST(ExplainHtmlLabels, DotLabelsDoNotRepeatTheOp) {
  Graph g;
  g.add(call("bmm", "aten::bmm"));
  g.add(call("add", "aten::add_.Tensor"));
  std::string dot = graph_to_dot(g, {}, "g");
  EXPECT_THAT(dot, HasSubstr("[label=\"bmm\", shape=box]"));
  EXPECT_THAT(dot, HasSubstr("[label=\"add\\nadd_\", shape=box]"));
}

TEST(ExplainHtmlLabels, ReadableTermsDropNamespacesAndOverloads) {
  EXPECT_EQ(readable_term("(aten::transpose.int (aten::bmm x arg12_1) 0 1)"),
            "(transpose (bmm x arg12_1) 0 1)");
  EXPECT_EQ(readable_term("(npu::op@node … arg1)"), "(op … arg1)");
}

// ---- regions -----------------------------------------------------------------

TEST(ExplainHtmlRegions, LayerNumbersInNames) {
  EXPECT_EQ(layer_number("l12_getitem"), 12);
  EXPECT_EQ(layer_number("model_layers_3_mlp"), 3);
  EXPECT_EQ(layer_number("layers.7.attn"), 7);
  EXPECT_EQ(layer_number("block4_add"), 4);
  EXPECT_EQ(layer_number("getitem_3"), std::nullopt);
  Regions r = group_regions(named_graph({"l0_a", "l0_b", "x", "l1_a", "l1_b", "l2_a"}));
  EXPECT_EQ(r.scheme, "layer");
  EXPECT_EQ(r.titles, (std::vector<std::string>{"layer 0", "layer 1", "layer 2"}));
  EXPECT_EQ(r.of_node, (std::vector<size_t>{0, 0, 0, 1, 1, 2}));  // "x" joins the layer before
  EXPECT_EQ(r.sizes, (std::vector<size_t>{3, 2, 1}));
}

TEST(ExplainHtmlRegions, GrowingSuffixesAreBlocksButFxUniquifiersAreNot) {
  Regions blocks = group_regions(named_graph({"arn_0", "y_0", "mm_0", "arn_1", "y_1", "mm_1"}));
  EXPECT_EQ(blocks.scheme, "block");
  EXPECT_EQ(blocks.of_node, (std::vector<size_t>{0, 0, 0, 1, 1, 1}));
  // FX's "_<n>" name suffixes restart per op: not blocks, so fixed regions.
  Regions fx = group_regions(
      named_graph({"getitem_2", "getitem_3", "mm_1", "getitem_5", "add_1", "getitem_9", "mm_2"}),
      3);
  EXPECT_EQ(fx.scheme, "region");
  EXPECT_EQ(fx.titles, (std::vector<std::string>{"nodes 0-2", "nodes 3-5", "nodes 6-6"}));
  EXPECT_EQ(fx.of_node, (std::vector<size_t>{0, 0, 0, 1, 1, 1, 2}));
}

TEST(ExplainHtmlRegions, DecoderStackGroupsByBlock) {
  Graph g = named_graph({"h0", "g1_0", "g1_1", "arn_0", "y_0", "arn_1", "y_1", "output_x"});
  Regions r = group_regions(g);
  EXPECT_EQ(r.scheme, "block");
  EXPECT_EQ(r.titles.size(), 2u);
  EXPECT_EQ(r.of_node.front(), 0u);  // before any keyed node: the first region
}

// ---- SVG -----------------------------------------------------------------------

TEST(ExplainHtmlSvg, BarChartHasTwoBarsPerKindScaledToTheLargest) {
  std::string svg = bar_chart_svg({{"bmm", 100, 0}, {"npu_fused", 0, 50}}, "µs");
  EXPECT_TRUE(svg.starts_with("<svg class=\"chart\""));
  EXPECT_EQ(count(svg, "<rect"), 2u + 4u);  // the legend's swatches, then the bars
  EXPECT_THAT(svg, HasSubstr(">bmm</text>"));
  EXPECT_THAT(svg, HasSubstr("width=\"360.0\""));  // the largest value fills the bar area
  EXPECT_THAT(svg, HasSubstr("width=\"180.0\""));  // half of it
  EXPECT_THAT(svg, HasSubstr("<title>npu_fused after: 50.0 µs</title>"));
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(svg, why)) << why;
  EXPECT_EQ(bar_chart_svg({}, "µs"), "");
}

TEST(ExplainHtmlSvg, TopBarsKeepTheLargestAndSumTheRest) {
  std::vector<Bar> bars = top_bars({{"a", 1, 0}, {"b", 10, 2}, {"c", 0, 5}, {"d", 2, 2}}, 2);
  ASSERT_EQ(bars.size(), 3u);
  EXPECT_EQ(bars[0].label, "b");
  EXPECT_EQ(bars[1].label, "c");
  EXPECT_EQ(bars[2].label, "other (2 kinds)");
  EXPECT_DOUBLE_EQ(bars[2].before, 3);
  EXPECT_DOUBLE_EQ(bars[2].after, 2);
}

TEST(ExplainHtmlSvg, LocalGraphPutsConsumersBelowProducers) {
  LocalGraph g;
  g.nodes = {{{"x", "bf16[4]"}, false}, {{"mm", "bf16[4]", "3.0 µs"}, true}, {{"y<1>"}, false}};
  g.edges = {{0, 1}, {1, 2}};
  std::string svg = local_graph_svg(g);
  EXPECT_EQ(count(svg, "<g class=\"core\">"), 1u);
  EXPECT_EQ(count(svg, "<g class=\"ctx\">"), 2u);
  EXPECT_EQ(count(svg, "<line"), 2u);
  EXPECT_THAT(svg, HasSubstr("y&lt;1&gt;"));
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(svg, why)) << why;
  std::string dot = local_graph_dot(g);
  EXPECT_THAT(dot, HasSubstr("n1 [label=\"mm\\nbf16[4]\\n3.0 µs\", style=filled"));
  EXPECT_THAT(dot, HasSubstr("n0 -> n1;"));
}

}  // namespace
}  // namespace eqfuse
