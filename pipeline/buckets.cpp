// Shape buckets: one optimize run per value of a symbol, decisions joined
// by (rule, site).
#include "pipeline/buckets.hpp"

#include <algorithm>
#include <charconv>
#include <set>

#include <fmt/format.h>

#include "base/diagnostics.hpp"
#include "pipeline/explain/report.hpp"

namespace eqfuse {
namespace {

int64_t parse_value(std::string_view item, std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
  if (ec != std::errc() || end != item.data() + item.size() || v < 1)
    throw Error(fmt::format("--buckets '{}': '{}' is not a positive integer", text, item));
  return v;
}

// The input nodes of each decision's site, seen over all buckets (aligned with
// BucketReport::decisions). A site is one place in the input graph: a chosen fusion
// is named by the fused node it became, a fusion not chosen by the input node it would
// replace, and the fused node's name can differ between buckets (two sites of one
// rule number their fused nodes in the order they are chosen). So a site is found by
// the input nodes it replaces, not by a name.
using SiteNodes = std::vector<std::set<std::string>>;

BucketDecision& site_for(BucketReport& rep, SiteNodes& nodes, const std::string& rule,
                         const std::string& label, const std::vector<std::string>& replaced) {
  for (size_t i = 0; i < rep.decisions.size(); ++i) {
    if (rep.decisions[i].rule != rule) continue;
    if (std::any_of(replaced.begin(), replaced.end(),
                    [&](const std::string& n) { return nodes[i].contains(n); })) {
      nodes[i].insert(replaced.begin(), replaced.end());
      return rep.decisions[i];
    }
  }
  // A label another site of the rule already has (its fused node was numbered the
  // same in another bucket) gives way to the input node the site replaces last.
  const bool taken = std::any_of(rep.decisions.begin(), rep.decisions.end(),
                                 [&](const auto& d) { return d.rule == rule && d.site == label; });
  const size_t n = rep.spec.values.size();
  rep.decisions.push_back({rule, taken ? replaced.back() : label, std::vector<char>(n, 0),
                           std::vector<std::string>(n)});
  nodes.resize(rep.decisions.size());
  nodes.back().insert(replaced.begin(), replaced.end());
  return rep.decisions.back();
}

}  // namespace

bool BucketDecision::flips() const {
  return std::any_of(chosen.begin(), chosen.end(), [](char c) { return c != 0; }) &&
         std::any_of(chosen.begin(), chosen.end(), [](char c) { return c == 0; });
}

BucketSpec parse_buckets(std::string_view text) {
  size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 >= text.size())
    throw Error(
        fmt::format("--buckets '{}': expected SYMBOL=V1,V2,... (e.g. s0=1,16,256,4096)", text));
  BucketSpec spec{std::string(trim_blanks(text.substr(0, eq))), {}};
  std::string_view rest = text.substr(eq + 1);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    spec.values.push_back(parse_value(trim_blanks(rest.substr(0, comma)), text));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
  }
  std::sort(spec.values.begin(), spec.values.end());
  spec.values.erase(std::unique(spec.values.begin(), spec.values.end()), spec.values.end());
  return spec;
}

void check_bucket_sizes(const Graph& g, const SymbolHints& hints, const BucketSpec& spec) {
  SymbolHints at = hints;
  for (int64_t value : spec.values) {
    at.values[spec.symbol] = value;
    try {
      check_sizes_fit(g, at);
    } catch (const Error& e) {
      throw Error(fmt::format("--buckets {}={}: {}", spec.symbol, value, e.what()), e.loc());
    }
  }
}

BucketReport optimize_buckets(const Graph& g, const OpRegistry& reg, OptimizeOptions options,
                              const BucketSpec& spec) {
  check_bucket_sizes(g, options.hints, spec);
  BucketReport rep;
  rep.spec = spec;
  options.record_explanations = true;
  options.dump_dir.clear();
  SiteNodes site_nodes;
  for (size_t b = 0; b < spec.values.size(); ++b) {
    options.hints.values[spec.symbol] = spec.values[b];
    OptimizeResult r = optimize_graph(g, reg, options);
    rep.kernels_before.push_back(r.stats.kernels_before);
    rep.kernels_after.push_back(r.stats.kernels_after);
    rep.cost_before_us.push_back(r.stats.cost_before_us);
    rep.cost_after_us.push_back(r.stats.cost_after_us);
    ExplainOptions eo;
    eo.proofs = false;
    ExplainReport ex = explain_run(r, reg, eo);
    for (const ChosenFusion& c : ex.chosen) {
      std::vector<std::string> replaced = c.replaces;
      if (replaced.empty()) replaced.push_back(c.node);
      site_for(rep, site_nodes, c.rule, c.node, replaced).chosen[b] = 1;
    }
    for (const UnchosenFusion& u : ex.not_chosen)
      site_for(rep, site_nodes, u.rule, u.for_node, {u.for_node}).why_not[b] = u.reason;
  }
  return rep;
}

std::string format_buckets(const BucketReport& rep) {
  const auto& values = rep.spec.values;
  std::string out =
      fmt::format("decisions per bucket of {}:\n  {:<56}", rep.spec.symbol, "rule @ site");
  for (int64_t v : values) out += fmt::format(" {:>9}", fmt::format("{}={}", rep.spec.symbol, v));
  out += "\n";
  size_t flips = 0;
  for (const BucketDecision& d : rep.decisions) {
    std::string label = d.rule + " @ " + d.site;
    if (label.size() > 56) label = label.substr(0, 53) + "...";
    out += fmt::format("  {:<56}", label);
    for (char c : d.chosen) out += fmt::format(" {:>9}", c ? "fused" : "-");
    if (d.flips()) {
      out += "  <- flips";
      ++flips;
    }
    out += "\n";
  }
  if (rep.decisions.empty()) out += "  (no fusion site in any bucket)\n";
  out += fmt::format("  {:<56}", "modeled cost before -> after (us)");
  for (size_t b = 0; b < values.size(); ++b)
    out += fmt::format(" {:>9}",
                       fmt::format("{:.0f}->{:.0f}", rep.cost_before_us[b], rep.cost_after_us[b]));
  out += "\n";
  for (const BucketDecision& d : rep.decisions) {
    if (!d.flips()) continue;
    for (size_t b = 0; b < values.size(); ++b)
      if (!d.chosen[b] && !d.why_not[b].empty())
        out += fmt::format("  {} @ {} at {}={}: {}\n", d.rule, d.site, rep.spec.symbol, values[b],
                           d.why_not[b]);
  }
  out += flips == 0 ? "  no decision flips between buckets\n"
                    : fmt::format("  {} decision(s) flip between buckets\n", flips);
  return out;
}

}  // namespace eqfuse
