// ctest-label: golden
// Sensitivity analysis against break-even points computed by hand from the
// cost formula (docs/cost-model.md §1 and §8) for the bmm -> transpose
// fusion, decisions that never flip, and the CLI's errors on bad ranges.
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "graph/io/load.hpp"
#include "pipeline/sensitivity.hpp"
#include "tests/support/builtins.hpp"
#include "tests/support/cli_runner.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

using ::testing::HasSubstr;
using testing_support::run_eqfuse;
using testing_support::slurp_file;

// Scenario D1 (expand -> bmm -> transpose(1, 0), fp16 [4, 2, 128] x
// [4, 128, 256]); rule (d) fuses it into one npu_transpose_batchmatmul.
constexpr const char* kD1 = "tests/scenarios/fusion/D1_bmm_transpose.fx";
// ascend910b2 with the fused kernel at a fixed 11 µs, so fusing trades one
// launch against device time and the decision flips in realistic ranges.
constexpr const char* kSlowFusedProfile = "examples/profiles/910b2_slow_transpose_bmm.json";

std::string source_path(const char* rel) {
  return std::string(EQFUSE_SOURCE_DIR) + "/" + rel;
}

Graph load_file(const char* rel) {
  return load_graph(slurp_file(source_path(rel)), rel, builtin_registry()).graph;
}

// The two alternatives of D1 in reduce-overhead, term by term as
// docs/cost-model.md §1 defines them, with every number taken from the
// profile. Sizes: fp16 is 2 bytes; x1 [4, 2, 128], x2 [4, 128, 256], bmm
// result [4, 2, 256] (M = 2, N = 256, K = 128, batch 4).
struct D1ByHand {
  explicit D1ByHand(const DeviceProfile& p)
      : launch(p.get("launch_us.reduce-overhead")),
        fixed_cube(p.get("t_dev_fixed_us.cube")),
        fixed_vector(p.get("t_dev_fixed_us.vector")),
        hbm_bytes_per_us_at_eff1(p.get("hbm_bw_gbps") * 1e3),
        eff_mem(p.get("eff_mem")),
        eff_cube(p.get("eff_cube")),
        peak_cube_fp16_flops_per_us(p.get("peak_tflops.cube.fp16") * 1e6),
        overlap(p.get("overlap")),
        fused_fixed(*p.override_for("npu::npu_transpose_batchmatmul")->fixed_us) {}

  static constexpr double kX1Bytes = 4 * 2 * 128 * 2;      // 2,048
  static constexpr double kX2Bytes = 4 * 128 * 256 * 2;    // 262,144
  static constexpr double kBmmOutBytes = 4 * 2 * 256 * 2;  // 4,096
  static constexpr double kBmmBytes = kX1Bytes + kX2Bytes + kBmmOutBytes;
  static constexpr double kBmmFlops = 2.0 * (4 * 2 * 256) * 128;  // 2 x output elements x K
  static constexpr double kCopyBytes = 2 * kBmmOutBytes;          // transpose copy: read + write

  double launch, fixed_cube, fixed_vector, hbm_bytes_per_us_at_eff1, eff_mem, eff_cube,
      peak_cube_fp16_flops_per_us, overlap, fused_fixed;

  double bytes_per_us() const { return hbm_bytes_per_us_at_eff1 * eff_mem; }
  double bmm_memory_us() const { return kBmmBytes / bytes_per_us(); }
  double bmm_compute_us() const { return kBmmFlops / (peak_cube_fp16_flops_per_us * eff_cube); }
  double bmm_exec_us() const {
    double m = bmm_memory_us(), c = bmm_compute_us();
    return std::max(m, c) + (1 - overlap) * std::min(m, c);
  }
  double copy_memory_us() const { return kCopyBytes / bytes_per_us(); }
  // bmm kernel + transpose copy kernel.
  double unfused_us() const {
    return (launch + fixed_cube + bmm_exec_us()) + (launch + fixed_vector + copy_memory_us());
  }
  // One kernel whose device time is the override (no roofline part).
  double fused_us() const { return launch + fused_fixed; }

