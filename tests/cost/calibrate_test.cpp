// Calibration: measurement parsing (CSV/JSON, errors naming line and
// column) and recovering known profile parameters from measurements the
// cost model generated with them.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cost/calibrate.hpp"
#include "cost/device_profile.hpp"
#include "graph/op_registry.hpp"
#include "tests/support/builtins.hpp"

namespace eqfuse {
namespace {

using testing_support::builtin_registry;

Measurement row(std::string op, std::vector<std::string> inputs, ExecMode mode) {
  Measurement m;
  m.op = std::move(op);
  m.inputs = std::move(inputs);
  m.mode = mode;
  m.measured_us = 1;  // replaced by the generated time
  return m;
}

// Memory-bound vector ops, memory- and compute-bound matmuls, in two modes.
std::vector<Measurement> workload() {
  std::vector<Measurement> rows;
  for (ExecMode mode : {ExecMode::Eager, ExecMode::ReduceOverhead}) {
    for (int tokens : {16, 256, 4096}) {
      std::string act = "bf16[" + std::to_string(tokens) + ", 4096]";
      rows.push_back(row("aten::add.Tensor", {act, act}, mode));
      rows.push_back(row("npu::npu_rms_norm", {act, "bf16[4096]"}, mode));
      rows.push_back(row("aten::mm", {act, "bf16[4096, 4096]"}, mode));
    }
    rows.push_back(row("aten::mul.Tensor", {"f32[64, 1024]", "f32[64, 1024]"}, mode));
    rows.push_back(row("aten::bmm", {"bf16[8, 1024, 2048]", "bf16[8, 2048, 1024]"}, mode));
  }
  return rows;
}

// The model's time for every row under `profile` (calibrating against
// dummy times reports the base profile's prediction per row).
std::vector<double> model_times(const DeviceProfile& profile, std::vector<Measurement> rows) {
  CalibrationResult r = calibrate_profile(profile, rows, builtin_registry());
  std::vector<double> out;
  for (const RowFit& f : r.rows) out.push_back(f.before_us);
  return out;
}

DeviceProfile truth_profile() {
  DeviceProfile p = load_device_profile("ascend910b2");
  p.set("launch_us.eager", 15);
  p.set("launch_us.reduce-overhead", 3);
  p.set("t_dev_fixed_us.cube", 6);
  p.set("eff_mem", 0.6);
  p.set("eff_cube", 0.7);
  return p;  // t_dev_fixed_us.vector stays 4 (held by the fit), eff_vec 0.7
}

// Deterministic noise of amplitude `rel` (no RNG: same numbers everywhere).
std::vector<Measurement> generated(const DeviceProfile& truth, double rel) {
  std::vector<Measurement> rows = workload();
  std::vector<double> times = model_times(truth, rows);
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i].measured_us = times[i] * (1 + rel * std::sin(1.7 * static_cast<double>(i) + 0.3));
  return rows;
}

double param_after(const CalibrationResult& r, const std::string& name) {
  for (const FittedParam& p : r.params)
    if (p.name == name) return p.after;
  ADD_FAILURE() << "no fitted parameter " << name;
  return 0;
}

TEST(Calibrate, RecoversKnownParametersFromExactData) {
  DeviceProfile base = load_device_profile("ascend910b2");
  CalibrationResult r =
      calibrate_profile(base, generated(truth_profile(), 0.0), builtin_registry());
  EXPECT_NEAR(param_after(r, "launch_us.eager"), 15, 0.01);
  EXPECT_NEAR(param_after(r, "launch_us.reduce-overhead"), 3, 0.01);
  EXPECT_NEAR(param_after(r, "t_dev_fixed_us.cube"), 6, 0.01);
  EXPECT_NEAR(param_after(r, "t_dev_fixed_us.vector"), 4, 1e-12);  // held
  EXPECT_NEAR(param_after(r, "eff_mem"), 0.6, 0.001);
  EXPECT_NEAR(param_after(r, "eff_cube"), 0.7, 0.001);
  EXPECT_LT(r.rel_rms_after, 1e-4);
  EXPECT_GT(r.rel_rms_before, 0.05);  // the base profile really was off
  EXPECT_TRUE(r.overrides.empty());
  // No max-autotune or mix rows: those parameters keep their base values.
  EXPECT_EQ(r.profile.get("launch_us.max-autotune"), base.get("launch_us.max-autotune"));
  EXPECT_EQ(r.profile.get("t_dev_fixed_us.mix"), base.get("t_dev_fixed_us.mix"));
}

TEST(Calibrate, RecoversWellDeterminedParametersWithNoise) {
  CalibrationResult r = calibrate_profile(load_device_profile("ascend910b2"),
                                          generated(truth_profile(), 0.01), builtin_registry());
  EXPECT_NEAR(param_after(r, "launch_us.eager"), 15, 0.75);
  EXPECT_NEAR(param_after(r, "launch_us.reduce-overhead"), 3, 0.5);
  EXPECT_NEAR(param_after(r, "t_dev_fixed_us.cube"), 6, 1.0);
  EXPECT_NEAR(param_after(r, "eff_mem"), 0.6, 0.03);
  EXPECT_NEAR(param_after(r, "eff_cube"), 0.7, 0.035);
  EXPECT_LT(r.rel_rms_after, 0.012);  // about the noise level
  double eff_vec = param_after(r, "eff_vec");
  EXPECT_GE(eff_vec, 0.01);  // weakly determined (memory-bound rows), but within its bounds
  EXPECT_LE(eff_vec, 1.0);
}

TEST(Calibrate, DenseBadlyFittingOpGetsFixedOverride) {
  DeviceProfile truth = truth_profile();
  std::vector<Measurement> rows = generated(truth, 0.0);
  // npu_swiglu takes ~30 µs whatever its size: the roofline cannot fit that.
  for (int tokens : {16, 128, 1024, 8192}) {
    Measurement m = row("npu::npu_swiglu", {"bf16[" + std::to_string(tokens) + ", 8192]"},
                        ExecMode::ReduceOverhead);
    m.measured_us = 3 + 30;
    rows.push_back(m);
  }
  CalibrationResult r =
      calibrate_profile(load_device_profile("ascend910b2"), rows, builtin_registry());
  ASSERT_EQ(r.overrides.size(), 1u);
  EXPECT_EQ(r.overrides[0].op, "npu::npu_swiglu");
  EXPECT_EQ(r.overrides[0].mode, ExecMode::ReduceOverhead);
  EXPECT_EQ(r.overrides[0].what, "fixed_us");
  EXPECT_EQ(r.overrides[0].rows, 4u);
  EXPECT_NEAR(r.overrides[0].value, 30, 0.05);
  const OpCostOverride* ov = r.profile.override_for("npu::npu_swiglu");
  ASSERT_NE(ov, nullptr);
  size_t ro = static_cast<size_t>(ExecMode::ReduceOverhead);
  ASSERT_TRUE(ov->fixed_us_in[ro].has_value());
  EXPECT_NEAR(*ov->fixed_us_in[ro], 30, 0.05);
  EXPECT_FALSE(ov->fixed_us.has_value());  // eager keeps the class model: no eager rows
  // The other rows still determine the roofline parameters.
  EXPECT_NEAR(param_after(r, "eff_mem"), 0.6, 0.001);
  EXPECT_NEAR(param_after(r, "launch_us.reduce-overhead"), 3, 0.01);
  // The fitted profile round-trips through JSON.
  EXPECT_EQ(parse_device_profile(device_profile_to_json(r.profile), "fit.json"), r.profile);
}

TEST(Calibrate, BoundsClampEfficiency) {
  DeviceProfile truth = truth_profile();
  std::vector<Measurement> rows = generated(truth, 0.0);
  // Times 3x faster than HBM allows at eff_mem = 1: the fit stops at the bound.
  for (Measurement& m : rows) m.measured_us *= 0.2;
  CalibrationResult r =
      calibrate_profile(load_device_profile("ascend910b2"), rows, builtin_registry());
  EXPECT_LE(param_after(r, "eff_mem"), 1.0);
  EXPECT_LE(param_after(r, "eff_cube"), 1.0);
  EXPECT_GE(param_after(r, "launch_us.eager"), 0.0);
  bool some_clamped = false;
  for (const FittedParam& p : r.params) some_clamped |= p.status == "clamped to bound";
  EXPECT_TRUE(some_clamped);
}

TEST(Measurements, CsvWithQuotedInputs) {
  std::string csv =
      "# exported by a profiler\n"
      "op,inputs,mode,measured_us,name\n"
      "npu::npu_rms_norm,\"bf16[16, 4096]; bf16[4096]; 1e-06\",eager,25.5,rms_1\n"
      "aten::mm,\"bf16[16, 4096];bf16[4096, 4096]\",aclgraph,40,\n";
  std::vector<Measurement> rows = parse_measurements(csv, "m.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].op, "npu::npu_rms_norm");
  EXPECT_EQ(rows[0].inputs, (std::vector<std::string>{"bf16[16, 4096]", "bf16[4096]", "1e-06"}));
  EXPECT_EQ(rows[0].mode, ExecMode::Eager);
  EXPECT_DOUBLE_EQ(rows[0].measured_us, 25.5);
  EXPECT_EQ(rows[0].where.line, 3);
  EXPECT_EQ(rows[1].mode, ExecMode::ReduceOverhead);
  EXPECT_EQ(rows[1].inputs.size(), 2u);
}

TEST(Measurements, JsonFormMatchesCsv) {
  std::string json = R"({"measurements": [
    {"op": "npu::npu_rms_norm", "inputs": ["bf16[16, 4096]", "bf16[4096]", "1e-06"],
     "mode": "eager", "measured_us": 25.5}]})";
  std::vector<Measurement> rows = parse_measurements(json, "m.json");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].inputs, (std::vector<std::string>{"bf16[16, 4096]", "bf16[4096]", "1e-06"}));
  EXPECT_DOUBLE_EQ(rows[0].measured_us, 25.5);
}

