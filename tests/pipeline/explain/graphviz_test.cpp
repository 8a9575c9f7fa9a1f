// ctest-label: golden
// The graphs of the HTML explanation (pipeline/explain/html.hpp) drawn by the
// real Graphviz `dot` (installed by scripts/setup; skipped with a message
// when it is not on PATH), and what happens when `dot` fails or hangs (a
// stand-in `dot` script on PATH): the page notes why and embeds the DOT
// text, and a hanging `dot` is stopped after the timeout. The page in a real
// browser: tests/pipeline/explain/html_browser_test.cpp.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/load.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"
#include "tests/support/cli_runner.hpp"
#include "tests/support/explain_fixture.hpp"
#include "tests/support/html_checks.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

using testing_support::Explained;

Explained explain_file(const std::string& rel_path) {
  return testing_support::explain_source_file(rel_path);
}

using testing_support::section;

// The `<a ...>...</a>` element that links to `anchor`, or empty.
std::string link_element(const std::string& svg, const std::string& anchor) {
  size_t start = svg.find(fmt::format("<a xlink:href=\"{}\"", anchor));
  if (start == std::string::npos) return {};
  return svg.substr(start, svg.find("</a>", start) - start);
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Puts a stand-in `dot` (a shell script body) first on PATH for its lifetime.
class FakeDot {
 public:
  FakeDot(const std::string& tag, const std::string& body)
      : dir_(testing_support::scratch_dir(tag)),
        old_path_(std::getenv("PATH") ? std::getenv("PATH") : "") {
    fs::path dot = dir_ / "dot";
    std::ofstream(dot) << "#!/bin/sh\n" << body;
    fs::permissions(dot, fs::perms::owner_all);
    ::setenv("PATH", (dir_.string() + ":" + old_path_).c_str(), 1);
  }
  ~FakeDot() { ::setenv("PATH", old_path_.c_str(), 1); }
  FakeDot(const FakeDot&) = delete;
  FakeDot& operator=(const FakeDot&) = delete;

 private:
  fs::path dir_;
  std::string old_path_;
};

// ---- the real dot -----------------------------------------------------------------

class RealDot : public ::testing::Test {
 protected:
  void SetUp() override {
    if (find_on_path("dot").empty())
      GTEST_SKIP() << "Graphviz `dot` is not on PATH (scripts/setup installs the graphviz "
                      "package); the real-dot rendering checks did not run";
  }
};

TEST_F(RealDot, DeepseekGraphsAreInlineSvgWithEachFusionLinkedAndHighlighted) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  ASSERT_FALSE(e.report.chosen.empty());
  std::vector<std::string> notes;
  HtmlOptions opt;
  opt.notes = &notes;
  std::string html = explanation_to_html(e.report, e.input, e.result.graph, opt);
  EXPECT_TRUE(notes.empty()) << notes.front();

  std::string before = section(html, "Before"), after = section(html, "After");
  for (const std::string* graph : {&before, &after}) {
    EXPECT_THAT(*graph, HasSubstr("<div class=\"graph\">\n<svg"));
    EXPECT_EQ(count(*graph, "<svg"), 1u);
    EXPECT_EQ(count(*graph, "</svg>"), 1u);
    EXPECT_THAT(*graph, Not(HasSubstr("<pre class=\"dot\">")));
  }
  for (size_t i = 0; i < e.report.chosen.size(); ++i) {
    std::string anchor = fmt::format("#fusion-{}", i);
    SCOPED_TRACE(anchor + " " + e.report.chosen[i].node);
    EXPECT_EQ(count(after, "xlink:href=\"" + anchor + "\""), 1u);
    std::string link = link_element(after, anchor);
    // The linked shape is the fused node's: its name is the first label line.
    EXPECT_THAT(link, HasSubstr(">" + e.report.chosen[i].node + "</text>"));
    EXPECT_THAT(link, HasSubstr("<polygon fill=\"#"));  // highlighted
    EXPECT_THAT(html, HasSubstr(fmt::format("id=\"fusion-{}\"", i)));
    // The input nodes it replaces link to the same explanation.
    EXPECT_GE(count(before, "xlink:href=\"" + anchor + "\""), 1u);
  }
  // Nodes that are not fused keep an unfilled box.
  EXPECT_THAT(after, HasSubstr("<polygon fill=\"none\""));
  // Each graph's legend names its highlights: fusions, and in the after
  // graph the node the reinplace passes rewrote (sigmoid, in place).
  EXPECT_THAT(before, HasSubstr("<li class=\"fusion\">"));
  EXPECT_THAT(before, Not(HasSubstr("<li class=\"reinplace\">")));
  EXPECT_THAT(after, HasSubstr("<li class=\"fusion\">"));
  EXPECT_THAT(after, HasSubstr("<li class=\"reinplace\">"));
  EXPECT_THAT(link_element(after, "#reinplace-0"), HasSubstr(">sigmoid</text>"));
  EXPECT_EQ(html.find("<?xml"), std::string::npos);
  EXPECT_EQ(html.find("<!DOCTYPE svg"), std::string::npos);
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
  testing_support::expect_self_contained(html);
}

