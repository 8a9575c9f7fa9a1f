// explanation_to_html and its Graphviz helpers (pipeline/explain/html.hpp).
#include "pipeline/explain/html.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "extract/internal.hpp"
#include "pipeline/explain/html_cards.hpp"
#include "pipeline/explain/html_layout.hpp"

extern char** environ;

namespace eqfuse {
namespace {

using html_detail::escape_dot;
using html_detail::escape_html;

// The label lines of html_detail::node_label_lines, as one DOT label.
std::string dot_node_label(const Node& n) {
  std::string label;
  for (const std::string& line : html_detail::node_label_lines(n))
    label += (label.empty() ? "" : "\\n") + escape_dot(line);
  return label;
}

std::string dot_node_style(const Node& n) {
  switch (n.kind) {
    case NodeKind::Placeholder:
    case NodeKind::GetAttr:
      return "shape=ellipse";
    case NodeKind::GetItem:
      return "shape=plaintext, fontsize=10";
    case NodeKind::Output:
      return "shape=doublecircle";
    case NodeKind::Call:
      return "shape=box";
  }
  return "";
}

// What a child process printed and how it ended.
struct ProgramRun {
  std::string out, err;
  int status = 0;  // waitpid status
  bool timed_out = false;
  std::string spawn_error;  // non-empty: the program did not start
};

enum class Drained { Closed, TimedOut, PollFailed };

// Reads both pipes until they close, the deadline passes or poll fails.
Drained drain_until(int out_fd, int err_fd, const extract_detail::Deadline& deadline,
                    ProgramRun& run) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&run.out, &run.err};
  int open_fds = 2;
  char buf[1 << 14];
  while (open_fds > 0) {
    if (deadline.passed()) return Drained::TimedOut;
    int wait_ms = static_cast<int>(deadline.remaining_s() * 1000) + 1;
    int ready = ::poll(fds, 2, wait_ms);
    if (ready < 0 && errno != EINTR) return Drained::PollFailed;
    for (int i = 0; ready > 0 && i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // poll ignores negative descriptors
        --open_fds;
      }
    }
  }
  return Drained::Closed;
}

// The child's output and exit status. One deadline covers both, so a
// program that closes its output and keeps running is stopped as well; a
// stopped program's whole process group is killed.
void collect(pid_t pid, int out_fd, int err_fd, double timeout_s, ProgramRun& run) {
  extract_detail::Deadline deadline(timeout_s);
  Drained drained = drain_until(out_fd, err_fd, deadline, run);
  while (drained == Drained::Closed && !deadline.passed()) {
    pid_t done = ::waitpid(pid, &run.status, WNOHANG);
    if (done == pid || (done < 0 && errno != EINTR)) return;
    ::usleep(1000);
  }
  run.timed_out = drained != Drained::PollFailed;
  ::kill(-pid, SIGKILL);
  while (::waitpid(pid, &run.status, 0) < 0 && errno == EINTR) {
  }
}

// Runs `argv` (argv[0] a path) in its own process group with stdin from
// /dev/null; after `timeout_s` the whole group is killed, so a hanging
// program (or a script's children) cannot hang the caller.
ProgramRun run_program(const std::vector<std::string>& argv, double timeout_s) {
  ProgramRun run;
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return (run.spawn_error = std::strerror(errno)), run;
  if (::pipe2(err, O_CLOEXEC) != 0) {
    run.spawn_error = std::strerror(errno);
    ::close(out[0]);
    ::close(out[1]);
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out[1]);
  ::close(err[1]);
  if (rc != 0) {
    run.spawn_error = std::strerror(rc);
  } else {
    collect(pid, out[0], err[0], timeout_s, run);
  }
  ::close(out[0]);
  ::close(err[0]);
  return run;
}

std::string first_line(std::string_view text) {
  size_t end = text.find('\n');
  return std::string(text.substr(0, end));
}

// Why a finished `dot` run gave no SVG; "" when it did.
std::string dot_failure(const std::string& path, const ProgramRun& run, double timeout_s) {
  std::string dot = fmt::format("Graphviz dot ({})", path);
  if (!run.spawn_error.empty()) return fmt::format("could not run {}: {}", dot, run.spawn_error);
  if (run.timed_out)
    return fmt::format("{} did not finish within {:g} s and was stopped", dot, timeout_s);
  std::string said = run.err.empty() ? "" : ": " + first_line(run.err);
  if (WIFSIGNALED(run.status))
    return fmt::format("{} was killed by signal {}{}", dot, WTERMSIG(run.status), said);
  if (!WIFEXITED(run.status) || WEXITSTATUS(run.status) != 0)
    return fmt::format("{} failed (exit status {}){}", dot, WEXITSTATUS(run.status), said);
  if (run.out.find("<svg") == std::string::npos)
    return fmt::format("{} printed no <svg> element", dot);
  return "";
}

