// optimize_graph: load -> saturate -> extract -> emit, with the statistics
// `eqfuse optimize` prints.
#include "pipeline/optimize.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/atomic_file.hpp"
#include "base/json_text.hpp"
#include "bridge/arg_encoding.hpp"
#include "bridge/to_graph.hpp"
#include "extract/checker.hpp"
#include "graph/io/fx_printer.hpp"
#include "graph/streams.hpp"
#include "graph/view_safety.hpp"
#include "pipeline/egraph_cost.hpp"
#include "pipeline/fusion_credit.hpp"
#include "pipeline/optimize_state.hpp"
#include "pipeline/post_passes.hpp"
#include "pipeline/symbolic_sizes.hpp"

namespace eqfuse {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Rules compile once per stream: the default stream ("") and each label.
std::vector<std::string> rule_streams(const Graph& g) {
  std::vector<std::string> out{""};
  for (std::string& label : stream_labels(g)) out.push_back(std::move(label));
  return out;
}

// Nodes added by rewrites pay a negligible extra so that, between equally
// cheap forms, the input's own nodes are kept (stable, minimal diffs). Small
// enough not to move any real decision (break-even points shift by ~1e-5 µs);
// the exact solver's optimality tolerance can hide it, which the local
// improvement after extraction corrects.
constexpr double kNewNodeTieBreakUs = 1e-6;
constexpr double kNodeTieBreakUs = 1e-9;

// A constant, or a prim::list / prim::tuple of them: data, never work.
bool is_literal_data(const EGraph& g, Id node) {
  static const Symbol list = Symbol::intern(graph_ops::kList);
  static const Symbol tuple = Symbol::intern(graph_ops::kTuple);
  NodeView n = g.node(node);
  if (n.is_constant()) return true;
  if (n.op != list && n.op != tuple) return false;
  for (Id child : n.children)
    if (!g.constant_of(child)) return false;
  return true;
}

void saturate(OptimizeState& st, const OptimizeOptions& opt) {
  RunnerConfig rc;
  rc.limits = opt.limits;
  if (opt.node_limit_follows_input)
    rc.limits.nodes = std::max(rc.limits.nodes, kNodeLimitPerLoadedNode * st.egraph->num_nodes());
  rc.limits.process_memory_bytes = opt.memory_limit_bytes / 5 * 3;
  // The backoff scheduler bans a rule that matches more than match_limit
  // times in an iteration, as egg does to stop explosive rules. A fusion
  // rule matches once per site, so on a whole model a fixed limit bans
  // ordinary rules and adds iterations (time grows as n log n); the limit
  // grows with the loaded graph instead.
  rc.scheduler.match_limit = std::max(rc.scheduler.match_limit, st.egraph->num_nodes());
  Runner runner(*st.egraph, rc);
  st.run = runner.run(st.rules.rewrites);
}

// The input graph as an extraction: in every class, the oldest e-node loaded
// from the input. A loaded node's children were loaded before it, so the
// oldest input node of each child class is older still: the choice is
// acyclic. Classes without an input node (only rewrites made them) get none;
// the input never reaches them.
std::vector<NodeId> input_choice(const EGraphProblem& ep, size_t input_node_ids) {
  const ExtractionProblem& p = ep.problem;
  std::vector<NodeId> choice(p.num_classes(), kNoNode);
  for (ClassId c = 0; c < p.num_classes(); ++c)
    for (NodeId n : p.class_nodes(c))  // in increasing e-node id
      if (ep.enode_of[n] < input_node_ids) {
        choice[c] = n;
        break;
      }
  return choice;
}

// The name of a graph input as the frozen-input patterns see it, or "" for other nodes.
std::string_view frozen_input_key(const Node& n) {
  if (n.kind == NodeKind::GetAttr) return n.target;
  if (n.kind == NodeKind::Placeholder) return n.name;
  return {};
}

// The input's graph inputs the cost model treats as frozen, in graph order.
std::vector<std::string> frozen_input_names(const Graph& input, const NpuCostModel& model) {
  std::vector<std::string> out;
  for (size_t i = 0; i < input.size(); ++i) {
    std::string_view key = frozen_input_key(input.node(NodeRef{static_cast<int32_t>(i)}));
    if (!key.empty() && model.is_frozen_input(key)) out.emplace_back(key);
  }
  return out;
}

// The classes of the input's frozen graph inputs (placeholders and get_attr nodes the
// cost model's frozen patterns name).
std::vector<Id> frozen_leaves(const OptimizeState& st) {
  std::vector<Id> out;
  for (size_t i = 0; i < st.input.size(); ++i) {
    std::string_view key = frozen_input_key(st.input.node(NodeRef{static_cast<int32_t>(i)}));
    if (key.empty() || st.loaded.node_class[i] == kNoId) continue;
    if (st.model->is_frozen_input(key)) out.push_back(st.loaded.node_class[i]);
  }
  return out;
}

// Output nodes computed once from frozen inputs say so, as fused nodes name their rule.
void note_folded_nodes(OptimizeResult& result) {
  for (const NodeCost& nc : result.after.nodes) {
    Node& n = result.graph.node(nc.node);
    if (nc.cost.note == kFoldedNote && n.meta.note.empty()) n.meta.note = std::string(kFoldedNote);
  }
}

void extract_choice(OptimizeState& st, const OpRegistry& reg, const OptimizeOptions& opt,
                    OptimizeStats& stats) {
  const EGraph& g = *st.egraph;
  const SizeReadChoice sizes = choose_size_reads(g, *st.types);
  if (st.model->folds_constants()) st.folded = folded_enodes(g, reg, frozen_leaves(st));
  auto price = [&](Id node) {
    if (sizes.skipped.contains(node)) return std::numeric_limits<double>::infinity();
    if (sizes.kept.contains(node)) return 0.0;
    double us =
        st.folded.contains(node) ? 0.0 : enode_cost(g, *st.types, reg, *st.model, node).total_us;
    // Constants and literal lists made by rewrites stay free: one shared
    // constant (an output_mask every fused kernel reads) must not look like
    // work that ties every fusion site of the graph together
    // (docs/extraction.md "auto"). Other new nodes, free views included, pay
    // the tie-break so the input's own spelling wins ties.
    // Every other node also pays a far smaller extra, so that between
    // equally cheap forms the one with fewer nodes (one view, not two) wins.
    if (is_literal_data(g, node)) return us;
    return us + kNodeTieBreakUs + (node >= st.input_node_ids ? kNewNodeTieBreakUs : 0.0);
  };
  st.problem = build_problem(g, st.loaded.roots, price);
  ExtractOptions eo;
  eo.time_limit_s = opt.extract_time_limit_s;
  eo.initial = input_choice(st.problem, st.input_node_ids);
  const double initial_cost = dag_cost(st.problem.problem, eo.initial);
  if (!std::isfinite(initial_cost)) eo.initial.clear();
  st.extraction = extract(st.problem.problem, opt.extractor, eo);
  // Exact solvers stop within their optimality tolerance, which can hide the
  // tie-break above; a local-improvement pass (never raises the cost) takes
  // those last 1 ns steps so every extractor keeps the input's spelling.
  if (opt.extractor != "bottom-up" && opt.extractor != "tree") {
    st.extraction.choice = improve_dag_cost(st.problem.problem, std::move(st.extraction.choice));
    st.extraction.dag_cost = dag_cost(st.problem.problem, st.extraction.choice);
  }
  CheckResult check = check_extraction(st.problem.problem, st.extraction.choice);
  if (!check.valid)
    throw std::logic_error("extractor '" + opt.extractor +
                           "' returned an invalid choice: " + check.message);
  stats.extractor = opt.extractor;
  stats.extraction_optimal = st.extraction.optimal;
  stats.extraction_gap = optimality_gap(st.extraction);
  stats.extraction_stopped_by = st.extraction.stopped_by;
  if (!eo.initial.empty() && !(st.extraction.dag_cost < initial_cost - 1e-9))
    stats.kept_input = st.extraction.optimal
                           ? std::string("the input graph is already optimal")
                           : fmt::format("no cheaper graph found by {}", opt.extractor);
}

void rule_stats(const OptimizeState& st, const RuleConfig& cfg, OptimizeStats& stats) {
  FusionCredit credit(st);
  std::map<std::string, RuleRunStats> by_name;
  for (const RuleDef& r : st.library->rules()) {
    RuleToggle t = rule_toggle(r.name, r.labels, cfg);
    RuleRunStats& s = by_name[r.name];
    s.rule = r.name;
    s.enabled = t.enabled;
    s.toggle_reason = t.reason;
    s.fusion = credit.is_fusion_rule(r);
    s.load_check = r.load_check_text();
  }
  for (size_t i = 0; i < st.rules.rewrites.size(); ++i) {
    RuleRunStats& s = by_name[st.rules.base_name[i]];
    const RuleTotals& t = st.run.rules[i];
    s.matches += t.matches;
    s.applications += t.applications;
    if (!st.rules.reverse[i]) s.fusing_applications += t.applications;
    const auto& conds = st.rules.rewrites[i].conditions();
    for (size_t k = 0; k < t.condition_failures.size() && k < conds.size(); ++k) {
      if (t.condition_failures[k] == 0) continue;
      if (is_symmetry_condition(conds[k].name)) {
        s.matches -= std::min(s.matches, t.condition_failures[k]);  // the same match again
        continue;
      }
      s.rejected += t.condition_failures[k];
      s.rejected_by[conds[k].name] += t.condition_failures[k];
    }
  }
  // Every fused kernel the extraction chose that a rewrite added, credited
  // to the rule that added it (pipeline/fusion_credit.hpp).
  for (Id cls : st.problem.eclass_of) {
    Id n = st.problem.chosen_node(st.extraction, cls);
    if (n == kNoId || !credit.is_new_fused_node(n)) continue;
    std::string rule = credit.rule_of(n);
    ++by_name[rule].chosen;
    ++stats.fusions[rule];
  }
  for (const RuleDef& r : st.library->rules()) stats.rules.push_back(by_name[r.name]);
}

// The assumptions of the `assumption` rules that fused a kernel of the output, over the
// placeholders their matches bound. A site whose derived or source value is computed in
// the graph (not an input) cannot be stated over inputs: a note says so, and the check
// against the input may then report a difference.
void assumptions_used(const OptimizeState& st, const Graph& input, OptimizeStats& stats) {
  std::map<Id, std::string> placeholder_of;
  for (NodeRef p : input.placeholders())
    placeholder_of.emplace(st.egraph->find(st.loaded.class_of(p)), input.node(p).name);
  for (const auto& [rule_name, bindings] : st.rules.assumptions->uses) {
    if (!stats.fusions.contains(rule_name)) continue;
    const RuleDef* rule = st.library->find(rule_name);
    if (rule == nullptr) continue;
    for (const std::vector<Id>& ids : bindings) {
      size_t k = 0;
      for (const InputAssumption& a : rule->assumes) {
        InputAssumption bound = a;
        std::vector<std::string*> names{&bound.derived};
        for (std::string& src : bound.sources) names.push_back(&src);
        bool all_inputs = true;
        for (std::string* name : names) {
          auto it = placeholder_of.find(st.egraph->find(ids.at(k++)));
          if (it == placeholder_of.end())
            all_inputs = false;
          else
            *name = it->second;
        }
        if (!all_inputs) {
          stats.notes.push_back(fmt::format(
              "{} assumes {} on a site where these are not all graph inputs: the assumption "
              "cannot be stated over the inputs, so `check` may report a difference there",
              rule_name, a.text()));
          continue;
        }
        UsedAssumption used{rule_name, std::move(bound)};
        auto same = [&](const UsedAssumption& u) {
          return u.rule == used.rule && u.assumption == used.assumption;
        };
        if (std::none_of(stats.assumptions.begin(), stats.assumptions.end(), same))
          stats.assumptions.push_back(std::move(used));
      }
    }
  }
}

// The guarantee of optimize: the emitted graph never costs more than the
// input under the model. Extraction already starts from the input, but the
// graph cost also counts what emission and the reinplace passes do; when the
// result is still costlier, the input is returned unchanged and the summary
// says so.
void keep_input_if_costlier(OptimizeResult& result, OptimizeState& st, const Graph& input,
                            const OpRegistry& reg) {
  const double before = result.before.total_us, after = result.after.total_us;
  if (!(after > before + 1e-9 * std::max(1.0, before))) return;
  st.rejected_output = std::move(result.graph);
  // Explanations and fusion credit then describe the input's own nodes.
  st.extraction =
      finish_extraction(st.problem.problem, input_choice(st.problem, st.input_node_ids));
  result.graph = input;
  result.after = graph_cost(input, reg, *st.model);
  result.reinplace_log = {};
  OptimizeStats& s = result.stats;
  s.reinplace_ran = false;
  s.reinplaced_nodes = s.removed_copies = 0;
  s.reinplace_saved_bytes = 0;
  s.kept_input =
      fmt::format("the optimized graph modeled {:.1f} us > the input's {:.1f} us", after, before);
}

// The extracted graph as a Graph. Past the phase's time limit there is no
// partial graph: the input is kept (it costs what the extraction started
// from), and the summary says why.
void emit(OptimizeResult& result, OptimizeState& st, const Graph& input, const OpRegistry& reg,
          const OptimizeOptions& opt) {
  try {
    const OptimizeState& cst = st;
    EmitRequest req{
        *cst.egraph, *cst.types,
        reg,         input,
        cst.loaded,  [&cst](Id cls) {
                      return cst.problem.chosen_node(cst.extraction, cls); }};
    req.time_limit_s = opt.phase_time_limit_s;
    req.memory_limit_bytes = opt.memory_limit_bytes;
    result.graph = emit_graph(req);
  } catch (const EmitTimeLimit& stopped) {
    st.extraction =
        finish_extraction(st.problem.problem, input_choice(st.problem, st.input_node_ids));
    result.graph = input;
    result.stats.kept_input = fmt::format("{}; the input graph is kept", stopped.what());
    return;
  }
  if (opt.view_to_reshape)
    views_to_reshape(result.graph, reg);
  else
    reshape_unsafe_views(result.graph, input, reg);
}

void write_dumps(const std::string& dir, const Graph& input, const Graph& output,
                 const OpRegistry& reg, const OptimizeStats& stats, const OptimizeState& st) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw Error(fmt::format("--dump-dir '{}': cannot make a directory there{}", dir,
                            std::filesystem::exists(dir) ? " (a file of that name exists)"
                            : ec                         ? ": " + ec.message()
                                                         : ""));
  auto write = [&](const std::string& name, const std::string& text) {
    write_file_atomically((std::filesystem::path(dir) / name).string(), text);
  };
  write("000_input.fx", print_fx(input, &reg));
  write("001_saturate_stats.json", stats_to_json(stats) + "\n");
  write("002_extraction_problem.json", to_egraph_serialize_json(st.problem.problem) + "\n");
  write("003_output.fx", print_fx(output, &reg));
  if (st.rejected_output) write("003_rejected_output.fx", print_fx(*st.rejected_output, &reg));
}

}  // namespace