TEST(Measurements, BadNumberNamesLineAndColumn) {
  std::string csv =
      "op,inputs,mode,measured_us\n"
      "aten::add.Tensor,\"f32[4]; f32[4]\",eager,12\n"
      "aten::add.Tensor,\"f32[4]; f32[4]\",eager,12us\n";
  try {
    parse_measurements(csv, "bad.csv");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().file, "bad.csv");
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_EQ(e.loc().column, 41);  // where "12us" starts
    EXPECT_NE(std::string(e.what()).find("measured_us"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("12us"), std::string::npos) << e.what();
  }
}

TEST(Measurements, BadModeAndMissingColumnAreErrors) {
  try {
    parse_measurements("op,inputs,mode,measured_us\naten::mm,\"f32[2, 2]; f32[2, 2]\",warp,3\n",
                       "m.csv");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 2);
    EXPECT_EQ(e.loc().column, 33);
    EXPECT_NE(std::string(e.what()).find("column 'mode'"), std::string::npos) << e.what();
  }
  try {
    parse_measurements("op,inputs,measured_us\n", "m.csv");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.loc().line, 1);
    EXPECT_NE(std::string(e.what()).find("'mode'"), std::string::npos) << e.what();
  }
}

TEST(Measurements, UnusableRowsAreSkippedAndCounted) {
  std::vector<Measurement> rows = parse_measurements(
      "op,inputs,mode,measured_us\n"
      "npu::no_such_op,f32[4],eager,3\n"
      "aten::mm,\"f32[2, 3]; f32[4, 5]\",eager,3\n"
      "aten::view,\"f32[4, 4]; [16]\",reduce-overhead,0.2\n"
      "aten::add.Tensor,\"f32[4]; f32[4]\",eager,9\n"
      "aten::view,\"f32[4, 4]; [16]\",eager,3\n"
      "aten::cat,\"[f32[1, 1], f32[1, 16]]; -1\",eager,10\n",
      "m.csv");
  CalibrationResult r =
      calibrate_profile(load_device_profile("ascend910b2"), rows, builtin_registry());
  ASSERT_EQ(r.skipped.size(), 3u);
  EXPECT_NE(r.skipped[0].reason.find("op registry"), std::string::npos);
  EXPECT_EQ(r.skipped[0].first, "m.csv:2 npu::no_such_op");
  EXPECT_NE(r.skipped[1].reason.find("type-check"), std::string::npos);
  EXPECT_EQ(r.skipped[1].first, "m.csv:3 aten::mm");
  EXPECT_NE(r.skipped[2].reason.find("graph mode"), std::string::npos);
  // The add, the eager view (host dispatch) and the cat of a tensor list are used.
  ASSERT_EQ(r.rows.size(), 3u);
  EXPECT_TRUE(r.rows[0].kernel);
  EXPECT_FALSE(r.rows[1].kernel);
  EXPECT_EQ(r.rows[2].op, "aten::cat");
  std::string text = format_calibration(r);
  EXPECT_NE(text.find("note: skipped 1 row(s): op not in the op registry"), std::string::npos)
      << text;
}

