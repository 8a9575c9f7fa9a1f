// Whole-graph timings: reading, prediction, the overhead fit, quality
// statistics and leave-one-graph-out validation.
#include "cost/graph_timings.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "base/diagnostics.hpp"
#include "base/json_text.hpp"
#include "graph/io/load.hpp"

namespace eqfuse {
namespace {

[[noreturn]] void fail(std::string_view origin, const std::string& path, const std::string& msg) {
  throw Error(fmt::format("{}: {}", path, msg), SourceLoc{std::string(origin)});
}

// "eager_us" -> eager, "graph_replay_us" / "reduce-overhead_us" -> reduce-overhead.
std::optional<ExecMode> mode_of_key(std::string_view key) {
  if (!key.ends_with("_us")) return std::nullopt;
  key.remove_suffix(3);
  if (key == "graph_replay") return ExecMode::ReduceOverhead;
  try {
    return parse_exec_mode(key);
  } catch (const Error&) {
    return std::nullopt;
  }
}

std::vector<GraphTiming> read_runs(const nlohmann::json& runs, std::string_view origin,
                                   const std::string& path) {
  if (!runs.is_array() || runs.empty())
    fail(origin, path, "expected a non-empty array of runs ({\"eager_us\": T, ...})");
  std::map<ExecMode, std::vector<double>> times;
  for (size_t i = 0; i < runs.size(); ++i) {
    std::string run_path = fmt::format("{}[{}]", path, i);
    if (!runs[i].is_object()) fail(origin, run_path, "expected an object");
    for (const auto& [key, value] : runs[i].items()) {
      std::optional<ExecMode> mode = mode_of_key(key);
      if (!mode)
        fail(origin, run_path + "." + key,
             "unknown key (expected <mode>_us: eager_us, reduce-overhead_us, max-autotune_us, "
             "graph_replay_us)");
      if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0)
        fail(origin, run_path + "." + key, "expected a positive time in µs");
      times[*mode].push_back(value.get<double>());
    }
  }
  std::vector<GraphTiming> out;
  for (const auto& [mode, list] : times) {
    GraphTiming t{mode, 0, *std::min_element(list.begin(), list.end()),
                  *std::max_element(list.begin(), list.end()), list.size()};
    for (double v : list) t.measured_us += v / static_cast<double>(list.size());
    out.push_back(t);
  }
  return out;
}

size_t call_nodes(const Graph& g) {
  size_t n = 0;
  for (size_t i = 0; i < g.size(); ++i)
    n += g.node(NodeRef{static_cast<int32_t>(i)}).kind == NodeKind::Call;
  return n;
}

std::set<std::string> graph_signatures(const Graph& g, const OpRegistry& reg) {
  std::set<std::string> out;
  for (size_t i = 0; i < g.size(); ++i) {
    NodeRef r{static_cast<int32_t>(i)};
    if (g.node(r).kind == NodeKind::Call) out.insert(node_signature(g, r, reg));
  }
  return out;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  double pos = p * static_cast<double>(v.size() - 1);
  size_t lo = static_cast<size_t>(pos);
  size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double relative_sse(std::span<const GraphPrediction> p) {
  double s = 0;
  for (const GraphPrediction& g : p) s += g.error() * g.error();
  return s;
}

// Golden-section search of x in [lo, hi] minimising a unimodal f.
template <class F>
double golden_min(F f, double lo, double hi) {
  const double r = (std::sqrt(5.0) - 1) / 2;
  double a = lo, b = hi;
  double c = b - r * (b - a), d = a + r * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 80 && b - a > 1e-4; ++i) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - r * (b - a), fc = f(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + r * (b - a), fd = f(d);
    }
  }
  return (a + b) / 2;
}

}  // namespace

std::vector<TimedGraph> parse_timed_graphs(std::string_view json_text, std::string_view origin,
                                           const OpRegistry& reg) {
  nlohmann::json doc = parse_json_text(json_text, origin);
  if (!doc.is_object() || !doc.contains("graphs") || !doc.at("graphs").is_object())
    fail(origin, "$", "expected an object with \"graphs\": {\"<graph file>\": [runs]}");
  std::filesystem::path dir = std::filesystem::path(std::string(origin)).parent_path();
  std::vector<TimedGraph> out;
  for (const auto& [name, runs] : doc.at("graphs").items()) {
    std::string path = "graphs." + name;
    TimedGraph g;
    g.name = name;
    g.timings = read_runs(runs, origin, path);
    std::filesystem::path file(name);
    g.path = (file.is_relative() ? dir / file : file).string();
    std::string text;
    try {
      text = read_file_or_stdin(g.path);
    } catch (const Error& e) {
      fail(origin, path, fmt::format("cannot read the graph '{}': {}", g.path, e.what()));
    }
    g.graph = load_graph(text, g.path, reg).graph;
    out.push_back(std::move(g));
  }
  if (out.empty()) fail(origin, "graphs", "no graphs listed");
  return out;
}