// Lists longer than this are folded, so a 1000-block stack's rejections do
// not push the rest of the page away.
constexpr size_t kUnfoldedItems = 20;

// A list under its heading, in a <section id> for the table of contents.
std::string list_section(std::string_view id, std::string_view title,
                         const std::vector<std::string>& items) {
  std::string out = fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n", id, title);
  bool fold = items.size() > kUnfoldedItems;
  if (fold) out += fmt::format("<details><summary>{} entries</summary>\n", items.size());
  out += "<ul>\n";
  if (items.empty()) out += "<li>none</li>\n";
  for (const std::string& s : items) out += fmt::format("<li>{}</li>\n", escape_html(s));
  return out + (fold ? "</ul>\n</details>\n" : "</ul>\n") + "</section>\n";
}

std::string rule_table(const ExplainReport& rep) {
  std::string out =
      "<section "
      "id=\"rules\">\n<h2>Rules</h2>\n<table><tr><th>rule</th><th>candidates</th><th>fired</th>"
      "<th>chosen</th><th>rejected</th><th>near misses</th><th>note</th></tr>\n";
  for (const RuleRunStats& s : rep.rules) {
    std::string note = s.enabled ? "" : "off: " + s.toggle_reason;
    for (const auto& [cond, n] : s.rejected_by) note += fmt::format("{}x `{}` ", n, cond);
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape_html(s.rule), s.matches, s.applications, s.chosen, s.rejected,
        near_miss_count(rep, s.rule), escape_html(note));
  }
  return out + "</table>\n</section>\n";
}

// Fill colours of highlighted nodes, shared by the DOT text and the legend.
std::string_view highlight_fill(Highlight kind) {
  return kind == Highlight::Fusion ? "#f5b041" : "#85c1e9";
}

std::string_view highlight_class(Highlight kind) {
  return kind == Highlight::Fusion ? "fusion" : "reinplace";
}

std::string_view highlight_meaning(Highlight kind, bool before) {
  if (kind == Highlight::Reinplace)
    return "rewritten by the reinplace passes (an in-place op, or an auto_functionalized call "
           "decomposed); links to its reinplace decision";
  return before ? "replaced by a fused kernel; links to the fusion"
                : "fused kernel; links to its explanation";
}

// One legend entry per highlight kind the graph uses; "" when it uses none.
std::string legend(const std::map<std::string, NodeLink>& links, bool before) {
  std::set<Highlight> kinds;
  for (const auto& [node, link] : links) kinds.insert(link.kind);
  if (kinds.empty()) return "";
  std::string out = "<ul class=\"legend\">\n";
  for (Highlight k : kinds)
    out += fmt::format(
        "<li class=\"{}\"><span class=\"swatch\" style=\"background:{}\"></span> {}</li>\n",
        highlight_class(k), highlight_fill(k), escape_html(highlight_meaning(k, before)));
  return out + "</ul>\n";
}

// A graph drawn by `dot` (or its DOT text and why not), then its legend.
std::string graph_section(std::string_view title, const std::string& dot,
                          const std::string& legend_html, const HtmlOptions& options) {
  std::string out = fmt::format("<h2>{}</h2>\n", title);
  DotRender drawn;
  if (options.use_dot) {
    drawn = render_dot(dot, options.dot_timeout_s);
  } else {
    drawn.failure = "Graphviz rendering is turned off";
  }
  if (drawn.svg) return out + "<div class=\"graph\">\n" + *drawn.svg + "\n</div>\n" + legend_html;
  if (options.use_dot && options.notes != nullptr)
    options.notes->push_back(fmt::format("{} graph: {}", title, drawn.failure));
  out += fmt::format(
      "<p class=\"note\">{}, so the graph is shown as DOT text; render it with <code>dot "
      "-Tsvg</code>.</p>\n",
      escape_html(drawn.failure));
  return out + "<pre class=\"dot\">" + escape_html(dot) + "</pre>\n" + legend_html;
}

