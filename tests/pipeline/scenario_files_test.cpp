// The fusion acceptance scenarios (tests/scenarios/fusion, README.md there) checked as
// data, before any optimizer runs them:
//  * scenarios.json follows its schema: one entry per .fx file, known modes, rule names
//    and labels from rewrites/library/*.rules, registered op names, a `why` for every
//    negative case;
//  * every FX file parses, resolves, type-checks (its annotations agree with the meta
//    functions) and runs in the reference interpreter on random inputs;
//  * every expectation fits its input graph: a negative scenario keeps the input's op
//    counts and kernels, a positive one creates an op the input lacks and removes one it
//    has, and never promises more kernels than the input has.
// An optimizer test then only has to run optimize_graph and compare with `expected`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cost/cost_model.hpp"
#include "graph/exec_mode.hpp"
#include "graph/io/load.hpp"
#include "graph/op_registry.hpp"
#include "interp/interpreter.hpp"
#include "interp/random_inputs.hpp"
#include "pipeline/presets.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path source_dir() {
  return EQFUSE_SOURCE_DIR;
}
fs::path scenario_dir() {
  return source_dir() / "tests" / "scenarios" / "fusion";
}
constexpr std::string_view kFormat = "eqfuse fusion scenarios v1";

json read_manifest() {
  return json::parse(read_file_or_stdin(scenario_dir() / "scenarios.json"));
}

// Rule names and labels of the default library, read from the .rules text itself
// (`rule <name> <=>` lines and their `labels:` lines) so this data check does not
// depend on the rule compiler.
struct RuleCatalog {
  std::set<std::string> rules;
  std::set<std::string> labels;
};

RuleCatalog read_rule_catalog() {
  static const std::regex rule_line(R"(^rule\s+(\S+)\s+(<=>|=>)\s*$)");
  static const std::regex labels_line(R"(^\s+labels:\s*(.*)$)");
  RuleCatalog catalog;
  for (const auto& file : fs::directory_iterator(source_dir() / "rewrites" / "library")) {
    if (file.path().extension() != ".rules") continue;
    std::istringstream lines(read_file_or_stdin(file.path()));
    std::string line;
    std::smatch m;
    while (std::getline(lines, line)) {
      if (std::regex_match(line, m, rule_line)) catalog.rules.insert(m[1]);
      if (!std::regex_match(line, m, labels_line)) continue;
      std::istringstream names(m[1].str());
      for (std::string label; std::getline(names, label, ',');) {
        label.erase(0, label.find_first_not_of(' '));
        label.erase(label.find_last_not_of(' ') + 1);
        if (!label.empty()) catalog.labels.insert(label);
      }
    }
  }
  return catalog;
}

std::vector<std::string> fx_files_in_scenario_dir() {
  std::vector<std::string> files;
  for (const auto& file : fs::directory_iterator(scenario_dir()))
    if (file.path().extension() == ".fx") files.push_back(file.path().filename().string());
  std::sort(files.begin(), files.end());
  return files;
}

// The upstream test ids of docs/reference/torchair-passes.md §8.1–§8.3 that a
// scenario's "upstream" field may name: F1–F10, Q1–Q16, B1–B15.
std::set<std::string> upstream_case_ids() {
  std::set<std::string> ids;
  for (const auto& [letter, count] : {std::pair{'F', 10}, std::pair{'Q', 16}, std::pair{'B', 15}})
    for (int i = 1; i <= count; ++i) ids.insert(fmt::format("{}{}", letter, i));
  return ids;
}

// Upstream cases that are not a property of a graph, so no FX scenario can
// reproduce them; each is covered elsewhere, and README.md says why.
const std::map<std::string, std::string>& upstream_cases_without_a_graph() {
  static const std::map<std::string, std::string> cases = {
      {"Q16",
       "skip_duplicates is a behaviour of the register_replacement API, not of a graph: "
       "UpstreamQ16 in tests/pipeline/fusion_scenarios_test.cpp re-registers the rule (e) "
       "pattern and then compiles x1 + x2"},
  };
  return cases;
}