// Keyword tensors and symbolic dims (evaluated with the hints) are rows too.
TEST(Measurements, KeywordTensorsAndSymbolicDimsAreUsed) {
  std::vector<Measurement> rows = parse_measurements(
      "op,inputs,mode,measured_us\n"
      "npu::npu_quant_matmul,\"i8[16, 128]; i8[128, 256]; f32[256]; pertoken_scale=f32[16]; "
      "output_dtype=torch.bfloat16\",eager,20\n"
      "aten::mm,\"f32[s0, 128]; f32[128, 64]\",eager,12\n",
      "m.csv");
  CalibrateOptions opt;
  opt.hints.values["s0"] = 16;
  CalibrationResult r =
      calibrate_profile(load_device_profile("ascend910b2"), rows, builtin_registry(), opt);
  EXPECT_TRUE(r.skipped.empty()) << format_calibration(r);
  EXPECT_EQ(r.rows.size(), 2u);
}

TEST(Measurements, NoUsableRowIsAnError) {
  std::vector<Measurement> rows =
      parse_measurements("op,inputs,mode,measured_us\nnpu::no_such_op,f32[4],eager,3\n", "m.csv");
  try {
    calibrate_profile(load_device_profile("ascend910b2"), rows, builtin_registry());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("m.csv:2 npu::no_such_op"), std::string::npos) << e.what();
  }
}