// One row per reinplace decision, each an anchor `reinplace-N`.
std::string reinplace_section(const ReinplaceExplanation& e) {
  std::string out =
      fmt::format("<h2>Reinplace</h2>\n<p>{}</p>\n", escape_html(reinplace_summary_sentence(e)));
  // recover_view_inplace runs in every mode, the passes only in reduce-overhead.
  if (!e.ran && e.log.recover_view_inplace.empty()) return out;
  out += "<ul class=\"note\">\n";
  for (const std::string& line : e.log.recover_view_inplace)
    out += fmt::format("<li>{}</li>\n", escape_html(line));
  if (!e.ran) return out + "</ul>\n";
  for (const std::string& note : e.log.notes)
    out += fmt::format("<li>{}</li>\n", escape_html(note));
  out += "</ul>\n";
  if (e.log.decisions.empty()) return out + "<p>no candidates</p>\n";
  out +=
      "<table class=\"reinplace\"><tr><th>pass</th><th>node</th><th>op</th><th>in-place op</th>"
      "<th>outcome</th><th>reason</th><th>bytes saved</th></tr>\n";
  for (size_t i = 0; i < e.log.decisions.size(); ++i) {
    const ReinplaceDecision& d = e.log.decisions[i];
    std::string reason = d.reason;
    std::vector<std::string> gone = d.removed_nodes();
    if (!gone.empty()) reason += fmt::format("; removed {}", fmt::join(gone, ", "));
    out += fmt::format(
        "<tr id=\"reinplace-{}\" class=\"{}\"><td>{}</td><td>{}</td><td><code>{}</code></td>"
        "<td><code>{}</code></td><td>{} <code>{}</code></td><td>{}</td><td>{}</td></tr>\n",
        i, d.success ? "inplace" : "kept", reinplace_pass_letter(d.pass), escape_html(d.node),
        escape_html(d.target), escape_html(d.inplace_target), d.success ? "in place" : "kept",
        reinplace_reason_name(d.kind), escape_html(reason),
        d.success ? escape_html(reinplace_saved_text(d, e.saved_bytes[i])) : "-");
  }
  return out + "</table>\n";
}

// Graphs up to this many nodes are drawn whole; beyond, `dot` takes
// seconds to minutes and the drawing is too big to read, so the page shows
// a per-layer overview instead.
constexpr size_t kMaxDrawnNodes = 150;
// Sites of one rule shown as full cards; the rest are rows of a table (a
// 300-block stack has hundreds of identical sites).
constexpr size_t kFullCardsPerRule = 3;
constexpr size_t kChartKinds = 10;
// Local drawings get at most this long from `dot`: a few nodes take ~20 ms.
constexpr double kLocalDotTimeoutS = 2;

// What the page's sections share: the graphs, their per-node costs and
// (for large graphs) the regions of the overview.
struct Page {
  const ExplainReport& rep;
  const Graph& before;
  const Graph& after;
  html_detail::PricedGraph before_cost, after_cost;
  bool draw_whole = true;
  html_detail::Regions regions;       // set when !draw_whole
  std::vector<size_t> fusion_region;  // region of each chosen fusion
  std::vector<size_t> after_region;   // region of each output node
};

// Per rule, what the report says about it; the first-screen table.
struct RuleLine {
  std::string rule;
  size_t chosen = 0, not_chosen = 0, rejected = 0, near = 0;
  double saved_us = 0;
  std::string why;  // one line: the first reason a site was not fused
};

std::vector<RuleLine> rule_lines(const ExplainReport& rep) {
  std::vector<RuleLine> lines;
  std::map<std::string, size_t> at;
  auto line = [&](const std::string& rule) -> RuleLine& {
    auto [it, fresh] = at.emplace(rule, lines.size());
    if (fresh) lines.push_back(RuleLine{rule});
    return lines[it->second];
  };
  auto why = [](RuleLine& l, const std::string& text) {
    if (l.why.empty()) l.why = text;
  };
  for (const ChosenFusion& f : rep.chosen) {
    RuleLine& l = line(f.rule);
    ++l.chosen;
    l.saved_us += f.unfused.total_us - f.cost.total_us;
  }
  for (const UnchosenFusion& u : rep.not_chosen)
    why(line(u.rule), u.reason), ++line(u.rule).not_chosen;
  for (const RejectedMatch& m : rep.rejected)
    why(line(m.rule), rejection_sentence(m)), ++line(m.rule).rejected;
  for (const NearMiss& m : rep.near_misses)
    why(line(m.rule), near_miss_sentence(m)), ++line(m.rule).near;
  return lines;
}

