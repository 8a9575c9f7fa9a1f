// `eqfuse explain IN [--mode M] [--device D] [--disable-rule X]...
//   [--enable-rule X]... [--config FILE] [--multi-stream P] [--input-types T]
//   [--format text|json|html] [--dot-timeout S] [-o FILE]`
//
// Runs the optimize pipeline with explanations recorded and prints why each
// fusion was chosen, not chosen or rejected, and what the reinplace passes
// did (pipeline/explain/report.hpp; the JSON keys and the HTML page are
// described in docs/explain.md).
#include <memory>

#include <fmt/format.h>

#include "cli/cli_common.hpp"
#include "pipeline/explain/html.hpp"
#include "pipeline/explain/report.hpp"
#include "pipeline/optimize.hpp"

namespace eqfuse::cli {

namespace {

struct ExplainCliOptions {
  std::string file;
  std::string output;
  std::string format = "text";
  std::string input_types;
  ToggleOptions toggles;
  double dot_timeout_s = kDotTimeoutSeconds;
};

// The toggles as for `eqfuse optimize`, with explanations recorded.
OptimizeOptions build_options(const ExplainCliOptions& o, OpRegistry& reg) {
  OptimizeOptions opt = options_from_toggles(o.toggles, reg);
  opt.record_explanations = true;
  return opt;
}

// The page; graphs Graphviz could not draw are also noted on stderr.
std::string html_page(const ExplainCliOptions& o, const ExplainReport& rep, const Graph& before,
                      const OptimizeResult& r) {
  std::vector<std::string> notes;
  HtmlOptions html;
  html.dot_timeout_s = o.dot_timeout_s;
  html.notes = &notes;
  html.before_cost = &r.before;
  html.after_cost = &r.after;
  std::string page = explanation_to_html(rep, before, r.graph, html);
  for (const std::string& n : notes)
    fmt::print(stderr, "note: {}; the page shows it as DOT text\n", n);
  return page;
}

int run_explain(const ExplainCliOptions& o) {
  OpRegistry reg = cli_registry();
  OptimizeOptions opt = build_options(o, reg);
  LoadedGraph in = load_input(o.file, reg, o.input_types);
  std::unique_ptr<RuleLibrary> lib = user_rule_library(o.toggles, reg);
  if (lib) opt.library = lib.get();
  check_output_path(o.output);
  const OptimizeResult& r = keep_until_exit(optimize_graph(in.graph, reg, opt));
  ExplainReport rep = explain_run(r, reg);
  if (o.format == "json")
    write_output(o.output, explanation_to_json(rep) + "\n");
  else if (o.format == "html")
    write_output(o.output, html_page(o, rep, in.graph, r));
  else
    write_output(o.output, format_explanation_text(rep));
  return kOk;
}

}  // namespace

void add_explain_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ExplainCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "explain",
      "Optimize and explain every fusion: chosen (replaced nodes, cost side by side, proof), "
      "possible but not chosen (why, with numbers), rejected by a condition, rules off.");
  add_ops_option(cmd);
  add_graph_option(cmd);
  cmd->add_option("FILE", o->file, "Input graph (FX text or JSON, '-' for stdin)")->required();
  cmd->add_option("-o,--output", o->output, "Write the report here instead of stdout");
  cmd->add_option("--format", o->format, "Report format")
      ->check(CLI::IsMember({"text", "json", "html"}))
      ->capture_default_str();
  cmd->add_option("--input-types", o->input_types,
                  "Input types for untyped dumps, e.g. 'arg0_1=bf16[s0, 4096]', or a file");
  add_toggle_options(cmd, o->toggles);
  cmd->add_option("--dot-timeout", o->dot_timeout_s,
                  "HTML: seconds Graphviz dot may take per graph before it is stopped")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([o, &action] { action = [o] { return run_explain(*o); }; });
}

}  // namespace eqfuse::cli
