// Whole-graph timings: reading the timings file (errors naming file and
// JSON path, mode keys, runs averaged), predictions equal to graph_cost,
// recovering per-node and per-graph overheads the model itself generated,
// fit-quality statistics, and leave-one-graph-out on the real H100 data
// (tests/data/measurements/h100) as a regression bound.
#include "cost/graph_timings.hpp"

#include <unistd.h>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <span>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/diagnostics.hpp"
#include "cost/calibrate.hpp"
#include "cost/device_profile.hpp"
#include "graph/io/load.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing_support::builtin_registry;

// The message of the Error `f` throws, rendered with its file.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.render();
  }
  return "(no error)";
}

std::filesystem::path write_file(const std::string& name, const std::string& text) {
  return testing_support::write_scratch(name, text);
}

// One FX graph `def forward(<params>): <body>; return (<ret>,)`.
std::string fx(const std::string& params, const std::string& body, const std::string& ret) {
  return "class GraphModule(torch.nn.Module):\n    def forward(self, " + params + "):\n" + body +
         "        return (" + ret + ",)\n";
}

// Two small kernels and a view.
const std::string kTiny =
    fx(R"(a: "f32[16, 128]", b: "f32[16, 128]")",
       "        add: \"f32[16, 128]\" = torch.ops.aten.add.Tensor(a, b)\n"
       "        view: \"f32[2048]\" = torch.ops.aten.view.default(add, [2048])\n"
       "        mul: \"f32[2048]\" = torch.ops.aten.mul.Tensor(view, view)\n",
       "mul");

// A matmul, an add and two views.
const std::string kMatmul =
    fx(R"(x: "f32[16, 128]", w: "f32[128, 256]", b: "f32[16, 256]")",
       "        mm: \"f32[16, 256]\" = torch.ops.aten.mm.default(x, w)\n"
       "        add: \"f32[16, 256]\" = torch.ops.aten.add.Tensor(mm, b)\n"
       "        view: \"f32[4096]\" = torch.ops.aten.view.default(add, [4096])\n"
       "        view_1: \"f32[16, 256]\" = torch.ops.aten.view.default(view, [16, 256])\n",
       "view_1");

TimedGraph timed(const std::string& name, const std::string& text) {
  TimedGraph g;
  g.name = name;
  g.path = name;
  g.graph = load_graph(text, name, builtin_registry()).graph;
  return g;
}

const GraphTiming* timing_of(const TimedGraph& g, ExecMode mode) {
  for (const GraphTiming& t : g.timings)
    if (t.mode == mode) return &t;
  return nullptr;
}

std::string timings_json(const std::string& graph, const std::string& runs) {
  return R"({"graphs": {")" + graph + R"(": )" + runs + "}}";
}

TEST(GraphTimings, ParseErrorsNameFileAndJsonPath) {
  write_file("tiny.fx", kTiny);
  std::string origin = (testing_support::scratch_dir() / "t.json").string();
  auto parse = [&](const std::string& text) {
    return error_of([&] { parse_timed_graphs(text, origin, builtin_registry()); });
  };
  EXPECT_THAT(parse("[1, 2]"), AllOf(HasSubstr(origin), HasSubstr("$: expected an object")));
  EXPECT_THAT(parse(R"({"runs": {}})"), AllOf(HasSubstr(origin), HasSubstr("$:")));
  EXPECT_THAT(parse(timings_json("tiny.fx", R"([{"eager_us": 5}, {"warp_us": 3}])")),
              AllOf(HasSubstr(origin), HasSubstr("graphs.tiny.fx[1].warp_us: unknown key")));
  EXPECT_THAT(
      parse(timings_json("tiny.fx", R"([{"eager_us": -2}])")),
      AllOf(HasSubstr(origin), HasSubstr("graphs.tiny.fx[0].eager_us"), HasSubstr("positive")));
  EXPECT_THAT(parse(timings_json("tiny.fx", R"([{"eager_us": 0}])")),
              HasSubstr("graphs.tiny.fx[0].eager_us"));
  EXPECT_THAT(parse(timings_json("tiny.fx", R"([{"eager_us": "fast"}])")),
              HasSubstr("graphs.tiny.fx[0].eager_us"));
  EXPECT_THAT(parse(timings_json("tiny.fx", "[]")),
              AllOf(HasSubstr(origin), HasSubstr("graphs.tiny.fx")));
  EXPECT_THAT(parse(timings_json("tiny.fx", "[3]")), HasSubstr("graphs.tiny.fx[0]"));
  EXPECT_THAT(parse(timings_json("missing.fx", R"([{"eager_us": 5}])")),
              AllOf(HasSubstr(origin), HasSubstr("graphs.missing.fx"),
                    HasSubstr("cannot read the graph"), HasSubstr("missing.fx")));
  EXPECT_THAT(parse(R"({"graphs": {}})"), HasSubstr("no graphs listed"));
  EXPECT_THAT(error_of([] { load_timed_graphs("/no/such/dir/t.json", builtin_registry()); }),
              HasSubstr("/no/such/dir/t.json"));
}