  // unfused - fused = L + (fixed_cube + fixed_vector + exec + copy - fused_fixed):
  // fusing wins above L*.
  double launch_break_even() const {
    return fused_fixed - (fixed_cube + fixed_vector + bmm_exec_us() + copy_memory_us());
  }
  // bmm memory-bound at the break-even: the memory terms of both kernels,
  // (bmm + copy bytes) / (bw · e), must fill what the fused kernel costs
  // beyond the launches, fixed times and the bmm's overlapped compute.
  double eff_mem_break_even() const {
    double memory_budget_us =
        fused_us() - (2 * launch + fixed_cube + fixed_vector) - (1 - overlap) * bmm_compute_us();
    return (kBmmBytes + kCopyBytes) / (hbm_bytes_per_us_at_eff1 * memory_budget_us);
  }
  // bmm compute-bound at the break-even: exec = t_cmp + (1 - α) t_mem.
  double eff_cube_break_even() const {
    double compute_budget_us = fused_us() - (2 * launch + fixed_cube + fixed_vector) -
                               copy_memory_us() - (1 - overlap) * bmm_memory_us();
    return kBmmFlops / (peak_cube_fp16_flops_per_us * compute_budget_us);
  }
};

struct Fixture {
  Graph graph = load_file(kD1);
  DeviceProfile profile = load_device_profile(source_path(kSlowFusedProfile));
  OptimizeOptions options() const {
    OptimizeOptions o;
    o.rules.mode = ExecMode::ReduceOverhead;
    o.profile = &profile;
    return o;
  }
  ParamSensitivity sweep(const std::string& spec) const {
    SensitivityOptions so;
    so.params = {parse_sensitivity_param(spec)};
    SensitivityReport rep = analyze_sensitivity(graph, builtin_registry(), options(), so);
    EXPECT_EQ(rep.params.size(), 1u);
    return rep.params.at(0);
  }
};

const DecisionSensitivity* find_decision(const ParamSensitivity& p, const std::string& key) {
  for (const DecisionSensitivity& d : p.decisions)
    if (d.decision == key) return &d;
  return nullptr;
}

constexpr double kRelTol = 1e-3;

// `rule:torchair/bmm-transpose` and the fused op's count flip exactly once,
// at `hand`, from `below` to `above`.
void expect_single_flip(const ParamSensitivity& p, double hand, size_t below, size_t above) {
  for (const char* key : {"rule:torchair/bmm-transpose", "op:npu::npu_transpose_batchmatmul"}) {
    const DecisionSensitivity* d = find_decision(p, key);
    ASSERT_NE(d, nullptr) << key;
    ASSERT_EQ(d->flips.size(), 1u) << key;
    EXPECT_NEAR(d->flips[0].break_even, hand, hand * kRelTol) << key;
    EXPECT_EQ(d->flips[0].below, below) << key;
    EXPECT_EQ(d->flips[0].above, above) << key;
    EXPECT_EQ(d->state(), "flips");
  }
}