std::string kernels_text(const Page& p) {
  if (!p.before_cost.priced) return "-";
  return fmt::format("{} → {}", p.before_cost.kernels, p.after_cost.kernels);
}

std::string summary_section(const Page& p) {
  const ExplainReport& rep = p.rep;
  double change = rep.cost_before_us > 0
                      ? 100 * (rep.cost_after_us - rep.cost_before_us) / rep.cost_before_us
                      : 0;
  std::string out = fmt::format(
      "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"summary\"><tr><th>mode</th>"
      "<th>device</th><th>kernels before → after</th><th>modeled time before → after</th>"
      "<th>change</th><th>fused kernels</th></tr>\n<tr><td>{}</td><td>{}</td><td>{}</td>"
      "<td>{:.1f} µs → {:.1f} µs</td><td>{:+.1f}%</td><td>{}</td></tr>\n</table>\n",
      escape_html(rep.mode), escape_html(rep.device), kernels_text(p), rep.cost_before_us,
      rep.cost_after_us, change, rep.chosen.size());
  out += fmt::format("<p class=\"note\">extraction: {} ({})</p>\n", escape_html(rep.extractor),
                     escape_html(rep.extraction_quality));
  if (!rep.kept_input.empty())
    out += fmt::format("<p><strong>kept the input graph:</strong> {}</p>\n",
                       escape_html(rep.kept_input));
  return out + "</section>\n";
}

std::string rule_anchor(size_t group) {
  return fmt::format("rule-{}", group);
}

// The rules that did anything, with counts and the first reason a site was
// left unfused; chosen counts link to the rule's cards.
std::string by_rule_section(const ExplainReport& rep) {
  std::vector<RuleLine> lines = rule_lines(rep);
  std::string out =
      "<section id=\"by-rule\">\n<h3>Fusions by rule</h3>\n<table class=\"by-rule\"><tr>"
      "<th>rule</th><th>chosen</th><th>saved µs</th><th>possible, not chosen</th>"
      "<th>rejected</th><th>near misses</th><th>why not (first case)</th></tr>\n";
  size_t group = 0;
  for (const RuleLine& l : lines) {
    std::string chosen =
        l.chosen == 0 ? "0" : fmt::format("<a href=\"#{}\">{}</a>", rule_anchor(group++), l.chosen);
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{:.1f}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td class=\"why\" title=\"{}\">{}</td></tr>\n",
        escape_html(l.rule), chosen, l.saved_us, l.not_chosen, l.rejected, l.near,
        escape_html(l.why), escape_html(l.why));
  }
  if (lines.empty()) out += "<tr><td colspan=\"7\">no fusion rule matched</td></tr>\n";
  out += "</table>\n";
  size_t quiet = rep.rules.size() > lines.size() ? rep.rules.size() - lines.size() : 0;
  if (quiet > 0)
    out += fmt::format(
        "<p class=\"note\">{} other rule(s) found nothing; all rules: <a href=\"#rules\">Rules</a>."
        "</p>\n",
        quiet);
  return out + "</section>\n";
}

std::string chart_section(const Page& p) {
  std::string out = "<section id=\"time\">\n<h3>Modeled time by kernel kind</h3>\n";
  if (!p.before_cost.priced)
    return out + fmt::format("<p class=\"note\">not priced: {}</p>\n</section>\n",
                             escape_html(p.before_cost.why_not));
  std::vector<html_detail::Bar> bars = html_detail::top_bars(
      html_detail::time_by_kind(p.before, p.before_cost, p.after, p.after_cost), kChartKinds);
  out += html_detail::bar_chart_svg(bars, "µs") + "\n";
  out += fmt::format(
      "<p class=\"note\">µs per op summed over the graph's kernels ({} → {} µs without the "
      "per-graph cost), priced as the summary with the device profile.</p>\n",
      fmt::format("{:.1f}", p.before_cost.total_us), fmt::format("{:.1f}", p.after_cost.total_us));
  return out + "</section>\n";
}

// Chosen fusions grouped by rule, in the by-rule table's order.
std::vector<std::vector<size_t>> sites_by_rule(const ExplainReport& rep) {
  std::vector<std::vector<size_t>> groups;
  std::map<std::string, size_t> at;
  for (const RuleLine& l : rule_lines(rep))
    if (l.chosen > 0) at.emplace(l.rule, at.size());
  groups.resize(at.size());
  for (size_t i = 0; i < rep.chosen.size(); ++i) groups[at.at(rep.chosen[i].rule)].push_back(i);
  return groups;
}