std::vector<TimedGraph> load_timed_graphs(const std::string& path, const OpRegistry& reg) {
  return parse_timed_graphs(read_file_or_stdin(path), path, reg);
}

std::vector<GraphPrediction> predict_graphs(const DeviceProfile& profile,
                                            std::span<const TimedGraph> graphs,
                                            const OpRegistry& reg, const SymbolHints& hints) {
  std::vector<GraphPrediction> out;
  for (const TimedGraph& g : graphs) {
    for (const GraphTiming& t : g.timings) {
      NpuCostModel model(profile, t.mode, hints);
      GraphCost c = graph_cost(g.graph, reg, model);
      out.push_back({g.name, t.mode, t.measured_us, c.total_us, c.simulated_us, call_nodes(g.graph),
                     c.kernels});
    }
  }
  return out;
}

std::vector<FittedParam> fit_graph_overheads(DeviceProfile& profile,
                                             std::span<const TimedGraph> graphs,
                                             const OpRegistry& reg, const SymbolHints& hints) {
  std::set<ExecMode> modes;
  for (const TimedGraph& g : graphs)
    for (const GraphTiming& t : g.timings) modes.insert(t.mode);
  std::vector<FittedParam> out;
  for (ExecMode mode : modes) {
    std::string m(exec_mode_name(mode));
    bool host_side = profile.get("host_us." + m) > 0 || profile.get("host_free_us." + m) > 0;
    std::string param = (host_side ? "host_node_us." : "per_graph_us.") + m;
    std::vector<TimedGraph> subset;  // only this mode's timings
    double hi = 0;
    for (const TimedGraph& g : graphs)
      for (const GraphTiming& t : g.timings)
        if (t.mode == mode) {
          TimedGraph one{g.name, g.path, g.graph, {t}};
          hi = std::max(hi, host_side ? t.measured_us / static_cast<double>(std::max<size_t>(
                                                            1, call_nodes(g.graph)))
                                      : t.measured_us);
          subset.push_back(std::move(one));
        }
    double before = profile.get(param);
    auto objective = [&](double x) {
      profile.set(param, x);
      return relative_sse(predict_graphs(profile, subset, reg, hints));
    };
    double best = golden_min(objective, 0, hi);
    // The search may stop inside a flat stretch: prefer 0 when it is as good.
    if (objective(0) <= objective(best)) best = 0;
    profile.set(param, best);
    profile.sources[param] = fmt::format("calibrated from {} whole-graph time(s)", subset.size());
    out.push_back({param, before, best, "fitted"});
  }
  return out;
}

FitQuality fit_quality(std::span<const RowFit> rows) {
  FitQuality q;
  q.rows = rows.size();
  if (rows.empty()) return q;
  std::vector<double> err;
  double sq = 0;
  for (const RowFit& r : rows) {
    double e = (r.after_us - r.measured_us) / r.measured_us;
    err.push_back(std::abs(e));
    sq += e * e;
    q.mean_signed += e / static_cast<double>(rows.size());
  }
  q.median = percentile(err, 0.5);
  q.p90 = percentile(err, 0.9);
  q.max = *std::max_element(err.begin(), err.end());
  q.rel_rms = std::sqrt(sq / static_cast<double>(rows.size()));
  return q;
}

std::vector<OpQuality> quality_by_op(std::span<const RowFit> rows) {
  std::map<std::pair<std::string, ExecMode>, std::vector<RowFit>> groups;
  for (const RowFit& r : rows) groups[{r.op, r.mode}].push_back(r);
  std::vector<OpQuality> out;
  for (const auto& [key, list] : groups) out.push_back({key.first, key.second, fit_quality(list)});
  return out;
}