// A2 in reduce-overhead: `add` (pass A) and `mul` (pass B) are rewritten in
// place; in the drawn after graph each is a blue shape linking to its
// decision row, and the legend names the colour. remove_noop_ops is off as
// in TorchAir's A2 (otherwise the clone goes and the add stays out of place).
TEST_F(RealDot, ReinplacedNodesAreHighlightedAndLinkedToTheirDecision) {
  OptimizeOptions keep_noops;
  keep_noops.rules.mode = ExecMode::ReduceOverhead;
  keep_noops.rules.remove_noop_ops = false;
  Explained e = testing_support::explain_source_file("tests/scenarios/reinplace/A2.fx", keep_noops);
  ASSERT_TRUE(e.report.reinplace.ran);
  std::string html = explanation_to_html(e.report, e.input, e.result.graph);
  std::string after = section(html, "After");
  ASSERT_THAT(after, HasSubstr("<svg"));
  for (const auto& [anchor, node] : std::vector<std::pair<std::string, std::string>>{
           {"#reinplace-0", "add"}, {"#reinplace-2", "mul"}}) {
    SCOPED_TRACE(anchor);
    EXPECT_EQ(count(after, "xlink:href=\"" + anchor + "\""), 1u);
    std::string link = link_element(after, anchor);
    EXPECT_THAT(link, HasSubstr(">" + node + "</text>"));
    EXPECT_THAT(link, HasSubstr("<polygon fill=\"#85c1e9\""));
  }
  EXPECT_EQ(count(after, "xlink:href=\"#reinplace-1\""), 0u);  // kept by pass A
  EXPECT_THAT(after, HasSubstr("<ul class=\"legend\">\n<li class=\"reinplace\">"));
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
  testing_support::expect_self_contained(html);
}

TEST_F(RealDot, RenderIsDeterministic) {
  Explained e = explain_file("examples/matmul_transpose.fx");
  EXPECT_EQ(explanation_to_html(e.report, e.input, e.result.graph),
            explanation_to_html(e.report, e.input, e.result.graph));
}

// ---- a dot that fails or hangs ----------------------------------------------------------

TEST(BrokenDot, FailingDotIsNotedWithItsErrorAndTheDotTextIsEmbedded) {
  Explained e = explain_file("examples/matmul_transpose.fx");
  FakeDot fake("faildot", "echo 'Error: syntax error in line 1 near x' >&2\nexit 3\n");
  std::vector<std::string> notes;
  HtmlOptions opt;
  opt.notes = &notes;
  std::string html = explanation_to_html(e.report, e.input, e.result.graph, opt);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_THAT(notes[0], HasSubstr("Before graph: Graphviz dot ("));
  EXPECT_THAT(notes[0], HasSubstr("failed (exit status 3): Error: syntax error in line 1 near x"));
  EXPECT_THAT(notes[1], HasSubstr("After graph: "));
  EXPECT_THAT(html, HasSubstr("failed (exit status 3): Error: syntax error in line 1 near x, so "
                              "the graph is shown as DOT text"));
  EXPECT_EQ(count(html, "<pre class=\"dot\">digraph"), 2u);
  std::string why;
  EXPECT_TRUE(testing_support::tags_balanced(html, why)) << why;
}