// The hand terms are the model's: the same bytes, FLOPs and totals for the
// input graph's two kernels and for the optimized graph's one.
TEST(Sensitivity, HandTermsMatchTheModel) {
  Fixture f;
  D1ByHand hand(f.profile);
  OptimizeResult r = optimize_graph(f.graph, builtin_registry(), f.options());
  ASSERT_EQ(r.before.kernels, 2u);
  auto kernel = [&](std::string_view name) {
    for (const NodeCost& nc : r.before.nodes)
      if (f.graph.node(nc.node).name == name) return nc.cost;
    ADD_FAILURE() << "no node " << name;
    return CostBreakdown{};
  };
  CostBreakdown bmm = kernel("bmm"), copy = kernel("transpose");
  EXPECT_DOUBLE_EQ(bmm.bytes, D1ByHand::kBmmBytes);
  EXPECT_DOUBLE_EQ(bmm.flops, D1ByHand::kBmmFlops);
  EXPECT_NEAR(bmm.memory_us, hand.bmm_memory_us(), 1e-12);
  EXPECT_NEAR(bmm.compute_us, hand.bmm_compute_us(), 1e-12);
  EXPECT_DOUBLE_EQ(copy.bytes, D1ByHand::kCopyBytes);
  double per_graph = f.profile.get("per_graph_us.reduce-overhead");
  EXPECT_NEAR(r.before.total_us, hand.unfused_us() + per_graph, 1e-9);
  // At the default launch cost the unfused pair is cheaper (L < L*).
  EXPECT_LT(hand.unfused_us(), hand.fused_us());
  EXPECT_EQ(r.stats.fusions.count("torchair/bmm-transpose"), 0u);
  EXPECT_NEAR(r.after.total_us, r.before.total_us, 1e-9);
}

TEST(Sensitivity, LaunchBreakEvenMatchesHandComputation) {
  Fixture f;
  ParamSensitivity p = f.sweep("launch_us.reduce-overhead");  // default range 0.5 .. 8
  EXPECT_DOUBLE_EQ(p.current, 2.0);
  EXPECT_DOUBLE_EQ(p.lo, 0.5);
  EXPECT_DOUBLE_EQ(p.hi, 8.0);
  D1ByHand hand(f.profile);
  EXPECT_NEAR(hand.launch_break_even(), 2.7695, 1e-4);  // the number docs/cost-model.md quotes
  expect_single_flip(p, hand.launch_break_even(), /*below=*/0, /*above=*/1);
}

// Sweeps `spec` and checks the tool's break-even against the hand one,
// after checking that the hand value really equalizes both sides with the
// bmm on the side of the roofline the closed form assumes.
void expect_hand_break_even(const std::string& spec, double D1ByHand::*param,
                            double (D1ByHand::*break_even)() const, bool bmm_memory_bound,
                            size_t below, size_t above) {
  Fixture f;
  ParamSensitivity p = f.sweep(spec);
  D1ByHand hand(f.profile);
  D1ByHand at_break_even = hand;
  at_break_even.*param = (hand.*break_even)();
  EXPECT_EQ(at_break_even.bmm_memory_us() > at_break_even.bmm_compute_us(), bmm_memory_bound);
  EXPECT_NEAR(at_break_even.unfused_us(), at_break_even.fused_us(), 1e-9);
  expect_single_flip(p, (hand.*break_even)(), below, above);
}

// Slow memory makes the two memory-moving kernels dearer than the fixed
// 11 µs fused kernel. (New e-nodes pay a 1e-6 µs tie-break, 3 of them for
// the fused form: a 3e-6 relative shift, far inside the tolerance.)
TEST(Sensitivity, MemoryEfficiencyBreakEvenMatchesHandComputation) {
  expect_hand_break_even("eff_mem=0.1:0.75", &D1ByHand::eff_mem, &D1ByHand::eff_mem_break_even,
                         /*bmm_memory_bound=*/true, /*below=*/1, /*above=*/0);
}

// A slow cube unit makes the bmm compute-bound; the fused kernel's fixed
// time does not depend on eff_cube.
TEST(Sensitivity, CubeEfficiencyBreakEvenMatchesHandComputation) {
  expect_hand_break_even("eff_cube=0.0005:0.01", &D1ByHand::eff_cube,
                         &D1ByHand::eff_cube_break_even, /*bmm_memory_bound=*/false,
                         /*below=*/1, /*above=*/0);
}

