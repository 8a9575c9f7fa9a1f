// `eqfuse extract FILE.json [--extractor NAME|all] [--time-limit S]`: runs
// extractors on an e-graph in the egraph-serialize JSON format (the
// extraction-gym files) and prints one JSON line per extractor:
//   {"file","extractor","tree_cost","dag_cost","micros","valid","optimal"}
// `micros` is the extraction alone (reading and parsing the file excluded),
// `valid` the checker's verdict. Exit 2 when the file cannot be read or an
// extractor finds no acyclic extraction; exit 3 when an extractor returns an
// invalid choice (a bug).
#include <algorithm>
#include <cstdio>
#include <memory>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli_common.hpp"
#include "extract/extractor.hpp"

namespace eqfuse::cli {

namespace {
struct ExtractCliOptions {
  std::string file;
  std::vector<std::string> extractors{"all"};
  double time_limit_s = 60.0;
  bool verbose = false;
  bool choices = false;
};

std::vector<std::string> accepted_extractor_names() {
  std::vector<std::string> names = extractor_names();
  names.push_back("tree");
  names.push_back("all");
  return names;
}

int run_extract(const ExtractCliOptions& o) {
  const ExtractionProblem problem = load_egraph_serialize_json(o.file);
  ExtractOptions opt;
  opt.time_limit_s = o.time_limit_s;
  opt.verbose = o.verbose;
  const std::vector<ExtractorReport> reports = run_extractors(problem, o.extractors, opt);
  int code = kOk;
  for (const ExtractorReport& r : reports) {
    std::string line = report_json_line(o.file, r);
    if (o.choices && r.error.empty()) {
      // {"class name": "node name"} for every extracted class, appended to the line.
      nlohmann::ordered_json chosen = nlohmann::ordered_json::object();
      for (ClassId c = 0; c < problem.num_classes(); ++c)
        if (r.extraction.choice[c] != kNoNode)
          chosen[problem.class_name(c)] = problem.node_name(r.extraction.choice[c]);
      line.pop_back();
      line += ",\"choice\":" + chosen.dump() + "}";
    }
    fmt::print("{}\n", line);
    std::fflush(stdout);
    if (!r.error.empty()) {
      fmt::print(stderr, "{}: error: extractor '{}': {}\n", o.file, r.extractor, r.error);
      code = std::max<int>(code, kInputError);
    } else if (!r.valid) {
      fmt::print(stderr, "{}: internal error: extractor '{}' returned an invalid choice: {}\n",
                 o.file, r.extractor, r.check_message);
      code = kInternalError;
    }
  }
  return code;
}
}  // namespace

void add_extract_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<ExtractCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "extract",
      "Extract from an egraph-serialize JSON e-graph (extraction-gym format) and print one "
      "JSON line per extractor: costs, extraction time and the checker's verdict.");
  cmd->add_option("FILE", o->file, "E-graph file (egraph-serialize JSON)")->required();
  cmd->add_option("--extractor", o->extractors,
                  "bottom-up (alias tree), greedy-dag, faster-greedy-dag, ilp, auto, or all "
                  "(repeatable or comma separated)")
      ->delimiter(',')
      ->check(CLI::IsMember(accepted_extractor_names()))
      ->capture_default_str();
  cmd->add_option("--time-limit", o->time_limit_s, "Seconds the exact solvers (ilp, auto) may use")
      ->check(CLI::PositiveNumber)
      ->check(seconds_validator())
      ->capture_default_str();
  cmd->add_flag("--verbose", o->verbose, "Print solver progress on stderr");
  cmd->add_flag("--choices", o->choices,
                "Add the chosen node of every extracted class to each line (\"choice\")");
  cmd->callback([o, &action] { action = [o] { return run_extract(*o); }; });
}

}  // namespace eqfuse::cli
