// ctest-label: golden
// `optimize` on graphs that write memory in place (in-place ops, copy_
// epilogues, buffers such as empty_like that are written later): the
// e-graph treats values as immutable, so calls that see different data
// must not be merged (bridge/from_graph.hpp, docs/egraph.md "Graphs with
// in-place ops"). Every result is checked against its input with the
// reference interpreter.
#include <filesystem>
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "graph/io/fx_printer.hpp"
#include "graph/io/load.hpp"
#include "interp/equivalence.hpp"
#include "passes/reinplace.hpp"
#include "pipeline/optimize.hpp"

namespace eqfuse {
namespace {

namespace fs = std::filesystem;

void expect_optimized_equivalent(const std::string& fx, const std::string& origin, ExecMode mode,
                                 OpRegistry& reg) {
  Graph in = load_graph(fx, origin, reg).graph;
  OptimizeOptions opt;
  opt.rules.mode = mode;
  OptimizeResult r = optimize_graph(in, reg, opt);
  EquivalenceOptions eo;
  eo.trials = 3;
  eo.mode = ToleranceMode::Rounding;
  EquivalenceResult eq = equivalent(in, r.graph, reg, eo);
  EXPECT_TRUE(eq.ok) << origin << " (" << exec_mode_name(mode) << "): " << eq.first_mismatch;
}

OptimizeResult optimize_with_defaults(const std::string& fx, const std::string& origin,
                                      const OpRegistry& reg) {
  OptimizeOptions defaults;
  return optimize_graph(load_graph(fx, origin, reg).graph, reg, defaults);
}

void expect_equivalent_in_every_mode(const std::string& fx, const std::string& origin) {
  OpRegistry reg = OpRegistry::with_builtin_ops();
  for (ExecMode m : {ExecMode::Eager, ExecMode::MaxAutotune, ExecMode::ReduceOverhead})
    expect_optimized_equivalent(fx, origin, m, reg);
}

// Two buffers made by the same call; one is written: they are two places.
TEST(OptimizeInPlace, EqualBuffersWrittenLaterStayApart) {
  expect_equivalent_in_every_mode(R"(class f(torch.nn.Module):
    def forward(self, x: "f32[3]"):
        a: "f32[3]" = torch.ops.aten.zeros_like.default(x)
        add_: "f32[3]" = torch.ops.aten.add_.Tensor(a, x)
        b: "f32[3]" = torch.ops.aten.zeros_like.default(x)
        mul: "f32[3]" = torch.ops.aten.mul.Tensor(b, x)
        return (a, mul)
)",
                                  "buffers.fx");
}

// The same read before and after a write computes two different values.
TEST(OptimizeInPlace, ReadsBeforeAndAfterAWriteStayApart) {
  expect_equivalent_in_every_mode(R"(class f(torch.nn.Module):
    def forward(self, x: "f32[3]", y: "f32[3]"):
        a: "f32[3]" = torch.ops.aten.add.Tensor(x, y)
        m1: "f32[3]" = torch.ops.aten.mul.Tensor(a, y)
        add_: "f32[3]" = torch.ops.aten.add_.Tensor(a, x)
        m2: "f32[3]" = torch.ops.aten.mul.Tensor(a, y)
        return (m1, m2)
)",
                                  "reads.fx");
}

// Two equal writes are two writes; a write through a view changes its base.
TEST(OptimizeInPlace, RepeatedWritesAndWritesThroughViews) {
  expect_equivalent_in_every_mode(R"(class f(torch.nn.Module):
    def forward(self, x: "f32[2, 3]", y: "f32[6]"):
        c: "f32[2, 3]" = torch.ops.aten.clone.default(x)
        add_: "f32[2, 3]" = torch.ops.aten.add_.Tensor(c, x)
        add__1: "f32[2, 3]" = torch.ops.aten.add_.Tensor(c, x)
        v: "f32[6]" = torch.ops.aten.view.default(c, [6])
        before: "f32[6]" = torch.ops.aten.mul.Tensor(v, y)
        mul_: "f32[6]" = torch.ops.aten.mul_.Tensor(v, y)
        after: "f32[2, 3]" = torch.ops.aten.mul.Tensor(c, x)
        again: "f32[6]" = torch.ops.aten.mul.Tensor(v, y)
        return (before, after, again)
)",
                                  "views.fx");
}

// Writes into graph inputs (copy_ epilogues) keep every earlier read
// mergeable: the fusion still happens.
TEST(OptimizeInPlace, CopyEpilogueIntoAnInputKeepsTheFusionBeforeIt) {
  const std::string fx = R"(class f(torch.nn.Module):
    def forward(self, x1: "f16[2, 16]", x2: "f16[2, 16]", gamma: "f16[16]", scales: "f32[16]", cache: "f16[2, 16]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, gamma)
        y: "f16[2, 16]" = npu_add_rms_norm[0]
        x_out: "f16[2, 16]" = npu_add_rms_norm[2]
        q: "i8[2, 16]" = torch.ops.npu.npu_quantize.default(y, scales, None, torch.qint8, -1)
        copy_: "f16[2, 16]" = torch.ops.aten.copy_.default(cache, x_out)
        return (q, cache)
)";
  OpRegistry reg = OpRegistry::with_builtin_ops();
  OptimizeResult r = optimize_with_defaults(fx, "epilogue.fx", reg);
  EXPECT_EQ(call_target_counts(r.graph)["npu::npu_add_rms_norm_quant"], 1)
      << print_fx(r.graph, &reg);
  expect_equivalent_in_every_mode(fx, "epilogue.fx");
}