// --- the manifest schema ----------------------------------------------------------------

class SchemaChecker {
 public:
  SchemaChecker(const RuleCatalog& catalog, const OpRegistry& reg, std::set<std::string> fx_files)
      : catalog_(catalog), reg_(reg), fx_files_(std::move(fx_files)) {}

  // Every problem found, each naming the entry and the field at fault.
  std::vector<std::string> check(const json& doc) {
    problems_.clear();
    if (!doc.is_object()) return {"top level: not a JSON object"};
    only_keys(doc, "top level", {"format", "about", "scenarios"}, {});
    if (doc.value("format", "") != kFormat)
      fail("top level", fmt::format("\"format\" must be \"{}\"", kFormat));
    if (!doc.contains("scenarios") || !doc["scenarios"].is_array()) {
      fail("top level", "\"scenarios\" must be an array");
      return problems_;
    }
    std::set<std::string> ids, files;
    for (size_t i = 0; i < doc["scenarios"].size(); ++i)
      check_entry(doc["scenarios"][i], fmt::format("scenarios[{}]", i), ids, files);
    for (const std::string& file : fx_files_)
      if (!files.contains(file)) fail(file, "FX file without an entry in scenarios.json");
    return problems_;
  }

 private:
  void fail(const std::string& where, const std::string& what) {
    problems_.push_back(where + ": " + what);
  }

  void only_keys(const json& obj, const std::string& where, const std::set<std::string>& required,
                 const std::set<std::string>& optional) {
    for (const std::string& key : required)
      if (!obj.contains(key)) fail(where, fmt::format("missing \"{}\"", key));
    for (const auto& [key, value] : obj.items())
      if (!required.contains(key) && !optional.contains(key))
        fail(where, fmt::format("unknown key \"{}\"", key));
  }

  bool nonempty_string(const json& obj, const std::string& key, const std::string& where) {
    if (!obj.contains(key)) return false;
    if (obj[key].is_string() && !obj[key].get<std::string>().empty()) return true;
    fail(where, fmt::format("\"{}\" must be a non-empty string", key));
    return false;
  }

  std::vector<std::string> string_list(const json& obj, const std::string& key,
                                       const std::string& where) {
    std::vector<std::string> items;
    if (!obj.contains(key)) return items;
    if (!obj[key].is_array()) {
      fail(where, fmt::format("\"{}\" must be an array", key));
      return items;
    }
    for (const json& item : obj[key]) {
      if (item.is_string())
        items.push_back(item.get<std::string>());
      else
        fail(where, fmt::format("\"{}\" must hold strings only", key));
    }
    return items;
  }

  void check_rule_names(const json& entry, const std::string& key, const std::string& where) {
    for (const std::string& rule : string_list(entry, key, where))
      if (!catalog_.rules.contains(rule))
        fail(where, fmt::format("\"{}\": no rule named \"{}\" in rewrites/library", key, rule));
  }

  void check_op_name(const std::string& op, const std::string& where) {
    if (!reg_.find(op)) fail(where, fmt::format("op \"{}\" is not in the op registry", op));
  }