// D1 next to scenario A5 (rule (a) candidate whose y is used elsewhere:
// never worth fusing) and C2 (rule (c): always worth fusing).
constexpr std::string_view kThreeDecisions = R"(class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[4, 2, 128]", arg1_1: "f16[4, 128, 256]", arg2_1: "f16[2, 64]", arg3_1: "f16[2, 64]", arg4_1: "f16[64]", arg5_1: "f16[64]", arg6_1: "bf16[16, 128]", arg7_1: "bf16[16, 128]", arg8_1: "bf16[128]"):
        expand: "f16[4, 2, 128]" = torch.ops.aten.expand.default(arg0_1, [4, 2, 128])
        expand_1: "f16[4, 128, 256]" = torch.ops.aten.expand.default(arg1_1, [4, 128, 256])
        bmm: "f16[4, 2, 256]" = torch.ops.aten.bmm.default(expand, expand_1)
        transpose: "f16[2, 4, 256]" = torch.ops.aten.transpose.int(bmm, 1, 0)
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg2_1, arg3_1, arg4_1)
        getitem: "f16[2, 64]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 64]" = npu_add_rms_norm[2]
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg5_1)
        getitem_3: "i8[2, 64]" = npu_dynamic_quant[0]
        getitem_4: "f32[2]" = npu_dynamic_quant[1]
        mul: "f16[2, 64]" = torch.ops.aten.mul.Tensor(getitem, getitem_2)
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(arg6_1, arg7_1, arg8_1)
        getitem_5: "bf16[16, 128]" = npu_add_rms_norm_1[0]
        getitem_6: "bf16[16, 128]" = npu_add_rms_norm_1[2]
        _to_copy: "f32[16, 128]" = torch.ops.aten._to_copy.default(getitem_5, dtype = torch.float32)
        return (transpose, getitem_3, getitem_4, mul, getitem_5, getitem_6, _to_copy)
)";

TEST(Sensitivity, DecisionsThatNeverFlipAreListedWithTheirState) {
  Fixture f;
  f.graph = load_graph(kThreeDecisions, "three.fx", builtin_registry()).graph;
  SensitivityOptions so;
  so.params = {parse_sensitivity_param("eff_mem=0.1:0.75")};
  SensitivityReport rep = analyze_sensitivity(f.graph, builtin_registry(), f.options(), so);
  const ParamSensitivity& p = rep.params.at(0);
  // The D1 part flips where it does alone: the parts are independent.
  expect_single_flip(p, D1ByHand(f.profile).eff_mem_break_even(), 1, 0);
  const DecisionSensitivity* never = find_decision(p, "rule:torchair/add-rms-norm-dynamic-quant");
  ASSERT_NE(never, nullptr) << "a rule that fired but is never chosen must be listed";
  EXPECT_TRUE(never->flips.empty());
  EXPECT_EQ(never->at_current, 0u);
  EXPECT_EQ(never->state(), "never fused");
  const DecisionSensitivity* always = find_decision(p, "rule:torchair/add-rms-norm-cast");
  ASSERT_NE(always, nullptr);
  EXPECT_TRUE(always->flips.empty());
  EXPECT_EQ(always->at_current, 1u);
  EXPECT_EQ(always->state(), "always fused");
  for (const SweepPoint& s : p.sweep) {
    EXPECT_EQ(s.decisions.at("rule:torchair/add-rms-norm-dynamic-quant"), 0u) << s.value;
    EXPECT_EQ(s.decisions.at("rule:torchair/add-rms-norm-cast"), 1u) << s.value;
  }

  std::string text = format_sensitivity_text(rep);
  EXPECT_THAT(text, HasSubstr("rule:torchair/add-rms-norm-dynamic-quant"));
  EXPECT_THAT(text, HasSubstr("never flips in range (never fused)"));
  EXPECT_THAT(text, HasSubstr("never flips in range (always fused)"));
  // The summary names exactly the decisions that change.
  std::string summary = text.substr(text.find("summary:"));
  EXPECT_THAT(summary, HasSubstr("rule:torchair/bmm-transpose at 0.1728"));
  EXPECT_THAT(summary, ::testing::Not(HasSubstr("add-rms-norm")));

  auto j = nlohmann::json::parse(sensitivity_to_json(rep));
  EXPECT_EQ(j["mode"], "reduce-overhead");
  const auto& jp = j["params"][0];
  EXPECT_EQ(jp["param"], "eff_mem");
  EXPECT_EQ(jp["changes"],
            nlohmann::json({"op:npu::npu_transpose_batchmatmul", "rule:torchair/bmm-transpose"}));
  size_t constant_rules = 0;
  for (const auto& jd : jp["decisions"]) {
    if (jd["decision"] == "rule:torchair/add-rms-norm-dynamic-quant") {
      EXPECT_EQ(jd["state"], "never fused");
      ++constant_rules;
    }
    if (jd["decision"] == "rule:torchair/add-rms-norm-cast") {
      EXPECT_EQ(jd["state"], "always fused");
      ++constant_rules;
    }
  }
  EXPECT_EQ(constant_rules, 2u);
}