OptimizeResult optimize_graph(const Graph& input, const OpRegistry& reg,
                              const OptimizeOptions& opt) {
  OptimizeResult result;
  auto st = std::make_shared<OptimizeState>();
  OptimizeStats& stats = result.stats;
  stats.mode = std::string(exec_mode_name(opt.rules.mode));

  auto t0 = Clock::now();
  st->input = input;
  if (opt.library == nullptr) {
    st->own_library = std::make_unique<RuleLibrary>(RuleLibrary::builtin(reg));
    st->library = st->own_library.get();
  } else {
    st->library = opt.library;
  }
  DeviceProfile profile = opt.profile != nullptr ? *opt.profile : load_device_profile(opt.device);
  // An in-memory profile (a sensitivity sweep, a calibration) already says it.
  if (opt.world_size > 0 && opt.profile == nullptr) profile.set("comm.world_size", opt.world_size);
  stats.device = profile.name;
  st->model = std::make_unique<NpuCostModel>(profile, opt.rules.mode, opt.hints);
  check_frozen_inputs(input, opt.frozen_inputs);
  check_sizes_fit(input, opt.hints);  // before any size is priced (--hint, --buckets, sweeps)
  st->model->set_frozen_inputs(opt.frozen_inputs);
  stats.frozen_inputs = frozen_input_names(input, *st->model);
  st->types = std::make_unique<TensorAnalysis>(reg);
  st->types->set_merge_symbolic_ints(true);
  st->egraph = std::make_unique<EGraph>(st->types.get());
  st->loaded = load_into_egraph(input, reg, *st->egraph);
  st->egraph->rebuild();
  st->input_node_ids = st->egraph->num_ids();
  stats.notes = st->library->check_selectors(opt.rules);
  // Rules over collectives read the group's size as the cost model prices it.
  RuleConfig rules = opt.rules;
  rules.world_size = static_cast<int>(st->model->comm_params().world_size);
  st->rules = st->library->compile(rules, rule_streams(input), st->types.get(), &st->loaded);
  stats.phase_ms["load"] = ms_since(t0);

  t0 = Clock::now();
  saturate(*st, opt);
  stats.phase_ms["saturate"] = ms_since(t0);
  stats.stop_reason = std::string(stop_reason_name(st->run.stop));
  if (st->run.stop == StopReason::NodeLimit && st->run.iterations.empty())
    stats.notes.push_back(fmt::format(
        "the e-node limit ({}) is below the {} e-nodes the graph loads into: no rule ran; "
        "raise --node-limit (or node_limit) above it to fuse",
        opt.limits.nodes, st->egraph->num_nodes()));
  if (st->run.stop == StopReason::MemoryLimit)
    stats.notes.push_back(fmt::format(
        "memory limit reached during saturation ({} resident, saturation may use {} of the "
        "{} --memory-limit): extracted from the e-graph grown so far",
        format_memory_size(resident_memory_bytes()),
        format_memory_size(opt.memory_limit_bytes / 5 * 3),
        format_memory_size(opt.memory_limit_bytes)));
  stats.iterations = st->run.iterations.size();
  stats.egraph_nodes = st->egraph->num_nodes();
  stats.egraph_classes = st->egraph->num_classes();

  t0 = Clock::now();
  extract_choice(*st, reg, opt, stats);
  stats.phase_ms["extract"] = ms_since(t0);

  t0 = Clock::now();
  emit(result, *st, input, reg, opt);
  stats.phase_ms["emit"] = ms_since(t0);

  for (const PostExtractionPass& pass : post_extraction_passes()) {
    if (!pass.runs(opt)) continue;
    t0 = Clock::now();
    pass.run(result, reg, opt);
    stats.phase_ms[std::string(pass.phase)] = ms_since(t0);
  }

  t0 = Clock::now();
  result.before = graph_cost(input, reg, *st->model);
  result.after = graph_cost(result.graph, reg, *st->model);
  keep_input_if_costlier(result, *st, input, reg);
  if (st->model->folds_constants()) note_folded_nodes(result);
  stats.kernels_before = result.before.kernels;
  stats.kernels_after = result.after.kernels;
  stats.cost_before_us = result.before.total_us;
  stats.cost_after_us = result.after.total_us;
  stats.phase_ms["cost"] = ms_since(t0);
  t0 = Clock::now();
  rule_stats(*st, opt.rules, stats);
  assumptions_used(*st, input, stats);
  stats.phase_ms["stats"] = ms_since(t0);
  if (!opt.dump_dir.empty()) write_dumps(opt.dump_dir, input, result.graph, reg, stats, *st);
  result.state = std::move(st);
  return result;
}

}  // namespace eqfuse