TEST(GraphTimings, GraphReplayIsReduceOverheadAndRunsAreAveraged) {
  write_file("tiny.fx", kTiny);
  write_file("mm.fx", kMatmul);
  auto path = write_file("times.json", R"({
    "device": "test",
    "graphs": {
      "tiny.fx": [{"eager_us": 10, "graph_replay_us": 4},
                  {"eager_us": 20, "graph_replay_us": 6},
                  {"eager_us": 30}],
      "mm.fx": [{"reduce-overhead_us": 8, "max-autotune_us": 9, "aclgraph_us": 10}]
    }
  })");
  std::vector<TimedGraph> graphs = load_timed_graphs(path.string(), builtin_registry());
  ASSERT_EQ(graphs.size(), 2u);
  std::map<std::string, const TimedGraph*> by_name;
  for (const TimedGraph& g : graphs) by_name[g.name] = &g;
  ASSERT_TRUE(by_name.contains("tiny.fx"));
  ASSERT_TRUE(by_name.contains("mm.fx"));

  const TimedGraph& tiny = *by_name["tiny.fx"];
  EXPECT_EQ(tiny.path, (testing_support::scratch_dir() / "tiny.fx").string());
  EXPECT_EQ(tiny.timings.size(), 2u);
  const GraphTiming* eager = timing_of(tiny, ExecMode::Eager);
  ASSERT_NE(eager, nullptr);
  EXPECT_DOUBLE_EQ(eager->measured_us, 20);
  EXPECT_DOUBLE_EQ(eager->min_us, 10);
  EXPECT_DOUBLE_EQ(eager->max_us, 30);
  EXPECT_EQ(eager->runs, 3u);
  const GraphTiming* replay = timing_of(tiny, ExecMode::ReduceOverhead);
  ASSERT_NE(replay, nullptr);
  EXPECT_DOUBLE_EQ(replay->measured_us, 5);
  EXPECT_DOUBLE_EQ(replay->min_us, 4);
  EXPECT_DOUBLE_EQ(replay->max_us, 6);
  EXPECT_EQ(replay->runs, 2u);
  EXPECT_EQ(timing_of(tiny, ExecMode::MaxAutotune), nullptr);

  // "reduce-overhead_us" and its alias "aclgraph_us" are one mode: two runs.
  const TimedGraph& mm = *by_name["mm.fx"];
  const GraphTiming* ro = timing_of(mm, ExecMode::ReduceOverhead);
  ASSERT_NE(ro, nullptr);
  EXPECT_EQ(ro->runs, 2u);
  EXPECT_DOUBLE_EQ(ro->measured_us, 9);
  const GraphTiming* ma = timing_of(mm, ExecMode::MaxAutotune);
  ASSERT_NE(ma, nullptr);
  EXPECT_DOUBLE_EQ(ma->measured_us, 9);
  EXPECT_TRUE(mm.graph.find("mm").has_value());
}

