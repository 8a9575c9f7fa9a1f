// The HTML form of an explanation (`eqfuse explain --format html`): one
// self-contained page, no network access needed to view it.
//
//   ExplainReport rep = explain_run(r, reg);
//   std::string page = explanation_to_html(rep, input_graph, r.graph);
//
// The page holds the summary, the before and after graphs, the chosen
// fusions (each an anchor `fusion-N` with its cost table and proof), the
// fusions possible but not chosen, rejections, rules off, cross-stream near
// misses and the per-rule table. Graphs are drawn by Graphviz: when `dot`
// is on PATH the DOT text is piped through `dot -Tsvg` and the SVG inlined
// (fused kernels and the input nodes they replace are filled and link to
// their explanation); otherwise the page says so and embeds the DOT text.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "extract/explain_report.hpp"
#include "graph/graph.hpp"

namespace eqfuse {

struct HtmlOptions {
  bool use_dot = true;  // false: never run `dot` (embed DOT text)
};

// DOT text of `g`; nodes named in `links` are highlighted and link to the
// anchor given ("#fusion-0").
std::string graph_to_dot(const Graph& g, const std::map<std::string, std::string>& links,
                         std::string_view title);

// SVG from `dot -Tsvg` (XML prolog stripped), or nullopt when `dot` is not
// on PATH or fails.
std::optional<std::string> render_dot_svg(const std::string& dot_text);

std::string explanation_to_html(const ExplainReport& rep, const Graph& before, const Graph& after,
                                const HtmlOptions& options = {});

}  // namespace eqfuse