std::string region_link(const Page& p, size_t region) {
  return fmt::format("<a href=\"#region-{}\">{}</a>", region,
                     escape_html(p.regions.titles.at(region)));
}

std::string sites_section(const Page& p, const HtmlOptions& options) {
  const ExplainReport& rep = p.rep;
  html_detail::SiteDrawer drawer{options.use_dot,
                                 std::min(options.dot_timeout_s, kLocalDotTimeoutS)};
  html_detail::CardContext ctx{p.before, p.after, p.before_cost, p.after_cost, p.after.users(),
                               drawer,   {}};
  if (!p.draw_whole)
    for (size_t r : p.fusion_region) ctx.region_links.push_back(region_link(p, r));
  std::string out = fmt::format(
      "<section id=\"sites\">\n<h2>Fusion sites</h2>\n<p class=\"note\">{} fused kernel(s). "
      "Each card draws the site before and after (filled: the nodes fused; dashed: their "
      "inputs), with the fused-vs-unfused cost; the first {} sites of a rule get a card, the "
      "rest a table row.</p>\n",
      rep.chosen.size(), kFullCardsPerRule);
  if (rep.chosen.empty()) out += "<p>none</p>\n";
  std::vector<std::vector<size_t>> groups = sites_by_rule(rep);
  for (size_t g = 0; g < groups.size(); ++g) {
    const std::vector<size_t>& sites = groups[g];
    out += fmt::format("<h3 id=\"{}\">{} <span class=\"count\">({} site(s))</span></h3>\n",
                       rule_anchor(g), escape_html(rep.chosen[sites[0]].rule), sites.size());
    for (size_t k = 0; k < sites.size() && k < kFullCardsPerRule; ++k)
      out += html_detail::fusion_card(rep.chosen[sites[k]], sites[k], ctx);
    if (sites.size() <= kFullCardsPerRule) continue;
    out += "<table class=\"sites\">\n" + html_detail::fusion_rows_header();
    for (size_t k = kFullCardsPerRule; k < sites.size(); ++k)
      out += html_detail::fusion_row(rep.chosen[sites[k]], sites[k], ctx);
    out += "</table>\n";
  }
  drawer.finish(out);
  return out + "</section>\n";
}

// Per region: nodes, kernels and µs before and after, and its fusions.
struct RegionStats {
  size_t nodes = 0, kernels_before = 0, kernels_after = 0;
  double us_before = 0, us_after = 0;
  std::vector<size_t> fusions;
};

std::vector<RegionStats> region_stats(const Page& p) {
  std::vector<RegionStats> stats(p.regions.titles.size());
  for (size_t i = 0; i < p.before.size(); ++i) {
    RegionStats& s = stats[p.regions.of_node[i]];
    ++s.nodes;
    s.kernels_before += p.before_cost.priced && p.before_cost.kernel[i];
    s.us_before += p.before_cost.priced ? p.before_cost.us[i] : 0;
  }
  for (size_t i = 0; i < p.after.size(); ++i) {
    RegionStats& s = stats[p.after_region[i]];
    s.kernels_after += p.after_cost.priced && p.after_cost.kernel[i];
    s.us_after += p.after_cost.priced ? p.after_cost.us[i] : 0;
  }
  for (size_t f = 0; f < p.fusion_region.size(); ++f)
    stats[p.fusion_region[f]].fusions.push_back(f);
  return stats;
}

std::string_view scheme_words(std::string_view scheme) {
  if (scheme == "layer") return "layer (by the layer number in node names)";
  if (scheme == "block") return "block (by the \"_N\" suffix of node names)";
  return "run of nodes in program order";
}

std::string region_row(const Page& p, size_t r, const RegionStats& s, double top_us) {
  std::string fusions;
  for (size_t f : s.fusions)
    fusions += fmt::format("<a href=\"#fusion-{}\">{}</a> ", f, escape_html(p.rep.chosen[f].node));
  double width = top_us > 0 ? 100 * s.us_before / top_us : 0;
  return fmt::format(
      "<tr id=\"region-{}\"><td>{}</td><td>{}</td><td>{} → {}</td><td>{:.1f} → {:.1f}</td>"
      "<td class=\"bar\"><span style=\"width:{:.0f}%\"></span></td><td>{}</td></tr>\n",
      r, escape_html(p.regions.titles[r]), s.nodes, s.kernels_before, s.kernels_after, s.us_before,
      s.us_after, width, fusions);
}

