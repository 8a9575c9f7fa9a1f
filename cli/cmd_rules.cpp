// `eqfuse rules [--mode M] [--disable-rule X]... [--enable-rule X]...
//   [--graph-kernel-flags FLAGS] [--config FILE] [--rules FILE]... [--show NAME]
//   [--graph-kernel-passes] [--presets] [--json]`
//
// Lists the rule library (built-in rules plus any --rules files) with each
// rule's labels, direction, whether it is on under the given toggles and
// why, and its description; `--show NAME` prints one rule in full (.rules
// syntax); `--graph-kernel-passes` lists MindSpore's graph-kernel passes as
// its INFO log does, each with on/off and the rules that do it. Loading a user file validates it: a
// bad rule is reported at its file:line:column and the command exits 2, so `eqfuse rules --rules
// my.rules` doubles as a rule-file checker. User rules (--rules, the config's
// "rules") are proven on random inputs as they load (rewrites/rule_check.hpp):
// an unsound one exits 2 with its counterexample, one that cannot be run is a
// note, and the listing marks each user rule with what its check found.
#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/suggest.hpp"
#include "cli/cli_common.hpp"
#include "graph/io/fx_printer.hpp"
#include "pipeline/optimize.hpp"
#include "pipeline/presets.hpp"
#include "rewrites/rule.hpp"

namespace eqfuse::cli {

namespace {

struct RulesCliOptions {
  ToggleOptions toggles;
  std::vector<std::string> rule_files;
  std::string show;
  bool json = false;
  bool graph_kernel_passes = false;
  bool presets = false;
};

// `eqfuse rules --presets`: each peer preset, what it runs and where its defaults come from.
std::string preset_list(bool json) {
  if (json) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const Preset& p : presets())
      list.push_back({{"name", p.name},
                      {"description", p.description},
                      {"source", p.source},
                      {"config", nlohmann::ordered_json::parse(p.config)}});
    return list.dump(2) + "\n";
  }
  std::string out;
  for (const Preset& p : presets())
    out += fmt::format("{}\n  {}\n  source: {}\n  config: {}\n", p.name, p.description, p.source,
                       p.config);
  return out;
}

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string out;
  for (const auto& s : v) {
    if (!out.empty()) out += sep;
    out += s;
  }
  return out;
}