// Rules that return an input (layout/cast-same-dtype, noop/clone, ...) must
// not turn a copy taken before an in-place write into the written storage
// itself: its name holds the new data afterwards (rewrites/rule.hpp "Rules
// that return an input"). Before the guard, the same-dtype cast below was
// dropped and `optimize` returned the overwritten input.
TEST(OptimizeInPlace, CopiesOfAStorageWrittenLaterAreKept) {
  const std::string fx = R"(class f(torch.nn.Module):
    def forward(self, x: "f32[2, 8]", y: "f32[2, 8]"):
        cast: "f32[2, 8]" = torch.ops.aten._to_copy.default(x, dtype = torch.float32)
        v: "f32[16]" = torch.ops.aten.view.default(x, [16])
        c: "f32[16]" = torch.ops.aten.clone.default(v)
        s: "f32[2, 8]" = torch.ops.aten.slice.Tensor(y, 0, 0, 9223372036854775807)
        add: "f32[2, 8]" = torch.ops.aten.add.Tensor(s, 1)
        copy_: "f32[2, 8]" = torch.ops.aten.copy_.default(x, add)
        mul: "f32[16]" = torch.ops.aten.mul.Tensor(c, 2)
        return (cast, mul)
)";
  OpRegistry reg = OpRegistry::with_builtin_ops();
  OptimizeResult r = optimize_with_defaults(fx, "forwarding.fx", reg);
  std::map<std::string, int64_t> ops = call_target_counts(r.graph);
  EXPECT_EQ(ops["aten::_to_copy"], 1) << print_fx(r.graph, &reg);
  EXPECT_EQ(ops["aten::clone"], 1) << print_fx(r.graph, &reg);
  EXPECT_EQ(ops["aten::slice.Tensor"], 0) << "y is never written: its full slice goes";
  size_t refused = 0;
  for (const RuleRunStats& rule : r.stats.rules)
    refused += rule.rejected_by.count("x is not a storage written in place");
  EXPECT_EQ(refused, 2u) << "layout/cast-same-dtype and noop/clone name the guard";
  expect_equivalent_in_every_mode(fx, "forwarding.fx");
}

// Two empty_like buffers are two buffers even though nothing writes them
// before the table op: merged, the op could not write both in place (R12).
TEST(OptimizeInPlace, UninitializedBuffersStayApartSoTheTableOpIsReinplaced) {
  const fs::path dir = fs::path(EQFUSE_SOURCE_DIR) / "tests/scenarios/reinplace";
  const std::string config_path = (dir / "custom_ops.json").string();
  OpRegistry reg = OpRegistry::with_builtin_ops();
  OptimizeOptions opt;
  apply_reinplace_config_json(opt.reinplace, reg, read_file_or_stdin(config_path), config_path);
  const std::string path = (dir / "R12.fx").string();
  Graph in = load_graph(read_file_or_stdin(path), path, reg).graph;
  OptimizeResult r = optimize_graph(in, reg, opt);
  auto ops = call_target_counts(r.graph);
  EXPECT_EQ(ops["aten::empty_like"], 2) << print_fx(r.graph, &reg);
  EXPECT_EQ(ops["custom::sin_cos_inplace"], 1) << print_fx(r.graph, &reg);
  EXPECT_EQ(ops["custom::sin_cos_functional"], 0);
}

// Pass B replaces an auto_functionalized call by its op and the clones it
// could not elide. The cost model prices the call as that op plus all its
// clones, so the comparison is like for like: eliding clones saves kernels
// and time, keeping them costs nothing extra.
TEST(OptimizeInPlace, DecomposedAutoFunctionalizedNeverCostsMoreThanTheCall) {
  const fs::path dir = fs::path(EQFUSE_SOURCE_DIR) / "tests/scenarios/reinplace";
  const std::string config_path = (dir / "custom_ops.json").string();
  for (const char* name : {"R3.fx", "R5.fx"}) {
    SCOPED_TRACE(name);
    OpRegistry reg = OpRegistry::with_builtin_ops();
    OptimizeOptions opt;
    apply_reinplace_config_json(opt.reinplace, reg, read_file_or_stdin(config_path), config_path);
    const std::string path = (dir / name).string();
    Graph in = load_graph(read_file_or_stdin(path), path, reg).graph;
    OptimizeResult r = optimize_graph(in, reg, opt);
    EXPECT_EQ(r.stats.auto_functionalized.decomposed_calls, 1u);
    EXPECT_LE(r.stats.kernels_after, r.stats.kernels_before);
    EXPECT_LE(r.stats.cost_after_us, r.stats.cost_before_us + 1e-9);
  }
}

// Every reinplace scenario (torchair-passes.md §8.4-§8.6: in-place ops, copy_ epilogues,
// streams, auto_functionalized) through the whole pipeline.
TEST(OptimizeInPlace, EveryReinplaceScenarioStaysEquivalent) {
  const fs::path dir = fs::path(EQFUSE_SOURCE_DIR) / "tests/scenarios/reinplace";
  const std::string config_path = (dir / "custom_ops.json").string();
  const std::string config = read_file_or_stdin(config_path);
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".fx") continue;
    OpRegistry reg = OpRegistry::with_builtin_ops();
    ReinplaceOptions ro;
    apply_reinplace_config_json(ro, reg, config, config_path);
    const std::string path = entry.path().string();
    for (ExecMode m : {ExecMode::Eager, ExecMode::ReduceOverhead})
      expect_optimized_equivalent(read_file_or_stdin(path), path, m, reg);
    ++checked;
  }
  EXPECT_GE(checked, 39u);
}

}  // namespace
}  // namespace eqfuse