TEST(GraphTimings, PredictionIsTheGraphCost) {
  DeviceProfile profile = load_device_profile("ascend910b2");
  profile.set("host_us.eager", 3);  // a host side in eager, none in graph modes
  std::vector<TimedGraph> graphs = {timed("tiny.fx", kTiny), timed("mm.fx", kMatmul)};
  graphs[0].timings = {{ExecMode::Eager, 100, 90, 110, 2},
                       {ExecMode::ReduceOverhead, 40, 40, 40, 1}};
  graphs[1].timings = {{ExecMode::MaxAutotune, 80, 80, 80, 1}};
  std::vector<GraphPrediction> p = predict_graphs(profile, graphs, builtin_registry(), {});
  ASSERT_EQ(p.size(), 3u);
  size_t i = 0;
  for (const TimedGraph& g : graphs)
    for (const GraphTiming& t : g.timings) {
      const GraphPrediction& got = p[i++];
      NpuCostModel model(profile, t.mode);
      GraphCost want = graph_cost(g.graph, builtin_registry(), model);
      EXPECT_EQ(got.graph, g.name);
      EXPECT_EQ(got.mode, t.mode);
      EXPECT_EQ(got.measured_us, t.measured_us);
      EXPECT_DOUBLE_EQ(got.predicted_us, want.total_us);
      EXPECT_DOUBLE_EQ(got.simulated_us, want.simulated_us);
      EXPECT_EQ(got.kernels, want.kernels);
      EXPECT_DOUBLE_EQ(got.error(), (want.total_us - t.measured_us) / t.measured_us);
    }
  EXPECT_EQ(p[0].call_nodes, 3u);  // add, view, mul
  EXPECT_EQ(p[0].kernels, 2u);
  EXPECT_EQ(p[2].call_nodes, 4u);
  EXPECT_EQ(p[2].kernels, 2u);
  std::string table = format_predictions(p);
  EXPECT_THAT(table, AllOf(HasSubstr("tiny.fx"), HasSubstr("mm.fx"), HasSubstr("reduce-overhead")));
}

// Timings the model generates with known overheads; the fit starts from 0
// and must find them again.
TEST(GraphTimings, FitRecoversTheOverheadsTheModelGenerated) {
  DeviceProfile truth = load_device_profile("ascend910b2");
  truth.overrides.clear();
  truth.set("launch_us.eager", 1);  // kernels' device time (~5 µs) below their dispatch
  truth.set("host_us.eager", 10);
  truth.set("host_free_us.eager", 1);
  truth.set("host_node_us.eager", 2.5);
  truth.set("per_graph_us.reduce-overhead", 7);
  std::vector<TimedGraph> graphs = {timed("tiny.fx", kTiny), timed("mm.fx", kMatmul)};
  for (TimedGraph& g : graphs)
    g.timings = {{ExecMode::Eager, 1, 1, 1, 1}, {ExecMode::ReduceOverhead, 1, 1, 1, 1}};
  std::vector<GraphPrediction> generated = predict_graphs(truth, graphs, builtin_registry(), {});
  ASSERT_EQ(generated.size(), 4u);
  size_t i = 0;
  for (TimedGraph& g : graphs)
    for (GraphTiming& t : g.timings)
      t.measured_us = t.min_us = t.max_us = generated[i++].predicted_us;

  DeviceProfile start = truth;
  start.set("host_node_us.eager", 0);
  start.set("per_graph_us.reduce-overhead", 0);
  std::vector<FittedParam> fitted = fit_graph_overheads(start, graphs, builtin_registry(), {});
  ASSERT_EQ(fitted.size(), 2u);
  std::map<std::string, FittedParam> by_name;
  for (const FittedParam& f : fitted) by_name[f.name] = f;
  // Eager has a host side: the per-node host time is fitted.
  ASSERT_TRUE(by_name.contains("host_node_us.eager"));
  EXPECT_EQ(by_name["host_node_us.eager"].before, 0);
  EXPECT_NEAR(by_name["host_node_us.eager"].after, 2.5, 1e-3);
  EXPECT_EQ(by_name["host_node_us.eager"].status, "fitted");
  EXPECT_NEAR(start.get("host_node_us.eager"), 2.5, 1e-3);
  EXPECT_THAT(start.sources.at("host_node_us.eager"), HasSubstr("2 whole-graph time"));
  // Reduce-overhead has none: the per-graph cost is fitted instead.
  ASSERT_TRUE(by_name.contains("per_graph_us.reduce-overhead"));
  EXPECT_NEAR(by_name["per_graph_us.reduce-overhead"].after, 7, 1e-3);
  EXPECT_NEAR(start.get("per_graph_us.reduce-overhead"), 7, 1e-3);
  EXPECT_EQ(start.get("host_node_us.reduce-overhead"), 0);
  EXPECT_EQ(start.get("per_graph_us.eager"), truth.get("per_graph_us.eager"));
  for (const GraphPrediction& p : predict_graphs(start, graphs, builtin_registry(), {}))
    EXPECT_NEAR(p.error(), 0, 1e-4) << p.graph << " " << exec_mode_name(p.mode);
}