// Without a range the sweep is x0.25 .. x4 of the current value, clipped to
// the parameter's domain: an efficiency stops at 1.
TEST(Sensitivity, DefaultRangeStaysInTheParameterDomain) {
  Fixture f;
  ParamSensitivity p = f.sweep("eff_mem");
  EXPECT_DOUBLE_EQ(p.lo, 0.1875);
  EXPECT_DOUBLE_EQ(p.hi, 1.0);
  // The whole range lies above the break-even (0.1728): nothing flips.
  ASSERT_FALSE(p.decisions.empty());
  for (const DecisionSensitivity& d : p.decisions) {
    EXPECT_FALSE(d.changes()) << d.decision;
    EXPECT_EQ(d.state(), "never fused") << d.decision;
  }
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
  for (const char* bad :
       {"no_such_param", "eff_mem=0.5:1.5", "launch_us.eager=-1:5", "per_graph_us.eager"}) {
    SensitivityOptions so;
    so.params = {parse_sensitivity_param("eff_mem"), parse_sensitivity_param(bad)};
    EXPECT_THROW(analyze_sensitivity(f.graph, builtin_registry(), f.options(), so), Error) << bad;
  }
}

// Bad --param values: exit 2, one clear message naming the parameter, and
// no report on stdout.
TEST(SensitivityCli, BadParametersExitTwoWithAClearMessage) {
  struct Case {
    std::string param, message;
  };
  const Case cases[] = {
      {"no_such_param",
       "--param 'no_such_param': device profile 'ascend910b2' has no parameter 'no_such_param' "
       "and the graph no symbol of that name (parameters: "},
      {"eff_mem=0.5:0.1", "--param 'eff_mem=0.5:0.1': LO must be below HI"},
      {"eff_mem=0.5:0.5", "--param 'eff_mem=0.5:0.5': LO must be below HI"},
      {"eff_mem=low:0.5", "--param 'eff_mem=low:0.5': 'low' is not a number (expected NAME=LO:HI)"},
      {"eff_mem=0.5", "--param 'eff_mem=0.5': expected NAME=LO:HI"},
      {"launch_us.eager=-1:5",
       "--param 'launch_us.eager=-1:5': launch_us.eager must be in [0, inf); the range -1 .. 5 "
       "leaves it"},
      {"eff_mem=0.5:2",
       "--param 'eff_mem=0.5:2': eff_mem must be in (0, 1]; the range 0.5 .. 2 leaves it"},
      {"per_graph_us.eager",
       "--param 'per_graph_us.eager': empty range [0, 0] (current value 0; "
       "give NAME=LO:HI)"},
  };
  for (const Case& c : cases) {
    auto r = run_eqfuse(fmt::format("sensitivity {} --param {}", kD1, c.param));
    EXPECT_EQ(r.exit_code, 2) << c.param << "\n" << r.err;
    EXPECT_THAT(r.err, HasSubstr(c.message)) << c.param;
    EXPECT_EQ(r.out, "") << c.param;
  }
  auto steps = run_eqfuse(fmt::format("sensitivity {} --param eff_mem --steps 1", kD1));
  EXPECT_EQ(steps.exit_code, 2);
  EXPECT_THAT(steps.err, HasSubstr("--steps"));
}