std::string loc_text(const SourceLoc& loc) {
  if (!loc.known()) return loc.file.empty() ? "(C++ API)" : loc.file;
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

std::string rule_text(const RuleDef& r, const OpRegistry& reg) {
  std::string out = fmt::format("rule {} {}\n", r.name, r.bidirectional ? "<=>" : "=>");
  out += fmt::format("  labels: {}\n", join(r.labels, ", "));
  if (!r.description.empty()) out += fmt::format("  description: {}\n", r.description);
  for (const CondExpr& c : r.where) out += fmt::format("  where: {}\n", c.text());
  for (const RuleDef::Let& l : r.lets)
    out += fmt::format("  let: {} = {}\n", l.name, l.expr.text());
  for (const InputAssumption& a : r.assumes) out += fmt::format("  assume: {}\n", a.text());
  out += fmt::format("  defined at: {}\n", loc_text(r.loc));
  if (!r.load_check_text().empty()) out += fmt::format("  load check: {}\n", r.load_check_text());
  out += "  search:\n" + print_fx(r.search, &reg);
  out += "  replace:\n" + print_fx(r.replace, &reg);
  return out;
}

// MindSpore's "graph kernel passes: a,b,..." line, then one line per pass:
// on/off under the toggles and the eqfuse rules labelled with its name, or
// why there are none.
std::string graph_kernel_pass_list(const RuleLibrary& lib, const RuleConfig& cfg, bool json) {
  std::vector<std::string> names;
  for (const PeerPass& p : mindspore_graph_kernel_passes()) names.emplace_back(p.name);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string text = fmt::format("graph kernel passes: {}.\n", join(names, ","));
  for (const PeerPass& p : mindspore_graph_kernel_passes()) {
    std::vector<std::string> rules, on;
    for (const RuleDef& r : lib.rules()) {
      if (std::find(r.labels.begin(), r.labels.end(), p.name) == r.labels.end()) continue;
      rules.push_back(r.name);
      if (rule_toggle(r.name, r.labels, cfg).enabled) on.push_back(r.name);
    }
    const bool enabled = !on.empty();
    const std::string what =
        rules.empty() ? fmt::format("{} (docs/rules.md)", p.missing.empty() ? "no rule" : p.missing)
                      : join(rules, ", ");
    if (json) {
      list.push_back({{"pass", p.name},
                      {"enabled", enabled},
                      {"rules", rules},
                      {"note", rules.empty() ? what : ""}});
    } else {
      text += fmt::format("{:<3} {:<36} {}\n", enabled ? "on" : "off", p.name, what);
    }
  }
  return json ? list.dump(2) + "\n" : text;
}

int run_rules(const RulesCliOptions& o) {
  OpRegistry reg = cli_registry();
  // First: the config may register custom ops that user rules refer to.
  RuleConfig cfg = options_from_toggles(o.toggles, reg).rules;
  RuleLibrary lib = RuleLibrary::builtin(reg);
  load_user_rules(lib, o.rule_files);
  for (const std::string& note : lib.check_selectors(cfg))
    fmt::print(stderr, "eqfuse: note: {}\n", note);
  if (o.presets) {
    fmt::print("{}", preset_list(o.json));
    return kOk;
  }
  if (o.graph_kernel_passes) {
    fmt::print("{}", graph_kernel_pass_list(lib, cfg, o.json));
    return kOk;
  }
  if (!o.show.empty()) {
    const RuleDef* r = lib.find(o.show);
    if (r == nullptr) {
      std::vector<std::string> names;
      for (const RuleDef& d : lib.rules()) names.push_back(d.name);
      throw Error(fmt::format("no rule named '{}'{} (see 'eqfuse rules')", o.show,
                              did_you_mean(o.show, names)));
    }
    fmt::print("{}", rule_text(*r, reg));
    return kOk;
  }
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string table;
  for (const RuleDef& r : lib.rules()) {
    RuleToggle t = rule_toggle(r.name, r.labels, cfg);
    if (o.json) {
      list.push_back({{"name", r.name},
                      {"labels", r.labels},
                      {"direction", r.bidirectional ? "<=>" : "=>"},
                      {"enabled", t.enabled},
                      {"reason", t.reason},
                      {"description", r.description},
                      {"defined_at", loc_text(r.loc)},
                      {"load_check", r.load_check_text()}});
    } else {
      // A user rule says what its load-time check found (built-in ones say nothing).
      const std::string check = r.load_check_text();
      table += fmt::format("{:<3} {:<44} {:<3} {:<32} {}{}\n", t.enabled ? "on" : "off", r.name,
                           r.bidirectional ? "<=>" : "=>", join(r.labels, ","),
                           t.enabled ? r.description : t.reason,
                           check.empty() ? "" : fmt::format(" [{}]", check));
    }
  }
  if (o.json)
    fmt::print("{}\n", list.dump(2));
  else
    fmt::print("{}", table);
  return kOk;
}

}  // namespace

void add_rules_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<RulesCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "rules",
      "List the rewrite rules with their labels and whether they are on; load and check "
      "user .rules files; --show prints one rule.");
  add_ops_option(cmd);
  add_toggle_options(cmd, o->toggles, /*pipeline=*/false);
  cmd->add_option("--rules", o->rule_files, "Also load (and check) this .rules file");
  cmd->add_option("--show", o->show, "Print one rule in full");
  cmd->add_flag("--graph-kernel-passes", o->graph_kernel_passes,
                "List MindSpore's graph-kernel passes (as its INFO log does) with on/off and the "
                "eqfuse rules doing each");
  cmd->add_flag("--presets", o->presets,
                "List the peer presets (--preset NAME) with what each runs and its config");
  cmd->add_flag("--json", o->json, "List as JSON");
  cmd->callback([o, &action] { action = [o] { return run_rules(*o); }; });
}

}  // namespace eqfuse::cli