TEST(Measurements, NegativeOrNanTimeNamesTheRow) {
  for (std::string bad : {"-3", "nan"}) {
    try {
      parse_measurements("op,inputs,mode,measured_us\naten::add.Tensor,f32[4],eager," + bad + "\n",
                         "m.csv");
      FAIL() << "expected an error for " << bad;
    } catch (const Error& e) {
      EXPECT_EQ(e.loc().line, 2);
      EXPECT_NE(std::string(e.what()).find("measured_us"), std::string::npos) << e.what();
    }
  }
}

// Eager rows are max(host dispatch, device time): host-bound small kernels
// and views recover the host parameters, device-bound matmuls the roofline.
TEST(Calibrate, RecoversTheEagerHostSide) {
  DeviceProfile truth = truth_profile();
  truth.set("host_us.eager", 12);
  truth.set("host_free_us.eager", 3);
  truth.set("launch_us.eager", 1);
  std::vector<Measurement> rows = generated(truth, 0.0);
  for (const char* shape : {"f32[4, 4]", "f32[64, 64]", "f32[8, 512]"}) {
    Measurement m = row("aten::view", {shape, "[-1]"}, ExecMode::Eager);
    m.measured_us = 3;
    rows.push_back(m);
  }
  DeviceProfile base = load_device_profile("ascend910b2");
  base.set("launch_us.eager", 1);  // the device-side gap: host-bound rows cannot show it
  CalibrationResult r = calibrate_profile(base, rows, builtin_registry());
  EXPECT_NEAR(param_after(r, "host_us.eager"), 12, 0.01);
  EXPECT_NEAR(param_after(r, "host_free_us.eager"), 3, 0.01);
  EXPECT_NEAR(param_after(r, "eff_mem"), 0.6, 0.001);
  EXPECT_LT(r.rel_rms_after, 1e-3);
  // Graph modes have no host side: held at 0.
  EXPECT_EQ(r.profile.get("host_us.reduce-overhead"), 0);
}

// One wild row among many good ones moves the Huber fit less than the
// plain least-squares fit.
TEST(Calibrate, OutlierDoesNotDominate) {
  std::vector<Measurement> rows = generated(truth_profile(), 0.0);
  rows[0].measured_us *= 0.05;  // a relative error of +1900 % for the model
  CalibrateOptions plain;
  plain.huber_rel = 1e9;
  plain.min_rows_for_override = 1000;
  CalibrateOptions robust;
  robust.min_rows_for_override = 1000;
  DeviceProfile base = load_device_profile("ascend910b2");
  double robust_err = std::abs(
      param_after(calibrate_profile(base, rows, builtin_registry(), robust), "launch_us.eager") -
      15);
  double plain_err = std::abs(
      param_after(calibrate_profile(base, rows, builtin_registry(), plain), "launch_us.eager") -
      15);
  EXPECT_LT(robust_err, 0.5 * plain_err) << robust_err << " vs " << plain_err;
}

}  // namespace
}  // namespace eqfuse