TEST(SensitivityCli, ReportsBreakEvenAndSummary) {
  auto r = run_eqfuse(
      fmt::format("sensitivity {} --device {} --param eff_mem=0.1:0.75", kD1, kSlowFusedProfile));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("rule:torchair/bmm-transpose"));
  EXPECT_THAT(r.out, HasSubstr("0.1728 (1 -> 0)"));
  EXPECT_THAT(r.out, HasSubstr("summary: decisions that change across the range\n  eff_mem 0.1 "
                               ".. 0.75: op:npu::npu_transpose_batchmatmul at 0.1728; "
                               "rule:torchair/bmm-transpose at 0.1728\n"));
  auto again = run_eqfuse(
      fmt::format("sensitivity {} --device {} --param eff_mem=0.1:0.75", kD1, kSlowFusedProfile));
  EXPECT_EQ(again.out, r.out);  // deterministic
}

// A symbolic dim of the graph sweeps like a parameter, over whole sizes:
// the DeepSeek layer's transpose + batch-matmul fusion only pays from two
// tokens on (one token: the transpose is a free view).
TEST(Sensitivity, SymbolicDimSweepsWholeSizes) {
  auto r = run_eqfuse("sensitivity examples/deepseek_layer.fx --param s0 --range 1:64 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& p : j["params"]) {
    EXPECT_EQ(p["param"], "s0");
    for (const auto& d : p["decisions"]) {
      if (d["decision"] != "rule:torchair/transpose-batchmatmul-perm-x1") continue;
      found = true;
      ASSERT_EQ(d["flips"].size(), 1u) << d.dump();
      EXPECT_EQ(d["flips"][0]["break_even"].get<double>(), 2.0);
    }
    for (const auto& pt : p["sweep"]) {
      double v = pt["value"].get<double>();
      EXPECT_EQ(v, std::round(v));
    }
  }
  EXPECT_TRUE(found) << r.out;
  auto bad = run_eqfuse("sensitivity examples/deepseek_layer.fx --param s0=0.5:8");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("whole sizes"));
}

// A symbol swept past what int64 holds is an error before any optimizer run:
// a bound beyond 2^63, or sizes of the graph that leave int64 at an end of the
// range (was: a double cast to int64 out of range, then wrapped sizes).
TEST(Sensitivity, SymbolRangesWhoseSizesLeaveInt64AreErrors) {
  auto beyond = run_eqfuse("sensitivity examples/add_rms_norm_cast.fx --param s0 --range 1:1e30");
  EXPECT_EQ(beyond.exit_code, 2);
  EXPECT_THAT(beyond.err, HasSubstr("a size must fit in 63 bits"));
  auto sizes = run_eqfuse(
      "sensitivity examples/add_rms_norm_cast.fx --param s0 --range 1:4611686018427387904");
  EXPECT_EQ(sizes.exit_code, 2);
  EXPECT_THAT(sizes.err, HasSubstr("size of input 'arg1_1' bf16[s0, 4096] with "
                                   "s0=4611686018427387904 does not fit in 63 bits"));
  // The default range (4x the hint) is clipped to int64, then checked the same way.
  auto hinted = run_eqfuse(
      "sensitivity examples/add_rms_norm_cast.fx --param s0 --hint s0=4611686018427387904");
  EXPECT_EQ(hinted.exit_code, 2);
  EXPECT_THAT(hinted.err, HasSubstr("does not fit in 63 bits"));
  Graph g = load_file("examples/add_rms_norm_cast.fx");
  SensitivityOptions so;
  so.params = {parse_sensitivity_param("s0=1:4611686018427387904")};
  OptimizeOptions options;
  EXPECT_THROW(analyze_sensitivity(g, builtin_registry(), options, so), Error);
}

}  // namespace
}  // namespace eqfuse
