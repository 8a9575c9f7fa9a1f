// The HTML form of an explanation (`eqfuse explain --format html`): one
// self-contained page, no network access needed to view it.
//
//   ExplainReport rep = explain_run(r, reg);
//   std::string page = explanation_to_html(rep, input_graph, r.graph);
//
// The page answers first: a table of contents, the summary (kernels and
// modeled time before -> after), the fusions by rule (chosen / possible but
// not chosen / rejected, with a one-line reason) and an inline SVG bar chart
// of modeled time by kernel kind. Then one card per fusion site (anchor
// `fusion-N`: local before/after drawings with shapes and per-kernel µs, the
// cost table, the proof folded; pipeline/explain/html_cards.hpp), the
// graphs, the full lists (not chosen, rejections, near misses, rules off,
// cross-stream near misses), the per-rule table and the reinplace decisions
// (each a table row `reinplace-N`). Graphs of at most 150 nodes are drawn
// whole by Graphviz: when `dot` is on PATH the DOT text is run through `dot
// -Tsvg` and the SVG inlined (fused kernels and the input nodes they replace
// are filled orange, nodes the reinplace passes rewrote blue, each linking
// to its explanation; a legend under each graph names the colours). When
// `dot` is missing, fails or runs longer than the timeout (it is then
// killed), the page says why and embeds the DOT text instead. Larger graphs
// get an overview table, one anchored row per layer or region
// (pipeline/explain/html_layout.hpp), and never DOT text.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cost/cost_model.hpp"
#include "graph/graph.hpp"
#include "pipeline/explain/report.hpp"

namespace eqfuse {

inline constexpr double kDotTimeoutSeconds = 20;

struct HtmlOptions {
  bool use_dot = true;                        // false: never run `dot` (embed DOT text)
  double dot_timeout_s = kDotTimeoutSeconds;  // `dot` is killed after this long
  // When set, receives one line per graph `dot` could not draw (the CLI
  // prints them on stderr; the page carries the same note).
  std::vector<std::string>* notes = nullptr;
  // The run's own prices of the two graphs (OptimizeResult::before/after):
  // used as they are instead of pricing the graphs again under the report's
  // device, so the page's figures are the run's (its hints and frozen inputs
  // included). Null: priced here.
  const GraphCost* before_cost = nullptr;
  const GraphCost* after_cost = nullptr;
};

// Why a node of a drawn graph is highlighted; each kind has its own fill.
enum class Highlight {
  Fusion,     // a fused kernel (after) or an input node it replaces (before)
  Reinplace,  // rewritten by the reinplace passes (in place, or decomposed)
};

// A highlighted node: its fill and the anchor it links to ("#fusion-0").
struct NodeLink {
  std::string anchor;
  Highlight kind = Highlight::Fusion;
};

// DOT text of `g`; nodes named in `links` are filled by their kind and link
// to their anchor.
std::string graph_to_dot(const Graph& g, const std::map<std::string, NodeLink>& links,
                         std::string_view title);

// The outcome of `dot -Tsvg`: the SVG (XML prolog stripped), or why there is
// none ("Graphviz dot was not found on PATH", "... failed (exit status 1):
// <its first stderr line>", "... did not finish within 20 s and was
// stopped", ...).
struct DotRender {
  std::optional<std::string> svg;
  std::string failure;  // "" when svg is set
};

// The first executable `program` in a PATH directory, or empty.
std::string find_on_path(std::string_view program);

// Runs the `dot` found on PATH in its own process group, with no input but
// the DOT file, and kills the group after `timeout_s` seconds.
DotRender render_dot(const std::string& dot_text, double timeout_s = kDotTimeoutSeconds);

// Several graphs drawn by one `dot` process (each process start costs more
// than drawing a small graph): the SVG of each, in order, or nullopt when
// that run fails, times out (after `timeout_s` per graph) or prints another
// number of SVG documents; callers then draw one at a time with render_dot.
std::optional<std::vector<std::string>> render_dots(const std::vector<std::string>& dot_texts,
                                                    double timeout_s = kDotTimeoutSeconds);

// render_dot's SVG, or nullopt when `dot` is not on PATH, fails or times out.
std::optional<std::string> render_dot_svg(const std::string& dot_text);

std::string explanation_to_html(const ExplainReport& rep, const Graph& before, const Graph& after,
                                const HtmlOptions& options = {});

}  // namespace eqfuse