  void check_entry(const json& entry, const std::string& at, std::set<std::string>& ids,
                   std::set<std::string>& files) {
    if (!entry.is_object()) return fail(at, "not a JSON object");
    const std::string where =
        entry.contains("id") ? fmt::format("{} ({})", at, entry.value("id", "?")) : at;
    only_keys(entry, where,
              {"id", "file", "description", "spec", "mode", "rules", "kind", "expected"},
              {"disable_labels", "disable_rules", "enable_rules", "preset", "why",
               "torchair_differs", "upstream", "world_size", "replicated"});
    if (entry.contains("replicated") && !entry.contains("world_size"))
      fail(where, "\"replicated\" needs a \"world_size\"");
    string_list(entry, "replicated", where);
    if (entry.contains("world_size") &&
        (!entry["world_size"].is_number_integer() || entry["world_size"].get<int64_t>() < 2 ||
         entry["world_size"].get<int64_t>() > 64))
      fail(where, "\"world_size\" must be an integer from 2 to 64");
    check_identity(entry, where, ids, files);
    nonempty_string(entry, "description", where);
    if (nonempty_string(entry, "spec", where) &&
        entry["spec"].get<std::string>().find("§") == std::string::npos)
      fail(where, "\"spec\" must cite a section of torchair-passes.md (§...)");
    if (nonempty_string(entry, "mode", where)) {
      try {
        parse_exec_mode(entry["mode"].get<std::string>());
      } catch (const Error& e) {
        fail(where, fmt::format("\"mode\": {}", e.what()));
      }
    }
    if (entry.contains("preset") && nonempty_string(entry, "preset", where)) {
      try {
        find_preset(entry["preset"].get<std::string>());
      } catch (const Error& e) {
        fail(where, fmt::format("\"preset\": {}", e.what()));
      }
    }
    if (string_list(entry, "rules", where).empty())
      fail(where, "\"rules\" must name at least one rule");
    check_rule_names(entry, "rules", where);
    check_rule_names(entry, "disable_rules", where);
    // --enable-rule takes a rule name or a label (`ascend950`, a pass name).
    for (const std::string& name : string_list(entry, "enable_rules", where))
      if (!catalog_.rules.contains(name) && !catalog_.labels.contains(name))
        fail(where, fmt::format("\"enable_rules\": no rule or label named \"{}\"", name));
    for (const std::string& label : string_list(entry, "disable_labels", where))
      if (!catalog_.labels.contains(label))
        fail(where, fmt::format("\"disable_labels\": no rule has the label \"{}\"", label));
    check_kind(entry, where);
    if (entry.contains("torchair_differs")) nonempty_string(entry, "torchair_differs", where);
    if (entry.contains("upstream")) check_upstream(entry, where);
    if (entry.contains("expected")) check_expected(entry["expected"], where + " expected");
  }

  // "upstream": the §8.1–§8.3 test ids the scenario reproduces, each known,
  // listed once and cited in "spec" too.
  void check_upstream(const json& entry, const std::string& where) {
    const std::vector<std::string> ids = string_list(entry, "upstream", where);
    if (entry["upstream"].is_array() && ids.empty())
      fail(where, "\"upstream\" must name at least one test id");
    static const std::set<std::string> known = upstream_case_ids();
    const std::string spec =
        entry.contains("spec") && entry["spec"].is_string() ? entry["spec"].get<std::string>() : "";
    std::set<std::string> seen;
    for (const std::string& id : ids) {
      if (!known.contains(id)) {
        fail(where, fmt::format("\"upstream\": \"{}\" is not a test id of torchair-passes.md "
                                "§8.1-§8.3 (F1-F10, Q1-Q16, B1-B15)",
                                id));
        continue;
      }
      if (!seen.insert(id).second) fail(where, fmt::format("\"upstream\": \"{}\" twice", id));
      if (!std::regex_search(spec, std::regex("\\b" + id + "\\b")))
        fail(where, fmt::format("\"upstream\" names {} but \"spec\" does not cite it", id));
    }
  }

  void check_identity(const json& entry, const std::string& where, std::set<std::string>& ids,
                      std::set<std::string>& files) {
    static const std::regex id_form("[A-Z][0-9]+");
    if (!nonempty_string(entry, "id", where) || !nonempty_string(entry, "file", where)) return;
    const std::string id = entry["id"].get<std::string>();
    const std::string file = entry["file"].get<std::string>();
    if (!std::regex_match(id, id_form))
      fail(where, "\"id\" must be a letter and a number, e.g. A1");
    if (!ids.insert(id).second) fail(where, fmt::format("duplicate id \"{}\"", id));
    if (!files.insert(file).second) fail(where, fmt::format("file \"{}\" has two entries", file));
    if (!file.starts_with(id + "_") || !file.ends_with(".fx"))
      fail(where, fmt::format("file \"{}\" must be named <id>_<slug>.fx", file));
    if (!fx_files_.contains(file)) fail(where, fmt::format("file \"{}\" does not exist", file));
  }