// Large graphs: a table with one anchored row per region instead of a drawing.
std::string overview_section(const Page& p) {
  std::vector<RegionStats> stats = region_stats(p);
  double top_us = 0;
  for (const RegionStats& s : stats) top_us = std::max(top_us, s.us_before);
  std::string out = fmt::format(
      "<section id=\"graphs\">\n<h2>Graph overview</h2>\n<p class=\"note\">The input graph has "
      "{} nodes and the output {}: too many to draw whole (the page draws graphs of up to {} "
      "nodes). Each row is one {}; the bar is its modeled time before, the links jump to its "
      "fusion sites.</p>\n<table class=\"overview\"><tr><th>{}</th><th>nodes</th><th>kernels "
      "before → after</th><th>µs before → after</th><th>time before</th><th>fusions</th>"
      "</tr>\n",
      p.before.size(), p.after.size(), kMaxDrawnNodes, scheme_words(p.regions.scheme),
      p.regions.scheme);
  for (size_t r = 0; r < stats.size(); ++r) out += region_row(p, r, stats[r], top_us);
  return out + "</table>\n</section>\n";
}

// Region of each output node: that of the input node of the same name, of
// the fusion it is the kernel of, else of the node before it.
std::vector<size_t> after_regions(const Page& p) {
  std::map<std::string, size_t> fused;
  for (size_t f = 0; f < p.rep.chosen.size(); ++f) fused[p.rep.chosen[f].node] = p.fusion_region[f];
  std::vector<size_t> out;
  size_t current = 0;
  for (const Node& n : p.after.nodes()) {
    if (auto it = fused.find(n.name); it != fused.end()) {
      current = it->second;
    } else if (auto r = p.before.find(n.name)) {
      current = p.regions.of_node[static_cast<size_t>(r->index)];
    }
    out.push_back(current);
  }
  return out;
}

void group_into_regions(Page& p) {
  p.regions = html_detail::group_regions(p.before);
  for (const ChosenFusion& f : p.rep.chosen) {
    size_t region = 0;
    for (const std::string& name : f.replaces)
      if (auto r = p.before.find(name)) {
        region = p.regions.of_node[static_cast<size_t>(r->index)];
        break;
      }
    p.fusion_region.push_back(region);
  }
  p.after_region = after_regions(p);
}

std::string toc(const Page& p) {
  std::string out =
      "<nav class=\"toc\"><a href=\"#summary\">Summary</a> · <a href=\"#by-rule\">Fusions by "
      "rule</a> · <a href=\"#time\">Time by kernel kind</a> · <a href=\"#sites\">Fusion "
      "sites</a> · ";
  out += p.draw_whole ? "<a href=\"#graphs\">Graphs</a>" : "<a href=\"#graphs\">Overview</a>";
  return out +
         " · <a href=\"#not-chosen\">Not chosen</a> · <a href=\"#rejected\">Rejected</a> · <a "
         "href=\"#near-misses\">Near misses</a> · <a href=\"#rules-off\">Rules off</a> · <a "
         "href=\"#cross-stream\">Cross-stream</a> · <a href=\"#rules\">Rules</a> · <a "
         "href=\"#reinplace\">Reinplace</a></nav>\n";
}

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:1.2em 2em;max-width:90em}h1{margin:.2em 0}"
    "h2{margin:1.2em 0 .4em;border-bottom:1px solid #ddd}h3{margin:.6em 0 .3em}"
    "nav.toc{margin:.3em 0 .8em;font-size:90%}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #aaa;padding:2px 8px;"
    "text-align:right}td:first-child{text-align:left}th{background:#f2f2f2}"
    "table.summary td,table.summary th{font-size:110%;padding:4px 12px}"
    ".first{display:flex;gap:2em;align-items:flex-start;flex-wrap:wrap}"
    "td.why{text-align:left;max-width:34em;white-space:nowrap;overflow:hidden;"
    "text-overflow:ellipsis}svg.chart text{font-size:11px}svg.chart text.k{text-anchor:end}"
    "svg.chart text.v{font-size:10px;fill:#333}"
    "section.fusion{border-left:4px solid #e67e22;padding-left:1em;margin:1em 0}"
    ".meta{margin:.2em 0;color:#333}div.site{display:flex;gap:1.5em;align-items:flex-start;"
    "flex-wrap:wrap}figure{margin:0}figcaption{font-size:85%;color:#555}"
    "svg.local g.core rect{fill:#f5b041;stroke:#555}svg.local g.ctx rect{fill:#fff;"
    "stroke:#888;stroke-dasharray:3 2}svg.local text{text-anchor:middle;font-size:10px}"
    "svg.local text.n{font-weight:bold}svg.local line{stroke:#666}svg.local polygon{fill:#666}"
    "details.proof ol{margin:.3em 0}details.proof li{margin:.2em 0}details.proof code{"
    "white-space:pre-wrap;word-break:break-word}"
    "td.bar{width:12em;text-align:left}td.bar span{display:inline-block;height:.7em;"
    "background:#9aa5b1}table.overview td:last-child{text-align:left}"
    ".note{color:#555}pre.dot{background:#f4f4f4;"
    "padding:1em;overflow:auto}code{font-size:90%}tr.inplace td:nth-child(5){color:#1e7b34}"
    "tr.kept td:nth-child(5){color:#a04000}table.reinplace td{text-align:left}"
    "ul.legend{list-style:none;padding:0}span.swatch{display:inline-block;width:1em;"
    "height:1em;border:1px solid #555;vertical-align:middle}";

