// Sensitivity analysis against break-even points computed by hand from the
// cost formula (docs/cost-model.md) for the bmm -> transpose fusion.
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "extract/sensitivity.hpp"
#include "graph/load.hpp"

namespace eqfuse {
namespace {

// Scenario D1: expand -> bmm -> transpose(1, 0), fp16; rule (d) fuses it
// into one npu_transpose_batchmatmul.
constexpr std::string_view kBmmTranspose = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]"):
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        return (transpose,)
)";

const OpRegistry& reg() {
  static const OpRegistry r = OpRegistry::with_builtin_ops();
  return r;
}

// ascend910b2, reduce-overhead, with the fused kernel's device time forced
// to 11 µs, so fusing trades one launch L against device time:
//   unfused: bmm + transpose copy = 2 L + 2 * 4 (t_dev_fixed) + exec
//     bmm bytes 4096 + 262144 + 4096 = 270336 at 1600 GB/s * 0.75 -> 0.22528 µs,
//         flops 2*2048*128 = 524288 at 353.9 TFLOPS * 0.85 -> 0.0017429 µs,
//         exec = 0.22528 + 0.05 * 0.0017429 = 0.2253671
//     copy bytes 2 * 4096 -> 0.0068267 µs
//     = 2 L + 8.2321938
//   fused: L + 11
// Fused wins when L + 11 < 2 L + 8.2321938, i.e. above L* = 2.7678062.
DeviceProfile scenario_profile() {
  DeviceProfile p = load_device_profile("ascend910b2");
  p.overrides["npu::npu_transpose_batchmatmul"].fixed_us = 11.0;
  return p;
}

struct Fixture {
  Graph graph = load_graph(kBmmTranspose, "d1.fx", reg()).graph;
  DeviceProfile profile = scenario_profile();
  OptimizeOptions options() const {
    OptimizeOptions o;
    o.rules.mode = ExecMode::ReduceOverhead;
    o.profile = &profile;
    return o;
  }
};

const DecisionSensitivity* find_decision(const ParamSensitivity& p, const std::string& key) {
  for (const DecisionSensitivity& d : p.decisions)
    if (d.decision == key) return &d;
  return nullptr;
}

TEST(Sensitivity, LaunchBreakEvenMatchesHandComputation) {
  Fixture f;
  SensitivityOptions so;
  so.params = {parse_sensitivity_param("launch_us.reduce-overhead")};  // 0.5 .. 8
  SensitivityReport rep = analyze_sensitivity(f.graph, reg(), f.options(), so);
  ASSERT_EQ(rep.params.size(), 1u);
  const ParamSensitivity& p = rep.params[0];
  EXPECT_DOUBLE_EQ(p.current, 2.0);
  EXPECT_DOUBLE_EQ(p.lo, 0.5);
  EXPECT_DOUBLE_EQ(p.hi, 8.0);
  const DecisionSensitivity* rule = find_decision(p, "rule:torchair/bmm-transpose");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->at_current, 0u);  // at L = 2 the unfused pair is cheaper
  ASSERT_EQ(rule->flips.size(), 1u);
  EXPECT_NEAR(rule->flips[0].break_even, 2.7678062, 2e-3);
  EXPECT_EQ(rule->flips[0].below, 0u);
  EXPECT_EQ(rule->flips[0].above, 1u);
  const DecisionSensitivity* op = find_decision(p, "op:npu::npu_transpose_batchmatmul");
  ASSERT_NE(op, nullptr);
  ASSERT_EQ(op->flips.size(), 1u);
  EXPECT_NEAR(op->flips[0].break_even, 2.7678062, 2e-3);
}

// With L = 2: fused 13 µs vs unfused 12.0000871 + 0.2321067 * (0.75 / eff_mem)
// (bmm memory 0.22528 and copy 0.0068267 scale with 1 / eff_mem), equal at
// eff_mem = 0.75 * 0.2321067 / 0.9999129 = 0.174095.
TEST(Sensitivity, BandwidthBreakEvenAndNeverFlips) {
  Fixture f;
  SensitivityOptions so;
  so.params = {parse_sensitivity_param("eff_mem=0.1:0.75"), parse_sensitivity_param("eff_mem")};
  SensitivityReport rep = analyze_sensitivity(f.graph, reg(), f.options(), so);
  ASSERT_EQ(rep.params.size(), 2u);
  const DecisionSensitivity* d = find_decision(rep.params[0], "rule:torchair/bmm-transpose");
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->flips.size(), 1u);
  // The tool finds 0.17229; the hand sum above gives 0.174095 (1 % apart: a
  // term the hand sum leaves out, not yet found; docs/status.md). The exact
  // check is the decision itself on both sides of the reported point.
  const double be = d->flips[0].break_even;
  EXPECT_NEAR(be, 0.174095, 0.174095 * 0.015);
  EXPECT_EQ(d->flips[0].below, 1u);  // slow memory: the fused kernel wins
  EXPECT_EQ(d->flips[0].above, 0u);
  auto fuses_at = [&](double eff_mem) {
    DeviceProfile p = f.profile;
    p.set("eff_mem", eff_mem);
    OptimizeOptions o = f.options();
    o.profile = &p;
    return optimize_graph(f.graph, reg(), o).stats.fusions.count("torchair/bmm-transpose") > 0;
  };
  EXPECT_TRUE(fuses_at(be * 0.99));
  EXPECT_FALSE(fuses_at(be * 1.01));
  // Default range 0.1875 .. 3 starts above the break-even point: nothing flips.
  for (const DecisionSensitivity& x : rep.params[1].decisions)
    EXPECT_TRUE(x.flips.empty()) << x.decision;
  std::string text = format_sensitivity_text(rep);
  EXPECT_NE(text.find(fmt::format("{:.4f}", be)), std::string::npos) << text;
  auto j = nlohmann::json::parse(sensitivity_to_json(rep));
  EXPECT_EQ(j["mode"], "reduce-overhead");
  EXPECT_EQ(j["params"][0]["param"], "eff_mem");
  EXPECT_FALSE(j["params"][0]["decisions"].empty());
}

TEST(Sensitivity, ParamSpecs) {
  SensitivityParam p = parse_sensitivity_param("launch_us.eager=5:40");
  EXPECT_EQ(p.name, "launch_us.eager");
  EXPECT_DOUBLE_EQ(*p.lo, 5);
  EXPECT_DOUBLE_EQ(*p.hi, 40);
  EXPECT_FALSE(parse_sensitivity_param("overlap").lo.has_value());
  EXPECT_THROW(parse_sensitivity_param("overlap=1"), Error);
  EXPECT_THROW(parse_sensitivity_param("overlap=0.9:x"), Error);
  EXPECT_THROW(parse_sensitivity_param("overlap=0.9:0.1"), Error);
  Fixture f;
  SensitivityOptions so;
  so.params = {parse_sensitivity_param("no_such_param")};
  EXPECT_THROW(analyze_sensitivity(f.graph, reg(), f.options(), so), Error);
}

}  // namespace
}  // namespace eqfuse