// When measured whole graphs are faster than the model's kernels alone,
// the overhead stays at 0 (its lower bound).
TEST(GraphTimings, FitKeepsOverheadsNonNegative) {
  DeviceProfile p = load_device_profile("ascend910b2");
  p.set("per_graph_us.reduce-overhead", 50);
  std::vector<TimedGraph> graphs = {timed("tiny.fx", kTiny)};
  graphs[0].timings = {{ExecMode::ReduceOverhead, 0.5, 0.5, 0.5, 1}};
  std::vector<FittedParam> fitted = fit_graph_overheads(p, graphs, builtin_registry(), {});
  ASSERT_EQ(fitted.size(), 1u);
  EXPECT_EQ(fitted[0].name, "per_graph_us.reduce-overhead");
  EXPECT_EQ(fitted[0].before, 50);
  EXPECT_EQ(fitted[0].after, 0);
}

RowFit row_fit(std::string op, ExecMode mode, double measured, double after, bool kernel = true) {
  RowFit r;
  r.op = std::move(op);
  r.mode = mode;
  r.kernel = kernel;
  r.measured_us = measured;
  r.before_us = measured;
  r.after_us = after;
  return r;
}

TEST(GraphTimings, FitQualityStatistics) {
  // Relative errors +0.1, -0.1, +0.5, 0, -0.2: |e| sorted 0, .1, .1, .2, .5.
  std::vector<RowFit> rows = {
      row_fit("aten::add.Tensor", ExecMode::Eager, 100, 110),
      row_fit("aten::add.Tensor", ExecMode::Eager, 10, 9),
      row_fit("aten::mm", ExecMode::Eager, 2, 3),
      row_fit("aten::mm", ExecMode::ReduceOverhead, 4, 4),
      row_fit("aten::add.Tensor", ExecMode::ReduceOverhead, 50, 40),
  };
  FitQuality q = fit_quality(rows);
  EXPECT_EQ(q.rows, 5u);
  EXPECT_NEAR(q.median, 0.1, 1e-12);
  EXPECT_NEAR(q.p90, 0.2 + 0.6 * 0.3, 1e-12);  // interpolated at position 3.6
  EXPECT_NEAR(q.max, 0.5, 1e-12);
  EXPECT_NEAR(q.mean_signed, 0.3 / 5, 1e-12);
  EXPECT_NEAR(q.rel_rms, std::sqrt((0.01 + 0.01 + 0.25 + 0 + 0.04) / 5), 1e-12);

  // An even count: the median is the mean of the middle two.
  std::vector<RowFit> two = {row_fit("a", ExecMode::Eager, 1, 1.2),
                             row_fit("a", ExecMode::Eager, 1, 0.6)};
  FitQuality t = fit_quality(two);
  EXPECT_NEAR(t.median, 0.3, 1e-12);
  EXPECT_NEAR(t.max, 0.4, 1e-12);
  EXPECT_NEAR(t.mean_signed, -0.1, 1e-12);

  FitQuality none = fit_quality({});
  EXPECT_EQ(none.rows, 0u);
  EXPECT_EQ(none.median, 0);
  EXPECT_EQ(none.max, 0);

  std::vector<OpQuality> by_op = quality_by_op(rows);
  ASSERT_EQ(by_op.size(), 4u);
  EXPECT_EQ(by_op[0].op, "aten::add.Tensor");
  EXPECT_EQ(by_op[0].quality.rows, by_op[0].mode == ExecMode::Eager ? 2u : 1u);
  for (const OpQuality& o : by_op) {
    if (o.op == "aten::add.Tensor" && o.mode == ExecMode::Eager) {
      EXPECT_NEAR(o.quality.median, 0.1, 1e-12);
    }
  }
  EXPECT_TRUE(std::is_sorted(by_op.begin(), by_op.end(),
                             [](const OpQuality& a, const OpQuality& b) { return a.op < b.op; }));

  std::string text = format_quality(rows, "training rows");
  EXPECT_THAT(text, AllOf(HasSubstr("training rows:"), HasSubstr("eager"), HasSubstr("10.0%"),
                          HasSubstr("50.0%")));
}