std::vector<HeldOutGraph> leave_one_graph_out(const DeviceProfile& base,
                                              std::span<const Measurement> rows,
                                              std::span<const TimedGraph> graphs,
                                              const OpRegistry& reg,
                                              const CalibrateOptions& options) {
  std::vector<std::string> sig(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    try {
      sig[i] = row_signature(rows[i], reg);
    } catch (const Error&) {
      // An unusable row: calibrate skips it with a note.
    }
  }
  std::vector<std::set<std::string>> uses;
  for (const TimedGraph& g : graphs) uses.push_back(graph_signatures(g.graph, reg));
  auto used_by = [&](size_t i, size_t g) { return uses[g].contains(sig[i]); };

  std::vector<HeldOutGraph> out;
  for (size_t g = 0; g < graphs.size(); ++g) {
    std::vector<Measurement> train, test;
    std::vector<char> seen;
    for (size_t i = 0; i < rows.size(); ++i) {
      bool any = false, other = false;
      for (size_t h = 0; h < graphs.size(); ++h) {
        any = any || used_by(i, h);
        other = other || (h != g && used_by(i, h));
      }
      if (other || !any) train.push_back(rows[i]);
      if (used_by(i, g)) {
        test.push_back(rows[i]);
        seen.push_back(other);
      }
    }
    HeldOutGraph h;
    h.graph = graphs[g].name;
    CalibrationResult fit = calibrate_profile(base, train, reg, options);
    std::vector<TimedGraph> others;
    for (size_t k = 0; k < graphs.size(); ++k)
      if (k != g) others.push_back(graphs[k]);
    fit_graph_overheads(fit.profile, others, reg, options.hints);
    std::vector<RowFit> evaluated =
        evaluate_profile(fit.profile, test, reg, options.hints, nullptr);
    std::vector<RowFit> kernels, unseen;
    for (RowFit& r : evaluated) {
      bool was_seen = seen[r.index] != 0;
      if (r.kernel) kernels.push_back(r);
      if (r.kernel && !was_seen) unseen.push_back(r);
      h.unseen_rows += !was_seen;
      h.rows.push_back(std::move(r));
    }
    h.kernels = fit_quality(kernels);
    h.unseen = fit_quality(unseen);
    h.whole = predict_graphs(fit.profile, std::span(graphs).subspan(g, 1), reg, options.hints);
    out.push_back(std::move(h));
  }
  return out;
}

std::string format_predictions(std::span<const GraphPrediction> predictions) {
  std::string out =
      fmt::format("{:<20} {:<16} {:>7} {:>8} {:>12} {:>12} {:>8} {:>12}\n", "graph", "mode",
                  "nodes", "kernels", "measured us", "predicted", "error", "simulated");
  for (const GraphPrediction& p : predictions)
    out += fmt::format("{:<20} {:<16} {:>7} {:>8} {:>12.1f} {:>12.1f} {:>+7.1f}% {:>12.1f}\n",
                       p.graph, exec_mode_name(p.mode), p.call_nodes, p.kernels, p.measured_us,
                       p.predicted_us, 100 * p.error(), p.simulated_us);
  return out;
}

std::vector<ModeQuality> quality_by_mode(std::span<const RowFit> rows) {
  std::vector<ModeQuality> out;
  for (ExecMode mode : kAllExecModes) {
    for (bool kernel : {true, false}) {
      std::vector<RowFit> subset;
      for (const RowFit& r : rows)
        if (r.mode == mode && r.kernel == kernel) subset.push_back(r);
      if (!subset.empty()) out.push_back({mode, kernel, fit_quality(subset)});
    }
  }
  return out;
}

std::string format_quality(std::span<const RowFit> rows, std::string_view title) {
  std::string out = fmt::format("{}:\n", title);
  out += fmt::format("  {:<16} {:<8} {:>5} {:>8} {:>8} {:>8} {:>8}\n", "mode", "rows", "n",
                     "median", "p90", "max", "bias");
  for (const auto& [mode, kernel, q] : quality_by_mode(rows))
    out += fmt::format("  {:<16} {:<8} {:>5} {:>7.1f}% {:>7.1f}% {:>7.1f}% {:>+7.1f}%\n",
                       exec_mode_name(mode), kernel ? "kernels" : "free ops", q.rows,
                       100 * q.median, 100 * q.p90, 100 * q.max, 100 * q.mean_signed);
  return out;
}

std::string format_held_out(std::span<const HeldOutGraph> held_out) {
  std::string out =
      "leave-one-graph-out (fit without the graph, then predict it):\n"
      "  graph                mode             kernel rows  median    p90   unseen (median)  "
      "whole measured  predicted   error\n";
  for (const HeldOutGraph& h : held_out) {
    for (const GraphPrediction& w : h.whole) {
      std::vector<RowFit> kernels, unseen_rows;
      for (const RowFit& r : h.rows)
        if (r.kernel && r.mode == w.mode) kernels.push_back(r);
      FitQuality q = fit_quality(kernels);
      out += fmt::format(
          "  {:<20} {:<16} {:>11} {:>6.1f}% {:>6.1f}% {:>7} {:>8} {:>14.1f} {:>10.1f} {:>+6.1f}%\n",
          h.graph, exec_mode_name(w.mode), q.rows, 100 * q.median, 100 * q.p90, h.unseen_rows,
          h.unseen.rows ? fmt::format("{:.1f}%", 100 * h.unseen.median) : "-", w.measured_us,
          w.predicted_us, 100 * w.error());
    }
  }
  return out;
}

}  // namespace eqfuse