TEST(BrokenDot, HangingDotIsStoppedAfterTheTimeout) {
  Explained e = explain_file("examples/matmul_transpose.fx");
  // A child that keeps the pipes open (only killing the process group ends
  // it), and a dot that closes its output but does not exit.
  for (const char* body : {"sleep 30 &\nwait\n", "exec >&- 2>&-\nsleep 30\n"}) {
    SCOPED_TRACE(body);
    FakeDot fake("hangdot", body);
    std::vector<std::string> notes;
    HtmlOptions opt;
    opt.dot_timeout_s = 0.2;
    opt.notes = &notes;
    std::string html = explanation_to_html(e.report, e.input, e.result.graph, opt);
    ASSERT_EQ(notes.size(), 2u);
    EXPECT_THAT(notes[0], HasSubstr("did not finish within 0.2 s and was stopped"));
    EXPECT_THAT(html, HasSubstr("did not finish within 0.2 s and was stopped, so the graph is "
                                "shown as DOT text"));
  }
}

// The site drawings come from one `dot` process; each SVG must be what `dot`
// writes for that graph alone (ids included), so the page is the same.
TEST_F(RealDot, SeveralGraphsInOneRunAreEachAsDrawnAlone) {
  const std::vector<std::string> graphs{"digraph \"a\" { x -> y; }\n",
                                        "digraph \"b\" { p -> q; q -> r; }\n",
                                        "digraph \"c\" { m [label=\"mm\"]; }\n"};
  std::optional<std::vector<std::string>> together = render_dots(graphs);
  ASSERT_TRUE(together.has_value());
  ASSERT_EQ(together->size(), graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) {
    DotRender alone = render_dot(graphs[i]);
    ASSERT_TRUE(alone.svg.has_value()) << alone.failure;
    EXPECT_EQ((*together)[i], *alone.svg) << graphs[i];
  }
}

// The page priced from the run's own graph costs equals the page that prices
// the graphs itself (default options: the same device, mode and sizes).
TEST(ExplainHtmlCosts, RunCostsGiveTheSamePageAsPricingAgain) {
  Explained e = explain_file("examples/deepseek_layer.fx");
  HtmlOptions own;
  own.use_dot = false;
  HtmlOptions from_run = own;
  from_run.before_cost = &e.result.before;
  from_run.after_cost = &e.result.after;
  EXPECT_EQ(explanation_to_html(e.report, e.input, e.result.graph, from_run),
            explanation_to_html(e.report, e.input, e.result.graph, own));
}

TEST(BrokenDot, ABatchDotThatPrintsTooFewGraphsIsRefused) {
  FakeDot fake("onesvgdot", "echo '<svg>one</svg>'\n");
  EXPECT_FALSE(render_dots({"digraph { a }", "digraph { b }"}).has_value());
  ASSERT_TRUE(render_dots({"digraph { a }"}).has_value());
  EXPECT_EQ(render_dots({"digraph { a }"})->front(), "<svg>one</svg>\n");
}

TEST(BrokenDot, DotWithoutSvgOutputIsNoted) {
  FakeDot fake("quietdot", "echo 'not an svg'\n");
  DotRender r = render_dot("digraph { a -> b }");
  EXPECT_FALSE(r.svg.has_value());
  EXPECT_THAT(r.failure, HasSubstr("printed no <svg> element"));
}

TEST(BrokenDot, CliNotesTheTimeoutOnStderr) {
  FakeDot fake("clihangdot", "sleep 30 &\nwait\n");
  fs::path out = testing_support::scratch_dir() / "hang.html";
  auto run = testing_support::run_eqfuse(
      "explain examples/matmul_transpose.fx --format html --dot-timeout 0.2 -o " + out.string());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.err, HasSubstr("note: Before graph: Graphviz dot ("));
  EXPECT_THAT(run.err, HasSubstr("did not finish within 0.2 s and was stopped; the page shows it "
                                 "as DOT text"));
  EXPECT_THAT(testing_support::slurp_file(out), HasSubstr("<pre class=\"dot\">digraph"));
}

}  // namespace
}  // namespace eqfuse