  void check_kind(const json& entry, const std::string& where) {
    if (!nonempty_string(entry, "kind", where)) return;
    const std::string kind = entry["kind"];
    if (kind != "positive" && kind != "negative")
      return fail(where, "\"kind\" must be \"positive\" or \"negative\"");
    if (kind == "negative" && !nonempty_string(entry, "why", where))
      fail(where, "a negative scenario needs \"why\" (the failing condition, or the cost reason)");
    if (kind == "positive" && entry.contains("why"))
      fail(where, "\"why\" is only for negative scenarios");
  }

  void check_expected(const json& expected, const std::string& where) {
    if (!expected.is_object()) return fail(where, "not a JSON object");
    only_keys(expected, where, {"output_has", "output_lacks"}, {"kernels_max"});
    std::set<std::string> has;
    if (expected.contains("output_has")) {
      if (!expected["output_has"].is_object())
        fail(where, "\"output_has\" must be an object");
      else
        for (const auto& [op, count] : expected["output_has"].items()) {
          check_op_name(op, where);
          has.insert(op);
          if (!count.is_number_integer() || count.get<int64_t>() < 1)
            fail(where, fmt::format("\"output_has\" count of \"{}\" must be an integer >= 1", op));
        }
    }
    for (const std::string& op : string_list(expected, "output_lacks", where)) {
      check_op_name(op, where);
      if (has.contains(op))
        fail(where, fmt::format("\"{}\" is both in output_has and output_lacks", op));
    }
    if (expected.contains("kernels_max") && (!expected["kernels_max"].is_number_integer() ||
                                             expected["kernels_max"].get<int64_t>() < 1))
      fail(where, "\"kernels_max\" must be an integer >= 1");
  }

  const RuleCatalog& catalog_;
  const OpRegistry& reg_;
  std::set<std::string> fx_files_;
  std::vector<std::string> problems_;
};

std::vector<std::string> check_manifest(const json& doc, const OpRegistry& reg) {
  const std::vector<std::string> files = fx_files_in_scenario_dir();
  return SchemaChecker(read_rule_catalog(), reg, {files.begin(), files.end()}).check(doc);
}

TEST(ScenarioManifest, FollowsTheSchema) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  json doc = read_manifest();
  EXPECT_EQ(check_manifest(doc, reg), std::vector<std::string>{});
  // The coverage the issues ask for: every rule (a)-(e) and the stream/vllm cases.
  std::set<std::string> letters;
  for (const json& entry : doc["scenarios"])
    letters.insert(entry["id"].get<std::string>().substr(0, 1));
  EXPECT_EQ(letters, (std::set<std::string>{"A", "B", "C", "D", "E", "F", "K", "L", "M", "N", "P",
                                            "S", "T", "V"}));
}

// Issue 20: every built-in fusion rule has a positive scenario (it fires) and
// a negative one (a condition fails or it loses on cost), named in `rules`.
TEST(ScenarioManifest, EveryFusionRuleHasAPositiveAndANegativeScenario) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  RuleLibrary lib = RuleLibrary::builtin(reg);
  json doc = read_manifest();
  std::map<std::string, std::set<std::string>> kinds;  // rule -> kinds of its scenarios
  for (const json& entry : doc["scenarios"])
    for (const json& rule : entry["rules"]) kinds[rule.get<std::string>()].insert(entry["kind"]);
  size_t rules = 0;
  for (const RuleDef& r : lib.rules()) {
    if (!r.has_label("fusion")) continue;
    ++rules;
    EXPECT_TRUE(kinds[r.name].count("positive")) << r.name << " has no positive scenario";
    EXPECT_TRUE(kinds[r.name].count("negative")) << r.name << " has no negative scenario";
  }
  EXPECT_GE(rules, 20u);
}

TEST(ScenarioManifest, EveryScenarioFileHasOneEntry) {
  json doc = read_manifest();
  std::vector<std::string> listed;
  for (const json& entry : doc["scenarios"]) listed.push_back(entry["file"]);
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, fx_files_in_scenario_dir());
  EXPECT_GE(listed.size(), 50u);
}

