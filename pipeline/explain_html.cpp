// explanation_to_html and its Graphviz helpers (pipeline/explain_html.hpp).
#include "pipeline/explain_html.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

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

extern char** environ;

namespace eqfuse {
namespace {

std::string escape_html(std::string_view s) {
  std::string out;
  for (char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string escape_dot(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out;
}

// "npu::npu_add_rms_norm.default" -> "npu_add_rms_norm"
std::string short_op(std::string_view target) {
  size_t colon = target.rfind("::");
  if (colon != std::string_view::npos) target.remove_prefix(colon + 2);
  size_t dot = target.find('.');
  return std::string(target.substr(0, dot));
}

std::string dot_node_label(const Node& n) {
  switch (n.kind) {
    case NodeKind::Placeholder:
      return n.name;
    case NodeKind::GetAttr:
      return n.name + "\\n" + escape_dot(n.target);
    case NodeKind::GetItem:
      return fmt::format("{}[{}]", n.name, n.getitem_index());
    case NodeKind::Output:
      return "output";
    case NodeKind::Call:
      return n.name + "\\n" + escape_dot(short_op(n.target));
  }
  return n.name;
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

std::string cost_row(std::string_view what, double fused, double unfused) {
  return fmt::format("<tr><td>{}</td><td>{:.2f}</td><td>{:.2f}</td></tr>\n", what, fused, unfused);
}

std::string chosen_section(const ExplainReport& rep) {
  std::string out = "<h2>Chosen fusions</h2>\n";
  if (rep.chosen.empty()) out += "<p>none</p>\n";
  for (size_t i = 0; i < rep.chosen.size(); ++i) {
    const ChosenFusion& f = rep.chosen[i];
    out += fmt::format("<section class=\"fusion\" id=\"fusion-{}\">\n<h3>{} = {}</h3>\n", i,
                       escape_html(f.node), escape_html(f.op));
    out += fmt::format("<p>rule <code>{}</code>; replaces {}</p>\n", escape_html(f.rule),
                       escape_html(fmt::format("{}", fmt::join(f.replaces, ", "))));
    out += fmt::format("<table><tr><th>µs</th><th>fused</th><th>unfused ({} kernels)</th></tr>\n",
                       f.unfused.kernels);
    out += cost_row("launch", f.cost.launch_us, f.unfused.launch_us);
    out += cost_row("fixed", f.cost.fixed_us, f.unfused.fixed_us);
    out += cost_row("memory", f.cost.memory_us, f.unfused.memory_us);
    out += cost_row("compute", f.cost.compute_us, f.unfused.compute_us);
    out += cost_row("total", f.cost.total_us, f.unfused.total_us);
    out += "</table>\n";
    if (!f.proof.empty()) {
      out += "<ol class=\"proof\">\n";
      for (const ProofStep& s : f.proof)
        out += fmt::format("<li><code>{}</code>{}</li>\n", escape_html(s.term),
                           s.rule.empty() ? "" : " <em>by " + escape_html(s.rule) + "</em>");
      out += "</ol>\n";
    }
    if (!f.proof_note.empty())
      out += fmt::format("<p class=\"note\">proof: {}</p>\n", escape_html(f.proof_note));
    out += "</section>\n";
  }
  return out;
}

std::string list_section(std::string_view title, const std::vector<std::string>& items) {
  std::string out = fmt::format("<h2>{}</h2>\n<ul>\n", title);
  if (items.empty()) out += "<li>none</li>\n";
  for (const std::string& s : items) out += fmt::format("<li>{}</li>\n", escape_html(s));
  return out + "</ul>\n";
}

std::string rule_table(const ExplainReport& rep) {
  std::string out =
      "<h2>Rules</h2>\n<table><tr><th>rule</th><th>candidates</th><th>fired</th>"
      "<th>chosen</th><th>rejected</th><th>near misses</th><th>note</th></tr>\n";
  for (const RuleRunStats& s : rep.rules) {
    std::string note = s.enabled ? "" : "off: " + s.toggle_reason;
    for (const auto& [cond, n] : s.rejected_by) note += fmt::format("{}x `{}` ", n, cond);
    out += fmt::format(
        "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        escape_html(s.rule), s.matches, s.applications, s.chosen, s.rejected,
        near_miss_count(rep, s.rule), escape_html(note));
  }
  return out + "</table>\n";
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

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:80em}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #aaa;padding:2px 8px;"
    "text-align:right}td:first-child{text-align:left}section.fusion{border-left:4px solid "
    "#e67e22;padding-left:1em;margin:1em 0}.note{color:#555}pre.dot{background:#f4f4f4;"
    "padding:1em;overflow:auto}code{font-size:90%}tr.inplace td:nth-child(5){color:#1e7b34}"
    "tr.kept td:nth-child(5){color:#a04000}table.reinplace td{text-align:left}"
    "ul.legend{list-style:none;padding:0}span.swatch{display:inline-block;width:1em;"
    "height:1em;border:1px solid #555;vertical-align:middle}";

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
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<title>eqfuse explain</title>\n<style>" + std::string(kStyle) + "</style>\n";
  out += "</head>\n<body>\n<h1>eqfuse explain</h1>\n";
  out += fmt::format("<p>{} on {}: modeled {:.1f} µs &rarr; {:.1f} µs, {} fused kernel(s)</p>\n",
                     escape_html(rep.mode), escape_html(rep.device), rep.cost_before_us,
                     rep.cost_after_us, rep.chosen.size());
  out += fmt::format("<p>extraction: {} ({})</p>\n", escape_html(rep.extractor),
                     escape_html(rep.extraction_quality));
  if (!rep.kept_input.empty())
    out += fmt::format("<p><strong>kept the input graph:</strong> {}</p>\n",
                       escape_html(rep.kept_input));
  out += graph_section("Before", graph_to_dot(before, before_links, "before"),
                       legend(before_links, true), options);
  out += graph_section("After", graph_to_dot(after, after_links, "after"),
                       legend(after_links, false), options);
  out += chosen_section(rep);
  std::vector<std::string> lines;
  for (const UnchosenFusion& u : rep.not_chosen) lines.push_back(u.reason);
  out += list_section("Possible but not chosen", lines);
  lines.clear();
  for (const RejectedMatch& m : rep.rejected) lines.push_back(rejection_sentence(m));
  out += list_section("Rejected by a condition", lines);
  lines.clear();
  for (const NearMiss& m : rep.near_misses) lines.push_back(near_miss_sentence(m));
  out += list_section("Near misses", lines);
  lines.clear();
  for (const RuleRunStats& s : rep.rules)
    if (!s.enabled) lines.push_back(s.rule + ": " + s.toggle_reason);
  out += list_section("Rules off", lines);
  lines.clear();
  for (const CrossStreamNearMiss& c : rep.cross_stream) lines.push_back(cross_stream_sentence(c));
  out += list_section("Cross-stream near misses", lines);
  out += rule_table(rep);
  out += reinplace_section(rep.reinplace);
  return out + "</body>\n</html>\n";
}

}  // namespace eqfuse