// Small graphs drawn whole, fused and reinplaced nodes linked to their
// explanations.
std::string whole_graphs(const ExplainReport& rep, const Graph& before, const Graph& after,
                         const HtmlOptions& options) {
  std::map<std::string, NodeLink> before_links, after_links;
  for (size_t i = 0; i < rep.chosen.size(); ++i) {
    NodeLink link{fmt::format("#fusion-{}", i), Highlight::Fusion};
    after_links[rep.chosen[i].node] = link;
    for (const std::string& n : rep.chosen[i].replaces) before_links[n] = link;
  }
  // A node rewritten by both passes links to its first change; a fused
  // kernel the passes rewrote keeps its fusion link.
  const std::vector<ReinplaceDecision>& decisions = rep.reinplace.log.decisions;
  for (size_t i = 0; i < decisions.size(); ++i) {
    std::string node = decisions[i].changed_node();
    if (!node.empty())
      after_links.emplace(node, NodeLink{fmt::format("#reinplace-{}", i), Highlight::Reinplace});
  }
  std::string out = "<section id=\"graphs\">\n";
  out += graph_section("Before", graph_to_dot(before, before_links, "before"),
                       legend(before_links, true), options);
  out += graph_section("After", graph_to_dot(after, after_links, "after"),
                       legend(after_links, false), options);
  return out + "</section>\n";
}

// Everything after the graphs: the full lists, the rule table, reinplace.
std::string sections_below(const ExplainReport& rep) {
  std::vector<std::string> lines;
  for (const UnchosenFusion& u : rep.not_chosen) lines.push_back(u.reason);
  std::string out = list_section("not-chosen", "Possible but not chosen", lines);
  lines.clear();
  for (const RejectedMatch& m : rep.rejected) lines.push_back(rejection_sentence(m));
  out += list_section("rejected", "Rejected by a condition", lines);
  lines.clear();
  for (const NearMiss& m : rep.near_misses) lines.push_back(near_miss_sentence(m));
  out += list_section("near-misses", "Near misses", lines);
  lines.clear();
  for (const RuleRunStats& s : rep.rules)
    if (!s.enabled) lines.push_back(s.rule + ": " + s.toggle_reason);
  out += list_section("rules-off", "Rules off", lines);
  lines.clear();
  for (const CrossStreamNearMiss& c : rep.cross_stream) lines.push_back(cross_stream_sentence(c));
  out += list_section("cross-stream", "Cross-stream near misses", lines);
  out += rule_table(rep);
  return out + "<section id=\"reinplace\">\n" + reinplace_section(rep.reinplace) + "</section>\n";
}

}  // namespace

std::string graph_to_dot(const Graph& g, const std::map<std::string, NodeLink>& links,
                         std::string_view title) {
  std::string out =
      fmt::format("digraph \"{}\" {{\n  rankdir=TB;\n  node [fontsize=11];\n", escape_dot(title));
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    const Node& n = g.nodes()[i];
    std::string style = dot_node_style(n);
    auto link = links.find(n.name);
    if (link != links.end())
      style += fmt::format(", style=filled, fillcolor=\"{}\", URL=\"{}\"",
                           highlight_fill(link->second.kind), link->second.anchor);
    out += fmt::format("  n{} [label=\"{}\", {}];\n", i, dot_node_label(n), style);
  }
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    std::set<int> seen;
    for (NodeRef a : node_inputs(g.nodes()[i]))
      if (seen.insert(a.index).second) out += fmt::format("  n{} -> n{};\n", a.index, i);
  }
  return out + "}\n";
}