// Every TorchAir test case of torchair-passes.md §8.1–§8.3 is reproduced by at
// least one scenario ("upstream"), except the ones that are not a graph
// property (listed with their reason); README.md's table "Upstream case →
// scenario(s)" has a row per id naming the scenarios that claim it.
TEST(ScenarioManifest, UpstreamIdsCoverEveryTorchAirCase) {
  const json doc = read_manifest();
  std::map<std::string, std::set<std::string>> claimed;  // upstream id -> scenario ids
  for (const json& entry : doc["scenarios"])
    if (entry.contains("upstream"))
      for (const json& id : entry["upstream"])
        claimed[id.get<std::string>()].insert(entry["id"].get<std::string>());
  std::set<std::string> covered, want;
  for (const auto& [id, scenarios] : claimed) covered.insert(id);
  for (const std::string& id : upstream_case_ids())
    if (!upstream_cases_without_a_graph().contains(id)) want.insert(id);
  EXPECT_EQ(covered, want);

  const std::string readme = read_file_or_stdin(scenario_dir() / "README.md");
  auto table_row = [&](const std::string& id) -> std::string {
    const size_t at = readme.find("\n| " + id + " |");
    if (at == std::string::npos) return "";
    return readme.substr(at + 1, readme.find('\n', at + 1) - at - 1);
  };
  for (const auto& [id, why] : upstream_cases_without_a_graph()) {
    EXPECT_FALSE(claimed.contains(id)) << id << " has no graph: " << why;
    EXPECT_NE(table_row(id), "") << "README.md does not document " << id << ": " << why;
  }
  for (const auto& [id, scenarios] : claimed) {
    std::string row = table_row(id);
    EXPECT_NE(row, "") << "README.md has no row for " << id;
    if (!row.empty()) row.erase(0, id.size() + 4);  // the cells after "| <id> |"
    for (const std::string& scenario : scenarios)
      EXPECT_TRUE(std::regex_search(row, std::regex("\\b" + scenario + "\\b")))
          << "README.md's row for " << id << " does not name " << scenario << ": " << row;
  }
}

TEST(ScenarioManifest, SchemaCheckReportsBrokenEntries) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  json doc = read_manifest();
  json& first = doc["scenarios"][0];  // A1, a positive scenario
  first["mode"] = "turbo";
  first["why"] = "not allowed on a positive";
  first["expected"]["output_has"]["npu::no_such_op"] = 1;
  first["expected"]["kernels_max"] = 0;
  first["rules"] = json::array({"torchair/no-such-rule"});
  first["colour"] = "red";
  json& second = doc["scenarios"][1];
  second["kind"] = "negative";  // without "why"
  second["id"] = first["id"];
  second["disable_labels"] = json::array({"no-such-label"});
  second["enable_rules"] = json::array({"vllm/no-such-rule"});
  second["upstream"] = json::array({"Q99", "F2", "F2", "B15"});  // A2 cites F2 only
  const std::string problems = fmt::format("{}", fmt::join(check_manifest(doc, reg), "\n"));
  for (std::string_view expected :
       {"\"mode\":", "\"why\" is only for negative scenarios",
        "op \"npu::no_such_op\" is not in the op registry",
        "\"kernels_max\" must be an integer >= 1", "no rule named \"torchair/no-such-rule\"",
        "unknown key \"colour\"", "a negative scenario needs \"why\"", "duplicate id \"A1\"",
        "no rule has the label \"no-such-label\"",
        "\"enable_rules\": no rule or label named \"vllm/no-such-rule\"",
        "A2_add_rms_norm_dynamic_quant_no_xout_eps.fx\" must be named",
        "\"upstream\": \"Q99\" is not a test id", "\"upstream\": \"F2\" twice",
        "\"upstream\" names B15 but \"spec\" does not cite it"})
    EXPECT_NE(problems.find(expected), std::string::npos) << "missing: " << expected << "\nin:\n"
                                                          << problems;
}