// The real H100 data: calibrate on node_times.csv, then leave each graph out
// in turn. Bounds a regression of the model or the fit (at the time of
// writing: whole-graph errors about 10 %, kernel-row median about 22 %).
TEST(GraphTimings, LeaveOneGraphOutOnH100Data) {
  const std::filesystem::path dir =
      std::filesystem::path(EQFUSE_TEST_DATA) / "measurements" / "h100";
  std::vector<Measurement> rows = load_measurements((dir / "node_times.csv").string());
  ASSERT_GT(rows.size(), 200u);
  std::vector<TimedGraph> graphs =
      load_timed_graphs((dir / "whole_graph_times.json").string(), builtin_registry());
  ASSERT_EQ(graphs.size(), 4u);

  DeviceProfile base = load_device_profile("h100");
  base.set("launch_us.eager", 1);
  CalibrateOptions options;

  // Every row is used or skipped with a reason; none makes the fit throw.
  CalibrationResult fit;
  ASSERT_NO_THROW(fit = calibrate_profile(base, rows, builtin_registry(), options));
  size_t skipped = 0;
  for (const SkippedRows& s : fit.skipped) skipped += s.count;
  EXPECT_EQ(fit.rows.size() + skipped, rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    std::vector<SkippedRows> why;
    EXPECT_NO_THROW(evaluate_profile(fit.profile, std::span(rows).subspan(i, 1), builtin_registry(),
                                     options.hints, &why))
        << rows[i].where.line << " " << rows[i].op;
  }

  std::vector<HeldOutGraph> held =
      leave_one_graph_out(base, rows, graphs, builtin_registry(), options);
  ASSERT_EQ(held.size(), graphs.size());
  std::string report = format_held_out(held);
  for (const HeldOutGraph& h : held) {
    EXPECT_FALSE(h.rows.empty()) << h.graph;
    ASSERT_EQ(h.whole.size(), 2u) << h.graph;  // eager and graph replay
    for (const GraphPrediction& w : h.whole) {
      EXPECT_LE(std::abs(w.error()), 0.15) << h.graph << " " << exec_mode_name(w.mode) << "\n"
                                           << report;
      std::vector<RowFit> kernels;
      for (const RowFit& r : h.rows)
        if (r.kernel && r.mode == w.mode) kernels.push_back(r);
      ASSERT_FALSE(kernels.empty()) << h.graph << " " << exec_mode_name(w.mode);
      EXPECT_LE(fit_quality(kernels).median, 0.25)
          << h.graph << " " << exec_mode_name(w.mode) << "\n"
          << report;
    }
  }
  for (const TimedGraph& g : graphs) EXPECT_THAT(report, HasSubstr(g.name));
}

}  // namespace
}  // namespace eqfuse