std::string find_on_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return {};
  std::string_view rest(path);
  while (!rest.empty()) {
    size_t colon = rest.find(':');
    std::filesystem::path dir(std::string(rest.substr(0, colon)));
    rest = colon == std::string_view::npos ? std::string_view{} : rest.substr(colon + 1);
    std::filesystem::path candidate = dir / program;
    if (!dir.empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return {};
}

namespace {
// With several graphs in its input, `dot` prefixes the ids of each graph's
// group with the page (`id="page0,1_graph0"`); alone it writes `graph0`.
void drop_page_prefixes(std::string& svg) {
  constexpr std::string_view kPrefix = "id=\"page";
  for (size_t at = svg.find(kPrefix); at != std::string::npos; at = svg.find(kPrefix, at + 1)) {
    size_t end = at + kPrefix.size();
    while (end < svg.size() &&
           (std::isdigit(static_cast<unsigned char>(svg[end])) || svg[end] == ','))
      ++end;
    if (end < svg.size() && svg[end] == '_' && end > at + kPrefix.size())
      svg.erase(at + 4, end + 1 - (at + 4));  // keep `id="`
  }
}
}  // namespace

std::optional<std::vector<std::string>> render_dots(const std::vector<std::string>& dot_texts,
                                                    double timeout_s) {
  std::string all;
  for (const std::string& text : dot_texts) all += text;
  DotRender drawn = render_dot(all, timeout_s * static_cast<double>(dot_texts.size()));
  if (!drawn.svg) return std::nullopt;
  // One document per graph: `<svg ...> ... </svg>` and the next one's XML
  // prolog; each kept from its `<svg` to the next prolog, as render_dot does.
  std::vector<std::string> out;
  const std::string& text = *drawn.svg;
  for (size_t at = 0; at < text.size();) {
    size_t start = text.find("<svg", at);
    if (start == std::string::npos) break;
    size_t next = text.find("<?xml", start);
    out.push_back(text.substr(start, next == std::string::npos ? std::string::npos : next - start));
    at = next == std::string::npos ? text.size() : next;
  }
  if (out.size() != dot_texts.size()) return std::nullopt;
  for (std::string& svg : out) drop_page_prefixes(svg);
  return out;
}

DotRender render_dot(const std::string& dot_text, double timeout_s) {
  DotRender result;
  std::string dot = find_on_path("dot");
  if (dot.empty()) return (result.failure = "Graphviz dot was not found on PATH"), result;
  std::string tmpl = (std::filesystem::temp_directory_path() / "eqfuse-dot-XXXXXX").string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    result.failure = fmt::format("cannot create a temporary DOT file: {}", std::strerror(errno));
    return result;
  }
  ::close(fd);
  { std::ofstream(tmpl) << dot_text; }
  ProgramRun run = run_program({dot, "-Tsvg", tmpl}, timeout_s);
  std::filesystem::remove(tmpl);
  result.failure = dot_failure(dot, run, timeout_s);
  // Drop the XML prolog and DOCTYPE (not valid inside HTML).
  if (result.failure.empty()) result.svg = run.out.substr(run.out.find("<svg"));
  return result;
}

std::optional<std::string> render_dot_svg(const std::string& dot_text) {
  return render_dot(dot_text).svg;
}

std::string explanation_to_html(const ExplainReport& rep, const Graph& before, const Graph& after,
                                const HtmlOptions& options) {
  auto price = [&](const Graph& g, const GraphCost* known) {
    return known ? html_detail::priced_graph(*known, g.size())
                 : html_detail::price_graph(g, rep.device, rep.mode);
  };
  Page p{rep, before, after, price(before, options.before_cost), price(after, options.after_cost)};
  p.draw_whole = before.size() <= kMaxDrawnNodes && after.size() <= kMaxDrawnNodes;
  if (!p.draw_whole) group_into_regions(p);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>eqfuse explain</title>\n<style>" + std::string(kStyle) + "</style>\n";
  out += "</head>\n<body>\n<h1>eqfuse explain</h1>\n" + toc(p);
  // The first screen: the answer, what each rule did, where the time goes.
  out += summary_section(p);
  out += "<div class=\"first\">\n" + by_rule_section(rep) + chart_section(p) + "</div>\n";
  out += sites_section(p, options);
  out += p.draw_whole ? whole_graphs(rep, before, after, options) : overview_section(p);
  out += sections_below(rep);
  return out + "</body>\n</html>\n";
}

}  // namespace eqfuse