// --- the FX files -------------------------------------------------------------------------

std::vector<std::string> scenario_ids() {
  std::vector<std::string> ids;
  try {
    const json manifest = read_manifest();
    for (const json& entry : manifest.at("scenarios"))
      ids.push_back(entry.at("id").get<std::string>());
  } catch (const std::exception& e) {
    // ScenarioManifest.FollowsTheSchema reports the details.
    ADD_FAILURE() << "cannot list the scenarios: " << e.what();
  }
  return ids;
}

json manifest_entry(const std::string& id) {
  const json manifest = read_manifest();
  for (const json& entry : manifest.at("scenarios"))
    if (entry.at("id") == id) return entry;
  throw std::runtime_error("no scenario " + id);
}

LoadedGraph load_scenario(const json& entry, const OpRegistry& reg) {
  const fs::path path = scenario_dir() / entry.at("file").get<std::string>();
  return load_graph(read_file_or_stdin(path), path.string(), reg);
}

// Kernel launches as the cost model counts them (cost/cost_model.hpp): the one
// definition, so transposes that materialize a copy count too.
size_t kernel_count(const Graph& g, const OpRegistry& reg) {
  static const NpuCostModel model(load_device_profile(std::string(kDefaultDevice)),
                                  ExecMode::ReduceOverhead);
  return graph_cost(g, reg, model).kernels;
}

// What an optimized graph must satisfy: every problem with `expected` (output_has
// counts, output_lacks, kernels_max), empty when the graph meets it. An optimizer test
// calls this on optimize_graph's result; here it runs on the input graph.
std::vector<std::string> expectation_problems(const Graph& g, const json& expected,
                                              const OpRegistry& reg) {
  std::vector<std::string> problems;
  const std::map<std::string, int64_t> ops = call_target_counts(g);
  auto count = [&](const std::string& op) { return ops.contains(op) ? ops.at(op) : 0; };
  for (const auto& [op, want] : expected.at("output_has").items())
    if (count(op) != want.get<int64_t>())
      problems.push_back(
          fmt::format("{}: {} calls, expected {}", op, count(op), want.get<int64_t>()));
  for (const json& lacked : expected.at("output_lacks"))
    if (count(lacked.get<std::string>()) > 0)
      problems.push_back(fmt::format("{}: present, expected absent", lacked.get<std::string>()));
  const size_t kernels = kernel_count(g, reg);
  if (expected.contains("kernels_max") && kernels > expected["kernels_max"].get<size_t>())
    problems.push_back(fmt::format("{} kernels, expected at most {}", kernels,
                                   expected["kernels_max"].get<size_t>()));
  return problems;
}

class ScenarioFile : public testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    entry_ = manifest_entry(GetParam());
    try {
      loaded_ = load_scenario(entry_, reg_);
    } catch (const Error& e) {
      FAIL() << e.render();
    }
  }
  const Graph& graph() const { return loaded_.graph; }

  OpRegistry reg_ = OpRegistry::with_builtin_ops();
  json entry_;
  LoadedGraph loaded_;
};

TEST_P(ScenarioFile, ParsesResolvesAndTypes) {
  EXPECT_EQ(graph().name, "GraphModule") << "print_readable form expected";
  for (const std::string& op : loaded_.opaque_ops)
    EXPECT_TRUE(op.starts_with("operator.")) << "op unknown to the registry: " << op;
  for (const Node& n : graph().nodes()) {
    if (n.kind == NodeKind::Output) continue;
    EXPECT_TRUE(n.type.is_known()) << n.name << " has no type";
    const bool states_type = n.kind == NodeKind::Placeholder || n.kind == NodeKind::GetItem ||
                             (n.kind == NodeKind::Call && n.type.is_tensor());
    if (states_type) {
      EXPECT_TRUE(n.type_annotated)
          << n.name << " should carry its annotation (the file states its types)";
    }
  }
}

TEST_P(ScenarioFile, StreamScopesLabelNodes) {
  const auto& nodes = graph().nodes();
  const bool has_scope = std::any_of(nodes.begin(), nodes.end(),
                                     [](const Node& n) { return n.target == "air::scope_enter"; });
  const bool has_labels = std::any_of(nodes.begin(), nodes.end(), [](const Node& n) {
    return n.kind == NodeKind::Call && n.target != "air::scope_enter" && !n.meta.stream.empty();
  });
  EXPECT_EQ(has_scope, has_labels);
  EXPECT_EQ(has_scope, GetParam().starts_with("S")) << "stream scenarios are the S series";
}

void expect_finite(const RuntimeValue& value, const std::string& label) {
  if (value.is_list()) {
    for (const RuntimeValue& item : value.list()) expect_finite(item, label);
    return;
  }
  if (!value.is_tensor() || value.tensor().is_int_storage()) return;
  for (double v : value.tensor().values()) ASSERT_TRUE(std::isfinite(v)) << label << " holds " << v;
}

TEST_P(ScenarioFile, RunsInTheReferenceInterpreter) {
  Interpreter interpreter(reg_);
  RandomInputOptions options;
  options.registry = &reg_;  // scales get positive values, as in real graphs
  for (uint64_t seed : {1u, 2u}) {
    RandomInputs in = random_inputs(graph(), seed, options);
    RunResult result;
    ASSERT_NO_THROW(result = interpreter.run(graph(), in.values, in.bindings)) << "seed " << seed;
    ASSERT_EQ(result.outputs.size(), graph().output_values().size());
    for (size_t i = 0; i < result.outputs.size(); ++i)
      expect_finite(result.outputs[i], fmt::format("output {} ({})", i, result.output_names[i]));
    EXPECT_TRUE(result.mutated_inputs.empty()) << "scenarios are functional graphs";
  }
}

TEST_P(ScenarioFile, ExpectationsFitTheInput) {
  const json& expected = entry_.at("expected");
  const std::vector<std::string> problems = expectation_problems(graph(), expected, reg_);
  if (entry_.at("kind") == "negative") {
    // The input itself is a correct answer: nothing may fuse.
    EXPECT_EQ(problems, std::vector<std::string>{});
    if (expected.contains("kernels_max")) {
      EXPECT_EQ(expected["kernels_max"].get<size_t>(), kernel_count(graph(), reg_))
          << "a negative case keeps every kernel";
    }
    return;
  }
  // A positive case: the input must fail the expectation by creating a fused op it does
  // not have and removing one it has (or some of its calls), without promising more
  // kernels than it has.
  const std::map<std::string, int64_t> input_ops = call_target_counts(graph());
  bool creates_op = false, removes_op = false;
  for (const auto& [op, count] : expected.at("output_has").items()) {
    creates_op |= !input_ops.contains(op);
    // Joining calls (three matmuls into one) removes some of an op's calls.
    removes_op |= input_ops.contains(op) && input_ops.at(op) > count.get<int64_t>();
  }
  for (const json& op : expected.at("output_lacks"))
    removes_op |= input_ops.contains(op.get<std::string>());
  // A rule may instead fold an op into one the input has (the add into
  // npu_quant_matmul's bias): then it must promise fewer kernels.
  const bool absorbs = removes_op && expected.contains("kernels_max") &&
                       expected["kernels_max"].get<size_t>() < kernel_count(graph(), reg_);
  EXPECT_TRUE(creates_op || absorbs)
      << "a positive case expects a fused op the input does not have, or fewer kernels";
  EXPECT_TRUE(removes_op) << "a positive case expects an input op to disappear";
  EXPECT_FALSE(problems.empty()) << "the unfused input already meets the expectation";
  if (expected.contains("kernels_max")) {
    EXPECT_LE(expected["kernels_max"].get<size_t>(), kernel_count(graph(), reg_))
        << "fusion never adds kernels";
  }
}

INSTANTIATE_TEST_SUITE_P(Fusion, ScenarioFile, testing::ValuesIn(scenario_ids()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           return info.param;
                         });

}  // namespace
}  // namespace eqfuse
